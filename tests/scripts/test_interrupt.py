#!/usr/bin/env python3
"""Ctrl-C (SIGINT) interrupts a long normalization: the REPL reports it and
keeps its state; the next input works."""
import os
import signal
import sys
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402

PROGRAM = """Nat : U = (N : U) → (N → N) → N → N
suc : Nat → Nat = λ n N s z. s (n N s z)
zero : Nat = λ N s z. z
mul : Nat → Nat → Nat = λ a b N s z. a N (b N s) z
n10 : Nat = suc (suc (suc (suc (suc (suc (suc (suc (suc (suc zero)))))))))
n1k = mul n10 (mul n10 n10)
n1G = mul n1k (mul n1k n1k)
n1Gb = mul (mul n1k n1k) n1k
Eq : {A : U} → A → A → U = λ {A} x y. (P : A → U) → P x → P y
refl : {A : U}{x : A} → Eq x x = λ P px. px
"""


def main():
    p = thorin.popen(thorin.binary(), "--no-prelude", stdin=True)
    # A conversion check between two billions: runs for minutes, in constant stack.
    p.stdin.write((PROGRAM + "ok : U = U\nt : Eq n1G n1Gb = refl\n").encode())
    p.stdin.flush()
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    time.sleep(0.2)
    out, _ = p.communicate((":t ok\n:t n1G\n:t t\n").encode(), timeout=60)
    out = out.decode()
    want = "error: interrupted"
    ok = (want in out and "ok : U\n" in out and "n1G : Nat\n" in out and
          "unknown name 't'" in out and p.returncode == 0)
    print(out)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
