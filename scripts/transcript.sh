#!/usr/bin/env bash
# Prints a short session with the native server over stdio, as the README and the book's
# introduction show it: the official TypeScript SDK client (scripts/transcript.mjs) starts
# `entrez-mcp stdio` against the local stand-ins for NCBI, PubChem and PMC, so the answers
# are the recorded ones (the search answers every term with the recording of "biopython").
#
#   bash scripts/transcript.sh
#
# Builds the server (dev profile) and the stand-ins (e2e profile) if they are missing.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
NATIVE_PROFILE=debug
REPLAY_PROFILE=e2e
[ -x target/debug/entrez-mcp ] || cargo build --bin entrez-mcp || exit 1
[ -x target/e2e/ncbi-replay ] && [ -x target/e2e/external-replay ] || cargo build --profile e2e -p entrez-mcp-replay || exit 1
source "$ROOT/scripts/servers.sh"
start_replay ncbi-replay 2>/dev/null && eutils_base="$REPLAY_BASE" || exit 1
start_replay external-replay 2>/dev/null && external_base="$REPLAY_BASE" || exit 1
mkdir -p "$TMP/data"
CALLS='[
 {"name":"entrez_query","arguments":{"operation":"search","term":"biopython"}},
 {"name":"entrez_query","arguments":{"operation":"fetch","ids":["9500320"],"detail":"brief"}},
 {"name":"entrez_data","arguments":{"operation":"fetch_and_stage","ids":["12091962","9997","11748933","11700088","27797938","28775130","30108519","9500320"]}},
 {"name":"entrez_data","arguments":{"operation":"query","data_access_id":"$ID","sql":"SELECT pmid, year, retracted, journal FROM article ORDER BY retracted DESC, year DESC LIMIT 3"}},
 {"name":"validate","arguments":{"tool":"entrez_query","arguments":{"operation":"fetch","database":"pubmd","ids":"12091962"}}}
]'
BIN="$ROOT/target/debug/entrez-mcp" DATA_DIR="$TMP/data" EUTILS_BASE_URL="$eutils_base/entrez/eutils/" \
  PUBCHEM_BASE_URL="$external_base/rest/pug/" PMC_IDCONV_URL="$external_base/tools/idconv/api/v1/articles/" \
  CALLS="$CALLS" node "$ROOT/scripts/transcript.mjs"
