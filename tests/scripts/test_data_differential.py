#!/usr/bin/env python3
"""Differential test of data types and pattern matching on random programs
(tests/lib/gen/data_programs.py, fixed seed).

  test_data_differential.py THORIN [--count N] [--seed S] [--per-file K] [--jobs J]
      [--keep DIR] [--with SWITCH]

Each program declares data types (enumerations, records, options, lists,
trees, expression-like sums, rose trees nested through a list), defines
functions by clauses (nested constructor patterns, literal patterns,
recursion on the parts of the first argument), definitions whose body is a
`case`, `case`s within terms, the generated eliminators and polymorphic
functions (size, map, fold, append, reverse), builders that make values of
hundreds to thousands of constructors, and ends in `.eval`s (the runtime's
value) and `.nf`s (the elaborator's normal form), whose output a Python
model of the semantics computed (data_programs.py's docstring).

The programs are written in batches of K per file and each file is run as
  THORIN run --jit=off FILE
  THORIN run --jit=eager FILE
  THORIN run --jit=lazy --jit-threshold 2 FILE
  THORIN run --jit=baseline --jit-threshold 2 FILE
  THORIN check FILE
The five standard outputs must be equal to each other and to the model's,
with exit status 0, and stderr must have no warning about a clause of a
definition (the generator writes no unreachable clause and makes every
definition by clauses total; thorin may warn about an alternative of a
`case` that a scrutinee it knows never reaches). On a mismatch every
failing file is listed (whether the modes agree with each other: if not, it
is a JIT bug); the first two failing files (those where the modes disagree
first) are split into single programs and single directives with the
declarations and definitions they need, and the smallest failing program
(again preferring a disagreement between modes) is printed with the five
outputs and the expected one. Exit status 1 on any failure.

Switches in data_programs.py (SWITCHES below) leave out what a known thorin
bug breaks; the test names those that are off, and `--with SWITCH` (or
`--with all`) generates the feature again, to check a fix.

Default: 100 programs in files of 25, an eighth under the sanitizers. In a
Release build that is about 140 s of CPU (most of it --jit=eager compiling
every definition), about 70 s on two idle cores.
"""
import argparse
import os
import re
import sys

sys.dont_write_bytecode = True          # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from gen import data_programs  # noqa: E402
import differential  # noqa: E402
import thorin  # noqa: E402

MODES = [
    ("jit=off", ["run", "--jit=off"]),
    ("jit=eager", ["run", "--jit=eager"]),
    ("jit=lazy threshold 2", ["run", "--jit=lazy", "--jit-threshold", "2"]),
    ("jit=baseline threshold 2", ["run", "--jit=baseline", "--jit-threshold", "2"]),
    ("check", ["check"]),
]
# seconds for a file of --per-file programs: a hang detector (--jit=eager
# compiles every definition; several times slower under ASan).
BATCH_TIMEOUT = 240
SINGLE_TIMEOUT = 30          # for one program
SWITCHES = ["ELIM_FIELD_NAMES_LIKE_GENERATED", "CASE_ON_LET_BOUND", "NUMBER_CASE_ON_UNSOLVED_TYPE"]


WARNING = re.compile(r"^.*?:(\d+):(\d+): warning: (.*)$", re.M)


def warned(err):
    """A warning the generator should have avoided: an unreachable clause of a
    definition by clauses (column 1: the generator writes none), or any other
    warning. An unreachable alternative of a `case` is fine: thorin also
    counts those a known scrutinee never reaches (`case nil of { cons … → …;
    nil → … }`, a case in an alternative on the variable matched already),
    which only the elaborator's evaluation of the scrutinee tells."""
    return any(m.group(2) == "1" or not m.group(3).startswith("unreachable clause")
               for m in WARNING.finditer(err))


TEST = differential.Differential(MODES, unit="directive", batch_timeout=BATCH_TIMEOUT,
                                 single_timeout=SINGLE_TIMEOUT, warned=warned)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("thorin")
    ap.add_argument("--count", type=int, help="programs (default 100; an eighth sanitized)")
    ap.add_argument("--seed", default="20261128")
    ap.add_argument("--per-file", type=int, default=25)
    ap.add_argument("--jobs", type=int, default=min(os.cpu_count() or 2, 4))
    ap.add_argument("--keep", help="write the batch files into this directory and keep them")
    ap.add_argument("--with", dest="switches", action="append", default=[], choices=SWITCHES + ["all"],
                    help="generate a feature a switch leaves out (to check a fix); repeatable")
    a = ap.parse_args()
    exe = os.path.abspath(a.thorin)
    for sw in SWITCHES if "all" in a.switches else a.switches:
        setattr(data_programs, sw, True)
    if a.count is None:
        a.count = thorin.scaled(exe, 100)

    batches = TEST.generate(data_programs, a.count, a.seed, a.per_file)
    off = [s for s in SWITCHES if not getattr(data_programs, s)]
    if off:
        print(f"left out (known thorin bugs, data_programs.py): {', '.join(off)}")

    status = TEST.check(exe, a.jobs, batches, data_programs.batch_text, a.keep, "thorin_data_diff_")
    if status:
        switches = "".join(f" --with {sw}" for sw in SWITCHES if getattr(data_programs, sw))
        print(f"reproduce: {os.path.basename(sys.argv[0])} THORIN --count {a.count} --seed {a.seed} "
              f"--per-file {a.per_file}{switches} --keep DIR")
    return status


if __name__ == "__main__":
    sys.exit(main())
