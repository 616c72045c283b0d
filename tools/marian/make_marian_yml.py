#!/usr/bin/env python3
"""Trains a tiny Marian transformer in OPUS-MT's layout with Marian itself (pymarian, CPU)
and writes the reference outputs of Marian's own decoder, for edgemt's Marian reader.

OPUS-MT's original releases (and its Tatoeba models) ship a Marian .yml vocabulary:
text is split into pieces by SentencePiece (source.spm, target.spm: one model per side)
outside Marian, and Marian's word vocabulary (opus.vocab.yml, "piece: id", one for both
sides) maps the pieces to ids. This script does the same: separate SentencePiece models,
pre-encoded training text, a joint .yml vocabulary that Marian builds itself, all
embeddings tied, as OPUS-MT's models.

    /tmp/venv-marian/bin/python tools/marian/make_marian_yml.py [--out tests/data/marian]

Writes <out>/mar10_opus_yml_vocab/: opus.npz, opus.vocab.yml, source.spm, target.spm,
decoder.yml (as OPUS-MT's) and reference.json with the keys of make_marian_models.py
(src_ids: the .yml ids of source.spm's pieces + </s>; greedy, greedy_text, greedy_score,
beam4_nbest).
"""
import json
import os
import shutil
import sys
import tempfile
import time

import sentencepiece as spm
from pymarian import Trainer, Translator

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_marian_models import data_arguments, split_data, train_spm, write_reference  # noqa: E402

NAME = "mar10_opus_yml_vocab"
OPTS = ("--dim-emb 32 --transformer-dim-ffn 64 --enc-depth 2 --dec-depth 2 --transformer-heads 4 "
        "--tied-embeddings-all --transformer-ffn-activation swish")


def read_yml_vocab(path):
    """Marian's .yml vocabulary as written by Marian (plain or double-quoted keys)."""
    vocab = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                continue
            key, _, value = line.rpartition(": ")
            if key.startswith('"'):
                key = json.loads(key)
            elif key.startswith("'"):
                key = key[1:-1].replace("''", "'")
            vocab[key] = int(value)
    return vocab


def main():
    args = data_arguments().parse_args()
    test, train = split_data(args)
    work = tempfile.mkdtemp(prefix="marian-yml-")
    raw = {"en": os.path.join(work, "raw.en"), "de": os.path.join(work, "raw.de")}
    with open(raw["en"], "w") as f:
        f.write("\n".join(e for e, _ in train) + "\n")
    with open(raw["de"], "w") as f:
        f.write("\n".join(d for _, d in train) + "\n")
    out = os.path.join(args.out, NAME)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    src_spm = train_spm([raw["en"]], os.path.join(out, "source"), 700, identity=False)
    trg_spm = train_spm([raw["de"]], os.path.join(out, "target"), 800, identity=False)
    sps = spm.SentencePieceProcessor(model_file=src_spm)
    spt = spm.SentencePieceProcessor(model_file=trg_spm)

    def pieces(sp, text):
        return " ".join(sp.encode(text, out_type=str))

    enc = {"en": os.path.join(work, "train.en"), "de": os.path.join(work, "train.de")}
    with open(enc["en"], "w") as f:
        f.write("\n".join(pieces(sps, e) for e, _ in train) + "\n")
    with open(enc["de"], "w") as f:
        f.write("\n".join(pieces(spt, d) for _, d in train) + "\n")
    vocab = os.path.join(out, "opus.vocab.yml")
    model = os.path.join(work, "opus.npz")
    t0 = time.time()
    Trainer(
        f"--type transformer --model {model} --train-sets {enc['en']} {enc['de']} --vocabs {vocab} {vocab} "
        f"{OPTS} --after-batches {args.updates} --mini-batch 64 --learn-rate 0.003 --lr-warmup 200 "
        f"--cpu-threads 2 --disp-freq 500 --seed 66 --workspace 512 --save-freq {args.updates} --overwrite "
        f"--valid-freq 100000 --transformer-dropout 0 --label-smoothing 0.1 --quiet").train()
    train_s = time.time() - t0
    shutil.copy(model, os.path.join(out, "opus.npz"))
    with open(os.path.join(out, "decoder.yml"), "w") as f:
        f.write("relative-paths: true\nmodels:\n  - opus.npz\nvocabs:\n  - opus.vocab.yml\n  - opus.vocab.yml\n"
                "beam-size: 4\nnormalize: 0\nword-penalty: 0\nmini-batch: 16\nmaxi-batch: 100\n"
                "maxi-batch-sort: src\n")
    ids = read_yml_vocab(vocab)
    eos, unk = ids["</s>"], ids["<unk>"]
    piece_of = {i: p for p, i in ids.items()}
    max_new = 64
    test_in = [pieces(sps, s) for s in test]
    base = (f"-m {os.path.join(out, 'opus.npz')} -v {vocab} {vocab} --cpu-threads 1 --normalize 0 "
            f"--word-penalty 0 --max-length-factor 100 --max-length {max_new} --mini-batch 1 --quiet")
    greedy_raw = Translator(base + " --beam-size 1 --n-best").translate(test_in)
    beam_raw = Translator(base + " --beam-size 4 --n-best").translate(test_in)
    assert len(greedy_raw) == len(test), "Marian dropped lines"

    ref = write_reference(out, "tools/marian/make_marian_yml.py", OPTS, args.updates, train_s, max_new, test,
                          [[ids.get(p, unk) for p in t.split()] + [eos] for t in test_in], greedy_raw,
                          lambda g: spt.decode_pieces([piece_of[i] for i in g]), beam_raw,
                          lambda hyp: [ids.get(p, unk) for p in hyp.split()])
    print(f"{NAME}: trained {train_s:.0f} s; vocabulary {len(ids)} pieces, </s> {eos}, <unk> {unk}, "
          f"{len(ref['sentences'])} sentences")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
