#!/usr/bin/env bash
# Builds the Worker bundle into build/ (build/worker/shim.mjs, build/index.js, build/index_bg.wasm).
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
# (README, "Worker bundle size"): opt-level z; the function-name section stripped
# (ENTREZ_WASM_NAMES=1 keeps it, for readable stack traces while debugging); and
# SQLite, which the Worker only uses to prepare queries on a schema replica, built
# without the extensions and APIs a replica never touches (full-text search, R-tree,
# sessions, dbstat/dbpage/bytecode tables, UTF-16, WAL, tracing, incremental blobs).
# JSON, math and window functions, virtual tables (json_each, pragma_*) and the
# authorizer stay: queries that use them must prepare exactly as on Durable Objects.
# After worker-build, binaryen's wasm-opt (npm package binaryen, pinned in package.json) runs
# -O1 with duplicate-function elimination: 1.3% smaller gzipped. Its -Oz and -Os shrink the
# raw module more but grow the gzipped one (README), so they are not used. ENTREZ_WASM_OPT=0
# skips the pass.
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
WORKER_TOOLCHAIN="${ENTREZ_WORKER_TOOLCHAIN:-$WORKER_NIGHTLY}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target/worker}"
if [ "$WORKER_TOOLCHAIN" != stable ]; then
  export RUSTUP_TOOLCHAIN="$WORKER_TOOLCHAIN"
  export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
  export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
  export RUSTFLAGS="${RUSTFLAGS:-} -Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Zfmt-debug=shallow"
fi
export RUSTFLAGS="${RUSTFLAGS:-} -Ctarget-feature=+simd128"
export CARGO_PROFILE_RELEASE_OPT_LEVEL="${CARGO_PROFILE_RELEASE_OPT_LEVEL:-z}"
if [ "${ENTREZ_WASM_NAMES:-0}" != 1 ]; then
  export CARGO_PROFILE_RELEASE_STRIP=symbols
fi
export SQLITE_WASM_RS_FLAGS="${SQLITE_WASM_RS_FLAGS:-\
-USQLITE_ENABLE_FTS5 -USQLITE_ENABLE_RTREE -USQLITE_ENABLE_SESSION -USQLITE_ENABLE_PREUPDATE_HOOK \
-USQLITE_ENABLE_DBSTAT_VTAB -USQLITE_ENABLE_DBPAGE_VTAB -USQLITE_ENABLE_BYTECODE_VTAB \
-USQLITE_ENABLE_STMTVTAB -USQLITE_ENABLE_UNLOCK_NOTIFY -USQLITE_ENABLE_COLUMN_METADATA \
-DSQLITE_OMIT_UTF16 -DSQLITE_OMIT_COMPLETE -DSQLITE_OMIT_GET_TABLE -DSQLITE_OMIT_INCRBLOB \
-DSQLITE_OMIT_SHARED_CACHE -DSQLITE_OMIT_WAL -DSQLITE_OMIT_PROGRESS_CALLBACK -DSQLITE_OMIT_TRACE \
-DSQLITE_OMIT_DEPRECATED -DSQLITE_OMIT_DECLTYPE -DSQLITE_DEFAULT_MEMSTATUS=0}"
worker-build --release "$@"

if [ "${ENTREZ_WASM_OPT:-1}" != 0 ]; then
  wasm_opt="$ROOT/node_modules/.bin/wasm-opt"
  [ -x "$wasm_opt" ] || ensure_node_modules
  # The features the Rust target and wasm-bindgen emit, and nothing beyond them.
  "$wasm_opt" --enable-bulk-memory --enable-bulk-memory-opt --enable-call-indirect-overlong \
    --enable-multivalue --enable-mutable-globals --enable-nontrapping-float-to-int \
    --enable-reference-types --enable-sign-ext --enable-simd --enable-exception-handling \
    -O1 --duplicate-function-elimination "$ROOT/build/index_bg.wasm" -o "$ROOT/build/index_bg.opt.wasm"
  mv "$ROOT/build/index_bg.opt.wasm" "$ROOT/build/index_bg.wasm"
fi
