#!/usr/bin/env python3
"""README.md, docs/ARCHITECTURE.md and docs/internals.md against the tree: every path they name in
backticks exists; every core folder has a row in ARCHITECTURE's module table and a section in
internals.md; every folder directly under core/, app/ and widgets/ is named in ARCHITECTURE;
every top-level folder is in README's layout table, which names every folder directly under core/
and widgets/; and every program the build makes is named in README.
Usage: check_doc_paths.py SOURCE_DIR"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
problems = []
TOP = ("core", "app", "widgets", "tests", "scripts", "resources", "docs", "cmake", "translations")
path_re = re.compile(r"`((?:%s)/[A-Za-z0-9_./*{}-]*)`" % "|".join(TOP))


def exists(p):
    p = p.rstrip("/")
    if "*" in p or "{" in p:
        return True  # a pattern, not a path
    full = os.path.join(root, p)
    if os.path.exists(full):
        return True
    return any(os.path.exists(full + ext) for ext in (".h", ".cpp", ".md", ".py", ".sh"))


def read(rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read()


def subfolders(top):
    """The folders directly under `top` (core, app, widgets), sorted."""
    base = os.path.join(root, top)
    return sorted(d for d in os.listdir(base) if os.path.isdir(os.path.join(base, d)) and not d.startswith("."))


def names(text, path):
    """Whether `text` names `path` in backticks, with or without a trailing slash."""
    return f"`{path}`" in text or f"`{path}/`" in text


for doc in ("README.md", "docs/ARCHITECTURE.md", "docs/internals.md"):
    text = read(doc)
    for m in path_re.finditer(text):
        if not exists(m.group(1)):
            line = text.count("\n", 0, m.start()) + 1
            problems.append(f"{doc}:{line}: `{m.group(1)}` does not exist")

arch = read("docs/ARCHITECTURE.md")
for d in subfolders("core"):
    if f"| `core/{d}` |" not in arch:
        problems.append(f"docs/ARCHITECTURE.md: core/{d} has no row in the module table")
for top in ("core", "app", "widgets"):
    for d in subfolders(top):
        if not names(arch, f"{top}/{d}"):
            problems.append(f"docs/ARCHITECTURE.md: the folder {top}/{d} is not named (as `{top}/{d}`)")

internals = read("docs/internals.md")
for top in ("core", "app"):
    for d in subfolders(top):
        if not re.search(rf"^## {top}/{d}\s*$", internals, re.M):
            problems.append(f"docs/internals.md: {top}/{d} has no section (## {top}/{d})")

readme = read("README.md")
for d in sorted(os.listdir(root)):
    if os.path.isdir(os.path.join(root, d)) and not d.startswith(".") and d != "build":
        if f"| `{d}/` |" not in readme:
            problems.append(f"README.md: the folder {d}/ is not in the layout table")
layout = "\n".join(line for line in readme.splitlines() if line.startswith("| `"))
for top in ("core", "widgets"):
    for d in subfolders(top):
        if not names(layout, f"{top}/{d}"):
            problems.append(f"README.md: the layout table does not name {top}/{d} (as `{top}/{d}` or `{top}/{d}/`)")

programs = set()
for dirpath, _, files in os.walk(root):
    if "/build" in dirpath or "/." in dirpath:
        continue
    if "CMakeLists.txt" in files:
        for m in re.finditer(r"add_executable\(([A-Za-z0-9_${}-]+)", read(os.path.relpath(os.path.join(dirpath, "CMakeLists.txt"), root))):
            programs.add(m.group(1))
for prog in sorted(programs):
    if "${" in prog or prog.endswith("_tests"):
        continue  # test programs are named by their folder
    if prog not in readme:
        problems.append(f"README.md: the program {prog} is not named")

for p in problems:
    print(p)
print(f"{len(problems)} problem(s)")
sys.exit(1 if problems else 0)
