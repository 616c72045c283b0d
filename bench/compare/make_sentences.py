#!/usr/bin/env python3
"""Write bench/compare/sentences.en: 200 fixed English sentences for the engine comparison.

Taken (deterministically, evenly spaced) from the test split of the project's corpus
(/work/edgemt-data/corpus/test.en: English strings of Debian packages' translations,
built by tools/data/), keeping lines of 6 to 35 words without tabs or URLs. The file is
committed, so runs on other machines use the same input; rerun only to regenerate it.
"""
import argparse
import re

ap = argparse.ArgumentParser(description=__doc__)
ap.add_argument("--corpus", default="/work/edgemt-data/corpus/test.en")
ap.add_argument("--out", default="sentences.en")
ap.add_argument("-n", type=int, default=200)
args = ap.parse_args()

with open(args.corpus, encoding="utf-8") as f:
    lines = [ln.strip() for ln in f]
seen, keep = set(), []
for ln in lines:
    n = len(ln.split())
    if 6 <= n <= 35 and "\t" not in ln and not re.search(r"https?://|www\.", ln) and ln not in seen:
        seen.add(ln)
        keep.append(ln)
step = len(keep) / args.n
picked = [keep[int(i * step)] for i in range(args.n)]
with open(args.out, "w", encoding="utf-8") as f:
    f.write("\n".join(picked) + "\n")
print(f"wrote {args.out}: {len(picked)} of {len(keep)} candidate lines")
