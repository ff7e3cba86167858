#!/usr/bin/env python3
"""The JIT does not change what a program prints: every tests/golden/*.thorin
(and *.stt) and examples/*.thorin gives the same output and exit status under
`thorin run --jit=off`, `--jit=eager`, `--jit=lazy --jit-threshold 2` and
`--jit=baseline --jit-threshold 2` (under the sanitizers, `--jit=off` and the
lazy mode only: at threshold 2 it compiles the same functions with LLVM as
`--jit=eager`, after baseline code for them — CI's 30 minutes do not hold
the other modes there, whose code the sanitized differential tests run).

  test_jit_modes.py THORIN [ROOT]      (ROOT: the repository, by default this script's)
"""
import concurrent.futures
import difflib
import glob
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402

MODES = [["--jit=off"], ["--jit=eager"], ["--jit=lazy", "--jit-threshold", "2"],
         ["--jit=baseline", "--jit-threshold", "2"]]


def run(exe, flags, path):
    r = thorin.run(exe, "run", *flags, os.path.basename(path), cwd=os.path.dirname(path), merge=True,
                   timeout=300)
    return "[timeout]\n" if r.timed_out else r.out + f"[exit {r.code}]\n"


def main():
    exe = thorin.binary()
    root = sys.argv[2] if len(sys.argv) > 2 else \
        os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    files = sorted(glob.glob(os.path.join(root, "tests/golden/*/*.thorin")) +
                   glob.glob(os.path.join(root, "tests/golden/*/*.stt")) +
                   glob.glob(os.path.join(root, "examples/*.thorin")))
    if not files:
        print(f"no programs under {root}")
        return 1
    modes = [MODES[0], MODES[2]] if thorin.sanitized(exe) else MODES
    with concurrent.futures.ThreadPoolExecutor(min(os.cpu_count() or 2, 4)) as pool:
        outs = {(f, i): pool.submit(run, exe, flags, f) for f in files for i, flags in enumerate(modes)}
        outs = {k: v.result() for k, v in outs.items()}
    bad = 0
    for f in files:
        base = outs[(f, 0)]
        for i in range(1, len(modes)):
            if outs[(f, i)] != base:
                bad += 1
                rel = os.path.relpath(f, root)
                print(f"FAIL: {rel}: `run {' '.join(modes[i])}` differs from `run {' '.join(modes[0])}`")
                sys.stdout.writelines(difflib.unified_diff(
                    base.splitlines(True), outs[(f, i)].splitlines(True),
                    " ".join(modes[0]), " ".join(modes[i])))
    print(f"{len(files)} programs, {len(modes)} modes: " + ("ok" if not bad else f"{bad} differences"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
