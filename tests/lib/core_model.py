"""A Python model of %core arithmetic, as docs/runtime.md specifies it: the
independent computation the differential tests compare thorin's
interpreter and JIT tiers with.

- I64: two's complement, wrapping on + - *; `/` and `%` truncate (as in C),
  INT64_MIN / -1 = INT64_MIN and INT64_MIN % -1 = 0 (wrapping too);
- Nat: unbounded; `a - b` is 0 when b > a; `/` and `%` floor (= truncate);
- F64: IEEE doubles; x / 0.0 is ±inf or NaN, as in C;
- a division or remainder by zero (I64 or Nat) is a run-time error, with
  thorin's message ("division by zero", "remainder by zero"), and so is an
  index out of range (`idx`).
Run-time errors raise RunError(msg); `depth` is for the caller to fill in
(how deep in calls it happened).
"""
import math

I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1
I64, NAT, F64, BOOL = "I64", "Nat", "F64", "Bool"
COMPARISONS = ["==", "!=", "<", "<=", ">", ">="]


class RunError(Exception):
    """A run-time error of the program: thorin stops it with `msg`."""

    def __init__(self, msg, depth=None):
        super().__init__(msg)
        self.msg, self.depth = msg, depth


def wrap(x):
    """x as an I64 (two's complement wrapping)."""
    return ((x - I64_MIN) & ((1 << 64) - 1)) + I64_MIN


def _trunc_div(x, y):
    return abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)


def i64_div(x, y):
    if y == 0:
        raise RunError("division by zero")
    return wrap(_trunc_div(x, y))


def i64_rem(x, y):
    if y == 0:
        raise RunError("remainder by zero")
    return wrap(x - y * _trunc_div(x, y))


def nat_sub(a, b):
    return a - b if a > b else 0


def nat_div(a, b):
    if b == 0:
        raise RunError("division by zero")
    return a // b


def nat_rem(a, b):
    if b == 0:
        raise RunError("remainder by zero")
    return a % b


def f64_div(a, b):
    if b == 0.0:
        if a != a or a == 0.0:
            return math.nan
        return math.inf if (a > 0) == (math.copysign(1.0, b) > 0) else -math.inf
    return a / b


def nat_to_f64(n):
    """natToF64: the nearest double (round to even); inf beyond the range."""
    try:
        return float(n)
    except OverflowError:
        return math.inf


def idx(n, k):
    """`idx k : Idx n`."""
    if k >= n:
        raise RunError(f"idx: {k} is out of range for Idx {n}")
    return k


ARITH = {
    I64: {"+": lambda a, b: wrap(a + b), "-": lambda a, b: wrap(a - b),
          "*": lambda a, b: wrap(a * b), "/": i64_div, "%": i64_rem},
    NAT: {"+": lambda a, b: a + b, "-": nat_sub, "*": lambda a, b: a * b,
          "/": nat_div, "%": nat_rem},
    F64: {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
          "/": f64_div},
}

COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
           "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def arith(op, ty, a, b):
    """`a op b` for op in + - * / % at type ty (I64, Nat or F64; no % on F64)."""
    return ARITH[ty][op](a, b)


def compare(op, a, b):
    return COMPARE[op](a, b)
