#!/usr/bin/env python3
"""In-place array updates against the copying semantics, on random programs.

  test_inplace_differential.py THORIN [--seed S] [--count N] [--keep DIR]

`set` updates an array that nothing else refers to in place, and copies a
shared one (docs/runtime.md, runtime/share.hpp). Its meaning stays the
persistent one: random programs over `Array 4 I64` that hold arrays
in variables read several times, in `let`s, pairs (projected again), nested
arrays (rows read with `get` and set), closures that capture an array and
run after it is set, arrays passed twice to one function, arrays given to
a postulate in a normal form (`.nf`), conditionals, and loops that set an
array at each step, print every array they made. Each file runs in every
JIT mode with `--jit-threshold 1` (compiled from the first call) and with
the default threshold, and the output must be the Python model's — a pure
evaluation where `set` always copies (tests/lib/gen's family `arrays`).
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402
from gen.arrays import generate_file  # noqa: E402

MODES = thorin.JIT_MODES + [["--jit=lazy"], ["--jit=baseline"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("thorin")
    ap.add_argument("--seed", type=int, default=2811)
    ap.add_argument("--count", type=int, help="files (default 12; a quarter sanitized)")
    ap.add_argument("--keep")
    a = ap.parse_args()
    exe = os.path.abspath(a.thorin)
    if a.count is None:
        a.count = thorin.scaled(exe, 12, factor=4)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        d = a.keep or tmp
        os.makedirs(d, exist_ok=True)
        for k in range(a.count):
            text, expected = generate_file(a.seed * 1000 + k)
            path = os.path.join(d, f"inplace_{k}.thorin")
            with open(path, "w") as f:
                f.write(text)
            for mode in MODES:
                r = thorin.run(exe, "run", *mode, path, timeout=300)
                if r.code != 0 or r.out != expected:
                    failures += 1
                    print(f"FAIL {path} {' '.join(mode)}: exit {r.code}")
                    print(r.err[-2000:])
                    got, want = r.out.splitlines(), expected.splitlines()
                    for i, (g, w) in enumerate(zip(got, want)):
                        if g != w:
                            print(f"  line {i + 1}: got {g}\n          want {w}")
                            break
                    else:
                        print(f"  {len(got)} lines, want {len(want)}")
        print(f"{a.count} files × {len(MODES)} modes, {failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
