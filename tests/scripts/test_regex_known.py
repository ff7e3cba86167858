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


# Code compiled against a function goes with it: g calls f, so redefining f
# drops g's code too, and g's pattern is made again for its new code; a
# pattern is made again once the last code holding it is gone.
DEPENDENTS = """.plugin regex
f : String → Bool = λ s. matches (re "a+") s
g : String → Bool = λ s. if matches (re "b+") s then true else f s
:eval g "aa"
f : String → Bool = λ s. matches (re "a+c") s
:eval g "bb"
g : String → Bool = λ s. matches (re "c+") s
:eval g "cc"
g : String → Bool = λ s. matches (re "d+") s
:eval g "dd"
k : String → Bool = λ s. matches (re "b+") s
:eval k "bb"
k2 : String → Bool = λ s. matches (re "c+") s
:eval k2 "cc"
"""


def session(exe, text, want_values, want_made):
    r = thorin.run(exe, "--jit=eager", "--no-baseline", "--no-code-cache", "--jit-stats",
                   input=text)
    values = [l for l in r.out.splitlines() if l.strip()]
    made = [l.split()[2] for l in r.err.splitlines() if "compiled for code" in l]
    if r.code == 0 and values == want_values and made == want_made:
        return True
    print(f"FAILED: exit {r.code}\nvalues {values} (want {want_values})\n"
          f"compiled for code: {made} (want {want_made})\n{r.err[-2000:]}")
    return False


def main():
    exe = thorin.binary()
    if not session(exe, SESSION, ["true", "false", "true", "true", "3"], ["a+", "a+", "[0-9]+"]):
        return 1
    if not session(exe, DEPENDENTS, ["true"] * 6, ["b+", "a+", "b+", "c+", "d+", "b+", "c+"]):
        return 1
    print("a matcher per pattern, shared, made again after its code was dropped: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
