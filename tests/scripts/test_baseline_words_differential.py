#!/usr/bin/env python3
"""Differential test of the baseline JIT tier on the fragment beyond I64:
first-order functions over `Nat` (small ones immediate, big ones GMP's),
`F64`, `I64`, `Idx N` and arrays (`Array N F64`, `Array N I64`,
`Array N Nat`), with results of type Nat, F64 or I64.

  test_baseline_words_differential.py THORIN [--seed S] [--count N]
      [--per-file K] [--hot H] [--errors E] [--jobs J] [--keep DIR]
      [--min-coverage F]

Programs (fixed seed): tests/lib/gen/words.py, the first-order family's
words variant (its docstring lists the types, literals, operators,
primitives and kinds of function: plain, loop, fuel, deep, driver). Each
function is .eval'd directly (edge values as arguments; arrays given as a
top-level name, an inline `build` or a literal, which stores words instead
of raw machine numbers) and through the driver; with `--jit-threshold 1`
every function is compiled at its first call.

The model of tests/lib/gen (exact semantics: strict, left to right,
`&&`/`||` short, Nat exact, F64 IEEE double printed as thorin does: Python's
repr, `nan` unsigned; I64 wrapping) runs every .eval under a step budget; a
function is drawn again until one of its .evals succeeds. .evals over budget
(or making a Nat of more than NAT_BITS bits) are dropped; those that fail
(division or remainder by zero, an index out of range) are set apart.

Files of K programs, and the checks (shared with test_baseline_differential.py,
whose Case, Runner, check and shrink are used as they are):
- ordinary files, error files (a program, then a program whose .eval fails,
  that .eval last: the deepest failures of each kind in turn, division,
  remainder and index) and hot files (programs that cannot fail, tame Nat
  products, then a long .eval of each driver, not run by the model, so that
  lazy mode moves over to LLVM's code while baseline code runs), run as
    THORIN run --jit=off FILE                                (the reference)
    THORIN run --jit=baseline --jit-threshold 1 --jit-stats FILE
    THORIN run --jit=lazy --jit-threshold 1 --jit-stats FILE
    THORIN run --jit=eager FILE
  stdout, stderr (but `jit:` lines) and exit status must be equal to the
  reference's, and the reference's stdout must be the model's values (an
  error file must end with the model's error, exit status 2);
- a fixed file of hand-written functions with values worked out by hand
  (sumRow over an F64 row, big Nats, inf and nan, …), so the test cannot pass
  with the model and thorin wrong alike;
- coverage: the share of the functions with baseline code (named in a `jit:
  baseline code for NAME` line of the --jit=baseline runs, or called by one)
  is printed, in all and per feature (types in the signature, kind, Nat
  products and quotients, arrays built inline, …), and must be at least
  --min-coverage (default 0.6: 75-79 % of the functions got baseline code
  over seeds 1-12 once the tier took this fragment — the rest make closures,
  which are LLVM's — so the test cannot silently stop exercising it).
A file where a mode disagrees with the reference is shrunk (programs, then
definitions and .evals, while the same two modes still disagree) and the
smallest failing file is printed with all outputs. Exit status 1 on any
failure.

Files are small (4 programs) because of --jit=eager: a Nat of 2^62 or more,
or an array in the other representation, deoptimizes a function, which drops
all compiled code, and eager mode compiles all of it again (--jit=eager takes
about 2/3 of the time). The default, 128 programs, runs in ~20 s on 2 cores.
"""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_baseline_differential as base  # noqa: E402
from test_baseline_differential import MODES, Case  # noqa: E402
from gen import first_order, words  # noqa: E402  (tests/lib, on the path since base's import)
from gen.first_order import Fn, Program  # noqa: E402
from gen.terms import App, ArrayLit, BinOp, Lit, Var, walk  # noqa: E402
from gen.ty import F64, I64, NAT, Arr, Idx, show_ty  # noqa: E402

HOT_STEPS = 175_000_000      # model steps, estimated, of a hot file's long `.eval`s
# the coverage report's tags of applied builtins
BUILTIN_TAGS = {"get": "get", "build": "build inline", "idxToNat": "idxToNat", "length": "length",
                "natToF64": "natToF64"}


def features(fn, globs):
    """Tags of fn for the coverage report; globs: the names of top-level arrays."""
    tags = {f"kind {fn.kind}", f"result {show_ty(fn.res)}"}
    for t in fn.ptypes:
        tags.add("param " + ("Idx" if isinstance(t, Idx) else f"Array {show_ty(t.elem)}" if isinstance(t, Arr)
                             else show_ty(t)))
    for e in walk(fn.body):
        if isinstance(e, BinOp) and e.ty == NAT and e.op in ("*", "/", "%"):
            tags.add("Nat * / %")
        elif isinstance(e, BinOp) and e.ty == F64 and e.op in ("+", "-", "*", "/"):
            tags.add("F64 arithmetic")
        elif isinstance(e, BinOp) and e.op in ("&&", "||"):
            tags.add("&& ||")
        elif isinstance(e, ArrayLit):
            tags.add("array literal inline")
        elif isinstance(e, Var) and e.name in globs:
            tags.add("top-level array")
        elif isinstance(e, App) and isinstance(e.fn, Var) and e.fn.name != fn.name:
            tags.add(BUILTIN_TAGS.get(e.fn.name, "calls"))
    if all(t == I64 for t in fn.ptypes + [fn.res]):
        tags.add("I64 only (the old fragment)")
    return tags


# ---------------------------------------------------------------- fixed programs

# Hand-written, with values worked out by hand: if the model and thorin were
# wrong alike, these would still fail.
FIXED = [
    ("row_f : Array 8 F64 = build 8 (λ i. natToF64 (idxToNat i) / 2.0)\n", None),
    ("sumRow_f : Array 8 F64 → Nat → F64 → F64\n"
     "  = λ r k acc. if k == 8 then acc else sumRow_f r (k + 1) (acc + get r (idx k))\n", None),
    (".eval sumRow_f row_f 0 0.0\n", "14.0\n"),                        # (0+1+…+7)/2
    (".eval sumRow_f row_f 6 0.5\n", "7.0\n"),                         # 0.5 + 3 + 3.5
    (".eval sumRow_f [1.5, -2.25, 1e300, 1e300, 0.0, 0.0, 0.0, 0.0] 0 0.0\n", "2e+300\n"),
    ("bigN_f : Nat → Nat → Nat = λ a b. if a < b then b - a else a * b + 1\n", None),
    (".eval bigN_f 4611686018427387903 4611686018427387904\n", "1\n"),
    (".eval bigN_f 4611686018427387904 4611686018427387903\n", "21267647932558653961849226946058125313\n"),
    (".eval bigN_f 10000000000000000000000000 3\n", "30000000000000000000000001\n"),
    ("trunc_f : Nat → Nat → Nat = λ a b. (a - b) / 7 + a % 10\n", None),
    (".eval trunc_f 3 4611686018427387904\n", "3\n"),                  # 0 / 7 + 3
    (".eval trunc_f 100000000000000000000 1\n", "14285714285714285714\n"),
    ("fsum_f : Nat → F64 → F64 = λ n acc. if n == 0 then acc else fsum_f (n - 1) (acc + 0.5)\n", None),
    (".eval fsum_f 9 (-2.25)\n", "2.25\n"),
    ("ovf_f : F64 → F64 → F64 = λ x y. if x * y > 1e308 then x * y else (x * y - x * y) / 0.0\n", None),
    (".eval ovf_f 1e300 1e300\n", "inf\n"),
    (".eval ovf_f 2.0 3.0\n", "nan\n"),
    (".eval ovf_f (-1e300) 1e300 / 0.0 - 1.0\n", "nan\n"),
    ("pick_f : Array 5 Nat → Idx 5 → Nat = λ a j. get a j + idxToNat j * length a\n", None),
    (".eval pick_f [1, 2, 3, 10000000000000000000000000, 5] (idx 3)\n", "10000000000000000000000015\n"),
    (".eval pick_f (build 5 (λ i. idxToNat i * 4611686018427387904)) (idx 4)\n", "18446744073709551636\n"),
    ("mixed_f : I64 → F64 → Nat → I64 = λ x y n. if y < natToF64 n && x > (0 : I64) then x * (3 : I64) else x - (1 : I64)\n",
     None),
    (".eval mixed_f (5 : I64) 1.5 2\n", "15\n"),
    (".eval mixed_f (-9223372036854775808) 1.5 2\n", "9223372036854775807\n"),
    ("deep_f : Nat → F64 = λ n. if n == 0 then 0.0 else 0.1 + deep_f (n - 1)\n", None),
    (".eval deep_f 3\n", "0.30000000000000004\n"),                      # 0.1 + (0.1 + (0.1 + 0.0))
    (".eval deep_f 1\n", "0.1\n"),
]


# ---------------------------------------------------------------- files and runs

def error_kind(msg):
    return msg.split(":")[0].split()[0]          # division, remainder, idx


def generate(a, rng):
    """The programs and the files (Cases)."""
    fresh = iter(range(10 ** 6))
    ordinary, cases = base.batches_and_hot(a, rng, words, fresh, tame=True)
    # Error files: the deepest failure of each kind in turn.
    by_kind = {}
    for p in ordinary:
        for call, msg, depth in p.errors:
            by_kind.setdefault(error_kind(msg), []).append((depth, rng.random(), p, call, msg))
    for v in by_kind.values():
        v.sort(key=lambda t: t[:2], reverse=True)
    used, picks = [], []
    while len(picks) < a.errors and any(by_kind.values()):
        for kind in sorted(by_kind):
            while by_kind[kind] and by_kind[kind][0][2] in used:
                by_kind[kind].pop(0)
            if by_kind[kind] and len(picks) < a.errors:
                picks.append(by_kind[kind].pop(0))
                used.append(picks[-1][2])
    for k, (depth, _r, p, call, msg) in enumerate(picks):
        chunk = [first_order.gen_program(rng, next(fresh), words)]
        cases.append(Case(f"error_{k}", chunk + [p], [q.entries() for q in chunk] + [p.entries(call)],
                          list(MODES), error=(msg, depth)))
    cases.append(fixed_case())
    return cases


def fixed_case():
    """The file of FIXED; its functions count in the coverage (kind "fixed")."""
    prog = Program()
    for text, _ in FIXED:
        m = re.match(r"(\w+) :.*→", text)
        if m:
            prog.fns.append(Fn(m.group(1), "fixed", [], [], [], None))
            prog.fns[-1].body = Lit(NAT, 0)          # (its callees: none that matter)
    return Case("fixed", [prog], [FIXED], list(MODES))


def coverage(cases, results):
    """The functions with baseline code: named in the --jit=baseline runs'
    stats, or called by one (a module gets code for all its functions or
    none)."""
    fns = {fn.name: fn for c in cases for fn in c.fns}
    named = {n for c in cases
             for n in re.findall(r"^jit: baseline code for (\S+) in ", results[c.name]["baseline"][3], re.M)}
    todo, covered = list(named), set()
    while todo:
        n = todo.pop()
        if n in fns and n not in covered:
            covered.add(n)
            todo.extend(fns[n].callees())
    return covered, named & set(fns), fns


def main():
    t0 = time.monotonic()
    a = base.arguments(__doc__, 20261128, 96, 4, 1, "a run-time error", HOT_STEPS,
                       lambda ap: ap.add_argument("--min-coverage", type=float, default=0.6,
                                                  help="least share of the functions that must get "
                                                       "baseline code (default 0.6)"))
    cases = base.generated(a, generate)
    errors = [f"{c.error[0]} at depth {c.error[1]}" for c in cases if c.error]
    print(f"seed {a.seed}: {len({fn.name for c in cases for fn in c.fns})} functions in {len(cases)} files "
          f"({a.hot} hot, {len(errors)} ending in an error: {'; '.join(errors)}), "
          f"generated in {time.monotonic() - t0:.1f} s")

    def covers(results):
        covered, named, fns = coverage(cases, results)
        globs = set().union(*(c.globs for c in cases))
        share = len(covered) / len(fns)
        print(f"baseline code for {len(covered)} of {len(fns)} functions ({100 * share:.1f} %; "
              f"{len(named)} named in `jit: baseline code for` lines)")
        tags = {}
        for fn in fns.values():
            for tag in (features(fn, globs) if fn.kind != "fixed" else ["fixed"]):
                tags.setdefault(tag, [0, 0])[1] += 1
                tags[tag][0] += fn.name in covered
        print("  by feature: " + ", ".join(f"{t} {c}/{n}" for t, (c, n) in sorted(tags.items())))
        if share >= a.min_coverage:
            return True
        missing = sorted(n for n in set(fns) - covered if fns[n].kind != "fixed")
        print(f"FAIL: under {100 * a.min_coverage:.1f} % of the functions got baseline code; "
              f"not: {' '.join(missing[:20])}")
        if missing:
            print(fns[missing[0]].definition().render())
        return False

    return base.run_and_report(a, cases, t0, "thorin_baseline_words_", covers)


if __name__ == "__main__":
    sys.exit(main())
