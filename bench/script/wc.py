# wc in Python 3: lines, words and bytes of each file (as examples/wc.thorin).
import sys

for name in sys.argv[1:]:
    with open(name, "rb") as f:
        data = f.read()
    lines = data.count(b"\n")
    print(f"{lines:7} {len(data.split()):7} {len(data):7} {name}")
