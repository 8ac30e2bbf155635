#!/usr/bin/env bash
# How much of NCBI's budget each edge uses, and whether it ever passes it.
#
# Against ncbi-replay, which counts every request in a sliding second and answers 429 past
# NCBI's limit exactly as it reads (3 per second per address, 10 per key), each edge serves
# concurrent searches in three ways: without a key (45 calls), with the server's NCBI_API_KEY
# (90 calls), and with the caller's own X-NCBI-API-Key (90 calls). For each the benchmark
# reports the steady upstream rate, the most requests in any one-second window, the 429s, and
# where a request's time went before it left (the grant's round trip to the pacing authority,
# how late the request woke after its slot, waking to arrival at the stand-in), read from the
# X-Entrez-Pacing header each request carries under ENTREZ_PACING_TRACE=1.
#
# Usage: bash scripts/bench-pacing.sh          (figures go into docs/src/pacing.md)
#        BENCH_PACING_ROUNDS=3 bash scripts/bench-pacing.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$ROOT/scripts/servers.sh"
cd "$ROOT"

ROUNDS="${BENCH_PACING_ROUNDS:-1}"
bench_build

start_replay ncbi-replay || die "the replay did not start"
replay="$REPLAY_BASE"
common="$TMP/common.env"
{
  echo "EUTILS_BASE_URL=$replay/entrez/eutils/"
  echo "ENTREZ_PACING_TRACE=1"
  echo "MCP_SESSION_SECRET=bench-pacing-session-secret-0123456789abcdef"
  # One address calls thousands of times: no ceiling of the deployment's should matter.
  echo "ENTREZ_ANONYMOUS_STAGINGS_PER_HOUR=100000"
} >"$common"
# A second deployment of each edge holds a server key, which its operator lets anonymous
# callers spend (a Worker, or a server whose ALLOWED_HOSTS reach beyond loopback, does not
# by default).
{
  cat "$common"
  echo "NCBI_API_KEY=bench-pacing-server-key-$(date +%s)"
  echo "ENTREZ_ANONYMOUS_USE_SERVER_KEY=yes"
} >"$TMP/keyed.env"

start_native "native" "$common" ENTREZ_DATA_DIR=:memory:
native="$NATIVE_URL"
start_native "native (server key)" "$TMP/keyed.env" ENTREZ_DATA_DIR=:memory:
native_keyed="$NATIVE_URL"
prepare_worker
start_worker plain "$common" "$(free_port)"
worker="$WORKER_URL"
start_worker keyed "$TMP/keyed.env" "$(free_port)"
worker_keyed="$WORKER_URL"

node="$ROOT/node_modules/.bin/node"
out="$ROOT/target/bench-pacing.jsonl"
: >"$out"
for round in $(seq 1 "$ROUNDS"); do
  for edge in native worker; do
    plain_url="$native"; keyed_url="$native_keyed"
    if [ "$edge" = worker ]; then plain_url="$worker"; keyed_url="$worker_keyed"; fi
    # Each request's trace (asked, grant trip, slot, late, to arrival, retakes) goes to a file.
    BENCH_PACING_DUMP=1 "$node" scripts/bench-pacing.mjs "$edge no key (round $round)" "$plain_url" "$replay" 45 \
      2>"$ROOT/target/bench-pacing-$edge-nokey-$round.tsv" | tee -a "$out"
    BENCH_PACING_DUMP=1 "$node" scripts/bench-pacing.mjs "$edge server key (round $round)" "$keyed_url" "$replay" 90 \
      2>"$ROOT/target/bench-pacing-$edge-serverkey-$round.tsv" | tee -a "$out"
    BENCH_PACING_DUMP=1 "$node" scripts/bench-pacing.mjs "$edge caller key (round $round)" "$plain_url" "$replay" 90 "bench-caller-key-$round" \
      2>"$ROOT/target/bench-pacing-$edge-callerkey-$round.tsv" | tee -a "$out"
  done
done
log "results in $out"
"$node" -e '
const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
console.log("| run | steady upstream rate | of the limit | most in any 1 s | 429s | grant round trip (median / p95) | woke after slot (median / p95) | woke to arrival (median) | retakes |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of lines) {
  const limit = r.caller === "key" ? 10 : 3;
  console.log(`| ${r.label} | ${r.steady_per_s}/s | ${Math.round(100 * r.steady_per_s / limit)}% | ${r.max_in_any_1s} of ${limit} | ${r.rate_limited} | ${r.grant_rtt_ms.median} / ${r.grant_rtt_ms.p95} ms | ${r.woke_late_ms.median} / ${r.woke_late_ms.p95} ms | ${r.woke_to_arrival_ms.median} ms | ${r.retakes} |`);
}' "$out"
