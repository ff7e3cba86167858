#!/usr/bin/env python3
"""Normal forms by running code against the evaluator, on random terms.

Random well-typed terms over Church numerals, booleans and pairs — closed
ones, functions of numerals, and open terms under `λ N s z` — are
normalized with `.nf` by `thorin check --jit=off` (the evaluator of core/)
and by `--jit=lazy --jit-threshold 1` (the runtime with neutral values,
compiled code from the first call, runtime/readback.cpp). The outputs must be
identical, and most directives must take the runtime's path.

  test_nf_differential.py THORIN [--programs N] [--seed S]"""
import argparse
import os
import random
import re
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402

PRELUDE = """CNat : U = (N : U) → (N → N) → N → N
czero : CNat = λ N s z. z
csuc : CNat → CNat = λ n N s z. s (n N s z)
cadd : CNat → CNat → CNat = λ a b N s z. a N s (b N s z)
cmul : CNat → CNat → CNat = λ a b N s z. a N (b N s) z
c2 : CNat = csuc (csuc czero)
c3 : CNat = cadd c2 (csuc czero)
CBool : U = (B : U) → B → B → B
ctrue : CBool = λ B t f. t
cfalse : CBool = λ B t f. f
cnot : CBool → CBool = λ b B t f. b B f t
cand : CBool → CBool → CBool = λ a b B t f. a B (b B t f) f
isZero : CNat → CBool = λ n. n CBool (λ _. cfalse) ctrue
Pair : U = (x : CNat) × CNat
swap : Pair → Pair = λ p. (p.2, p.1)
twice : {A : U} → (A → A) → A → A = λ f x. f (f x)
"""


class Gen:
    def __init__(self, rnd):
        self.r = rnd
        self.defs = []  # generated definitions: (name, type)

    def nat(self, d, vars_):
        """A CNat expression; `vars_` are CNat variables in scope."""
        r = self.r
        if d <= 0 or r.random() < 0.2:
            pool = ["czero", "c2", "c3"] + vars_ + [n for n, t in self.defs if t == "CNat"]
            return r.choice(pool)
        k = r.randrange(9)
        if k == 0:
            return f"csuc ({self.nat(d - 1, vars_)})"
        if k == 1:
            return f"cadd ({self.nat(d - 1, vars_)}) ({self.nat(d - 1, vars_)})"
        if k == 2:
            return f"cmul ({self.nat(d - 1, vars_)}) ({self.nat(d - 2, vars_)})"
        if k == 3:
            x = f"x{d}"
            return f"(λ ({x} : CNat). {self.nat(d - 1, vars_ + [x])}) ({self.nat(d - 1, vars_)})"
        if k == 4:
            return f"({self.pair(d - 1, vars_)}).{r.choice('12')}"
        if k == 5:
            return f"{self.bool(d - 1, vars_)} CNat ({self.nat(d - 1, vars_)}) ({self.nat(d - 1, vars_)})"
        if k == 6:
            return f"twice {{CNat}} csuc ({self.nat(d - 1, vars_)})"
        if k == 7:
            fs = [n for n, t in self.defs if t == "CNat → CNat"]
            if fs:
                return f"{r.choice(fs)} ({self.nat(d - 1, vars_)})"
        return f"let y{d} : CNat = {self.nat(d - 1, vars_)}; cadd y{d} ({self.nat(d - 1, vars_ + [f'y{d}'])})"

    def bool(self, d, vars_):
        r = self.r
        if d <= 0 or r.random() < 0.3:
            return r.choice(["ctrue", "cfalse"])
        k = r.randrange(3)
        if k == 0:
            return f"(cnot ({self.bool(d - 1, vars_)}))"
        if k == 1:
            return f"(cand ({self.bool(d - 1, vars_)}) ({self.bool(d - 1, vars_)}))"
        return f"(isZero ({self.nat(d - 1, vars_)}))"

    def pair(self, d, vars_):
        if self.r.random() < 0.3:
            return f"swap ({self.pair(d - 1, vars_)})" if d > 0 else "(c2, c3)"
        return f"({self.nat(d - 1, vars_)}, {self.nat(d - 1, vars_)})"

    def directive(self, i):
        r = self.r
        k = r.randrange(6)
        if k == 0:  # a closed numeral
            return f".nf {self.nat(3, [])}"
        if k == 1:  # a function of numerals: its parameters stay neutral
            return f".nf λ (a : CNat) (b : CNat). {self.nat(3, ['a', 'b'])}"
        if k == 2:  # an open term under λ N s z
            return (f".nf λ (N : U) (s : N → N) (z : N). ({self.nat(2, [])}) N "
                    f"(λ v. s ({self.nat(1, [])} N s v)) z")
        if k == 3:  # pairs, Σ-typed parameters
            return f".nf λ (p : Pair). ({self.nat(2, ['p.1', 'p.2'])}, p.1)"
        if k == 4:  # a new definition, then its normal form
            name = f"d{i}"
            if r.random() < 0.5:
                body = self.nat(3, [])  # (before the name is in scope: no recursion)
                self.defs.append((name, "CNat"))
                return f"{name} : CNat = {body}\n.nf {name}"
            body = self.nat(3, ["m"])
            self.defs.append((name, "CNat → CNat"))
            return f"{name} : CNat → CNat = λ m. {body}\n.nf {name}"
        return f".nf {self.bool(3, [])}"


def run(exe, path, *flags):
    r = thorin.run(exe, "check", *flags, path, timeout=60)
    return r.code, r.out, r.err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("thorin")
    ap.add_argument("--programs", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    total = by_code = 0
    with tempfile.TemporaryDirectory() as d:
        for n in range(a.programs):
            g = Gen(rnd)
            body = "\n".join(g.directive(i) for i in range(12))
            path = os.path.join(d, f"p{n}.thorin")
            with open(path, "w") as f:
                f.write(PRELUDE + body + "\n")
            rc0, ref, err0 = run(a.thorin, path, "--jit=off")
            if rc0 != 0:
                print(f"program {n} does not check (a generator bug):\n{err0}\n{ref}")
                return 1
            rc1, out, err1 = run(a.thorin, path, "--jit=lazy", "--jit-threshold", "1", "--jit-stats")
            if (rc1, out) != (rc0, ref):
                print(f"program {n}: the runtime's normal forms differ from the evaluator's")
                print(open(path).read())
                for x, y in zip(ref.splitlines(), out.splitlines()):
                    if x != y:
                        print(f"evaluator: {x}\nruntime:   {y}")
                        break
                return 1
            notes = re.findall(r"^jit: normal form (.*)$", err1, re.M)
            total += len(notes)
            by_code += notes.count("by running code")
    print(f"{a.programs} programs, {total} normal forms, {by_code} by running code: identical")
    if by_code < total * 0.8:
        print("FAILED: too few normal forms took the runtime's path")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
