"""`bench/run reload`: how long a reload takes after an edit, against a full load.

For each ~10k-line workload, one definition near the end (the sixth from
last) is edited — its body put in parentheses, then back — and the file is
reloaded, alternately, `--runs` times:

- `:r` in a REPL that has the file loaded: the time the reload reports
  (read, parse, match, re-check, commit) and the wall time from sending `:r`
  to its summary line;
- `thorin run --watch`: the time from the edited file being written to the
  reload's summary line on stdout (inotify, the settling delay, the reload);
- the same `:r` after an edit of the first definition that others use, and
  `:r` of an unchanged file;

against a full load: `thorin check` (a process, as `bench/run elab` measures
it) and `:l` in the REPL (in-process). Output: bench/out/reload.md and .csv.
"""
import csv
import os
import queue
import re
import shutil
import statistics
import subprocess
import tempfile
import threading
import time

WORKLOADS = ["stlc10k", "stlcLessImpl10k", "stlcSmall10k"]
TARGET_MS = 50.0


def entries(text):
    """The file's top-level entries (each starts in column 0)."""
    return re.split(r"\n(?=\S)", text)


def definitions(ents):
    return [i for i, e in enumerate(ents) if re.match(r"[^\s.-][^\n]*(\s:\s|\s=\s)", e)]


def parenthesize(ents, i):
    """The entry `name : A = t` as `name : A = (t)`: the same meaning, new text."""
    e = ents[i]
    m = re.search(r"\s=\s", e)
    out = list(ents)
    out[i] = e[:m.end()] + "(" + e[m.end():].rstrip() + ")"
    return "\n".join(out) + "\n"


def name_of(entry):
    return entry.split()[0]


def used_first(ents):
    """The first definition whose name a later entry mentions."""
    defs = definitions(ents)
    for i in defs:
        n = name_of(ents[i])
        if any(re.search(r"(?<![\w'])" + re.escape(n) + r"(?![\w'])", ents[j]) for j in defs if j > i):
            return i
    return defs[0]


class Lines:
    """Reads a process's output lines on a thread."""

    def __init__(self, p):
        self.q = queue.Queue()
        threading.Thread(target=self._read, args=(p,), daemon=True).start()

    def _read(self, p):
        for raw in p.stdout:
            self.q.put((time.perf_counter(), raw.decode("utf-8", errors="replace").rstrip("\n")))
        self.q.put((time.perf_counter(), None))

    def until(self, pattern, timeout=300):
        deadline = time.time() + timeout
        while True:
            t, line = self.q.get(timeout=max(0.1, deadline - time.time()))
            if line is None:
                raise RuntimeError("thorin exited")
            m = re.search(pattern, line)
            if m:
                return t, m, line


def seconds(text):
    """'7.40ms' → 0.0074."""
    m = re.match(r"([0-9.]+)(µs|ms|s)$", text)
    return float(m.group(1)) * {"µs": 1e-6, "ms": 1e-3, "s": 1.0}[m.group(2)]


SUMMARY = r"^reloaded .*: (.*)re-checked (\d+) of (\d+) definitions in (\S+)$"


def repl_reloads(thorin, path, versions, runs):
    """`:r` after writing each version in turn; [(reported s, wall s, re-checked)]."""
    env = dict(os.environ, THORIN_HISTORY=os.devnull)
    p = subprocess.Popen([thorin], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, env=env, cwd=os.path.dirname(path))
    out = Lines(p)
    def send(s):
        p.stdin.write(s.encode())
        p.stdin.flush()
    send(":time\n")
    out.until(r"^timing on$")
    send(f":l {os.path.basename(path)}\n")
    _, m, _ = out.until(r"^\(took (\S+)\)$")
    full = seconds(m.group(1))
    res = []
    for k in range(runs):
        with open(path, "w") as f:
            f.write(versions[k % len(versions)])
        t0 = time.perf_counter()
        send(":r\n")
        t1, m, _ = out.until(SUMMARY)
        res.append((seconds(m.group(4)), t1 - t0, int(m.group(2))))
    send(":q\n")
    p.wait(timeout=60)
    return full, res


def watch_latency(thorin, path, versions, runs):
    """File written → summary line of `thorin run --watch`; [seconds]."""
    env = dict(os.environ, THORIN_HISTORY=os.devnull, THORIN_CACHE_DIR="")
    p = subprocess.Popen([thorin, "run", "--watch", os.path.basename(path)], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, env=env, cwd=os.path.dirname(path),
                         stdin=subprocess.DEVNULL)
    out = Lines(p)
    # Wait until the first load is over: a first edit is then reported.
    res = []
    try:
        time.sleep(0.2)
        for k in range(runs + 1):
            with open(path, "w") as f:
                f.write(versions[(k + 1) % len(versions)])
            t0 = time.perf_counter()
            t1, m, _ = out.until(SUMMARY)
            if k > 0:  # (the first may have waited for the initial load)
                res.append(t1 - t0)
            time.sleep(0.1)
    finally:
        p.terminate()
        p.wait(timeout=60)
    return res


def check_time(thorin, path, runs):
    ts = []
    for _ in range(runs + 1):
        t0 = time.perf_counter()
        subprocess.run([thorin, "check", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True)
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts[1:])


def ms(s):
    return f"{s * 1000:.1f} ms"


def run(args, thorin, gen_paths, out_dir, header):
    rows = []
    for name in WORKLOADS:
        if args.only and not re.search(args.only, name):
            continue
        src = gen_paths[(name, "thorin")]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, os.path.basename(src))
            shutil.copy(src, path)
            orig = open(path).read()
            ents = entries(orig.rstrip("\n"))
            defs = definitions(ents)
            near_end = defs[-6]
            first_used = used_first(ents)
            end_versions = [parenthesize(ents, near_end), orig]
            top_versions = [parenthesize(ents, first_used), orig]
            full_check = check_time(thorin, path, args.runs)
            full_l, end = repl_reloads(thorin, path, end_versions, args.runs * 2)
            with open(path, "w") as f:
                f.write(orig)
            _, same = repl_reloads(thorin, path, [orig], args.runs)
            _, top = repl_reloads(thorin, path, top_versions, args.runs * 2)
            with open(path, "w") as f:
                f.write(orig)
            watch = watch_latency(thorin, path, end_versions, args.runs * 2)
        row = {
            "workload": name, "lines": orig.count("\n"), "definitions": len(defs),
            "check": full_check, "load": full_l,
            "edited": name_of(ents[near_end]),
            "end_reported": statistics.median(r[0] for r in end),
            "end_wall": statistics.median(r[1] for r in end),
            "end_rechecked": max(r[2] for r in end),
            "same": statistics.median(r[0] for r in same),
            "top_edited": name_of(ents[first_used]),
            "top_reported": statistics.median(r[0] for r in top),
            "top_rechecked": max(r[2] for r in top),
            "watch": statistics.median(watch),
        }
        rows.append(row)
        print(f"  {name:<16} load {ms(row['load'])}, :r after an edit near the end "
              f"{ms(row['end_reported'])} ({row['end_rechecked']} re-checked), watch "
              f"{ms(row['watch'])}", flush=True)

    head = ("| workload | lines | full load: `thorin check` | full load: `:l` | `:r`, edit near the end "
            "(re-checked) | `:r` wall | `thorin run --watch`: write → summary | `:r`, no change "
            "| `:r`, edit of the first used definition (re-checked) |")
    lines = [head, "|" + "---|" * 9]
    for r in rows:
        lines.append(f"| {r['workload']} | {r['lines']} | {ms(r['check'])} | {ms(r['load'])} "
                     f"| {ms(r['end_reported'])} ({r['end_rechecked']} of {r['definitions']}) "
                     f"| {ms(r['end_wall'])} | {ms(r['watch'])} | {ms(r['same'])} "
                     f"| {ms(r['top_reported'])} ({r['top_rechecked']}) |")
    notes = [f"Target: a reload after editing one definition near the end of a ~10k-line file "
             f"under {TARGET_MS:.0f} ms."]
    for r in rows:
        ok = r["end_reported"] * 1000 < TARGET_MS and r["watch"] * 1000 < TARGET_MS
        notes.append(f"- [{'x' if ok else ' '}] {r['workload']}: `:r` {ms(r['end_reported'])}, "
                     f"watch {ms(r['watch'])} (edited `{r['edited']}`; full load {ms(r['load'])})")
    notes.append("\nThe edit puts the body of the sixth definition from the end in parentheses (and "
                 "back, alternately): new text, same meaning. `:r` times are what the reload "
                 "reports (reading, parsing and matching the whole file, re-checking, committing); "
                 "the watch time runs from the write of the file to the summary line and includes "
                 "inotify and the 20 ms the watcher waits for a save to settle. Medians of "
                 f"{args.runs * 2} reloads.")
    report = header + "\n\n" + "\n".join(lines) + "\n\n" + "\n".join(notes) + "\n"
    os.makedirs(out_dir, exist_ok=True)
    stem = "reload" if not args.only else "reload-only"
    with open(os.path.join(out_dir, stem + ".md"), "w") as f:
        f.write(report)
    with open(os.path.join(out_dir, stem + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["workload"])
        w.writeheader()
        for r in rows:
            w.writerow(r)
    print()
    print(report)
