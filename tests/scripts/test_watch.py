#!/usr/bin/env python3
"""Hot reload end to end: `thorin run --watch` on files in a temporary
directory, edited the ways editors and users do — in place, by rename, in an
imported file, broken and fixed, while the program runs, deleted and
restored — with the exact output and what was re-checked; then the REPL's
`:watch` and `:r`, and script arguments and exit statuses."""
import os
import queue
import re
import signal
import sys
import tempfile
import threading
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402

TIMEOUT = 60  # seconds to wait for an expected output (ASan builds are slow)

LIB = """double : Nat → Nat = λ n. n * 2
"""

MAIN = """.import lib
fib : Nat → Nat = λ n. if n < 2 then n else fib (n - 1) + fib (n - 2)
x : Nat = double 21
other : Nat = 7
.eval fib 10
main : Nat = x + other
"""


def fail(what, out):
    print(f"FAILED: {what}\n--- output so far ---\n{out}")
    sys.exit(1)


class Proc:
    """A running thorin whose merged stdout/stderr is read line by line."""

    def __init__(self, cmd, cwd, stdin=False):
        self.p = thorin.popen(*cmd, cwd=cwd, stdin=stdin)
        self.q = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.p.stdout:
            self.q.put(raw.decode("utf-8", errors="replace").rstrip("\n"))
        self.q.put(None)

    def lines(self, n, what):
        """The next n lines (times in reload summaries replaced by <time>)."""
        out = []
        deadline = time.time() + TIMEOUT
        while len(out) < n:
            try:
                line = self.q.get(timeout=max(0.1, deadline - time.time()))
            except queue.Empty:
                fail(f"{what}: timed out waiting for {n} lines, got {out}", "\n".join(self.seen))
            if line is None:
                fail(f"{what}: thorin exited ({self.p.wait()}) after {out}", "\n".join(self.seen))
            line = re.sub(r"^(reloaded .*) in [0-9.]+(µs|ms|s)$", r"\1 in <time>", line)
            self.seen.append(line)
            out.append(line)
        return out

    def expect(self, expected, what):
        got = self.lines(len(expected), what)
        if got != expected:
            fail(f"{what}:\n  expected {expected}\n  got      {got}", "\n".join(self.seen))

    def send(self, text):
        self.p.stdin.write(text.encode())
        self.p.stdin.flush()


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def rename_save(path, text):
    """What vim and many editors do: write a new file, rename it over the old."""
    tmp = path + ".swp~"
    write(tmp, text)
    os.replace(tmp, path)


def watch_run(exe, d):
    main, lib = os.path.join(d, "main.thorin"), os.path.join(d, "lib.thorin")
    write(lib, LIB)
    write(main, MAIN)
    p = Proc([exe, "run", "--watch", "main.thorin"], d)
    p.expect(["55", "49"], "first run: the .eval, then main")

    # An edit in place: the definition and its users are re-checked.
    text = MAIN.replace("other : Nat = 7", "other : Nat = 8")
    write(main, text)
    p.expect(["reloaded main.thorin: changed other; re-checked 2 of 5 definitions in <time>",
              "55", "50"], "edit other (main uses it)")

    # An edit in the imported file.
    write(lib, LIB.replace("n * 2", "n * 3"))
    p.expect(["reloaded lib.thorin: changed double; re-checked 3 of 5 definitions in <time>",
              "55", "71"], "edit double in lib (x and main use it)")

    # A syntax error: located, and the last good version stays.
    write(main, text + "broken = \n")
    p.expect(["main.thorin:7:9: error: expected a term, found end of input",
              "    7 | broken = ",
              "      |         ^",
              "reload failed; the last good version stays loaded"], "syntax error")
    # A type error: expected and actual types with the user's names.
    write(main, text.replace("other : Nat = 8", "other : Nat = true"))
    p.expect(["main.thorin:4:15: error: type mismatch",
              "    4 | other : Nat = true",
              "      |               ^~~~",
              "  expected type: Nat",
              "    actual type: Bool",
              "reload failed; the last good version stays loaded"], "type error")
    # The fix is compared with the last good version: nothing changed.
    write(main, text)
    p.expect(["reloaded main.thorin: no changes; re-checked 0 of 5 definitions in <time>",
              "55", "71"], "fixed")

    # A rename-save.
    text = text.replace(".eval fib 10", ".eval fib 12")
    rename_save(main, text)
    p.expect(["reloaded main.thorin: no changes; re-checked 0 of 5 definitions in <time>",
              "144", "71"], "rename-save (only a directive changed)")

    # A program running when the file changes is interrupted, then reloaded.
    slow = text.replace("main : Nat = x + other",
                        "spin : I64 → I64 = λ i. if i == 0 then 0 else spin (i - 1)\n"
                        "main : I64 = spin 1000000000000")
    write(main, slow)
    p.expect(["reloaded main.thorin: changed main; added spin; re-checked 2 of 6 definitions in <time>",
              "144"], "a slow main")
    time.sleep(0.5)  # (main is running)
    write(main, slow.replace("spin 1000000000000", "spin 10"))
    p.expect(["main.thorin:7:1: error: interrupted",
              "    7 | main : I64 = spin 1000000000000",
              "      | ^~~~",
              "reloaded main.thorin: changed main; re-checked 1 of 6 definitions in <time>",
              "144", "0"], "the change interrupts the running program")

    # The imported file deleted, then restored.
    os.remove(lib)
    p.expect(["main.thorin:1:9: error: cannot open file 'lib.thorin': No such file or directory",
              "    1 | .import lib",
              "      |         ^~~",
              "reload failed; the last good version stays loaded"], "deleted import")
    write(lib, LIB)
    p.expect(["reloaded lib.thorin: changed double; re-checked 2 of 6 definitions in <time>",
              "144", "0"], "restored import")
    # Saves after that are still seen (the directory was watched under two
    # names, and dropping one dropped the watch).
    time.sleep(0.3)
    write(lib, LIB + "-- saved again\n")
    p.expect(["reloaded lib.thorin: no changes; re-checked 0 of 6 definitions in <time>",
              "144", "0"], "a save after the restore")

    p.p.send_signal(signal.SIGINT)
    if p.p.wait(timeout=TIMEOUT) != 0:
        fail("Ctrl-C ends the watch with status 0", "\n".join(p.seen))


def symlink_swap(exe, d):
    """The watched file replaced by a symlink to another file (renamed over
    it, as `ln -sf` does), edited through the link, then replaced by a
    regular file again: every step reloads, and the summary names the file
    given on the command line. Once the link is gone, its old target is not
    watched any more."""
    f, g = os.path.join(d, "f.thorin"), os.path.join(d, "g.thorin")
    write(f, "main : Nat = 1\n")
    write(g, "main : Nat = 2\n")
    p = Proc([exe, "run", "--watch", "f.thorin"], d)
    p.expect(["1"], "first run")
    changed = "reloaded f.thorin: changed main; re-checked 1 of 1 definitions in <time>"
    os.symlink("g.thorin", f + ".lnk")
    os.replace(f + ".lnk", f)
    p.expect([changed, "2"], "f.thorin replaced by a symlink to g.thorin")
    write(g, "main : Nat = 3\n")
    p.expect([changed, "3"], "g.thorin edited through the link")
    rename_save(f, "main : Nat = 4\n")
    p.expect([changed, "4"], "the link replaced by a regular file")
    write(f, "main : Nat = 5\n")
    p.expect([changed, "5"], "a save of the regular file")
    # (A reload for g.thorin would come first, as "no changes".)
    write(g, "main : Nat = 6\n")
    time.sleep(0.3)
    write(f, "main : Nat = 7\n")
    p.expect([changed, "7"], "g.thorin is not watched any more, f.thorin is")
    p.p.send_signal(signal.SIGINT)
    if p.p.wait(timeout=TIMEOUT) != 0:
        fail("Ctrl-C ends the watch with status 0", "\n".join(p.seen))


def repl_watch(exe, d):
    main, lib = os.path.join(d, "main.thorin"), os.path.join(d, "lib.thorin")
    write(lib, LIB)
    write(main, MAIN)
    p = Proc([exe], d, stdin=True)
    p.send(":watch main.thorin\n")
    p.expect(["55", "watching main.thorin (:unwatch stops)", "49"], ":watch loads and runs main")
    write(lib, LIB.replace("n * 2", "n * 4"))
    p.expect(["reloaded lib.thorin: changed double; re-checked 3 of 5 definitions in <time>",
              "55", "91"], ":watch reloads on a change")
    p.send(":eval x\n:unwatch\n")
    p.expect(["84", "stopped watching"], "the REPL works between changes")
    # :r takes the same incremental path.
    write(main, MAIN.replace("other : Nat = 7", "other : Nat = 1"))
    p.send(":r\n:eval main\n:q\n")
    p.expect(["reloaded main.thorin: changed other; re-checked 2 of 5 definitions in <time>",
              "55", "85"], ":r is incremental")
    if p.p.wait(timeout=TIMEOUT) != 0:
        fail(":q exits with status 0", "\n".join(p.seen))


def repl_jit_kept(exe, d):
    """:r keeps the compiled code of what it keeps, and drops the rest."""
    path = os.path.join(d, "jit.thorin")
    text = ("sq : I64 → I64 = λ n. n * n\n"
            "cube : I64 → I64 = λ n. n * n * n\n")
    write(path, text)
    p = Proc([exe, "--jit=lazy"], d, stdin=True)
    p.send(":set jit-threshold 2\n:l jit.thorin\n:eval sq 3\n:eval sq 3\n:eval cube 2\n:eval cube 2\n:jit\n")
    p.expect(["loaded jit.thorin", "9", "9", "8", "8"], "evaluations")
    jit = [l.split()[0] for l in p.lines(2, ":jit")]
    if sorted(jit) != ["cube", "sq"]:
        fail(f"both functions are compiled, got {jit}", "\n".join(p.seen))
    write(path, text.replace("n * n * n", "n * n * n + 1"))
    p.send(":r\n:jit\n:eval cube 2\n:q\n")
    p.expect(["reloaded jit.thorin: changed cube; re-checked 1 of 2 definitions in <time>"], ":r")
    jit = [l.split()[0] for l in p.lines(1, ":jit after :r")]
    if jit != ["sq"]:
        fail(f"sq stays compiled, cube's code is dropped; got {jit}", "\n".join(p.seen))
    p.expect(["9"], "the new cube")
    p.p.wait(timeout=TIMEOUT)


def script_args(exe, d):
    path = os.path.join(d, "greet.thorin")
    write(path, "#!/usr/bin/env thorin\n"
                "main : {n : Nat} → Array n String → Nat = λ args. length args\n")
    os.chmod(path, 0o755)
    env = {"PATH": os.path.dirname(exe) + os.pathsep + os.environ["PATH"]}
    def run(cmd):
        r = thorin.run(*cmd, cwd=d, merge=True, env=env, timeout=TIMEOUT)
        return r.code, r.out
    checks = [
        (["./greet.thorin", "a", "--b", "c"], (0, "3\n")),
        ([exe, "greet.thorin"], (0, "0\n")),
        ([exe, "run", "greet.thorin", "x"], (0, "1\n")),
    ]
    write(os.path.join(d, "two.thorin"), "main : Array 2 String → String = λ a. get a 1\n")
    checks += [
        ([exe, "run", "two.thorin", "p", "q"], (0, "q\n")),  # (a String main prints its text)
        ([exe, "run", "two.thorin", "p"],
         (1, "two.thorin:1:1: error: main takes 2 arguments, but 1 was given\n"
             "    1 | main : Array 2 String → String = λ a. get a 1\n"
             "      | ^~~~\n")),
    ]
    write(os.path.join(d, "none.thorin"), "main : Nat = 1\n")
    checks += [
        ([exe, "run", "none.thorin", "p"],
         (1, "none.thorin:1:1: error: main takes no arguments, but 1 was given\n"
             "    1 | main : Nat = 1\n"
             "      | ^~~~\n"
             "  declare `main : {n : Nat} → Array n String → …` to receive them\n")),
    ]
    write(os.path.join(d, "div.thorin"), "main : Nat = 1 / 0\n")
    checks += [([exe, "run", "div.thorin"],
                (2, "div.thorin:1:16: error: division by zero\n"
                    "    1 | main : Nat = 1 / 0\n"
                    "      |                ^\n"))]
    for cmd, want in checks:
        got = run(cmd)
        if got != want:
            fail(f"{' '.join(cmd)}: expected {want}, got {got}", "")


def main():
    exe = thorin.binary()
    with tempfile.TemporaryDirectory() as d:
        watch_run(exe, d)
    with tempfile.TemporaryDirectory() as d:
        symlink_swap(exe, d)
    with tempfile.TemporaryDirectory() as d:
        repl_watch(exe, d)
    with tempfile.TemporaryDirectory() as d:
        repl_jit_kept(exe, d)
    with tempfile.TemporaryDirectory() as d:
        script_args(exe, d)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
