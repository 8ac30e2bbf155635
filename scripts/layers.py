#!/usr/bin/env python3
"""The layering rules the crates declare, checked: `python3 scripts/layers.py` (exit 1 if broken).

A crate declares its layers in its `src/lib.rs`, in a comment block (`//`, after the crate's
essay) under a heading `## Layers, lowest first`: one list item per layer, naming its
top-level modules in backticks, e.g.

    // - `error`, `json`: the one error type, a smaller `json!`.
    // - `net`: outbound HTTP as data, pacing, retries.

A module may import (`crate::NAME`) the modules of its own layer and of the layers above it
in the list, never one below: an import that runs back up fails the check, with its file
and line, as does a top-level module the list leaves out. For every crate, declared or not,
two files in different folders that import each other, directly or through others, are a
circle the check reports too. Test code counts like any other: `#[cfg(test)]` modules are read
with their file, and each crate's `tests/` folder is read as a crate of its own (its circles).

The crates themselves are layers too (`CRATE_LAYERS`, lowest first): a crate's normal
dependencies must lie below it (read from its Cargo.toml), and its code, tests and benchmarks
included, may name only itself, the crates below it and the test-support crates (`SUPPORT`,
which no product crate depends on).

A folder may declare the order of its children (files and subfolders) the same way in its
`mod.rs` essay: each import between two of them is held to it, and no circle may run inside it.
"""
import glob
import os
import re
import sys
import tomllib

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
CRATES = ["core", "parse", "sqlite", "src", "worker", "replay", "worker/wire", "worker/random",
          "worker/rehearsal", "testkit"]
# The crates by layer, lowest first; `src` is the top crate's (`entrez-mcp`).
CRATE_LAYERS = [
    {"entrez-mcp-parse", "entrez-mcp-random"},
    {"entrez-mcp-core"},
    {"entrez-mcp-sqlite"},
    {"entrez-mcp-wire"},
    {"entrez-mcp-rehearsal"},
    {"entrez-mcp", "entrez-mcp-worker"},
]
# Crates for tests only (stand-ins, the test kit): any crate's tests may name them, no
# crate's own code depends on them.
SUPPORT = {"entrez-mcp-replay", "entrez-mcp-testkit"}


def modules_of(src, roots=("lib", "main"), skip=("bin",)):
    """Every file of a crate as (module path, file): `a::b` for src/a/b.rs or src/a/b/mod.rs;
    a file named in `roots` at the top is the crate's root, a top folder in `skip` is left out."""
    out = {}
    for f in glob.glob(os.path.join(src, "**", "*.rs"), recursive=True):
        rel = os.path.relpath(f, src)[:-3].split(os.sep)
        if rel[0] in skip:
            continue
        if rel[-1] == "mod":
            rel = rel[:-1]
        if len(rel) == 1 and rel[0] in roots:
            rel = []
        out["::".join(rel)] = f
    return out


def test_crates(crate_dir):
    """The integration-test crates of a crate, as (name, folder, modules): `tests/NAME.rs` with
    the folders beside it, and each `tests/NAME/main.rs` with its own folder."""
    tests = os.path.join(crate_dir, "tests")
    if not os.path.isdir(tests):
        return []
    folders = [d for d in sorted(os.listdir(tests))
               if os.path.isfile(os.path.join(tests, d, "main.rs"))]
    out = [(f"tests/{d}", os.path.join(tests, d), modules_of(os.path.join(tests, d), ("main",), ()))
           for d in folders]
    roots = [f[:-3] for f in sorted(os.listdir(tests)) if f.endswith(".rs")]
    if roots:
        out.append(("tests", tests, modules_of(tests, roots, tuple(folders))))
    return out


def code_of(path):
    """The file's code, its test modules included, without comments and string contents."""
    text = open(path, encoding="utf-8").read()
    text = re.sub(r'r(#+)".*?"\1', '""', text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return [line.split("//", 1)[0] for line in text.splitlines()]


def paths_in(line):
    """The `crate::…` paths a line names, group imports expanded one level."""
    found = []
    for m in re.finditer(r"\bcrate::((?:\w+::)*)\{([^{}]*)\}", line):
        for item in m.group(2).split(","):
            item = item.strip().split(" as ")[0]
            if item and item != "self":
                found.append(m.group(1) + item)
            elif item == "self":
                found.append(m.group(1).rstrip(":"))
    for m in re.finditer(r"\bcrate::((?:\w+::)*\w+)", line):
        found.append(m.group(1))
    return found


def resolve(path, mods):
    parts = path.split("::")
    for i in range(len(parts), 0, -1):
        name = "::".join(parts[:i])
        if name in mods:
            return name
    return None


def declared_layers(lib):
    """The layers a crate's lib.rs declares: a list of sets of module names, lowest first."""
    text = open(lib, encoding="utf-8").read()
    m = re.search(r"^//!? ## Layers, lowest first\s*$(.*?)(?=^//!? ##|^[^/])", text, re.M | re.S)
    if not m:
        return None
    items = []
    for line in m.group(1).splitlines():
        item = re.match(r"^//!? - (.*)", line)
        more = re.match(r"^//!?   +(.*)", line)
        if item:
            items.append(item.group(1))
        elif more and items:
            items[-1] += " " + more.group(1)
    # An item names its modules in backticks before its first "`:" (the rest describes them).
    return [set(re.findall(r"`(\w+)`", item.split("`:", 1)[0] + "`")) for item in items]


def circles(edges, nodes):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def graph(mods):
    """The imports between a crate's files: (edges, where) with where[(a, b)] = file:line."""
    edges, where = {}, {}
    for mod, f in mods.items():
        for n, line in enumerate(code_of(f), 1):
            for p in paths_in(line):
                target = resolve(p, mods)
                if target is None or target == mod:
                    continue
                edges.setdefault(mod, set()).add(target)
                where.setdefault((mod, target), f"{os.path.relpath(f, ROOT)}:{n}")
    return edges, where


def folder_circles(label, mods, edges, where):
    """File-level circles that cross folders."""
    problems = []
    folder = lambda m: "::".join(m.split("::")[:-1]) if not mods[m].endswith("mod.rs") else m
    for comp in circles(edges, mods):
        folders = {folder(m) for m in comp}
        if len(folders) > 1:
            chain = sorted(comp)
            locs = [where[(a, b)] for a in chain for b in edges.get(a, ()) if b in comp]
            problems.append(f"{label}: files in different folders import each other in a circle: "
                            f"{', '.join(chain)} ({'; '.join(locs[:6])})")
    return problems


def crate_dir(crate):
    return ROOT if crate == "src" else os.path.join(ROOT, crate)


def check(crate):
    src = os.path.join(crate_dir(crate), "src")
    if not os.path.isdir(src):
        return []
    mods = modules_of(src)
    problems = []
    edges, where = graph(mods)
    lib = os.path.join(src, "lib.rs")
    layers = declared_layers(lib) if os.path.exists(lib) else None
    if layers is not None:
        rank = {}
        for i, layer in enumerate(layers):
            for name in layer:
                rank[name] = i
        tops = {m.split("::")[0] for m in mods if m}
        for name in sorted(tops - set(rank)):
            problems.append(f"{crate}: module `{name}` is in no layer of lib.rs's list")
        for (a, b), loc in sorted(where.items()):
            ta, tb = a.split("::")[0], b.split("::")[0]
            if ta and tb and ta != tb and ta in rank and tb in rank and rank[tb] > rank[ta]:
                problems.append(f"{crate}: `{ta}` imports `{tb}`, a layer above it: {loc}")
    problems += folder_orders(crate, mods, edges, where)
    problems += folder_circles(crate, mods, edges, where)
    for label, _, tmods in test_crates(crate_dir(crate)):
        t_edges, t_where = graph(tmods)
        problems += folder_circles(f"{crate} {label}", tmods, t_edges, t_where)
    return problems


def manifest(crate):
    with open(os.path.join(crate_dir(crate), "Cargo.toml"), "rb") as f:
        return tomllib.load(f)


def check_crates():
    """The crates' own order: normal dependencies lie below, and every file of a crate (its
    tests and benchmarks included) names only itself, crates below it and test support."""
    rank = {name: i for i, layer in enumerate(CRATE_LAYERS) for name in layer}
    problems = []
    for crate in CRATES:
        toml = manifest(crate)
        me = toml["package"]["name"]
        if me not in rank and me not in SUPPORT:
            problems.append(f"{crate}: crate {me} is in no layer of CRATE_LAYERS nor SUPPORT")
            continue
        deps = [d for d in toml.get("dependencies", {}) if d.startswith("entrez-mcp")]
        for d in deps:
            if d in SUPPORT and me not in SUPPORT:
                problems.append(f"{crate}: {me} depends on {d}, which is for tests only")
            elif me not in SUPPORT and rank.get(d, -1) >= rank[me]:
                problems.append(f"{crate}: {me} depends on {d}, not a layer below it")
        below = lambda d: d == me or d in SUPPORT or (
            me in SUPPORT or rank.get(d, len(CRATE_LAYERS)) < rank[me])
        base = crate_dir(crate)
        files = []
        for part in ("src", "tests", "benches"):
            files += glob.glob(os.path.join(base, part, "**", "*.rs"), recursive=True)
        for f in sorted(files):
            for n, line in enumerate(code_of(f), 1):
                for m in re.finditer(r"\b(entrez_mcp(?:_\w+)?)\s*::", line):
                    name = m.group(1).replace("_", "-")
                    if not below(name):
                        problems.append(f"{crate}: {me} names {name}, not a crate below it: "
                                        f"{os.path.relpath(f, ROOT)}:{n}")
    return problems


def folder_orders(crate, mods, edges, where):
    """The orders folders declare in their mod.rs: imports between children, circles inside."""
    problems = []
    for folder, f in sorted(mods.items()):
        layers = declared_layers(f) if folder and f.endswith("mod.rs") else None
        if layers is None:
            continue
        rank = {name: i for i, layer in enumerate(layers) for name in layer}
        inside = {m for m in mods if m.startswith(folder + "::")}
        child = lambda m: m[len(folder) + 2:].split("::")[0]
        for name in sorted({child(m) for m in inside} - set(rank)):
            problems.append(f"{crate}: `{folder}::{name}` is in no layer of its folder's list")
        for (a, b), loc in sorted(where.items()):
            if a in inside and b in inside and child(a) != child(b):
                ca, cb = child(a), child(b)
                if ca in rank and cb in rank and rank[cb] > rank[ca]:
                    problems.append(f"{crate}: `{folder}::{ca}` imports `{cb}`, a layer above it: {loc}")
        sub = {m: {b for b in edges.get(m, ()) if b in inside} for m in inside}
        for comp in circles(sub, inside):
            chain = sorted(comp)
            locs = [where[(a, b)] for a in chain for b in sub.get(a, ()) if b in comp]
            problems.append(f"{crate}: files in `{folder}` import each other in a circle: "
                            f"{', '.join(chain)} ({'; '.join(locs[:6])})")
    return problems


def main():
    problems = [p for crate in CRATES for p in check(crate)] + check_crates()
    for p in problems:
        print(p)
    if not problems:
        print("layers: every declared order holds, the crates' too, and no circle crosses a "
              "folder (test modules and tests/ folders read)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
