#!/usr/bin/env python3
"""Marian binary (.bin) test models from the committed .npz ones, with references from
Marian itself (pymarian 1.12), for edgemt's .bin reader.

    /tmp/venv-marian/bin/python tools/marian/make_marian_bins.py [--data tests/data/marian]

Writes, beside the models make_marian_models.py trained:
  mar6_ssru_intgemm8_bin   mar4's weights in Marian's binary format with every matrix and
                           Wemb as intgemm8 (int8 of the transpose, Wemb untransposed, one
                           multiplier 127 / max|W| per matrix, as marian-conv --gemm-type
                           intgemm8 writes them: what Firefox Translations ships), plus
                           *_QuantMultA activation multipliers as in intgemm.alphas files.
                           pymarian's Marian cannot run intgemm8 graphs (its CPU build has
                           no intgemm), so the reference is Marian decoding the same int8
                           weights dequantized (q * (1 / multiplier), as Marian's loader
                           does for Wemb) as a float32 .npz: it checks edgemt's reading
                           of the format; Marian's int8 arithmetic is not compared.
  mar7_split_ssru_f32_bin  mar5 in Marian's binary format, float32; reference: Marian
                           decoding that .bin file itself (Marian reads the file we write).
The binary format is common/binary.cpp's (version 1, 256-byte aligned data).
"""
import argparse
import json
import os
import shutil
import struct
import sys
import tempfile

import numpy as np
import sentencepiece as spm
from pymarian import Translator

FLOAT32, INT8, INTGEMM8 = 0x0404, 0x0101, 0x4101


def write_bin(path, items):
    out = bytearray(struct.pack("<QQ", 1, len(items)))
    padded = []
    for name, typ, shape, data in items:
        data = data + b"\0" * ((-len(data)) % 256)
        padded.append(data)
        out += struct.pack("<QQQQ", len(name) + 1, typ, len(shape), len(data))
    for name, *_ in items:
        out += name.encode() + b"\0"
    for _, _, shape, _ in items:
        out += struct.pack(f"<{len(shape)}i", *shape)
    pos = len(out)
    offset = ((pos + 8) // 256 + 1) * 256 - pos - 8
    out += struct.pack("<Q", offset) + b"\0" * offset
    for p in padded:
        out += p
    with open(path, "wb") as f:
        f.write(out)


def quantized_name(k):
    return k == "Wemb" or k.endswith("_Wt") or k.rsplit("_", 1)[-1] in ("W", "Wq", "Wk", "Wv", "Wo", "W1", "W2", "Wf")


def to_bin(npz, path, int8):
    """Returns the weights as Marian sees them after loading (dequantized when int8)."""
    z = np.load(npz)
    items, seen = [], {}
    rng = np.random.default_rng(5)
    for k in z.files:
        a = z[k]
        if k == "special:model.yml":
            items.append((k, INT8, list(a.shape), a.astype(np.int8).tobytes()))
            continue
        if int8 and a.ndim == 2 and quantized_name(k):
            m = np.float32(127.0) / np.float32(np.abs(a).max())
            q = np.clip(np.rint(a * m), -127, 127).astype(np.int8)
            items.append((k, INTGEMM8, list(a.shape), (q if k == "Wemb" else q.T.copy()).tobytes() + struct.pack("<f", m)))
            seen[k] = (q.astype(np.float32) * (np.float32(1.0) / m)).astype(np.float32)
            if k != "Wemb":  # an activation multiplier, as in intgemm.alphas files (edgemt ignores them)
                items.append((k + "_QuantMultA", FLOAT32, [1], struct.pack("<f", float(rng.uniform(5, 50)))))
        else:
            items.append((k, FLOAT32, list(a.shape), a.astype(np.float32).tobytes()))
            seen[k] = a
    write_bin(path, items)
    seen["special:model.yml"] = z["special:model.yml"]
    return seen


def references(model, vocabs, test, max_new):
    sps, spt = (spm.SentencePieceProcessor(model_file=v) for v in vocabs)
    base = (f"-m {model} -v {vocabs[0]} {vocabs[1]} --cpu-threads 1 --normalize 0 --word-penalty 0 "
            f"--max-length-factor 100 --max-length {max_new} --mini-batch 1 --quiet")
    raw = Translator(base + " --beam-size 1 --no-spm-decode --n-best").translate(test)
    text = Translator(base + " --beam-size 1").translate(test)
    beam = Translator(base + " --beam-size 4 --no-spm-decode --n-best").translate(test)
    greedy, score = [], []
    for line in raw:
        _, hyp, _, s = line.split(" ||| ")
        greedy.append([spt.piece_to_id(p) for p in hyp.split()])
        score.append(float(s))
    nbest = [[] for _ in test]
    for line in beam:
        i, hyp, _, s = line.split(" ||| ")
        nbest[int(i)].append({"ids": [spt.piece_to_id(p) for p in hyp.split()], "score": float(s)})
    keep = [i for i, g in enumerate(greedy) if len(g) + 1 < max_new]
    return {"sentences": [test[i] for i in keep], "src_ids": [sps.encode(test[i]) + [0] for i in keep],
            "greedy": [greedy[i] for i in keep], "greedy_text": [text[i] for i in keep],
            "greedy_score": [score[i] for i in keep], "beam4_nbest": [nbest[i] for i in keep],
            "greedy_hit_limit": [test[i] for i in range(len(test)) if i not in keep]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="tests/data/marian")
    args = ap.parse_args()
    jobs = [("mar4_joint_ssru_tiedall_relu_d32", "mar6_ssru_intgemm8_bin", True),
            ("mar5_split_ssru_tied_swish_d40", "mar7_split_ssru_f32_bin", False)]
    for src_name, name, int8 in jobs:
        src = os.path.join(args.data, src_name)
        ref0 = json.load(open(os.path.join(src, "reference.json")))
        out = os.path.join(args.data, name)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        vocabs = [f for f in sorted(os.listdir(src)) if f.endswith(".spm")]
        for v in vocabs:
            shutil.copy(os.path.join(src, v), out)
        vpaths = [os.path.join(out, v) for v in (vocabs if len(vocabs) == 2 else vocabs * 2)]
        if len(vocabs) == 2:  # srcvocab before trgvocab
            vpaths = [os.path.join(out, v) for v in sorted(vocabs, key=lambda f: not f.startswith("src"))]
        binname = "model.intgemm8.bin" if int8 else "model.bin"
        seen = to_bin(os.path.join(src, "model.npz"), os.path.join(out, binname), int8)
        test = ref0["sentences"]
        if int8:
            with tempfile.TemporaryDirectory() as tmp:
                deq = os.path.join(tmp, "dequantized.npz")
                np.savez(deq, **seen)
                ref = references(deq, vpaths, test, ref0["max_new_tokens"])
            ref["reference_model"] = "Marian float32 on the dequantized intgemm8 weights"
        else:
            ref = references(os.path.join(out, binname), vpaths, test, ref0["max_new_tokens"])
            ref["reference_model"] = "Marian decoding " + binname
        with open(os.path.join(out, "decoder.yml"), "w") as f:
            f.write(f"models:\n  - {binname}\nvocabs:\n" + "".join(f"  - {os.path.basename(v)}\n" for v in vpaths))
        ref.update({"generator": "tools/marian/make_marian_bins.py", "from": src_name,
                    "marian": "pymarian " + __import__("pymarian").__version__,
                    "max_new_tokens": ref0["max_new_tokens"]})
        with open(os.path.join(out, "reference.json"), "w") as f:
            json.dump(ref, f, ensure_ascii=False, indent=1)
        same = sum(a == b for a, b in zip(ref["greedy"], ref0["greedy"]))
        print(f"{name}: {len(ref['sentences'])} sentences; greedy equal to {src_name}'s float32: {same}")


if __name__ == "__main__":
    sys.exit(main())
