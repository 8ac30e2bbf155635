#!/usr/bin/env bash
# Installs everything the build and the tests need, skipping what is already there:
# the wasm32 target, clippy and rustfmt; wasm-bindgen-cli (the version in Cargo.lock)
# and worker-build from crates.io; clang from Debian; Node 22, wrangler, the MCP SDK
# and the conformance suite from npm (package-lock.json); the Python MCP client from PyPI;
# Chromium from Debian for the MCP Apps view's browser test. It writes no file of the
# repository (scripts/test.sh checks that): view/dist/view.html is checked in, and
# scripts/build-view.sh rebuilds it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ensure_apt_packages
ensure_rust
ensure_wasm_tools
ensure_node_modules
ensure_python_client
ensure_chromium >/dev/null || warn "without chromium, tests/e2e/view.test.mjs cannot run"
# cargo-fuzz (ensure_fuzz_tools) is installed by scripts/fuzz.sh when it first runs: in
# scripts/test.sh that is beside the end-to-end suites, where it costs no time of its own.
log "setup done: $(rustc --version | cut -d' ' -f1-2), wasm-bindgen $(lock_version wasm-bindgen), worker-build $(worker-build --version), node $(node --version), wrangler $(wrangler --version 2>/dev/null | tail -1)"
