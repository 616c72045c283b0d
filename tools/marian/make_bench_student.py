#!/usr/bin/env python3
"""Marian models of Firefox Translations' student shapes, with random weights, for speed
and memory benchmarks against Marian (bench/compare/marian_compare.py).

    /tmp/venv-marian/bin/python tools/marian/make_bench_student.py --out /work/edgemt-data/marian-bench

Writes <out>/{tiny,base}/model.npz (+ special:model.yml), vocab.spm (a 32,000-piece
SentencePiece model trained on the ding dictionary, Marian's ids: </s> 0, <unk> 1) and
decoder.yml. Shapes (docs: ../shared/research/marian-bergamot-formats.md, section 1.1):
  tiny  dim-emb 256, 6 encoder layers, 2 SSRU decoder layers, FFN 1536, 8 heads, relu,
        tied-embeddings-all, vocabulary 32000 (16.9M parameters, as Firefox's tiny)
  base  dim-emb 512, 6 encoder layers, 2 SSRU decoder layers, FFN 2048, 8 heads
Weights are random (normal, scaled by fan-in); the output bias of </s> is -1e4, so no
engine ever ends a sentence early and every engine does the same work: exactly
--max-length tokens per sentence.
Also <out>/lex.50.50.s2t.bin: a lexical shortlist in Marian's binary format, as Firefox
ships (first 50, best 50): for each source id 50 target ids drawn from a Zipf
distribution over the vocabulary (real lexicons overlap in the frequent words; random
uniform lists would make every batch's union most of the vocabulary).
"""
import struct
import argparse
import os
import sys

import numpy as np
import sentencepiece as spm

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data"))
from ding import iter_ding  # noqa: E402

SHAPES = {
    "tiny": dict(d=256, ffn=1536, enc=6, dec=2, heads=8),
    "base": dict(d=512, ffn=2048, enc=6, dec=2, heads=8),
}

YML = """type: transformer
dim-emb: {d}
dim-vocabs:
  - {v}
  - {v}
enc-depth: {enc}
dec-depth: {dec}
dec-cell: ssru
layer-normalization: false
right-left: false
tied-embeddings: false
tied-embeddings-all: true
tied-embeddings-src: false
transformer-decoder-autoreg: rnn
transformer-dim-ffn: {ffn}
transformer-ffn-activation: relu
transformer-ffn-depth: 2
transformer-heads: {heads}
transformer-postprocess: dan
transformer-postprocess-emb: d
transformer-preprocess: ""
transformer-train-position-embeddings: false
transformer-tied-layers:
  []
output-omit-bias: false
version: edgemt tools/marian/make_bench_student.py (random weights)
"""


def make_model(path, shape, vocab, seed):
    rng = np.random.default_rng(seed)
    d, ffn = shape["d"], shape["ffn"]
    p = {}

    def w(name, fan_in, fan_out):
        p[name] = (rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in)).astype(np.float32)

    def b(name, n):
        p[name] = (0.02 * rng.standard_normal((1, n))).astype(np.float32)

    def ln(prefix):
        p[prefix + "_ln_scale"] = np.ones((1, d), np.float32)
        p[prefix + "_ln_bias"] = np.zeros((1, d), np.float32)

    def attention_ffn(layer, att):  # attention block <layer>_<att>_*, then the FFN block <layer>_ffn_*
        for x in "qkvo":
            w(f"{layer}_{att}_W{x}", d, d)
            b(f"{layer}_{att}_b{x}", d)
        ln(f"{layer}_{att}_Wo")
        w(f"{layer}_ffn_W1", d, ffn)
        b(f"{layer}_ffn_b1", ffn)
        w(f"{layer}_ffn_W2", ffn, d)
        b(f"{layer}_ffn_b2", d)
        ln(f"{layer}_ffn_ffn")

    p["Wemb"] = (rng.standard_normal((vocab, d)) / np.sqrt(d)).astype(np.float32)
    out_b = (0.02 * rng.standard_normal((1, vocab))).astype(np.float32)
    out_b[0, 0] = -1e4  # </s>: never chosen
    p["decoder_ff_logit_out_b"] = out_b
    for i in range(1, shape["enc"] + 1):
        attention_ffn(f"encoder_l{i}", "self")
    for i in range(1, shape["dec"] + 1):
        w(f"decoder_l{i}_rnn_W", d, d)
        w(f"decoder_l{i}_rnn_Wf", d, d)
        b(f"decoder_l{i}_rnn_bf", d)
        ln(f"decoder_l{i}_rnn_ffn")
        attention_ffn(f"decoder_l{i}", "context")
    yml = YML.format(v=vocab, **shape).encode() + b"\0"
    p["special:model.yml"] = np.frombuffer(yml, dtype=np.int8)
    np.savez(path, **p)
    return sum(v.size for k, v in p.items() if not k.startswith("special"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/work/edgemt-data/marian-bench")
    ap.add_argument("--ding", default="/usr/share/trans/de-en")
    ap.add_argument("--vocab-size", type=int, default=32000)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    spm_path = os.path.join(args.out, "vocab.spm")
    if not os.path.exists(spm_path):
        lines = set()
        for _, e, d in iter_ding(args.ding):
            lines.add(e)
            lines.add(d)
        text = os.path.join(args.out, "ding.txt")
        with open(text, "w") as f:
            f.write("\n".join(sorted(lines)) + "\n")
        spm.SentencePieceTrainer.train(
            input=text, model_prefix=os.path.join(args.out, "vocab"), vocab_size=args.vocab_size, bos_id=-1,
            eos_id=0, unk_id=1, pad_id=-1, model_type="unigram", character_coverage=1.0,
            input_sentence_size=2000000, shuffle_input_sentence=True, minloglevel=2)
        os.rename(os.path.join(args.out, "vocab.model"), spm_path)
        os.remove(os.path.join(args.out, "vocab.vocab"))
        os.remove(text)
    vocab = spm.SentencePieceProcessor(model_file=spm_path).get_piece_size()
    rng = np.random.default_rng(7)
    offsets, targets = [0], []
    for _ in range(vocab):
        ids = set()
        while len(ids) < 50:
            ids.add(int(min(rng.zipf(1.2), vocab - 1)) if rng.random() < 0.8 else int(rng.integers(50, vocab)))
        targets += sorted(ids)
        offsets.append(len(targets))
    with open(os.path.join(args.out, "lex.50.50.s2t.bin"), "wb") as f:
        f.write(struct.pack("<6Q", 0xF11A48D5013417F5, 0, 50, 50, len(offsets), len(targets)))
        f.write(struct.pack(f"<{len(offsets)}Q", *offsets))
        f.write(struct.pack(f"<{len(targets)}I", *targets))
    for i, (name, shape) in enumerate(SHAPES.items()):
        d = os.path.join(args.out, name)
        os.makedirs(d, exist_ok=True)
        n = make_model(os.path.join(d, "model.npz"), shape, vocab, seed=100 + i)
        if not os.path.exists(os.path.join(d, "vocab.spm")):
            os.symlink(os.path.abspath(spm_path), os.path.join(d, "vocab.spm"))
        with open(os.path.join(d, "decoder.yml"), "w") as f:
            f.write("models:\n  - model.npz\nvocabs:\n  - vocab.spm\n  - vocab.spm\n")
        print(f"{name}: {n / 1e6:.1f}M parameters -> {d}")


if __name__ == "__main__":
    main()
