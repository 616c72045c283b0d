#!/usr/bin/env python3
"""Score English->German translations of a corpus split with sacrebleu (BLEU, chrF).

Either translate with the transformers model (greedy and beam 4 by default), or
score existing hypotheses (one per line, aligned with SPLIT.en), e.g. those of
the C++ runtime:

  python3 tools/train/evaluate.py                         # model-hf, test split, greedy + beam 4
  python3 tools/train/evaluate.py --beams 1 --limit 500   # quicker
  python3 tools/train/evaluate.py --hyp out.de --name cpp-beam4

Results are merged into DATA/eval/results.json (keyed by split and system
name); hypotheses of the model are written to DATA/eval/SPLIT.NAME.de. Scores
are also broken down by corpus source (gettext / ding-*) using SPLIT.src.
"""
import argparse
import collections
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data"))
from find_packages import STORY_PACKAGES  # noqa: E402
from game_pairs import DIALOGUE  # noqa: E402

_STORY_TAGS = frozenset(["gettext:" + p for p in STORY_PACKAGES] + ["game:" + g for g in DIALOGUE])


def read_lines(path, limit=0):
    with open(path, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f]
    return lines[:limit] if limit else lines


def score(hyps, refs, srcs=None):
    import sacrebleu
    bleu, chrf = sacrebleu.BLEU(), sacrebleu.CHRF()
    res = {
        "n": len(hyps),
        "bleu": round(bleu.corpus_score(hyps, [refs]).score, 2),
        "chrf": round(chrf.corpus_score(hyps, [refs]).score, 2),
        "bleu_signature": str(bleu.get_signature()),
        "chrf_signature": str(chrf.get_signature()),
    }
    if srcs:
        groups = collections.defaultdict(list)
        for i, s in enumerate(srcs):
            groups[s.split(":", 1)[0]].append(i)
        res["by_source"] = {
            g: {"n": len(ix),
                "bleu": round(sacrebleu.corpus_bleu([hyps[i] for i in ix], [[refs[i] for i in ix]]).score, 2),
                "chrf": round(sacrebleu.corpus_chrf([hyps[i] for i in ix], [[refs[i] for i in ix]]).score, 2)}
            for g, ix in sorted(groups.items())
        }
    return res


def translate(model_dir, sents, num_beams, batch_size, threads, device="cpu"):
    import torch
    from transformers import MarianMTModel, MarianTokenizer
    torch.set_num_threads(threads)
    tok = MarianTokenizer.from_pretrained(model_dir)
    # float32 whatever the file stores (an export may keep float16 weights)
    model = MarianMTModel.from_pretrained(model_dir).float().to(device).eval()
    order = sorted(range(len(sents)), key=lambda i: len(sents[i]))
    out = [None] * len(sents)
    t0 = time.time()
    ntok = 0
    with torch.no_grad():
        for b in range(0, len(order), batch_size):
            ids = order[b:b + batch_size]
            batch = tok([sents[i] for i in ids], return_tensors="pt", padding=True, truncation=True,
                        max_length=256).to(device)
            y = model.generate(**batch, num_beams=num_beams, do_sample=False, max_length=256)
            ntok += int((y != tok.pad_token_id).sum())
            for j, t in zip(ids, tok.batch_decode(y, skip_special_tokens=True)):
                out[j] = t
    dt = time.time() - t0
    return out, {"seconds": round(dt, 1), "sents_per_s": round(len(sents) / dt, 2),
                 "out_tokens_per_s": round(ntok / dt, 1)}


SETS = {
    # everyday and prose sentences: ding's example sentences and the manuals (doc:*)
    "general": lambda tag: tag == "ding-sent" or tag.startswith("doc:"),
    # software descriptions: Debian's package descriptions (ddtp:*)
    "descriptions": lambda tag: tag.startswith("ddtp:"),
    # people's talk and things described: the catalogs of the games with dialogue and story
    # text (find_packages.STORY_PACKAGES: FreedroidRPG, Wesnoth, Widelands, Cataclysm; since
    # 2026-11-29 also Naev, Dink Smallwood, Fish Fillets, Hedgewars and Mission Supernova, so
    # scores on a corpus built before that day are not comparable)
    "talk": lambda tag: tag in _STORY_TAGS,
}


def domain_split(corpus, src_lang, tgt_lang, name="general"):
    """Dev and test pairs of one domain (SETS), none of them trained on."""
    keep = SETS[name]
    src, ref, tags = [], [], []
    for split in ("dev", "test"):
        s = read_lines(os.path.join(corpus, f"{split}.{src_lang}"))
        r = read_lines(os.path.join(corpus, f"{split}.{tgt_lang}"))
        t = read_lines(os.path.join(corpus, f"{split}.src"))
        for a, b, c in zip(s, r, t):
            if keep(c):
                src.append(a)
                ref.append(b)
                tags.append(c)
    return src, ref, tags


def general_split(corpus, src_lang, tgt_lang):
    """Dev and test pairs from general-domain sources: ding's example sentences and the
    manuals' prose (doc:*), not software messages or dictionary entries."""
    return domain_split(corpus, src_lang, tgt_lang, "general")

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/edgemt-data")
    ap.add_argument("--model", default=None, help="HF model dir (default DATA/model-hf)")
    ap.add_argument("--split", default="test", choices=["test", "dev"] + sorted(SETS),
                    help="general: the everyday and prose sentences of dev and test (ding example "
                         "sentences, manuals); descriptions: the package descriptions of dev and "
                         "test (DDTP); talk: the story games' messages of dev and test (dialogue, "
                         "things described); none of them trained on")
    ap.add_argument("--hyp", default=None, help="score this hypothesis file instead of running the model")
    ap.add_argument("--name", default=None, help="system name in results.json (default: file name or greedy/beam4)")
    ap.add_argument("--beams", default="1,4", help="comma-separated beam sizes to run (1 = greedy)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N sentences (0 = all)")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default=None, help="default DATA/eval")
    ap.add_argument("--src-lang", default="en")
    ap.add_argument("--tgt-lang", default="de")
    ap.add_argument("--device", default="cpu", help="cpu or cuda (float32 either way)")
    args = ap.parse_args()
    model_dir = args.model or os.path.join(args.data, "model-hf")
    outdir = args.out or os.path.join(args.data, "eval")
    os.makedirs(outdir, exist_ok=True)
    corpus = os.path.join(args.data, "corpus")
    if args.split in SETS:
        src, ref, tags = domain_split(corpus, args.src_lang, args.tgt_lang, args.split)
        src, ref, tags = (x[:args.limit] if args.limit else x for x in (src, ref, tags))
    else:
        src = read_lines(os.path.join(corpus, f"{args.split}.{args.src_lang}"), args.limit)
        ref = read_lines(os.path.join(corpus, f"{args.split}.{args.tgt_lang}"), args.limit)
        src_path = os.path.join(corpus, f"{args.split}.src")
        tags = read_lines(src_path, args.limit) if os.path.exists(src_path) else None

    results_path = os.path.join(outdir, "results.json")
    results = {}
    if os.path.exists(results_path):
        with open(results_path) as f:
            results = json.load(f)
    results.setdefault(args.split, {})

    runs = {}
    if args.hyp:
        hyps = read_lines(args.hyp)
        if args.limit:
            hyps = hyps[:args.limit]
        if len(hyps) != len(ref):
            sys.exit(f"{args.hyp}: {len(hyps)} lines, expected {len(ref)}")
        name = args.name or os.path.basename(args.hyp)
        runs[name] = (hyps, {"hyp_file": os.path.abspath(args.hyp)})
    else:
        for nb in [int(b) for b in args.beams.split(",") if b.strip()]:
            name = args.name or ("greedy" if nb == 1 else f"beam{nb}")
            if len(args.beams.split(",")) > 1 and args.name:
                name = f"{args.name}-beam{nb}"
            hyps, speed = translate(model_dir, src, nb, args.batch_size, args.threads, args.device)
            hyp_path = os.path.join(outdir, f"{args.split}.{name}.{args.tgt_lang}")
            with open(hyp_path, "w", encoding="utf-8") as f:
                f.write("\n".join(hyps) + "\n")
            runs[name] = (hyps, {"model": os.path.abspath(model_dir), "num_beams": nb, "hyp_file": hyp_path, **speed})
    for name, (hyps, meta) in runs.items():
        r = score(hyps, ref, tags)
        r.update(meta)
        if args.limit:
            r["limit"] = args.limit
        results[args.split][name] = r
        extra = f" ({meta['sents_per_s']} sent/s)" if "sents_per_s" in meta else ""
        print(f"{args.split} {name}: BLEU {r['bleu']:.2f} chrF {r['chrf']:.2f} n={r['n']}{extra}")
        for g, v in r.get("by_source", {}).items():
            print(f"    {g:12s} n={v['n']:5d} BLEU {v['bleu']:6.2f} chrF {v['chrf']:6.2f}")
    with open(results_path, "w") as f:
        json.dump(results, f, indent=1)
    print(f"results -> {results_path}")


if __name__ == "__main__":
    main()
