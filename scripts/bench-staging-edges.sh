#!/usr/bin/env bash
# Staging speed on both edges in one run: 2,000 heavy PubMed records (22 authors, 38
# affiliations, 21 MeSH headings each) staged by one fetch_and_stage call through the native
# server and through the Worker under wrangler dev, against the same ncbi-replay with NCBI's
# real limits; every row is counted afterwards. With BENCH_BASELINE=<git revision> the Worker
# bundle of that revision is built in a worktree and measured beside today's (docs/src/performance.md's
# before-and-after), with the same replay and the same records.
#
# Usage: bash scripts/bench-staging-edges.sh
#        BENCH_BASELINE=251cbf9~1 BENCH_RECORDS=2000 BENCH_ROUNDS=3 bash scripts/bench-staging-edges.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$ROOT/scripts/servers.sh"
cd "$ROOT"

RECORDS="${BENCH_RECORDS:-2000}"
ROUNDS="${BENCH_ROUNDS:-3}"
bench_build

baseline_dir=""
if [ -n "${BENCH_BASELINE:-}" ]; then
  baseline_dir="$ROOT/target/bench-baseline"
  rev="$(git rev-parse "$BENCH_BASELINE")"
  if [ ! -f "$baseline_dir/.rev" ] || [ "$(cat "$baseline_dir/.rev")" != "$rev" ]; then
    log "building the Worker bundle of $BENCH_BASELINE ($rev) in a worktree"
    git worktree remove --force "$baseline_dir" 2>/dev/null || rm -rf "$baseline_dir"
    git worktree add --detach "$baseline_dir" "$rev" >/dev/null
    ln -s "$ROOT/node_modules" "$baseline_dir/node_modules"
    # Its own target directory: nothing of today's build is reused or disturbed.
    (cd "$baseline_dir" && CARGO_TARGET_DIR="$ROOT/target/bench-baseline-build" bash scripts/build-worker.sh >/dev/null)
    echo "$rev" >"$baseline_dir/.rev"
  fi
fi

start_replay ncbi-replay || die "the replay did not start"
settings="$TMP/settings.env"
{
  echo "EUTILS_BASE_URL=$REPLAY_BASE/entrez/eutils/"
  echo "MCP_SESSION_SECRET=bench-staging-session-secret-0123456789abcdef"
  echo "ENTREZ_ANONYMOUS_STAGINGS_PER_HOUR=100000"
  # The Worker logs each append's statements and its round trip to the dataset object.
  echo "ENTREZ_STAGING_TRACE=1"
} >"$settings"
start_native "native" "$settings" ENTREZ_DATA_DIR="$TMP/native-data"
native="$NATIVE_URL"
prepare_worker
WORKER_LOG_LEVEL=log start_worker today "$settings" "$(free_port)"
worker="$WORKER_URL"
baseline=""
if [ -n "$baseline_dir" ]; then
  # The same wrangler dev, on the baseline's bundle.
  mkdir -p "$TMP/worker-baseline"
  cp -r "$baseline_dir/build" "$TMP/worker-baseline/build"
  awk '/^\[/ { skip = ($0 == "[build]") } !skip' "$baseline_dir/wrangler.toml" >"$TMP/worker-baseline/wrangler.toml"
  port="$(free_port)"
  start_bg "wrangler dev (baseline)" "$TMP/wrangler-baseline.log" env WRANGLER_REGISTRY_PATH="$TMP/wrangler-registry-baseline" \
    wrangler dev --config "$TMP/worker-baseline/wrangler.toml" --ip 127.0.0.1 --port "$port" \
    --inspector-port "$(free_port)" --persist-to "$TMP/wrangler-state-baseline" --env-file "$settings" \
    --show-interactive-dev-session=false --log-level info
  wait_http "http://127.0.0.1:$port/" "$BG_PID" "wrangler dev (baseline)" && baseline="http://127.0.0.1:$port/mcp"
fi

node="$ROOT/node_modules/.bin/node"
out="$ROOT/target/bench-staging-edges.jsonl"
: >"$out"
for round in $(seq 1 "$ROUNDS"); do
  "$node" scripts/bench-staging-edges.mjs "native (round $round)" "$native" "$RECORDS" | tee -a "$out"
  "$node" scripts/bench-staging-edges.mjs "worker (round $round)" "$worker" "$RECORDS" | tee -a "$out"
  if [ -n "$baseline" ]; then
    "$node" scripts/bench-staging-edges.mjs "worker at $BENCH_BASELINE (round $round)" "$baseline" "$RECORDS" | tee -a "$out"
  fi
done
log "results in $out"
log "where a Worker batch's time went (today's bundle; wrangler's log):"
grep -h "staging trace" "$TMP/wrangler-today.log" | sed "s/.*staging trace: /  /" || true
