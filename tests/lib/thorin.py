"""The one way the tests run thorin: the binary named on the command line,
its flags, timeouts and environment.

  import thorin
  exe = thorin.binary()                          # sys.argv[1], made absolute
  r = thorin.run(exe, "run", "--jit=off", path, timeout=60, stack_mb=32)
  r.code, r.out, r.err                           # code None: killed at the timeout

Every run gets THORIN_HISTORY=/dev/null (no REPL history is written) and the
caller's environment, so ASAN_OPTIONS / UBSAN_OPTIONS (scripts/test sets
them) pass through; `memory_mb` and `stack_mb` set THORIN_MEMORY_MB and
THORIN_STACK_MB, `env` adds variables, `unset` removes some.
"""
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Optional

TIMEOUT = 120                       # seconds, unless a test says otherwise

# `thorin run` in every JIT mode (the golden run tests compare them).
JIT_MODES = [["--jit=off"], ["--jit=eager"], ["--jit=lazy", "--jit-threshold", "1"],
             ["--jit=baseline", "--jit-threshold", "1"]]


def binary(argv=None):
    """The thorin executable: the first command-line argument, absolute."""
    argv = sys.argv if argv is None else argv
    if len(argv) < 2:
        sys.exit(f"usage: {os.path.basename(argv[0])} THORIN …")
    return os.path.abspath(argv[1])


def environment(env=None, memory_mb=None, stack_mb=None, unset=()):
    """The environment of a thorin process."""
    e = {k: v for k, v in os.environ.items() if k not in unset}
    e["THORIN_HISTORY"] = os.devnull
    if memory_mb is not None:
        e["THORIN_MEMORY_MB"] = str(memory_mb)
    if stack_mb is not None:
        e["THORIN_STACK_MB"] = str(stack_mb)
    e.update(env or {})
    return e


@dataclass
class Result:
    code: Optional[int]             # None: killed after `timeout` seconds
    out: str                        # stdout (with stderr when merged)
    err: str                        # stderr ("" when merged)
    seconds: float

    @property
    def timed_out(self):
        return self.code is None


def _text(b):
    return (b or b"").decode("utf-8", "replace")


def run(thorin, *args, cwd=None, input=None, timeout=TIMEOUT, merge=False,
        env=None, memory_mb=None, stack_mb=None, unset=()):
    """Runs `thorin ARGS…` to its end (or the timeout). input: the text fed
    to stdin (else stdin is /dev/null); merge: stderr goes into `out`,
    interleaved as printed."""
    t0 = time.monotonic()
    try:
        p = subprocess.run([thorin, *args], cwd=cwd,
                           input=input.encode() if isinstance(input, str) else input,
                           stdin=subprocess.DEVNULL if input is None else None,
                           stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT if merge else subprocess.PIPE,
                           env=environment(env, memory_mb, stack_mb, unset), timeout=timeout)
        code, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as ex:
        code, out, err = None, ex.stdout, ex.stderr
    return Result(code, _text(out), _text(err), time.monotonic() - t0)


def popen(thorin, *args, cwd=None, stdin=False, merge=True, env=None, memory_mb=None,
          stack_mb=None, unset=()):
    """A running `thorin ARGS…` with binary pipes: stdout (stderr merged
    into it unless merge=False), and stdin when asked for."""
    return subprocess.Popen([thorin, *args], cwd=cwd,
                            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                            stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT if merge else subprocess.PIPE,
                            env=environment(env, memory_mb, stack_mb, unset))


_sanitized = {}


def sanitized(thorin):
    """Is this a sanitizer build (ASan+UBSan, several times slower)?"""
    if thorin not in _sanitized:
        _sanitized[thorin] = "sanitizers" in run(thorin, "--version", timeout=60).out
    return _sanitized[thorin]


def scaled(thorin, n, factor=8):
    """n, or a `factor`-th of it (at least 1) for a sanitizer build: the
    random-program tests run their full counts in the Release stage of CI,
    and enough under the sanitizers to exercise every path there (which
    run several times slower; CI's 30 minutes: with a quarter, CI took 30.8
    minutes from a clean clone)."""
    return max(1, n // factor) if sanitized(thorin) else n


def without_jit_lines(err):
    """stderr without the `jit:` notes of --jit-stats (they differ by mode)."""
    return "".join(line for line in err.splitlines(True) if not line.startswith("jit:"))
