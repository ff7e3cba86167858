"""`bench/run mem`: memory for long-running programs (docs/runtime.md, "Memory").

Three loops (bench/mem/): an F64 accumulator, 3·10⁷ steps; Nats beyond
2^62, 3·10⁷ steps; one cell of a 1,000-element array set 10⁷ times. Each
runs in thorin's interpreter (`--jit=off`), baseline code (`--jit=baseline`)
and the default tiers (`--jit=lazy`); the F64 and array loops also as
OCaml (`ocamlopt`). Then the Brainfuck benchmark (bench/eval/bf) in every
thorin mode, and two workloads with a large live heap (NfTree23 through the
runtime, ForceTree23) for the collector's pauses. Brainfuck runs once more
with the code cache of `thorin run` (the warm-up run fills it); every other
run has none (bench/run turns it off). Every run reports its
time, peak resident memory and (thorin, `THORIN_GC_STATS=1`) collections,
total time in the collector and the longest pause. Output:
bench/out/mem.md and mem.csv.
"""
import csv
import os
import re
import shutil
import statistics

MEM_DIR = "mem"
LOOPS = {  # name → (stem, expected answer)
    "F64 loop 3e7": ("f64loop", "15000000.0"),
    "Nat > 2^62 loop 3e7": ("natloop", "4611686018517387904"),
    "array set 1e7": ("arrloop", "4995000000"),
}
MODES = {"interpreter": ["--jit=off"], "baseline": ["--jit=baseline"], "lazy": ["--jit=lazy"]}
GC_LINE = re.compile(r"gc: (\d+) collections, ([\d.]+) ms in all, longest pause ([\d.]+) ms")


def gc_stats(out):
    m = GC_LINE.search(out)
    return {"collections": int(m.group(1)), "gc_ms": float(m.group(2)), "pause_ms": float(m.group(3))} if m else {}


def run(h, args):
    """h: the harness module (bench/run): run_cmd, measure, fmt_time, fmt_mem…"""
    here = os.path.join(h.HERE, MEM_DIR)
    env_cmd = ["env", "THORIN_GC_STATS=1"]
    rows = []  # (workload, system, result)

    def once(cmd, files):
        return lambda: h.run_cmd(cmd, args.timeout, files)

    def record(name, system, cmd, files, answer):
        r = h.answer_check(h.measure(once(cmd, files), args.runs), answer)
        r.update(gc_stats(r.get("out", "")))
        rows.append((name, system, r))
        print(f"  {name:<22} {system:<12} {h.fmt_time(r):>10} {h.fmt_mem(r):>9}"
              + (f"  gc {r['collections']}× {r['gc_ms']:.1f} ms, longest {r['pause_ms']:.2f} ms"
                 if "collections" in r else ""), flush=True)

    ocaml = shutil.which("ocamlopt")
    bindir = os.path.join(h.OUT, "mem-bin")
    os.makedirs(bindir, exist_ok=True)
    for name, (stem, answer) in LOOPS.items():
        if args.only and not re.search(args.only, name):
            continue
        src = os.path.join(here, stem + ".thorin")
        for mode, flags in MODES.items():
            record(name, f"thorin {mode}", env_cmd + [h.thorin_bin(), "run", *flags, os.path.basename(src)],
                   [src], answer)
        ml = os.path.join(here, stem + ".ml")
        if os.path.exists(ml):
            if not ocaml:
                rows.append((name, "OCaml", {"error": "ocamlopt not installed"}))
                continue
            exe = os.path.join(bindir, stem)
            h.run_cmd(["ocamlopt", "-o", exe, ml], args.timeout)
            record(name, "OCaml", [exe], [], answer)

    eval_dir = h.EVAL_DIR
    if not args.only or re.search(args.only, "brainfuck"):
        bf = os.path.join(eval_dir, "bf.thorin")
        for mode, flags in MODES.items():
            record("brainfuck", f"thorin {mode}", env_cmd + [h.thorin_bin(), "run", *flags, "bf.thorin"],
                   [bf], "511585760")
        # Run again with the code cache (its warm-up run fills it): LLVM's
        # code is linked, not compiled, as gcc's binary is not compiled anew.
        cache = os.path.join(h.OUT, "code-cache")
        shutil.rmtree(cache, ignore_errors=True)
        record("brainfuck", "thorin lazy, cached",
               env_cmd + [f"THORIN_CACHE_DIR={cache}", h.thorin_bin(), "run", "bf.thorin"], [bf], "511585760")
        exe = os.path.join(bindir, "bf")
        if shutil.which("gcc"):
            h.run_cmd(["gcc", "-O2", "-o", exe, os.path.join(eval_dir, "bf.c")], args.timeout)
            record("brainfuck", "gcc -O2", [exe], [], "511585760")
    for kind, stem, answer in (("NfTree", "nftree", "normalized"), ("ForceTree", "forcetree", "true")):
        name = f"{kind}23"
        if args.only and not re.search(args.only, name):
            continue
        src = h.eval_source(stem, "thorin", 23)
        record(name, "thorin lazy", env_cmd + [h.thorin_bin(), "run", "--jit=lazy", os.path.basename(src)],
               [src], answer)

    lines = ["| workload | system | time | peak RSS | collections | time in collector | longest pause |",
             "|---|---|---|---|---|---|---|"]
    for name, system, r in rows:
        gc_ms = f"{r['gc_ms']:.1f} ms" if "gc_ms" in r else ""
        pause = f"{r['pause_ms']:.2f} ms" if "pause_ms" in r else ""
        lines.append(f"| {name} | {system} | {h.fmt_time(r)} | {h.fmt_mem(r)} | {r.get('collections', '')} "
                     f"| {gc_ms} | {pause} |")
    notes = targets(rows)
    versions = [h.first_line([h.thorin_bin(), "--version"]),
                h.first_line(["ocamlopt", "-version"]) if ocaml else "ocamlopt: not installed",
                h.first_line(["gcc", "--version"]) if shutil.which("gcc") else "gcc: not installed"]
    report = h.header(versions, args) + "\n\n" + "\n".join(lines) + "\n\n" + "\n".join(notes) + "\n"
    os.makedirs(h.OUT, exist_ok=True)
    stem = "mem" if not args.only else "mem-only"
    with open(os.path.join(h.OUT, stem + ".md"), "w") as f:
        f.write(report)
    with open(os.path.join(h.OUT, stem + ".csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["workload", "system", "seconds", "peak_kib", "collections", "gc_ms", "longest_pause_ms",
                    "error"])
        for name, system, r in rows:
            w.writerow([name, system, f"{r['time']:.6f}" if "time" in r else "", r.get("mem", ""),
                        r.get("collections", ""), r.get("gc_ms", ""), r.get("pause_ms", ""), r.get("error", "")])
    print()
    print(report)


def targets(rows):
    """The issue's targets, checked on this run."""
    get = {(n, s): r for n, s, r in rows}
    notes = ["Targets:"]

    def check(label, ok, shown):
        notes.append(f"- [{'x' if ok else ' '}] {label}: {shown}")

    peaks = [(n, s, r["mem"]) for n, s, r in rows if s.startswith("thorin") and "mem" in r
             and not n.endswith("23")]
    if peaks:
        worst = max(peaks, key=lambda x: x[2])
        check("every thorin loop under 100 MB peak in every mode", worst[2] < 100 * 1024,
              f"largest {worst[2] / 1024:.1f} MB ({worst[0]}, {worst[1]})")
    for name in ("F64 loop 3e7", "array set 1e7"):
        t, o = get.get((name, "thorin lazy")), get.get((name, "OCaml"))
        if t and o and "time" in t and "time" in o:
            q = t["time"] / o["time"]
            check(f"{name}, compiled, within 2× of OCaml", q <= 2, f"{q:.2f}× ({t['time']:.3f} s / {o['time']:.3f} s)")
    g = get.get(("brainfuck", "gcc -O2"))
    for system, label in (("thorin lazy", "Brainfuck within 3× of gcc -O2, first run (LLVM compiles)"),
                          ("thorin lazy, cached", "Brainfuck within 3× of gcc -O2, code cache")):
        t = get.get(("brainfuck", system))
        if t and g and "time" in t and "time" in g:
            q = t["time"] / g["time"]
            check(label, q <= 3, f"{q:.2f}× ({t['time']:.3f} s / {g['time']:.3f} s)")
    return notes
