"""`bench/run regex`: the regex plugin against the regex engines (issue 31).

Workloads (data from bench/regex/gen.py, fixed seeds, in
bench/out/regex-data/): the paper's e-mail pattern on 10,215 matching and
450 non-matching addresses (each line a full-match call: how many match),
and rebar-shaped patterns counted as non-overlapping leftmost-first matches
(Python's re.finditer) in a ~4 MB English-like haystack — a literal, a
literal alternation, a date, words, letters, a bounded repeat, a dictionary
of 300 words — and the ReDoS pattern `(a|aa)*b` on a line of 10k, 20k and
40k 'a's followed by a line "b" (the one match: the 'b' makes PCRE2's
required-byte pre-check pass, so a backtracker does explore the long line).
Every engine's count is checked against Python's re on bytes (the ReDoS
count by its construction: Python's re backtracks exponentially on it).

Engines: thorin (a program per workload, the pattern a string literal,
`thorin run --jit-stats`; its compile time from the `jit: regex … compiled
in` line), and bench/regex/peers.cpp — PCRE2-JIT, PCRE2, RE2, Hyperscan,
Boost.Regex, std::regex — plus the hand-written C matchers
bench/regex/email.c and literal.c, built with g++/gcc -O2 into
bench/out/bin/. Each runs as its own process with a time limit; in it the
pattern is compiled once (compile time: the median of up to 5
compilations), the data read before timing, one warm-up pass gives the
count, then passes for 0.3 s warm every engine up (thorin's JIT compiles
the hot code meanwhile), then each of max(5, --runs) measurements (15 for ReDoS) runs enough
passes for ~5 ms (measuring stops after ~4 s; a warm-up over 2 s is the one
measurement) and the match time is the median per pass (the ReDoS
linearity check takes the fastest). Hyperscan reports
all matches; its count takes each match starting at or after the last one
taken's end, which is leftmost-first's only for some patterns: when it
differs, the cell says so and Hyperscan is not a peer for that workload.

Then `examples/grep.thorin` against GNU grep -P (PCRE2 with its JIT) and
grep -E (LC_ALL=C, bytes) on a 50 MB text, as whole processes (median of
--runs after a warm-up), each printing the same number of lines.
Output: bench/out/regex.md and regex.csv.
"""
import csv
import importlib.util
import json
import os
import re
import statistics
import subprocess

REGEX_DIR = "regex"
ENGINES = ["pcre2-jit", "pcre2", "re2", "hyperscan", "boost", "std"]
LABELS = {"thorin": "thorin", "c": "hand-written C", "pcre2-jit": "PCRE2-JIT", "pcre2": "PCRE2",
          "re2": "RE2", "hyperscan": "Hyperscan", "boost": "Boost.Regex", "std": "std::regex"}
REDOS = "(a|aa)*b"


def load_gen(here):
    spec = importlib.util.spec_from_file_location("regex_gen", os.path.join(here, "gen.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def workloads(gen, paths):
    """[(name, kind, pattern, data file, hand-written C matcher or None)]"""
    hay = paths["haystack"]
    dictionary = open(paths["dictionary"]).read().strip()
    ws = [("email", "lines", gen.EMAIL, paths["emails"], "email"),
          ("literal", "count", "Sherlock", hay, "literal"),
          ("alternation", "count", "Sherlock|Holmes|Watson|Irene|Adler", hay, None),
          ("date", "count", r"[0-9]{4}-[0-9]{2}-[0-9]{2}", hay, None),
          ("words", "count", r"\b\w+\b", hay, None),
          ("letters", "count", "[A-Za-z]+", hay, None),
          ("bounded", "count", "[A-Za-z]{8,13}", hay, None),
          ("dictionary", "count", dictionary, hay, None)]
    return ws + [(f"redos{n // 1000}k", "count", REDOS, paths[f"redos{n // 1000}k"], None)
                 for n in gen.REDOS_SIZES]


def expected(kind, pattern, path, cache):
    """Python's answer (cached in regex-data/expected.json)."""
    key = f"{kind}|{pattern}|{os.path.basename(path)}|{os.path.getsize(path)}"
    if key not in cache:
        data = open(path, "rb").read()
        if pattern == REDOS:  # one match per 'b' (each at a line's start); re would take forever
            assert re.fullmatch(rb"[ab\n]*", data) and b"ab" not in data
            cache[key] = data.count(b"b")
        elif kind == "lines":
            r = re.compile(pattern.encode())
            cache[key] = sum(1 for l in data.split(b"\n")[:-1] if r.fullmatch(l))
        else:
            cache[key] = sum(1 for _ in re.finditer(pattern.encode(), data))
    return cache[key]


def build(h, here, bindir):
    """Compiles peers.cpp, email.c, literal.c (when a source is newer); → {name: path or error}."""
    os.makedirs(bindir, exist_ok=True)
    libs = subprocess.run(["pkg-config", "--cflags", "--libs", "libpcre2-8", "re2", "libhs"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    flags = libs.stdout.split() if libs.returncode == 0 else ["-I/usr/include/hs", "-lpcre2-8", "-lre2", "-lhs"]
    jobs = {"peers": ["g++", "-O2", "-std=c++17", "peers.cpp"] + flags + ["-lboost_regex"],
            "email": ["gcc", "-O2", "email.c"], "literal": ["gcc", "-O2", "literal.c"]}
    out = {}
    for name, cmd in jobs.items():
        exe = os.path.join(bindir, name)
        srcs = [os.path.join(here, cmd[3 if name == "peers" else 2]), os.path.join(here, "bench.h")]
        if not os.path.exists(exe) or any(os.path.getmtime(s) > os.path.getmtime(exe) for s in srcs):
            p = subprocess.run(cmd + ["-o", exe], cwd=here, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
            if p.returncode != 0:
                out[name] = "error: build failed: " + (p.stdout.strip().splitlines() or ["?"])[0][:60]
                print(p.stdout)
                continue
        out[name] = exe
    return out


def thorin_literal(s):
    """s as a thorin string literal."""
    out = []
    for b in s.encode():
        c = chr(b)
        out.append("\\\\" if c == "\\" else '\\"' if c == '"' else c if 32 <= b < 127 else f"\\x{b:02x}")
    return '"' + "".join(out) + '"'


THORIN = """.plugin regex
.plugin text

pattern : Regex = re {pattern}
{pass_}
-- How many passes make a measurement of ~5 ms, from one pass's time.
batchFor : F64 → Nat
  = λ t. if t >= 0.005 then 1 else i64ToNat (f64ToI64 (0.005 / (t + 0.00000001))) + 1

-- More passes until 0.3 s have gone by since t0, as every engine warms up
-- (bench/regex/bench.h): the JIT compiles the hot code meanwhile.
warmUp : {input_type} → F64 → Nat → IO Nat
  = λ x t0 c. do
      t ← clock
      if t - t0 >= 0.3 then pure c else warmUp x t0 (pass x)

-- Prints "warmup COUNT SECONDS BATCH", then per measurement the count of
-- BATCH passes and the time of one.
main : {{n : Nat}} → Array n String → IO Unit
  = λ {{n}} args. do
      text ← readFile (get args (idx 0))
      let input = {input}
      tw ← clock
      cw ← warmUp input tw 0
      t0 ← clock
      c0 ← pure (pass input)
      t1 ← clock
      let b = batchFor (t1 - t0)
      putStrLn (strJoin " " (cons "warmup" (cons (showNat c0) (cons (showF64 (t1 - t0)) (cons (showNat b) nil)))))
      forRange 0 {repeats} (λ i. do
        acc ← newRef 0
        t2 ← clock
        forRange 0 b (λ j. do
          c ← pure (pass input)
          modifyRef acc (λ a. a + c))
        t3 ← clock
        c ← readRef acc
        putStrLn (strJoin " " (cons (showNat c) (cons (showF64 ((t3 - t2) / natToF64 b)) nil))))
"""
PASS = {"count": """
pass : String → Nat = λ s. count pattern s
""", "lines": """
countMatching : List String → Nat → Nat
countMatching nil acc = acc
countMatching (cons l rest) acc = countMatching rest (if matches pattern l then acc + 1 else acc)

pass : List String → Nat = λ ls. countMatching ls 0
"""}
COMPILED = re.compile(r"^jit: regex .* compiled in ([\d.]+) (ms|µs)", re.M)


def parse_thorin(out):
    m = re.search(r"^warmup (\d+) \S+ (\d+)$", out, re.M)
    if not m:
        return {"error": "no output: " + (out.strip().splitlines() or ["?"])[0][:60]}
    count, batch = int(m.group(1)), int(m.group(2))
    runs = [(int(c), float(t)) for c, t in re.findall(r"^(\d+) ([\d.e+-]+)$", out, re.M)]
    r = {"count": count, "match_us": [t * 1e6 for _, t in runs], "batch": batch}
    if any(c != count * batch for c, _ in runs):
        return {"error": "the count changed between passes", "count": count}
    c = COMPILED.search(out)
    if c:
        r["compile_us"] = float(c.group(1)) * (1000 if c.group(2) == "ms" else 1)
    return r


def parse_peer(out):
    m = re.search(r"^count=(\d+) compile_us=([\d.]+) match_us=([\d.,]+) batch=(\d+)", out, re.M)
    if not m:
        return {"error": "error: no result: " + (out.strip().splitlines() or ["?"])[0][:60]}
    return {"count": int(m.group(1)), "compile_us": float(m.group(2)),
            "match_us": [float(x) for x in m.group(3).split(",")], "batch": int(m.group(4))}


def run_one(h, cmd, timeout, parse):
    t, _peak, err, out = h.run_cmd(cmd, timeout)
    if err == "TL":
        return {"error": f"TL (over {timeout:.0f} s)"}
    if err:  # its own message, else run_cmd's ("killed by signal 11")
        e = re.search(r"^error: (.*)", out, re.M)
        return {"error": "error: " + e.group(1)[:70] if e else err}
    r = parse(out)
    if "error" not in r:
        r["time"] = statistics.median(r["match_us"]) / 1e6
    return r


def fmt_us(us):
    if us is None:
        return "n/a"
    return f"{us:.2f} µs" if us < 10 else f"{us:.0f} µs" if us < 1000 else \
        f"{us / 1000:.1f} ms" if us < 1e6 else f"{us / 1e6:.2f} s"


def run(h, args):
    """h: the harness module (bench/run)."""
    here = os.path.join(h.HERE, REGEX_DIR)
    examples = os.path.join(os.path.dirname(h.HERE), "examples")
    data = os.path.join(h.OUT, "regex-data")
    gen = load_gen(here)
    want_grep = not args.only or re.search(args.only, "grep")
    paths = gen.write(data, big=bool(want_grep))
    bins = build(h, here, os.path.join(h.OUT, "bin"))
    thorin = h.thorin_bin()
    repeats = max(5, args.runs)
    cache_path = os.path.join(data, "expected.json")
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    rows = {}  # workload → {engine: result}
    ws = [w for w in workloads(gen, paths) if not args.only or re.search(args.only, w[0])]
    for name, kind, pattern, path, cmatcher in ws:
        want = expected(kind, pattern, path, cache)
        json.dump(cache, open(cache_path, "w"))
        timeout = min(args.timeout, 10) if pattern == REDOS else args.timeout
        reps = max(15, repeats) if pattern == REDOS else repeats  # (tiny times: more samples)
        pat_file = os.path.join(data, f"{name}.pattern")
        with open(pat_file, "w") as f:
            f.write(pattern)
        prog = os.path.join(data, f"{name}.thorin")
        with open(prog, "w") as f:
            f.write(THORIN.format(pattern=thorin_literal(pattern), pass_=PASS[kind], repeats=reps,
                                  input="lines text" if kind == "lines" else "text",
                                  input_type="List String" if kind == "lines" else "String"))
        cmds = {"thorin": ([thorin, "run", "--jit-stats", prog, path], parse_thorin)}
        if cmatcher:
            cmds["c"] = ([bins[cmatcher], kind, pat_file, path, str(reps)], parse_peer)
        for e in ENGINES:
            cmds[e] = ([bins["peers"], e, kind, pat_file, path, str(reps)], parse_peer)
        rows[name] = {}
        for engine, (cmd, parse) in cmds.items():
            if cmd[0].startswith("error:"):
                r = {"error": cmd[0]}
            else:
                r = run_one(h, cmd, timeout, parse)
            if engine == "c":
                r.pop("compile_us", None)  # (nothing to compile)
            if "count" in r and r["count"] != want and "error" not in r:
                r = {"error": f"count differs: {r['count']}", "count": r["count"],
                     "compile_us": r.get("compile_us"), "match_us": r["match_us"],
                     "differs_time": statistics.median(r["match_us"]) / 1e6}
            rows[name][engine] = r
            print(f"  {name:<12} {LABELS[engine]:<15} {r.get('count', ''):>7} "
                  f"{fmt_us(r.get('compile_us')):>10} {fmt_us(r['time'] * 1e6) if 'time' in r else r['error']:>12}",
                  flush=True)
    grep_rows = run_grep(h, args, thorin, examples, paths["grep"]) if want_grep else []

    lines = []
    for name, kind, pattern, path, _c in ws:
        r = rows[name]
        best = best_peer(r)
        shown = pattern if len(pattern) <= 60 else f"{pattern[:50]}… ({len(pattern)} characters)"
        lines += [f"**{name}** — `{shown}` on {os.path.basename(path)}, "
                  f"{'full match per line' if kind == 'lines' else 'count'}: {expected(kind, pattern, path, cache)} "
                  f"({'by construction' if pattern == REDOS else 'Python' + chr(39) + 's re'}); best peer: {LABELS[best] if best else '—'}", "",
                  "| engine | count | compile | match (median) | thorin / engine |", "|---|---|---|---|---|"]
        for engine, e in r.items():
            ratio = h.ratio(r.get("thorin"), e)
            cell = fmt_us(e["time"] * 1e6) + (f" ({len(e['match_us'])} run{'s' * (len(e['match_us']) > 1)})" if len(e["match_us"]) < min(5, repeats) else "") \
                if "time" in e else e["error"] + (f" (its time {fmt_us(e['differs_time'] * 1e6)})"
                                                   if "differs_time" in e else "")
            lines.append(f"| {LABELS[engine]} | {e.get('count', '')} | {'—' if engine == 'c' else fmt_us(e.get('compile_us'))} | {cell} | "
                         f"{f'{ratio:.2f}' if ratio and engine != 'thorin' else ''} |")
        lines.append("")
    if grep_rows:
        lines += ["**grep** — `examples/grep.thorin` against GNU grep on a 50 MB text (whole processes)", "",
                  "| pattern | system | matching lines | time | thorin / this |", "|---|---|---|---|---|"]
        get = {(p, s): r for p, s, r in grep_rows}
        for p, s, r in grep_rows:
            ratio = h.ratio(get.get((p, "thorin")), r)
            lines.append(f"| `{p}` | {s} | {r.get('lines', '')} | {h.fmt_time(r)} | "
                         f"{f'{ratio:.2f}' if ratio and s != 'thorin' else ''} |")
    notes = targets(h, rows, grep_rows)
    versions = [h.first_line([thorin, "--version"])] + library_versions(h)
    report = (h.header(versions, args).replace(f"Median of {args.runs} runs after a warm-up",
                                               f"Match times: median of up to {repeats} in-process measurements "
                                               f"(15 for ReDoS) after a warm-up pass; grep: median of {args.runs} runs after a warm-up")
              + "\n\n" + "\n".join(lines) + "\n\n" + "\n".join(notes) + "\n")
    stem = "regex" if not args.only else "regex-only"
    with open(os.path.join(h.OUT, stem + ".md"), "w") as f:
        f.write(report)
    with open(os.path.join(h.OUT, stem + ".csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["workload", "engine", "count", "compile_us", "match_us_median", "match_us_all", "error"])
        for name, r in rows.items():
            for engine, e in r.items():
                w.writerow([name, engine, e.get("count", ""), e.get("compile_us", ""),
                            f"{e['time'] * 1e6:.3f}" if "time" in e else "",
                            " ".join(f"{x:.3f}" for x in e.get("match_us", [])), e.get("error", "")])
        for p, s, r in grep_rows:
            w.writerow([f"grep {p}", s, r.get("lines", ""), "", f"{r['time'] * 1e6:.0f}" if "time" in r else "",
                        "", r.get("error", "")])
    print()
    print(report)


def best_peer(r):
    """The fastest engine but thorin with the right count."""
    ok = [(e["time"], n) for n, e in r.items() if n != "thorin" and "time" in e]
    return min(ok)[1] if ok else None


GREP = [("Sherlock", True), ("Sherlock|Holmes|Watson|Irene|Adler", True),
        (r"\b[0-9]{4}-[0-9]{2}-[0-9]{2}\b", True)]


def run_grep(h, args, thorin, examples, path):
    """grep.thorin, grep -P and grep -E on the 50 MB file: [(pattern, system, result)]."""
    out = []
    for pattern, with_e in GREP:
        systems = [("thorin", [thorin, "run", os.path.join(examples, "grep.thorin"), pattern, path]),
                   ("GNU grep -P", ["env", "LC_ALL=C", "grep", "-P", pattern, path])]
        if with_e:
            systems.append(("GNU grep -E", ["env", "LC_ALL=C", "grep", "-E", pattern, path]))
        reference = None
        for system, cmd in systems:
            r = h.measure(lambda: h.run_cmd(cmd, args.timeout), args.runs)
            if "error" not in r:
                r["lines"] = len(r["out"].splitlines())
                if reference is None:
                    reference = r["lines"]
                elif r["lines"] != reference:
                    r = {"error": f"{r['lines']} lines, thorin {reference}", "lines": r["lines"]}
            out.append((pattern, system, r))
            print(f"  grep {pattern[:24]:<24} {system:<12} {r.get('lines', ''):>7} {h.fmt_time(r):>10}", flush=True)
    return out


def targets(h, rows, grep_rows):
    """The issue's targets, checked on this run."""
    notes = ["Targets:"]

    def line(ok, text):
        notes.append(f"- [{'x' if ok else ' '}] {text}")

    def t(name, engine):
        e = rows.get(name, {}).get(engine)
        return e["time"] if e and "time" in e else None

    def vs(name, engine, limit, label):
        a, b = t(name, "thorin"), t(name, engine)
        if a is None or b is None:
            why = rows.get(name, {}).get(engine if b is None else "thorin", {}).get("error", "no data")
            line(False, f"{name}: {label} {LABELS[engine]} — no comparison ({LABELS[engine if b is None else 'thorin']}: {why})")
        else:
            line(a / b <= limit if limit < 1 else a < b, f"{name}: {label} {LABELS[engine]} — {a / b:.2f}× its time")

    if "email" in rows:
        vs("email", "pcre2-jit", 0.5, "at most 0.5× the time of")
        for e in ("re2", "hyperscan", "c"):
            vs("email", e, 1, "faster than")
        c = rows["email"].get("thorin", {}).get("compile_us")
        line(c is not None and c < 5000, "email: pattern compile time under 5 ms — "
             + (fmt_us(c) if c is not None else "n/a (no `jit: regex … compiled in` line)"))
    for name in rows:
        if name == "email" or name.startswith("redos"):
            continue
        for e in ("pcre2-jit", "re2"):
            vs(name, e, 1, "faster than")
        best = best_peer(rows[name])
        a = t(name, "thorin")
        if best and a is not None:
            line(a / t(name, best) <= 1.5, f"{name}: within 1.5× of the fastest peer ({LABELS[best]}) — "
                 f"{a / t(name, best):.2f}×")
    redos = sorted((int(n[5:-1]) * 1000, n) for n in rows if n.startswith("redos"))
    if len(redos) >= 2:
        (n0, w0), (n1, w1) = redos[0], redos[-1]

        def fastest(name):  # (robust against the machine's noise at these tiny times)
            e = rows[name].get("thorin", {})
            return min(e["match_us"]) if "time" in e else None
        a0, a1 = fastest(w0), fastest(w1)
        pcre = "; ".join(f"{n}: {fmt_us(t(n, 'pcre2') * 1e6) if t(n, 'pcre2') else rows[n]['pcre2'].get('error')}"
                         for _, n in redos)
        if a0 and a1:
            g = (a1 / a0) / (n1 / n0)
            line(g <= 1.5, f"ReDoS `{REDOS}`: linear in the input — thorin's time per byte at {n1 // 1000}k is "
                 f"{g:.2f}× that at {n0 // 1000}k (fastest of its measurements: "
                 + ", ".join(fmt_us(fastest(n)) for _, n in redos) + f"); PCRE2: {pcre}")
        else:
            line(False, f"ReDoS `{REDOS}`: linear in the input — thorin has no time; PCRE2: {pcre}")
    for p, s, r in grep_rows:
        if s == "GNU grep -P":
            ratio = h.ratio(next((x for q, y, x in grep_rows if q == p and y == "thorin"), None), r)
            line(ratio is not None and ratio <= 2, f"grep `{p}`: grep.thorin within 2× of GNU grep -P — "
                 + (f"{ratio:.2f}×" if ratio else "no comparison"))
    differs = [f"{n}: {LABELS[e]} {x['error']} ({fmt_us(x['differs_time'] * 1e6)})" for n, r in rows.items()
               for e, x in r.items() if "differs_time" in x]
    notes.append("\nA \"count differs\" engine is left out of the best peer and the targets"
                 + (" (" + "; ".join(differs) + ")." if differs else ".")
                 + " Compile time: thorin's from `--jit-stats` (`jit: regex … compiled in`), the peers' the "
                 "median of up to 5 compilations (PCRE2-JIT: pcre2_compile and pcre2_jit_compile; Hyperscan: "
                 "hs_compile). RE2 runs with Latin-1 encoding and its default memory budget; PCRE2 with a "
                 "JIT stack of up to 8 MiB and its default match limit; std::regex is libstdc++'s, ECMAScript.")
    return notes


def library_versions(h):
    def pc(lib, label):
        p = subprocess.run(["pkg-config", "--modversion", lib], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True)
        return f"{label} {p.stdout.strip()}" if p.returncode == 0 else f"{label}: not found"

    def deb(pkg, label):
        p = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", pkg], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
        return f"{label} {p.stdout.strip()}" if p.returncode == 0 and p.stdout.strip() else f"{label}: not installed"

    return [pc("libpcre2-8", "PCRE2"), deb("libre2-dev", "RE2 (Debian)"), pc("libhs", "Hyperscan"),
            deb("libboost-regex-dev", "Boost.Regex (Debian)"), h.first_line(["g++", "--version"]),
            h.first_line(["grep", "--version"])]
