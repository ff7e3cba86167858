#!/usr/bin/env python3
"""Deep terms: a conversion check between Church numerals of a million (built
by different products) succeeds; running out of stack, or of memory, is a
located error, not a crash; large terms without signatures elaborate in
linear time."""
import os
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402

PROGRAM = """Nat : U = (N : U) → (N → N) → N → N
suc : Nat → Nat = λ n N s z. s (n N s z)
zero : Nat = λ N s z. z
mul : Nat → Nat → Nat = λ a b N s z. a N (b N s) z
n2 : Nat = suc (suc zero)
n5 : Nat = suc (suc (suc (suc (suc zero))))
n10 = mul n2 n5
n10b = mul n5 n2
n100 = mul n10 n10
n100b = mul n10b n10b
n10k = mul n100 n100
n10kb = mul n100b n100b
n100k = mul n10k n10
n100kb = mul n10b n10kb
n1M = mul n10k n100
n1Mb = mul n100b n10kb
Eq : {A : U} → A → A → U = λ {A} x y. (P : A → U) → P x → P y
refl : {A : U}{x : A} → Eq x x = λ P px. px
"""


def run(exe, text, env=None, timeout=600):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "deep.thorin")
        with open(path, "w") as f:
            f.write(text)
        r = thorin.run(exe, "check", "deep.thorin", cwd=d, merge=True, timeout=timeout, env=env)
        return ("timeout", "") if r.timed_out else (r.code, r.out)


def main():
    exe = thorin.binary()
    sanitized = thorin.sanitized(exe)
    n, nb = ("n100k", "n100kb") if sanitized else ("n1M", "n1Mb")
    failures = 0

    code, out = run(exe, PROGRAM + f"t : Eq {n} {nb} = refl\n")
    print(f"Eq {n} {nb} = refl: exit {code}")
    if code != 0 or out:
        print(out)
        failures += 1

    # The wrong equation is rejected with a located error.
    line = f"t : Eq {n} (suc {nb}) = refl"
    code, out = run(exe, PROGRAM + line + "\n")
    want = f"deep.thorin:19:{line.index('refl') + 1}: error: type mismatch\n"
    print(f"Eq {n} (suc {nb}) = refl: exit {code}")
    if code != 1 or not out.startswith(want) or f"expected type: Eq {{Nat}} {n} (suc {nb})" not in out:
        print(out)
        failures += 1

    # Normalizing a deep term with a tiny stack: a located error, exit 1.
    code, out = run(exe, PROGRAM + ".nf n100k\n", {"THORIN_STACK_MB": "16"})
    want = ("deep.thorin:19:1: error: recursion depth limit exceeded while elaborating this entry\n"
            "   19 | .nf n100k\n"
            "      | ^~~~~~~~~\n"
            "  the terms involved are too deep; THORIN_STACK_MB raises the limit\n")
    print(f"deep normal form with a 16 MB stack: exit {code}")
    if code != 1 or out != want:
        print(out)
        failures += 1

    # Printing a run-time value nested 100,000 deep (pairs nested to the left,
    # arrays in arrays): printed in full, in linear time; with a tiny stack, a
    # located error (it used to overflow the stack: a crash, found by fuzzing).
    nested = ("W : Nat → U = natElim (λ _. U) Nat (λ _ r. r × Nat)\n"
              "mk : (n : Nat) → W n = λ n. natElim W 0 (λ k r. (r, k)) n\n"
              "A : Nat → U = natElim (λ _. U) Nat (λ _ r. Array 1 r)\n"
              "arr : (n : Nat) → A n = λ n. natElim A 7 (λ k r. [r]) n\n")
    k = 20000 if sanitized else 100000  # (sanitizers' stack frames are bigger)
    for expr, head, tail in ((f"mk {k}", "(" * k + "0, 0), 1), ", f", {k - 1})"),
                             (f"arr {k}", "[" * k + "7]", "]]")):
        code, out = run(exe, nested + f".eval {expr}\n")
        print(f".eval {expr}: exit {code}, {len(out)} characters")
        if code != 0 or not out.startswith(head) or not out.endswith(tail + "\n"):
            print(out[:300], "…", out[-300:])
            failures += 1
        deeper = expr.replace(str(k), "1000000")
        code, out = run(exe, nested + f".eval {deeper}\n", {"THORIN_STACK_MB": "16"})
        print(f".eval {deeper} with a 16 MB stack: exit {code}")
        if code != 1 or not out.startswith("deep.thorin:5:7: error: the program recursed too deeply") or "THORIN_STACK_MB" not in out:
            print(out[:600])
            failures += 1

    # Large terms without a signature: each λ's and each pair's inferred type
    # keeps its codomain as a value; quoting it at every level made these
    # quadratic (4,000 components: 1.2 s and 1 GB; 100,000 would take about
    # 13 minutes). Then the inferred types are used.
    k = 5000 if sanitized else 100000  # (parsing 20,000 nested λs needs more than 64 MB of stack there)
    big = ("t = (" + ", ".join(["U"] * k) + ")\n"
           "f = " + " ".join(f"λ (a{i} : U)." for i in range(k)) + " a0\n"
           "p : U × U × U = (t.1, t.2.1, t.2.2.1)\n"
           f".check f U{' U' * (k - 1)}\n")
    code, out = run(exe, big, timeout=120)
    print(f"a {k}-tuple and {k} nested λs without signatures: exit {code}")
    if code != 0 or out != "f U" + " U" * (k - 1) + " : U\n":
        print(out[:300])
        failures += 1

    # Thousands of nested λs without types: each binder's type is a meta over
    # the binders before it. The mismatch is reported within 1 GB (it took
    # 9.8 GB for 4,000 and ran out for 8,000: its type was quoted whole, then
    # printed), its printed type cut; the unsolved metas of the same λs
    # without the application are counted past the tenth (n contexts of up
    # to n binders each, printed).
    k = 1000 if sanitized else 8000
    lams = "(λ x. " * k + "1" + ")" * k
    limit = {} if sanitized else {"THORIN_MEMORY_MB": "1000"}
    code, out = run(exe, f"bad : U = {lams} Nat\n", limit, timeout=120)
    print(f"{k} nested λs applied to Nat, against U: exit {code}, {len(out)} bytes")
    if (code != 1 or not out.startswith("deep.thorin:1:11: error: type mismatch\n")
            or "actual type: (x : ?1 Nat) (x' : ?2 Nat x) (x'' : ?3 Nat x x')" not in out
            or len(out) > 4000):
        print(out[:600])
        failures += 1
    code, out = run(exe, f"ok = {lams}\n", limit, timeout=120)
    print(f"{k} nested λs without types: exit {code}, {len(out)} bytes")
    if (code != 1 or out.count("error: unsolved metavariable") != 10
            or f"  and {k - 10} more unsolved metavariables\n" not in out):
        print(out[:600])
        failures += 1

    # Non-tail recursion 10⁷ deep in the interpreter (--jit=off) as in the
    # compiled tiers: the interpreter keeps its continuations on stacks of
    # its own (~70 bytes a level), not on the C++ stack (~200 bytes a level:
    # it stopped at 5·10⁶). A runaway recursion stops at the limit at once.
    depth = 500_000 if sanitized else 10_000_000  # (a 64 MB stack there: ~70 bytes a level)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "deep.thorin")
        with open(path, "w") as f:
            f.write("sumTo : Nat → Nat = λ n. if n == 0 then 0 else n + sumTo (n - 1)\n"
                    f"main : Nat = sumTo {depth}\n")
        for mode in ("--jit=off", "--jit=lazy"):
            r = thorin.run(exe, "run", mode, path, timeout=120)
            print(f"sumTo {depth} {mode}: exit {r.code}, {r.out.strip()}")
            if r.code != 0 or r.out != f"{depth * (depth + 1) // 2}\n":
                print(r.err[:400])
                failures += 1
        with open(path, "w") as f:
            f.write("f : Nat → Nat = λ n. 1 + f n\nmain : Nat = f 0\n")
        r = thorin.run(exe, "run", "--jit=off", path, timeout=60, stack_mb=64, merge=True)
        want = ("deep.thorin:2:1: error: the program recursed too deeply (stack exhausted)\n"
                "    2 | main : Nat = f 0\n      | ^~~~\n  THORIN_STACK_MB raises the limit\n")
        print(f"1 + f n, --jit=off, a 64 MB stack: exit {r.code}")
        if r.code != 2 or not r.out.endswith(want):
            print(r.out[:600])
            failures += 1

    # 4,000 nested repeats of one subterm (`x % 7 + 1 + (x % 7 + 1 + …)`):
    # computing common subterms once (runtime/cse.cpp) copied the term for
    # each one bound, 3.4 GB and 10 s; it stops after a budget of copies.
    expr = "0"
    for _ in range(4000):
        expr = f"x % 7 + 1 + ({expr})"
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "repeats.thorin")
        with open(path, "w") as f:
            f.write(f"f : Nat → Nat = λ x. {expr}\nmain : Nat = f 10\n")
        r = thorin.run(exe, "run", "--jit=off", path, timeout=60,
                       env=None if sanitized else {"THORIN_MEMORY_MB": "300"})
        print(f"4,000 nested repeats, --jit=off: exit {r.code}, {r.out.strip()}")
        if r.code != 0 or r.out != "16000\n":
            print(r.err[:400])
            failures += 1

    # Runaway memory: a normal form that never ends, a string that doubles
    # forever. Past thorin's memory limit (THORIN_MEMORY_MB; by default 80 %
    # of the machine's memory) they are located errors, and the run ends
    # with exit 1 — not the kernel's OOM killer. (Not under the sanitizers:
    # their shadow memory rules out the limit there.)
    if not sanitized:
        for text in ("f : Nat → Nat = λ n. 1 + f (n + 1)\n.nf λ (k : Nat). f k\n",
                     "g : String → Nat → String = λ s n. if n == 0 then s else g (strCat s s) (n - 1)\n"
                     ".eval strLen (g \"ab\" 40)\n"):
            line = text.splitlines()[1]
            # (Elaboration: the directive; a run: the expression it runs.)
            at = line.index("strLen") if line.startswith(".eval") else 0
            want = (f"deep.thorin:2:{at + 1}: error: out of memory (thorin's limit: 300 MB)\n"
                    f"    2 | {line}\n"
                    f"      | {' ' * at}^{'~' * (len(line) - at - 1)}\n"
                    "  THORIN_MEMORY_MB raises the limit (0: none)\n")
            code, out = run(exe, text, {"THORIN_MEMORY_MB": "300"}, timeout=120)
            print(f"{line} with THORIN_MEMORY_MB=300: exit {code}")
            if code != 1 or out != want:
                print(out[:600])
                failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
