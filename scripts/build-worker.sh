#!/usr/bin/env bash
# Builds the Worker bundle into build/ (build/worker/shim.mjs, build/index.js, build/index_bg.wasm).
# wrangler runs this as its [build] command; it is also run directly by scripts/test.sh.
#
# Nothing comes from GitHub: WASM_BINDGEN_BIN points worker-build at the wasm-bindgen CLI
# installed from crates.io at the version in Cargo.lock, ESBUILD_BIN at the esbuild that
# npm installed, and wasm-opt is off (Cargo.toml: [package.metadata.wasm-pack.profile.release]).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

ensure_wasm_tools
export WASM_BINDGEN_BIN="$CARGO_BIN/wasm-bindgen"
if esb="$(esbuild_bin)"; then
  export ESBUILD_BIN="$esb"
fi
# Size matters more than speed for the Worker bundle (Workers' 3 MiB gzip limit);
# the native binary keeps Cargo.toml's opt-level 3.
export CARGO_PROFILE_RELEASE_OPT_LEVEL="${CARGO_PROFILE_RELEASE_OPT_LEVEL:-s}"
worker-build --release "$@"
