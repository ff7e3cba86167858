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

Default: 150 programs in files of 25, an eighth under the sanitizers. In a
Release build that is about 140 s of CPU (most of it --jit=eager compiling
every definition), about 70 s on two idle cores.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import sys
import tempfile
import time

sys.dont_write_bytecode = True          # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from gen import data_programs  # noqa: E402
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


def run(exe, args, path, timeout):
    """(exit status, stdout, stderr, seconds) of `thorin ARGS FILE`."""
    try:
        r = thorin.run(exe, *args, os.path.basename(path), cwd=os.path.dirname(path), timeout=timeout)
    except OSError:             # the binary being replaced (a build running): once more
        time.sleep(10)
        r = thorin.run(exe, *args, os.path.basename(path), cwd=os.path.dirname(path), timeout=timeout)
    if r.timed_out:
        return "timeout", r.out, r.err + f"[killed after {timeout} s]", r.seconds
    return r.code, r.out, r.err, r.seconds


def clip(text, limit=4000):
    text = text if len(text) <= limit else text[:limit] + "\n[…]"
    return text if text.endswith("\n") else text + "\n"


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


def agrees(results, expected):
    return all(rc == 0 and out == expected and not warned(err) for rc, out, err, _t in results)


class Runner:
    def __init__(self, thorin, workdir, jobs):
        self.thorin, self.workdir, self.jobs = thorin, workdir, jobs
        self.n = 0

    def write(self, text):
        self.n += 1
        path = os.path.join(self.workdir, f"case_{self.n:05d}.thorin")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def run_all(self, paths, timeout=SINGLE_TIMEOUT):
        """{path: [result per mode]}, all runs in parallel."""
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
            futures = {(p, i): pool.submit(run, self.thorin, args, p, timeout)
                       for p in paths for i, (_name, args) in enumerate(MODES)}
            return {p: [futures[(p, i)].result() for i in range(len(MODES))] for p in paths}


def report(title, text, results, expected):
    print(f"==== {title}")
    print("---- program")
    sys.stdout.write(text)
    print("---- expected")
    sys.stdout.write(expected)
    for (name, args), (rc, out, err, _t) in zip(MODES, results):
        print(f"---- thorin {' '.join(args)}: exit {rc}" + ("" if out == expected else "  (differs)"))
        sys.stdout.write(clip(out) if out else "")
        if err:
            print("---- (stderr)")
            sys.stdout.write(clip(err))


def report_batch(path, progs, results):
    """A batch fails while each of its programs passes alone: show the program
    at the first output line that differs, and the outputs around it."""
    expected = "".join(p.expected() for p in progs).splitlines(True)

    def first_difference(out):
        lines = out.splitlines(True)
        return next((i for i, want in enumerate(expected) if i >= len(lines) or lines[i] != want),
                    len(expected))
    first = min(first_difference(out) for _rc, out, _e, _t in results)
    start = 0
    for prog in progs:
        if first < start + len(prog.evals):
            break
        start += len(prog.evals)
    lo, hi = start, start + len(prog.evals)
    print(f"==== {os.path.basename(path)} fails as a whole, but each program passes alone; "
          f"first difference at output line {first + 1}, in program {prog.pid}")
    print("---- program (the rest of the file is in the batch)")
    sys.stdout.write(prog.text())
    print(f"---- expected, lines {lo + 1}-{hi}")
    sys.stdout.write("".join(expected[lo:hi]))
    for (name, args), (rc, out, err, _t) in zip(MODES, results):
        print(f"---- thorin {' '.join(args)}: exit {rc}, lines {lo + 1}-{hi} of {len(out.splitlines())}")
        sys.stdout.write("".join(out.splitlines(True)[lo:hi]))
        if err:
            print("---- (stderr)")
            sys.stdout.write(clip(err))


def modes_disagree(results):
    return len({(rc, out) for rc, out, _e, _t in results}) > 1


def describe(results, expected):
    """One line on how the runs went wrong."""
    kind = "THE MODES DISAGREE" if modes_disagree(results) else "the modes agree with each other"
    parts = []
    for (name, _a), (rc, out, err, _t) in zip(MODES, results):
        msg = next((line for line in err.splitlines() if line.strip()), "")
        if rc == 0 and out == expected:
            state = "warns" if warned(err) else "ok"
        else:
            state = f"exit {rc}" + (", wrong output" if rc == 0 else "")
        parts.append(f"{name}: {state}" + (f" ({msg[:100]})" if msg and state != "ok" else ""))
    return f"{kind}; " + "; ".join(parts)


def failing_programs(runner, batches, failing, limit=2):
    """Splits the first `limit` failing batches into programs, and each failing
    program into single directives (with the entries they need).
    Returns [(title, text, results, expected)]."""
    found = []
    for b in failing[:limit]:
        progs = batches[b]
        paths = {runner.write(p.text()): p for p in progs}
        results = runner.run_all(list(paths))
        bad = [(paths[path], res) for path, res in results.items() if not agrees(res, paths[path].expected())]
        for prog, res in sorted(bad, key=lambda x: x[0].pid):
            found.append((f"program {prog.pid}", prog.text(), res, prog.expected()))
            one = {runner.write(prog.text(eval_indices=[i])): i for i in range(len(prog.evals))}
            for path, res1 in runner.run_all(list(one)).items():
                i = one[path]
                if not agrees(res1, prog.expected([i])):
                    found.append((f"program {prog.pid}, directive {i + 1} alone", prog.text(eval_indices=[i]),
                                  res1, prog.expected([i])))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("thorin")
    ap.add_argument("--count", type=int, help="programs (default 150; an eighth sanitized)")
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
        a.count = thorin.scaled(exe, 150)

    t0 = time.monotonic()
    progs = data_programs.generate(a.count, a.seed)
    batches = [progs[i:i + a.per_file] for i in range(0, len(progs), a.per_file)]
    nevals = sum(len(p.evals) for p in progs)
    print(f"generated {len(progs)} programs ({nevals} directives) in {time.monotonic() - t0:.1f} s, "
          f"seed {a.seed}, {len(batches)} files")
    off = [s for s in SWITCHES if not getattr(data_programs, s)]
    if off:
        print(f"left out (known thorin bugs, data_programs.py): {', '.join(off)}")

    workdir = a.keep or tempfile.mkdtemp(prefix="thorin_data_diff_")
    os.makedirs(workdir, exist_ok=True)
    try:
        runner = Runner(exe, workdir, a.jobs)
        paths = []
        for b, chunk in enumerate(batches):
            path = os.path.join(workdir, f"batch_{b:03d}.thorin")
            with open(path, "w", encoding="utf-8") as f:
                f.write(data_programs.batch_text(chunk))
            with open(path[:-len(".thorin")] + ".expected", "w", encoding="utf-8") as f:
                f.write("".join(p.expected() for p in chunk))
            paths.append(path)
        results = runner.run_all(paths, BATCH_TIMEOUT)
        for i, (name, _args) in enumerate(MODES):
            total = sum(results[p][i][3] for p in paths)
            slowest = max(results[p][i][3] for p in paths)
            print(f"{name}: {total:.1f} s in total over {len(paths)} files (slowest {slowest:.1f} s)")
        failing = [b for b, p in enumerate(paths)
                   if not agrees(results[p], "".join(q.expected() for q in batches[b]))]
        if not failing:
            print(f"ok: all {len(paths)} files agree in the {len(MODES)} modes and with the expected output")
            return 0

        print(f"FAIL: {len(failing)} of {len(paths)} files disagree with the expected output")
        for b in failing:
            expected = "".join(p.expected() for p in batches[b])
            print(f"  {os.path.basename(paths[b])} (programs {batches[b][0].pid}-{batches[b][-1].pid}): "
                  + describe(results[paths[b]], expected))
        # Files where the modes disagree with each other first: those are JIT bugs.
        failing.sort(key=lambda b: not modes_disagree(results[paths[b]]))
        found = failing_programs(runner, batches, failing)
        if found:
            print(f"failing programs in the first {min(2, len(failing))} failing files:")
            for title, _text, res, expected in found:
                print(f"  {title}: {describe(res, expected)}")
            title, text, res, expected = min(found, key=lambda f: (not modes_disagree(f[2]), len(f[1])))
            report(f"smallest failing program ({title})", text, res, expected)
        else:
            report_batch(paths[failing[0]], batches[failing[0]], results[paths[failing[0]]])
        switches = "".join(f" --with {sw}" for sw in SWITCHES if getattr(data_programs, sw))
        print(f"reproduce: {os.path.basename(sys.argv[0])} THORIN --count {a.count} --seed {a.seed} "
              f"--per-file {a.per_file}{switches} --keep DIR")
        return 1
    finally:
        if not a.keep:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
