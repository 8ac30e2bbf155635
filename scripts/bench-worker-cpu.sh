#!/usr/bin/env bash
# CPU per operation of the Worker's wasm: parse MB/s, CPU per 500-article batch, and CPU per
# fetch_and_stage request under the free-plan and the default (paid) budgets.
#
# Why this way: a Worker cannot read its own CPU clock, and wrangler dev does not enforce or
# report CPU per request. So the core is built for wasm exactly as the Worker is (the same
# toolchain, flags, opt-level and wasm-opt pass, scripts/lib.sh worker_rust_env), with the
# `cpu-bench` feature exporting what a request does (worker/src/cpu_bench.rs), and run under Node's
# V8, the engine Workers run, measuring this thread's CPU. The shipped build and one with the
# parser at the rest's opt-level are measured in the same run (and, with ENTREZ_BENCH_NOSIMD=1,
# one without simd128). NCBI and the Durable Objects are in-memory
# stand-ins that answer at once: on Workers, waiting on them costs no CPU.
#
# Usage: scripts/bench-worker-cpu.sh            (figures go into the README, "CPU per request")
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

ensure_wasm_tools
ensure_worker_toolchain
[ -x "$ROOT/node_modules/.bin/node" ] || ensure_node_modules
out="$ROOT/target/bench-wasm"

# build NAME SIMD [CARGO ARGS...]: the benchmark module, into $out/NAME.
build() {
  local name="$1" simd="$2"
  shift 2
  (
    export CARGO_TARGET_DIR="$ROOT/target/bench-wasm-build-$name" ENTREZ_WASM_SIMD="$simd"
    worker_rust_env
    log "building the benchmark module ($name)"
    cargo build --quiet --lib --release --target wasm32-unknown-unknown -p entrez-mcp-worker --features cpu-bench "$@"
    "$CARGO_BIN/wasm-bindgen" --target nodejs --out-dir "$out/$name" \
      "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/entrez_mcp_worker.wasm"
    worker_wasm_opt "$out/$name/entrez_mcp_worker_bg.wasm"
    # wasm-bindgen's nodejs glue is CommonJS; the project's package.json says "module".
    echo '{"type": "commonjs"}' > "$out/$name/package.json"
  )
}
rm -rf "$out"
# The shipped settings.
build simd 1 "${WORKER_PARSE_CONFIG[@]}"
# For comparison, in the same run: the parser at the rest's opt-level z instead of its own
# (scripts/lib.sh, WORKER_PARSE_CONFIG).
build parse-z 1 --config 'profile.release.package.entrez-mcp-parse.opt-level="z"'
# ENTREZ_BENCH_NOSIMD=1: also without simd128.
if [ "${ENTREZ_BENCH_NOSIMD:-0}" = 1 ]; then
  build nosimd 0 "${WORKER_PARSE_CONFIG[@]}"
fi

node="$ROOT/node_modules/.bin/node"
"$node" scripts/bench-worker-cpu.mjs "$out" | tee "$out/report.txt"
log "a fresh module's first free-plan call, five new processes"
for _ in 1 2 3 4 5; do "$node" scripts/bench-worker-cpu.mjs "$out" cold; done | tee "$out/cold.txt"
