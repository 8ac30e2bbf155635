#!/usr/bin/env python3
"""The book's own checks (docs/), standard library only. scripts/docs.sh runs them.

  python3 scripts/docs.py tables         rewrite each tool page's generated part from schemas/
  python3 scripts/docs.py check          the checks that need no build (below)
  python3 scripts/docs.py links BOOK_DIR every relative link and #anchor of the built HTML

`check` fails when:
  - a tool page's parameter table or schema examples differ from what `tables` writes
    (a schema changed and the page did not);
  - a ```json block in docs/src, the README or CHANGELOG.md does not parse;
  - a `bash scripts/NAME` or `cargo bench --bench NAME` command, or a path in backticks
    that names a file of this repository (scripts/, core/, src/, tests/, ...), is gone;
  - a validation code of core/src/validation/mod.rs is not explained on the validation page;
  - a tool call in a ```json block (`{"name": TOOL, "arguments": {...}}`) names no tool,
    or names a tool whose schema has no such parameter. Whether `validate` accepts each
    call is the end-to-end test tests/e2e/docs-examples.test.mjs.
"""
import json
import pathlib
import re
import sys
import urllib.parse
from html.parser import HTMLParser

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "src"
SCHEMAS = ROOT / "schemas"
TOOLS = sorted(p.name[: -len(".input.json")] for p in SCHEMAS.glob("*.input.json"))
BEGIN = "<!-- generated from schemas/{tool}.input.json by `python3 scripts/docs.py tables`: do not edit -->"
END = "<!-- end of generated part -->"


def markdown_files():
    return sorted(DOCS.rglob("*.md")) + [ROOT / "README.md", ROOT / "CHANGELOG.md"]


# ---------------------------------------------------------------- generated tables


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def type_of(prop):
    if "enum" in prop:
        return ", ".join(f"`{v}`" for v in prop["enum"] if v is not None)
    t = prop.get("type")
    if isinstance(t, list):
        return " or ".join(t)
    if t:
        return t
    if "anyOf" in prop or "oneOf" in prop:
        return " or ".join(type_of(p) for p in prop.get("anyOf", prop.get("oneOf", [])))
    return "any"


# What a parameter means where its schema says nothing (the listed schemas are kept short,
# since every conversation reads them): the shared view parameters, and ids.
MEANING = {
    "detail": "How much of each record: `brief`, `standard` (the default) or `full` (What the model reads).",
    "fields": "Only these record fields, e.g. [\"title\", \"mesh_major\"]; the record's id is always kept.",
    "ids": "Ids as a list, one id, or a string separated by commas, semicolons, spaces or newlines.",
    "operation": "What to do: see Operations above.",
    "datetype": "search, link: the date field mindate, maxdate and reldate apply to (modification, publication, Entrez or creation date).",
    "cmd": "link: ELink's command (neighbor by default; see Operations above).",
    "tool": "The tool whose call is checked (with `arguments`).",
}


def full_description(schema, name):
    """A parameter's full description where the listed schema shortens it (a top-level allOf entry)."""
    for rule in schema.get("allOf", []):
        desc = rule.get("properties", {}).get(name, {}).get("description")
        if desc:
            return desc
    return None


def generated_part(tool):
    schema = json.loads((SCHEMAS / f"{tool}.input.json").read_text())
    lines = [BEGIN.format(tool=tool), ""]
    if schema.get("description"):
        lines += [f"Required by operation: {schema['description']}", ""]
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    if props:
        lines += ["| parameter | type | default | meaning |", "|---|---|---|---|"]
        for name, prop in props.items():
            default = prop.get("default")
            default = "" if default is None else f"`{json.dumps(default)}`"
            desc = full_description(schema, name) or prop.get("description") or MEANING.get(name, "")
            if name in required:
                desc = ("**required.** " + desc).strip()
            lines.append(f"| `{name}` | {cell(type_of(prop))} | {default} | {cell(desc)} |")
    else:
        lines.append("No parameters.")
    examples = schema.get("examples", [])
    if examples:
        lines += ["", f"The schema's example calls ({len(examples)}), as `tools/call` parameters:", ""]
        lines.append("```json")
        lines += [json.dumps({"name": tool, "arguments": ex}, ensure_ascii=False) for ex in examples[:1]]
        lines.append("```")
        for ex in examples[1:]:
            lines += ["```json", json.dumps({"name": tool, "arguments": ex}, ensure_ascii=False), "```"]
    lines += ["", END]
    return "\n".join(lines)


def page_of(tool):
    return DOCS / "tools" / f"{tool}.md"


def with_generated(text, tool):
    begin = BEGIN.format(tool=tool)
    if begin not in text or END not in text:
        raise SystemExit(f"{page_of(tool)}: the generated part's markers are missing")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(END, 1)
    return head + generated_part(tool) + tail


def tables():
    for tool in TOOLS:
        page = page_of(tool)
        text = page.read_text()
        new = with_generated(text, tool)
        if new != text:
            page.write_text(new)
            print(f"rewrote {page.relative_to(ROOT)}")


# ---------------------------------------------------------------- checks without a build

FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.M | re.S)
COMMAND = re.compile(r"bash (scripts/[\w.-]+\.sh)|cargo bench --bench ([\w-]+)")
PATH = re.compile(r"`((?:scripts|core|src|parse|sqlite|worker|replay|tests|schemas|fuzz|benches|docs|assets|\.ci)/[\w./<>*-]*)`")


def line_of(text, pos):
    return text[:pos].count("\n") + 1


def json_blocks(path):
    text = path.read_text()
    for m in FENCE.finditer(text):
        if m.group(1) == "json":
            yield line_of(text, m.start()), m.group(2)


def tool_calls(path):
    """Every tool call a ```json block of this file holds, with its line."""
    for line, body in json_blocks(path):
        try:
            value = json.loads(body)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and "name" in value and "arguments" in value:
            yield line, value


def check():
    errors = []
    for tool in TOOLS:
        page = page_of(tool)
        if not page.exists():
            errors.append(f"{page.relative_to(ROOT)}: missing (every tool has a page)")
            continue
        text = page.read_text()
        if BEGIN.format(tool=tool) in text and with_generated(text, tool) != text:
            errors.append(f"{page.relative_to(ROOT)}: its generated part is stale; run python3 scripts/docs.py tables")
        elif BEGIN.format(tool=tool) not in text:
            errors.append(f"{page.relative_to(ROOT)}: no generated part")
    props = {t: json.loads((SCHEMAS / f"{t}.input.json").read_text()).get("properties", {}) for t in TOOLS}
    calls = 0
    for path in markdown_files():
        rel = path.relative_to(ROOT)
        text = path.read_text()
        for line, body in json_blocks(path):
            try:
                json.loads(body)
            except json.JSONDecodeError as e:
                errors.append(f"{rel}:{line}: a ```json block that does not parse ({e}); mark illustrations ```text")
        for line, call in tool_calls(path):
            calls += 1
            name, args = call["name"], call["arguments"]
            if name not in props:
                errors.append(f"{rel}:{line}: a call of {name!r}, which is no tool ({', '.join(TOOLS)})")
            elif not isinstance(args, dict):
                errors.append(f"{rel}:{line}: arguments of {name} are not an object")
            else:
                for key in args:
                    if key not in props[name]:
                        errors.append(f"{rel}:{line}: {name} has no parameter {key!r}")
        for m in COMMAND.finditer(text):
            if m.group(1) and not (ROOT / m.group(1)).exists():
                errors.append(f"{rel}:{line_of(text, m.start())}: `bash {m.group(1)}`: no such script")
            if m.group(2) and not (ROOT / "benches" / f"{m.group(2)}.rs").exists():
                errors.append(f"{rel}:{line_of(text, m.start())}: `cargo bench --bench {m.group(2)}`: no such bench")
        for m in PATH.finditer(text):
            p = m.group(1)
            if any(c in p for c in "<>*") or p.startswith("docs/book"):
                continue
            if not (ROOT / p.rstrip("/")).exists():
                errors.append(f"{rel}:{line_of(text, m.start())}: `{p}`: no such file or folder")
    # The README and the changelog are read on their own (GitHub, crates): their relative links
    # are checked here, the book's in the built HTML (`links`).
    for path in (ROOT / "README.md", ROOT / "CHANGELOG.md"):
        text = path.read_text()
        for m in re.finditer(r"\]\(([^)\s]+)\)", text):
            target = m.group(1).split("#")[0]
            if not target or re.match(r"^[a-z]+:", target):
                continue
            if not (path.parent / target).exists():
                errors.append(f"{path.name}:{line_of(text, m.start())}: broken link {m.group(1)}")
    # Every stable code the core defines is explained on the validation page.
    codes = re.findall(r'pub const [A-Z_]+: &str = "([a-z_]+)";', (ROOT / "core/src/validation/mod.rs").read_text())
    page = (DOCS / "validation.md").read_text()
    for code in codes:
        if f"`{code}`" not in page:
            errors.append(f"docs/src/validation.md: the code `{code}` (core/src/validation/mod.rs) is not explained")
    if len(codes) < 50:
        errors.append(f"core/src/validation/mod.rs: only {len(codes)} codes found; has the list moved?")
    if calls < len(TOOLS):
        errors.append(f"only {calls} example tool calls found in the docs")
    print("\n".join(errors) if errors else f"docs: {calls} example tool calls, every JSON block, command and path checked")
    return 1 if errors else 0


# ---------------------------------------------------------------- links of the built book


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.links = set(), []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"])
        for k in ("href", "src"):
            if a.get(k):
                self.links.append(a[k])


def links(book):
    out = pathlib.Path(book).resolve()
    pages, errors = {}, []
    for f in out.rglob("*.html"):
        p = Page()
        p.feed(f.read_text(encoding="utf-8"))
        pages[f] = p
    if not pages:
        raise SystemExit(f"no HTML under {out}: build the book first")
    for f, p in sorted(pages.items()):
        if f.name in ("print.html", "404.html", "toc.html"):
            continue
        for href in p.links:
            u = urllib.parse.urlsplit(href)
            if u.scheme or href.startswith(("//", "mailto:")):
                continue
            target = f if not u.path else (f.parent / urllib.parse.unquote(u.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                errors.append(f"{f.relative_to(out)}: broken link {href}")
            elif u.fragment and target.suffix == ".html":
                if urllib.parse.unquote(u.fragment) not in pages[target].ids:
                    errors.append(f"{f.relative_to(out)}: no anchor {href}")
    print("\n".join(errors) if errors else f"book: {len(pages)} pages, every relative link and anchor resolves")
    return 1 if errors else 0


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "check"
    if cmd == "tables":
        tables()
    elif cmd == "check":
        sys.exit(check())
    elif cmd == "links":
        sys.exit(links(sys.argv[2] if len(sys.argv) > 2 else ROOT / "docs" / "book"))
    else:
        raise SystemExit(__doc__)
