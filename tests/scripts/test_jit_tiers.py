#!/usr/bin/env python3
"""The JIT tier in a REPL session: functions are compiled when hot, calls
cross tiers, redefinition drops the compiled code of the function and of
everything compiled against it, a failed JIT falls back to the interpreter
with one warning, Ctrl-C stops a compiled loop, and run-time errors in
compiled code are located."""
import os
import re
import signal
import subprocess
import tempfile
import sys
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402


def repl(exe, text, *args, env=None):
    return thorin.run(exe, *args, input=text, merge=True, env=env, timeout=120).out


def compiled(out):
    """Names listed by :jit, in order, per :jit call (separated by a marker)."""
    return [re.findall(r"^(.+?)\s+\d+ calls\s+compiled in [\d.]+ ms(?: \(baseline code\))?$", part, re.M)
            for part in out.split("--mark--")]


def interrupted(exe, text, timeout=60):
    """A --jit=eager session given `text`, sent Ctrl-C after 2 s, then asked 6 * 7."""
    p = thorin.popen(exe, "--jit=eager", stdin=True)
    p.stdin.write(text.encode())
    p.stdin.flush()
    time.sleep(2.0)
    p.send_signal(signal.SIGINT)
    time.sleep(0.5)
    try:
        out, _ = p.communicate(b":eval 6 * 7\n", timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
        return out.decode() + f"\n(no answer {timeout} s after Ctrl-C)"
    return out.decode()


def expect(cond, what, out):
    if not cond:
        print(f"FAILED: {what}\n--- output ---\n{out}")
        sys.exit(1)


def main():
    exe = thorin.binary()

    # A function on words (Nats: no worker) that calls itself in tail
    # position is a loop in compiled code, as in the interpreter: a million
    # iterations with a 16 MB stack (it used to recurse and run out of it).
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "count.thorin")
        with open(path, "w") as f:
            f.write("f : Nat → Nat → Nat = λ n acc. if n == 0 then acc else f (n - 1) (acc + 1)\n"
                    ".eval f 1000000 0\n")
        for mode in ["--jit=eager", "--jit=lazy"]:
            p = thorin.run(exe, "run", mode, path, timeout=60, merge=True, stack_mb=16)
            expect(p.out == "1000000\n", f"a tail loop on Nats with {mode}",
                   p.out)

    # A function too large for LLVM (a 3,000-branch conditional, over the
    # 10,000-node limit; 10,000 branches took 11 s to compile) stays
    # interpreted, with a note under --jit-stats; its callers are compiled
    # and call it through the runtime (lazily: baseline code, which calls it
    # through the runtime too). The answer is the interpreter's.
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "big.thorin")
        branches = " else ".join(f"if x == {i} then {i * 7}" for i in range(3000))
        with open(path, "w") as f:
            f.write(f"f : I64 → I64 = λ x. {branches} else 0\n"
                    "loop : I64 → I64 → I64 = λ i acc. if i == 0 then acc "
                    "else loop (i - 1) (acc + f (i % 100))\n"
                    "main : I64 = loop 1000 0\n")
        outs = {}
        for mode in ["--jit=off", "--jit=eager", "--jit=lazy"]:
            p = thorin.run(exe, "run", mode, "--jit-stats", path, timeout=60)
            outs[mode] = (p.out, p.err)
        expect(all(o[0] == "346500\n" for o in outs.values()), "the large function's answer",
               str(outs))
        for mode in ["--jit=eager", "--jit=lazy"]:
            expect("jit: f is too large to compile (over 10000 nodes); it stays interpreted\n"
                   in outs[mode][1] and "compiled f " not in outs[mode][1] and
                   ("compiled loop" if mode == "--jit=eager" else "baseline code for loop")
                   in outs[mode][1], f"the large function with {mode}",
                   outs[mode][1])

    # --jit-threshold takes decimal digits only (a negative number used to
    # wrap around to 2^64 - 1).
    for bad in ["-5", "0", "+3", "99999999999999999999", "0x10", ""]:
        p = thorin.run(exe, "--jit-threshold", bad, "run", os.devnull, timeout=60, merge=True)
        expect(p.code == 2 and p.out ==
               "thorin: --jit-threshold needs a positive number\n",
               f"--jit-threshold {bad!r} is refused", p.out)

    p = thorin.run(exe, "--jit=fast", "run", os.devnull, timeout=60, merge=True)
    expect(p.code == 2 and p.out ==
           "thorin: --jit takes off, lazy, eager or baseline, not 'fast'\n",
           "an unknown --jit mode is refused", p.out)

    # Tier-up at the threshold, cross-tier calls, invalidation of dependents.
    out = repl(exe, """:set jit-threshold 2
sq : I64 → I64 = λ n. n * n
quad : I64 → I64 = λ n. sq (sq n)
:eval quad 3
:eval quad 3
:eval sq 2
:jit
:eval "--mark--"
sq : I64 → I64 = λ n. n + n
:jit
:eval "--mark--"
:eval sq 5
:eval quad 3
""")
    lines = [l for l in out.splitlines() if l and not l.startswith('"')]
    expect(lines[:3] == ["81", "81", "4"], "results before redefinition", out)
    parts = compiled(out)
    expect(set(parts[0]) == {"sq", "quad"}, "sq and quad are compiled after two calls", out)
    expect(parts[1] == [], "redefining sq drops sq's and quad's code", out)
    expect(lines[-2:] == ["10", "81"], "the new sq is used; the old quad keeps the old sq", out)

    # :llvm shows the worker of a first-order function: native arithmetic.
    out = repl(exe, """:set jit-threshold 2
fib : I64 → I64 = λ n. if n < 2 then n else fib (n - 1) + fib (n - 2)
:eval fib 10
:eval fib 10
:llvm fib
:llvm noSuchName
""")
    expect("define i64 @" in out and "fib.w(i64" in out, ":llvm prints the IR with a worker", out)
    expect("'noSuchName' is not defined" in out, ":llvm of an unknown name", out)
    # fib's worker is unrolled four levels deep: tail-call elimination leaves
    # one self-call in a loop, a copy of the body inlined there brings its own
    # loop (its own stack check) with one call, where the next copy goes; the
    # last copy's call is the one call left.
    worker = out[out.index("define i64 @", out.index("fib.w(i64") - 40):]
    worker = worker[:worker.index("\n}")]
    self_calls = worker.count("fib.w(i64 ") - 1  # (minus the definition)
    checks = worker.count("load volatile ptr, ptr @thorin_poll_limit")
    expect(self_calls == 1 and checks == 5, "fib's recursion unrolled in its worker", worker)

    # A hot λ inside a function that runs once is lifted out and compiled
    # (after 100 × the threshold calls), closing over f's parameter; a
    # run-time error in it is located; redefining f drops the lifted copy.
    out = repl(exe, """:set jit-threshold 2
f : I64 → I64 = λ k. natElim (λ _. I64) 0 (λ n acc. acc + natToI64 n * k) 1000
:eval f 3
:jit
:eval f 5
"--mark--"
f : I64 → I64 = λ k. natElim (λ _. I64) 0 (λ n acc. acc + k - 1000 / (natToI64 n - 900)) 1000
:eval f 3
:jit
:eval 1 + 1
""", "--jit-sync")
    lines = [l for l in out.splitlines() if l and not l.startswith('"')]
    expect(lines[0] == "1498500" and "2497500" in lines, "results of the lifted λ", out)
    parts = compiled(out)
    expect(parts[0] == ["f.λ1"], "the hot λ is compiled as f.λ1", out)
    # (1 + 1 may print before the error message: stdout and stderr share the pipe)
    expect("<interactive>:7:68: error: division by zero" in out and re.search(r"^2(?=<|$)", out, re.M),
           "a run-time error in a lifted λ is located; the session goes on", out)
    expect(len(parts) == 2 and parts[1] == ["f.λ1"],
           "redefining f drops the old lifted λ; the new one is lifted again", out)

    # Lifted λs survive the redefinition of another function (whose own
    # lifted λ is dropped), and a λ past a lowered threshold is lifted.
    out = repl(exe, """:set jit-threshold 1000
c : I64 = natElim (λ _. I64) 0 (λ n acc. (acc + 3 * natToI64 n) % 1000003) 3000
g : I64 → I64 = λ k. natElim (λ _. I64) 0 (λ n acc. acc + k) 3000
:eval c
:set jit-threshold 2
:eval c
:eval g 1
g : I64 → I64 = λ k. natElim (λ _. I64) 1 (λ n acc. acc + k) 3000
:eval c
:eval g 1
:jit
""", "--jit-sync")
    lines = [l for l in out.splitlines() if l]
    expect(lines[:5] == ["495461", "495461", "3000", "495461", "3001"], "results", out)
    expect(sorted(compiled(out)[0]) == ["c.λ1", "g.λ1"],
           "c's λ is lifted once the threshold is lowered, and kept when g is redefined", out)

    # With the baseline tier (lazy mode, background compilation), a λ it can
    # compile is lifted at the threshold itself and runs baseline code at
    # once; the evaluation ends with LLVM's code installed for it, as for a
    # top-level function (lifted λs tier up too). One it cannot compile (it
    # makes a closure) waits for 100 × the threshold.
    out = repl(exe, """:set jit-threshold 5
f : Nat → F64 = λ k. natElim (λ _. F64) 0.0 (λ n acc. acc + natToF64 (n * k) / 2.0) 200
:eval f 3
:jit
""", "--jit-stats")
    expect("29850.0" in out, "the lifted F64 λ's result", out)
    expect("jit: baseline code for f.λ1" in out, "a λ the baseline tier compiles is lifted early", out)
    expect(re.search(r"^f\.λ1 .* compiled in [\d.]+ ms$", out, re.M) is not None,
           "the lifted λ ends with LLVM's code (not marked baseline code)", out)

    # Eager mode compiles at once; a missing LLVM module falls back with one warning.
    out = repl(exe, ":eval 1 + 1\n", "--jit=eager",
               env={"THORIN_JIT_LIB": "/nonexistent/libthorin_llvm.so"})
    expect(out.strip() == "2", "no compilation, no warning without definitions", out)
    out = repl(exe, "sq : I64 → I64 = λ n. n * n\n:eval sq 7\n:eval sq 8\n", "--jit=eager",
               env={"THORIN_JIT_LIB": "/nonexistent/libthorin_llvm.so"})
    warnings = [l for l in out.splitlines() if l.startswith("warning:")]
    expect(len(warnings) == 1 and "stays interpreted" in warnings[0], "one fallback warning", out)
    expect("49" in out and "64" in out, "results with the fallback", out)

    # A run-time error inside compiled code is located; the session goes on.
    out = repl(exe, "f : I64 → I64 = λ n. if n == 0 then 1 / n else f (n - 1)\n"
                       ":eval f 3\n:eval 5\n", "--jit=eager")
    expect("<interactive>:1:39: error: division by zero" in out and out.strip().endswith("5"),
           "division by zero in compiled code", out)

    # Ctrl-C stops a compiled infinite loop and the prompt comes back.
    out = interrupted(exe, "spin : I64 → I64 = λ n. spin (n + 1)\n:eval spin 0\n")
    expect("interrupted" in out and out.strip().endswith("42"), "Ctrl-C in compiled code", out)

    # A loop whose trip count LLVM can bound drops its poll when the bound is
    # small (then LLVM vectorizes the sum over an array), and keeps it when
    # the bound is large: Ctrl-C stops a count-down from 10^15.
    out = repl(exe, "xs : Array 1024 I64 = build 1024 (λ i. natToI64 (idxToNat i))\n"
                       "sumA : Array 1024 I64 → Nat → I64 → I64 = λ a i acc. "
                       "if i < 1024 then sumA a (i + 1) (acc + get a (idx i)) else acc\n"
                       ":eval sumA xs 0 0\n:llvm sumA\n", "--jit=eager")
    expect(out.startswith("523776\n") and "x i64>" in out, "a bounded loop vectorized", out)
    out = interrupted(exe, "count : I64 → I64 → I64 = λ i acc. if i == 0 then acc "
                              "else count (i - 1) (acc * 3 + i)\n"
                              ":eval count 1000000000000000 0\n")
    expect("interrupted" in out and out.strip().endswith("42"), "Ctrl-C in a long counted loop",
           out)
    # What bounds an unpolled loop is its work, not its iterations: 4·10⁶
    # iterations of a 1,500-operation body (~15 s) keep their poll.
    body = "acc"
    for k in range(1500):
        body = f"({body} * 1.0000001 + 0.5)" if k % 2 == 0 else f"({body} / 1.0000002 - 0.25)"
    out = interrupted(exe, f"h : I64 → F64 → F64 = λ i acc. if i == 0 then acc "
                              f"else h (i - 1) {body}\n:eval h 4000000 1.0\n", timeout=8)
    expect("interrupted" in out and out.strip().endswith("42"), "Ctrl-C in a heavy bounded loop",
           out[-400:])
    # Specializations are compiled like any hot function, and dropped with the
    # function they came from when it is redefined (the old users still call
    # the old function: they are specialized and compiled again).
    out = repl(exe, """:set jit-threshold 2
loop @ : I64 → I64 → I64 = λ i acc. if i == 0 then acc else loop (i - 1) (acc + 2)
tri : I64 → I64 = λ n. loop n n
:eval tri 10
:eval tri 10
:eval tri 10
:jit
:eval "--mark--"
loop @ : I64 → I64 → I64 = λ i acc. if i == 0 then acc else loop (i - 1) (acc + 1)
:jit
:eval "--mark--"
:eval tri 10
:eval loop 10 10
:spec loop
""")
    lines = [l for l in out.splitlines() if l and not l.startswith('"')]
    parts = compiled(out)
    expect(lines[:3] == ["30", "30", "30"], "results with the specialized loop", out)
    expect("loop@(_ _)" in parts[0] and "tri" in parts[0], "the specialization is compiled", out)
    expect(parts[1] == [], "redefining loop drops its specialization and the code using it", out)
    expect("30" in lines and "20" in lines, "the old tri keeps the old loop; the new loop is new", out)

    # Normal forms by running code: which directives take that path (the
    # outputs themselves are compared with the evaluator's by run/nf_by_running).
    nf = os.path.join(os.path.dirname(__file__), "..", "run", "nf_by_running.thorin")
    p = thorin.run(exe, "check", "--jit-stats", "--jit-sync", "--jit-threshold", "1", nf, timeout=120)
    notes = re.findall(r"^jit: normal form (.*)$", p.err, re.M)
    counts = {n: notes.count(n) for n in set(notes)}
    expect(counts == {"by running code": 16,
                      "left to the evaluator (types in the result)": 2,
                      "left to the evaluator (the term uses a postulate)": 1,
                      "left to the evaluator (the term uses builtin data)": 1,
                      "left to the evaluator (the run recursed too deeply)": 2},
           "normal forms by running code, and those left to the evaluator", str(counts))
    lams = re.findall(r"^jit: compiled (\S+)", p.err, re.M)
    expect("twiceThen" in lams and "full" in lams, "the functions normalized are compiled", str(lams))
    p = thorin.run(exe, "check", "--jit=off", "--jit-stats", nf, timeout=120)
    expect("normal form" not in p.err, "--jit=off leaves normal forms to the evaluator",
           p.err)

    # Background compilation: the first hot function compiles on the calling
    # thread; the next (a driver whose callee runs compiled) in the background
    # while the interpreter goes on. The REPL settles each evaluation, so
    # :jit lists both right after, and the answers are the interpreter's.
    prog = """:set jit-threshold 5
step : I64 → I64 → I64 = λ i acc. if i == 0 then acc else step (i - 1) (acc + i % 7)
drive : I64 → I64 → I64 = λ r acc. if r == 0 then acc else drive (r - 1) (step 2000 acc)
:eval drive 400 0
:jit
"""
    out = repl(exe, prog, "--jit-stats")
    ref = repl(exe, prog, "--jit=off")
    answer = [l for l in out.splitlines() if not l.startswith("jit:")][0]
    expect(answer == ref.splitlines()[0] == "2400000", "the driver's answer", out + ref)
    expect(set(compiled(out)[0]) == {"step", "drive"}, "both are compiled by the end of the evaluation",
           out)
    expect(out.count("jit: compiled step") == 1 and out.count("jit: compiled drive") == 1,
           "each is compiled once", out)

    # Deoptimization (its answers are checked by run/deopt): each function
    # whose speculation fails leaves it once, and is compiled again without.
    dz = os.path.join(os.path.dirname(__file__), "..", "run", "deopt.thorin")
    p = thorin.run(exe, "run", "--jit-stats", "--jit-sync", dz, timeout=120)
    err = p.err
    deopts = re.findall(r"^jit: (\S+) met (.*): recompiling it without speculation, running again$",
                        err, re.M)
    expect(deopts == [("sumTo", "a Nat of 2^62 or more"), ("dbl", "a Nat of 2^62 or more"),
                      ("gap", "a Nat of 2^62 or more"),
                      ("total", "an array in another representation"),
                      ("countUp", "a Nat parameter of 2^61 or more")],
           "one deoptimization per function whose speculation fails", err)
    lams = re.findall(r"^jit: compiled (\S+)", err, re.M)
    expect(lams.count("sumTo") == 2 and lams.count("walk") == 1,
           "a deoptimized function is compiled once more, then kept", err)
    baseline_tier(exe)
    print("ok")


def source(d, name, text):
    """Writes `text` to the file d/name; its path."""
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def baseline_tier(exe):
    """The baseline tier (--jit=baseline: no LLVM). A hot function on I64 gets
    baseline code at once; its arithmetic agrees with the interpreter's at the
    edges (wrapping, division, boxed values of 2^62 and more); run-time
    errors, stack overflow and Ctrl-C unwind through its frames; redefinition
    drops exactly the code that called the old definition."""
    def run(path, *flags):
        p = thorin.run(exe, "run", *flags, path, timeout=60)
        return p.code, p.out, p.err

    def interrupt(path, *flags):
        """`thorin run` sent Ctrl-C after a second: its exit status and stderr."""
        p = thorin.popen(exe, "run", *flags, path, merge=False)
        time.sleep(1.0)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
        return p.returncode, err.decode()

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "fib.thorin")
        with open(path, "w") as f:
            f.write("fib : I64 → I64 = λ n. if n < 2 then n else fib (n - 1) + fib (n - 2)\n"
                    "main : I64 = fib 25\n")
        rc, out, err = run(path, "--jit=baseline", "--jit-stats")
        expect(rc == 0 and out == "75025\n" and
               re.fullmatch(r"jit: baseline code for fib in [\d.]+ ms\njit: evaluated in [\d.]+ ms\n", err) is not None,
               "fib runs baseline code (and nothing else compiles it)", out + err)

        # Edges of I64, computed by baseline code (each function is hot after
        # 2 calls) and by the interpreter. `big` returns and `keep` takes
        # values outside the immediates (boxed words).
        path = os.path.join(d, "edges.thorin")
        with open(path, "w") as f:
            f.write("""min : I64 = 0 - 9223372036854775807 - 1
ops : I64 → I64 → I64 → I64
  = λ k x y. if k == 0 then x / y else if k == 1 then x % y else if k == 2 then x * y
    else if k == 3 then x + y else x - y
keep : I64 → I64 → I64 = λ n x. if n == 0 then x else keep (n - 1) x
big : I64 → I64 = λ n. if n == 0 then 4611686018427387904 else big (n - 1) + 0
.eval ops 0 min (0 - 1)
.eval ops 1 min (0 - 1)
.eval ops 0 (0 - 7) 2
.eval ops 1 (0 - 7) 2
.eval ops 1 7 (0 - 2)
.eval ops 2 4611686018427387904 3
.eval ops 3 9223372036854775807 1
.eval ops 4 min 1
.eval keep 3 min
.eval keep 3 4611686018427387904
.eval big 3
.eval big 3 * 2
.eval ops 1 5 0
""")
        ref = run(path, "--jit=off")
        got = run(path, "--jit=baseline", "--jit-threshold", "2", "--jit-stats")
        expect(ref[0] == 2 and got[0] == 2 and got[1] == ref[1] and
               got[1].startswith("-9223372036854775808\n0\n-3\n-1\n1\n") and
               got[2].endswith(ref[2]) and "remainder by zero" in ref[2] and
               "jit: baseline code for ops" in got[2] and "jit: baseline code for big" in got[2],
               "I64 edges in baseline code", f"{ref}\n{got}")

        # Errors thrown in helpers unwind through baseline frames: a division
        # by zero five calls deep (f, called by g through its slot), and a
        # stack overflow.
        for name, text, what in [
                ("divide", "f : I64 → I64 → I64 = λ n d. if n == 0 then 100 / d else f (n - 1) d + 1\n"
                 "g : I64 → I64 = λ n. if n == 0 then 0 else g (n - 1) + f 5 (n - 1)\n"
                 "main : I64 = g 300\n", "division by zero"),
                ("deep", "down : I64 → I64 = λ n. if n == 0 then 0 else 1 - down (n - 1)\n"
                 "main : I64 = down 100000000\n", "recursed too deeply"),
                # (accumulated, see below: the error comes first, at n = 5)
                ("order", "down : I64 → I64 = λ n. if n == 0 then 0 else 100 / (n - 5) + down (n - 1)\n"
                 "main : I64 = down 1000\n", "division by zero")]:
            path = source(d, name + ".thorin", text)
            ref = run(path, "--jit=off")
            got = run(path, "--jit=baseline", "--jit-stats")
            expect(got[0] == ref[0] == 2 and got[1] == ref[1] == "" and got[2].endswith(ref[2]) and
                   what in ref[2] and got[2].startswith("jit: baseline code for "),
                   f"{what}: the error unwinds through baseline frames", f"{ref}\n{got}")

        # `e ⊕ f(…)` in tail position, ⊕ an associative I64 operation, is a
        # loop with an accumulator in baseline code (as in gcc's and LLVM's):
        # 10^8 deep in constant stack, where the interpreter runs out of it.
        # Operands keep their order (wrapping * by 3 and + of n - 7).
        path = source(d, "acc.thorin",
                      "down : I64 → I64 = λ n. if n == 0 then 0 else 1 + down (n - 1)\n"
                      "p : I64 → I64 = λ n. if n == 0 then 1 else 3 * p (n - 1)\n"
                      "q : I64 → I64 = λ n. if n < 2 then n else if n % 3 == 0 then (n - 7) + q (n - 1) "
                      "else q (n - 1) * 2 + q (n - 2)\n"
                      "main : I64 = down 100000000 + p 100 + q 25\n")
        got = run(path, "--jit=baseline", "--jit-stats")
        want = 100000000 + pow(3, 100, 2**64)
        def q(n, memo={}):
            if n < 2: return n
            if n not in memo:
                memo[n] = (n - 7) + q(n - 1) if n % 3 == 0 else q(n - 1) * 2 + q(n - 2)
            return memo[n]
        want = (want + q(25)) % 2**64
        want = want - 2**64 if want >= 2**63 else want
        expect(got[0] == 0 and got[1] == f"{want}\n" and "baseline code for down" in got[2]
               and "baseline code for p" in got[2] and "baseline code for q" in got[2],
               "accumulating tail calls are loops in baseline code", f"{got}")
        ref = run(path, "--jit=off")
        expect(ref[0] == 2 and "recursed too deeply" in ref[2], "... where the interpreter recurses",
               f"{ref}")

        # Division by constants is shifts (powers of two, rounding toward
        # zero), a negation (-1) or an idiv without checks; by 0 it is the
        # error. Each `.eval` computes the same in the interpreter.
        path = os.path.join(d, "consts.thorin")
        with open(path, "w") as f:
            f.write("min : I64 = 0 - 9223372036854775807 - 1\n"
                    "d : I64 → I64 → I64 = λ k x. if k == 0 then x / 8 else if k == 1 then x % 8 "
                    "else if k == 2 then x / 0 - 1 + x % 1 else if k == 3 then x / 7 + x % 7 * 1000 "
                    "else if k == 4 then x / (0 - 8) + x % (0 - 8) * 1000 "
                    "else if k == 5 then x % 4294967296 + x / 4294967296 else x / 1 + x % 2\n")
            for k in [0, 1, 3, 4, 5, 6]:
                for x in ["0", "1", "7", "8", "9", "(0 - 1)", "(0 - 7)", "(0 - 8)", "(0 - 9)",
                          "min", "9223372036854775807", "12345678901234"]:
                    f.write(f".eval d {k} {x}\n")
            f.write(".eval d 6 min / (0 - 1)\n.eval d 2 5\n")
        ref = run(path, "--jit=off")
        got = run(path, "--jit=baseline", "--jit-threshold", "2", "--jit-stats")
        expect(ref[0] == 2 and got[0] == 2 and got[1] == ref[1] and got[1].count("\n") == 73 and
               got[2].endswith(ref[2]) and "division by zero" in ref[2] and
               "jit: baseline code for d" in got[2],
               "I64 division by constants in baseline code", f"{ref}\n{got}")

        # A self-call that is not a tail call is a loop nested in the caller
        # (up to some depth): a tail call inside such a copy loops there, and
        # polls, so Ctrl-C stops it; and an error in a copy is located.
        path = source(d, "nest.thorin", "g : I64 → I64 = λ n. if n > 100 then g n else 1 - g (n + 50)\n"
                                        "main : I64 = g 0\n")
        rc, err = interrupt(path, "--jit=baseline", "--jit-threshold", "1")
        expect(rc == 130 and "error: interrupted" in err, "Ctrl-C stops a loop inside an inlined copy",
               err)
        path = source(d, "nesterr.thorin",
                      "h : I64 → I64 = λ n. if n == 0 then 0 else (1 - h (n - 1)) + 100 / (n - 3)\n"
                      "main : I64 = h 2 + h 50\n")
        ref = run(path, "--jit=off")
        got = run(path, "--jit=baseline", "--jit-threshold", "1", "--jit-stats")
        expect(ref[0] == got[0] == 2 and got[1] == ref[1] == "" and got[2].endswith(ref[2]) and
               "division by zero" in ref[2] and "baseline code for h" in got[2],
               "an error inside an inlined copy is located", f"{ref}\n{got}")

        # Ctrl-C stops a loop in baseline code (a tail call: a jump back to
        # the top, which polls).
        path = source(d, "spin.thorin", "spin : I64 → I64 = λ n. if n == 0 - 1 then 0 else spin (n + 1)\n"
                                        "main : I64 = spin 0\n")
        rc, err = interrupt(path, "--jit=baseline")
        expect(rc == 130 and "error: interrupted" in err, "Ctrl-C stops a loop in baseline code", err)
        # The same in the version of a loop that knows its parameters (a Nat
        # counter, an F64 row read by `get`), in baseline code only and with
        # LLVM's taking over at a safepoint.
        path = source(d, "fspin.thorin",
                      "r : Array 4 F64 = build 4 (λ i. natToF64 (idxToNat i))\n"
                      "fspin : Array 4 F64 → Nat → F64 → F64 = λ a k acc. "
                      "if k + 1 == 0 then acc else fspin a (k + 1) (acc + get a (idx (k % 4)))\n"
                      "main : F64 = fspin r 0 0.0\n")
        for flags in (["--jit=baseline"], ["--jit=lazy"]):
            rc, err = interrupt(path, *flags)
            expect(rc == 130 and "error: interrupted" in err,
                   f"Ctrl-C stops a Nat/F64 loop in baseline code ({flags[0]})", err)

    # A copy whose first test is decided where it is entered starts in the
    # branch taken (h's copies at `h k …` where k == 1 or k != 1 is known,
    # ackermann's where m != 0 is): the same values as the interpreter's.
    with tempfile.TemporaryDirectory() as d:
        text = ("h : I64 → I64 → I64 = λ k n. if k == 1 then (if n <= 0 then 7 else n - h k (n - 1)) "
                "else if n <= 0 then k else h 1 (n - 1) - h k (n - 2) * 3\n"
                "w : I64 → I64 → I64 = λ k n. if k < 5 then (if n <= 0 then k else w k (n - 1) + k) "
                "else if k == 9 || n <= 0 then n else w (k - 1) n + w k (n - 3)\n"
                "ack : I64 → I64 → I64 = λ m n. if m == 0 then n + 1 else if n == 0 then ack (m - 1) 1 "
                "else ack (m - 1) (ack m (n - 1))\n")
        for k in [-2, 0, 1, 2, 5, 9, 12]:
            for n in [0, 1, 2, 7, 20]:
                text += f".eval h ({k} : I64) {n}\n.eval w ({k} : I64) {n}\n"
        text += ".eval ack 2 3\n.eval ack 3 5\n"
        path = source(d, "entry.thorin", text.replace("(-2 : I64)", "(0 - 2 : I64)"))
        ref = run(path, "--jit=off")
        got = run(path, "--jit=baseline", "--jit-threshold", "1", "--jit-stats")
        expect(ref[0] == got[0] == 0 and got[1] == ref[1] and got[1].count("\n") == 72 and
               all(f"baseline code for {f}" in got[2] for f in ["h", "w", "ack"]),
               "copies entered in the branch their first test takes", f"{ref}\n{got}")

    # :llvm on a function that runs baseline code says so (it has no IR).
    out = repl(exe, ":set jit-threshold 2\nsq : I64 → I64 = λ x. x * x\n:eval sq 3\n:eval sq 4\n"
                       ":llvm sq\n", "--jit=baseline")
    expect("error: sq runs baseline code, which is not made by LLVM (THORIN_BASELINE_ASM=1 prints "
           "it when it is made)" in out, ":llvm on baseline code", out)

    # Redefinition in the REPL makes a new binding (cube keeps calling the sq
    # it was checked against, as in the interpreter). cube's baseline code
    # holds sq's worker; the old cube's code goes with the old cube.
    out = repl(exe, """:set jit-threshold 2
sq : I64 → I64 = λ x. x * x
cube : I64 → I64 = λ x. x * sq x
:eval cube 2
:eval cube 3
:eval cube 4
:jit
:eval "--mark--"
cube : I64 → I64 = λ x. sq x * sq x
:jit
:eval cube 3
:eval "--mark--"
sq : I64 → I64 = λ x. x + x
:eval cube 3
:jit
""", "--jit=baseline")
    lines = [l for l in out.splitlines() if re.fullmatch(r"-?\d+", l)]
    parts = compiled(out)
    expect(lines == ["8", "27", "64", "81", "81"] and parts[0] == ["cube"] and parts[1] == [] and
           parts[2] == ["cube"] and out.count("(baseline code)") == 2,
           "redefinition drops the baseline code compiled against the old definition", out)


if __name__ == "__main__":
    main()
