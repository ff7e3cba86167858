#!/usr/bin/env python3
"""Effects end to end, where a golden test cannot reach: checking a file
performs none of its effects; Ctrl-C, SIGTERM and a closed pipe end a script
with the conventional status and its output flushed; `exit n`; and under
`thorin run --watch`, a `main` blocked reading its input or looping is
interrupted by a save and its effects run again after the reload."""
import os
import signal
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402
from test_watch import Proc, fail, write  # noqa: E402

EXE = os.path.abspath(sys.argv[1])
TIMEOUT = 60


def check(cond, what, out=""):
    if not cond:
        fail(what, out)


def no_effects_when_checked(d):
    target = os.path.join(d, "written.txt")
    prog = os.path.join(d, "writes.thorin")
    write(prog, f'.eval writeFile "{target}" "by .eval"\n'
                f'main : IO Unit = writeFile "{target}" "by main"\n')
    r = thorin.run(EXE, "check", prog, merge=True)
    check(r.code == 0 and not os.path.exists(target),
          "thorin check of a file whose main and .eval write a file writes nothing", r.out)
    check("(an IO action: thorin check does not run it)" in r.out,
          "thorin check says it does not run an action", r.out)
    r = thorin.run(EXE, "run", prog, merge=True)
    check(r.code == 0 and open(target).read() == "by main", "thorin run performs them", r.out)


LOOP = """main : IO Unit = do
  putStrLn "started"
  forRange 0 1000000000000 (λ i. when (i == 0) (putStrLn "looping"))
"""


def interrupted(d, sig, status):
    prog = os.path.join(d, "loop.thorin")
    write(prog, LOOP)
    p = thorin.popen(EXE, "run", prog)
    time.sleep(1.0 if not thorin.sanitized(EXE) else 4.0)
    p.send_signal(sig)
    out, _ = p.communicate(timeout=TIMEOUT)
    out = out.decode()
    check(p.returncode == status, f"{signal.Signals(sig).name} ends a script with {status}, "
                                  f"not {p.returncode}", out)
    check(out.startswith("started\nlooping\n"), f"{signal.Signals(sig).name}: output flushed", out)


def broken_pipe(d):
    prog = os.path.join(d, "many.thorin")
    write(prog, 'main : IO Unit = forRange 0 10000000 (λ i. putStrLn (natToString i))\n')
    sh = f"'{EXE}' run '{prog}' 2>'{d}/err.txt' | head -3; echo \"${{PIPESTATUS[0]}}\""
    r = subprocess.run(["bash", "-c", sh], capture_output=True, text=True, timeout=TIMEOUT)
    err = open(f"{d}/err.txt").read()
    check(r.stdout == "0\n1\n2\n141\n" and err == "",
          "piped into head: the first lines, status 141 (SIGPIPE), nothing on stderr",
          r.stdout + err)


def exit_status(d):
    prog = os.path.join(d, "exit.thorin")
    write(prog, 'main : IO Unit = do\n  putStr "bye"\n  exit 7\n')
    r = thorin.run(EXE, "run", prog, merge=True)
    check(r.code == 7 and r.out == "bye", "exit 7: status 7, output flushed", r.out)


READER = """main : IO Unit = do
  putStrLn "VERSION waiting"
  l ← getLine
  putStrLn (strCat "VERSION got " l)
"""


def watch_blocked_read(d):
    prog = os.path.join(d, "reader.thorin")
    write(prog, READER.replace("VERSION", "v1"))
    w = Proc([EXE, "run", "--watch", prog], d, stdin=True)
    w.expect(["v1 waiting"], "main runs and waits for a line")
    time.sleep(0.3)
    write(prog, READER.replace("VERSION", "v2"))
    got = w.lines(5, "a save interrupts the blocked read and reloads")
    check(got[0].endswith("reader.thorin:1:1: error: interrupted")
          and got[3].startswith("reloaded reader.thorin") and got[4] == "v2 waiting",
          f"interrupted, reloaded, run again: {got}", "\n".join(w.seen))
    w.send("hello\n")
    deadline = time.time() + TIMEOUT
    while time.time() < deadline:
        line = w.lines(1, "the new main reads the line")[0]
        if line == "v2 got hello":
            break
    else:
        fail("the new main reads the line", "\n".join(w.seen))
    w.p.send_signal(signal.SIGINT)
    w.p.wait(timeout=TIMEOUT)


DEEP = """countdown : Nat → Nat → IO Nat
  = λ n acc. if n == 0 then pure acc else do
      let acc' = acc + n
      countdown (n - 1) acc'
leftNested : Nat → IO Nat
  = λ n. natElim (λ _. IO Nat) (pure 0) (λ i act. bind act (λ s. pure (s + i))) n
main : IO Unit = do
  a ← countdown STEPS 0
  b ← leftNested NESTED
  forRange 0 STEPS (λ i. pure tt)
  putStrLn (strCat (natToString a) (strCat " " (natToString b)))
"""


def constant_stack(d):
    """Loops of binds run on the runner's own stack: millions of steps, and a
    million binds nested to the left, on a 16 MB stack."""
    n, m = (10**6, 10**5) if thorin.sanitized(EXE) else (10**7, 10**6)
    prog = os.path.join(d, "deep.thorin")
    write(prog, DEEP.replace("STEPS", str(n)).replace("NESTED", str(m)))
    for mode in ("--jit=off", "--jit=lazy"):
        r = thorin.run(EXE, "run", mode, prog, merge=True, env={"THORIN_STACK_MB": "16"})
        want = f"{n * (n + 1) // 2} {m * (m - 1) // 2}\n"
        check(r.code == 0 and r.out == want, f"deep loops of binds on a 16 MB stack ({mode})", r.out)


def main():
    with tempfile.TemporaryDirectory() as d:
        constant_stack(d)
        no_effects_when_checked(d)
        interrupted(d, signal.SIGINT, 130)
        interrupted(d, signal.SIGTERM, 143)
        broken_pipe(d)
        exit_status(d)
        watch_blocked_read(d)
    print("ok")


if __name__ == "__main__":
    main()
