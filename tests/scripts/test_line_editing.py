#!/usr/bin/env python3
"""The interactive REPL on a terminal: libedit prompt, tab completion of
commands and names, Ctrl-C clearing the line, non-ASCII keys (λ →), history
saved to a file."""
import fcntl
import os
import pty
import select
import struct
import sys
import tempfile
import termios
import time


def read_until(fd, needle, timeout=10.0):
    buf = b""
    end = time.time() + timeout
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
            if needle.encode() in buf:
                return buf.decode("utf-8", "replace")
    return buf.decode("utf-8", "replace")


def wait_consumed(pid, timeout=10.0):
    """Waits until the REPL has read everything typed so far: the input queue
    of its terminal (its standard input, seen through /proc) is empty."""
    end = time.time() + timeout
    try:
        slave = os.open(f"/proc/{pid}/fd/0", os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        time.sleep(0.5)
        return
    try:
        while time.time() < end:
            pending = struct.unpack("i", fcntl.ioctl(slave, termios.FIONREAD, b"\0" * 4))[0]
            if pending == 0:
                break
            time.sleep(0.02)
        time.sleep(0.1)  # and has redrawn the line
    finally:
        os.close(slave)


def main():
    thorin = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as d:
        hist = os.path.join(d, "history")
        src = os.path.join(d, "defs.thorin")
        with open(src, "w") as f:
            f.write("alpha : U = U\nalphabet : U = U\nbeta : U = U\n")
        pid, fd = pty.fork()
        if pid == 0:
            os.environ["THORIN_HISTORY"] = hist
            os.environ["TERM"] = "dumb"
            os.execv(thorin, [thorin, "--no-prelude", src])
        failures = []
        out = read_until(fd, "> ")
        if "type :? for help" not in out:
            failures.append(f"no banner/prompt: {out!r}")
        os.write(fd, b":bro\t")           # completes the command to :browse
        out = read_until(fd, "browse")
        if ":browse" not in out:
            failures.append(f"command not completed: {out!r}")
        os.write(fd, b"\x15:t alphab\t\n")  # C-u, then a name completed to alphabet
        out = read_until(fd, "alphabet : U")
        if "alphabet : U" not in out:
            failures.append(f"name not completed: {out!r}")
        read_until(fd, "> ")
        os.write(fd, b"garbage")
        wait_consumed(pid)                  # libedit has read all of it: the line holds it
        os.kill(pid, 2)                     # Ctrl-C clears the line
        read_until(fd, "> ", 5)             # the fresh prompt (on a busy machine this takes a while)
        time.sleep(0.1)
        os.write(fd, b":t beta\n")
        out = read_until(fd, "beta : U")
        out += read_until(fd, "> ")  # keys typed before the prompt is back would race the tty mode
        if "beta : U" not in out or "garbage:t" in out:
            failures.append(f"Ctrl-C did not clear the line: {out!r}")
        # λ, → and × typed at the prompt arrive whole (libedit took each byte
        # of their UTF-8 for a character: the line was garbled).
        os.write(fd, "id2 : U → U = λ x. x\n".encode())
        read_until(fd, "> ")
        os.write(fd, b":t id2\n")
        out = read_until(fd, "id2 : U → U")
        out += read_until(fd, "> ")
        if "id2 : U → U" not in out or "error" in out:
            failures.append(f"non-ASCII input garbled: {out!r}")
        # Ctrl-D quits. A key typed while libedit is switching the terminal
        # between cooked and raw mode can be lost (an EOF in cooked mode is not
        # a character), so a busy machine may need a second Ctrl-D; and on a
        # loaded one, keys typed ahead may leave text on the line, where
        # Ctrl-D deletes a character instead: each Ctrl-D comes after a C-u.
        # (Exiting can take seconds under LeakSanitizer on a loaded machine.)
        status = None
        deadline = time.time() + 60
        while status is None and time.time() < deadline:
            try:
                os.write(fd, b"\x15\x04")
            except OSError:
                pass  # the terminal is gone: the REPL has already quit
            for _ in range(10):
                done, st = os.waitpid(pid, os.WNOHANG)
                if done:
                    status = st
                    break
                time.sleep(0.05)
        if status is None:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            failures.append("Ctrl-D did not end the REPL")
        elif os.WEXITSTATUS(status) != 0:
            failures.append(f"exit status {status}")
        history = open(hist, encoding="utf-8", errors="replace").read() if os.path.exists(hist) else ""
        if "alphabet" not in history.replace("\\040", " "):
            failures.append(f"history not saved: {history!r}")
        for f in failures:
            print(f)
        print(f"{5 - len(failures)}/5 line-editing checks passed" if len(failures) <= 5 else "")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
