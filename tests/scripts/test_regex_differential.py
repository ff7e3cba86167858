#!/usr/bin/env python3
"""The regex plugin against Python's `re` (on bytes) on random (pattern,
string) pairs: `matches` (re.fullmatch), `search` (the span of re.search),
`count` (the number of re.finditer's matches), `captures` (re.search's
groups) and `matchingLines` (the lines re.search finds something in), in the interpreter and in the compiled tiers.

Patterns are drawn from the syntax both share (literals over a small
alphabet, `.`, classes and negated classes, `\\d \\w \\s`, groups, `(?:…)`,
alternation, greedy and lazy `* + ? {m,n}` — never over a part that can
match the empty string: see Gen —, anchors `^ $ \\b \\B`), strings
from a few bytes (letters, a digit, a space, a newline, a byte ≥ 0x80), both
biased towards the edge cases (empty ones). A pair Python rejects is
skipped.

  test_regex_differential.py THORIN [--count N] [--seed S] [--keep DIR]
"""
import argparse
import os
import random
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402

PER_GROUP = 50

ALPHABET = [b"a", b"b", b"c", b"A", b"C", b"1", b" ", b"\n", b"\xe9"]


class Gen:
    """Random patterns; each part also says whether it can match the empty
    string: such a part is never repeated by * + or {m,n} (the semantics of
    loops over empty iterations differ between Python's `re`, Perl and RE2:
    they are no part of the syntax the two share)."""

    def __init__(self, seed):
        self.r = random.Random(seed)

    def atom(self, depth):
        r = self.r
        k = r.random()
        if k < 0.35:
            return r.choice([b"a", b"b", b"c", b"1", b" "]), False
        if k < 0.45:
            return b".", False
        if k < 0.6:
            inner = b"".join(r.sample([b"a", b"b", b"c", b"1", b"a-c", b"\\s", b"\\d"], r.randint(1, 3)))
            return b"[" + (b"^" if r.random() < 0.3 else b"") + inner + b"]", False
        if k < 0.7:
            return r.choice([b"\\d", b"\\w", b"\\s", b"\\D", b"\\W", b"\\S"]), False
        if k < 0.78:
            return r.choice([b"^", b"$", b"\\b", b"\\B"]), True
        if depth > 2:
            return b"a", False
        body, nullable = self.alt(depth + 1)
        return (b"(?:" if r.random() < 0.4 else b"(") + body + b")", nullable

    def quantified(self, depth):
        a, nullable = self.atom(depth)
        if self.r.random() < 0.55:
            return a, nullable
        if nullable:
            return a + b"?", True
        q = self.r.choice([b"*", b"+", b"?", b"{2}", b"{1,2}", b"{0,3}", b"{2,}"])
        lazy = b"?" if self.r.random() < 0.3 else b""
        return a + q + lazy, q in (b"*", b"?", b"{0,3}")

    def seq(self, depth):
        parts = [self.quantified(depth) for _ in range(self.r.randint(0, 4))]
        return b"".join(p for p, _ in parts), all(n for _, n in parts)

    def alt(self, depth):
        parts = [self.seq(depth) for _ in range(1 if self.r.random() < 0.7 else self.r.randint(2, 3))]
        return b"|".join(p for p, _ in parts), any(n for _, n in parts)

    def text(self):
        n = self.r.choice([0, 1, 2, 3, 5, 8, 12])
        return b"".join(self.r.choice(ALPHABET) for _ in range(n))


def lit(bs):
    """A thorin string literal of the bytes bs."""
    out = []
    for c in bs:
        ch = chr(c)
        out.append(ch if (ch.isalnum() and c < 128) or ch in " .,:;+*?()[]{}|^$-_@!#%&'=<>~/" else f"\\x{c:02x}")
    return '"' + "".join(out) + '"'


def shown(g):
    """A group's text as the thorin program prints it (on one line)."""
    if g is None:
        return "-"
    return "'" + g.replace(b"\n", b"<NL>").replace(b"\xe9", b"<E9>").decode() + "'"


def model(p, s):
    m = re.search(p, s)
    span = f"{m.start()},{m.end()}" if m else "-"
    groups = "|".join(shown(g) for g in m.groups()) if m else "none"
    lines = s.split(b"\n")[:-1] if s.endswith(b"\n") else s.split(b"\n") if s else []
    hits = [l for l in lines if re.search(p, l)]
    return (f"{1 if re.fullmatch(p, s) else 0} {span} {sum(1 for _ in re.finditer(p, s))} "
            f"{len(hits)}:{sum(map(len, hits))} {groups}")


PRELUDE = """.plugin regex
.plugin text
showSpan : Maybe (Nat × Nat) → String
  = λ m. maybe "-" (λ p. strCat (showNat p.1) (strCat "," (showNat p.2))) m
showGroup : Maybe String → String
  = λ m. maybe "-" (λ g. strJoin "" (cons "'" (cons (replace (replace g "\\n" "<NL>") "\\xe9" "<E9>") (cons "'" nil)))) m
showCaps : {n : Nat} → Maybe (Array n (Maybe String)) → String
  = λ m. maybe "none" (λ a. strJoin "|" (map showGroup (arrayToList a))) m
showLines : List String → String
  = λ ls. strCat (showNat (len ls)) (strCat ":" (showNat (foldl (λ n l. n + strLen l) 0 ls)))
check : String → String → IO Unit
  = λ p s. let r = re p;
      putStrLn (strJoin " " (cons (if matches r s then "1" else "0")
        (cons (showSpan (search r s)) (cons (showNat (count r s))
          (cons (showLines (matchingLines r s)) (cons (showCaps (captures r s)) nil))))))
"""


def program(pairs):
    lines = [PRELUDE]
    groups = []
    for g in range(0, len(pairs), PER_GROUP):
        name = f"g{g // PER_GROUP}"
        groups.append(name)
        lines.append(f"{name} : IO Unit = do")
        for p, s in pairs[g:g + PER_GROUP]:
            lines.append(f"  check {lit(p)} {lit(s)}")
    lines.append("main : IO Unit = do")
    lines += [f"  {n}" for n in groups] or ["  pure tt"]
    return "\n".join(lines) + "\n"


def known_program(pairs):
    """Each pattern written as a literal at its calls, in a function of its
    own: compiled code for a pattern known where it is compiled (the LLVM
    tier's own path: a whole DFA as code for `matches`, the pattern's
    matcher for `count` and `search`)."""
    lines = [PRELUDE]
    for k, (p, s) in enumerate(pairs):
        r = f"(re {lit(p)})"
        lines.append(f"k{k} : Nat → String\n  = λ _. strJoin \" \" (cons (if matches {r} {lit(s)} then \"1\" else \"0\")"
                     f" (cons (showSpan (search {r} {lit(s)})) (cons (showNat (count {r} {lit(s)})) nil)))")
    lines.append("main : IO Unit = do")
    lines += [f"  putStrLn (k{k} 0)" for k in range(len(pairs))] or ["  pure tt"]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("thorin")
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=int(os.environ.get("THORIN_REGEX_SEED", "31")))
    ap.add_argument("--keep")
    a = ap.parse_args()
    exe = os.path.abspath(a.thorin)
    count = a.count // (8 if thorin.sanitized(exe) else 1)
    g = Gen(a.seed)
    pairs, expected = [], []
    while len(pairs) < count:
        p, s = g.alt(0)[0], g.text()
        if g.r.random() < 0.15:
            p = b"(?i)" + p  # (case folding, negated classes included)
        try:
            want = model(p, s)
        except re.error:
            continue
        pairs.append((p, s))
        expected.append(want)
    d = a.keep or tempfile.mkdtemp(prefix="thorin_regex_")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "regex_diff.thorin")
    with open(path, "w", encoding="utf-8") as f:
        f.write(program(pairs))
    failures = 0
    # (All pairs interpreted; a tenth of them with the compiled tiers.)
    for mode, n in ((["--jit=off"], count), (["--jit=lazy", "--jit-threshold", "1"], count // 10),
                    (["--jit=baseline", "--jit-threshold", "1"], count // 10)):
        if n < count:
            sub = os.path.join(d, f"regex_diff_{mode[0][6:]}.thorin")
            with open(sub, "w", encoding="utf-8") as f:
                f.write(program(pairs[:n]))
        else:
            sub = path
        r = thorin.run(exe, "run", *mode, sub)
        got = r.out.splitlines()
        if r.code != 0 or len(got) != n:
            print(f"FAILED ({' '.join(mode)}): exit {r.code}, {len(got)} of {n} lines\n{r.err[-2000:]}")
            return 1
        for (p, s), want, have in zip(pairs, expected, got):
            if want != have:
                failures += 1
                if failures <= 10:
                    print(f"MISMATCH ({' '.join(mode)}): pattern {p!r} string {s!r}: "
                          f"python {want}, thorin {have}")
    # Patterns known where the code is compiled, every function compiled
    # by LLVM before it runs.
    known = count // 50
    sub = os.path.join(d, "regex_diff_known.thorin")
    with open(sub, "w", encoding="utf-8") as f:
        f.write(known_program(pairs[:known]))
    r = thorin.run(exe, "run", "--jit=eager", "--no-baseline", "--no-code-cache", sub)
    got = r.out.splitlines()
    if r.code != 0 or len(got) != known:
        print(f"FAILED (known patterns): exit {r.code}, {len(got)} of {known} lines\n{r.err[-2000:]}")
        return 1
    for (p, s), want, have in zip(pairs, expected, got):
        if " ".join(want.split(" ")[:3]) != have:
            failures += 1
            if failures <= 10:
                print(f"MISMATCH (known pattern, LLVM): pattern {p!r} string {s!r}: "
                      f"python {want}, thorin {have}")
    print(f"{count} pairs ({count // 10} also in each compiled tier, {known} with the pattern "
          f"known to LLVM), {failures} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
