#!/usr/bin/env python3
"""Reloads do not pile up memory. A 1,000-line file is reloaded 300 times,
unchanged or edited each time (near the end, near the top). Unchanged, the
peak RSS stays within 1.5x of the first load's; edited, each reload replaces
definitions, and what it replaced is reclaimed by a full reload once it is
half as big as what is live — so the peak levels off: from reload 100 to
reload 300 it grows by at most 10%, and it stays within 2x of the first load.
"""
import os
import re
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import thorin  # noqa: E402

BLOCK = """
Nat{i} : U
  = (N : U) → (N → N) → N → N
zero{i} : Nat{i} = λ N s z. z
suc{i} : Nat{i} → Nat{i} = λ n N s z. s (n N s z)
add{i} : Nat{i} → Nat{i} → Nat{i}
  = λ a b N s z. a N s (b N s z)
mul{i} : Nat{i} → Nat{i} → Nat{i}
  = λ a b N s z. a N (b N s) z
Eq{i} : {{A : U}} → A → A → U = λ {{A}} x y. (P : A → U) → P x → P y
refl{i} : {{A : U}}{{x : A}} → Eq{i} x x = λ P px. px
two{i} = suc{i} (suc{i} zero{i})
four{i} : Nat{i} = mul{i} two{i} two{i}
p{i} : Eq{i} (add{i} two{i} two{i}) four{i} = refl{i}
id{i} : {{A : U}} → A → A = λ x. x
idTest{i} : {{A : U}} → A → A = id{i} id{i} id{i} id{i} id{i} id{i} id{i}
Pair{i} : U = (A : U) × (B : U) × A
pp{i} : Pair{i} = (U, U, U)
"""


def reload_many(exe, path, versions, n, env, marks=()):
    """:r after writing each version in turn, n times, with :stats first and
    after the reloads numbered in `marks`; returns the output."""
    p = thorin.popen(exe, path, stdin=True, env=env)
    out = []
    def send(cmd, until):
        p.stdin.write(cmd.encode())
        p.stdin.flush()
        while True:
            line = p.stdout.readline().decode()
            if not line:
                raise RuntimeError("thorin exited:\n" + "".join(out[-50:]))
            out.append(line)
            if until(line):
                return
    send(":stats\n", lambda l: "peak" in l)
    for k in range(n):
        with open(path, "w") as f:
            f.write(versions[k % len(versions)])
        send(":r\n", lambda l: l.startswith("reloaded ") or "failed" in l)
        if k + 1 in marks:
            send(":stats\n", lambda l: "peak" in l)
    p.stdin.write(b":q\n")
    p.stdin.flush()
    p.wait(timeout=60)
    return "".join(out)


def main():
    exe = thorin.binary()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "big.thorin")
        lines = []
        i = 0
        while len(lines) < 1000:
            lines += BLOCK.format(i=i).splitlines()
            i += 1
        text = "\n".join(lines[:1000]) + "\n"
        # Reloads that keep everything, then reloads after edits near the end
        # and near the top: what they replace must not pile up.
        edited_end = text.replace("pp{i} : Pair{i} = (U, U, U)".format(i=i - 2),
                                  "pp{i} : Pair{i} = (U, U, (U))".format(i=i - 2))
        edited_top = text.replace("two0 = suc0 (suc0 zero0)", "two0 = (suc0 (suc0 zero0))")
        assert edited_end != text and edited_top != text
        # Under AddressSanitizer, freed memory sits in a quarantine that would
        # look like growth: turn the quarantine off for this measurement.
        asan = os.environ.get("ASAN_OPTIONS", "")
        env = dict(os.environ, THORIN_HISTORY=os.devnull,
                   ASAN_OPTIONS=(asan + ":" if asan else "") + "quarantine_size_mb=0")
        status = 0
        for label, versions in [("unchanged", [text]), ("edit near the end", [edited_end, text]),
                                ("edit near the top", [edited_top, text])]:
            with open(path, "w") as f:
                f.write(text)
            out = reload_many(exe, path, versions, 300, env, marks=(100, 300))
            peaks = [int(m) for m in re.findall(r"\(peak (\d+) KiB\)", out)]
            reloads = out.count("reloaded ")
            full = out.count("re-checked all")
            ok = reloads == 300 and len(peaks) == 3 and "error" not in out
            if ok:
                print(f"{label}: first load peak {peaks[0]} KiB; after 100 reloads {peaks[1]} KiB "
                      f"({peaks[1] / peaks[0]:.2f}x), after 300 {peaks[2]} KiB "
                      f"({peaks[2] / peaks[0]:.2f}x, {peaks[2] / peaks[1]:.2f}x of reload 100); "
                      f"{full} full reloads")
                if versions == [text]:
                    ok = peaks[2] <= 1.5 * peaks[0]
                else:
                    ok = peaks[2] <= 1.1 * peaks[1] and peaks[2] <= 2 * peaks[0]
            if not ok:
                print(out[-3000:])
                status = 1
        return status


if __name__ == "__main__":
    sys.exit(main())
