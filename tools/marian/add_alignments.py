#!/usr/bin/env python3
"""Adds Marian's own word alignments to the committed Marian parity models' reference.json.

For each model trained by make_marian_models.py (a model.npz with its decoder.yml), Marian decodes the
reference sentences greedily with `--alignment soft` and the key "greedy_soft_alignment" gets, per
sentence, per target token (its final eos included) the attention weights over the source tokens (eos
included) that Marian reports, as Marian prints them (target tokens separated by spaces, the
weights of one by commas): the first head of the guided-alignment layer
(transformer-guided-alignment-layer). edgemt's Marian reader takes the same layer and head, and
tests/parity/marian_test.cc checks that its aligned source token is where these weights peak (the
source's eos aside). The greedy ids must still be the reference's; nothing else changes.

    /tmp/venv-marian/bin/python tools/marian/add_alignments.py --out tests/data/marian
"""
from __future__ import annotations

import argparse
import json
import os

from pymarian import Translator

MODELS = ["mar1_joint_tiedall_swish_d32", "mar2_split_tied_relu_d48", "mar3_joint_untied_nobias_d40",
          "mar4_joint_ssru_tiedall_relu_d32", "mar5_split_ssru_tied_swish_d40"]


def vocabs_of(path):
    """The vocabulary files decoder.yml names, in order."""
    out, inside = [], False
    with open(os.path.join(path, "decoder.yml"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("vocabs:"):
                inside = True
            elif inside and line.startswith("  - "):
                out.append(os.path.join(path, line[4:].strip()))
            else:
                inside = False
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="tests/data/marian")
    args = ap.parse_args()
    import sentencepiece as spm

    for name in MODELS:
        path = os.path.join(args.out, name)
        ref_path = os.path.join(path, "reference.json")
        with open(ref_path, encoding="utf-8") as f:
            ref = json.load(f)
        vocabs = vocabs_of(path)
        spt = spm.SentencePieceProcessor(model_file=vocabs[1])
        base = (f"-m {os.path.join(path, 'model.npz')} -v {vocabs[0]} {vocabs[1]} --cpu-threads 1 --normalize 0 "
                f"--word-penalty 0 --max-length-factor 100 --max-length {ref['max_new_tokens']} --mini-batch 1 "
                "--quiet --beam-size 1 --no-spm-decode --n-best --alignment soft")
        raw = Translator(base).translate(ref["sentences"])
        soft = []
        for i, line in enumerate(raw):
            _, hyp, align, _, _ = line.split(" ||| ")
            ids = [spt.piece_to_id(p) for p in hyp.split()] if hyp.strip() else []
            assert ids == ref["greedy"][i], f"{name} sentence {i}: Marian's greedy output changed"
            rows = [[float(x) for x in t.split(",")] for t in align.split()]
            assert len(rows) == len(ids) + 1, (name, i, len(rows), len(ids))
            assert all(len(r) == len(ref["src_ids"][i]) for r in rows), (name, i)
            soft.append(align)  # as Marian prints it: target tokens by spaces, source weights by commas
        ref["greedy_soft_alignment"] = soft
        with open(ref_path, "w") as f:
            json.dump(ref, f, ensure_ascii=False, indent=1)
        print(f"{name}: greedy_soft_alignment for {len(soft)} sentences")


if __name__ == "__main__":
    main()
