#!/usr/bin/env python3
"""The layout's rules (docs/architecture.md), checked on the source tree.

1. Includes run one way: repl → plugins → jit/{baseline,llvm} → runtime → core.
   No runtime file includes a tier; no tier and no core file names a plugin.
2. No `"%core.` string in C++ outside plugins/core/ (core code names builtins
   by role, core/builtins.hpp; a plugin names its axioms by generated id).
3. No two source files share a stem, except a plugin's role files
   (normalizers, prims, baseline, llvm), one per plugin folder.
4. No function over 150 lines in runtime/ and jit/ (scripts/function-lengths).

Usage: test_layout.py [THORIN]   (the argument is ignored: ctest passes it)
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAYERS = ["core", "runtime", "jit/baseline", "jit/llvm", "plugins", "repl"]
# What each folder may include (besides itself and system headers).
ALLOWED = {
    "core": {"core"},
    "runtime": {"core", "runtime"},
    "jit/baseline": {"core", "runtime", "jit/baseline"},
    "jit/llvm": {"core", "runtime", "jit/llvm"},
    "plugins": {"core", "runtime", "jit/baseline", "jit/llvm", "plugins"},
    "repl": {"core", "runtime", "jit/baseline", "jit/llvm", "plugins", "repl"},
}
ROLE_FILES = {"normalizers", "prims", "baseline", "llvm"}


def sources(folder):
    for root, _, files in os.walk(os.path.join(ROOT, folder)):
        for f in sorted(files):
            if f.endswith((".cpp", ".hpp", ".h", ".inc")):
                yield os.path.join(root, f)


def layer_of(path):
    rel = os.path.relpath(path, ROOT)
    for layer in sorted(LAYERS, key=len, reverse=True):
        if rel.startswith(layer + "/"):
            return layer
    return None


def main():
    problems = []
    include = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    stems = {}
    for layer in LAYERS:
        for path in sources(layer):
            rel = os.path.relpath(path, ROOT)
            text = open(path, encoding="utf-8").read()
            for inc in include.findall(text):
                if "/" not in inc:
                    continue  # (beside the file)
                target = layer_of(os.path.join(ROOT, inc))
                if target and target not in ALLOWED[layer]:
                    problems.append(f"{rel}: includes {inc} ({layer} may not include {target})")
            if '"%core.' in text and not rel.startswith("plugins/core/"):
                problems.append(f"{rel}: spells a %core axiom as a string")
            stem = os.path.splitext(os.path.basename(path))[0]
            role = layer == "plugins" and stem in ROLE_FILES
            if not role:
                stems.setdefault(stem, set()).add(os.path.dirname(rel))
    for stem, dirs in sorted(stems.items()):
        if len(dirs) > 1:
            problems.append(f"the stem '{stem}' is used in {', '.join(sorted(dirs))}")
    for path in sources("tests/unit"):
        if '"%core.' in open(path, encoding="utf-8").read():
            problems.append(f"{os.path.relpath(path, ROOT)}: spells a %core axiom as a string")
    lengths = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "function-lengths"),
                              "--limit", "150", os.path.join(ROOT, "runtime"), os.path.join(ROOT, "jit")],
                             capture_output=True, text=True)
    for line in lengths.stdout.splitlines():
        problems.append("function over 150 lines: " + line.strip())
    for p in problems:
        print(p)
    print(f"{0 if problems else 1} passed, {1 if problems else 0} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
