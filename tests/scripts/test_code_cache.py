#!/usr/bin/env python3
"""The code cache of `thorin run` (jit/llvm/code_cache.hpp). A program whose
hot functions LLVM compiles is run twice: the second run links them from the
cache (--jit-stats says so) and prints the same value, as does --jit=off. An
edited function is compiled afresh; corrupt entries are compiled again,
silently, and replaced; --no-code-cache and THORIN_CACHE_DIR= (empty) use no
cache; a cache directory that others may write to, or that is a file, is not
used; `thorin check` writes nothing there; the directory is the user's alone
(0700) and so are its entries (0600).
"""
import os
import re
import stat
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402

# A global string, a hot worker on a product (its state), a driver: what the
# Brainfuck benchmark's code is made of.
PROGRAM = """
text : String = "the quick brown fox jumps over the lazy dog"

State : U = Nat × Nat

step : State → Nat → State
  = λ s i. ((s.1 * 31 + strAt text (i % strLen text) + {k}) % 1000003, s.2 + 1)

loop : Nat → State → State
  = λ n s. if n == 0 then s else loop (n - 1) (step s n)

main : Nat = (loop 200000 (0, 0)).1
"""

failures = []


def expect(cond, what, detail=""):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}\n{detail}")


def run(exe, path, cache, *flags):
    env = {"THORIN_CACHE_DIR": cache} if cache is not None else {}
    return thorin.run(exe, "run", "--jit-stats", *flags, path, env=env, timeout=300)


def linked(err):
    return re.findall(r"^jit: compiled (\S+) in [\d.]+ ms \(from the code cache\)$", err, re.M)


def compiled(err):
    return re.findall(r"^jit: compiled (\S+) in [\d.]+ ms$", err, re.M)


def entries(d):
    return sorted(f for f in os.listdir(d) if f.endswith(".o")) if os.path.isdir(d) else []


def main():
    exe = thorin.binary()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "prog.thorin")
        with open(path, "w") as f:
            f.write(PROGRAM.format(k=7))
        want = thorin.run(exe, "run", "--jit=off", path, timeout=300).out
        expect(re.fullmatch(r"\d+\n", want) is not None, "the program prints a number", want)
        cache = os.path.join(tmp, "cache", "jit")

        first = run(exe, path, cache)
        expect(first.code == 0 and first.out == want, "first run: the interpreter's value",
               first.out + first.err)
        expect(compiled(first.err) and not linked(first.err),
               "first run: compiled by LLVM, nothing from the cache", first.err)
        files = entries(cache)
        expect(len(files) >= 1, "first run: entries written", str(files))
        expect(os.path.isdir(cache) and stat.S_IMODE(os.stat(cache).st_mode) == 0o700, "the cache directory is 0700",
               oct(os.stat(cache).st_mode))
        expect(all(stat.S_IMODE(os.stat(os.path.join(cache, e)).st_mode) == 0o600 for e in files),
               "entries are 0600")

        second = run(exe, path, cache)
        expect(second.code == 0 and second.out == want, "second run: the same value",
               second.out + second.err)
        expect(linked(second.err) == compiled(first.err) and not compiled(second.err),
               "second run: the same functions, linked from the cache", second.err)
        expect(entries(cache) == files, "second run: no new entries", str(entries(cache)))

        # An edit inside the hot function: a new key, compiled afresh.
        with open(path, "w") as f:
            f.write(PROGRAM.format(k=8))
        want8 = thorin.run(exe, "run", "--jit=off", path, timeout=300).out
        expect(want8 != want, "the edit changes the value")
        edited = run(exe, path, cache)
        expect(edited.out == want8, "edited: the new value (not the cached code's)",
               edited.out + edited.err)
        expect("step" in compiled(edited.err), "edited: compiled afresh", edited.err)

        # Corrupt entries: compiled again, no message, and replaced.
        for e in entries(cache):
            with open(os.path.join(cache, e), "r+b") as f:
                f.truncate(40)
        broken = run(exe, path, cache)
        expect(broken.code == 0 and broken.out == want8, "corrupt entries: the right value",
               broken.out + broken.err)
        noise = [l for l in broken.err.splitlines() if not l.startswith("jit: ")]
        expect(not noise, "corrupt entries: nothing printed but the statistics", broken.err)
        again = run(exe, path, cache)
        expect("step" in linked(again.err) and "step" in compiled(broken.err),
               "corrupt entries were compiled again, then replaced: linked on the next run",
               broken.err + again.err)

        # No cache: the flag, or THORIN_CACHE_DIR set empty.
        empty = os.path.join(tmp, "unused")
        off = run(exe, path, empty, "--no-code-cache")
        expect(off.out == want8 and not linked(off.err) and not os.path.exists(empty),
               "--no-code-cache: neither used nor made", off.err)
        off2 = run(exe, path, "")
        expect(off2.out == want8 and not linked(off2.err), "THORIN_CACHE_DIR=: no cache", off2.err)

        # A directory others may write to is not used; neither is a file.
        shared = os.path.join(tmp, "shared")
        os.mkdir(shared)
        os.chmod(shared, 0o777)
        r = run(exe, path, shared)
        expect(r.out == want8 and entries(shared) == [], "a world-writable cache is not used",
               str(entries(shared)) + r.err)
        afile = os.path.join(tmp, "afile")
        open(afile, "w").close()
        r = run(exe, path, afile)
        expect(r.code == 0 and r.out == want8, "a cache path that is a file: runs, uncached",
               r.out + r.err)

        # Checking never writes to the cache.
        fresh = os.path.join(tmp, "fresh")
        r = thorin.run(exe, "check", "--jit-threshold", "1", path, env={"THORIN_CACHE_DIR": fresh},
                       timeout=300)
        expect(r.code == 0 and not os.path.exists(fresh), "check: no cache made", r.err)

    print("code cache: " + ("ok" if not failures else f"{len(failures)} failures"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
