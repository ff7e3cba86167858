# wordfreq in Python 3: the ten most frequent words (lower case), ties in
# alphabetical order (as examples/wordfreq.thorin).
import sys

with open(sys.argv[1], "rb") as f:
    text = f.read().lower()
counts = {}
for w in text.split():
    counts[w] = counts.get(w, 0) + 1
for w, n in sorted(counts.items(), key=lambda p: (-p[1], p[0]))[:10]:
    print(n, w.decode("utf-8", "replace"))
