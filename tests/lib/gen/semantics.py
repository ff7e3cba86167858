"""What %core's operations do in the model (tests/lib/gen/model.py), in two
flavours over core_model's arithmetic:

- Exact: as thorin runs them; a run-time error (division by zero, an index
  out of range) raises core_model.RunError, part of the expected output.
  `&&` and `||` are short, as in thorin.
- Conservative: anything the spec leaves open or a program must avoid (a
  division by zero, INT64_MIN / -1, an F64 that is not finite, a Nat over
  512 bits, a conversion out of range) rejects the program part; `&&` and
  `||` are strict, so a lazier thorin cannot fail where the model succeeded.

An operator compiles to Python source (`op`); primitives are Python
functions of all their arguments (the model curries them where needed).
"""
import math

import core_model
from core_model import I64_MAX, I64_MIN

from .model import ArrV, OutOfBudget, Reject

COMPARE = set(core_model.COMPARE)


def _prims(**more):
    """The primitives both flavours share, and more."""
    base = {
        "get": (2, lambda a, i: a[i]),
        "length": (1, len),
        "idxToNat": (1, lambda i: i),
        "build": (2, lambda n, f: ArrV(f(k) for k in range(n))),
    }
    base.update(more)
    return base


class Exact:
    def __init__(self, nat_bits):
        def nmul(a, b):                     # a larger product puts the .eval over budget
            if a.bit_length() + b.bit_length() > nat_bits:
                raise OutOfBudget()
            return a * b
        self.namespace = {"W": core_model.wrap, "IDIV": core_model.i64_div, "IREM": core_model.i64_rem,
                          "NSUB": core_model.nat_sub, "NDIV": core_model.nat_div,
                          "NREM": core_model.nat_rem, "NMUL": nmul, "FDIV": core_model.f64_div,
                          "IDX": core_model.idx}
        self.prims = _prims(natToF64=(1, core_model.nat_to_f64))

    OPS = {("I64", "+"): "W({a} + {b})", ("I64", "-"): "W({a} - {b})", ("I64", "*"): "W({a} * {b})",
           ("I64", "/"): "IDIV({a}, {b})", ("I64", "%"): "IREM({a}, {b})",
           ("Nat", "+"): "({a} + {b})", ("Nat", "-"): "NSUB({a}, {b})", ("Nat", "*"): "NMUL({a}, {b})",
           ("Nat", "/"): "NDIV({a}, {b})", ("Nat", "%"): "NREM({a}, {b})",
           ("F64", "+"): "({a} + {b})", ("F64", "-"): "({a} - {b})", ("F64", "*"): "({a} * {b})",
           ("F64", "/"): "FDIV({a}, {b})"}

    def op(self, op, ty, a, b):
        if op in COMPARE:
            return f"({a} {op} {b})"
        if op in ("&&", "||"):
            return f"({a} {'and' if op == '&&' else 'or'} {b})"
        return self.OPS[ty, op].format(a=a, b=b)


def check_f64(x):
    if not math.isfinite(x):
        raise Reject("non-finite F64")
    return x


def binop(op, ty, a, b):
    """`a op b` at operand type ty (a name), conservatively."""
    if op in ("&&", "||"):
        return (a and b) if op == "&&" else (a or b)
    if op in COMPARE:
        return core_model.compare(op, a, b)
    if op in ("/", "%") and b == 0:
        raise Reject(f"{ty} division by zero")
    if ty == "I64" and op in ("/", "%") and a == I64_MIN and b == -1:
        raise Reject("I64_MIN / -1")
    r = core_model.arith(op, ty, a, b)
    if ty == "Nat" and r.bit_length() > 512:
        raise Reject("Nat too large")
    return check_f64(r) if ty == "F64" else r


def nat_to_i64(n):
    if n > I64_MAX:
        raise Reject("natToI64: too large")
    return n


def i64_to_nat(x):
    if x < 0:
        raise Reject("i64ToNat: negative")
    return x


def f64_to_i64(x):
    if math.isnan(x) or not (I64_MIN <= math.trunc(x) <= I64_MAX):
        raise Reject("f64ToI64: out of range")
    return int(math.trunc(x))


def nat_to_f64(x):
    if x > 1 << 53:
        raise Reject("natToF64 of a large Nat may round differently")
    return float(x)


def idx(n, k):
    if k >= n:
        raise Reject("idx out of range")
    return k


class Conservative:
    namespace = {"BIN": binop, "IDX": idx}
    prims = _prims(
        natToI64=(1, nat_to_i64), i64ToNat=(1, i64_to_nat), f64ToI64=(1, f64_to_i64),
        i64ToF64=(1, lambda x: check_f64(float(x))), natToF64=(1, nat_to_f64),
        sqrt=(1, lambda x: check_f64(math.sqrt(x)) if x >= 0 else float("nan")),
        set=(3, lambda a, i, v: ArrV(a[:i] + [v] + a[i + 1:])),
        **{"not": (1, lambda b: not b)},
        # the prelude
        id=(1, lambda x: x), const=(2, lambda x, _y: x), comp=(3, lambda f, g, x: f(g(x))),
        flip=(3, lambda f, y, x: f(x)(y)))

    def op(self, op, ty, a, b):
        if op in COMPARE:
            return f"({a} {op} {b})"
        return f"BIN({op!r}, {ty!r}, {a}, {b})"           # strict: both operands first
