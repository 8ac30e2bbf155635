#!/usr/bin/env bash
# What a model reads from each edge: characters per typical research task.
#
# Against the NCBI and PubChem replays, each edge runs five tasks (read 5 and 20 abstracts,
# skim 50 search hits, compare 3 compounds, look at 20 rows of a dataset) at the default
# detail and at detail full, and reports the characters of the text blocks and of
# structuredContent beside the information floor, the characters of the fields the task
# asks for. scripts/bench-reading.mjs says how each floor is counted.
#
# Usage: bash scripts/bench-reading.sh          (figures go into docs/src/budgets.md)
#        BENCH_REBUILD_WORKER=0 bash scripts/bench-reading.sh   (reuse build/)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$ROOT/scripts/servers.sh"
cd "$ROOT"

bench_build

start_replays
ncbi="$NCBI_REPLAY"
external="$EXTERNAL_REPLAY"
env_file="$TMP/reading.env"
{
  echo "EUTILS_BASE_URL=$ncbi/entrez/eutils/"
  echo "PUBCHEM_BASE_URL=$external/rest/pug/"
  echo "MCP_SESSION_SECRET=bench-reading-session-secret-0123456789abcdef"
} >"$env_file"

start_native native "$env_file" ENTREZ_DATA_DIR=:memory:
native="$NATIVE_URL"
prepare_worker
start_worker worker "$env_file" "$(free_port)"
worker="$WORKER_URL"

node="$ROOT/node_modules/.bin/node"
out="$ROOT/target/bench-reading.jsonl"
: >"$out"
"$node" scripts/bench-reading.mjs native "$native" | tee -a "$out"
"$node" scripts/bench-reading.mjs worker "$worker" | tee -a "$out"
log "results in $out"
"$node" -e '
const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
console.log("| edge | task | detail | floor | text | text / floor | structuredContent | structured / text | cut |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of lines) {
  console.log(`| ${r.edge} | ${r.task} | ${r.detail} | ${r.floor} | ${r.text} | ${r.text_per_floor} | ${r.structured} | ${r.structured_per_text} | ${r.cut ? "yes" : "no"} |`);
}' "$out"
