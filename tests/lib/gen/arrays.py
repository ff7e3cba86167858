"""Random programs over arrays that share and update them, with the output
a pure evaluation gives (every `set` a copy): the model of the copying
semantics that in-place updates must keep (tests/scripts/test_inplace_differential.py;
`python3 tests/lib/gen --family arrays` prints some).

Arrays are `Arr4 = Array 4 I64` (Python tuples here) and matrices
`Array 2 Arr4`. Expressions of type Arr4 are variables (read again and
again), literals, `build`, `set` (at a literal index or `k % 4`), `let`s,
conditionals, calls of the file's functions (one takes its argument twice,
one loops, setting its array at each step), pairs built and projected,
rows of matrices, and closures that capture arrays and run after those
were set. Every `.eval` prints a list of arrays, so each array an
expression made, shared or not, is compared.
"""
import random

from core_model import wrap

LEN = 4


def par(t):
    """t as an argument: parenthesized unless atomic."""
    return f"({t})" if " " in t else t


class Gen:
    def __init__(self, rng, suffix):
        self.rng, self.sfx, self.fresh = rng, suffix, 0

    def name(self, base):
        self.fresh += 1
        return f"{base}{self.fresh}"

    # I64 ---------------------------------------------------------------
    def i64(self, env, depth):
        r = self.rng.random()
        arrs = [v for v in env if v[1] == "A"]
        if depth <= 0 or r < 0.3 or not arrs:
            k = self.rng.randint(-3, 9)
            return f"({k} : I64)", k  # (annotated: `1 + 9` alone is a Nat)
        if r < 0.75:
            a, av = self.arr(env, depth - 1)
            i = self.rng.randrange(LEN)
            return f"get {par(a)} (idx {i})", av[i]
        x, xv = self.i64(env, depth - 1)
        y, yv = self.i64(env, depth - 1)
        return f"({x} + {y})", wrap(xv + yv)

    # Arr4 --------------------------------------------------------------
    def arr(self, env, depth):
        arrs = [v for v in env if v[1] == "A"]
        mats = [v for v in env if v[1] == "M"]
        forms = ["lit", "build"] + ["var"] * 3 * bool(arrs)
        if depth > 0:
            forms += ["set"] * 4 + ["let"] * 3 + ["if", "call", "twice", "loop", "pair",
                                                    "closure"] + ["row"] * bool(mats)
        f = self.rng.choice(forms)
        return getattr(self, "a_" + f)(env, depth)

    def a_var(self, env, depth):
        n, _, v = self.rng.choice([v for v in env if v[1] == "A"])
        return n, v

    def a_lit(self, env, depth):
        xs = [self.rng.randint(0, 9) for _ in range(LEN)]
        return f"({list(xs)} : Arr4)", tuple(xs)

    def a_build(self, env, depth):
        c = self.rng.randint(0, 5)
        return (f"build {LEN} (λ i. natToI64 (idxToNat i) * {c})",
                tuple(i * c for i in range(LEN)))

    def a_set(self, env, depth):
        a, av = self.arr(env, depth - 1)
        x, xv = self.i64(env, depth - 1)
        i = self.rng.randrange(LEN)
        return f"set {par(a)} (idx {i}) {par(x)}", av[:i] + (xv,) + av[i + 1:]

    def a_let(self, env, depth):
        x = self.name("x")
        d, dv = self.arr(env, depth - 1)
        inner = env + [(x, "A", dv)]
        b, bv = self.arr(inner, depth - 1)
        # (The body often reads x again after setting it.)
        if self.rng.random() < 0.5:
            i = self.rng.randrange(LEN)
            return (f"(let {x} : Arr4 = {d}; let y{x} : Arr4 = set {x} (idx {i}) 99; "
                    f"f2{self.sfx} y{x} {par(b)})"), self.f2(dv[:i] + (99,) + dv[i + 1:], bv)
        return f"(let {x} : Arr4 = {d}; {b})", bv

    def a_if(self, env, depth):
        c, cv = self.i64(env, depth - 1)
        a, av = self.arr(env, depth - 1)
        b, bv = self.arr(env, depth - 1)
        return f"(if {c} < 3 then {a} else {b})", av if cv < 3 else bv

    def a_call(self, env, depth):
        a, av = self.arr(env, depth - 1)
        b, bv = self.arr(env, depth - 1)
        return f"f2{self.sfx} {par(a)} {par(b)}", self.f2(av, bv)

    def a_twice(self, env, depth):  # the same array as both arguments
        n, _, v = self.rng.choice([e for e in env if e[1] == "A"] or [("z", "A", None)])
        if v is None:
            return self.a_call(env, depth)
        return f"f2{self.sfx} {n} {n}", self.f2(v, v)

    def a_loop(self, env, depth):
        k = self.rng.randint(0, 12)
        a, av = self.arr(env, depth - 1)
        return f"loop{self.sfx} {k} {par(a)}", self.loop(k, av)

    def a_pair(self, env, depth):
        p = self.name("p")
        a, av = self.arr(env, depth - 1)
        b, bv = self.arr(env, depth - 1)
        i = self.rng.randrange(LEN)
        which = self.rng.choice([1, 2])
        src = av if which == 1 else bv
        return (f"(let {p} : Arr4 × Arr4 = ({a}, {b}); f2{self.sfx} (set {p}.{which} (idx {i}) 7) "
                f"{p}.{which})"), self.f2(src[:i] + (7,) + src[i + 1:], src)

    def a_closure(self, env, depth):
        g = self.name("g")
        a, av = self.arr(env, depth - 1)
        x = self.name("c")
        i = self.rng.randrange(LEN)
        # g reads x after x was set: it must still see x's old elements.
        return (f"(let {x} : Arr4 = {a}; let {g} : Unit → Arr4 = λ u. {x}; "
                f"let s{x} : Arr4 = set {x} (idx {i}) 55; f2{self.sfx} ({g} tt) s{x})"), \
            self.f2(av, av[:i] + (55,) + av[i + 1:])

    def a_row(self, env, depth):
        n, _, m = self.rng.choice([v for v in env if v[1] == "M"])
        r = self.rng.randrange(2)
        i = self.rng.randrange(LEN)
        row = m[r]
        return f"set (get {n} (idx {r})) (idx {i}) 42", row[:i] + (42,) + row[i + 1:]

    # The file's functions, in Python.
    def f2(self, a, b):  # f2 a b: a with b's first element added to each
        return tuple(wrap(x + b[0]) for x in a)

    def loop(self, k, a):
        while k > 0:
            i, j = k % LEN, (k + 1) % LEN
            a = a[:i] + (wrap(a[j] + 1),) + a[i + 1:]
            k -= 1
        return a

    def header(self):
        s = self.sfx
        return (f"f2{s} : Arr4 → Arr4 → Arr4 = λ a b. build {LEN} (λ i. get a i + get b (idx 0))\n"
                f"loop{s} : Nat → Arr4 → Arr4 = λ k a. if k == 0 then a else "
                f"loop{s} (k - 1) (set a (idx (k % {LEN})) (get a (idx ((k + 1) % {LEN})) + 1))\n")

    def program(self):
        """Top-level arrays, a matrix, then .evals of lists of arrays."""
        lines = [self.header()]
        env = []
        for j in range(2):
            a, av = self.arr(env, 2)
            n = f"top{j}{self.sfx}"
            lines.append(f"{n} : Arr4 = {a}\n")
            env.append((n, "A", av))
        m = f"mat{self.sfx}"
        r0, r0v = self.arr(env, 1)
        r1, r1v = self.arr(env, 1)
        lines.append(f"{m} : Array 2 Arr4 = [{r0}, {r1}]\n")
        env.append((m, "M", (r0v, r1v)))
        out = []
        for _ in range(4):
            es = [self.arr(env, 3) for _ in range(3)]
            # (Also the variables, after everything above may have set them.)
            names = [v for v in env if v[1] == "A"]
            items = [t for t, _ in es] + [n for n, _, _ in names]
            vals = [v for _, v in es] + [v for _, _, v in names]
            lines.append(f".eval ([{', '.join(items)}] : Array {len(items)} Arr4)\n")
            out.append(show(vals))
        lines.append(f".eval {m}\n")
        out.append(show(list(env[-1][2])))
        return "".join(lines), out


def show(arrays):
    return "[" + ", ".join("[" + ", ".join(str(x) for x in a) + "]" for a in arrays) + "]"


# Arrays given to a postulate inside a normal form computed by running code.
NF = """.nf λ (f : Arr4 → I64). let a : Arr4 = [1, 2, 3, 4]; (f a, set a (idx 0) 9, f a)
.nf λ (f : Arr4 → Arr4 → I64). let a : Arr4 = build 4 (λ i. natToI64 (idxToNat i)); let b : Arr4 = set a (idx 1) 7; (f a b, set b (idx 2) 8, f a b)
"""
NF_OUT = ["λ f. (f [1, 2, 3, 4], [9, 2, 3, 4], f [1, 2, 3, 4])",
          "λ f. (f [0, 1, 2, 3] [0, 7, 2, 3], [0, 7, 8, 3], f [0, 1, 2, 3] [0, 7, 2, 3])"]


def generate_file(seed, programs=4):
    """A file of `programs` programs and the output `thorin run` must print."""
    rng = random.Random(seed)
    text, out = ["Arr4 : U = Array 4 I64\n", NF], list(NF_OUT)
    for p in range(programs):
        t, o = Gen(rng, f"_p{p}").program()
        text.append(t)
        out += o
    return "".join(text), "".join(line + "\n" for line in out)

