#!/usr/bin/env python3
"""Two thorin binaries on the evaluation workloads, alternating (the machine's
speed drifts; alternation keeps a before/after comparison fair):

  bench/ab.py BEFORE AFTER [--runs N] [--only a,b]

For each workload of bench/eval (fib32, ackermann(3,9), queens10, matmul256,
brainfuck, ForceTree23, NfTree23): `thorin run --jit-stats FILE` N times per
binary, alternating which goes first; prints the median wall time of each
(start-up included) and the median `jit: evaluated in` time (start-up and
elaboration excluded), with their ratios AFTER / BEFORE. Each binary loads
the LLVM module it was built with (its build directory's)."""
import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EVAL = os.path.join(HERE, "eval")
WORKLOADS = [("fib32", "fib", None), ("ackermann", "ack", None), ("queens10", "queens", None),
             ("matmul256", "matmul", None), ("brainfuck", "bf", None),
             ("ForceTree23", "forcetree", 23), ("NfTree23", "nftree", 23)]
DEPTH_LINE = re.compile(r"^depth : CNat =.*$", re.M)
EVALUATED = re.compile(r"jit: evaluated in ([\d.]+) ms")


def source(stem, depth, tmp):
    """bench/eval/STEM.thorin, its tree depth set to `depth` (as bench/run eval does)."""
    path = os.path.join(EVAL, f"{stem}.thorin")
    if depth is None:
        return path
    church = "csuc (" * depth + "czero" + ")" * depth
    out = os.path.join(tmp, f"{stem}{depth}.thorin")
    with open(out, "w") as f:
        f.write(DEPTH_LINE.sub(f"depth : CNat = {church}", open(path).read()))
    return out


def once(exe, path):
    t0 = time.perf_counter()
    r = subprocess.run([exe, "run", "--jit-stats", "--no-code-cache", path], cwd=os.path.dirname(path),
                       capture_output=True, text=True)
    wall = time.perf_counter() - t0
    evaluated = sum(float(x) for x in EVALUATED.findall(r.stderr)) / 1000
    return wall, evaluated


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", help="workloads, comma-separated")
    a = ap.parse_args()
    exes = [os.path.abspath(a.before), os.path.abspath(a.after)]
    print(f"{'workload':12} {'before':>9} {'after':>9} {'ratio':>6}   "
          f"{'eval before':>11} {'eval after':>10} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, stem, depth in WORKLOADS:
            if a.only and name not in a.only.split(","):
                continue
            path = source(stem, depth, tmp)
            walls, evals = ([], []), ([], [])
            for i in range(a.runs):
                for k in ((0, 1) if i % 2 == 0 else (1, 0)):
                    w, e = once(exes[k], path)
                    walls[k].append(w)
                    evals[k].append(e)
            w0, w1 = statistics.median(walls[0]), statistics.median(walls[1])
            e0, e1 = statistics.median(evals[0]), statistics.median(evals[1])
            print(f"{name:12} {w0 * 1000:7.1f}ms {w1 * 1000:7.1f}ms {w1 / w0:6.2f}   "
                  f"{e0 * 1000:9.2f}ms {e1 * 1000:8.2f}ms {e1 / e0 if e0 else 0:6.2f}", flush=True)


if __name__ == "__main__":
    main()
