#!/usr/bin/env python3
"""The generated benchmark workloads are right: each (small) workload
elaborates, and a deliberately wrong variant of each is rejected with a
located error (file:line:col: error: …, exit status 1)."""
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import gen  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402

SMALL = ["stlc", "stlcLessImpl", "stlcSmall", "stlc10k", "stlcLessImpl10k", "stlcSmall10k",
         "NatConv1M", "TreeConv15", "TreeConvM15", "ForceTree15", "idTest", "pairTest", "vecTest960"]


def check(exe, d, name, text):
    path = os.path.join(d, name + ".thorin")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    r = thorin.run(exe, "check", name + ".thorin", cwd=d, merge=True, timeout=600)
    return r.code, r.out


def main():
    exe = thorin.binary()
    ws = gen.workloads()
    wrong = gen.wrong_variants()
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        for name in SMALL:
            code, out = check(exe, d, name, gen.thorin_file(ws[name][0]))
            ok = code == 0 and out == ""
            if name in wrong:
                wcode, wout = check(exe, d, name + "_wrong", gen.thorin_file(wrong[name]))
                located = re.match(rf"{name}_wrong\.thorin:\d+:\d+: error: ", wout)
                ok = ok and wcode == 1 and located is not None
                print(f"{name:<16} elaborates: {code == 0}, wrong variant rejected: "
                      f"{wcode == 1 and located is not None} ({wout.splitlines()[0] if wout else ''})")
            if not ok:
                print(out[:1000])
                failures += 1
    print(f"{len(SMALL) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
