"""Prints generated programs.

  python3 tests/lib/gen [--count N] [--seed S] [--shadow]   typed programs (and expected output)
  python3 tests/lib/gen --out DIR [--per-file K] ...        write batch files DIR/batch_NNN.thorin
                                                            and DIR/batch_NNN.expected
  python3 tests/lib/gen --family F [--count N] [--seed S]   programs of family F (loops, words,
                                                            church, multifile, arrays, data), as the
                                                            tests make them
"""
import argparse
import os
import sys

sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))    # tests/lib
from gen import samples, typed_program  # noqa: E402


def write_batches(progs, out, per_file, shadow):
    os.makedirs(out, exist_ok=True)
    for b in range(0, len(progs), per_file):
        chunk = progs[b:b + per_file]
        stem = os.path.join(out, f"batch_{b // per_file:03d}")
        with open(stem + ".thorin", "w", encoding="utf-8") as f:
            f.write(typed_program.batch_text(chunk, shadow))
        if not shadow:
            with open(stem + ".expected", "w", encoding="utf-8") as f:
                f.write("".join(p.expected() for p in chunk))


def main():
    ap = argparse.ArgumentParser(prog="python3 tests/lib/gen", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--family", default="typed", choices=["typed"] + sorted(samples.FAMILIES))
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--seed", default="20240601")
    ap.add_argument("--per-file", type=int, default=50)
    ap.add_argument("--out", help="write batch files into this directory")
    ap.add_argument("--shadow", action="store_true", help="the core-only rendering (postulates)")
    a = ap.parse_args()
    if a.family != "typed":
        sys.stdout.write(samples.FAMILIES[a.family](a.count, a.seed))
        return 0
    progs = typed_program.generate(a.count, a.seed)
    if a.out:
        write_batches(progs, a.out, a.per_file, a.shadow)
    elif a.shadow:
        sys.stdout.write(typed_program.batch_text(progs, True))
    else:
        for p in progs:
            sys.stdout.write(p.text())
            sys.stdout.write("".join(f"--   {line}\n" for line in p.expected().splitlines()))
            sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
