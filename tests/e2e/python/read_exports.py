"""Reads an export file back with an independent reader and prints what it holds as JSON.

    python read_exports.py FORMAT FILE

FORMAT is ris (rispy), bibtex (bibtexparser 2 with its LaTeX decoding, co-authors
separated and names split), medline (nbib), csv (the standard library's csv), csl_json or
jsonl (json). The output is one JSON list of records, each
{"pmid", "title", "authors": [[family, given], ...], "year", "journal", "doi"}, with
nothing normalized: the test compares it with the dataset's own rows.
"""

import csv
import json
import sys


def ris(path):
    import rispy

    with open(path, encoding="utf-8", newline="") as f:
        entries = rispy.load(f)
    out = []
    for e in entries:
        authors = []
        for a in e.get("authors", []):
            family, _, given = a.partition(", ")
            authors.append([family, given])
        out.append({
            "pmid": e.get("accession_number"),
            "title": e.get("title") or e.get("primary_title"),
            "authors": authors,
            "year": e.get("year"),
            "journal": e.get("secondary_title"),
            "doi": e.get("doi"),
        })
    return out


def bibtex(path):
    import bibtexparser
    from pylatexenc.latex2text import LatexNodes2Text
    from bibtexparser.middlewares import (
        LatexDecodingMiddleware,
        SeparateCoAuthors,
        SplitNameParts,
    )

    with open(path, encoding="utf-8") as f:
        text = f.read()
    library = bibtexparser.parse_string(
        text,
        # Names are split before the LaTeX is decoded, so a braced collective stays one name.
        append_middleware=[SeparateCoAuthors(), SplitNameParts(), LatexDecodingMiddleware()],
    )
    if library.failed_blocks:
        raise SystemExit(f"bibtexparser failed on {len(library.failed_blocks)} block(s)")
    keys = [e.key for e in library.entries]
    if len(keys) != len(set(keys)):
        raise SystemExit("duplicate citation keys")
    out = []
    for e in library.entries:
        fields = {f.key: f.value for f in e.fields}
        authors = []
        # The middleware decodes plain values; name parts are decoded here (a braced
        # collective's braces, escaped characters).
        decode = LatexNodes2Text().latex_to_text
        for n in fields.get("author", []):
            family = decode(" ".join(n.von + n.last))
            given = decode(" ".join(n.first))
            authors.append([family, given])
        out.append({
            "pmid": fields.get("pmid"),
            "title": fields.get("title"),
            "authors": authors,
            "year": fields.get("year"),
            "journal": fields.get("journal"),
            "doi": fields.get("doi"),
            "key": e.key,
        })
    return out


def medline(path):
    import nbib

    with open(path, encoding="utf-8") as f:
        refs = nbib.read(f.read())
    out = []
    for r in refs:
        authors = [
            [a.get("last_name", ""), a.get("first_name", "")]
            for a in r.get("authors", [])
        ]
        corporate = r.get("corporate_author") or []
        for c in [corporate] if isinstance(corporate, str) else corporate:
            authors.append([c, ""])
        date = r.get("publication_date") or ""
        out.append({
            "pmid": r.get("pubmed_id"),
            "title": r.get("title"),
            "authors": authors,
            "year": str(date)[:4] if date else None,
            "journal": r.get("journal"),
            "doi": r.get("doi"),
        })
    return out


def table(path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    out = []
    for r in rows:
        authors = []
        for a in filter(None, r["authors"].split("; ")):
            family, _, given = a.partition(", ")
            authors.append([family, given])
        out.append({
            "pmid": r["pmid"],
            "title": r["title"],
            "authors": authors,
            "year": r["year"],
            # CSV has no null: an empty cell is a value the record lacks.
            "journal": r["journal"] or None,
            "doi": r["doi"] or None,
        })
    return out


def csl_json(path):
    with open(path, encoding="utf-8") as f:
        items = json.load(f)
    out = []
    for i in items:
        authors = [
            [a["literal"], ""] if "literal" in a else [a.get("family", ""), a.get("given", "")]
            for a in i.get("author", [])
        ]
        parts = i.get("issued", {}).get("date-parts", [[None]])
        out.append({
            "pmid": i.get("PMID"),
            "title": i.get("title"),
            "authors": authors,
            "year": parts[0][0],
            "journal": i.get("container-title"),
            "doi": i.get("DOI"),
        })
    return out


def jsonl(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            authors = [
                [a.get("family") or a.get("collective", ""), a.get("given") or " ".join(a.get("initials", ""))]
                for a in r.get("authors", [])
            ]
            out.append({
                "pmid": r.get("pmid"),
                "title": r.get("title"),
                "authors": authors,
                "year": r.get("year"),
                "journal": r.get("journal"),
                "doi": r.get("doi"),
            })
    return out


READERS = {
    "ris": ris,
    "bibtex": bibtex,
    "medline": medline,
    "csv": table,
    "csl_json": csl_json,
    "jsonl": jsonl,
}

if __name__ == "__main__":
    fmt, path = sys.argv[1], sys.argv[2]
    json.dump(READERS[fmt](path), sys.stdout, ensure_ascii=False)
