#!/usr/bin/env python3
"""Time Biopython's Bio.Entrez.read on a PubMed XML corpus.

Why: entrez-mcp's PubMed parser is measured against the parser most people
reach for in Python, on the very same bytes (scripts/bench-parse.sh builds the
corpus with the Rust benchmark and runs both). Entrez.read validates against
the DTD named in the DOCTYPE; Biopython ships the PubMed DTDs in
Bio/Entrez/DTDs, so nothing is downloaded. The script refuses to run if a DTD
would have to be fetched, since NCBI may be unreachable and a download would
be timed too.

Method: one warm-up parse, then N timed parses; the median wall time and
the median on-CPU time (meaningful on a busy machine) are reported.
Usage: bench_biopython.py CORPUS.xml [ITERATIONS]
"""

import io
import json
import os
import statistics
import sys
import time

import Bio
from Bio import Entrez
from Bio.Entrez import Parser


def refuse_downloads():
    """Make a DTD download fail loudly instead of being timed."""

    def no_download(self, url):
        raise RuntimeError(f"Biopython wanted to download {url}; it is not shipped locally")

    # Biopython asks this hook for DTDs and XSDs it has neither shipped nor cached.
    if hasattr(Parser.DataHandler, "open_dtd_file"):
        original = Parser.DataHandler.open_dtd_file

        def local_only(self, filename):
            handle = original(self, filename)
            if handle is None:
                no_download(self, filename)
            return handle

        Parser.DataHandler.open_dtd_file = local_only


def main():
    path = sys.argv[1]
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with open(path, "rb") as f:
        data = f.read()
    refuse_downloads()
    dtd_dir = os.path.join(os.path.dirname(Entrez.__file__), "DTDs")
    if not os.path.exists(os.path.join(dtd_dir, "pubmed_250101.dtd")):
        sys.exit(f"pubmed_250101.dtd is not in {dtd_dir}; this Biopython cannot parse offline")

    def parse():
        record = Entrez.read(io.BytesIO(data))
        return len(record["PubmedArticle"]) + len(record["PubmedBookArticle"])

    articles = parse()
    times, cpu = [], []
    for _ in range(iterations):
        t, c = time.perf_counter(), time.thread_time()
        n = parse()
        cpu.append(time.thread_time() - c)
        times.append(time.perf_counter() - t)
        assert n == articles
    median = statistics.median(times)
    cpu_median = statistics.median(cpu)
    mb = len(data) / 1e6
    print(
        f"Biopython {Bio.__version__} Entrez.read: {mb:.1f} MB, "
        f"{articles} articles, {iterations} runs: median {median * 1e3:.0f} ms "
        f"wall (min {min(times) * 1e3:.0f}, max {max(times) * 1e3:.0f}), {cpu_median * 1e3:.0f} ms CPU"
    )
    print(
        json.dumps(
            {
                "tool": "biopython",
                "mb": round(mb, 3),
                "articles": articles,
                "median_s": round(median, 6),
                "mb_per_s": round(mb / median, 2),
                "articles_per_s": round(articles / median, 1),
                "cpu_median_s": round(cpu_median, 6),
            }
        )
    )


if __name__ == "__main__":
    main()
