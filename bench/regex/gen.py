"""The data of `bench/run regex`, generated with fixed seeds (deterministic).

  emails.txt     10,215 addresses the e-mail pattern fully matches and 450
                 near misses it does not, shuffled, one per line
  haystack.txt   ~4 MB of English-like text: a Zipf-weighted vocabulary in
                 sentences, lines of ~80 characters, the names Sherlock,
                 Holmes, Watson, Irene and Adler at realistic rates, dates
                 YYYY-MM-DD, other numbers and a few UTF-8 words
  redos-N.txt    a line of N × 'a', on which `(a|aa)*b` never matches, then
                 a line "b" (the one match; with no 'b' at all, PCRE2's
                 required-byte check would skip the long line)
  grep50mb.txt   ~50 MB of the same kind of text, for the grep comparison
  dictionary.txt ~300 words of the vocabulary as one alternation w1|w2|…

A file already there is kept (the generator is deterministic).
"""
import os
import random
import re

EMAIL = (r"^[a-zA-Z0-9](?:[a-zA-Z0-9]*[._\-]+[a-zA-Z0-9])*[a-zA-Z0-9]*@[a-zA-Z0-9](?:[a-zA-Z0-9]*[_\-]+"
         r"[a-zA-Z0-9])*[a-zA-Z0-9]*\.(?:(?:[a-zA-Z0-9]*[_\-]+[a-zA-Z0-9])*[a-zA-Z0-9]+\.)*[a-zA-Z][a-zA-Z]+$")
N_MATCH, N_MISS = 10_215, 450
REDOS_SIZES = (10_000, 20_000, 40_000)

COMMON = ("the of and to a in that it was he i his you is with as had for her at not be on but "
          "my she which by have this from all me so were they him we one said there no what been "
          "are an or if would when upon very could man more then out into some their up little "
          "do has your who any over time should will about may only see know must now such "
          "before made than other our well these down after those matter shall how never "
          "nothing think again house room street door night found face hand much came here "
          "without through young just away perhaps something quite however answered remarked "
          "observed possible gentleman evidently singular extraordinary lestrade inspector "
          "baker window carriage morning evening london country").split()
NAMES = {"Holmes": 0.004, "Sherlock": 0.0008, "Watson": 0.0012, "Irene": 0.0002, "Adler": 0.0002}
UTF8 = ["café", "naïve", "Zürich", "façade", "résumé"]


def vocabulary(rnd, size=8000):
    """COMMON, then made-up words of 1–4 syllables (many of 8–13 letters)."""
    onsets = ["", "b", "c", "d", "f", "g", "h", "l", "m", "n", "p", "r", "s", "t", "v", "w",
              "br", "ch", "cl", "dr", "gr", "pl", "sh", "st", "str", "th", "tr"]
    nuclei = ["a", "e", "i", "o", "u", "ea", "ou", "io", "ai"]
    codas = ["", "", "n", "r", "s", "t", "l", "nd", "st", "ng", "ck", "m"]
    words, seen = list(COMMON), set(COMMON)
    while len(words) < size:
        w = "".join(rnd.choice(onsets) + rnd.choice(nuclei) + rnd.choice(codas)
                    for _ in range(rnd.choice((1, 1, 2, 2, 2, 3, 3, 4))))
        if w not in seen and w.isalpha():
            seen.add(w)
            words.append(w)
    return words


def token(rnd, t):
    if t == "<DATE>":
        return f"{rnd.randint(1850, 2030)}-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}"
    if t == "<NUM>":
        return rnd.choice((str(rnd.randint(0, 999)), str(rnd.randint(1000, 99999)),
                           f"{rnd.randint(0, 99)}.{rnd.randint(0, 99)}", f"{rnd.randint(100, 999)}-{rnd.randint(1000, 9999)}",
                           f"{rnd.randint(1, 300)}B"))
    if t == "<UTF8>":
        return rnd.choice(UTF8)
    return t


def text(path, nbytes, seed):
    """English-like text of about `nbytes` bytes."""
    rnd = random.Random(seed)
    vocab = vocabulary(random.Random(0))  # one vocabulary for every text
    tokens = vocab + list(NAMES) + ["<DATE>", "<NUM>", "<UTF8>"]
    zipf = [1 / (i + 1) ** 1.05 for i in range(len(vocab))]
    mass = sum(zipf)
    special = list(NAMES.values()) + [0.004, 0.01, 0.0005]
    weights = [w / mass * (1 - sum(special)) for w in zipf] + special
    cum, acc = [], 0.0
    for w in weights:
        acc += w
        cum.append(acc)
    out, size, line, sentence_left = [], 0, [], 0
    chunk = rnd.choices(tokens, cum_weights=cum, k=nbytes // 5)
    i = 0
    while size < nbytes:
        if i == len(chunk):
            chunk, i = rnd.choices(tokens, cum_weights=cum, k=100_000), 0
        w = token(rnd, chunk[i])
        i += 1
        if sentence_left == 0:
            sentence_left = rnd.randint(5, 25)
            w = w[:1].upper() + w[1:]
        sentence_left -= 1
        if sentence_left == 0:
            w += rnd.choice(".....?!")
        elif rnd.random() < 0.06:
            w += ","
        line.append(w)
        if sum(map(len, line)) + len(line) > rnd.randint(70, 90):
            s = " ".join(line)
            out.append(s)
            size += len(s.encode()) + 1
            line = []
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def emails(path, seed):
    rnd = random.Random(seed)
    alnum = "abcdefghijklmnopqrstuvwxyz" * 3 + "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + "0123456789"
    tlds = ["com", "org", "net", "de", "io", "info", "co", "uk", "edu", "gov", "fr", "museum"]
    pat = re.compile(EMAIL.encode())

    def seg(lo=1, hi=10):
        return "".join(rnd.choice(alnum) for _ in range(rnd.randint(lo, hi)))

    def valid():
        local = seg()
        for _ in range(rnd.choice((0, 0, 1, 1, 2))):
            local += rnd.choice(("." * rnd.choice((1, 1, 1, 2)), "_", "-", "-", "._")) + seg()
        dom = seg(1, 12)
        if rnd.random() < 0.2:
            dom += rnd.choice("-_") + seg(1, 6)
        subs = "".join(seg(1, 8) + "." for _ in range(rnd.choice((0, 0, 0, 1, 2))))
        return f"{local}@{dom}.{subs}{rnd.choice(tlds)}"

    def miss():
        a = valid()
        at = a.index("@")
        k = rnd.randrange(10)
        if k == 0:
            return a.replace("@", "")                       # no '@'
        if k == 1:
            return a[:at] + "@@" + a[at + 1:]              # two '@'
        if k == 2:
            return a.replace(".", "..", 1) if a.index(".") > at else a[:at] + "@x..com"  # double dot
        if k == 3:
            return a[:at] + "-" + a[at:]                   # trailing '-' before '@'
        if k == 4:
            return a + "-"                                 # trailing '-'
        if k == 5:
            return a[:a.rindex(".") + 1] + rnd.choice("abcdefghij")  # one-letter TLD
        if k == 6:
            i = rnd.randrange(1, len(a) - 1)
            return a[:i] + " " + a[i:]                     # a space
        if k == 7:
            return "." + a                                  # leading dot
        if k == 8:
            return a[:a.rindex(".") + 1] + "c0m"           # a digit in the TLD
        return a[:a.rindex(".")]                           # no TLD

    good, bad = set(), set()
    while len(good) < N_MATCH:
        a = valid()
        assert pat.fullmatch(a.encode()), a
        good.add(a)
    while len(bad) < N_MISS:
        a = miss()
        if not pat.fullmatch(a.encode()) and a not in good:
            bad.add(a)
    rows = sorted(good) + sorted(bad)
    rnd.shuffle(rows)
    assert sum(1 for a in rows if pat.fullmatch(a.encode())) == N_MATCH
    with open(path, "w") as f:
        f.write("\n".join(rows) + "\n")


def dictionary(path, seed, n=300):
    """n distinct words of the vocabulary (3 letters or more), as w1|w2|…"""
    rnd = random.Random(seed)
    words = [w for w in vocabulary(random.Random(0)) if len(w) >= 3]
    with open(path, "w") as f:
        f.write("|".join(rnd.sample(words, n)))


def write(d, big=True):
    """Generates what is missing in directory d; returns {name: path}."""
    os.makedirs(d, exist_ok=True)
    paths = {"emails": os.path.join(d, "emails.txt"), "haystack": os.path.join(d, "haystack.txt"),
             "dictionary": os.path.join(d, "dictionary.txt"), "grep": os.path.join(d, "grep50mb.txt")}
    for n in REDOS_SIZES:
        paths[f"redos{n // 1000}k"] = os.path.join(d, f"redos-{n}.txt")
    makers = {"emails": lambda p: emails(p, 31), "haystack": lambda p: text(p, 4_000_000, 31),
              "dictionary": lambda p: dictionary(p, 31), "grep": lambda p: text(p, 50_000_000, 50)}
    for n in REDOS_SIZES:
        makers[f"redos{n // 1000}k"] = lambda p, n=n: open(p, "w").write("a" * n + "\nb\n")
    for name, p in paths.items():
        if (big or name != "grep") and not os.path.exists(p):
            print(f"  generating {os.path.basename(p)}", flush=True)
            makers[name](p + ".tmp")
            os.replace(p + ".tmp", p)
    return paths


if __name__ == "__main__":
    import sys
    write(sys.argv[1] if len(sys.argv) > 1 else "regex-data")
