#!/usr/bin/env bash
# Compares parse_pubmed with Biopython's Bio.Entrez.read on the same bytes.
#
# Why a script: the two sides live in different languages, and the comparison
# is only honest if both read the same corpus on the same machine in the same
# run. The Rust benchmark (parse/examples/bench_parse_pubmed.rs) builds the corpus
# from the recorded pubmed*.xml fixtures, writes it under target/bench/ (never
# committed), and times itself; Python then times Entrez.read on that file.
#
# The Rust side is built with the project's release profile (opt-level 3,
# LTO), the profile the shipped native binary uses. Set OPT_LEVEL=s to also
# measure the size-optimised level the Worker is built at, in its own target
# directory.
#
# Usage: scripts/bench-parse.sh [SIZE_MB]   (default 12)
set -euo pipefail
cd "$(dirname "$0")/.."

size_mb="${1:-12}"
out=target/bench
corpus="$out/pubmed_corpus.xml"
mkdir -p "$out"

if ! python3 -c 'import Bio.Entrez' 2>/dev/null; then
    echo "Biopython missing: pip install biopython" >&2
    python3 -m pip install --quiet biopython
fi

echo "== entrez-mcp parse_pubmed (release profile)"
cargo run --quiet --release -p entrez-mcp-parse --example bench_parse_pubmed -- \
    --corpus "$corpus" --size-mb "$size_mb" | tee "$out/rust.txt"

if [ "${OPT_LEVEL:-}" = s ]; then
    echo "== entrez-mcp parse_pubmed (opt-level s, as the Worker is built)"
    CARGO_PROFILE_RELEASE_OPT_LEVEL=s CARGO_TARGET_DIR=target/bench-os \
        cargo run --quiet --release -p entrez-mcp-parse --example bench_parse_pubmed -- \
        --size-mb "$size_mb" | tee "$out/rust-os.txt"
fi

echo "== Biopython Bio.Entrez.read"
python3 scripts/bench_biopython.py "$corpus" 5 | tee "$out/python.txt"

python3 - "$out" <<'PY'
import json, sys, pathlib
out = pathlib.Path(sys.argv[1])
last = lambda name: json.loads((out / name).read_text().strip().splitlines()[-1])
py = last("python.txt")
runs = [("release", last("rust.txt"))]
if (out / "rust-o3.txt").exists() and (out / "rust-o3.txt").stat().st_mtime >= (out / "rust.txt").stat().st_mtime:
    runs.append(("opt-level 3", last("rust-o3.txt")))
def line(label, r, base=None):
    s = f"{label:<24} wall: {r['mb_per_s']:8.2f} MB/s {r['articles_per_s']:9.0f} articles/s"
    cpu = r.get("cpu_median_s")
    if cpu:
        s += f" | CPU: {r['mb'] / cpu:8.2f} MB/s {r['articles'] / cpu:9.0f} articles/s"
    if base:
        s += f" | {base['median_s'] / r['median_s']:.0f}x faster (wall)"
        if cpu and base.get("cpu_median_s"):
            s += f", {base['cpu_median_s'] / cpu:.0f}x (CPU)"
    return s
print("== summary (same corpus, same run)")
print(line("Biopython Entrez.read", py))
for label, rs in runs:
    print(line(f"entrez-mcp {label}", rs, py))
PY
