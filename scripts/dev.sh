#!/usr/bin/env bash
# Runs the Worker locally with wrangler dev: http://127.0.0.1:8787/mcp
#
#   bash scripts/dev.sh                 # port 8787
#   PORT=9000 bash scripts/dev.sh       # another port; extra arguments go to wrangler dev
#
# Installs what is missing first (scripts/setup.sh). Nothing talks to Cloudflare: no login,
# no telemetry, no cf.json download; the bundle is built locally by scripts/build-worker.sh
# (wrangler's [build] command), and rebuilt when src/ or schemas/ change.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

bash "$ROOT/scripts/setup.sh"
if [ ! -f .dev.vars ]; then
  cp .dev.vars.example .dev.vars
  log "created .dev.vars from .dev.vars.example (local secrets; gitignored)"
fi
PORT="${PORT:-8787}"
log "wrangler dev on http://127.0.0.1:$PORT/mcp (Ctrl-C stops it)"
exec wrangler dev --ip 127.0.0.1 --port "$PORT" "$@"
