#!/usr/bin/env python3
"""Robustness: thousands of randomly damaged programs (fixed seed) must each
end with exit 0 or 1 and a clean message — never a crash, a sanitizer report,
an internal error, or a hang that Ctrl-C does not end."""
import glob
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PIECES = ["λ", "\\", ".", "(", ")", "{", "}", "→", "->", "×", ",", ":", "=", ";", "_", "U",
          "let", "\n", "\n  ", " ", "x", "{A = B}", ".1", ".2", ".x", "{-", "-}", "--", "\"",
          ".check ", ".nf ", ".ax ", ".import ", "Γ", "\xff", "[elabtime]", "?", "%", "0", "1.5",
          # builtin data and running programs
          " + ", " * ", " / 0", " - ", " == ", " < ", " && ", "if ", " then ", " else ", "[", "]",
          "[1, 2]", "\"s\"", "1e400", "9223372036854775808", "(x : I64)", "idx 7", "get ",
          ".eval ", "%core.nat.add", "natElim", "build 3", "fib"]


def mutate(rng, text):
    for _ in range(rng.randint(1, 4)):
        if not text:
            text = rng.choice(PIECES)
        i = rng.randrange(len(text) + 1)
        op = rng.randrange(4)
        if op == 0:
            text = text[:i] + rng.choice(PIECES) + text[i:]
        elif op == 1:
            j = min(len(text), i + rng.randint(1, 12))
            text = text[:i] + text[j:]
        elif op == 2:
            j = rng.randrange(len(text) + 1)
            a, b = sorted((i, j))
            text = text[:a] + text[b:] + text[a:b]
        else:
            j = min(len(text), i + rng.randint(1, 30))
            text = text[:i] + text[i:j] * 2 + text[j:]
    return text


def main():
    exe = thorin.binary()
    count = int(os.environ.get("THORIN_FUZZ_COUNT", str(thorin.scaled(exe, 400))))
    # (in the order of their paths as before the golden tests' topic
    # folders: the same seeds give the same damaged programs)
    seeds = sorted(glob.glob(os.path.join(ROOT, "tests/golden/*/*.thorin")) +
                   glob.glob(os.path.join(ROOT, "tests/run/*.thorin")) +
                   glob.glob(os.path.join(ROOT, "examples/*.thorin")),
                   key=lambda p: re.sub(r"/tests/golden/[^/]+/", "/tests/golden/", p))
    texts = [open(s, encoding="utf-8", errors="replace").read() for s in seeds] or ["id : {A : U} → A → A = λ x. x\n"]
    rng = random.Random(20261121)
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.thorin")
        for n in range(count):
            text = mutate(rng, rng.choice(texts))
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text)
            # Every fourth case also runs, with everything compiled at once:
            # exit 2 (a located run-time error) is then allowed too.
            run = n % 4 == 3
            args = ["run", "--jit=eager", "m.thorin"] if run else ["check", "m.thorin"]
            # A damaged program may loop for good (`walk xs i` where it was
            # `walk xs (i + 1)`): as at the prompt, Ctrl-C must then stop it
            # with a located "interrupted" error.
            p = thorin.popen(exe, *args, cwd=d)
            try:
                raw, _ = p.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                p.send_signal(signal.SIGINT)
                try:
                    raw, _ = p.communicate(timeout=20)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.communicate()
                    print(f"case {n}: still running 20 s after Ctrl-C\n---\n{text}\n---")
                    bad += 1
                    continue
                if ": error: interrupted" not in raw.decode("utf-8", "replace"):
                    print(f"case {n}: Ctrl-C without an 'interrupted' error\n---\n{text}\n---")
                    bad += 1
                    continue
            out = raw.decode("utf-8", "replace")
            ok = (0, 1, 2) if run else (0, 1)
            if p.returncode not in ok or "internal error" in out or "runtime error" in out \
                    or "Sanitizer" in out:
                print(f"case {n}: exit {p.returncode}\n{out[:2000]}\n--- input ---\n{text}\n---")
                bad += 1
            elif p.returncode in (1, 2) and ": error: " not in out:
                print(f"case {n}: exit 1 without a located error\n{out[:2000]}")
                bad += 1
    print(f"{count} damaged programs, {bad} failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
