#!/usr/bin/env python3
"""translate with and without --rerank (the runtime's noisy-channel reranking) on the
test split and the general, package-description and games' talk sets, side by side in
one run: BLEU / chrF (sacrebleu) and wall time per configuration. The README's
"Reranking" table comes from this script.

  python3 tools/train/rerank_compare.py --pair en-de
  python3 tools/train/rerank_compare.py --pair de-en --limit 800 \\
      --config "--beam 4" --config "--beam 4 --rerank" --config "--beam 4 --rerank-weight 0.5"

Each configuration is translate's options added to `--from S --to T --no-split
--no-protect --threads 2 --batch 16` (the bundled models). --limit N: a fixed random
sample of N sentences per set (seed 1); 0: all. Needs the corpus
(tools/data/build_corpus.py) and a release build.
"""
import argparse
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from evaluate import domain_split, read_lines  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/edgemt-data")
    ap.add_argument("--pair", default="en-de")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--config", action="append", default=None)
    ap.add_argument("--translate", default=os.path.join(ROOT, "build/release/runtime/translate"))
    ap.add_argument("--out", default=None, help="a folder for the hypotheses (default: not kept)")
    a = ap.parse_args()
    import sacrebleu
    configs = a.config or ["--beam 4", "--beam 4 --rerank"]
    s, t = a.pair.split("-")
    corpus = os.path.join(a.data, "corpus")
    sets = {"test": (read_lines(os.path.join(corpus, f"test.{s}")), read_lines(os.path.join(corpus, f"test.{t}")))}
    for name in ("general", "descriptions", "talk"):
        src, ref, _ = domain_split(corpus, s, t, name)
        sets[name] = (src, ref)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
    for name, (src, ref) in sets.items():
        if a.limit:
            idx = list(range(len(src)))
            random.Random(1).shuffle(idx)
            idx = sorted(idx[:a.limit])
            src, ref = [src[i] for i in idx], [ref[i] for i in idx]
        row = []
        for c in configs:
            cmd = [a.translate, "--from", s, "--to", t, "--no-split", "--no-protect", "--threads", "2",
                   "--batch", "16"] + c.split()
            t0 = time.time()
            p = subprocess.run(cmd, input="\n".join(src) + "\n", capture_output=True, text=True)
            dt = time.time() - t0
            if p.returncode != 0:
                sys.exit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr[-2000:]}")
            hyp = p.stdout.rstrip("\n").split("\n")
            if len(hyp) != len(src):
                sys.exit(f"{name}: {len(hyp)} translations for {len(src)} sentences")
            if a.out:
                with open(os.path.join(a.out, f"{name}.{c.replace(' ', '_')}.{t}"), "w") as f:
                    f.write(p.stdout)
            bleu = sacrebleu.corpus_bleu(hyp, [ref]).score
            chrf = sacrebleu.corpus_chrf(hyp, [ref]).score
            row.append(f"[{c}] {bleu:.2f} / {chrf:.1f}, {dt:.0f} s")
        print(f"{name} ({len(src)}): " + " | ".join(row), flush=True)


if __name__ == "__main__":
    main()
