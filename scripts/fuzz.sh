#!/usr/bin/env bash
# Runs the cargo-fuzz targets under fuzz/ for a while each and reports what they did.
#
#   bash scripts/fuzz.sh                 # every target, 60 s each
#   bash scripts/fuzz.sh 1800            # every target, 30 minutes each
#   bash scripts/fuzz.sh 300 pubmed sql_guard
#
# Needs the pinned nightly toolchain and cargo-fuzz, which scripts/setup.sh installs
# (scripts/lib.sh, ensure_fuzz_tools); this script installs them too when missing. Seed
# corpora come from the recorded fixtures (tests/fixtures) the first time a target
# runs; what the fuzzer finds is kept in fuzz/corpus/ (not committed) and crashes in
# fuzz/artifacts/. Every run is bounded by its time and a 2 GB memory limit.
# Exit status is non-zero if any target crashed.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

SECONDS_EACH="${1:-60}"
shift || true
ALL_TARGETS=(pubmed eutils tokenizer dispatcher intake sql_guard headers)
TARGETS=("$@")
[ "${#TARGETS[@]}" -gt 0 ] || TARGETS=("${ALL_TARGETS[@]}")

ensure_fuzz_tools
FUZZ=(cargo "+$WORKER_NIGHTLY" fuzz)

# seed TARGET DIR...: copies fixture files into the target's corpus if it is empty.
seed() {
  local target="$1" dir="fuzz/corpus/$1"
  shift
  mkdir -p "$dir"
  [ -n "$(ls -A "$dir" 2>/dev/null)" ] && return 0
  local src f
  for src in "$@"; do
    for f in $src; do
      [ -f "$f" ] && [ "$(wc -c <"$f")" -le 1048576 ] && cp "$f" "$dir/$(basename "$f")"
    done
  done
}
seed pubmed "tests/fixtures/ncbi/eutils/pubmed*.xml" "tests/fixtures/ncbi/eutils/efetch*.xml"
seed eutils "tests/fixtures/ncbi/eutils/*" "tests/fixtures/ncbi/json/*" "tests/fixtures/ncbi/text/*"
seed tokenizer "tests/fixtures/ncbi/eutils/*.xml"
# split KIND DIR: one seed file per SQL statement or per call of the corpora.
split() {
  mkdir -p "$2"
  [ -n "$(ls -A "$2" 2>/dev/null)" ] && return 0
  python3 - "$1" "$2" <<'PY'
import json, pathlib, sys
kind, out = sys.argv[1], pathlib.Path(sys.argv[2])
items = []
if kind == "sql":
    for f in ("hostile", "legitimate"):
        d = json.load(open(f"tests/fixtures/sql/{f}.json"))
        items += [v for k, v in d.items() if isinstance(v, list) for v in v]
        items = [i if isinstance(i, str) else i.get("sql", "") for i in items]
else:
    d = json.load(open("tests/fixtures/loose-calls/corpus.json"))
    calls = [(c["tool"], c["sent"]) for c in d["clear"] + d["hopeless"]]
    if kind == "args":
        items = [json.dumps(a) for _, a in calls]
    else:
        items = [json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                             "params": {"name": t, "arguments": a}}) for i, (t, a) in enumerate(calls)]
        items.append(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "f", "version": "1"}}}))
for i, text in enumerate(items):
    (out / f"seed{i:04}").write_text(text)
PY
}
split sql fuzz/corpus/sql_guard
split args fuzz/corpus/intake
split rpc fuzz/corpus/dispatcher
mkdir -p fuzz/corpus/headers
if [ -z "$(ls -A fuzz/corpus/headers)" ]; then
  printf '30' >fuzz/corpus/headers/seed0
  printf '18446744073709552' >fuzz/corpus/headers/seed1
  printf 'Request Count status: Green (0%%), Request Time status: Yellow (55%%), Service status: Green (10%%)' >fuzz/corpus/headers/seed2
fi

log "building the fuzz targets (cargo +$WORKER_NIGHTLY fuzz build)"
"${FUZZ[@]}" build -O >/dev/null 2>"fuzz/build.log" || {
  tail -30 fuzz/build.log >&2
  die "the fuzz targets did not build"
}

crashed=0
printf '%-12s %12s %10s %8s  %s\n' target executions exec/s corpus result
for t in "${TARGETS[@]}"; do
  out="fuzz/$t.log"
  "${FUZZ[@]}" run -O "$t" -- -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 \
    -timeout=10 -print_final_stats=1 >"$out" 2>&1
  rc=$?
  runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$out" | tail -1)
  rate=$(awk '/stat::average_exec_per_sec/ {print $2}' "$out" | tail -1)
  corpus=$(ls "fuzz/corpus/$t" 2>/dev/null | wc -l)
  if [ "$rc" -eq 0 ]; then result=ok; else result="CRASH (see $out, fuzz/artifacts/$t)"; crashed=1; fi
  printf '%-12s %12s %10s %8s  %s\n' "$t" "${runs:-?}" "${rate:-?}" "$corpus" "$result"
done
exit "$crashed"
