#!/usr/bin/env python3
"""Writes the elaboration workloads in thorin, Agda and Idris 2.

  bench/gen.py [--out DIR] [--big]

Each workload is one file per system: DIR/thorin/NAME.thorin,
DIR/agda/NAME.agda, DIR/idris/NAME.idr. The same definitions are checked by
each system (Agda runs with --type-in-type; Idris 2 has Type : Type). With
--big also stlcSmall1M (thorin only, ~50 MB). Generated files are not
committed; this script is.

The Church-encoded workloads are written once in thorin syntax
(workloads.py) and translated; the data type ones (stlcData, stlcData10k)
are written once per system (workloads.STLC_DATA, _AGDA, _IDRIS), the 10k
file repeating the block with every top-level name and constructor renamed.

The Idris 2 files (for `idris2 --no-prelude --check`; tried with Idris 2
0.8.0) start with `%unbound_implicits off`: Idris 2 otherwise binds a
lower-case name in an argument position of a signature as a fresh implicit
even when a global of that name exists (`nat : uTy` would not mean the
global `nat`); the translation binds its implicits explicitly. And an
equation whose signature has a hole (`_`, as in TreeConvM) is checked inside
a body, `conv : Type` / `conv = let c : TYPE = refl in Type`: Idris 2 binds
the holes of a signature as implicits before the body is checked ("Can't
bind implicit … of type uT").
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import workloads as W  # noqa: E402

# ---------------------------------------------------------------------------
# Entries of a thorin-syntax template


def entries(src):
    """Splits a template into (name, type, term) top-level entries."""
    out, cur = [], []
    for line in src.strip("\n").splitlines():
        if line and not line[0].isspace() and cur:
            out.append("\n".join(cur))
            cur = []
        if line.strip() or cur:
            cur.append(line)
    if cur:
        out.append("\n".join(cur))
    res = []
    for e in out:
        e = e.rstrip()
        m = re.match(r"(\S+)\s*:\s*(.*?)\s*(?:\n\s*)?=\s(.*)", e, re.S)
        if not m:
            m2 = re.match(r"(\S+)\s*:\s*(.*?)\n?\s*=\n(.*)", e, re.S)
            m = m2
        if not m:
            raise ValueError("cannot split entry:\n" + e)
        res.append((m.group(1), m.group(2).strip(), m.group(3).strip()))
    return res


def rename(src, suffix):
    """Renames every top-level name of `src` (and, harmlessly, every bound
    variable spelled the same) by appending `suffix`: an α-equivalent copy."""
    names = [n for n, _, _ in entries(src)]
    pat = re.compile(r"(?<![\w'])(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")(?![\w'])")
    return pat.sub(lambda m: m.group(1) + suffix, src)


# ---------------------------------------------------------------------------
# Translation to the peers' syntax

def binders(bs):
    return bs.split()


def to_agda_term(t):
    t = re.sub(r"(?<![\w'])U(?![\w'])", "Set", t)
    t = re.sub(r"λ([^.]*?)\.(?=[\s(])", lambda m: "λ" + m.group(1) + " →", t)
    t = re.sub(r"\{([\w' ]+)\} →", lambda m: "∀ {" + m.group(1) + "} →", t)
    t = re.sub(r"let (\S+) = ([^;]*);", r"let \1 = \2 in", t)
    return t


def to_idris_term(t):
    t = re.sub(r"(?<![\w'])U(?![\w'])", "Type", t)
    # Capitalised names would read as constructors in Idris patterns: rename
    # them all (consistently, so the program stays α-equivalent).
    t = re.sub(r"(?<![\w'])([A-Z][\w']*)", lambda m: m.group(1) if m.group(1) == "Type" else "u" + m.group(1), t)
    t = re.sub(r"λ([^.]*?)\.(?=[\s(])", lambda m: "\\" + ", ".join(binders(m.group(1))) + " =>", t)
    t = re.sub(r"\{([\w' ]+)\} →", lambda m: "{" + ", ".join(m.group(1).split()) + " : _} →", t)
    t = re.sub(r"([({])([\w' ]+?) :", lambda m: m.group(1) + ", ".join(m.group(2).split()) + " :", t)
    t = re.sub(r"let (\S+) = ([^;]*);", r"let \1 = \2 in", t)
    t = t.replace("→", "->")
    return t


def thorin_file(src):
    return src.strip("\n") + "\n"


def split_implicit_lambdas(tm):
    """`λ {a} {b} rest. t` → (["a", "b"], "λ rest. t" or "t"): leading
    implicit binders become implicit patterns on the left-hand side, where
    Agda and Idris bind them (a clause with no patterns would insert them)."""
    m = re.match(r"λ((?: \{[\w']+\})+)(.*)", tm, re.S)
    if not m:
        return [], tm
    imps = re.findall(r"\{([\w']+)\}", m.group(1))
    rest = m.group(2)
    return imps, (rest.lstrip()[1:].strip() if rest.lstrip().startswith(".") else "λ" + rest)


def agda_file(module, src):
    lines = ["{-# OPTIONS --type-in-type #-}", f"module {module} where", ""]
    for name, ty, tm in entries(src):
        imps, tm = split_implicit_lambdas(tm)
        lhs = name + "".join(" {" + i + "}" for i in imps)
        lines.append(f"{name} : {to_agda_term(ty)}")
        lines.append(f"{lhs} = {to_agda_term(tm)}")
        lines.append("")
    return "\n".join(lines)


IDRIS_HEADER = "%unbound_implicits off\n\n"


def has_hole(ity):
    """Whether an Idris type has a hole (`_`) left for a body to solve: not
    the type of a binder (`{uG, uA : _}`, solved by the signature itself) nor
    a λ's anonymous argument."""
    ity = re.sub(r":\s*_\s*[})]", ":)", ity)
    ity = re.sub(r"\\[^=]*=>", "", ity)
    return re.search(r"(?<![\w'])_(?![\w'])", ity) is not None


def idris_file(src):
    lines = [IDRIS_HEADER.rstrip("\n"), ""]
    for name, ty, tm in entries(src):
        iname = to_idris_term(name)
        imps, tm = split_implicit_lambdas(tm)
        ity = to_idris_term(ty)
        if has_hole(ity):
            # Checked inside a body, where the hole is solved by the term.
            assert not imps, name
            lines.append(f"{iname} : Type")
            lines.append(f"{iname} = let c : {ity} = {to_idris_term(tm)} in Type")
            lines.append("")
            continue
        lhs = iname + "".join(" {" + to_idris_term(i) + "}" for i in imps)
        lines.append(f"{iname} : {ity}")
        lines.append(f"{lhs} = {to_idris_term(tm)}")
        lines.append("")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Workloads written once per system (the data types): renaming for the
# scaled copies, and the file of each system

def defined_names(src):
    """The names a hand-written source defines (any of the three systems):
    the first word of each line in column 0 (a signature, a clause, a
    definition), the name after `data`, and the constructors (the indented
    `name :` lines under a `data … where`)."""
    names, in_data = [], False
    for line in src.splitlines():
        if not line.strip() or line.startswith(("--", "%", "{-")):
            continue
        if not line[0].isspace():
            in_data = line.startswith("data ")
            m = re.match(r"(?:data\s+)?([^\s:(]+)", line)
            names.append(m.group(1))
        elif in_data:
            m = re.match(r"\s+([^\s:]+)\s*:", line)
            if m:
                names.append(m.group(1))
    return list(dict.fromkeys(names))


def rename_names(src, names, suffix):
    """`src` with each of `names` (as a whole word) suffixed: an α-equivalent
    copy whose top-level names are fresh."""
    pat = re.compile(r"(?<![\w'])(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
                     + r")(?![\w'])")
    return pat.sub(lambda m: m.group(1) + suffix, src)


def scaled_copies(src, copies):
    names = defined_names(src)
    return "\n".join(rename_names(src, names, f"'{i}") for i in range(copies))


def handwritten():
    """name → {system: text} for the workloads written once per system (the
    thorin text is workloads()'s template). The 10k file has as many copies
    of the block in every system as the thorin text needs for ~10k lines."""
    copies = -(-10000 // len(W.STLC_DATA.strip().splitlines()))
    texts = {"thorin": W.STLC_DATA, "agda": W.STLC_DATA_AGDA, "idris": W.STLC_DATA_IDRIS}
    return {
        "stlcData": texts,
        "stlcData10k": {s: scaled_copies(t, copies) for s, t in texts.items()},
    }


def peer_file(name, system, text):
    """The file of a hand-written workload for `system`."""
    if system == "agda":
        return f"module {name} where\n\n" + text.strip("\n") + "\n"
    if system == "idris":
        return IDRIS_HEADER + text.strip("\n") + "\n"
    return thorin_file(text)


# ---------------------------------------------------------------------------
# The workloads

def scaled(src, target_lines):
    n = max(1, -(-target_lines // len(src.strip().splitlines())))
    return "\n".join(rename(src, f"'{i}") for i in range(n))


def workloads(big=False):
    """name → (template source, systems). Systems: subset of thorin/agda/idris."""
    all3 = ("thorin", "agda", "idris")
    less = W.stlc_less_impl(W.STLC)
    ws = {
        "stlc": (W.STLC, all3),
        "stlcLessImpl": (less, all3),
        "stlcSmall": (W.STLC_SMALL, all3),
        "stlc5k": (scaled(W.STLC, 5000), all3),
        "stlcLessImpl5k": (scaled(less, 5000), all3),
        "stlcSmall5k": (scaled(W.STLC_SMALL, 5000), all3),
        "stlc10k": (scaled(W.STLC, 10000), all3),
        "stlcLessImpl10k": (scaled(less, 10000), all3),
        "stlcSmall10k": (scaled(W.STLC_SMALL, 10000), all3),
    }
    if big:
        ws["stlcSmall1M"] = (scaled(W.STLC_SMALL, 1_000_000), ("thorin",))
    base = W.CHURCH + W.BIG_NATS
    for n in ("1M", "5M", "10M"):
        ws[f"NatConv{n}"] = (base + f"\nconv : Eq Nat n{n} n{n}b = refl\n", all3)
    trees = W.CHURCH + W.TREES
    for d in [15, 18, 19, 20, 21, 22, 23]:
        ws[f"TreeConv{d}"] = (trees + f"\nconv : Eq Tree (fullTree n{d}) (fullTreeB n{d}) = refl\n", all3)
        # the hole at the leaves is solved during the conversion check
        ws[f"TreeConvM{d}"] = (trees + f"\nconv : Eq Tree (fullTree n{d}) (λ T l nd. n{d} T (λ t. nd t t) _) = refl\n", all3)
        ws[f"ForceTree{d}"] = (trees + f"\nforce : Eq Bool (forceTree (fullTree n{d})) true = refl\n", all3)
    for name, texts in handwritten().items():
        ws[name] = (texts["thorin"], all3)
    ws["idTest"] = (W.ID_TEST + "\nidTest : {A : U} → A → A\n  = " + " ".join(["id"] * 40) + "\n", all3)
    lets = "".join(f"  let x{i + 1} = dup x{i};\n" for i in range(30))
    ws["pairTest"] = (W.PAIR_TEST + "\npairTest : U\n  = let x0 = dup U;\n" + lets + "  U\n", all3)
    for n in (960, 1920):
        ty = "suc (" * n + "zero" + ")" * n
        body = "vcons U (" * n + "vnil" + ")" * n
        ws[f"vecTest{n}"] = (W.CHURCH + W.VEC + f"\nvecTest : Vec U ({ty})\n  = {body}\n", all3)
    return ws


WRONG_STLC = "\nwrong : {G} → Tm G (arr nat nat)\n  = lam (lam v0)\n"
WRONG_STLC_SMALL = "\nwrong : {G A} → Tm G (arr A A)\n  = lam (lam v0)\n"


def wrong_variants():
    """A deliberately wrong version of each workload family (thorin syntax):
    each must be rejected with a located error. Used by the test suite."""
    trees = W.CHURCH + W.TREES
    base = W.CHURCH + W.BIG_NATS
    less = W.stlc_less_impl(W.STLC)
    lets = "".join(f"  let x{i + 1} = dup x{i};\n" for i in range(30))
    return {
        "stlc": W.STLC + WRONG_STLC,
        "stlcLessImpl": less + WRONG_STLC,
        "stlcSmall": W.STLC_SMALL + WRONG_STLC_SMALL,
        "stlc10k": scaled(W.STLC + WRONG_STLC, 10000),
        "stlcLessImpl10k": scaled(less + WRONG_STLC, 10000),
        "stlcSmall10k": scaled(W.STLC_SMALL + WRONG_STLC_SMALL, 10000),
        "NatConv1M": base + "\nconv : Eq Nat n1M (suc n1Mb) = refl\n",
        "TreeConv15": trees + "\nconv : Eq Tree (fullTree n15) (fullTreeB (suc n15)) = refl\n",
        "TreeConvM15": trees + "\nconv : Eq Tree (fullTree n15) (λ T l nd. n15 T (λ t. nd t t) (nd l _)) = refl\n",
        "ForceTree15": trees + "\nforce : Eq Bool (forceTree (fullTree n15)) false = refl\n",
        "idTest": W.ID_TEST + "\nidTest : {A : U} → A → A → A\n  = " + " ".join(["id"] * 40) + "\n",
        "pairTest": W.PAIR_TEST + "\npairTest : U → U\n  = let x0 = dup U;\n" + lets + "  U\n",
        "vecTest960": W.CHURCH + W.VEC + "\nvecTest : Vec U (suc zero)\n  = " + "vcons U (" * 960 + "vnil" + ")" * 960 + "\n",
        "stlcData": W.STLC_DATA + "\nwrong : Eq N (run (app fact (suc t3))) n12 = refl\n",
    }


def nf_workloads():
    """Normalization workloads (thorin's [nftime]); the peers have no direct equivalent."""
    trees = W.CHURCH + W.TREES
    return {f"NfTree{d}": trees + f"\nnf [nftime] : Tree = fullTree n{d}\n" for d in [15, 18, 19, 20, 21, 22, 23]}


def write(out, big=False):
    paths = {}
    hand = handwritten()
    for name, (src, systems) in workloads(big).items():
        for sys_ in systems:
            ext = {"thorin": "thorin", "agda": "agda", "idris": "idr"}[sys_]
            d = os.path.join(out, sys_)
            os.makedirs(d, exist_ok=True)
            p = os.path.join(d, f"{name}.{ext}")
            if name in hand:
                text = peer_file(name, sys_, hand[name][sys_])
            else:
                text = {"thorin": lambda: thorin_file(src),
                        "agda": lambda: agda_file(name, src),
                        "idris": lambda: idris_file(src)}[sys_]()
            with open(p, "w", encoding="utf-8") as f:
                f.write(text)
            paths[(name, sys_)] = p
    for name, src in nf_workloads().items():
        d = os.path.join(out, "thorin")
        p = os.path.join(d, f"{name}.thorin")
        with open(p, "w", encoding="utf-8") as f:
            f.write(thorin_file(src))
        paths[(name, "thorin")] = p
    return paths


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "out", "gen"))
    ap.add_argument("--big", action="store_true", help="also write stlcSmall1M (~50 MB)")
    a = ap.parse_args()
    paths = write(a.out, a.big)
    print(f"wrote {len(paths)} files under {a.out}")


if __name__ == "__main__":
    main()
