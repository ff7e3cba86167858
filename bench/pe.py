"""`bench/run pe`: partial-evaluation filters, specialized against unspecialized
JIT code and against C with the constants written in.

Each workload in bench/pe/ is a thorin program whose hot function carries a
filter (`pow @(?n)`, `dot @(?n && ?i)`, …) and a C program computing the same
with the known constants written in by hand. It runs as

- `thorin run FILE` (the JIT specializes the filtered calls),
- the same file with its filters removed (the plain JIT code),
- the C program compiled with `gcc -O2` (compile time apart),

checking that all three print the same answer. Times are whole processes:
thorin's include start-up, elaboration, specialization and compilation.
Output: bench/out/pe.md and pe.csv.
"""
import csv
import os
import re
import shutil
import subprocess
import tempfile

WORKLOADS = [
    ("pow", "Σ x^13, x ≤ 5·10⁸: `pow @(?n)` with the exponent known"),
    ("dot", "dot products of size 8 (sliding, 2·10⁸ windows; weights dynamic)"),
    ("matvec", "4×4 matrix × vector windows (10⁸)"),
    ("stencil", "5-point blur, kernel [1,4,6,4,1] known (2·10⁸ points)"),
]
FILTER = re.compile(r" @(\([^)]*\))?(?=\s*:)")


def unfiltered(text):
    """The program without its filters (definitions' `@(…)`)."""
    return FILTER.sub("", text)


def run(harness, args):
    here = os.path.join(harness.HERE, "pe")
    out_dir = os.path.join(harness.OUT, "pe-gen")
    os.makedirs(os.path.join(out_dir, "bin"), exist_ok=True)
    thorin = harness.thorin_bin()
    rows = []
    for name, what in WORKLOADS:
        if args.only and not re.search(args.only, name):
            continue
        src = os.path.join(here, name + ".thorin")
        plain = os.path.join(out_dir, name + ".thorin")
        with open(src) as f, open(plain, "w") as g:
            text = f.read()
            g.write(unfiltered(text))
        assert "@" not in open(plain).read(), plain
        exe = os.path.join(out_dir, "bin", name)
        row = {"workload": name, "what": what}
        if shutil.which("gcc"):
            row["gcc compile"] = harness.measure(
                lambda: harness.run_cmd(["gcc", "-O2", "-o", exe, os.path.join(here, name + ".c")],
                                        args.timeout), 1)
            row["gcc"] = harness.measure(lambda: harness.run_cmd([exe], args.timeout), args.runs)
        row["specialized"] = harness.measure(
            lambda: harness.run_cmd([thorin, "run", os.path.basename(src)], args.timeout, [src]), args.runs)
        row["unspecialized"] = harness.measure(
            lambda: harness.run_cmd([thorin, "run", os.path.basename(plain)], args.timeout, [plain]),
            args.runs)
        answers = {k: (row[k].get("out") or "").strip().splitlines()[-1:] for k in
                   ("gcc", "specialized", "unspecialized") if k in row and "time" in row[k]}
        row["agree"] = len({tuple(v) for v in answers.values()}) == 1
        rows.append(row)
        print(f"  {name:<10} specialized {harness.fmt_time(row['specialized']):>10}  unspecialized "
              f"{harness.fmt_time(row['unspecialized']):>10}  gcc -O2 {harness.fmt_time(row.get('gcc')):>10}"
              f"  answers {'agree' if row['agree'] else 'DIFFER: ' + str(answers)}", flush=True)

    ratio = harness.ratio
    head = ("| workload | specialized JIT | unspecialized JIT | gcc -O2, constants written in "
            "| specialized / gcc | unspecialized / specialized | answers |")
    lines = [head, "|" + "---|" * 7]
    for r in rows:
        vs_c, gain = ratio(r["specialized"], r.get("gcc")), ratio(r["unspecialized"], r["specialized"])
        lines.append(f"| {r['workload']}: {r['what']} | {harness.fmt_time(r['specialized'])} "
                     f"| {harness.fmt_time(r['unspecialized'])} | {harness.fmt_time(r.get('gcc'))} "
                     f"| {f'{vs_c:.2f}×' if vs_c else ''} | {f'{gain:.1f}×' if gain else ''} "
                     f"| {'agree' if r['agree'] else 'DIFFER'} |")
    notes = ["Targets:"]
    for r in rows:
        vs_c, gain = ratio(r["specialized"], r.get("gcc")), ratio(r["unspecialized"], r["specialized"])
        notes.append(f"- [{'x' if vs_c and vs_c <= 1.2 else ' '}] {r['workload']}: specialized within "
                     f"1.2× of gcc -O2: {f'{vs_c:.2f}×' if vs_c else 'no data'}")
        notes.append(f"- [{'x' if gain and gain >= 3 else ' '}] {r['workload']}: specialized ≥ 3× faster "
                     f"than unspecialized: {f'{gain:.1f}×' if gain else 'no data'}")
    notes.append("\nWhole processes, median of the measured runs after a warm-up: thorin's times include "
                 "start-up (~5 ms), elaboration, specialization and JIT compilation (~20-30 ms together); "
                 "gcc's is the binary alone (its compile time is not counted). The sizes make gcc's runs "
                 "0.1-0.7 s, so that the comparison is of the code, not of start-up. The C programs read "
                 "their data as data (through argc), as the thorin programs do: only the sizes and "
                 "constants that thorin's filters make static are written in.")
    versions = [harness.first_line([thorin, "--version"]), harness.first_line(["gcc", "--version"])]
    report = harness.header(versions, args) + "\n\n" + "\n".join(lines) + "\n\n" + "\n".join(notes) + "\n"
    stem = "pe" if not args.only else "pe-only"
    with open(os.path.join(harness.OUT, stem + ".md"), "w") as f:
        f.write(report)
    with open(os.path.join(harness.OUT, stem + ".csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["workload", "system", "seconds", "peak_kib", "error"])
        for r in rows:
            for s in ("specialized", "unspecialized", "gcc"):
                if s in r:
                    m = r[s]
                    w.writerow([r["workload"], s, f"{m['time']:.6f}" if "time" in m else "",
                                m.get("mem", ""), m.get("error", "")])
    print()
    print(report)
