#!/usr/bin/env python3
"""How well edgemt's word alignments (translate --output jsonl) agree with a dictionary.

There are no gold word alignments for the bundled models' domain, so this measures a proxy: among the
translated words that have a translation in the ding dictionary (Debian's trans-de-en) somewhere in
their source sentence, the share whose aligned source word is such a translation. It compares decoder
layers (--alignment-layer), which is what the default layer was chosen with.

    python3 tools/perf/alignment_quality.py --model models/edgemt-en-de.emt --src DATA/test.en -n 400
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys

DING = "/usr/share/trans/de-en"
WORD = re.compile(r"\w+", re.UNICODE)


def load_pairs(source_is_english):
    """(source word, target word) pairs, lower-cased, from single-word ding entries."""
    pairs = set()
    strip = re.compile(r"\{[^}]*\}|\[[^\]]*\]|\([^)]*\)|<[^>]*>")
    with open(DING, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or " :: " not in line:
                continue
            de, en = line.rstrip("\n").split(" :: ", 1)
            for d_alt, e_alt in zip(de.split("|"), en.split("|")):
                ds = [strip.sub("", x).strip().lower() for x in d_alt.split(";")]
                es = [strip.sub("", x).strip().lower() for x in e_alt.split(";")]
                for d in ds:
                    if not d or " " in d:
                        continue
                    for e in es:
                        if e.startswith("to "):
                            e = e[3:]
                        if not e or " " in e:
                            continue
                        pairs.add((e, d) if source_is_english else (d, e))
    return pairs


def norm(word):
    m = WORD.findall(word.lower())
    return m[0] if len(m) == 1 else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--translate", default="build/release/runtime/translate")
    ap.add_argument("--model", required=True)
    ap.add_argument("--src", required=True, help="one sentence per line")
    ap.add_argument("--source-lang", default="en")
    ap.add_argument("-n", type=int, default=400, help="the first N lines with 6 or more words")
    ap.add_argument("--layers", type=int, nargs="+", default=[0, 1])
    args = ap.parse_args()
    pairs = load_pairs(args.source_lang == "en")
    targets_of = {}
    for s, t in pairs:
        targets_of.setdefault(s, set()).add(t)
    lines = []
    with open(args.src, encoding="utf-8") as f:
        for line in f:
            if len(line.split()) >= 6:
                lines.append(line.strip())
            if len(lines) >= args.n:
                break
    for layer in args.layers:
        out = subprocess.run([args.translate, "--model", args.model, "--output", "jsonl", "--no-split",
                              "--alignment-layer", str(layer)], input="\n".join(lines) + "\n",
                             capture_output=True, text=True, check=True).stdout
        anchored = right = 0
        for row in out.splitlines():
            d = json.loads(row)
            for sen in d.get("sentences", []):
                src = [norm(w) for w in sen["source_words"]]
                for w in sen["words"]:
                    t = norm(w["word"])
                    if t is None:
                        continue
                    partners = {i for i, s in enumerate(src) if s is not None and t in targets_of.get(s, ())}
                    if not partners:
                        continue
                    anchored += 1
                    right += w["source"] in partners
        print(f"layer {layer}: {right}/{anchored} dictionary-anchored words aligned to a translation "
              f"({100.0 * right / max(anchored, 1):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
