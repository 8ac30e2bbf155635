#!/usr/bin/env bash
# Runs every test: lint, Rust tests, both builds, then end-to-end suites against the
# native server, the native stdio transport and the Worker under wrangler dev.
#
#   bash scripts/test.sh            # everything
#   bash scripts/test.sh --e2e      # only the builds and the end-to-end part (quicker while iterating)
#
# Every fuzz target runs for a short while beside the E2E suites (scripts/fuzz.sh;
# FUZZ_SMOKE_SECONDS, default 30); a crash fails the run. The book is built and checked
# beside them too (scripts/docs.sh), and the install channels after the native build
# (tests/install/check.sh).
#
# Installs whatever is missing first (scripts/setup.sh). Every server it starts listens on
# 127.0.0.1 only and is stopped on exit; NCBI, PubChem and PMC are replaced by the
# ncbi-replay and external-replay binaries (recorded or documented answers, real rate limits).
# Exit status is non-zero if anything failed. The E2E part ends with `e2e: N passed, M failed`.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

# One build from scratch gains nothing from incremental compilation, and its caches would
# about double the debug target's size on disk (a CI run once died with "No space left on
# device" while writing them). A caller's own setting wins.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

E2E_ONLY=0
case "${1:-}" in
  --e2e) E2E_ONLY=1 ;;
  "") ;;
  *) die "unknown argument $1 (use --e2e, or nothing)" ;;
esac

T_START=$(date +%s)
SUMMARY=()
FAILED_STEPS=0
RUST_PASSED=0
RUST_FAILED=0
E2E_PASSED=0
E2E_FAILED=0
E2E_SKIPPED=0
# $TMP, the server helpers, and stopping every server on exit (scripts/servers.sh).
source "$ROOT/scripts/servers.sh"

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
  local edge=-
  case "$1" in *worker*) edge=worker ;; *native* | *stdio*) edge=native ;; esac
  note_skip "$edge" "$1" "$2 (fails the run)"
  warn "skipped $1: $2"
}

# Every check or test that could not run, one line each: its edge ("-" for none), what, why.
# The summary lists them all and counts them; none is silent.
SKIPS=()
note_skip() {
  SKIPS+=("$(printf '%-7s %s: %s' "$1" "$2" "$3")")
}

# check_step NAME FUNCTION: like step, but FUNCTION returns 77 with SKIP_REASON set when the
# check cannot run on this machine: a listed, counted skip, not a pass.
SKIP_REASON=""
check_step() {
  local name="$1" t0 rc
  shift
  log "$name"
  t0=$(date +%s)
  SKIP_REASON=""
  "$@"
  rc=$?
  if [ "$rc" -eq 77 ]; then
    SUMMARY+=("$(printf '  %-8s %-52s %5ss' skipped "$name" $(($(date +%s) - t0)))")
    note_skip "-" "$name" "${SKIP_REASON:-no reason given}"
    warn "skipped $name: $SKIP_REASON"
    return 0
  fi
  if [ "$rc" -eq 0 ]; then
    SUMMARY+=("$(printf '  %-8s %-52s %5ss' ok "$name" $(($(date +%s) - t0)))")
  else
    SUMMARY+=("$(printf '  %-8s %-52s %5ss' FAILED "$name" $(($(date +%s) - t0)))")
    FAILED_STEPS=$((FAILED_STEPS + 1))
  fi
  return "$rc"
}

# ---------------------------------------------------------------- setup, lint, Rust tests

# Setup installs tools and writes no file of the repository: every file's digest before it
# and after it (git's list of files, or every file .gitignore does not name).
repo_digest >"$TMP/repo-before.sha256"
step "setup (scripts/setup.sh)" bash "$ROOT/scripts/setup.sh" || {
  printf '%s\n' "${SUMMARY[@]}"
  die "setup failed; nothing else can run"
}
setup_wrote_nothing() {
  repo_digest >"$TMP/repo-after.sha256"
  if ! cmp -s "$TMP/repo-before.sha256" "$TMP/repo-after.sha256"; then
    warn "setup changed files of the repository:"
    diff "$TMP/repo-before.sha256" "$TMP/repo-after.sha256" | grep '^[<>]' | awk '{print "  " $NF}' | sort -u >&2
    return 1
  fi
  echo "setup changed no file of the repository ($(tr -cd '\n' <"$TMP/repo-after.sha256" | wc -c) files)"
}
step "setup changed no file of the repository" setup_wrote_nothing

# The Worker's crates as they compile for wasm32: the core and the parser each on its own,
# with only the features it asks for (nothing the Worker enables may be what makes them
# compile), then the Worker and the CPU benchmark's variant of it. The bundle step builds
# them all for wasm32 in full.
wasm_clippy() {
  local w=(--target wasm32-unknown-unknown)
  cargo clippy "${w[@]}" -p entrez-mcp-parse -- -D warnings &&
    cargo clippy "${w[@]}" -p entrez-mcp-core -- -D warnings &&
    cargo clippy "${w[@]}" -p entrez-mcp-worker -- -D warnings &&
    cargo clippy "${w[@]}" -p entrez-mcp-worker --features cpu-bench -- -D warnings
}

# The core must not name an edge's runtime, nor need one for its own tests (core/tests), and
# the parser neither: what their Cargo.toml files pull in is checked, not hoped; and no file
# of the core's names JavaScript.
# A `cargo tree` that fails is no pass: its error is shown and the check is a listed skip
# (exit 77), unless the JavaScript check below fails it anyway.
core_is_pure() {
  local crate found bad=0 tree_failed="" edges forbidden
  for crate in entrez-mcp-core entrez-mcp-parse; do
    found=""
    for edges in normal normal,dev; do
      forbidden='worker|tokio|axum|hyper|reqwest|rusqlite|ring|mimalloc'
      [ "$edges" = normal,dev ] && forbidden='tokio|axum|hyper|reqwest|rusqlite'
      if ! cargo tree -p "$crate" -e "$edges" --prefix none --target all >"$TMP/cargo-tree.out" 2>"$TMP/cargo-tree.err"; then
        cat "$TMP/cargo-tree.err" >&2
        tree_failed="cargo tree -p $crate -e $edges failed: $(grep -m1 . "$TMP/cargo-tree.err")"
        continue
      fi
      found+=$(awk '{print $1}' "$TMP/cargo-tree.out" | grep -xE "$forbidden")$'\n'
    done
    found=$(printf '%s' "$found" | grep . | sort -u)
    if [ -n "$found" ]; then
      warn "$crate (or its tests) depends on edge runtimes: $(echo "$found" | tr '\n' ' ')"
      bad=1
    fi
  done
  if grep -rlE 'wasm_bindgen|js_sys|web_sys' "$ROOT/core/src" "$ROOT/parse/src"; then
    warn "the files above name JavaScript; the edge supplies what the core needs of it"
    bad=1
  fi
  [ "$bad" = 0 ] || return 1
  if [ -n "$tree_failed" ]; then
    SKIP_REASON="$tree_failed"
    return 77
  fi
  echo "entrez-mcp-core and entrez-mcp-parse name no edge runtime and no JavaScript; their tests need no tokio, axum, hyper, reqwest or rusqlite"
}

if [ "$E2E_ONLY" = 0 ]; then
  step "cargo fmt --all -- --check" cargo fmt --all -- --check
  step "the MCP Apps view as checked in is its source's build" view_is_current
  step "cargo clippy --all-targets -- -D warnings" cargo clippy --all-targets -- -D warnings
  step "cargo clippy (wasm32: parse, core each alone; worker)" wasm_clippy
  check_step "the core names no edge runtime (cargo tree)" core_is_pure
  step "layers: the declared order, no circle across folders" python3 "$ROOT/scripts/layers.py"
fi

cargo_test() {
  # Eight tests at a time on any machine: most of the suite's time is spent waiting (paced
  # stand-ins, timeouts, slow clients), so this takes 25 s where two at a time take 60, and
  # it held with both cores kept busy by other work.
  RUST_TEST_THREADS=8 cargo test 2>&1 | tee "$TMP/cargo-test.out"
  local rc=${PIPESTATUS[0]}
  read -r RUST_PASSED RUST_FAILED < <(awk '/^test result:/ {
      for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i }
    } END { print p + 0, f + 0 }' "$TMP/cargo-test.out")
  return "$rc"
}
if [ "$E2E_ONLY" = 0 ]; then
  step "cargo test" cargo_test
else
  SUMMARY+=("$(printf '  %-8s %-52s' skipped "lint, wasm32 check and cargo test (--e2e)")")
fi

# ---------------------------------------------------------------- builds for the E2E part

# The end-to-end suites run the server as `cargo test` has just built it (the dev profile:
# nothing more to build, and overflow checks and debug assertions stay on) and the stand-ins
# of the e2e profile (Cargo.toml): optimized, so that they answer at once and send their
# hostile replies exactly (a debug build of ncbi-replay delivers the declared-length fault
# differently). What ships, and what the benchmarks measure, is built with release.
NATIVE_PROFILE=debug
REPLAY_PROFILE=e2e
e2e_binaries() {
  cargo build --bin entrez-mcp && cargo build --profile e2e -p entrez-mcp-replay
}
RELEASE_OK=0
step "native binaries (server: dev profile; stand-ins: e2e profile)" e2e_binaries && RELEASE_OK=1

# What the repository ships for installing the server (tests/install/README.md): cargo
# install, the MCP Bundle manifest, the MCP Registry entry, the Dockerfile (its image built
# only where a container engine answers; the check says when it skipped that).
# A check it cannot run here (no container engine) is a listed skip in the summary.
install_channels() {
  : >"$TMP/install-skips"
  ENTREZ_SKIPS_FILE="$TMP/install-skips" bash "$ROOT/tests/install/check.sh"
}
if [ "$RELEASE_OK" = 1 ]; then
  step "install channels (tests/install/check.sh)" install_channels
  while IFS='|' read -r what why; do
    [ -n "$what" ] && note_skip "-" "install channels: $what" "$why"
  done <"$TMP/install-skips"
fi

WORKER_OK=0
worker_bundle() {
  bash "$ROOT/scripts/build-worker.sh" || return 1
  local wasm js raw gz wasm_gz
  wasm="$ROOT/build/index_bg.wasm"
  js="$ROOT/build/index.js"
  [ -f "$wasm" ] && [ -f "$js" ] && [ -f "$ROOT/build/worker/shim.mjs" ] || {
    warn "worker-build left no bundle in build/"
    return 1
  }
  raw=$(cat "$wasm" "$js" | wc -c)
  wasm_gz=$(gzip -9 -c "$wasm" | wc -c)
  gz=$((wasm_gz + $(gzip -9 -c "$js" | wc -c)))
  WORKER_GZIP_BYTES=$gz
  WORKER_SIZE_LINE="$(printf 'worker bundle: %d bytes raw, %d bytes gzip (wasm %d); ceiling %d; Workers limit 3 MB gzip (free) / 10 MB (paid)' \
    "$raw" "$gz" "$wasm_gz" "$WORKER_GZIP_CEILING")"
  echo "$WORKER_SIZE_LINE"
}
# The gzipped bundle (wasm plus JS glue, gzip -9) may not grow past this many bytes: a third
# below the Free plan's 3 MB (docs/src/workers-plans.md; its history in CHANGELOG.md).
WORKER_GZIP_CEILING=2000000
WORKER_SIZE_LINE=""
WORKER_GZIP_BYTES=0
step "worker bundle (worker-build --release)" worker_bundle && WORKER_OK=1
if [ "$WORKER_OK" = 1 ]; then
  step "worker bundle within $WORKER_GZIP_CEILING bytes gzip" test "$WORKER_GZIP_BYTES" -le "$WORKER_GZIP_CEILING"
fi

# ---------------------------------------------------------------- E2E

# expected_skips EDGE: the names tests/e2e/expected-skips.txt lets skip on that edge, one a
# line (its lines are `name | edge | reason`; a line with another edge, or none, lets nothing).
expected_skips() {
  awk -F'|' -v edge="$1" '!/^#/ && NF >= 3 {
      name = $1; e = $2; sub(/ +$/, "", name); gsub(/^ +| +$/, "", e)
      if (e == edge && name != "") print name
    }' "$ROOT/tests/e2e/expected-skips.txt"
}

# The edges suites ran on, and each test that skipped itself there ("edge|name"): the summary
# reports a listed skip that never happened on an edge that ran (the list is out of date).
declare -A EDGES_RUN=() SKIPPED_ON=()

# run_suite LABEL ENV... -- FILES...: node --test, spec output on screen, TAP counted.
run_suite() {
  local label="$1" envs=() tap="$TMP/$1.tap" pass fail rc
  shift
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  log "e2e: $label"
  # A cap for a hung run, not a measure: the slowest edge's suites take about 5 minutes here.
  # A test may take 2 minutes unless the suite says otherwise (SUITE_TEST_TIMEOUT_MS). Every
  # test file runs with the output-schema check preloaded (tests/e2e/schema-check.mjs): a tool
  # result that breaks schemas/ fails its file, whether or not the file imports helpers.mjs.
  env "${envs[@]}" timeout 1800 node --import "$ROOT/tests/e2e/schema-check.mjs" --test --test-concurrency=1 \
    --test-timeout="${SUITE_TEST_TIMEOUT_MS:-120000}" \
    --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$tap" "$@"
  rc=$?
  pass=$(awk '/^# pass / { print $3 }' "$tap" 2>/dev/null | tail -1)
  fail=$(awk '/^# fail / { print $3 }' "$tap" 2>/dev/null | tail -1)
  pass=${pass:-0}
  fail=${fail:-0}
  if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then fail=1; fi # crashed or timed out
  # A test that skipped itself did not pass: each skip fails the suite unless
  # tests/e2e/expected-skips.txt lists it for this suite's edge, with its reason; every skip
  # is listed in the summary with its edge and the reason the test gave.
  local skipped unexpected edge="-" e name reason
  for e in "${envs[@]}"; do case "$e" in E2E_EDGE=*) edge="${e#E2E_EDGE=}" ;; esac; done
  [ "$edge" = - ] && case "$label" in *-native) edge=native ;; *-worker) edge=worker ;; esac
  skipped=$(grep -E '^ *(not )?ok [0-9]+ - .* # SKIP' "$tap" 2>/dev/null | sed -E 's/^ *(not )?ok [0-9]+ - //' | sort -u)
  [ "$edge" = - ] || EDGES_RUN[$edge]=1
  while IFS= read -r e; do
    [ -n "$e" ] || continue
    name="${e%% # SKIP*}"
    SKIPPED_ON["$edge|$name"]=1
    reason="${e#* # SKIP}"
    reason="${reason# }"
    note_skip "$edge" "e2e $label: $name" "${reason:-no reason given}"
  done <<<"$skipped"
  unexpected=$(printf '%s\n' "$skipped" | sed -E 's/ # SKIP.*$//' | grep -v '^$' | grep -vxF -f <(expected_skips "$edge") || true)
  if [ -n "$unexpected" ]; then
    warn "e2e $label: tests skipped on the $edge edge that tests/e2e/expected-skips.txt does not list for it:"
    printf '  %s\n' "$unexpected" >&2
    fail=$((fail + $(printf '%s\n' "$unexpected" | wc -l)))
    rc=1
  fi
  E2E_SKIPPED=$((E2E_SKIPPED + $(printf '%s\n' "$skipped" | grep -c . || true)))
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
  local rev
  for rev in "${CONFORMANCE_REQUIREMENTS[@]}"; do run_requirements "$label" "$url" "$rev"; done
}

# The official Python MCP client (mcp 2.x) with its defaults: it probes server/discover and
# must end in the 2026-07-28 era, not fall back, then call every tool (tests/e2e/python).
run_python_client() {
  local label="$1" rc out envs=()
  shift
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  log "e2e: python mcp client [$label]"
  out=$(env "${envs[@]}" timeout 300 "$PY_CLIENT_VENV/bin/python" "$ROOT/tests/e2e/python/modern_client.py" "$@" 2>"$TMP/python-$label.err")
  rc=$?
  echo "$out"
  [ "$rc" -eq 0 ] || tail -20 "$TMP/python-$label.err"
  if [ "$rc" -eq 0 ]; then E2E_PASSED=$((E2E_PASSED + 1)); else E2E_FAILED=$((E2E_FAILED + 1)); fi
  SUMMARY+=("$(printf '  %-8s %-52s %s' "$([ "$rc" -eq 0 ] && echo ok || echo FAILED)" "e2e python mcp 2.x client $label" "$(echo "$out" | grep -o '"protocol_version": "[^"]*"')")")
  [ "$rc" -eq 0 ] || FAILED_STEPS=$((FAILED_STEPS + 1))
}

# Each protocol revision's requirement set (conformance 0.2.0-alpha.12, installed as
# conformance-next beside 0.1.16): every scenario must pass but those listed, with their
# reasons, in tests/conformance/expected-failures-<revision>.yaml; a listed one that
# starts passing fails the run too, so the list stays exact.
CONFORMANCE_REQUIREMENTS=(2026-07-28 2025-11-25)
run_requirements() {
  local label="$1" url="$2" rev="$3" dir="$TMP/conformance/$1-$3" rc
  mkdir -p "$dir"
  log "conformance [$label]: requirements $rev"
  (cd "$dir" && timeout 600 node "$ROOT/node_modules/conformance-next/dist/index.js" server --url "$url" \
    --requirements "$rev" --expected-failures "$ROOT/tests/conformance/expected-failures-$rev.yaml" >"$dir/out.txt" 2>&1)
  rc=$?
  grep -E '^Total:|Baseline check|Unexpected|Stale|^  [✗✓] ' "$dir/out.txt" | grep -v '^  ~'
  if [ "$rc" -eq 0 ]; then E2E_PASSED=$((E2E_PASSED + 1)); else E2E_FAILED=$((E2E_FAILED + 1)); fi
  SUMMARY+=("$(printf '  %-8s %-52s %s' "$([ "$rc" -eq 0 ] && echo ok || echo FAILED)" "conformance $label requirements $rev" "$(grep -m1 '^Total:' "$dir/out.txt")")")
  [ "$rc" -eq 0 ] || FAILED_STEPS=$((FAILED_STEPS + 1))
}

# ---------------------------------------------------------------- E2E: authorization
# Per edge, three more servers: oauth (a resource server of the stand-in authorization server,
# tests/e2e/auth/authorization-server.mjs), strict bearer tokens with small ceilings, and bearer
# tokens beside anonymous callers with their own NCBI key. Datasets live 15 minutes there, so
# the ceilings are still full when the suite checks them.
AUTH_TOKENS=""
AUTH_AS=""
RUNNING_REPLAY=""
AUTH_REPLAY=""
declare -A AUTH_URL=()
rand_hex() { head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n'; }

# auth_env NAME LINE...: the shared settings plus these lines, as $TMP/auth-NAME.env.
auth_env() {
  local f="$TMP/auth-$1.env"
  shift
  {
    grep -v '^EUTILS_BASE_URL=' "$TMP/e2e-base.env"
    # The shared replay, unless the lines name one of their own.
    case " $* " in *" EUTILS_BASE_URL="*) ;; *) echo "EUTILS_BASE_URL=$AUTH_REPLAY/entrez/eutils/" ;; esac
    echo "ENTREZ_DATA_TTL_SECS=900"
    printf '%s\n' "$@"
  } >"$f"
  echo "$f"
}

e2e_auth_start() {
  local out="$TMP/auth-server.out" line="" edge mode port f
  setsid node "$ROOT/tests/e2e/auth/authorization-server.mjs" </dev/null >"$out" 2>"$TMP/auth-server.log" &
  PIDS+=("$!")
  line=$(listening_url "$out")
  [ -n "$line" ] || { warn "the authorization server did not start"; return 1; }
  AUTH_AS="$line"
  log "authorization server stand-in on $AUTH_AS"
  # An NCBI replay of their own, whose statistics show whose key reached it.
  start_replay ncbi-replay ncbi-replay-auth || return 1
  AUTH_REPLAY="$REPLAY_BASE"
  AUTH_TOKENS="alice:$(rand_hex),bob:$(rand_hex),carol:$(rand_hex)"
  # The running-ceilings servers' own replay: their suite makes it answer late.
  start_replay ncbi-replay ncbi-replay-running || return 1
  RUNNING_REPLAY="$REPLAY_BASE"
  for edge in native worker; do
    [ "$edge" = worker ] && [ "$WORKER_OK" != 1 ] && continue
    for mode in oauth bearer open running; do
      port=$(free_port)
      case "$mode" in
        oauth) f=$(auth_env "$edge-$mode" MCP_AUTH_MODE=oauth "MCP_AUTH_RESOURCE=http://127.0.0.1:$port/mcp" \
          "MCP_AUTH_ISSUER=$AUTH_AS" "MCP_AUTH_INTROSPECTION_URL=$AUTH_AS/introspect" \
          MCP_AUTH_INTROSPECTION_CLIENT_ID=entrez-mcp MCP_AUTH_INTROSPECTION_CLIENT_SECRET=introspection-secret-0123456789) ;;
        bearer) f=$(auth_env "$edge-$mode" MCP_AUTH_MODE=bearer "MCP_AUTH_TOKENS=$AUTH_TOKENS" \
          ENTREZ_DATA_MAX_DATASETS=3 ENTREZ_IDENTITY_STAGINGS_PER_HOUR=4 ENTREZ_DATA_TOTAL_MAX_DATASETS=5) ;;
        open) f=$(auth_env "$edge-$mode" MCP_AUTH_MODE=bearer "MCP_AUTH_TOKENS=$AUTH_TOKENS" MCP_AUTH_ANONYMOUS=true \
          "NCBI_API_KEY=e2e-operator-key-$(rand_hex)" ENTREZ_ANONYMOUS_MAX_DATASETS=2 ENTREZ_ANONYMOUS_STAGINGS_PER_HOUR=3 \
          ENTREZ_CPU_BUDGET_MS=10 ENTREZ_SUBREQUESTS=50) ;;
        # Two stagings running per account and three in all (tests/e2e/auth/running.test.mjs),
        # on the Free plan's budget, with a key of its own at its own replay.
        running) f=$(auth_env "$edge-$mode" MCP_AUTH_MODE=bearer "MCP_AUTH_TOKENS=$AUTH_TOKENS" \
          ENTREZ_DATA_MAX_RUNNING=2 ENTREZ_DATA_TOTAL_MAX_RUNNING=3 ENTREZ_CPU_BUDGET_MS=10 ENTREZ_SUBREQUESTS=50 \
          "NCBI_API_KEY=e2e-running-key-$edge-$(rand_hex)" "EUTILS_BASE_URL=$RUNNING_REPLAY/entrez/eutils/") ;;
      esac
      if [ "$edge" = native ]; then
        mkdir -p "$TMP/auth-data-$mode"
        NATIVE_PORT="$port" start_native "native $mode server" "$f" ENTREZ_DATA_DIR="$TMP/auth-data-$mode"
        AUTH_URL[$edge-$mode]="$NATIVE_URL"
      else
        start_worker "$mode" "$f" "$port" && AUTH_URL[$edge-$mode]="$WORKER_URL"
      fi
    done
  done
}

e2e_auth_run() {
  local edge data_dir
  for edge in native worker; do
    if [ -z "${AUTH_URL[$edge-oauth]:-}" ] || [ -z "${AUTH_URL[$edge-bearer]:-}" ] || [ -z "${AUTH_URL[$edge-open]:-}" ] \
      || [ -z "${AUTH_URL[$edge-running]:-}" ]; then
      skip "e2e auth-$edge" "its servers did not start"
      E2E_FAILED=$((E2E_FAILED + 1))
      continue
    fi
    data_dir=""
    [ "$edge" = native ] && data_dir="$TMP/auth-data-bearer"
    run_suite "auth-$edge" E2E_EDGE="$edge" E2E_AS="$AUTH_AS" E2E_OAUTH_URL="${AUTH_URL[$edge-oauth]}" \
      E2E_BEARER_URL="${AUTH_URL[$edge-bearer]}" E2E_OPEN_URL="${AUTH_URL[$edge-open]}" E2E_BEARER_TOKENS="$AUTH_TOKENS" \
      E2E_REPLAY="$AUTH_REPLAY" E2E_BEARER_DATA_DIR="$data_dir" E2E_PYTHON="$PY_CLIENT_VENV/bin/python" \
      E2E_RUNNING_URL="${AUTH_URL[$edge-running]}" E2E_RUNNING_REPLAY="$RUNNING_REPLAY" -- \
      tests/e2e/auth/oauth.test.mjs tests/e2e/auth/bearer.test.mjs tests/e2e/auth/running.test.mjs
  done
}

# A staging carried on by the server survives the server: on each edge, a server on the Free
# plan's budget (every upstream answer 1.5 s late, so the staging takes half a minute) starts
# a 1,000-record staging as a task, is killed mid-step (SIGKILL) and started again on the same
# port and storage; tests/e2e/restart/resume.test.mjs then watches it complete, nothing twice.
e2e_restart_run() {
  local edge port env_file="$TMP/restart.env" task_id
  start_replay ncbi-replay ncbi-replay-restart || {
    skip "e2e restart" "its replay did not start"
    return
  }
  local replay="$REPLAY_BASE"
  {
    grep -v '^EUTILS_BASE_URL=' "$TMP/e2e-base.env"
    echo "EUTILS_BASE_URL=$replay/entrez/eutils/"
    echo "ENTREZ_CPU_BUDGET_MS=10"
    echo "ENTREZ_SUBREQUESTS=50"
  } >"$env_file"
  for edge in native worker; do
    [ "$edge" = native ] && [ "$RELEASE_OK" != 1 ] && continue
    [ "$edge" = worker ] && [ "$WORKER_OK" != 1 ] && continue
    curl -sf -X POST "$replay/__replay/reset" >/dev/null
    curl -sf -X POST -H 'Content-Type: application/json' -d '{"delay_ms": 1500, "count": 100}' \
      "$replay/__replay/fail" >/dev/null
    port=$(free_port)
    local url="" pid=""
    restart_server() {
      if [ "$edge" = native ]; then
        mkdir -p "$TMP/restart-data"
        NATIVE_PORT="$port" start_native "native restart server" "$env_file" ENTREZ_DATA_DIR="$TMP/restart-data" &&
          url="$NATIVE_URL" pid="$NATIVE_PID"
      else
        start_worker restart "$env_file" "$port" && url="$WORKER_URL" pid="$BG_PID"
      fi
    }
    restart_server
    if [ -z "$url" ] || ! task_id=$(node tests/e2e/restart/start.mjs "$url"); then
      skip "e2e restart-$edge" "its server or staging did not start"
      E2E_FAILED=$((E2E_FAILED + 1))
      continue
    fi
    # Two or three steps land; the next one is cut off mid-way.
    sleep 4
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null
    sleep 1
    url=""
    restart_server
    if [ -z "$url" ]; then
      skip "e2e restart-$edge" "its server did not start again"
      E2E_FAILED=$((E2E_FAILED + 1))
      continue
    fi
    SUITE_TEST_TIMEOUT_MS=300000 run_suite "restart-$edge" E2E_URL="$url" E2E_EDGE="$edge" \
      E2E_TASK_ID="$task_id" E2E_REPLAY="$replay" -- tests/e2e/restart/resume.test.mjs
  done
}

# Every HTTP suite runs against each edge; stdio and the edge comparison run once.
HTTP_SUITES=()
for f in tests/e2e/*.test.mjs; do
  case "$f" in */stdio.test.mjs | */compare-edges.test.mjs) ;; *) HTTP_SUITES+=("$f") ;; esac
done

# Dataset lifetime on the E2E servers: a margin on the gaps between one suite's calls (a
# lifetime counts from a dataset's last write, not from how long the machine takes to stage),
# which nothing waits out. Expiry is the lifetime suite's, on servers of their own.
E2E_DATA_TTL_SECS=600
# The lifetime suite's servers: a staging there is made to last twice as long (the replay
# answers late), whatever the machine's speed.
E2E_SHORT_TTL_SECS=8
# The cache suite's servers: every lifetime of the policy table at a hundredth (a search is
# kept 6 s, which the suite waits out), room for a few PubMed records, and a server key.
E2E_CACHE_TTL_SCALE=0.01
E2E_CACHE_MAX_BYTES=40000
E2E_CACHE_SERVER_KEY="e2e-cache-server-key-$(date +%s)-0123456789"
# A request body that trickles in gets 408 after this long (slow-clients suite).
E2E_HTTP_BODY_TIMEOUT_MS=5000

e2e() {
  local bin="$ROOT/target/$NATIVE_PROFILE/entrez-mcp"
  local env_file="$TMP/e2e.env" native_url="" native_pid="" worker_url="" port

  # Stand-ins for NCBI (recorded E-utilities answers) and for PubChem/PMC, with their real rate limits.
  local eutils_base="" external_base=""
  start_replay ncbi-replay && eutils_base="$REPLAY_BASE"
  start_replay external-replay && external_base="$REPLAY_BASE"

  # One settings file for both edges: wrangler dev loads it (instead of .dev.vars) as
  # secrets, the native server as its environment. Upstreams point at the replay servers.
  # The base part is shared with the authorization servers (e2e_auth); e2e.env adds what
  # only the main servers have.
  {
    echo "MCP_SESSION_SECRET=e2e-session-secret-$(date +%s)-0123456789abcdef"
    # An upstream attempt that drips in for 8 s is cut off (hostile-upstream suite), and a
    # client that trickles its request body in for 5 s gets 408 (slow-clients suite).
    echo "ENTREZ_UPSTREAM_TIMEOUT_MS=8000"
    echo "ENTREZ_HTTP_BODY_TIMEOUT_MS=$E2E_HTTP_BODY_TIMEOUT_MS"
    # Every call goes upstream: the suites queue faults and count requests at the replays.
    # The cache suite runs on servers of its own, with the cache on.
    echo "ENTREZ_CACHE=off"
    # Each upstream request says which authority paced it (the load suite checks that the
    # Worker's came from the pacing Durable Object).
    echo "ENTREZ_PACING_TRACE=1"
    if [ -n "$eutils_base" ]; then
      echo "EUTILS_BASE_URL=$eutils_base/entrez/eutils/"
    fi
    if [ -n "$external_base" ]; then
      echo "PUBCHEM_BASE_URL=$external_base/rest/pug/"
      echo "PMC_IDCONV_URL=$external_base/tools/idconv/api/v1/articles/"
      echo "PMC_OA_URL=$external_base/pmc/utils/oa/oa.fcgi"
      echo "PMC_CLOUD_URL=$external_base/pmc-oa-opendata/"
      echo "PMC_CTXP_URL=$external_base/api/ctxp/v1/"
      echo "PMC_BIOC_URL=$external_base/research/bionlp/RESTful/pmcoa.cgi/"
      echo "ICITE_URL=$external_base"
    fi
  } >"$TMP/e2e-base.env"
  {
    cat "$TMP/e2e-base.env"
    # Short-lived datasets, so the entrez_data suite can watch one expire on each edge.
    echo "ENTREZ_DATA_TTL_SECS=$E2E_DATA_TTL_SECS"
    # Every suite calls from 127.0.0.1, which the Worker counts as one anonymous address:
    # its per-address ceilings are raised so that hundreds of stagings fit in one run (the
    # auth suites test the ceilings themselves on servers of their own).
    echo "ENTREZ_ANONYMOUS_MAX_DATASETS=1000"
    echo "ENTREZ_ANONYMOUS_MAX_BYTES=8589934592"
    echo "ENTREZ_ANONYMOUS_STAGINGS_PER_HOUR=100000"
    # The suites run side by side, each staging as it needs: stagings running are counted per
    # account (all of them one here) and in total, so those ceilings are raised too.
    echo "ENTREZ_DATA_MAX_RUNNING=1000"
    echo "ENTREZ_DATA_TOTAL_MAX_RUNNING=1000"
  } >"$env_file"

  if [ "$RELEASE_OK" = 1 ]; then
    # A clean environment: nothing from the caller's shell (an NCBI_API_KEY, say) leaks in,
    # and datasets go to a temporary directory, not the user's data directory.
    mkdir -p "$TMP/native-data"
    start_native "native server" "$env_file" ENTREZ_DATA_DIR="$TMP/native-data"
    native_url="$NATIVE_URL"
    native_pid="${NATIVE_PID:-}"
  fi

  if [ "$WORKER_OK" = 1 ]; then
    # wrangler dev runs on a copy of the bundle built above, with wrangler.toml minus its
    # [build] table: nothing rebuilds or reloads it when the sources or build/ change meanwhile.
    prepare_worker
    start_worker main "$env_file" "$(free_port)" && worker_url="$WORKER_URL"
  fi

  # One more server per edge with a lifetime of a few seconds, for the suite that stages
  # for longer than that (tests/e2e/lifetime): each write renews a dataset's lifetime.
  declare -A LIFETIME_URL=()
  grep -v '^ENTREZ_DATA_TTL_SECS=' "$env_file" >"$TMP/lifetime.env"
  echo "ENTREZ_DATA_TTL_SECS=$E2E_SHORT_TTL_SECS" >>"$TMP/lifetime.env"
  if [ "$RELEASE_OK" = 1 ]; then
    mkdir -p "$TMP/lifetime-data"
    start_native "native lifetime server" "$TMP/lifetime.env" ENTREZ_DATA_DIR="$TMP/lifetime-data"
    LIFETIME_URL[native]="$NATIVE_URL"
  fi
  if [ "$WORKER_OK" = 1 ]; then
    start_worker lifetime "$TMP/lifetime.env" "$(free_port)" && LIFETIME_URL[worker]="$WORKER_URL"
  fi

  # One more server per edge with the cache of upstream answers on: lifetimes at a hundredth
  # (a search is kept 6 s), a bound of 40 KB, and a server key the suite looks for in what
  # the cache stored (natively the data directory, on the Worker the Cache API's store in
  # wrangler's state directory).
  declare -A CACHE_URL=() CACHE_STATE=()
  {
    grep -v '^ENTREZ_CACHE=' "$env_file"
    echo "ENTREZ_CACHE=on"
    echo "ENTREZ_CACHE_TTL_SCALE=$E2E_CACHE_TTL_SCALE"
    echo "ENTREZ_CACHE_MAX_BYTES=$E2E_CACHE_MAX_BYTES"
    echo "NCBI_API_KEY=$E2E_CACHE_SERVER_KEY"
  } >"$TMP/cache.env"
  if [ "$RELEASE_OK" = 1 ]; then
    mkdir -p "$TMP/cache-data"
    start_native "native cache server" "$TMP/cache.env" ENTREZ_DATA_DIR="$TMP/cache-data"
    CACHE_URL[native]="$NATIVE_URL"
    CACHE_STATE[native]="$TMP/cache-data"
  fi
  if [ "$WORKER_OK" = 1 ]; then
    start_worker cache "$TMP/cache.env" "$(free_port)" && CACHE_URL[worker]="$WORKER_URL"
    CACHE_STATE[worker]="$TMP/wrangler-state-cache/v3/cache"
  fi

  # One more server per edge as a user runs it: nothing set but where the upstreams are and
  # the session secret (the cache on with its shipped lifetimes and bound, default ceilings
  # and budgets); tests/e2e/defaults and the client suites run against it.
  declare -A DEFAULTS_URL=()
  grep -E '^(MCP_SESSION_SECRET|EUTILS_BASE_URL|PUBCHEM_BASE_URL|PMC_[A-Z_]*URL|ICITE_URL)=' "$TMP/e2e-base.env" >"$TMP/defaults.env"
  if [ "$RELEASE_OK" = 1 ]; then
    mkdir -p "$TMP/defaults-data"
    start_native "native defaults server" "$TMP/defaults.env" ENTREZ_DATA_DIR="$TMP/defaults-data"
    DEFAULTS_URL[native]="$NATIVE_URL"
  fi
  if [ "$WORKER_OK" = 1 ]; then
    start_worker defaults "$TMP/defaults.env" "$(free_port)" && DEFAULTS_URL[worker]="$WORKER_URL"
  fi

  # One more server per edge on the Workers Free plan's budget, as a Free-plan deployment
  # sets it (docs/src/workers-plans.md, "CPU per request"): tests/e2e/free-plan runs a literature review there
  # with a client that has no MCP Tasks. The Worker's says how its start-up went.
  declare -A FREE_URL=()
  {
    cat "$env_file"
    echo "ENTREZ_CPU_BUDGET_MS=10"
    echo "ENTREZ_SUBREQUESTS=50"
    echo "ENTREZ_STARTUP_TRACE=1"
  } >"$TMP/free.env"
  if [ "$RELEASE_OK" = 1 ]; then
    mkdir -p "$TMP/free-data"
    start_native "native free-plan server" "$TMP/free.env" ENTREZ_DATA_DIR="$TMP/free-data"
    FREE_URL[native]="$NATIVE_URL"
  fi
  if [ "$WORKER_OK" = 1 ]; then
    start_worker free "$TMP/free.env" "$(free_port)" && FREE_URL[worker]="$WORKER_URL"
  fi

  # The authorization servers start now, so they are up by the time their suites run.
  [ "$RELEASE_OK" = 1 ] && e2e_auth_start

  local edge url pid
  for edge in native worker; do
    url=native_url
    [ "$edge" = worker ] && url=worker_url
    url="${!url}"
    # The native server's pid, so the hostile-upstream suite can read its peak memory.
    pid=""
    [ "$edge" = native ] && pid="$native_pid"
    if [ -z "$url" ]; then
      skip "e2e $edge" "the $edge server did not start"
      E2E_FAILED=$((E2E_FAILED + 1))
      continue
    fi
    run_suite "http-$edge" E2E_URL="$url" E2E_EDGE="$edge" E2E_REPLAY="$eutils_base" \
      E2E_EXTERNAL_REPLAY="$external_base" E2E_DATA_TTL_SECS="$E2E_DATA_TTL_SECS" E2E_NATIVE_PID="$pid" \
      E2E_HTTP_BODY_TIMEOUT_MS="$E2E_HTTP_BODY_TIMEOUT_MS" -- "${HTTP_SUITES[@]}"
    # Exports of a 2,000-record dataset in every format, read back by independent readers
    # (the Python venv's rispy, bibtexparser, nbib; citeproc-js and ajv from node_modules).
    SUITE_TEST_TIMEOUT_MS=300000 run_suite "export-$edge" E2E_URL="$url" E2E_EDGE="$edge" \
      E2E_PYTHON="$PY_CLIENT_VENV/bin/python" -- tests/e2e/export/export.test.mjs
    run_conformance "$edge" "$url"
    run_python_client "http-$edge" -- --http "$url"
  done

  if [ "$RELEASE_OK" = 1 ]; then
    mkdir -p "$TMP/stdio-data"
    run_suite "stdio-native" E2E_BIN="$bin" ENTREZ_DATA_DIR="$TMP/stdio-data" -- tests/e2e/stdio.test.mjs
    # The five bibliography styles against citeproc-js on hand-made edge cases (entrez-mcp export --from);
    # the CSL JSON and styles against the tests' own mapping of every PubMed fixture's XML, ten styles.
    run_suite "styles-native" E2E_BIN="$bin" -- tests/e2e/export/styles.test.mjs tests/e2e/export/truth.test.mjs
    mkdir -p "$TMP/python-stdio-data"
    # The stdio server inherits the client's environment: the E2E settings, upstreams at the replays.
    # shellcheck disable=SC2046 # one NAME=value word per line of the settings file
    run_python_client "stdio-native" $(grep -v '^MCP_SESSION_SECRET=' "$env_file") \
      ENTREZ_DATA_DIR="$TMP/python-stdio-data" -- --stdio "$bin"
  else
    skip "e2e stdio" "no native binary"
    E2E_FAILED=$((E2E_FAILED + 1))
  fi

  for edge in native worker; do
    if [ -n "${LIFETIME_URL[$edge]:-}" ]; then
      run_suite "lifetime-$edge" E2E_URL="${LIFETIME_URL[$edge]}" E2E_EDGE="$edge" E2E_REPLAY="$eutils_base" \
        E2E_DATA_TTL_SECS="$E2E_SHORT_TTL_SECS" -- tests/e2e/lifetime/lifetime.test.mjs
    else
      skip "e2e lifetime-$edge" "its server did not start"
      E2E_FAILED=$((E2E_FAILED + 1))
    fi
  done

  for edge in native worker; do
    if [ -n "${CACHE_URL[$edge]:-}" ]; then
      run_suite "cache-$edge" E2E_URL="${CACHE_URL[$edge]}" E2E_EDGE="$edge" E2E_REPLAY="$eutils_base" \
        E2E_EXTERNAL_REPLAY="$external_base" E2E_CACHE_STATE="${CACHE_STATE[$edge]}" \
        E2E_CACHE_TTL_SCALE="$E2E_CACHE_TTL_SCALE" E2E_CACHE_MAX_BYTES="$E2E_CACHE_MAX_BYTES" \
        E2E_SERVER_KEY="$E2E_CACHE_SERVER_KEY" -- tests/e2e/cache/cache.test.mjs
    else
      skip "e2e cache-$edge" "its server did not start"
      E2E_FAILED=$((E2E_FAILED + 1))
    fi
  done

  for edge in native worker; do
    if [ -n "${DEFAULTS_URL[$edge]:-}" ]; then
      run_suite "defaults-$edge" E2E_URL="${DEFAULTS_URL[$edge]}" E2E_EDGE="$edge" E2E_REPLAY="$eutils_base" E2E_BIN="$bin" -- \
        tests/e2e/defaults/defaults.test.mjs tests/e2e/every-example.test.mjs tests/e2e/sdk-client.test.mjs \
        tests/e2e/docs-examples.test.mjs tests/e2e/client-snippets.test.mjs
    else
      skip "e2e defaults-$edge" "its server did not start"
      E2E_FAILED=$((E2E_FAILED + 1))
    fi
  done

  for edge in native worker; do
    if [ -n "${FREE_URL[$edge]:-}" ]; then
      # The citation network again on the Free plan's budget: the same look-ups, smaller efetch
      # batches across the steps the server runs by itself.
      SUITE_TEST_TIMEOUT_MS=300000 run_suite "free-plan-$edge" E2E_URL="${FREE_URL[$edge]}" E2E_EDGE="$edge" \
        E2E_REPLAY="$eutils_base" E2E_EXTERNAL_REPLAY="$external_base" E2E_FREE_PLAN=1 -- \
        tests/e2e/free-plan/literature.test.mjs tests/e2e/citation-network.test.mjs
    else
      skip "e2e free-plan-$edge" "its server did not start"
      E2E_FAILED=$((E2E_FAILED + 1))
    fi
  done

  if [ -n "$native_url" ] && [ -n "$worker_url" ]; then
    run_suite "native-vs-worker" E2E_NATIVE_URL="$native_url" \
      E2E_WORKER_URL="$worker_url" E2E_REPLAY="$eutils_base" E2E_EXTERNAL_REPLAY="$external_base" -- \
      tests/e2e/compare-edges.test.mjs
  else
    skip "e2e native-vs-worker" "needs both servers"
    E2E_FAILED=$((E2E_FAILED + 1))
  fi

  if [ -n "$AUTH_AS" ] && [ -n "$AUTH_REPLAY" ]; then
    e2e_auth_run
  else
    skip "e2e auth" "the authorization server stand-in did not start"
    E2E_FAILED=$((E2E_FAILED + 1))
  fi

  e2e_restart_run

  # On any E2E failure, show the end of every server log (they vanish with $TMP).
  if [ "$E2E_FAILED" -gt 0 ]; then
    local f
    for f in "$TMP"/*.log; do
      [ -s "$f" ] || continue
      log "end of $(basename "$f")"
      tail -n 40 "$f"
    done
  fi
}

# ---------------------------------------------------------------- fuzz smoke

# Every fuzz target runs for FUZZ_SMOKE_SECONDS (default 30) while the E2E suites run: they
# spend most of their time waiting on paced stand-ins, and the fuzzers run at the lowest
# priority, so they take only the CPU the suites leave. A crash, or a build that fails,
# fails the run (scripts/fuzz.sh installs cargo-fuzz on the pinned nightly first, where it is
# missing, in the same background job). Long runs: `bash scripts/fuzz.sh 1800`.
FUZZ_SMOKE_SECONDS="${FUZZ_SMOKE_SECONDS:-30}"

# start_job itself (scripts/lib.sh), once in a shell with job control: a job that exits 3
# must be seen to exit 3 (a plain setsid there reports 0 at once, and a fuzzer's crash or the
# book's failure would pass).
jobs_report_status() {
  local rc
  bash -c 'set -m; source "$1"; start_job "$2" bash -c "sleep 0.2; exit 3"; wait "$JOB_PID"; exit $?' \
    _ "$ROOT/scripts/lib.sh" "$TMP/job-check.out" 2>/dev/null
  rc=$?
  [ "$rc" -eq 3 ] || { warn "a background job that exited 3 was reported as $rc"; return 1; }
  echo "a background job's exit status reaches scripts/test.sh under job control too"
}
FUZZ_PID=""
if [ "$E2E_ONLY" = 0 ]; then
  step "background jobs report their own exit status (start_job)" jobs_report_status
  log "fuzz smoke in the background (${FUZZ_SMOKE_SECONDS}s per target, nice 19; output at the end)"
  T_FUZZ=$(date +%s)
  start_job "$TMP/fuzz.out" bash "$ROOT/scripts/fuzz.sh" "$FUZZ_SMOKE_SECONDS"
  FUZZ_PID=$JOB_PID
fi

# The book (scripts/docs.sh: mdbook build with no warning, links and anchors, the pages
# against the schemas and scripts) beside the E2E suites too, at the lowest priority: on a
# machine without mdbook, installing it from crates.io takes about 5 minutes of CPU that
# the suites, mostly waiting on paced stand-ins, leave free.
DOCS_PID=""
if [ "$E2E_ONLY" = 0 ]; then
  log "the book in the background (scripts/docs.sh, nice 19; output at the end)"
  T_DOCS=$(date +%s)
  start_job "$TMP/docs.out" bash "$ROOT/scripts/docs.sh"
  DOCS_PID=$JOB_PID
fi

e2e
echo "e2e: $E2E_PASSED passed, $E2E_FAILED failed"

if [ -n "$DOCS_PID" ]; then
  log "the book: waiting for it to end"
  wait "$DOCS_PID"
  docs_rc=$?
  cat "$TMP/docs.out"
  SUMMARY+=("$(printf '  %-8s %-52s %5ss' "$([ "$docs_rc" -eq 0 ] && echo ok || echo FAILED)" "the book (scripts/docs.sh, beside the E2E)" $(($(date +%s) - T_DOCS)))")
  [ "$docs_rc" -eq 0 ] || FAILED_STEPS=$((FAILED_STEPS + 1))
fi

fuzz_wait() {
  wait "$FUZZ_PID"
  local rc=$?
  cat "$TMP/fuzz.out"
  return "$rc"
}
if [ -n "$FUZZ_PID" ]; then
  log "fuzz smoke: waiting for it to end"
  if fuzz_wait; then
    SUMMARY+=("$(printf '  %-8s %-52s %5ss' ok "fuzz smoke (${FUZZ_SMOKE_SECONDS}s per target, beside the E2E)" $(($(date +%s) - T_FUZZ)))")
  else
    SUMMARY+=("$(printf '  %-8s %-52s %5ss' FAILED "fuzz smoke (${FUZZ_SMOKE_SECONDS}s per target, beside the E2E)" $(($(date +%s) - T_FUZZ)))")
    FAILED_STEPS=$((FAILED_STEPS + 1))
  fi
fi

# ---------------------------------------------------------------- summary

# A listed skip that did not happen on an edge whose suites ran: reported, not failed.
for edge in "${!EDGES_RUN[@]}"; do
  while IFS= read -r name; do
    [ -n "$name" ] && [ -z "${SKIPPED_ON["$edge|$name"]:-}" ] &&
      SUMMARY+=("$(printf '  %-8s %s' note "tests/e2e/expected-skips.txt lists a skip that did not happen on $edge: $name")")
  done < <(expected_skips "$edge")
done
T_TOTAL=$(($(date +%s) - T_START))
echo
echo "================================ summary ================================"
printf '%s\n' "${SUMMARY[@]}"
[ -n "$WORKER_SIZE_LINE" ] && echo "  $WORKER_SIZE_LINE"
echo "  skipped: ${#SKIPS[@]} (edge, what, why; each could not run here)"
[ "${#SKIPS[@]}" -eq 0 ] || printf '    %s\n' "${SKIPS[@]}"
echo "  rust tests: $RUST_PASSED passed, $RUST_FAILED failed; e2e: $E2E_PASSED passed, $E2E_FAILED failed, $E2E_SKIPPED skipped"
echo "  total time: $((T_TOTAL / 60))m $((T_TOTAL % 60))s"
if [ "$FAILED_STEPS" -eq 0 ] && [ "${#SKIPS[@]}" -gt 0 ]; then
  echo "  RESULT: all passed but the ${#SKIPS[@]} skip(s) listed above"
elif [ "$FAILED_STEPS" -eq 0 ]; then
  echo "  RESULT: all passed"
else
  echo "  RESULT: $FAILED_STEPS step(s) failed"
fi
echo "========================================================================="
echo "all: $((RUST_PASSED + E2E_PASSED)) passed, $((RUST_FAILED + E2E_FAILED)) failed"
[ "$FAILED_STEPS" -eq 0 ]
