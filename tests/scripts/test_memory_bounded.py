#!/usr/bin/env python3
"""Long runs in bounded memory: the run-time heap is collected while a
program runs (docs/runtime.md, "Memory").

Under a tight THORIN_MEMORY_MB, each of these finishes with the right answer
and a peak RSS below the limit, in every tier where it allocates:
- a loop of 10⁸ steps that boxes an F64 at each (interpreted);
- a loop of 10⁸ steps on Nats beyond 2^62 (a big Nat per step; interpreted,
  baseline code, LLVM's code);
- a loop that sets a cell of a 1,000-element array 10⁷ times (in place);
- the same on an array held in a data value, taken apart and rebuilt at
  each of 2·10⁶ steps (in place: a data value owns its fields);
- the Brainfuck benchmark (bench/eval/bf.thorin), which sets its tape at
  every step;
- closures and pairs made and dropped in a loop, 10⁶ steps;
- a string built by appending a byte 10⁷ times (in place: copying it at
  each step would take hours).
A tree of 2²⁰ - 1 nodes and 2²⁰ leaves holding a Nat, built by compiled code,
takes 16 bytes a node and 8 a leaf (compact cells, runtime/heap.hpp); with
an array in each leaf, 24 and 16 (objects with a header: what they hold may
be updated in place).
The same programs with ten times fewer steps peak within 20 % (+16 MB) of the
long ones: memory does not grow with the number of steps (compiled code is
compiled before the run, `--jit=eager`, so that LLVM's own memory is in
both). Sanitizer builds take a tenth of the steps and check the answers
only: they set no memory limit, and ASan keeps freed memory in quarantine
(GMP's temporaries grow its RSS to hundreds of MB). A run that does run out
(a string doubled 40 times) is the located error, exit status 2; a source
larger than the limit (/dev/zero) is an error too, and the REPL goes on.
"""
import os
import re
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PROGRAMS = {
    "f64": ("loop : Nat → F64 → F64 = λ k acc. if k == 0 then acc else loop (k - 1) (acc + 0.5)\n"
            ".eval loop {n} 0.0\n", lambda n: f"{n // 2}.0" if n % 2 == 0 else f"{n / 2}",
            [["--jit=off"]]),
    "nat": ("loop : Nat → Nat → Nat = λ k acc. if k == 0 then acc else loop (k - 1) (acc + 3)\n"
            ".eval loop {n} 4611686018427387904\n", lambda n: str(4611686018427387904 + 3 * n),
            [["--jit=off"], ["--jit=baseline"], ["--jit=eager"]]),
    "array": ("loop : Nat → Array 1000 I64 → Array 1000 I64 = λ k a. if k == 0 then a "
              "else loop (k - 1) (set a (idx (k % 1000)) (get a (idx (k % 1000)) + 1))\n"
              ".eval get (loop {n} (build 1000 (λ i. 0))) (idx 7)\n",
              lambda n: str(n // 1000 + (1 if n % 1000 >= 7 else 0)),
              [["--jit=off"], ["--jit=baseline"], ["--jit=eager"]]),
    "closures": ("step : Nat → Nat × Nat → Nat × Nat = λ k p. (p.2, (p.1 + p.2 + k) % 1000)\n"
                 "go : Nat → Nat × Nat → Nat × Nat\n"
                 "  = λ k p. if k == 0 then p else go (k - 1) ((λ (q : Nat × Nat). step k q) p)\n"
                 ".eval (go {n} (0, 1)).1 < 1000\n", lambda n: "true",
                 [["--jit=off"], ["--jit=eager"]]),
    "data": ("data R : U where\n  mk : Array 1000 I64 → Nat → R\n"
             "loop : Nat → R → R\n"
             "loop 0 r = r\n"
             "loop k (mk a n) = loop (k - 1) (mk (set a (idx (k % 1000)) (get a (idx (k % 1000)) + 1)) (n + 1))\n"
             "seven : R → I64\n"
             "seven (mk a _) = get a (idx 7)\n"
             ".eval seven (loop {n} (mk (build 1000 (λ i. 0)) 0))\n",
             lambda n: str(n // 1000 + (1 if n % 1000 >= 7 else 0)),
             [["--jit=off"], ["--jit=baseline"], ["--jit=eager"]]),
    "string": ("build : Nat → String → String = λ k s. if k == 0 then s else build (k - 1) (strCat s \"x\")\n"
               ".eval strLen (build {n} \"\")\n", lambda n: str(n),
               [["--jit=off"], ["--jit=baseline"], ["--jit=eager"]]),
}
STEPS = {"f64": 100_000_000, "nat": 100_000_000, "array": 10_000_000, "closures": 1_000_000,
         "string": 10_000_000, "data": 2_000_000}
# What the result itself holds (the string of 10⁷ bytes, with room to grow).
LIVE_MB = {"string": 2 * STEPS["string"] / 2**20}
LIMIT_MB = 200


def peak_run(exe, path, flags):
    """(stdout, peak RSS in KB, exit code) of `thorin run FLAGS path` under the limit."""
    p = thorin.popen(exe, "run", *flags, path, memory_mb=LIMIT_MB, stack_mb=256, merge=False)
    out = p.stdout.read().decode()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return out, usage.ru_maxrss, p.returncode


CELLS = ("data T : U where\n  leaf : {leafType} → T\n  node : T → T → T\n"
         "mk : Nat → {leafType} → T\nmk 0 x = leaf x\nmk d x = node (mk (d - 1) x) (mk (d - 1) x)\n"
         "size : T → Nat\nsize (leaf _) = 0\nsize (node l r) = 1 + size l + size r\n"
         ".eval size (mk 20 {leaf})\n")
ALLOCATED = re.compile(r"gc: .* ([\d.]+) MB allocated")


def check_cells(exe, d):
    """The bytes a node takes, from the collector's count of bytes allocated
    (THORIN_GC_STATS), in baseline and LLVM code: 1 failure or 0."""
    failures = 0
    for leaf_type, leaf, node_bytes, leaf_bytes in (("Nat", "7", 16, 8), ("Array 1 I64", "[7]", 24, 16)):
        path = os.path.join(d, "cells.thorin")
        with open(path, "w") as f:
            f.write(CELLS.format(leafType=leaf_type, leaf=leaf))
        for flags in (["--jit=baseline", "--jit-threshold", "1"], ["--jit=eager"]):
            r = thorin.run(exe, "run", *flags, path, env={"THORIN_GC_STATS": "1"}, merge=True)
            m = ALLOCATED.search(r.out)
            mb = float(m.group(1)) if m else -1
            want = (node_bytes * (2**20 - 1) + leaf_bytes * 2**20) / 2**20  # (one array: shared)
            ok = r.out.startswith("1048575\n") and want <= mb < want + 1
            print(f"cells, leaves {leaf_type}, {' '.join(flags)}: {mb} MB allocated"
                  f"{'' if ok else f' (want {want:.1f}): ' + r.out[:300]}")
            failures += not ok
    return failures


def main():
    exe = thorin.binary()
    sanitized = thorin.sanitized(exe)
    scale = 20 if sanitized else 1  # (the sanitizers: the same paths, fewer steps)
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        cases = []
        for name, (text, answer, modes) in PROGRAMS.items():
            n = STEPS[name] // scale
            cases.append((name, text, answer, modes, n))
        for name, text, answer, modes, n in cases:
            for flags in modes:
                peaks = []
                for steps in (n // 10, n):
                    path = os.path.join(d, f"{name}_{steps}.thorin")
                    with open(path, "w") as f:
                        f.write(text.format(n=steps))
                    out, peak, code = peak_run(exe, path, flags)
                    ok = code == 0 and out.strip() == answer(steps) and (sanitized or peak < LIMIT_MB * 1024)
                    print(f"{name} {steps} {' '.join(flags)}: exit {code}, peak {peak / 1024:.1f} MB, "
                          f"{out.strip()[:40]}{'' if ok else f'  (want {answer(steps)})'}")
                    failures += not ok
                    peaks.append(peak)
                # (Slack: the collector's first heap is 16 MB, whose pages a short
                # run may not all touch before its first collection.)
                if not sanitized and peaks[1] > peaks[0] * 1.2 + (16 + LIVE_MB.get(name, 0)) * 1024:
                    print(f"  {name} {' '.join(flags)}: peak grows with the steps "
                          f"({peaks[0] / 1024:.1f} → {peaks[1] / 1024:.1f} MB)")
                    failures += 1
        path = os.path.join(d, "oom.thorin")
        with open(path, "w") as f:
            f.write('g : String → Nat → String = λ s n. if n == 0 then s else g (strCat s s) (n - 1)\n'
                    '.eval strLen (g "ab" 40)\n')
        r = thorin.run(exe, "run", path, memory_mb=LIMIT_MB, merge=True)
        want = (f"{path}:2:7: error: out of memory (thorin's limit: {LIMIT_MB} MB)\n"
                "    2 | .eval strLen (g \"ab\" 40)\n      |       ^~~~~~~~~~~~~~~~~~\n"
                "  THORIN_MEMORY_MB raises the limit (0: none)\n")
        if not thorin.sanitized(exe):
            print(f"out of memory: exit {r.code}")
            if r.code != 2 or r.out != want:
                print(r.out[:600])
                failures += 1
        if not thorin.sanitized(exe):
            # A source larger than the limit: the error, not a silent exit 70;
            # at the prompt, the session goes on.
            r = thorin.run(exe, "check", "/dev/zero", memory_mb=LIMIT_MB, merge=True)
            want = "error: cannot open file '/dev/zero': Cannot allocate memory\n"
            r2 = thorin.run(exe, input=":l /dev/zero\n:t Nat\n", memory_mb=LIMIT_MB, merge=True)
            ok = r.code == 1 and r.out == want and "Nat : U" in r2.out and want in r2.out
            print(f"/dev/zero: exit {r.code}{'' if ok else ': ' + r.out[:200] + r2.out[-300:]}")
            failures += not ok
        failures += check_cells(exe, d)
        bf = os.path.join(ROOT, "bench", "eval", "bf.thorin")
        if scale == 1:
            for flags in (["--jit=off"], ["--jit=lazy"]):
                out, peak, code = peak_run(exe, bf, flags)
                ok = code == 0 and "511585760" in out and peak < LIMIT_MB * 1024
                print(f"brainfuck {' '.join(flags)}: exit {code}, peak {peak / 1024:.1f} MB")
                failures += not ok
    print(f"{failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
