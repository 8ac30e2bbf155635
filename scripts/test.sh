#!/usr/bin/env bash
# Runs every test: lint, Rust tests, both builds, then end-to-end suites against the
# native server, the native stdio transport and the Worker under wrangler dev.
#
#   bash scripts/test.sh
#
# Installs whatever is missing first (scripts/setup.sh). Every server it starts listens on
# 127.0.0.1 only and is stopped on exit; NCBI is replaced by the ncbi-replay binary.
# Exit status is non-zero if anything failed. The E2E part ends with `e2e: N passed, M failed`.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

T_START=$(date +%s)
SUMMARY=()
FAILED_STEPS=0
RUST_PASSED=0
RUST_FAILED=0
E2E_PASSED=0
E2E_FAILED=0
TMP="$(mktemp -d "${TMPDIR:-/tmp}/entrez-mcp-test.XXXXXX")"
PIDS=()

cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do
    # Each server runs in its own process group (setsid), so its children go too.
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  done
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# step NAME COMMAND...: runs a step, records ok/FAILED and its time.
step() {
  local name="$1" t0 rc
  shift
  log "$name"
  t0=$(date +%s)
  "$@"
  rc=$?
  if [ "$rc" -eq 0 ]; then
    SUMMARY+=("$(printf '  %-8s %-52s %5ss' ok "$name" $(($(date +%s) - t0)))")
  else
    SUMMARY+=("$(printf '  %-8s %-52s %5ss' FAILED "$name" $(($(date +%s) - t0)))")
    FAILED_STEPS=$((FAILED_STEPS + 1))
  fi
  return "$rc"
}

skip() {
  SUMMARY+=("$(printf '  %-8s %-52s' skipped "$1 ($2)")")
  FAILED_STEPS=$((FAILED_STEPS + 1))
  warn "skipped $1: $2"
}

# ---------------------------------------------------------------- setup, lint, Rust tests

step "setup (scripts/setup.sh)" bash "$ROOT/scripts/setup.sh" || {
  printf '%s\n' "${SUMMARY[@]}"
  die "setup failed; nothing else can run"
}

step "cargo fmt --all -- --check" cargo fmt --all -- --check
step "cargo clippy --all-targets -- -D warnings" cargo clippy --all-targets -- -D warnings
step "cargo clippy (wasm32) --lib -- -D warnings" cargo clippy --target wasm32-unknown-unknown --lib -- -D warnings
step "cargo build --target wasm32-unknown-unknown --lib" cargo build --target wasm32-unknown-unknown --lib

cargo_test() {
  cargo test 2>&1 | tee "$TMP/cargo-test.log"
  local rc=${PIPESTATUS[0]}
  read -r RUST_PASSED RUST_FAILED < <(awk '/^test result:/ {
      for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i }
    } END { print p + 0, f + 0 }' "$TMP/cargo-test.log")
  return "$rc"
}
step "cargo test" cargo_test

# ---------------------------------------------------------------- builds for the E2E part

RELEASE_OK=0
step "cargo build --release (native binaries)" cargo build --release && RELEASE_OK=1

WORKER_OK=0
worker_bundle() {
  bash "$ROOT/scripts/build-worker.sh" || return 1
  local wasm js raw gz
  wasm="$ROOT/build/index_bg.wasm"
  js="$ROOT/build/index.js"
  [ -f "$wasm" ] && [ -f "$js" ] && [ -f "$ROOT/build/worker/shim.mjs" ] || {
    warn "worker-build left no bundle in build/"
    return 1
  }
  raw=$(cat "$wasm" "$js" | wc -c)
  gz=$(($(gzip -9 -c "$wasm" | wc -c) + $(gzip -9 -c "$js" | wc -c)))
  WORKER_SIZE_LINE="$(printf 'worker bundle: %d KiB raw, %d KiB gzip (wasm %d KiB gzip); Workers limit 3 MiB gzip (free) / 10 MiB (paid)' \
    $((raw / 1024)) $((gz / 1024)) $(($(gzip -9 -c "$wasm" | wc -c) / 1024)))"
  echo "$WORKER_SIZE_LINE"
}
WORKER_SIZE_LINE=""
step "worker bundle (worker-build --release)" worker_bundle && WORKER_OK=1

# ---------------------------------------------------------------- E2E

# wait_http URL PID NAME: until URL answers 200, at most 90 s, failing early if PID died.
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
  warn "$name was not ready at $url within 90 s"
  return 1
}

# A plain var from wrangler.toml's [vars], so the native server runs with the Worker's settings.
toml_var() {
  awk -v key="$1" '
    /^\[/ { in_vars = ($0 == "[vars]") }
    in_vars && $1 == key && $2 == "=" { sub(/^[^=]*= *"/, ""); sub(/" *(#.*)?$/, ""); print; exit }
  ' "$ROOT/wrangler.toml"
}

# run_suite LABEL ENV... -- FILES...: node --test, spec output on screen, TAP counted.
run_suite() {
  local label="$1" envs=() tap="$TMP/$1.tap" pass fail rc
  shift
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  log "e2e: $label"
  env "${envs[@]}" timeout 600 node --test --test-concurrency=1 --test-timeout=120000 \
    --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$tap" "$@"
  rc=$?
  pass=$(awk '/^# pass / { print $3 }' "$tap" 2>/dev/null | tail -1)
  fail=$(awk '/^# fail / { print $3 }' "$tap" 2>/dev/null | tail -1)
  pass=${pass:-0}
  fail=${fail:-0}
  if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then fail=1; fi # crashed or timed out
  E2E_PASSED=$((E2E_PASSED + pass))
  E2E_FAILED=$((E2E_FAILED + fail))
  SUMMARY+=("$(printf '  %-8s %-52s %s passed, %s failed' "$([ "$rc" -eq 0 ] && echo ok || echo FAILED)" "e2e $label" "$pass" "$fail")")
  [ "$rc" -eq 0 ] || FAILED_STEPS=$((FAILED_STEPS + 1))
}

CONFORMANCE_SCENARIOS=(server-initialize ping tools-list dns-rebinding-protection)
run_conformance() {
  local label="$1" url="$2" scenario rc ok=0 bad=0
  mkdir -p "$TMP/conformance"
  for scenario in "${CONFORMANCE_SCENARIOS[@]}"; do
    log "conformance [$label]: $scenario"
    (cd "$TMP/conformance" && timeout 180 conformance server --url "$url" --scenario "$scenario" -o "$TMP/conformance/$label")
    rc=$?
    if [ "$rc" -eq 0 ]; then ok=$((ok + 1)); else bad=$((bad + 1)); fi
  done
  E2E_PASSED=$((E2E_PASSED + ok))
  E2E_FAILED=$((E2E_FAILED + bad))
  SUMMARY+=("$(printf '  %-8s %-52s %s passed, %s failed' "$([ "$bad" -eq 0 ] && echo ok || echo FAILED)" "conformance $label (${#CONFORMANCE_SCENARIOS[@]} scenarios)" "$ok" "$bad")")
  [ "$bad" -eq 0 ] || FAILED_STEPS=$((FAILED_STEPS + 1))
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

e2e() {
  local bin="$ROOT/target/release/entrez-mcp" replay="$ROOT/target/release/ncbi-replay"
  local env_file="$TMP/e2e.env" native_url="" worker_url="" replay_base="" port line

  # NCBI stand-in: the project's replay server with recorded NCBI answers.
  if [ -x "$replay" ]; then
    setsid "$replay" --listen 127.0.0.1:0 --limit 1000 --key-limit 1000 </dev/null >"$TMP/replay.out" 2>"$TMP/replay.log" &
    PIDS+=("$!")
    for _ in $(seq 1 100); do
      line=$(head -n1 "$TMP/replay.out" 2>/dev/null || true)
      [ -n "$line" ] && break
      sleep 0.2
    done
    replay_base="${line#listening on }"
    if [[ "$replay_base" =~ ^http://127\.0\.0\.1:[0-9]+$ ]]; then
      log "ncbi-replay on $replay_base"
    else
      warn "ncbi-replay did not report its address (got: ${line:-nothing}); tools that call NCBI will fail"
      replay_base=""
    fi
  else
    warn "no ncbi-replay binary; tools that call NCBI will fail"
  fi

  # One settings file for both edges: wrangler dev loads it (instead of .dev.vars) as
  # secrets, the native server as its environment. Upstreams point at the replay server.
  {
    echo "MCP_SESSION_SECRET=e2e-session-secret-$(date +%s)-0123456789abcdef"
    if [ -n "$replay_base" ]; then
      echo "EUTILS_BASE_URL=$replay_base/entrez/eutils/"
      echo "PUBCHEM_BASE_URL=$replay_base/rest/pug/"
      echo "PMC_IDCONV_URL=$replay_base/tools/idconv/api/v1/articles/"
      echo "PMC_OA_URL=$replay_base/pmc/utils/oa/oa.fcgi"
      echo "PMC_CTXP_URL=$replay_base/api/ctxp/v1/"
    fi
  } >"$env_file"

  if [ "$RELEASE_OK" = 1 ]; then
    port=$(free_port)
    # A clean environment: nothing from the caller's shell (an NCBI_API_KEY, say) leaks in.
    start_bg "native server" "$TMP/native.log" env -i PATH="$PATH" HOME="$HOME" \
      ALLOWED_HOSTS="$(toml_var ALLOWED_HOSTS)" NCBI_TOOL="$(toml_var NCBI_TOOL)" \
      $(cat "$env_file") "$bin" serve --listen "127.0.0.1:$port"
    if wait_http "http://127.0.0.1:$port/" "$BG_PID" "native server"; then
      native_url="http://127.0.0.1:$port/mcp"
    else
      cat "$TMP/native.log" >&2
    fi
  fi

  if [ "$WORKER_OK" = 1 ]; then
    port=$(free_port)
    # ENTREZ_WORKER_PREBUILT: wrangler's [build] command reuses the bundle built above.
    start_bg "wrangler dev" "$TMP/wrangler.log" env ENTREZ_WORKER_PREBUILT=1 \
      wrangler dev --ip 127.0.0.1 --port "$port" --inspector-port "$(free_port)" \
      --env-file "$env_file" --show-interactive-dev-session=false --log-level warn
    if wait_http "http://127.0.0.1:$port/" "$BG_PID" "wrangler dev"; then
      worker_url="http://127.0.0.1:$port/mcp"
    else
      cat "$TMP/wrangler.log" >&2
    fi
  fi

  local edge url
  for edge in native worker; do
    url=native_url
    [ "$edge" = worker ] && url=worker_url
    url="${!url}"
    if [ -z "$url" ]; then
      skip "e2e $edge" "the $edge server did not start"
      E2E_FAILED=$((E2E_FAILED + 1))
      continue
    fi
    run_suite "http-$edge" E2E_URL="$url" E2E_EDGE="$edge" -- \
      tests/e2e/sdk-client.test.mjs tests/e2e/http-raw.test.mjs
    run_conformance "$edge" "$url"
  done

  if [ "$RELEASE_OK" = 1 ]; then
    run_suite "stdio-native" E2E_BIN="$bin" -- tests/e2e/stdio.test.mjs
  else
    skip "e2e stdio" "no release binary"
    E2E_FAILED=$((E2E_FAILED + 1))
  fi

  if [ -n "$native_url" ] && [ -n "$worker_url" ]; then
    run_suite "native-vs-worker" E2E_NATIVE_URL="$native_url" E2E_WORKER_URL="$worker_url" -- \
      tests/e2e/compare-edges.test.mjs
  else
    skip "e2e native-vs-worker" "needs both servers"
    E2E_FAILED=$((E2E_FAILED + 1))
  fi

  if [ -s "$TMP/wrangler.log" ]; then
    log "wrangler dev log (warnings and errors)"
    tail -n 40 "$TMP/wrangler.log"
  fi
}

e2e
echo "e2e: $E2E_PASSED passed, $E2E_FAILED failed"

# ---------------------------------------------------------------- summary

T_TOTAL=$(($(date +%s) - T_START))
echo
echo "================================ summary ================================"
printf '%s\n' "${SUMMARY[@]}"
[ -n "$WORKER_SIZE_LINE" ] && echo "  $WORKER_SIZE_LINE"
echo "  rust tests: $RUST_PASSED passed, $RUST_FAILED failed; e2e: $E2E_PASSED passed, $E2E_FAILED failed"
echo "  total time: $((T_TOTAL / 60))m $((T_TOTAL % 60))s"
if [ "$FAILED_STEPS" -eq 0 ]; then
  echo "  RESULT: all passed"
else
  echo "  RESULT: $FAILED_STEPS step(s) failed"
fi
echo "========================================================================="
echo "all: $((RUST_PASSED + E2E_PASSED)) passed, $((RUST_FAILED + E2E_FAILED)) failed"
[ "$FAILED_STEPS" -eq 0 ]
