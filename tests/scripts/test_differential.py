#!/usr/bin/env python3
"""Differential test of the interpreter against the JIT on random well-typed
programs (the typed family of tests/lib/gen, fixed seed).

  test_differential.py THORIN [--count N] [--seed S] [--per-file K] [--jobs J] [--keep DIR]

The programs are written in batches of K per file and each file is run as
  THORIN run --jit=off FILE
  THORIN run --jit=eager FILE
  THORIN run --jit=lazy --jit-threshold 2 FILE
  THORIN run --jit=baseline --jit-threshold 2 FILE
The four standard outputs must be equal to each other and to the output the
generator computed in Python, with exit status 0. On a mismatch every failing
file is listed (whether the four modes agree with each other: if not, it is
a JIT bug); the first two failing files (those where the modes disagree
first) are split into single programs and single `.eval`s with the
definitions they need, and the smallest failing program (again preferring a
disagreement between modes) is printed with the four outputs and the
expected one. Exit status 1 on any failure.
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True          # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from gen import typed_program  # noqa: E402
import differential  # noqa: E402
import thorin  # noqa: E402

MODES = [
    ("jit=off", ["run", "--jit=off"]),
    ("jit=eager", ["run", "--jit=eager"]),
    ("jit=lazy threshold 2", ["run", "--jit=lazy", "--jit-threshold", "2"]),
    ("jit=baseline threshold 2", ["run", "--jit=baseline", "--jit-threshold", "2"]),
]
# seconds for a file of --per-file programs: a hang detector. --jit=eager
# compiles every definition (about 1,250 LLVM compilations for 50 programs:
# 10 s in a Release build, several times that under ASan, more on a loaded
# machine; 60 s was exceeded once under ASan with the other core busy).
BATCH_TIMEOUT = 180
SINGLE_TIMEOUT = 20          # for one program
TEST = differential.Differential(MODES, unit=".eval", batch_timeout=BATCH_TIMEOUT,
                                 single_timeout=SINGLE_TIMEOUT, modes_in_words="four")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("thorin")
    ap.add_argument("--count", type=int, help="programs (default 500; an eighth sanitized)")
    ap.add_argument("--seed", default="20240601")
    ap.add_argument("--per-file", type=int, default=50)
    ap.add_argument("--jobs", type=int, default=min(os.cpu_count() or 2, 4))
    ap.add_argument("--keep", help="write the batch files into this directory and keep them")
    a = ap.parse_args()
    exe = os.path.abspath(a.thorin)
    if a.count is None:
        a.count = thorin.scaled(exe, 500)

    batches = TEST.generate(typed_program, a.count, a.seed, a.per_file)
    status = TEST.check(exe, a.jobs, batches, typed_program.batch_text, a.keep, "thorin_diff_")
    if status:
        print(f"reproduce: {os.path.basename(sys.argv[0])} THORIN --count {a.count} --seed {a.seed} "
              f"--per-file {a.per_file} --keep DIR")
    return status


if __name__ == "__main__":
    sys.exit(main())
