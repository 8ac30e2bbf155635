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
# Usage: scripts/bench-worker-cpu.sh            (figures go into docs/src/workers-plans.md)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

ensure_wasm_tools
ensure_worker_toolchain
[ -x "$ROOT/node_modules/.bin/node" ] || ensure_node_modules
out="$ROOT/target/bench-wasm"

# An opt-level as cargo's --config takes it: letters quoted, numbers as they are.
opt_value() {
  case "$1" in [0-9]) echo "$1" ;; *) echo "\"$1\"" ;; esac
}

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
# For comparison, in the same run (ENTREZ_BENCH_COMPARE, names separated by spaces):
#   parse-N   the parser crate at opt-level N (z, s, 1, 2, 3), the rest as shipped;
#   all-N     every crate at opt-level N, the parser included;
#   rest-N    every crate but the parser at opt-level N, the parser as shipped;
#   nosimd    without simd128.
# ENTREZ_BENCH_QUICK=1 builds none of them.
compare="${ENTREZ_BENCH_COMPARE:-parse-2 parse-z}"
[ "${ENTREZ_BENCH_QUICK:-0}" = 1 ] && compare=""
for variant in $compare; do
  case "$variant" in
    parse-*) build "$variant" 1 --config "profile.release.package.entrez-mcp-parse.opt-level=$(opt_value "${variant#parse-}")" ;;
    all-*) CARGO_PROFILE_RELEASE_OPT_LEVEL="${variant#all-}" build "$variant" 1 \
      --config "profile.release.package.entrez-mcp-parse.opt-level=$(opt_value "${variant#all-}")" ;;
    rest-*) CARGO_PROFILE_RELEASE_OPT_LEVEL="${variant#rest-}" build "$variant" 1 "${WORKER_PARSE_CONFIG[@]}" ;;
    nosimd) build nosimd 0 "${WORKER_PARSE_CONFIG[@]}" ;;
    *) die "unknown comparison $variant (parse-N, all-N, rest-N, nosimd)" ;;
  esac
done
# Each build's module, gzipped as the bundle is (the JavaScript glue aside).
for d in "$out"/*/; do
  printf '%s %s\n' "$(basename "$d")" "$(gzip -9 -c "$d/entrez_mcp_worker_bg.wasm" | wc -c)"
done >"$out/sizes.txt"
cat "$out/sizes.txt"

node="$ROOT/node_modules/.bin/node"
# ENTREZ_BENCH_FIRST_ONLY=1: only the first requests (while working on start-up).
[ "${ENTREZ_BENCH_FIRST_ONLY:-0}" = 1 ] || "$node" scripts/bench-worker-cpu.mjs "$out" | tee "$out/report.txt"
log "a fresh isolate's first request for each tool: five new processes per tool"
for tool in tools/list entrez_query entrez_data entrez_external entrez_capabilities entrez_tool_info system_api_key_status validate; do
  for _ in 1 2 3 4 5; do "$node" scripts/bench-worker-cpu.mjs "$out" first "$tool"; done
done | tee "$out/first.txt"
"$node" -e '
  const rows = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
  const by = {};
  for (const r of rows) (by[r.tool] ??= []).push(r);
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [tool, rs] of Object.entries(by)) {
    const f = (k) => `${med(rs.map((r) => r[k])).toFixed(1)} (max ${Math.max(...rs.map((r) => r[k])).toFixed(1)})`;
    console.log(`${tool.padEnd(22)} module ${f("module_ms")} ms, startup ${f("startup_ms")} ms, first request ${f("first_request_ms")} ms (server ${f("server_build_ms")}, call ${f("first_call_ms")})`);
  }' "$out/first.txt" | tee "$out/first-summary.txt"
