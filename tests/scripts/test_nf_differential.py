#!/usr/bin/env python3
"""Normal forms by running code against the evaluator, on random terms.

Random well-typed terms over Church numerals, booleans and pairs (the Church
family, tests/lib/gen/church.py) — closed ones, functions of numerals, open
terms under `λ N s z`, Σ-typed parameters, new definitions — are normalized
with `.nf` by `thorin check --jit=off` (the evaluator of core/) and by
`--jit=lazy --jit-threshold 1` (the runtime with neutral values, compiled
code from the first call, runtime/readback.cpp). The outputs must be
identical, and most directives must take the runtime's path.

  test_nf_differential.py THORIN [--programs N] [--seed S]"""
import argparse
import os
import re
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402
from gen import church  # noqa: E402
from gen.entries import file_text  # noqa: E402
from gen.rng import Rng  # noqa: E402


def run(exe, path, *flags):
    r = thorin.run(exe, "check", *flags, path, timeout=60)
    return r.code, r.out, r.err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("thorin")
    ap.add_argument("--programs", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rnd = Rng(a.seed)
    prelude = church.prelude_text()
    total = by_code = 0
    with tempfile.TemporaryDirectory() as d:
        for n in range(a.programs):
            g = church.ChurchGen(rnd)
            path = os.path.join(d, f"p{n}.thorin")
            with open(path, "w") as f:
                f.write(prelude + file_text([e for i in range(12) for e in g.directive(i)]))
            rc0, ref, err0 = run(a.thorin, path, "--jit=off")
            if rc0 != 0:
                print(f"program {n} does not check (a generator bug):\n{err0}\n{ref}")
                return 1
            rc1, out, err1 = run(a.thorin, path, "--jit=lazy", "--jit-threshold", "1", "--jit-stats")
            if (rc1, out) != (rc0, ref):
                print(f"program {n}: the runtime's normal forms differ from the evaluator's")
                print(open(path).read())
                for x, y in zip(ref.splitlines(), out.splitlines()):
                    if x != y:
                        print(f"evaluator: {x}\nruntime:   {y}")
                        break
                return 1
            notes = re.findall(r"^jit: normal form (.*)$", err1, re.M)
            total += len(notes)
            by_code += notes.count("by running code")
    print(f"{a.programs} programs, {total} normal forms, {by_code} by running code: identical")
    if by_code < total * 0.8:
        print("FAILED: too few normal forms took the runtime's path")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
