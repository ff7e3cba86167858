#!/usr/bin/env python3
"""Conversion checks decided by running code (core/unify.cpp convertClosed,
runtime/readback.cpp Runtime::convertible): a long conversion of two closed
terms is handed to the runtime, which may only answer "equal"; everything
else — different normal forms, erased types in them, postulates — goes back
to the evaluator, which decides and explains a failure exactly as with
--jit=off. Each file is checked with --jit=off and with the JIT; the outputs
must be identical, and --jit-stats must say which path each conversion took."""
import os
import re
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402
from gen import church  # noqa: E402
from gen.rng import Rng  # noqa: E402
from gen.terms import call  # noqa: E402
from gen.ty import Fun, show_ty  # noqa: E402

PRELUDE = """\
CNat : U = (N : U) → (N → N) → N → N
czero : CNat = λ N s z. z
csuc : CNat → CNat = λ n N s z. s (n N s z)
cadd : CNat → CNat → CNat = λ a b N s z. a N s (b N s z)
cmul : CNat → CNat → CNat = λ a b N s z. a N (b N s) z
Eq : (A : U) → A → A → U = λ A x y. (P : A → U) → P x → P y
refl : {A : U} → {x : A} → Eq A x x = λ P px. px
n2 : CNat = csuc (csuc czero)
n5 : CNat = csuc (csuc (csuc (csuc (csuc czero))))
n10 : CNat = cmul n2 n5
n10b : CNat = cmul n5 n2
n100 : CNat = cmul n10 n10b
n1k : CNat = cmul n10 n100
n1kb : CNat = cmul n100 n10b
-- a million: past the evaluator's budget of steps
n1M : CNat = cmul n1k n1k
n1Mb : CNat = cmul n1kb n1k
"""

CASES = {
    # equal: decided by running code
    "equal": ("conv : Eq CNat n1M n1Mb = refl\n", 0, ["decided by running code"]),
    # a small conversion stays with the evaluator, without a word
    "small": ("conv : Eq CNat n100 (cmul n2 (cmul n5 n10b)) = refl\n", 0, []),
    # different normal forms: the evaluator decides, with its own message
    "different": ("conv : Eq CNat n1M (csuc n1Mb) = refl\n", 1,
                  ["left to the evaluator (different normal forms)"]),
    # every erased type is the same run-time object, yet `f … CNat` and
    # `f … U` differ: never "equal" on erased parts
    "erased types": ("T : U = (F : U → U) → (CNat → (A : U) → F U) → F U\n"
                     "a : T = λ F f. f n1M CNat\n"
                     "b : T = λ F f. f n1Mb U\n"
                     "conv : Eq T a b = refl\n", 1,
                     ["left to the evaluator (types in the normal form)"]),
    # a postulate has no value to run
    "postulate": (".ax P : CNat\n"
                  "q : CNat = cadd P n1M\n"
                  "qb : CNat = cadd P n1Mb\n"
                  "conv : Eq CNat q qb = refl\n", 0,
                  ["left to the evaluator (the term uses a postulate)"]),
}


def check(exe, path, *args, steps=None):
    """`thorin check ARGS PATH` with THORIN_CONVERT_STEPS=steps (None: the
    default budget)."""
    r = thorin.run(exe, "check", *args, path, timeout=300, unset=["THORIN_CONVERT_STEPS"],
                   env={"THORIN_CONVERT_STEPS": str(steps)} if steps else None)
    return r.code, r.out, r.err


def random_programs(exe, d, count=150, seed=11):
    """Random closed conversions (numerals, booleans, pairs, functions: the
    Church family, tests/lib/gen/church.py) with THORIN_CONVERT_STEPS=1, so
    that every closed conversion goes to the runtime first: accepted and
    rejected exactly as by --jit=off."""
    rnd = Rng(seed)
    prelude = church.prelude_text() + ("Eq : (A : U) → A → A → U = λ A x y. (P : A → U) → P x → P y\n"
                                       "refl : {A : U} → {x : A} → Eq A x x = λ P px. px\n")
    by_code = equal = 0
    for n in range(count):
        g = church.ChurchGen(rnd)
        ty = rnd.choice([church.CN, church.CB, church.PAIR, Fun(church.CN, church.CN)])
        a = g.term(ty)
        how = rnd.randrange(3)
        if how == 0:  # the same expression
            b = a
        elif how == 1 and ty == church.CN:  # equal by commutativity, on closed numerals
            x, y = g.nat(2, []), g.nat(2, [])
            a, b = call("cadd", x, y), call("cadd", y, x)
        else:  # independent: equal or not
            b = g.term(ty)
        t = show_ty(ty)
        text = prelude + f"a : {t} = {a.text()}\nb : {t} = {b.text()}\nconv : Eq ({t}) a b = refl\n"
        path = os.path.join(d, "conv.thorin")
        with open(path, "w") as f:
            f.write(text)
        rc0, out0, err0 = check(exe, path, "--jit=off")
        rc1, out1, err1 = check(exe, path, "--jit-stats", steps=1)
        strip = thorin.without_jit_lines
        if (rc0, out0, strip(err0)) != (rc1, out1, strip(err1)):
            print(f"random program {n}: the JIT's verdict differs from the evaluator's\n{text}")
            print(f"--jit=off: exit {rc0}\n{out0}{err0}\nJIT: exit {rc1}\n{out1}{err1}")
            return False
        by_code += "jit: conversion decided by running code" in err1
        equal += rc0 == 0
    print(f"random: {count} conversions, {equal} equal, {by_code} decided by running code: "
          "identical verdicts")
    if by_code < equal * 0.5:
        print("FAILED: too few conversions took the runtime's path")
        return False
    return True


def main():
    exe = thorin.binary()
    failed = False
    with tempfile.TemporaryDirectory() as d:
        failed |= not random_programs(exe, d, count=thorin.scaled(exe, 150))
        for name, (text, rc, notes) in CASES.items():
            path = os.path.join(d, "conv.thorin")
            with open(path, "w") as f:
                f.write(PRELUDE + text)
            rc0, out0, err0 = check(exe, path, "--jit=off", "--jit-stats")
            rc1, out1, err1 = check(exe, path, "--jit-stats")
            got = re.findall(r"^jit: conversion (.*)$", err1, re.M)
            problems = []
            if rc0 != rc or rc1 != rc:
                problems.append(f"exit {rc0} (--jit=off) and {rc1} (JIT), expected {rc}")
            messages = thorin.without_jit_lines
            if (out0, messages(err0)) != (out1, messages(err1)):
                problems.append(f"outputs differ:\n--jit=off:\n{out0}{err0}\nJIT:\n{out1}{err1}")
            if re.search(r"^jit: conversion", err0, re.M):
                problems.append("--jit=off ran code for a conversion")
            if got != notes:
                problems.append(f"--jit-stats says {got}, expected {notes}")
            if rc and not re.search(r"conv\.thorin:\d+:\d+: error: type mismatch\n", messages(err1)):
                problems.append(f"no located error message:\n{err1}")
            print(f"{name}: {'FAILED' if problems else 'ok'}")
            for p in problems:
                print("  " + p)
            failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
