#!/usr/bin/env python3
"""The ding dictionary's phrases and head words that the corpus build left out, as extra
training pairs for tools/train/mix_corpus.py --extra (untagged: they are genuine pairs).

build_corpus.py samples ding's multi-word phrases to --ding-phrase-cap (100,000 of about
249,000) and its head words to --ding-word-cap (30,000 of about 70,000), so that
dictionary entries do not crowd out sentences in a full training run. A short run that goes
on from a trained model can take the rest, for the everyday vocabulary the models miss
("Regenschirm", "schließt samstags"). The same cleaning and opusfilter pass as the build;
pairs whose English already is in the build (any split) are left out, and mix_corpus.py
leaves out those with a dev or test sentence on either side.

  python3 tools/data/ding_extra.py --data /work/edgemt-data     # writes DATA/extra/ding.tsv

Each line: ding-phrase|ding-word <TAB> English <TAB> German.
"""
import argparse
import collections
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import build_corpus  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="/work/edgemt-data")
    ap.add_argument("--ding", default="/usr/share/trans/de-en")
    ap.add_argument("--out", help="default DATA/extra/ding.tsv")
    ap.add_argument("--no-opusfilter", action="store_true")
    args = ap.parse_args()
    if not os.path.exists(args.ding):
        sys.exit(f"{args.ding} missing: apt-get install trans-de-en")
    built = set()
    for split in ("train", "dev", "test"):
        path = os.path.join(args.data, "corpus", split + ".en")
        if not os.path.exists(path):
            sys.exit(f"{path} missing: python3 tools/data/build_corpus.py first")
        with open(path, encoding="utf-8") as f:
            built.update(build_corpus.norm_key(line.rstrip("\n")) for line in f)
    pair_filter = None
    if not args.no_opusfilter:
        import opus_filters
        pair_filter = opus_filters.PairFilter()
    out = args.out or os.path.join(args.data, "extra", "ding.tsv")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    stats = collections.Counter()
    kept = collections.Counter()
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        for kind, en, de in build_corpus.extract_ding(args.ding, {"ding-sent": 0}, stats):
            k = build_corpus.norm_key(en)
            if not k or k in built:
                stats[kind + "_in_build_or_dup"] += 1
                continue
            if pair_filter is not None and (why := pair_filter(en, de)) is not None:
                stats[kind + "_opusfilter_" + why] += 1
                continue
            built.add(k)
            kept[kind] += 1
            f.write(f"{kind}\t{en}\t{de}\n")
    os.replace(out + ".tmp", out)
    summary = {"out": out, "kept": dict(kept), "dropped": dict(stats)}
    with open(os.path.splitext(out)[0] + ".json", "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
