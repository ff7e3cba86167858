#!/usr/bin/env python3
"""200 reloads of a 1,000-line file keep peak RSS within 1.5x of the first load."""
import os
import re
import subprocess
import sys
import tempfile

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


def main():
    thorin = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "big.thorin")
        lines = []
        i = 0
        while len(lines) < 1000:
            lines += BLOCK.format(i=i).splitlines()
            i += 1
        with open(path, "w") as f:
            f.write("\n".join(lines[:1000]) + "\n")
        script = ":stats\n" + ":r\n" * 200 + ":stats\n"
        # Under AddressSanitizer, freed memory sits in a quarantine that would
        # look like growth: turn the quarantine off for this measurement.
        asan = os.environ.get("ASAN_OPTIONS", "")
        env = dict(os.environ, THORIN_HISTORY=os.devnull,
                   ASAN_OPTIONS=(asan + ":" if asan else "") + "quarantine_size_mb=0")
        p = subprocess.run([thorin, path], input=script.encode(), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=600, env=env)
        out = p.stdout.decode()
        if p.returncode != 0 or "error" in out:
            print(out[-3000:])
            return 1
        peaks = [int(m) for m in re.findall(r"\(peak (\d+) KiB\)", out)]
        reloads = out.count("reloaded ")
        print(f"first load peak: {peaks[0]} KiB, after {reloads} reloads: {peaks[-1]} KiB "
              f"({peaks[-1] / peaks[0]:.2f}x)")
        if reloads != 200 or len(peaks) != 2:
            print(out[-3000:])
            return 1
        return 0 if peaks[-1] <= 1.5 * peaks[0] else 1


if __name__ == "__main__":
    sys.exit(main())
