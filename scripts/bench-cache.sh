#!/usr/bin/env bash
# The cache of upstream answers on an agent workload: upstream requests, 429s and wall time
# with ENTREZ_CACHE off and on, natively and on the Worker under wrangler dev, in one run.
#
# Against the NCBI and PMC replays, which enforce NCBI's limits (3 requests per second per
# IP without a key), twenty simulated agents work at once on four overlapping topics
# (scripts/bench-cache.mjs says what each does). Each edge runs the workload on a server
# with the cache off, then on one with it on; the replays' counts are reset before each.
#
# Usage: bash scripts/bench-cache.sh          (figures go into docs/src/cache.md)
#        BENCH_REBUILD_WORKER=0 bash scripts/bench-cache.sh   (reuse build/)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$ROOT/scripts/servers.sh"
cd "$ROOT"

bench_build

start_replays
ncbi="$NCBI_REPLAY"
external="$EXTERNAL_REPLAY"
prepare_worker
node="$ROOT/node_modules/.bin/node"
out="$ROOT/target/bench-cache.jsonl"
: >"$out"
for setting in off on; do
  env_file="$TMP/cache-$setting.env"
  {
    echo "EUTILS_BASE_URL=$ncbi/entrez/eutils/"
    echo "PMC_IDCONV_URL=$external/tools/idconv/api/v1/articles/"
    echo "MCP_SESSION_SECRET=bench-cache-session-secret-0123456789abcdef"
    echo "ENTREZ_CACHE=$setting"
  } >"$env_file"
  start_native "native cache $setting" "$env_file" ENTREZ_DATA_DIR=:memory:
  "$node" scripts/bench-cache.mjs native "$setting" "$NATIVE_URL" "$ncbi" "$external" | tee -a "$out"
  start_worker "cache-$setting" "$env_file" "$(free_port)"
  "$node" scripts/bench-cache.mjs worker "$setting" "$WORKER_URL" "$ncbi" "$external" | tee -a "$out"
done
log "results in $out"
"$node" -e '
const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
console.log("| edge | cache | tool calls | E-utilities requests | PMC requests | upstream per call | 429s | wall time |");
console.log("|---|---|---|---|---|---|---|---|");
for (const r of lines) {
  console.log(`| ${r.edge} | ${r.cache} | ${r.tool_calls} | ${r.eutils_requests} | ${r.pmc_requests} | ${r.upstream_per_call} | ${r.http_429} | ${r.wall_s} s |`);
}
for (const edge of ["native", "worker"]) {
  const [off, on] = ["off", "on"].map((c) => lines.find((r) => r.edge === edge && r.cache === c));
  if (!off || !on) continue;
  const saved = 1 - (on.eutils_requests + on.pmc_requests) / (off.eutils_requests + off.pmc_requests);
  console.log(`${edge}: ${Math.round(saved * 100)}% fewer upstream requests, ${(off.wall_s / on.wall_s).toFixed(1)}x sooner`);
}' "$out"
