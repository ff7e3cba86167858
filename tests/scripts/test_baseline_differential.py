#!/usr/bin/env python3
"""Differential test of the baseline JIT tier (jit/baseline.cpp,
plugins/core/baseline_lower.cpp) on random programs made of first-order I64
functions, the fragment it compiles.

  test_baseline_differential.py THORIN [--seed S] [--count N] [--per-file K]
      [--hot H] [--errors E] [--stacks S] [--jobs J] [--keep DIR]

Programs (fixed seed): tests/lib/gen/loops.py, the first-order family's I64
variant (its docstring lists what the bodies mix): 3-5 functions of 1-4 I64
parameters and a driver, of the kinds plain, fuel, loop, deep (.eval'd up
to 20,000 deep) and driver. Each function is .eval'd directly (edge values
as arguments: the entry's unboxing and boxing) and through the driver; with
`--jit-threshold 1` every function is compiled at its first call.

The model of tests/lib/gen (strict, left to right, I64 wrapping, `/` and `%`
truncating, INT64_MIN / -1 = INT64_MIN, INT64_MIN % -1 = 0: core_model.py)
runs every .eval under a step budget; a function is drawn again until one
of its .evals succeeds. .evals over budget are dropped, and those that
divide by zero are set apart.

Files of K programs, and the checks:
- ordinary files, and error files (three programs, then a program whose
  .eval divides by zero deepest in its calls, that .eval last), run as
    THORIN run --jit=off FILE                                (the reference)
    THORIN run --jit=baseline --jit-threshold 1 --jit-stats FILE
    THORIN run --jit=lazy --jit-threshold 1 --jit-stats FILE
    THORIN run --jit=eager FILE
  stdout, stderr (but `jit:` lines) and exit status must be equal to the
  reference's, and the reference's stdout must be the model's values (and an
  error file must end with the model's error, exit status 2);
- hot files: the same, of programs whose divisors are never 0, then a long
  .eval of each driver (not run by the model; about 0.1 s of baseline code
  in all, several seconds interpreted), so that lazy mode moves over to
  LLVM's code while baseline code runs;
- stack files: an ordinary program, then a division-free `deep` .eval'd
  100,000,000 deep, run with a 32 MB stack in --jit=off and --jit=baseline
  only, which must agree (on "the program recursed too deeply"): LLVM's
  code may run such a recursion in constant stack (docs/runtime.md);
- coverage: at least 80 % of the functions must have baseline code (named
  in a `jit: baseline code for NAME` line of the --jit=baseline runs, or
  called by one: a module gets code for all its functions or none), so the
  test cannot silently stop exercising the tier.
A file where a mode disagrees with the reference is shrunk (programs, then
definitions and .evals, while the same two modes still disagree; for at
most SHRINK_BUDGET seconds) and the smallest failing file is printed with
all outputs. A run over RUN_TIMEOUT is reported as such, unshrunk. Under
the sanitizers (`thorin --version` says so) the hot files' long .evals
take a quarter of the steps. Exit status 1 on any failure.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin as thorin_exe  # noqa: E402
from gen import first_order, loops  # noqa: E402
from gen.rng import Rng  # noqa: E402
from gen.terms import call  # noqa: E402

HOT_STEPS = 1_320_000_000    # model steps (first_order.py), estimated, of a hot file's long `.eval`s
SANITIZED_SLOWDOWN = 4       # a sanitized build interprets the hot files ~5x slower: fewer steps
STACK_DEPTH = 100_000_000    # the stack files' recursion

MODES = {
    "off": ["--jit=off"],
    "baseline": ["--jit=baseline", "--jit-threshold", "1", "--jit-stats"],
    "lazy": ["--jit=lazy", "--jit-threshold", "1", "--jit-stats"],
    "eager": ["--jit=eager"],
}
STACK_MODES = ["off", "baseline"]
STACK_ENV = {"THORIN_STACK_MB": "32"}
RUN_TIMEOUT = 60              # seconds per run (the slowest, a hot file interpreted, takes ~8;
                              # under the sanitizers, with a quarter of the steps, ~10)
SHRINK_BUDGET = 300           # seconds of shrinking per failing file; then the smallest so far


# ---------------------------------------------------------------- files and runs

def stack_program(rng, pid):
    """A division-free `deep` function alone (it can only fail by exhausting
    the stack), .eval'd shallowly, then STACK_DEPTH deep."""
    prog = first_order.gen_program(rng, pid, loops, kinds=["deep"], divisions="none")
    fn = prog.fns[0]
    return prog, call(fn.name, loops.num(STACK_DEPTH), *loops.eval_args(rng, prog, fn)[1:])


class Case:
    """A file: entries (text, expected stdout line or None) grouped by
    program, the modes it runs in, what its reference run must end with
    (error: (message, model's call depth) or None), and whether unchecked
    output follows the expected (tail: the hot files' long .evals)."""

    def __init__(self, name, progs, groups, modes, env=None, error=None, tail=False):
        self.name, self.groups, self.modes, self.env, self.error = name, groups, modes, env or {}, error
        self.tail = tail
        self.fns = [fn for p in progs for fn in p.fns]
        self.globs = {d.name for p in progs for d in p.globs}

    def entries(self):
        return [e for g in self.groups for e in g]


def batches_and_hot(a, rng, variant, fresh, **hot):
    """a.count ordinary programs of the first-order family's variant in files
    of a.per_file, and a.hot hot files (first: they take longest) of programs
    that cannot divide by zero (`hot`: more options of gen_program), then a
    long run of each driver. The ordinary programs and the files."""
    ordinary = [first_order.gen_program(rng, next(fresh), variant) for _ in range(a.count)]
    cases = []
    for k in range(0, len(ordinary), a.per_file):
        chunk = ordinary[k:k + a.per_file]
        cases.append(Case(f"batch_{k // a.per_file:03d}", chunk, [p.entries() for p in chunk], list(MODES)))
    for k in range(a.hot):
        chunk = [first_order.gen_program(rng, next(fresh), variant, divisions="safe", **hot)
                 for _ in range(a.per_file)]
        tail = [p.long_eval(a.hot_steps // len(chunk)) for p in chunk]
        groups = [p.entries() for p in chunk] + [tail]
        cases.insert(k, Case(f"hot_{k}", chunk, groups, list(MODES), tail=True))
    return ordinary, cases


def generate(a, rng):
    """The programs and the files (Cases)."""
    fresh = iter(range(10 ** 6))
    ordinary, cases = batches_and_hot(a, rng, loops, fresh)
    # Error files: three new programs, then an ordinary program whose error
    # is among the deepest, its failing .eval last.
    errs = sorted(((e[2], rng.random(), p, e) for p in ordinary for e in p.errors),
                  key=lambda t: t[:2], reverse=True)
    used = []
    for _depth, _r, p, (c, msg, depth) in errs:
        if len(used) < a.errors and p not in used:
            used.append(p)
            chunk = [first_order.gen_program(rng, next(fresh), loops) for _ in range(3)]
            cases.append(Case(f"error_{len(used) - 1}", chunk + [p],
                              [q.entries() for q in chunk] + [p.entries(c)], list(MODES),
                              error=(msg, depth)))
    for k in range(a.stacks):
        q = first_order.gen_program(rng, next(fresh), loops)
        sp, call = stack_program(rng, next(fresh))
        cases.append(Case(f"stack_{k}", [q, sp], [q.entries(), sp.entries(call)], STACK_MODES,
                          env=STACK_ENV, error=("the program recursed too deeply", None)))
    return cases


def run(thorin, path, flags, env, timeout):
    """(exit status, stdout, stderr without `jit:` lines, raw stderr, seconds)
    of `thorin run FLAGS FILE` in FILE's directory."""
    r = thorin_exe.run(thorin, "run", *flags, os.path.basename(path), cwd=os.path.dirname(path),
                       timeout=timeout, env=env)
    if r.timed_out:
        killed = f"[killed after {timeout:.0f} s]\n"
        return "timeout", "", killed, killed, r.seconds
    return r.code, r.out, thorin_exe.without_jit_lines(r.err), r.err, r.seconds


class Runner:
    """Runs files in several modes on a thread pool."""

    def __init__(self, thorin, workdir, pool):
        self.thorin, self.workdir, self.pool, self.n = thorin, workdir, pool, 0

    def submit(self, case, entries, modes, timeout=RUN_TIMEOUT):
        """Writes the entries to a new directory's test.thorin (the name in
        error messages) and starts its runs: (text, {mode: future})."""
        self.n += 1
        d = os.path.join(self.workdir, f"{case.name}_{self.n:04d}")
        os.makedirs(d)
        path, text = os.path.join(d, "test.thorin"), "".join(t for t, _ in entries)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return text, {m: self.pool.submit(run, self.thorin, path, MODES[m], case.env, timeout) for m in modes}

    def run(self, case, entries, modes, timeout=RUN_TIMEOUT):
        text, futs = self.submit(case, entries, modes, timeout)
        return text, {m: f.result() for m, f in futs.items()}


def differing(results):
    """The modes whose (exit status, stdout, stderr) differ from --jit=off's."""
    return [m for m in results if results[m][:3] != results["off"][:3]]


def shrink(items, still_fails):
    """ddmin: removes chunks of items while still_fails holds."""
    n = 2
    while len(items) >= 2:
        chunk = -(-len(items) // n)
        for start in range(0, len(items), chunk):
            cand = items[:start] + items[start + chunk:]
            if still_fails(cand):
                items, n = cand, max(n - 1, 2)
                break
        else:
            if n >= len(items):
                break
            n = min(len(items), 2 * n)
    return items


def show_outputs(text, results):
    print("---- program")
    sys.stdout.write(text)
    for m, (rc, out, _err, raw, _t) in results.items():
        print(f"---- thorin run {' '.join(MODES[m])}: exit {rc}")
        sys.stdout.write(out)
        if raw:
            print("---- (stderr)")
            sys.stdout.write(raw)


def check(runner, case, text, res):
    """Prints what is wrong with a case's results; False if anything is."""
    bad = differing(res)
    rc, out, err, _raw, _t = res["off"]
    expected = "".join(line for _t, line in case.entries() if line)
    if case.error:
        model_ok = rc == 2 and out == expected and f"error: {case.error[0]}" in err
    else:
        model_ok = rc == 0 and not err and (out.startswith(expected) if case.tail else out == expected)
    if not bad and model_ok:
        return True
    if not bad:
        want, got = expected.splitlines(True), out.splitlines(True)
        i = next((i for i in range(len(want)) if i >= len(got) or got[i] != want[i]), len(want))
        print(f"==== {case.name}: the modes agree, but --jit=off is not what the model says: "
              f"first difference at line {i + 1}, expected {want[i:i + 1]}"
              + (f" and exit 2 with '{case.error[0]}'" if case.error else " and exit 0"))
        show_outputs(text, {"off": res["off"]})
        return False
    slow = [m for m in res if res[m][0] == "timeout"]
    if slow:
        # Not shrunk: every part of the file may time out again.
        print(f"==== {case.name}: {', '.join('--jit=' + m for m in slow)} took over {RUN_TIMEOUT} s")
        show_outputs(text, res)
        return False
    print(f"==== {case.name}: {', '.join('--jit=' + m for m in bad)} disagree with --jit=off")
    # Shrinking: runs of part of the file, in the two modes; one that takes
    # far longer than the whole file interpreted has gone wrong. Past the
    # budget, every candidate counts as passing, so ddmin ends at once.
    pair, timeout = ["off", bad[0]], min(RUN_TIMEOUT, 5 + 2 * res["off"][4])
    deadline = time.monotonic() + SHRINK_BUDGET

    def still_fails(entries):
        if time.monotonic() > deadline:
            return False
        return bool(differing(runner.run(case, entries, pair, timeout)[1]))
    if not still_fails(case.entries()):
        print("(not again in a second run: the first run's outputs follow)")
        show_outputs(text, res)
        return False
    groups = shrink(case.groups, lambda gs: still_fails([e for g in gs for e in g]))
    entries = shrink([e for g in groups for e in g], still_fails)
    text, small = runner.run(case, entries, case.modes, timeout)
    print(f"smallest failing file{' (shrinking ran out of time)' if time.monotonic() > deadline else ''}: "
          f"{len(entries)} of {len(case.entries())} definitions and .evals")
    show_outputs(text, small)
    return False


def coverage(cases, results):
    """(functions with baseline code, all functions): those named in the
    --jit=baseline runs' stats, and what they call."""
    fns = {fn.name: fn for c in cases for fn in c.fns}
    todo = [n for c in cases
            for n in re.findall(r"^jit: baseline code for (\S+) in ", results[c.name]["baseline"][3], re.M)]
    covered = set()
    while todo:
        n = todo.pop()
        if n in fns and n not in covered:
            covered.add(n)
            todo.extend(fns[n].callees())
    return covered, fns


def generated(a, generate):
    """The cases generate(a, rng) makes from seed a.seed."""
    return first_order.deep(lambda: generate(a, Rng(a.seed)))


def run_all(a, cases, workdir, t0):
    """Runs every case in its modes (a.jobs at a time) and checks them:
    (all agree, results per case and mode, seconds from t0 to the last run)."""
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        runner = Runner(os.path.abspath(a.thorin), workdir, pool)
        started = {c.name: runner.submit(c, c.entries(), c.modes) for c in cases}
        results = {name: {m: f.result() for m, f in futs.items()} for name, (_t, futs) in started.items()}
        t_run = time.monotonic() - t0
        times = {m: sum(r[m][4] for r in results.values() if m in r) for m in MODES}
        print("seconds per mode: " + ", ".join(f"{m} {t:.1f}" for m, t in times.items()))
        ok = all([check(runner, c, started[c.name][0], results[c.name]) for c in cases])
    return ok, results, t_run


def run_and_report(a, cases, t0, prefix, covers):
    """run_all in a scratch directory (a.keep: that one, kept), then
    covers(results) — the coverage check, which prints its report — and the
    verdict line; the exit status."""
    workdir = a.keep or tempfile.mkdtemp(prefix=prefix)
    os.makedirs(workdir, exist_ok=True)
    try:
        ok, results, t_run = run_all(a, cases, workdir, t0)
        ok = covers(results) and ok
    finally:
        if not a.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"{'ok' if ok else 'FAIL'}: {len(cases)} files; all runs done at {t_run:.1f} s, "
          f"{time.monotonic() - t0:.1f} s in all")
    return 0 if ok else 1


def arguments(doc, seed, count, per_file, hot, errors, hot_steps, more=None):
    """The options of both differential tests (their defaults differ; `more`
    adds a test's own), and a.hot_steps: the hot files' model steps for this
    build (fewer under the sanitizers, which interpret ~5x slower)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("thorin")
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--count", type=int, help=f"ordinary programs (default {count}; an eighth sanitized)")
    ap.add_argument("--per-file", type=int, default=per_file, help=f"programs per file (default {per_file})")
    ap.add_argument("--hot", type=int, default=hot, help=f"hot files (default {hot})")
    ap.add_argument("--errors", type=int, default=4, help=f"files ending in {errors} (default 4)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="write the files into this directory and keep them")
    if more:
        more(ap)
    a = ap.parse_args()
    if a.count is None:
        a.count = thorin_exe.scaled(a.thorin, count)
    a.hot_steps = hot_steps // (SANITIZED_SLOWDOWN if thorin_exe.sanitized(a.thorin) else 1)
    return a


def main():
    t0 = time.monotonic()
    a = arguments(__doc__, 20261122, 140, 8, 2, "a division error", HOT_STEPS,
                  lambda ap: ap.add_argument("--stacks", type=int, default=2,
                                             help="files ending in stack exhaustion (default 2)"))

    cases = generated(a, generate)
    depths = [str(c.error[1]) for c in cases if c.name.startswith("error")]
    print(f"seed {a.seed}: {len({fn.name for c in cases for fn in c.fns})} functions in {len(cases)} files "
          f"({a.hot} hot, {len(depths)} ending in a division error at call depth {', '.join(depths)}, "
          f"{a.stacks} in stack exhaustion), generated in {time.monotonic() - t0:.1f} s")

    def covers(results):
        covered, fns = coverage(cases, results)
        share = len(covered) / len(fns)
        print(f"baseline code for {len(covered)} of {len(fns)} functions ({100 * share:.1f} %)")
        if share >= 0.8:
            return True
        missing = sorted(set(fns) - covered)
        print(f"FAIL: under 80 % of the functions got baseline code; not: {' '.join(missing[:20])}")
        print(fns[missing[0]].definition().render())
        return False

    return run_and_report(a, cases, t0, "thorin_baseline_diff_", covers)


if __name__ == "__main__":
    sys.exit(main())
