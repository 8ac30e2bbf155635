#!/usr/bin/env bash
# Builds the MCP Apps view (view/) into view/dist/view.html: one self-contained HTML page,
# script and style inline, that the server serves as ui://entrez-mcp/view.html.
# view/dist/view.html is checked in; the build is deterministic, so CI rebuilds and compares
# (`bash scripts/build-view.sh --check` fails when the checked-in page is stale).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

ensure_node_modules
build_view "$@"
