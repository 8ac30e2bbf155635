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
circle the check reports too. Imports inside `#[cfg(test)] mod tests` blocks are not counted.
"""
import glob
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
CRATES = ["core", "parse", "sqlite", "src", "worker", "replay", "worker/wire"]


def modules_of(src):
    """Every file of a crate as (module path, file): `a::b` for src/a/b.rs or src/a/b/mod.rs."""
    out = {}
    for f in glob.glob(os.path.join(src, "**", "*.rs"), recursive=True):
        rel = os.path.relpath(f, src)[:-3].split(os.sep)
        if rel[0] == "bin":
            continue
        if rel[-1] == "mod":
            rel = rel[:-1]
        if rel in (["lib"], ["main"]):
            rel = []
        out["::".join(rel)] = f
    return out


def code_of(path):
    """The file's code without comments, test modules and string contents."""
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"#\[cfg\(test\)\]\s*mod tests\s*\{.*", "", text, flags=re.S)
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


def check(crate):
    src = os.path.join(ROOT, crate, "src") if crate != "src" else os.path.join(ROOT, "src")
    if not os.path.isdir(src):
        return []
    mods = modules_of(src)
    problems = []
    edges, where = {}, {}
    for mod, f in mods.items():
        for n, line in enumerate(code_of(f), 1):
            for p in paths_in(line):
                target = resolve(p, mods)
                if target is None or target == mod:
                    continue
                edges.setdefault(mod, set()).add(target)
                where.setdefault((mod, target), f"{os.path.relpath(f, ROOT)}:{n}")
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
    # File-level circles that cross folders.
    folder = lambda m: "::".join(m.split("::")[:-1]) if not mods[m].endswith("mod.rs") else m
    for comp in circles(edges, mods):
        folders = {folder(m) for m in comp}
        if len(folders) > 1:
            chain = sorted(comp)
            locs = [where[(a, b)] for a in chain for b in edges.get(a, ()) if b in comp]
            problems.append(f"{crate}: files in different folders import each other in a circle: "
                            f"{', '.join(chain)} ({'; '.join(locs[:6])})")
    return problems


def main():
    problems = [p for crate in CRATES for p in check(crate)]
    for p in problems:
        print(p)
    if not problems:
        print("layers: every declared order holds and no circle crosses a folder")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
