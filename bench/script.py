"""`bench/run script`: scripts that do real work, as whole processes.

`examples/wordfreq.thorin` (the ten most frequent words) on a generated 5 MB
text, and `examples/wc.thorin` (lines, words, bytes) on a generated 50 MB
file, each against the same program in Python 3 (bench/script/*.py) and wc
against GNU `wc` itself. The texts are generated with a fixed seed (words of
a 20,000-word vocabulary drawn with Zipf-like weights, lines of 3–15 words,
some capitalised and ending with '.'), into bench/out/script-data/. Every
system must print the same counts. Times are medians of N runs after a
warm-up, start-up included; peak resident memory from the warm-up. Output:
bench/out/script.md and script.csv.
"""
import csv
import os
import random
import re
import shutil
import sys

SCRIPT_DIR = "script"


def generate(path, nbytes, seed):
    """A deterministic English-like text of about `nbytes` bytes."""
    if os.path.exists(path) and os.path.getsize(path) >= nbytes:
        return
    rnd = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    vocab = ["".join(rnd.choice(letters) for _ in range(rnd.randint(1, 10))) for _ in range(20000)]
    weights = [1 / (i + 1) for i in range(len(vocab))]
    out, size = [], 0
    while size < nbytes:
        line = " ".join(rnd.choices(vocab, weights, k=rnd.randint(3, 15)))
        if rnd.random() < 0.3:
            line = line.capitalize() + "."
        out.append(line)
        size += len(line) + 1
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def counts_of(out):
    """The numbers a wc-like output printed (its first line)."""
    first = next((l for l in out.splitlines() if l.strip()), "")
    return re.findall(r"\d+", first)[:3]


def run(h, args):
    """h: the harness module (bench/run)."""
    here = os.path.join(h.HERE, SCRIPT_DIR)
    examples = os.path.join(os.path.dirname(h.HERE), "examples")
    data = os.path.join(h.OUT, "script-data")
    os.makedirs(data, exist_ok=True)
    text5 = os.path.join(data, "text5mb.txt")
    text50 = os.path.join(data, "text50mb.txt")
    generate(text5, 5_000_000, 1)
    generate(text50, 50_000_000, 2)
    thorin = h.thorin_bin()
    python = sys.executable  # (the interpreter itself, not a wrapper such as pyenv's shim)
    workloads = {  # name → [(system, command)]
        "wordfreq 5 MB": [("thorin", [thorin, "run", os.path.join(examples, "wordfreq.thorin"), text5]),
                          ("Python 3", [python, os.path.join(here, "wordfreq.py"), text5])],
        "wc 50 MB": [("thorin", [thorin, "run", os.path.join(examples, "wc.thorin"), text50]),
                     ("Python 3", [python, os.path.join(here, "wc.py"), text50]),
                     ("GNU wc", ["wc", text50])],
    }
    rows = []
    for name, systems in workloads.items():
        if args.only and not re.search(args.only, name):
            continue
        reference = None
        for system, cmd in systems:
            r = h.measure(lambda: h.run_cmd(cmd, args.timeout), args.runs)
            if "out" in r and "error" not in r:
                got = counts_of(r["out"]) if name.startswith("wc") else r["out"].strip()
                if reference is None:
                    reference = got
                elif got != reference:
                    r = {"error": f"output differs from thorin's: {str(got)[:40]}"}
            rows.append((name, system, r))
            print(f"  {name:<14} {system:<10} {h.fmt_time(r):>10} {h.fmt_mem(r):>9}"
                  + (f"  {r['error']}" if "error" in r else ""), flush=True)
    lines = ["| workload | system | time | peak RSS | thorin's time / this |", "|---|---|---|---|---|"]
    get = {(n, s): r for n, s, r in rows}
    for name, system, r in rows:
        ratio = h.ratio(get.get((name, "thorin")), r)
        lines.append(f"| {name} | {system} | {h.fmt_time(r)} | {h.fmt_mem(r)} | "
                     f"{f'{ratio:.2f}' if ratio else ''} |")
    notes = targets(h, get)
    versions = [h.first_line([thorin, "--version"]), h.first_line([python, "--version"]),
                h.first_line(["wc", "--version"])]
    report = h.header(versions, args) + "\n\n" + "\n".join(lines) + "\n\n" + "\n".join(notes) + "\n"
    stem = "script" if not args.only else "script-only"
    with open(os.path.join(h.OUT, stem + ".md"), "w") as f:
        f.write(report)
    with open(os.path.join(h.OUT, stem + ".csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["workload", "system", "seconds", "peak_kib", "error"])
        for name, system, r in rows:
            w.writerow([name, system, f"{r['time']:.6f}" if "time" in r else "", r.get("mem", ""),
                        r.get("error", "")])
    print()
    print(report)


def targets(h, get):
    """The issue's targets, checked on this run."""
    notes = ["Targets:"]
    for name in ("wordfreq 5 MB", "wc 50 MB"):
        r = h.ratio(get.get((name, "thorin")), get.get((name, "Python 3")))
        if r:
            notes.append(f"- [{'x' if r < 1 else ' '}] {name}: faster than Python 3 — {r:.2f}× its time")
    r = h.ratio(get.get(("wc 50 MB", "thorin")), get.get(("wc 50 MB", "GNU wc")))
    if r:
        notes.append(f"- [{'x' if r <= 3 else ' '}] wc 50 MB: within 3× of GNU wc — {r:.2f}×")
    return notes
