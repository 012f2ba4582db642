#!/usr/bin/env python3
"""README.md and docs/ARCHITECTURE.md against the tree: every path they name in backticks
exists, every core folder has a row in ARCHITECTURE's module table, every top-level folder is in
README's layout table, and every program the build makes is named in README.
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


for doc in ("README.md", "docs/ARCHITECTURE.md"):
    text = read(doc)
    for m in path_re.finditer(text):
        if not exists(m.group(1)):
            line = text.count("\n", 0, m.start()) + 1
            problems.append(f"{doc}:{line}: `{m.group(1)}` does not exist")

arch = read("docs/ARCHITECTURE.md")
for d in sorted(os.listdir(os.path.join(root, "core"))):
    if os.path.isdir(os.path.join(root, "core", d)) and f"| `core/{d}` |" not in arch:
        problems.append(f"docs/ARCHITECTURE.md: core/{d} has no row in the module table")

readme = read("README.md")
for d in sorted(os.listdir(root)):
    if os.path.isdir(os.path.join(root, d)) and not d.startswith(".") and d != "build":
        if f"| `{d}/` |" not in readme:
            problems.append(f"README.md: the folder {d}/ is not in the layout table")

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
