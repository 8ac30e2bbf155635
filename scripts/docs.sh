#!/usr/bin/env bash
# Builds the book (docs/, mdBook) and checks it, offline:
#
#   bash scripts/docs.sh          # build into docs/book, then every check below
#   bash scripts/docs.sh --open   # the same, then prints the path of docs/book/index.html
#
# Fails when mdbook logs any warning or error (a missing page, a broken {{#include}}, bad
# HTML: mdbook itself exits 0 on those), when a relative link or #anchor of the built HTML
# leads nowhere (linkinator from npm, and scripts/docs.py's own reading), when a tool page's generated parameter table no longer matches its schema,
# when a ```json block does not parse, when a `bash scripts/...` command, a `cargo bench`
# or a repository path the pages name is gone, or when an example tool call names a
# parameter its tool does not have (scripts/docs.py). Whether `validate` accepts every
# example call is checked against a running server by tests/e2e/docs-examples.test.mjs.
# Installs mdbook from crates.io and linkinator from npm where they are missing
# (scripts/lib.sh ensure_mdbook, ensure_linkinator).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

ensure_mdbook || die "could not install mdbook"
rc=0
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
rm -rf docs/book
log "mdbook build docs"
# mdbook logs to stderr and colours it only on a terminal.
MDBOOK_LOG=warn "$CARGO_BIN/mdbook" build docs >"$out" 2>&1 || rc=1
cat "$out"
if grep -qE '(^|\s)(WARN|ERROR)\s' "$out"; then
  warn "mdbook printed warnings or errors (above)"
  rc=1
fi
[ -f docs/book/index.html ] || { warn "mdbook wrote no docs/book/index.html"; rc=1; }
log "links and anchors of the built book (linkinator, then scripts/docs.py links)"
# Links to other sites are not followed (nothing here may depend on the network); every
# file and #fragment within the book is, from every page.
ensure_linkinator || die "could not install linkinator"
"$DOCS_TOOLS/node_modules/.bin/linkinator" docs/book --recurse --check-fragments \
  --skip '^https?://(?!localhost|127\.0\.0\.1)' --verbosity error || rc=1
python3 "$ROOT/scripts/docs.py" links docs/book || rc=1
log "the pages against the schemas, scripts and files they name"
python3 "$ROOT/scripts/docs.py" check || rc=1
[ "${1:-}" = --open ] && echo "$ROOT/docs/book/index.html"
exit "$rc"
