#!/usr/bin/env python3
"""Differential test of the specializer: filters never change what a program
computes. Random well-typed programs (the typed family of tests/lib/gen,
fixed seed) get partial-evaluation filters put on their definitions and λs
at random — `@(?x)` on one parameter, `@(?x && ?y)`, `@` (always) — and
must print exactly what the generator computed for the unfiltered program,
in the interpreter and with every function compiled, with exit status 0.

  test_pe_differential.py THORIN [--count N] [--seed S] [--per-file K]

Filters on recursive functions with dynamic arguments are included on
purpose: they must end in a loop (memoized specialization) or a warning on
stderr (fuel), never in a hang or a different answer.
"""
import argparse
import concurrent.futures
import os
import random
import re
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from gen import typed_program  # noqa: E402
import thorin  # noqa: E402

MODES = [["--jit=off"], ["--jit=eager"]]
TIMEOUT = 120

DEF = re.compile(r"^(\w+) (: [^=]*?)(\n  = |= )λ ([^.]*?)\.", re.M)  # (types have no '=')
LAM = re.compile(r"(?<!= )λ ((?:\w+ ?)+)\.")  # (not a definition's own λ)


def filtered(text, rng):
    """The program with random filters on its definitions and λs."""
    def on_def(m):
        name, ty, eq, binders = m.group(1), m.group(2), m.group(3), m.group(4)
        names = [b for b in re.findall(r"[A-Za-z_]\w*", binders.replace("{", " ").replace("}", " "))
                 if b != "_"]
        r = rng.random()
        if r < 0.3 or not names:
            return m.group(0)
        if r < 0.55:
            filt = "@"
        elif r < 0.85:
            filt = f"@(?{rng.choice(names)})"
        else:
            filt = f"@(?{names[0]} && ?{names[-1]})"
        return f"{name} {filt} {ty}{eq}λ {binders}."
    text = DEF.sub(on_def, text)

    def on_lam(m):
        if "@" in m.group(0) or rng.random() < 0.7:
            return m.group(0)
        names = m.group(1).split()
        return f"λ {m.group(1).strip()} @(?{rng.choice(names)})."
    lines = []
    for line in text.split("\n"):  # (λs in definitions' bodies, not in their headers)
        lines.append(LAM.sub(on_lam, line) if line.startswith(".eval") or line.startswith("  ") else line)
    return "\n".join(lines)


def run(exe, flags, path):
    r = thorin.run(exe, "run", *flags, os.path.basename(path), cwd=os.path.dirname(path), timeout=TIMEOUT)
    return ("timeout", "", f"[killed after {TIMEOUT} s]") if r.timed_out else (r.code, r.out, r.err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("thorin")
    ap.add_argument("--count", type=int, help="programs (default 300; an eighth sanitized)")
    ap.add_argument("--seed", default="20261122")
    ap.add_argument("--per-file", type=int, default=25)
    a = ap.parse_args()
    exe = os.path.abspath(a.thorin)
    if a.count is None:
        a.count = thorin.scaled(exe, 300)
    rng = random.Random(a.seed)
    progs = typed_program.generate(a.count, a.seed)
    filters = 0
    with tempfile.TemporaryDirectory() as d:
        jobs = []
        for b in range(0, len(progs), a.per_file):
            chunk = progs[b:b + a.per_file]
            text = filtered(typed_program.batch_text(chunk), rng)
            filters += text.count("@")
            path = os.path.join(d, f"batch_{b // a.per_file:03d}.thorin")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            jobs.append((path, text, "".join(p.expected() for p in chunk)))
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            futures = {(path, i): pool.submit(run, exe, m, path)
                       for path, _t, _e in jobs for i, m in enumerate(MODES)}
            failures = 0
            for path, text, expected in jobs:
                for i, m in enumerate(MODES):
                    rc, out, err = futures[(path, i)].result()
                    if rc == 0 and out == expected:
                        continue
                    failures += 1
                    if failures > 2:
                        continue
                    print(f"==== {os.path.basename(path)} with {' '.join(m)}: exit {rc}")
                    exp, got = expected.splitlines(), out.splitlines()
                    k = next((j for j in range(max(len(exp), len(got)))
                              if j >= len(exp) or j >= len(got) or exp[j] != got[j]), None)
                    print(f"first difference at output line {k}: expected "
                          f"{exp[k] if k is not None and k < len(exp) else None!r}, got "
                          f"{got[k] if k is not None and k < len(got) else None!r}")
                    print("---- stderr\n" + err[-2000:])
                    print("---- program\n" + text[:6000])
    print(f"{len(progs)} programs with {filters} filters, {len(jobs)} files × {len(MODES)} modes: "
          f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
