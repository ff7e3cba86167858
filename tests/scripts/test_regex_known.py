#!/usr/bin/env python3
"""The regex plugin's matchers for patterns known to compiled code
(plugins/regex/known.cpp): one per distinct pattern, shared by the code that
uses it, and gone with the last of that code — a definition redefined at
the prompt drops its code, so its pattern is compiled again for the new
code; another function with the same pattern shares the matcher. Every
function compiled by LLVM before it runs (--jit=eager --no-baseline);
under the sanitizers a matcher used after it went would be reported.

  test_regex_known.py THORIN
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402

SESSION = """.plugin regex
f : String → Bool = λ s. matches (re "a+") s
:eval f "aa"
f : String → Bool = λ s. matches (re "a+") s
:eval f "b"
g : String → Bool = λ s. matches (re "a+") s
:eval g "aaa"
:eval f "a"
h : String → Nat = λ s. count (re "[0-9]+") s
:eval h "1 22 x 333"
"""


def main():
    exe = thorin.binary()
    r = thorin.run(exe, "--jit=eager", "--no-baseline", "--no-code-cache", "--jit-stats",
                   input=SESSION)
    values = [l for l in r.out.splitlines() if l.strip()]
    made = [l for l in r.err.splitlines() if "compiled for code" in l]
    want_values = ["true", "false", "true", "true", "3"]
    ok = r.code == 0 and values == want_values and \
        [l.split()[2] for l in made] == ["a+", "a+", "[0-9]+"]
    if not ok:
        print(f"FAILED: exit {r.code}\nvalues {values} (want {want_values})\n"
              f"compiled for code: {made}\n{r.err[-2000:]}")
        return 1
    print("a matcher per pattern, shared, made again after its code was dropped: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
