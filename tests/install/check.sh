#!/usr/bin/env bash
# The install channels, each checked as far as this machine allows (tests/install/README.md):
#
#   bash tests/install/check.sh
#
# Needs target/debug/entrez-mcp (built when missing). Installs check-jsonschema, hadolint
# and the MCP Bundle CLI where missing (scripts/lib.sh ensure_install_tools). A container
# build is skipped, with the reason, where neither docker nor podman can build; every other
# check always runs. Exit status is non-zero if any check failed. Each skip is counted in the
# last line and, where ENTREZ_SKIPS_FILE names a file, appended to it as `check|reason`
# (scripts/test.sh lists them in its summary).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
cd "$ROOT"

ensure_install_tools || die "could not install the install-channel tools"
VENV="$INSTALL_TOOLS/venv/bin"
MCPB="$INSTALL_TOOLS/npm/node_modules/@anthropic-ai/mcpb"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/entrez-mcp-install.XXXXXX")"
CONTAINER=""
cleanup() {
  [ -n "$CONTAINER" ] && "$RUNTIME" rm -f "$CONTAINER" >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT
FAILED=0
ok() { printf '  ok       %s\n' "$1"; }
bad() { printf '  FAILED   %s\n' "$1"; FAILED=$((FAILED + 1)); }
SKIPPED=0
skipped() {
  printf '  skipped  %s (%s)\n' "$1" "$2"
  SKIPPED=$((SKIPPED + 1))
  [ -z "${ENTREZ_SKIPS_FILE:-}" ] || printf '%s|%s\n' "$1" "$2" >>"$ENTREZ_SKIPS_FILE"
}
check() { # check LABEL COMMAND...: runs it, output kept in $WORK/log and shown on failure
  local label="$1"
  shift
  if "$@" >"$WORK/log" 2>&1; then ok "$label"; else bad "$label"; sed 's/^/    /' "$WORK/log" | tail -30; fi
}

[ -x target/debug/entrez-mcp ] || cargo build --bin entrez-mcp || die "cannot build entrez-mcp"

# mcp_smoke COMMAND...: starts the command as a stdio MCP server, sends initialize and
# tools/list, and prints the tool names (one a line); fails on any other answer.
mcp_smoke() {
  node "$ROOT/tests/install/smoke.mjs" stdio "$@"
}

# ---------------------------------------------------------------- cargo install
# A debug build into a scratch root: what is checked is that the package installs as a
# binary that runs (a release build, with fat LTO, costs many minutes of one core).
cargo_install() {
  CARGO_TARGET_DIR="$ROOT/target" cargo install --locked --path . --debug --root "$WORK/cargo-root" --force \
    && "$WORK/cargo-root/bin/entrez-mcp" --version | grep -q '^entrez-mcp ' \
    && mcp_smoke "$WORK/cargo-root/bin/entrez-mcp" stdio >/dev/null
}
check "cargo install --locked --path . (a binary that answers initialize)" cargo_install

# The usage the docs quote (docs/src/install.md, the ```text block of commands) is the
# binary's own: every line of it appears in `entrez-mcp --help`.
usage_quoted() {
  local help
  help=$(target/debug/entrez-mcp --help) || return 1
  python3 - "$help" <<'PY'
import re, sys
help_lines = {l.strip() for l in sys.argv[1].splitlines()}
page = open("docs/src/install.md").read()
block = next(b for b in re.findall(r"^```text\n(.*?)^```", page, re.S | re.M) if b.startswith("entrez-mcp "))
missing = [l for l in block.splitlines() if l.strip() and l.strip() not in help_lines]
print("\n".join(f"not in entrez-mcp --help: {l}" for l in missing) or "every usage line is the binary's")
sys.exit(1 if missing else 0)
PY
}
check "docs/src/install.md quotes entrez-mcp --help" usage_quoted

# ---------------------------------------------------------------- MCP Bundle
manifest_schema() {
  "$VENV/check-jsonschema" --schemafile "$MCPB/dist/mcpb-manifest-v0.3.schema.json" manifest.json
}
check "manifest.json: mcpb validate ($MCPB_VERSION)" node "$MCPB/dist/cli/cli.js" validate manifest.json
check "manifest.json: the bundle schema (mcpb-manifest-v0.3.schema.json)" manifest_schema
bundle() {
  mkdir -p "$WORK/bundle/server" "$WORK/unpacked"
  cp manifest.json "$WORK/bundle/"
  cp target/debug/entrez-mcp "$WORK/bundle/server/entrez-mcp"
  node "$MCPB/dist/cli/cli.js" pack "$WORK/bundle" "$WORK/entrez-mcp.mcpb" || return 1
  node "$MCPB/dist/cli/cli.js" unpack "$WORK/entrez-mcp.mcpb" "$WORK/unpacked" || return 1
  # The command and arguments exactly as the manifest's mcp_config gives them.
  local cmd args listed named
  cmd=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["server"]["mcp_config"]["command"].replace("${__dirname}", sys.argv[2]))' manifest.json "$WORK/unpacked")
  mapfile -t args < <(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["server"]["mcp_config"]["args"]))' manifest.json)
  # The manifest's env as Claude Desktop sets it when the optional settings are left empty.
  local env
  env=$(python3 -c 'import json,re,sys; e=json.load(open(sys.argv[1]))["server"]["mcp_config"].get("env",{}); print(json.dumps({k: re.sub(r"\$\{user_config\.[a-z_]+\}", "", v) for k, v in e.items()}))' manifest.json)
  listed=$(SMOKE_ENV="$env" SMOKE_NO_KEY=1 mcp_smoke "$cmd" "${args[@]}" | sort) || return 1
  named=$(python3 -c 'import json,sys; print("\n".join(t["name"] for t in json.load(open(sys.argv[1]))["tools"]))' manifest.json | sort)
  [ "$listed" = "$named" ] || { echo "the server lists: $listed"; echo "the manifest names: $named"; return 1; }
}
check "manifest.json: packed with the binary, started as mcp_config says, lists every tool" bundle

# ---------------------------------------------------------------- MCP Registry
registry_schema() {
  echo "3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0  tests/install/server.schema.json" | sha256sum -c - \
    && "$VENV/check-jsonschema" --schemafile tests/install/server.schema.json server.json
}
check "server.json: the registry schema (2025-12-11, vendored)" registry_schema

# ---------------------------------------------------------------- container image
check "Dockerfile: hadolint" "$VENV/hadolint" --failure-threshold warning Dockerfile
RUNTIME=""
why="neither docker nor podman is installed"
for r in docker podman; do
  if command -v "$r" >/dev/null; then
    if "$r" info >/dev/null 2>&1; then RUNTIME="$r"; break; fi
    why="$r is installed but cannot reach a container engine"
  fi
done
image() {
  local port
  "$RUNTIME" build -t entrez-mcp:check . || return 1
  port=$(free_port)
  CONTAINER=$("$RUNTIME" run -d -p "127.0.0.1:$port:8787" entrez-mcp:check) || return 1
  for _ in $(seq 1 60); do
    curl -s -o /dev/null "http://127.0.0.1:$port/" && break
    sleep 0.5
  done
  node "$ROOT/tests/install/smoke.mjs" http "http://127.0.0.1:$port/mcp" >/dev/null \
    && [ "$("$RUNTIME" inspect -f '{{.Config.User}}' entrez-mcp:check)" = 65532:65532 ]
}
if [ -n "$RUNTIME" ]; then
  check "Dockerfile: $RUNTIME build, run as 65532, initialize and tools/list over HTTP" image
else
  skipped "Dockerfile: container build and run" "$why"
fi

if [ "$FAILED" -eq 0 ] && [ "$SKIPPED" -eq 0 ]; then
  echo "install channels: every check passed"
else
  echo "install channels: $FAILED check(s) failed, $SKIPPED could not run here (skipped)"
fi
[ "$FAILED" -eq 0 ]
