#!/usr/bin/env python3
"""Input nested deeper than the stack allows is a located error, not a crash:
100,000 parentheses, λs, nested arrays and ×s with a 16 MB elaboration stack.
And inputs that took exponential or quadratic time parse in linear time."""
import os
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402


def main():
    exe = thorin.binary()
    n = 100_000
    cases = {
        "parens": ".eval " + "(" * n + "1" + ")" * n + "\n",
        "lambdas": "f : U = " + "(λ y. " * n + "y" + ")" * n + "\n",
        "arrays": ".eval " + "[" * n + "1" + "]" * n + "\n",
        # (the parser recursed on × outside its depth check: a crash; a
        # million, as a level of this chain may take less than 16 MB / 100,000)
        "sigmas": "x : U = " + " × ".join(["U"] * (10 * n)) + "\n",
    }
    with tempfile.TemporaryDirectory() as d:
        for name, text in cases.items():
            path = os.path.join(d, name + ".thorin")
            with open(path, "w") as f:
                f.write(text)
            r = thorin.run(exe, "check", path, merge=True, stack_mb=16, timeout=120)
            first = r.out.splitlines()[0] if r.out else ""
            if r.code != 1 or "error: this expression is nested too deeply to parse" not in first \
                    or not first.startswith(path + ":1:"):
                print(f"FAILED: {name}: exit {r.code}, first line: {first[:200]}")
                return 1
    # Inputs that used to take exponential or quadratic time: nested
    # annotations (each tried as a telescope first), and an unknown name of
    # 100,000 characters (the "did you mean" edit distance).
    slow = {
        "annotations": ("a : U = U\nx = " + "(a : " * 60 + "U" + ")" * 60 + "\n", 0, ""),
        "long name": ("y : U = " + "b" * 100_000 + "\n", 1, "error: unknown name"),
    }
    with tempfile.TemporaryDirectory() as d:
        for name, (text, code, want) in slow.items():
            path = os.path.join(d, "t.thorin")
            with open(path, "w") as f:
                f.write(text)
            r = thorin.run(exe, "check", path, merge=True, timeout=20)
            if r.code != code or want not in r.out:
                print(f"FAILED: {name}: exit {r.code}: {r.out[:200]}")
                return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
