#!/usr/bin/env python3
"""Noisy-channel reranking of the bundled model's n-best with the reverse bundled model,
measured with sacrebleu: does log P(source | hypothesis) pick better translations?

For each source x, `translate --output jsonl --n-best N` gives up to N hypotheses h
(beam N); `translate --score` gives log P(h | x) with the forward model and log P(x | h)
with the reverse one (tab-separated pairs; forced decoding). Each hypothesis is ranked by

    log P(h | x) / |h| + lambda * log P(x | h) / |x|        (|.|: scored tokens)

lambda = 0 is the forward model alone (length-normalised). lambda is chosen on the dev
part of the split and reported on the test part (and on both), so the numbers are not
tuned on what they report.

  python3 tools/train/rerank_eval.py --split general          # en->de, bundled models
  python3 tools/train/rerank_eval.py --split test --limit 1500 --src-lang de --tgt-lang en

Needs the corpus (tools/data/build_corpus.py) and a release build (translate).
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from evaluate import general_split, read_lines  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(cmd, lines):
    p = subprocess.run(cmd, input="".join(l + "\n" for l in lines), capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr[-2000:]}")
    out = p.stdout.split("\n")
    return out[:len(lines)]


def clean(s):
    return s.replace("\t", " ").replace("\n", " ")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/edgemt-data")
    ap.add_argument("--split", default="general", choices=["general", "test", "dev"])
    ap.add_argument("--src-lang", default="en")
    ap.add_argument("--tgt-lang", default="de")
    ap.add_argument("--nbest", type=int, default=8)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--translate", default=os.path.join(ROOT, "build/release/runtime/translate"))
    ap.add_argument("--lambdas", default="0,0.25,0.5,0.75,1,1.5,2")
    args = ap.parse_args()
    import sacrebleu

    corpus = os.path.join(args.data, "corpus")
    parts = []  # (name, src, ref)
    if args.split == "general":
        src, ref, _ = general_split(corpus, args.src_lang, args.tgt_lang)
        n_dev = 0
        for split in ("dev",):
            s = read_lines(os.path.join(corpus, f"{split}.{args.src_lang}"))
            t = read_lines(os.path.join(corpus, f"{split}.src"))
            n_dev = sum(1 for c in t if c == "ding-sent" or c.startswith("doc:"))
        parts = [("dev", src[:n_dev], ref[:n_dev]), ("test", src[n_dev:], ref[n_dev:])]
    else:
        src = read_lines(os.path.join(corpus, f"{args.split}.{args.src_lang}"), args.limit)
        ref = read_lines(os.path.join(corpus, f"{args.split}.{args.tgt_lang}"), args.limit)
        half = len(src) // 2
        parts = [("dev", src[:half], ref[:half]), ("test", src[half:], ref[half:])]
    if args.limit:
        parts = [(n, s[:args.limit], r[:args.limit]) for n, s, r in parts]

    fwd = [args.translate, "--from", args.src_lang, "--to", args.tgt_lang]
    rev = [args.translate, "--from", args.tgt_lang, "--to", args.src_lang]
    lambdas = [float(x) for x in args.lambdas.split(",")]
    scored = {}
    for name, src, ref in parts:
        src = [clean(s) for s in src]
        rows = run(fwd + ["--output", "jsonl", "--n-best", str(args.nbest), "--no-split"], src)
        hyps = []
        for line in rows:
            j = json.loads(line)
            hyps.append([h["translation"] for h in j.get("n_best", [{"translation": j["translation"]}])])
        pairs_f, pairs_r, owner = [], [], []
        for i, hs in enumerate(hyps):
            for h in hs:
                pairs_f.append(f"{src[i]}\t{clean(h)}")
                pairs_r.append(f"{clean(h)}\t{src[i]}")
                owner.append(i)
        lp_f = run(fwd + ["--score", "--output", "jsonl"], pairs_f)
        lp_r = run(rev + ["--score", "--output", "jsonl"], pairs_r)
        feats = [[] for _ in src]
        k = 0
        for i, hs in enumerate(hyps):
            for h in hs:
                f, r = json.loads(lp_f[k]), json.loads(lp_r[k])
                feats[i].append((h, f["log_prob"] / len(f["log_probs"]), r["log_prob"] / len(r["log_probs"])))
                k += 1
        scored[name] = (feats, ref, [h[0] for h in hyps])
    results = {}
    for lam in lambdas:
        for name, (feats, ref, beam) in scored.items():
            pick = [max(f, key=lambda x: x[1] + lam * x[2])[0] if f else "" for f in feats]
            results.setdefault(lam, {})[name] = (sacrebleu.corpus_bleu(pick, [ref]).score,
                                                 sacrebleu.corpus_chrf(pick, [ref]).score)
    out = {"split": args.split, "pair": f"{args.src_lang}-{args.tgt_lang}", "nbest": args.nbest,
           "sizes": {n: len(s[1]) for n, s in scored.items()}}
    for name, (feats, ref, beam) in scored.items():
        out[f"beam{args.nbest}_{name}"] = (round(sacrebleu.corpus_bleu(beam, [ref]).score, 2),
                                           round(sacrebleu.corpus_chrf(beam, [ref]).score, 2))
    best = max(lambdas, key=lambda l: results[l]["dev"][0])
    out["lambda_by_dev"] = best
    out["by_lambda"] = {str(l): {n: [round(v, 2) for v in r[n]] for n in r} for l, r in results.items()}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
