#!/usr/bin/env python3
"""Builds tests/fixtures/references/corpus.json: references with known truth for
check_references, rendered from the PubMed records the NCBI stand-in holds.

Every record of tests/fixtures/ncbi/eutils/pubmed*.xml and documented/pubmed_integrity.xml
is read here (plain regular expressions, not the server's parser) and cited in ten styles,
with harmless variations; then cited wrongly in each of the ways invented citations go
wrong. Each entry says what a checker should answer: `verified` for a correct citation
(retracted ones too, which must also be flagged), `mismatch` for a wrong one that points at
a real paper, `not_found` for an invention (a `mismatch` is as good: neither is verified).
Run from the project root: python3 scripts/references_corpus.py
"""
import html
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "tests/fixtures/ncbi/eutils").glob("pubmed*.xml")) + [
    ROOT / "tests/fixtures/ncbi/documented/pubmed_integrity.xml"
]
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def text(block, tag):
    m = re.search(r"<%s(?:\s[^>]*)?>(.*?)</%s>" % (tag, tag), block, re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", m.group(1))).strip() if m else ""


def records():
    out = []
    for path in SOURCES:
        for a in re.findall(r"<PubmedArticle>.*?</PubmedArticle>", path.read_text(), re.S):
            citation = a.split("<ReferenceList")[0]
            pub = re.search(r"<PubDate>(.*?)</PubDate>", citation, re.S).group(1)
            month = text(pub, "Month")
            if month.isdigit():
                month = MONTHS[int(month) - 1]
            epub = re.search(r"<ArticleDate[^>]*>(.*?)</ArticleDate>", citation, re.S)
            authors = []
            for au in re.findall(r"<Author[ >].*?</Author>", citation, re.S):
                if text(au, "LastName"):
                    authors.append((text(au, "LastName"), text(au, "ForeName"), text(au, "Initials")))
            ids = dict(
                (k, v) for k, v in re.findall(r'<ArticleId IdType="(\w+)">([^<]+)<', a.split("</ReferenceList>")[-1])
            )
            types = re.findall(r"<PublicationType[^>]*>([^<]+)<", citation)
            journal = re.sub(r"\s*\(.*\)", "", text(citation, "Title"))
            out.append({
                "pmid": text(citation, "PMID"),
                "title": text(citation, "ArticleTitle").rstrip("."),
                "journal": journal[:1].upper() + journal[1:],
                "iso": text(citation, "ISOAbbreviation") or text(citation, "MedlineTA"),
                "year": text(pub, "Year"),
                "epub_year": text(epub.group(1), "Year") if epub else "",
                "month": month,
                "volume": text(citation, "Volume"),
                "issue": text(citation, "Issue"),
                "pages": text(citation, "MedlinePgn"),
                "authors": authors,
                "doi": ids.get("doi", ""),
                "pmcid": ids.get("pmc", ""),
                "retracted": "Retracted Publication" in types,
            })
    return out


def full_pages(p):
    """'637-41' -> '637-641' (APA, MLA and Chicago print both pages in full)."""
    if "-" not in p:
        return p
    a, b = p.split("-", 1)
    if len(b) < len(a) and b.isdigit():
        b = a[: len(a) - len(b)] + b
    return f"{a}-{b}"


def vancouver_names(r):
    names = [f"{l} {i}" for l, _, i in r["authors"][:6]]
    return ", ".join(names) + (", et al" if len(r["authors"]) > 6 else "")


def styles(r):
    """The record cited in ten styles: (style, text)."""
    au = r["authors"]
    pages = full_pages(r["pages"])
    first_page = r["pages"].split("-")[0]
    issue = f"({r['issue']})" if r["issue"] else ""
    doi = r["doi"]
    apa_names = [f"{l}, {'. '.join(i)}." for l, _, i in au[:20]]
    apa = ", ".join(apa_names[:-1]) + (", & " if len(apa_names) > 1 else "") + apa_names[-1]
    harvard = ", ".join(f"{l}, {'.'.join(i)}." for l, _, i in au[:3]) + (" et al." if len(au) > 3 else "")
    given = lambda a: f"{a[1]} {a[0]}" if a[1] else a[0]
    inverted = f"{au[0][0]}, {au[0][1]}" if au[0][1] else au[0][0]
    chicago = inverted + ("" if len(au) == 1 else (", and " + given(au[1]) if len(au) == 2 else ", " + ", ".join(given(a) for a in au[1:3]) + ", et al"))
    mla = inverted + ("" if len(au) == 1 else (", and " + given(au[1]) if len(au) == 2 else ", et al"))
    ieee = ", ".join(f"{'. '.join(i)}. {l}" for l, _, i in au[:3]) + (" et al." if len(au) > 3 else "")
    bib_names = " and ".join(f"{l}, {f}" if f else l for l, f, _ in au[:5])
    out = [
        ("vancouver", f"{vancouver_names(r)}. {r['title']}. {r['iso']}. {r['year']}{' ' + r['month'] if r['month'] else ''};{r['volume']}{issue}:{r['pages']}." + (f" doi: {doi}." if doi else "") + f" PMID: {r['pmid']}."),
        ("ama", f"{vancouver_names(r)}. {r['title']}. {r['iso']}. {r['year']};{r['volume']}{issue}:{pages}." + (f" doi:{doi}" if doi else "")),
        ("apa", f"{apa} ({r['year']}). {r['title']}. {r['journal']}, {r['volume']}{issue}, {pages.replace('-', '–')}." + (f" https://doi.org/{doi}" if doi else "")),
        ("harvard", f"{harvard} ({r['year']}) '{r['title']}', {r['journal']}, {r['volume']}{issue}, pp. {pages}." + (f" doi:{doi}." if doi else "")),
        ("chicago", f"{chicago}. {r['year']}. “{r['title']}.” {r['journal']} {r['volume']}" + (f" ({r['issue']})" if r["issue"] else "") + f": {pages.replace('-', '–')}." + (f" https://doi.org/{doi}." if doi else "")),
        ("mla", f"{mla}. “{r['title']}.” {r['journal']}, vol. {r['volume']}" + (f", no. {r['issue']}" if r["issue"] else "") + f", {r['year']}, pp. {pages}."),
        ("ieee", f"[{int(r['pmid']) % 40 + 1}] {ieee}, “{r['title']},” {r['iso']}, vol. {r['volume']}" + (f", no. {r['issue']}" if r["issue"] else "") + f", pp. {pages}, {r['month'] + '. ' if r['month'] else ''}{r['year']}."),
        ("bibtex", f"@article{{{au[0][0].lower()}{r['year']}, author = {{{bib_names}}}, title = {{{{{r['title']}}}}}, journal = {{{r['journal']}}}, year = {{{r['year']}}}, volume = {{{r['volume']}}}, " + (f"number = {{{r['issue']}}}, " if r["issue"] else "") + f"pages = {{{pages.replace('-', '--')}}}" + (f", doi = {{{doi}}}" if doi else "") + "}"),
        ("ris", "TY  - JOUR " + " ".join(f"AU  - {l}, {f}" for l, f, _ in au[:5]) + f" TI  - {r['title']} JO  - {r['journal']} PY  - {r['year']} VL  - {r['volume']} " + (f"IS  - {r['issue']} " if r["issue"] else "") + f"SP  - {first_page} " + (f"DO  - {doi} " if doi else "") + "ER  - "),
        ("pmid_first", f"PMID: {r['pmid']}. {vancouver_names(r)}. {r['title']}. {r['iso']}. {r['year']};{r['volume']}{issue}:{r['pages']}."),
    ]
    if r["pmcid"]:
        out.append(("pmcid", f"{vancouver_names(r)}. {r['title']}. {r['iso']}. {r['year']};{r['volume']}{issue}:{r['pages']}. PMCID: {r['pmcid']}."))
    return out


def typo(title):
    """One letter of the title's longest word changed: a typo a reader would forgive."""
    words = title.split()
    i = max(range(len(words)), key=lambda k: len(words[k]))
    w = words[i]
    j = len(w) // 2
    words[i] = w[:j] + ("a" if w[j] != "a" else "e") + w[j + 1:]
    return " ".join(words)


INVENTED = [
    ("Smith J, Doe A", "Quantum entanglement of gut microbiota in marathon runners", "Nature", "2020", "580", "112"),
    ("Zhang W, Liu Y", "Deep learning forecasts hospital readmission after knee arthroplasty in rural cohorts", "JAMA Netw Open", "2021", "4", "e2112345"),
    ("Okafor C, Mensah K", "Vitamin D megadoses reverse early glaucoma progression: a randomized trial", "Ophthalmology", "2019", "126", "1455"),
    ("Larsen P", "Circadian disruption of hepatic telomerase in shift-working firefighters", "Hepatology", "2018", "67", "2201"),
    ("Gupta R, Shah N, Rao P", "Probiotic supplementation prevents postoperative delirium in cardiac surgery", "Lancet Psychiatry", "2022", "9", "301"),
    ("Moreau L, Petit A", "Microplastic burden in human placenta predicts neonatal eczema", "Environ Int", "2023", "171", "107700"),
    ("Kim H, Park S", "Smartphone screen time and myopic shift in kindergarten children over ten years", "Pediatrics", "2020", "146", "e20193455"),
    ("Nowak T", "Ketogenic diet halts amyotrophic lateral sclerosis progression in a pilot cohort", "Neurology", "2017", "88", "1204"),
]


def entries():
    recs = records()
    out = []

    def add(kind, expected, ref, truth=None, style=None, retracted=False, note=""):
        e = {"id": f"r{len(out) + 1:03d}", "kind": kind, "expected": expected, "reference": ref}
        if truth:
            e["truth_pmid"] = truth
        if style:
            e["style"] = style
        if retracted:
            e["retracted"] = True
        if note:
            e["note"] = note
        out.append(e)

    cited = [r for r in recs if r["authors"]]
    for r in cited:
        for style, line in styles(r):
            add("correct", "verified", line, r["pmid"], style, r["retracted"])
            # What a reader must find in the line: the record's own fields.
            out[-1]["fields"] = {
                "first_author": r["authors"][0][0], "title": r["title"], "year": int(r["year"]),
                "volume": r["volume"], "first_page": r["pages"].split("-")[0],
            }
        issue = f"({r['issue']})" if r["issue"] else ""
        add("correct", "verified", f"{vancouver_names(r)}. {r['title']}. {r['iso']}. {r['year']};{r['volume']}:{r['pages']}", r["pmid"], "vancouver", r["retracted"], "no issue, no final period")
        add("correct", "verified", f"{vancouver_names(r)}. {typo(r['title'])}. {r['iso']}. {r['year']};{r['volume']}{issue}:{r['pages']}.", r["pmid"], "vancouver", r["retracted"], "a one-letter typo in the title")
        add("correct", "verified", {"title": r["title"], "authors": [f"{l} {i}" for l, _, i in r["authors"][:3]], "journal": r["iso"], "year": int(r["year"]), "volume": r["volume"], "first_page": r["pages"].split("-")[0]}, r["pmid"], "fields", r["retracted"])
        if r["epub_year"] and r["epub_year"] != r["year"]:
            add("correct", "verified", f"{vancouver_names(r)}. {r['title']}. {r['iso']}. {r['epub_year']};{r['volume']}{issue}:{r['pages']}.", r["pmid"], "vancouver", r["retracted"], "the electronic publication year")
    n = len(cited)
    for k, r in enumerate(cited):
        other = cited[(k + 3) % n]
        issue = f"({r['issue']})" if r["issue"] else ""
        names = vancouver_names(r)
        wrong_year = str(int(r["year"]) + (1 if k % 2 == 0 or r["epub_year"] else -1) * (1 if k % 3 else 2))
        if wrong_year == r["epub_year"]:
            wrong_year = str(int(r["year"]) + 2)
        add("wrong_year", "mismatch", f"{names}. {r['title']}. {r['iso']}. {wrong_year};{r['volume']}{issue}:{r['pages']}.", r["pmid"], "vancouver")
        if k % 2 == 0:
            add("wrong_volume", "mismatch", f"{names}. {r['title']}. {r['iso']}. {r['year']};{int(r['volume']) + 7}{issue}:{r['pages']}.", r["pmid"], "vancouver")
        else:
            page = r["pages"].split("-")[0]
            wrong = str(int(page) + 50) if page.isdigit() else page + "1"
            add("wrong_page", "mismatch", f"{names}. {r['title']}. {r['iso']}. {r['year']};{r['volume']}{issue}:{wrong}.", r["pmid"], "vancouver")
        inv = INVENTED[k % len(INVENTED)]
        if k % 2 == 0:
            add("real_pmid_made_up", "mismatch", f"PMID: {r['pmid']}. {inv[0]}. {inv[1]}. {inv[2]}. {inv[3]};{inv[4]}:{inv[5]}.", r["pmid"], "pmid_first")
        else:
            add("real_pmid_made_up", "mismatch", f"{inv[0]}. {inv[1]}. {inv[2]}. {inv[3]};{inv[4]}:{inv[5]}. PMID: {r['pmid']}", r["pmid"], "vancouver")
        if r["doi"]:
            add("real_doi_made_up", "mismatch", f"{inv[0]}. {inv[1]}. {inv[2]}. {inv[3]};{inv[4]}:{inv[5]}. doi:{r['doi']}", r["pmid"], "ama")
            if other["doi"] and other["doi"] != r["doi"]:
                add("wrong_doi", "mismatch", f"{names}. {r['title']}. {r['iso']}. {r['year']};{r['volume']}{issue}:{r['pages']}. doi:{other['doi']}", r["pmid"], "ama", note=f"the DOI is {other['pmid']}'s")
        # A chimera: this title, the other paper's authors, journal, year, volume and pages.
        oi = f"({other['issue']})" if other["issue"] else ""
        add("chimera", "mismatch", f"{vancouver_names(other)}. {r['title']}. {other['iso']}. {other['year']};{other['volume']}{oi}:{other['pages']}.", r["pmid"], "vancouver", note=f"authors and source of {other['pmid']}")
        if r["pmcid"]:
            add("real_pmcid_made_up", "mismatch", f"{inv[0]}. {inv[1]}. {inv[2]}. {inv[3]};{inv[4]}:{inv[5]}. PMCID: {r['pmcid']}", r["pmid"], "vancouver")
    for k, inv in enumerate(INVENTED):
        add("invented", "not_found", f"{inv[0]}. {inv[1]}. {inv[2]}. {inv[3]};{inv[4]}:{inv[5]}.", style="vancouver")
        first = inv[0].split(",")[0].split()
        add("invented", "not_found", f"{first[0]}, {first[1]}. ({inv[3]}). {inv[1]}. {inv[2]}, {inv[4]}, {inv[5]}.", style="apa")
    return out


if __name__ == "__main__":
    corpus = entries()
    target = ROOT / "tests/fixtures/references/corpus.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(corpus, indent=1, ensure_ascii=False) + "\n")
    kinds = {}
    for e in corpus:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    print(f"{len(corpus)} references → {target.relative_to(ROOT)}: {kinds}", file=sys.stderr)
