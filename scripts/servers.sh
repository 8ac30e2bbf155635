# Starting and stopping the servers the tests and benchmarks run against, all on 127.0.0.1.
# Source it after lib.sh; do not run it. It sets up $TMP (a fresh directory, removed on exit)
# and stops every server it started when the sourcing script exits:
#
#   start_replay NAME [LABEL] [ARGS...]   ncbi-replay or external-replay; sets REPLAY_BASE
#   start_native NAME ENV_FILE VAR=...     the native binary; sets NATIVE_URL and NATIVE_PID
#   prepare_worker                         a copy of build/ for wrangler dev to serve
#   start_worker LABEL ENV_FILE PORT       wrangler dev on that copy; sets WORKER_URL
#
# Every server runs in its own process group, so whatever it starts goes with it.

TMP="$(mktemp -d "${TMPDIR:-/tmp}/entrez-mcp-run.XXXXXX")"
PIDS=()

stop_servers() {
  local pid
  for pid in "${PIDS[@]}"; do
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  done
  rm -rf "$TMP"
}
trap stop_servers EXIT
trap 'exit 130' INT TERM

# wait_http URL PID NAME: until URL answers 200, at most 90 tries half a second apart (each
# try waits up to 2 s), failing early if PID died.
wait_http() {
  local url="$1" pid="$2" name="$3" code
  for _ in $(seq 1 180); do
    if ! kill -0 "$pid" 2>/dev/null; then
      warn "$name exited before it was ready"
      return 1
    fi
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url" || true)
    [ "$code" = 200 ] && return 0
    sleep 0.5
  done
  warn "$name was not ready at $url"
  return 1
}

# toml_var KEY: a plain var from wrangler.toml's [vars], so the native server runs with the
# Worker's settings.
toml_var() {
  awk -v key="$1" '
    /^\[/ { in_vars = ($0 == "[vars]") }
    in_vars && $1 == key && $2 == "=" { sub(/^[^=]*= *"/, ""); sub(/" *(#.*)?$/, ""); print; exit }
  ' "$ROOT/wrangler.toml"
}

# start_bg NAME LOG COMMAND...: starts a server in its own process group; sets BG_PID.
start_bg() {
  local name="$1" logfile="$2"
  shift 2
  setsid "$@" </dev/null >"$logfile" 2>&1 &
  BG_PID=$!
  PIDS+=("$BG_PID")
  log "started $name (pid $BG_PID, log $logfile)"
}

# listening_url FILE: the http://127.0.0.1:PORT a server prints first ("listening on URL")
# into FILE, waiting up to 20 s; nothing if it printed something else or nothing.
listening_url() {
  local line=""
  for _ in $(seq 1 100); do
    line=$(head -n1 "$1" 2>/dev/null || true)
    [ -n "$line" ] && break
    sleep 0.2
  done
  line="${line#listening on }"
  if [[ "$line" =~ ^http://127\.0\.0\.1:[0-9]+$ ]]; then echo "$line"; fi
}

# The target/ directories whose binaries the servers below run: release unless the caller
# (scripts/test.sh) names others, NATIVE_PROFILE for the server, REPLAY_PROFILE for the
# stand-ins.
NATIVE_PROFILE="${NATIVE_PROFILE:-release}"
REPLAY_PROFILE="${REPLAY_PROFILE:-release}"

# start_replay NAME [LABEL] [ARGS...]: starts target/$REPLAY_PROFILE/NAME on a free port and sets
# REPLAY_BASE to the http://127.0.0.1:PORT it prints first; LABEL names its files (default
# NAME); ARGS go to the replay (e.g. --limit 3).
start_replay() {
  local name="$1" label="${2:-$1}" line="" out
  shift $(($# < 2 ? $# : 2))
  out="$TMP/$label.out"
  REPLAY_BASE=""
  if [ ! -x "$ROOT/target/$REPLAY_PROFILE/$name" ]; then
    warn "no $name binary; tools that need it will fail"
    return 1
  fi
  setsid "$ROOT/target/$REPLAY_PROFILE/$name" --listen 127.0.0.1:0 "$@" </dev/null >"$out" 2>"$TMP/$label.log" &
  PIDS+=("$!")
  line=$(listening_url "$out")
  if [ -n "$line" ]; then
    REPLAY_BASE="$line"
    log "$name on $REPLAY_BASE"
  else
    warn "$name did not report its address on 127.0.0.1; tools that need it will fail"
    return 1
  fi
}

# start_native NAME ENV_FILE VAR=VALUE...: the native binary in a clean environment with the
# Worker's [vars], the settings file (one NAME=value per line; "" for none) and the given
# variables (which win); sets NATIVE_URL to its MCP URL once it answers, else "", and
# NATIVE_PID. NATIVE_PORT, when set, is the port to listen on.
start_native() {
  local name="$1" env_file="$2" port logfile settings=()
  shift 2
  NATIVE_URL=""
  port="${NATIVE_PORT:-$(free_port)}"
  logfile="$TMP/native-$port.log"
  [ -n "$env_file" ] && mapfile -t settings < <(grep -v '^[[:space:]]*$' "$env_file")
  start_bg "$name" "$logfile" env -i PATH="$PATH" HOME="$HOME" \
    ALLOWED_HOSTS="$(toml_var ALLOWED_HOSTS)" NCBI_TOOL="$(toml_var NCBI_TOOL)" \
    "${settings[@]}" "$@" "$ROOT/target/$NATIVE_PROFILE/entrez-mcp" serve --listen "127.0.0.1:$port"
  if wait_http "http://127.0.0.1:$port/" "$BG_PID" "$name"; then
    NATIVE_URL="http://127.0.0.1:$port/mcp"
    NATIVE_PID="$BG_PID"
  else
    cat "$logfile" >&2
  fi
}

# prepare_worker: a copy of the bundle in build/ under $TMP/worker, with wrangler.toml minus
# its [build] table, so nothing rebuilds or reloads it while the run goes on.
prepare_worker() {
  mkdir -p "$TMP/worker"
  rm -rf "$TMP/worker/build"
  cp -r "$ROOT/build" "$TMP/worker/build"
  awk '/^\[/ { skip = ($0 == "[build]") } !skip' "$ROOT/wrangler.toml" >"$TMP/worker/wrangler.toml"
}

# start_worker LABEL ENV_FILE PORT: wrangler dev on the copy prepare_worker made, with the
# settings file as its secrets; sets WORKER_URL once it answers, else "". WORKER_LOG_LEVEL
# (default info) is wrangler's; `log` adds the Worker's own console.log lines. Each instance has its
# own dev registry and state directory, apart from every other wrangler dev on this machine
# (scripts/dev.sh, another checkout's tests, the other instances of this run).
start_worker() {
  local label="$1" env_file="$2" port="$3"
  WORKER_URL=""
  start_bg "wrangler dev ($label)" "$TMP/wrangler-$label.log" env WRANGLER_REGISTRY_PATH="$TMP/wrangler-registry-$label" \
    wrangler dev --config "$TMP/worker/wrangler.toml" \
    --ip 127.0.0.1 --port "$port" --inspector-port "$(free_port)" \
    --persist-to "$TMP/wrangler-state-$label" \
    --env-file "$env_file" --show-interactive-dev-session=false --log-level "${WORKER_LOG_LEVEL:-info}"
  if wait_http "http://127.0.0.1:$port/" "$BG_PID" "wrangler dev ($label)"; then
    WORKER_URL="http://127.0.0.1:$port/mcp"
  else
    tail -n 40 "$TMP/wrangler-$label.log" >&2
    return 1
  fi
}

# bench_build: what every end-to-end benchmark starts from: set-up, the release binaries, and
# the Worker bundle (BENCH_REBUILD_WORKER=0 reuses the one in build/).
bench_build() {
  bash "$ROOT/scripts/setup.sh" >/dev/null
  log "building the native binaries and the Worker bundle"
  cargo build --release --quiet
  [ -f "$ROOT/build/index_bg.wasm" ] && [ "${BENCH_REBUILD_WORKER:-1}" = 0 ] || bash "$ROOT/scripts/build-worker.sh" >/dev/null
}

# start_replays: the stand-ins for NCBI and for PubChem/PMC; sets NCBI_REPLAY and
# EXTERNAL_REPLAY to their base URLs, or stops the script.
start_replays() {
  start_replay ncbi-replay || die "the NCBI replay did not start"
  NCBI_REPLAY="$REPLAY_BASE"
  start_replay external-replay || die "the external replay did not start"
  EXTERNAL_REPLAY="$REPLAY_BASE"
}
