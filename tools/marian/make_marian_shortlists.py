#!/usr/bin/env python3
"""Lexical shortlists for two committed Marian test models, with references from Marian
itself (pymarian 1.12) decoding with --shortlist, for edgemt's shortlist support.

    /tmp/venv-marian/bin/python tools/marian/make_marian_shortlists.py [--data tests/data/marian]

The shortlist (lex.s2t: lines "target source probability", P(target | source)) is
estimated from SentencePiece co-occurrence counts on the models' own training pairs
(make_marian_models.py's split of the ding sentences): c(s, t) / c(s) per sentence pair,
the 30 most likely targets per source. A tiny first/best (10 / 5 on 700-1000 piece
vocabularies) makes the shortlist change many outputs.
  mar8_shortlist_text  mar1 (joint vocabulary: Marian adds the source ids themselves)
                       with lex.s2t and a decoder.yml "shortlist: [lex.s2t, 10, 5, 0]"
  mar9_shortlist_bin   mar7 (separate vocabularies, SSRU, float32 .bin) laid out as
                       Firefox ships a model: model.bin, srcvocab/trgvocab, and the
                       binary shortlist lex.10.5.ende.s2t.bin (Marian's format:
                       shortlist.h; checksum 0: Marian reads it with check 0), no
                       decoder.yml. Marian's outputs with the binary file are checked
                       equal to its outputs with the text file it was made from.
"""
import argparse
import collections
import json
import os
import random
import shutil
import struct
import sys

import sentencepiece as spm
from pymarian import Translator

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data"))
from ding import iter_ding  # noqa: E402

FIRST, BEST = 10, 5
MAGIC = 0xF11A48D5013417F5


def train_pairs(ding, n_test=24, n_train=30000):
    pairs = sorted({(e, d) for k, e, d in iter_ding(ding) if k == "ding-sent"})
    random.Random(7).shuffle(pairs)
    return pairs[n_test: n_test + n_train]


def lexicon(pairs, sps, spt, top=30):
    cs, cst = collections.Counter(), collections.Counter()
    for e, d in pairs:
        s_set, t_set = set(sps.encode(e, out_type=str)), set(spt.encode(d, out_type=str))
        for s in s_set:
            cs[s] += 1
            for t in t_set:
                cst[(s, t)] += 1
    by_src = collections.defaultdict(list)
    for (s, t), c in cst.items():
        by_src[s].append((c / cs[s], t))
    lines = []
    for s in sorted(by_src):
        for p, t in sorted(by_src[s], key=lambda x: (-x[0], x[1]))[:top]:
            lines.append(f"{t} {s} {p:.6f}")
    return lines


def pruned(lines, sps, spt):
    """Marian's LexicalShortlistGenerator load + prune(threshold 0): per source id the
    BEST most likely target ids (ties: the larger id first, std::greater on pairs)."""
    data = collections.defaultdict(dict)
    for line in lines:
        t, s, p = line.split()
        data[sps.piece_to_id(s)][spt.piece_to_id(t)] = float(p)
    out = {}
    for s, probs in data.items():
        ranked = sorted(((p, t) for t, p in probs.items()), reverse=True)
        out[s] = sorted(t for p, t in ranked[:BEST] if p > 0)
    return out


def write_bin(path, lists, src_vocab):
    offsets, targets = [0], []
    for s in range(src_vocab):
        targets += lists.get(s, [])
        offsets.append(len(targets))
    with open(path, "wb") as f:
        f.write(struct.pack("<6Q", MAGIC, 0, FIRST, BEST, len(offsets), len(targets)))
        f.write(struct.pack(f"<{len(offsets)}Q", *offsets))
        f.write(struct.pack(f"<{len(targets)}I", *targets))


def decode(model, vocabs, shortlist, test, max_new):
    spt = spm.SentencePieceProcessor(model_file=vocabs[1])
    base = (f"-m {model} -v {vocabs[0]} {vocabs[1]} --cpu-threads 1 --normalize 0 --word-penalty 0 "
            f"--max-length-factor 100 --max-length {max_new} --mini-batch 1 --quiet --shortlist {shortlist}")
    raw = Translator(base + " --beam-size 1 --no-spm-decode --n-best").translate(test)
    text = Translator(base + " --beam-size 1").translate(test)
    beam = Translator(base + " --beam-size 4 --no-spm-decode --n-best").translate(test)
    greedy = [[spt.piece_to_id(p) for p in line.split(" ||| ")[1].split()] for line in raw]
    nbest = [[] for _ in test]
    for line in beam:
        i, hyp, _, s = line.split(" ||| ")
        nbest[int(i)].append({"ids": [spt.piece_to_id(p) for p in hyp.split()], "score": float(s)})
    return greedy, text, nbest


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="tests/data/marian")
    ap.add_argument("--ding", default="/usr/share/trans/de-en")
    args = ap.parse_args()
    pairs = train_pairs(args.ding)
    jobs = [("mar1_joint_tiedall_swish_d32", "mar8_shortlist_text", "text"),
            ("mar7_split_ssru_f32_bin", "mar9_shortlist_bin", "bin")]
    for src_name, name, kind in jobs:
        src = os.path.join(args.data, src_name)
        ref0 = json.load(open(os.path.join(src, "reference.json")))
        out = os.path.join(args.data, name)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        for f in os.listdir(src):
            if f.endswith(".spm") or f in ("model.npz", "model.bin"):
                shutil.copy(os.path.join(src, f), out)
        spms = sorted(f for f in os.listdir(out) if f.endswith(".spm"))
        if len(spms) == 1:
            vocabs = [os.path.join(out, spms[0])] * 2
        else:
            vocabs = [os.path.join(out, next(f for f in spms if f.startswith("src"))),
                      os.path.join(out, next(f for f in spms if f.startswith("trg")))]
        sps, spt = (spm.SentencePieceProcessor(model_file=v) for v in vocabs)
        model = os.path.join(out, "model.npz" if os.path.exists(os.path.join(out, "model.npz")) else "model.bin")
        lines = lexicon(pairs, sps, spt)
        lex = os.path.join(out, "lex.s2t")
        with open(lex, "w") as f:
            f.write("\n".join(lines) + "\n")
        test, max_new = ref0["sentences"], ref0["max_new_tokens"]
        greedy, text, nbest = decode(model, vocabs, f"{lex} {FIRST} {BEST} 0", test, max_new)
        if kind == "text":
            with open(os.path.join(out, "decoder.yml"), "w") as f:
                f.write(f"models:\n  - model.npz\nvocabs:\n  - {os.path.basename(vocabs[0])}\n  - "
                        f"{os.path.basename(vocabs[1])}\nshortlist:\n  - lex.s2t\n  - {FIRST}\n  - {BEST}\n  - 0\n")
        else:
            binpath = os.path.join(out, f"lex.{FIRST}.{BEST}.ende.s2t.bin")
            write_bin(binpath, pruned(lines, sps, spt), sps.get_piece_size())
            g2, t2, n2 = decode(model, vocabs, f"{binpath} 0", test, max_new)
            assert g2 == greedy and n2 == nbest, "Marian decodes the binary shortlist differently from the text one"
            os.remove(lex)
        keep = [i for i, g in enumerate(greedy) if len(g) + 1 < max_new]
        ref = {"generator": "tools/marian/make_marian_shortlists.py", "from": src_name,
               "marian": "pymarian " + __import__("pymarian").__version__, "shortlist": [FIRST, BEST, 0],
               "max_new_tokens": max_new,
               "sentences": [test[i] for i in keep], "src_ids": [ref0["src_ids"][i] for i in keep],
               "greedy": [greedy[i] for i in keep], "greedy_text": [text[i] for i in keep],
               "beam4_nbest": [nbest[i] for i in keep],
               "greedy_without_shortlist": [ref0["greedy"][i] for i in keep],
               "greedy_hit_limit": [test[i] for i in range(len(test)) if i not in keep]}
        changed = sum(a != b for a, b in zip(ref["greedy"], ref["greedy_without_shortlist"]))
        with open(os.path.join(out, "reference.json"), "w") as f:
            json.dump(ref, f, ensure_ascii=False, indent=1)
        print(f"{name}: {len(keep)} sentences, {changed} greedy outputs changed by the shortlist")


if __name__ == "__main__":
    main()
