#!/usr/bin/env python3
"""A training mix for going on from a trained model (train.py --init): every pair of the
sources it has not seen or that matter most (--keep, whole), plus a random share of the
others (--rest) so that it does not forget them. Writes OUT/corpus/train.{en,de,src} and
links OUT/corpus/{dev,test}.* and OUT/spm to the full build's, so that train.py --data OUT
trains on the mix and evaluates on the same dev split.

  python3 tools/train/mix_corpus.py --data /work/edgemt-data --out /work/ft/data \
      --spm /work/ft/spm-en-de --keep help,man,ding-sent,doc --rest 0.3

Sources are the first field of corpus/train.src ("gettext:<pkg>" -> gettext); --keep takes
those kinds or whole labels ("gettext:widelands-data": one package). The mix is
deterministic (--seed) and its composition is printed and written to OUT/corpus/mix.json.

--extra FILE adds pairs that are not in the corpus build, "source<TAB>English<TAB>German"
per line (tools/data/fortune_bt.py's back-translations, DATA/bt/<pair>.tsv), all of them;
--extra-share S takes a random share S of them instead. A pair with a dev or test sentence of
the build on either side is left out, so the held-out sets stay held out.
--extra-plain FILE adds genuine pairs in the same format, all of them and never tagged
(tools/data/ding_extra.py: the dictionary entries the build left out).
--extra-tag TEXT --extra-tag-side en|de starts that side of every extra pair with TEXT
(tagged back-translation, Caswell et al. 2019: the synthetic source carries a mark, so the
model learns the genuine target without taking the noisy source for a normal input).
"""
import argparse
import collections
import json
import os
import random


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/edgemt-data", help="the full build (DATA/corpus)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--spm", required=True, help="the vocabulary directory to link as OUT/spm")
    ap.add_argument("--keep", default="help,man,ding-sent,doc",
                    help="sources kept whole (comma-separated): kinds (gettext, ding-sent) or whole "
                         "labels (gettext:freedroidrpg-data)")
    ap.add_argument("--rest", type=float, default=0.3, help="share of every other source's pairs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--extra", action="append", default=[],
                    help="more pairs, source<TAB>English<TAB>German per line (repeatable)")
    ap.add_argument("--extra-share", type=float, default=1.0, help="share of the --extra pairs taken")
    ap.add_argument("--extra-tag", default="", help="text put before one side of every --extra pair")
    ap.add_argument("--extra-tag-side", choices=("en", "de"), help="the side --extra-tag goes on")
    ap.add_argument("--extra-plain", action="append", default=[],
                    help="more genuine pairs, taken whole and never tagged, in --extra's format "
                         "(tools/data/ding_extra.py's DATA/extra/ding.tsv; repeatable)")
    args = ap.parse_args()
    if not 0.0 <= args.rest <= 1.0:
        ap.error("--rest is a share between 0 and 1")
    if not 0.0 <= args.extra_share <= 1.0:
        ap.error("--extra-share is a share between 0 and 1")
    if args.extra_tag and not args.extra_tag_side:
        ap.error("--extra-tag needs --extra-tag-side")
    keep = {k.strip() for k in args.keep.split(",") if k.strip()}

    src_dir = os.path.join(args.data, "corpus")
    out_dir = os.path.join(args.out, "corpus")
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(src_dir, "train.src")) as f:
        tags = [l.rstrip("\n") for l in f]
    with open(os.path.join(src_dir, "train.en")) as f:
        en = [l.rstrip("\n") for l in f]
    with open(os.path.join(src_dir, "train.de")) as f:
        de = [l.rstrip("\n") for l in f]
    if not (len(tags) == len(en) == len(de)):
        raise SystemExit(f"train.src/en/de differ in length: {len(tags)} {len(en)} {len(de)}")
    kinds = [t.split(":")[0].strip() for t in tags]
    labels = [t.strip() for t in tags]
    unknown = keep - set(kinds) - set(labels)
    if unknown:
        raise SystemExit(f"--keep names sources the corpus does not have: {sorted(unknown)}")

    rng = random.Random(args.seed)
    chosen = [i for i, k in enumerate(kinds) if k in keep or labels[i] in keep or rng.random() < args.rest]
    held = set()
    for split in ("dev", "test"):
        for lang in ("en", "de"):
            with open(os.path.join(src_dir, f"{split}.{lang}")) as f:
                held.update(l.strip() for l in f)
    def add_extra(path, share, tag):
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                fields = line.rstrip("\n").split("\t")
                if len(fields) != 3 or not all(x.strip() for x in fields):
                    raise SystemExit(f"{path}:{n}: not source<TAB>English<TAB>German")
                if fields[1].strip() in held or fields[2].strip() in held or rng.random() >= share:
                    continue
                if tag:
                    i = 1 if args.extra_tag_side == "en" else 2
                    fields[i] = f"{tag} {fields[i]}"
                tags.append(fields[0])
                en.append(fields[1])
                de.append(fields[2])
                kinds.append(fields[0].split(":")[0].strip())
                chosen.append(len(tags) - 1)

    for path in args.extra:
        add_extra(path, args.extra_share, args.extra_tag)
    for path in args.extra_plain:
        add_extra(path, 1.0, "")
    rng.shuffle(chosen)
    for name, lines in (("src", tags), ("en", en), ("de", de)):
        tmp = os.path.join(out_dir, f"train.{name}.tmp")
        with open(tmp, "w") as f:
            f.writelines(lines[i] + "\n" for i in chosen)
        os.replace(tmp, os.path.join(out_dir, f"train.{name}"))
    for split in ("dev", "test"):
        for ext in ("en", "de", "src"):
            link = os.path.join(out_dir, f"{split}.{ext}")
            if os.path.lexists(link):
                os.remove(link)
            os.symlink(os.path.abspath(os.path.join(src_dir, f"{split}.{ext}")), link)
    spm_link = os.path.join(args.out, "spm")
    if os.path.lexists(spm_link):
        os.remove(spm_link)
    os.symlink(os.path.abspath(args.spm), spm_link)

    full = collections.Counter(kinds)
    mixed = collections.Counter(kinds[i] for i in chosen)
    comp = {k: {"pairs": mixed[k], "of": full[k], "share": round(mixed[k] / len(chosen), 4)}
            for k, _ in full.most_common()}
    with open(os.path.join(out_dir, "mix.json"), "w") as f:
        json.dump({"pairs": len(chosen), "keep": sorted(keep), "rest": args.rest, "seed": args.seed,
                   "extra_plain": [os.path.abspath(p) for p in args.extra_plain], "sources": comp}, f, indent=1)
    print(f"{len(chosen)} pairs of {len(kinds)}")
    for k, v in comp.items():
        print(f"  {k:12s} {v['pairs']:7d} of {v['of']:7d}  ({100 * v['share']:.1f}% of the mix)")


if __name__ == "__main__":
    main()
