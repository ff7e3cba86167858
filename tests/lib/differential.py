"""The machinery of the differential tests on generated programs
(tests/scripts/test_differential.py, test_data_differential.py): run files
of programs in several modes of thorin, compare the outputs with each other
and with the output the generator computed, and on a failure narrow it down
to the smallest failing program and print it.

  d = differential.Differential(MODES, unit=".eval", ...)
  batches = d.generate(typed_program, count, seed, per_file)
  status = d.check(exe, jobs, batches, typed_program.batch_text, keep, "thorin_diff_")

A mode is (name, ARGS): a file is run as `thorin ARGS FILE`. A program
(from a generator module's `generate(count, seed)`) has `.pid`, `.evals`
(its output directives, one output line each), `.text(eval_indices=None)`
(the program, or only the directives given with what they need) and
`.expected(eval_indices=None)` (their output).
"""
import concurrent.futures
import os
import shutil
import sys
import tempfile
import time

import thorin


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


def modes_disagree(results):
    return len({(rc, out) for rc, out, _e, _t in results}) > 1


def never_warned(err):
    return False


class Differential:
    """What the two tests differ in.

    modes: [(name, ARGS)], each file is run as `thorin ARGS FILE`;
    warned(err): a run whose stderr has a warning the generator should
      have avoided fails although its output is right ("warns");
    unit: what a program's `.evals` are called in the messages (".eval",
      "directive"), plural with an "s";
    batch_timeout, single_timeout: seconds for a file of programs and for
      one program (hang detectors);
    modes_in_words: how the "ok:" line counts the modes (default: the number).
    """

    def __init__(self, modes, *, unit, batch_timeout, single_timeout, warned=never_warned,
                 modes_in_words=None):
        self.modes, self.unit, self.warned = modes, unit, warned
        self.batch_timeout, self.single_timeout = batch_timeout, single_timeout
        self.modes_in_words = modes_in_words or str(len(modes))

    def agrees(self, results, expected):
        return all(rc == 0 and out == expected and not self.warned(err) for rc, out, err, _t in results)

    def describe(self, results, expected):
        """One line on how the runs went wrong."""
        kind = "THE MODES DISAGREE" if modes_disagree(results) else "the modes agree with each other"
        parts = []
        for (name, _a), (rc, out, err, _t) in zip(self.modes, results):
            msg = next((line for line in err.splitlines() if line.strip()), "")
            if rc == 0 and out == expected:
                state = "warns" if self.warned(err) else "ok"
            else:
                state = f"exit {rc}" + (", wrong output" if rc == 0 else "")
            parts.append(f"{name}: {state}" + (f" ({msg[:100]})" if msg and state != "ok" else ""))
        return f"{kind}; " + "; ".join(parts)

    def report(self, title, text, results, expected):
        print(f"==== {title}")
        print("---- program")
        sys.stdout.write(text)
        print("---- expected")
        sys.stdout.write(expected)
        for (name, args), (rc, out, err, _t) in zip(self.modes, results):
            print(f"---- thorin {' '.join(args)}: exit {rc}" + ("" if out == expected else "  (differs)"))
            sys.stdout.write(clip(out) if out else "")
            if err:
                print("---- (stderr)")
                sys.stdout.write(clip(err))

    def report_batch(self, path, progs, results):
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
        for (name, args), (rc, out, err, _t) in zip(self.modes, results):
            print(f"---- thorin {' '.join(args)}: exit {rc}, lines {lo + 1}-{hi} of {len(out.splitlines())}")
            sys.stdout.write("".join(out.splitlines(True)[lo:hi]))
            if err:
                print("---- (stderr)")
                sys.stdout.write(clip(err))

    def generate(self, gen, count, seed, per_file):
        """gen.generate(count, seed) in batches of per_file programs."""
        t0 = time.monotonic()
        progs = gen.generate(count, seed)
        batches = [progs[i:i + per_file] for i in range(0, len(progs), per_file)]
        nevals = sum(len(p.evals) for p in progs)
        print(f"generated {len(progs)} programs ({nevals} {self.unit}s) in {time.monotonic() - t0:.1f} s, "
              f"seed {seed}, {len(batches)} files")
        return batches

    def failing_programs(self, runner, batches, failing, limit=2):
        """Splits the first `limit` failing batches into programs, and each failing
        program into single `.evals` (directives, with the entries they need).
        Returns [(title, text, results, expected)]."""
        found = []
        for b in failing[:limit]:
            progs = batches[b]
            paths = {runner.write(p.text()): p for p in progs}
            results = runner.run_all(list(paths))
            bad = [(paths[path], res) for path, res in results.items()
                   if not self.agrees(res, paths[path].expected())]
            for prog, res in sorted(bad, key=lambda x: x[0].pid):
                found.append((f"program {prog.pid}", prog.text(), res, prog.expected()))
                one = {runner.write(prog.text(eval_indices=[i])): i for i in range(len(prog.evals))}
                for path, res1 in runner.run_all(list(one)).items():
                    i = one[path]
                    if not self.agrees(res1, prog.expected([i])):
                        found.append((f"program {prog.pid}, {self.unit} {i + 1} alone",
                                      prog.text(eval_indices=[i]), res1, prog.expected([i])))
        return found

    def check(self, exe, jobs, batches, batch_text, keep, prefix):
        """Writes the batches (batch_text(programs): a file's text) into `keep`
        or a temporary directory named prefix…, runs them in every mode and
        reports. Returns the exit status: 0 if all agree, else 1 (the caller
        prints how to reproduce)."""
        workdir = keep or tempfile.mkdtemp(prefix=prefix)
        os.makedirs(workdir, exist_ok=True)
        try:
            runner = Runner(self, exe, workdir, jobs)
            paths = []
            for b, chunk in enumerate(batches):
                path = os.path.join(workdir, f"batch_{b:03d}.thorin")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(batch_text(chunk))
                with open(path[:-len(".thorin")] + ".expected", "w", encoding="utf-8") as f:
                    f.write("".join(p.expected() for p in chunk))
                paths.append(path)
            results = runner.run_all(paths, self.batch_timeout)
            for i, (name, _args) in enumerate(self.modes):
                total = sum(results[p][i][3] for p in paths)
                slowest = max(results[p][i][3] for p in paths)
                print(f"{name}: {total:.1f} s in total over {len(paths)} files (slowest {slowest:.1f} s)")
            failing = [b for b, p in enumerate(paths)
                       if not self.agrees(results[p], "".join(q.expected() for q in batches[b]))]
            if not failing:
                print(f"ok: all {len(paths)} files agree in the {self.modes_in_words} modes "
                      f"and with the expected output")
                return 0

            print(f"FAIL: {len(failing)} of {len(paths)} files disagree with the expected output")
            for b in failing:
                expected = "".join(p.expected() for p in batches[b])
                print(f"  {os.path.basename(paths[b])} (programs {batches[b][0].pid}-{batches[b][-1].pid}): "
                      + self.describe(results[paths[b]], expected))
            # Files where the modes disagree with each other first: those are JIT bugs.
            failing.sort(key=lambda b: not modes_disagree(results[paths[b]]))
            found = self.failing_programs(runner, batches, failing)
            if found:
                print(f"failing programs in the first {min(2, len(failing))} failing files:")
                for title, _text, res, expected in found:
                    print(f"  {title}: {self.describe(res, expected)}")
                title, text, res, expected = min(found, key=lambda f: (not modes_disagree(f[2]), len(f[1])))
                self.report(f"smallest failing program ({title})", text, res, expected)
            else:
                self.report_batch(paths[failing[0]], batches[failing[0]], results[paths[failing[0]]])
            return 1
        finally:
            if not keep:
                shutil.rmtree(workdir, ignore_errors=True)


class Runner:
    """Writes case files into workdir and runs them in every mode, `jobs` runs at a time."""

    def __init__(self, differential, thorin, workdir, jobs):
        self.modes, self.single_timeout = differential.modes, differential.single_timeout
        self.thorin, self.workdir, self.jobs = thorin, workdir, jobs
        self.n = 0

    def write(self, text):
        self.n += 1
        path = os.path.join(self.workdir, f"case_{self.n:05d}.thorin")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def run_all(self, paths, timeout=None):
        """{path: [result per mode]}, all runs in parallel (timeout: seconds
        per run, default the single program's)."""
        timeout = timeout or self.single_timeout
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
            futures = {(p, i): pool.submit(run, self.thorin, args, p, timeout)
                       for p in paths for i, (_name, args) in enumerate(self.modes)}
            return {p: [futures[(p, i)].result() for i in range(len(self.modes))] for p in paths}
