#!/usr/bin/env python3
"""An interpreted loop (--jit=off) runs in constant memory: a frame that makes
a tail call and made no closures gives its environment back. Two million
iterations then take no more memory than a hundred thousand (the environment
cells alone of 2M iterations would be 64 MB). A loop that makes closures
keeps its frames and still computes the same result. A frame also gives its
environment back when it returns: fib 29 (1.6 million calls, not loops) takes
no more memory than fib 20."""
import os
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402

PROGRAM = """
loop : I64 → I64 → I64 = λ n acc.
  let a = acc + n;
  if n == 0 then acc else loop (n - 1) a
twice : (I64 → I64) → I64 → I64 = λ f x. f (f x)
clo : I64 → I64 → I64 = λ n acc. if n == 0 then acc else clo (n - 1) (twice (λ y. y + n) acc)
.eval loop {n} 0
.eval clo 1000 0
fib : I64 → I64 = λ n. let m = n - 1; if n < 2 then n else fib m + fib (m - 1)
.eval fib {k}
"""


def run(exe, path):
    """(stdout, peak RSS in KB) of `thorin run --jit=off path`."""
    p = thorin.popen(exe, "run", "--jit=off", path)
    out = p.stdout.read().decode()
    _, status, usage = os.wait4(p.pid, 0)
    if status != 0:
        print(f"FAILED: exit status {status}\n{out}")
        sys.exit(1)
    return out, usage.ru_maxrss


def main():
    exe = thorin.binary()
    with tempfile.TemporaryDirectory() as d:
        peaks = {}
        for n, k, fib in ((100000, 20, 6765), (2000000, 29, 514229)):
            path = os.path.join(d, f"loop{n}.thorin")
            with open(path, "w") as f:
                f.write(PROGRAM.replace("{n}", str(n)).replace("{k}", str(k)))
            out, peaks[n] = run(exe, path)
            want = f"{n * (n + 1) // 2}\n1001000\n{fib}\n"
            if out != want:
                print(f"FAILED: n = {n}: expected\n{want}got\n{out}")
                sys.exit(1)
        growth = peaks[2000000] - peaks[100000]
        print(f"peak RSS: {peaks[100000]} KB at 1e5 iterations and fib 20, "
              f"{peaks[2000000]} KB at 2e6 and fib 29")
        if growth > 16 * 1024:
            print(f"FAILED: 2e6 iterations and fib 29 took {growth} KB more than 1e5 and fib 20")
            sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
