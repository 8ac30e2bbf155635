#!/usr/bin/env bash
# Builds the Worker bundle (the crate in worker/) into build/ (build/worker/shim.mjs,
# build/index.js, build/index_bg.wasm), and its static assets into build/assets/ (the view).
# wrangler runs this as its [build] command; it is also run directly by scripts/test.sh.
#
# Nothing comes from GitHub: WASM_BINDGEN_BIN points worker-build at the wasm-bindgen CLI
# installed from crates.io at the version in Cargo.lock, ESBUILD_BIN at the esbuild that
# npm installed; worker-build's own wasm-opt, which it would download, is off (Cargo.toml:
# [package.metadata.wasm-pack.profile.release]) and binaryen's from npm runs after it instead.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

ensure_wasm_tools
export WASM_BINDGEN_BIN="$CARGO_BIN/wasm-bindgen"
if esb="$(esbuild_bin)"; then
  export ESBUILD_BIN="$esb"
fi
# Size matters more than speed for the Worker bundle (Workers' gzip limits: 3 MB free,
# 10 MB paid); the native binary keeps Cargo.toml's opt-level 3. Measured choices
# (docs/src/workers-plans.md; its history in CHANGELOG.md): opt-level z, but the parser at its own level (Cargo.toml,
# [profile.release.package.entrez-mcp-parse]); function names go to wasm-opt, which orders
# functions by them and leaves them out of its output (ENTREZ_WASM_NAMES=1 keeps them, for
# readable stack traces while debugging); and
# SQLite, which the Worker only uses to prepare queries on a schema replica, built
# without the extensions and APIs a replica never touches (full-text search, R-tree,
# sessions, dbstat/dbpage/bytecode tables, UTF-16, WAL, tracing, incremental blobs,
# deserialize, test hooks), and without the query planner's extras a replica that holds no
# rows never gains from (automatic indexes, the transfer, count(*), LIKE, OR, BETWEEN and
# truncate optimizations, quick-balance): statements prepare, and are authorized, as before.
# JSON, math and window functions, virtual tables (json_each, pragma_*) and the
# authorizer stay: queries that use them must prepare exactly as on Durable Objects.
# After worker-build, binaryen's wasm-opt (npm package binaryen, pinned in package.json) runs
# -O1 with duplicate-function elimination (1.3% smaller gzipped), dead-argument
# elimination and a last clean-up of locals and blocks (0.3%), and orders functions by crate, then by their first bytes of code
# (scripts/wasm-order-names.mjs: 6.7% smaller gzipped). Its -Oz and -Os shrink the raw module more but grow the gzipped one
# (CHANGELOG.md), so they are not used. ENTREZ_WASM_OPT=0 skips the pass.
# SIMD (simd128, which Workers' V8 runs) is on: the module is smaller and parsing faster.
# With the pinned nightly (scripts/lib.sh, the default) the standard library is rebuilt for
# size, panics abort at once without formatting a message, and panic locations are left
# out: 8% smaller gzipped than the stable build (1.42 MB against 1.55 MB). A panic then
# ends the request as a bare wasm trap, with no message in the Worker's log; build with
# ENTREZ_WORKER_TOOLCHAIN=stable (and ENTREZ_WASM_NAMES=1) to see messages and names.
# The nightly build also prints derived Debug shallowly (-Zfmt-debug=shallow: a struct's or
# variant's name without its fields; str, numbers and collections print as ever): nothing a
# caller reads is made from derived Debug output, and it is 1% of the gzipped bundle.
# Its own target directory keeps the native build's stable artifacts from being rebuilt.
# worker-build builds the crate it is run in (worker/) into its build/; the bundle then
# moves to build/ at the top, where wrangler.toml's `main` points.
worker_rust_env
# Arguments after -- go to cargo: the parser's own opt-level on the Worker.
(cd "$ROOT/worker" && worker-build --release "$@" -- "${WORKER_PARSE_CONFIG[@]}")
rm -rf "$ROOT/build"
mv "$ROOT/worker/build" "$ROOT/build"
# The MCP Apps view, served from static assets (wrangler.toml's [assets]) rather than the wasm.
mkdir -p "$ROOT/build/assets"
cp "$ROOT/view/dist/view.html" "$ROOT/build/assets/view.html"

worker_wasm_opt "$ROOT/build/index_bg.wasm"
