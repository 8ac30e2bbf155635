#!/usr/bin/env bash
# The check_references benchmark: the confusion table (expected verdict × verdict given)
# and the upstream requests per call of 100, on the NCBI stand-in.
#
# The corpus (tests/fixtures/references/corpus.json, 284 references with known truth) is
# built by scripts/references_corpus.py from the stand-in's PubMed records; pass --rebuild
# to build it again first. The table is printed by the test that asserts the bar
# (tests/suite/replay/references.rs): no wrong or invented citation verified, >= 95% of
# correct ones verified and none not_found, every retracted one flagged, <= 10 requests
# per 100 references. About 10 s once built.
#
# Usage: scripts/references-benchmark.sh [--rebuild]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--rebuild" ]; then
    python3 scripts/references_corpus.py
fi
cargo test --quiet --test suite the_reference_benchmark_verifies_no_wrong_citation -- --nocapture 2>&1 |
    sed -n '/^REFERENCE BENCHMARK/,/^$/p'
