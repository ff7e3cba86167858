#!/usr/bin/env python3
"""Golden test runner: runs thorin on a file and compares the exact output.

  run_golden.py --thorin BIN check FILE.thorin     # `thorin check FILE`, expects FILE.out
  run_golden.py --thorin BIN repl FILE.in          # REPL fed with FILE.in, expects FILE.out

The expected file holds stdout and stderr interleaved as printed, then a line
`[exit N]`. An optional first line `-- args: …` in the input adds command-line
arguments (for repl tests: the files to load). `--update` rewrites the
expected file instead of comparing.
"""
import argparse
import difflib
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import thorin  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--thorin", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--expected", help="expected-output file (default: input with .out)")
    ap.add_argument("--program-args", default="", help="run mode: arguments for the program")
    ap.add_argument("--plugin-path", help="THORIN_PLUGIN_PATH for the run")
    ap.add_argument("--stdin", help="run mode: a file fed to the program's standard input")
    ap.add_argument("mode", choices=["check", "repl", "run"])
    ap.add_argument("file")
    a = ap.parse_args()
    a.thorin = os.path.abspath(a.thorin)

    directory, name = os.path.split(os.path.abspath(a.file))
    with open(a.file, encoding="utf-8", errors="replace") as f:  # (tests of invalid UTF-8)
        first = f.readline()
    extra = first.split(":", 1)[1].split() if first.startswith("-- args:") else []
    env = {"THORIN_PLUGIN_PATH": os.path.abspath(a.plugin_path)} if a.plugin_path else None
    # Paths of this machine in messages (the plugin path): the build
    # directory (the executable's) and the tree above it.
    build = os.path.dirname(a.thorin)
    tree = os.path.dirname(build)

    def run(args, stdin=None):
        r = thorin.run(a.thorin, *args, cwd=directory, input=stdin, merge=True, env=env)
        if r.timed_out:
            return r.out + f"[killed after {thorin.TIMEOUT} s]\n"
        out = r.out + f"[exit {r.code}]\n"
        out = out.replace(build + "/", "<build>/").replace(tree + "/", "<tree>/")
        # Reload summaries say how long they took: that varies.
        return re.sub(r"^(reloaded .*) in [0-9.]+(µs|ms|s)$", r"\1 in <time>", out, flags=re.M)

    if a.mode == "check":
        actual = run(["check", *extra, name])
    elif a.mode == "repl":
        with open(a.file, "rb") as stdin:
            actual = run(extra, stdin.read())
    else:
        # `thorin run` in every JIT mode: the outputs must be identical.
        modes = thorin.JIT_MODES
        prog = a.program_args.split()
        # (FILE.stdin beside a run test is its standard input.)
        stdin_path = a.stdin or os.path.splitext(a.file)[0] + ".stdin"
        stdin = open(stdin_path, "rb").read() if os.path.exists(stdin_path) else None
        outs = [run(["run", *m, *extra, name, *prog], stdin) for m in modes]
        for m, o in zip(modes[1:], outs[1:]):
            if o != outs[0]:
                print(f"output with {' '.join(m)} differs from --jit=off:")
                sys.stdout.writelines(difflib.unified_diff(
                    outs[0].splitlines(True), o.splitlines(True), "--jit=off", " ".join(m)))
                return 1
        actual = outs[0]
    expected_path = a.expected or os.path.splitext(a.file)[0] + ".out"
    if a.update:
        with open(expected_path, "w", encoding="utf-8") as f:
            f.write(actual)
        return 0
    try:
        with open(expected_path, encoding="utf-8") as f:
            expected = f.read()
    except FileNotFoundError:
        print(f"missing expected output {expected_path}; actual output:\n{actual}")
        return 1
    if actual == expected:
        return 0
    sys.stdout.writelines(difflib.unified_diff(
        expected.splitlines(True), actual.splitlines(True), "expected", "actual"))
    return 1


if __name__ == "__main__":
    sys.exit(main())
