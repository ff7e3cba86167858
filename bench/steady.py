#!/usr/bin/env python3
"""Steady-state run time of an eval workload in one REPL session: `main` is
evaluated once to warm up (with the JIT on, this compiles what is hot), then
timed three times with :time; prints the fastest. The process start-up,
elaboration and compilation that `bench/run eval` includes are left out.

  bench/steady.py [--jit=off] FILE…"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
THORIN = os.environ.get("THORIN", os.path.join(os.path.dirname(HERE), "build", "thorin"))


def steady(path, flags):
    inp = ":eval main\n:eval main\n:time\n" + ":eval main\n" * 3
    p = subprocess.run([THORIN, *flags, path], input=inp.encode(), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=600,
                       env=dict(os.environ, THORIN_HISTORY=os.devnull))
    out = p.stdout.decode()
    times = []
    for m in re.finditer(r"\(took ([\d.]+)(ms|s)\)", out):
        times.append(float(m.group(1)) / (1000 if m.group(2) == "ms" else 1))
    return min(times) if times else None


def main():
    flags = [a for a in sys.argv[1:] if a.startswith("--")]
    for f in [a for a in sys.argv[1:] if not a.startswith("--")]:
        t = steady(f, flags)
        print(f"{os.path.basename(f):20} {' '.join(flags) or '--jit=lazy':12} "
              + (f"{t * 1000:.1f} ms" if t is not None else "failed"))


if __name__ == "__main__":
    main()
