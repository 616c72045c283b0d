#!/usr/bin/env python3
"""Trains tiny Marian transformers with Marian itself (pymarian, CPU) and writes the
reference outputs of Marian's own decoder, for edgemt's Marian reader parity tests.

    python3 -m venv /tmp/venv-marian && /tmp/venv-marian/bin/pip install pymarian sentencepiece
    apt-get install trans-de-en            # the ding dictionary's example sentences
    /tmp/venv-marian/bin/python tools/marian/make_marian_models.py [--out tests/data/marian]

Each model directory holds what Marian ships: model.npz (with special:model.yml),
vocab.spm (joint) or srcvocab.en.spm + trgvocab.de.spm, decoder.yml, and
reference.json:
  sentences      source text (ding example sentences not used in training, and a few
                 made-up ones)
  src_ids        SentencePiece ids + </s> (Marian's encoding)
  greedy         Marian's beam-1 output ids (--no-spm-decode pieces mapped to ids),
                 without the final </s>; greedy_text its detokenized output,
                 greedy_score Marian's score (sum of log-probabilities, --normalize 0)
  beam4_nbest    Marian's beam-4 n-best (ids, score), best first (for a Marian-style
                 beam search; edgemt's beam search follows transformers')
  greedy_hit_limit  sentences whose greedy output reached max_new_tokens (none are kept)
Training takes about a minute per model on 2 cores.
"""
import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time

import sentencepiece as spm
from pymarian import Trainer, Translator

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data"))
from ding import iter_ding  # noqa: E402

MODELS = [
    # name, vocab kind, marian options
    dict(name="mar1_joint_tiedall_swish_d32", vocab="joint", vocab_size=1000, seed=11,
         opts="--dim-emb 32 --transformer-dim-ffn 64 --enc-depth 2 --dec-depth 2 --transformer-heads 4 "
              "--tied-embeddings-all --transformer-ffn-activation swish"),
    dict(name="mar2_split_tied_relu_d48", vocab="split", vocab_size=(700, 900), seed=22,
         opts="--dim-emb 48 --transformer-dim-ffn 96 --enc-depth 3 --dec-depth 1 --transformer-heads 4 "
              "--tied-embeddings --transformer-ffn-activation relu"),
    dict(name="mar3_joint_untied_nobias_d40", vocab="joint", vocab_size=800, seed=33,
         opts="--dim-emb 40 --transformer-dim-ffn 80 --transformer-decoder-dim-ffn 56 --enc-depth 1 "
              "--dec-depth 2 --transformer-heads 5 --output-omit-bias --transformer-ffn-activation swish"),
    # Firefox Translations' student shape in miniature: SSRU decoder layers (no decoder
    # self-attention), relu, all embeddings tied.
    dict(name="mar4_joint_ssru_tiedall_relu_d32", vocab="joint", vocab_size=1000, seed=44,
         opts="--dim-emb 32 --transformer-dim-ffn 96 --enc-depth 3 --dec-depth 2 --transformer-heads 4 "
              "--tied-embeddings-all --transformer-ffn-activation relu --transformer-decoder-autoreg rnn "
              "--dec-cell ssru"),
    dict(name="mar5_split_ssru_tied_swish_d40", vocab="split", vocab_size=(800, 700), seed=55,
         opts="--dim-emb 40 --transformer-dim-ffn 64 --enc-depth 2 --dec-depth 1 --transformer-heads 4 "
              "--tied-embeddings --transformer-ffn-activation swish --transformer-decoder-autoreg rnn "
              "--dec-cell ssru"),
]

EXTRA = [
    "The file could not be opened.",
    "Please enter your password again!",
    "Is this the way to the station?",
    "We have been waiting for more than two hours, and nobody has told us why the train is late.",
    "ÄÖÜ äöü ß – «quotes» and 42 numbers: 3.14, 1,000.",
]


def train_spm(text_files, prefix, size, identity):
    spm.SentencePieceTrainer.train(
        input=",".join(text_files), model_prefix=prefix, vocab_size=size, bos_id=-1, eos_id=0, unk_id=1,
        pad_id=-1, model_type="unigram", character_coverage=1.0, seed_sentencepiece_size=100000,
        normalization_rule_name="identity" if identity else "nmt_nfkc", minloglevel=2)
    os.remove(prefix + ".vocab")
    os.rename(prefix + ".model", prefix + ".spm")
    return prefix + ".spm"


def marian_ids(line, sp):
    """--no-spm-decode output: pieces separated by spaces -> ids."""
    return [sp.piece_to_id(p) for p in line.split()] if line.strip() else []


def write_reference(out, generator, opts, updates, train_s, max_new, test, src_ids, greedy_raw, greedy_text,
                    beam_raw, ids_of):
    """reference.json from Marian's greedy and beam-4 --n-best outputs (ids_of: a
    hypothesis' pieces -> ids; greedy_text: Marian's text outputs, or a function of the
    greedy ids); sentences whose greedy output reached max_new are dropped."""
    greedy, greedy_score = [], []
    for line in greedy_raw:
        _, hyp, _, score = line.split(" ||| ")
        greedy.append(ids_of(hyp))
        greedy_score.append(float(score))
    nbest = [[] for _ in test]
    for line in beam_raw:
        i, hyp, _, score = line.split(" ||| ")
        nbest[int(i)].append({"ids": ids_of(hyp), "score": float(score)})
    if callable(greedy_text):
        greedy_text = [greedy_text(g) for g in greedy]
    hit = [i for i, g in enumerate(greedy) if len(g) + 1 >= max_new]
    keep = [i for i in range(len(test)) if i not in hit]
    ref = {
        "generator": generator,
        "marian": "pymarian " + __import__("pymarian").__version__,
        "marian_options": opts,
        "train_updates": updates,
        "train_seconds": round(train_s, 1),
        "max_new_tokens": max_new,
        "sentences": [test[i] for i in keep],
        "src_ids": [src_ids[i] for i in keep],
        "greedy": [greedy[i] for i in keep],
        "greedy_text": [greedy_text[i] for i in keep],
        "greedy_score": [greedy_score[i] for i in keep],
        "beam4_nbest": [nbest[i] for i in keep],
        "greedy_hit_limit": [test[i] for i in hit],
    }
    with open(os.path.join(out, "reference.json"), "w") as f:
        json.dump(ref, f, ensure_ascii=False, indent=1)
    print(f"{out}: {len(keep)} sentences, {len(hit)} dropped (limit)")
    for s, t in list(zip(ref["sentences"], ref["greedy_text"]))[:4]:
        print("   ", s, "->", t)
    return ref


def data_arguments():
    """The options every model script here takes."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="tests/data/marian")
    ap.add_argument("--ding", default="/usr/share/trans/de-en")
    ap.add_argument("--updates", type=int, default=1500)
    ap.add_argument("--train-sentences", type=int, default=30000)
    ap.add_argument("--test-sentences", type=int, default=24)
    return ap


def split_data(args):
    """(test sentences, training pairs): ding example sentences, shuffled with a fixed seed."""
    pairs = sorted({(e, d) for k, e, d in iter_ding(args.ding) if k == "ding-sent"})
    random.Random(7).shuffle(pairs)
    test = [e for e, _ in pairs[: args.test_sentences]] + EXTRA
    return test, pairs[args.test_sentences: args.test_sentences + args.train_sentences]


def main():
    ap = data_arguments()
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    test, train = split_data(args)
    work = tempfile.mkdtemp(prefix="marian-train-")
    src_txt, trg_txt = os.path.join(work, "train.en"), os.path.join(work, "train.de")
    with open(src_txt, "w") as f:
        f.write("\n".join(e for e, _ in train) + "\n")
    with open(trg_txt, "w") as f:
        f.write("\n".join(d for _, d in train) + "\n")
    max_new = 64
    for m in MODELS:
        if args.only and m["name"] != args.only:
            continue
        out = os.path.join(args.out, m["name"])
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        if m["vocab"] == "joint":
            v = train_spm([src_txt, trg_txt], os.path.join(out, "vocab"), m["vocab_size"], identity=False)
            vocabs = [v, v]
        else:
            vs = train_spm([src_txt], os.path.join(out, "srcvocab.en"), m["vocab_size"][0], identity=True)
            vt = train_spm([trg_txt], os.path.join(out, "trgvocab.de"), m["vocab_size"][1], identity=True)
            vocabs = [vs, vt]
        sizes = [spm.SentencePieceProcessor(model_file=p).get_piece_size() for p in vocabs]
        model = os.path.join(work, m["name"] + ".npz")
        t0 = time.time()
        Trainer(
            f"--type transformer --model {model} --train-sets {src_txt} {trg_txt} --vocabs {vocabs[0]} {vocabs[1]} "
            f"--dim-vocabs {sizes[0]} {sizes[1]} {m['opts']} --after-batches {args.updates} --mini-batch 64 "
            f"--learn-rate 0.003 --lr-warmup 200 --cpu-threads 2 --disp-freq 500 --seed {m['seed']} --workspace 512 "
            f"--save-freq {args.updates} --overwrite --valid-freq 100000 --transformer-dropout 0 "
            f"--label-smoothing 0.1 --quiet").train()
        train_s = time.time() - t0
        shutil.copy(model, os.path.join(out, "model.npz"))
        vnames = [os.path.basename(p) for p in vocabs]
        with open(os.path.join(out, "decoder.yml"), "w") as f:
            f.write("models:\n  - model.npz\nvocabs:\n" + "".join(f"  - {n}\n" for n in vnames) +
                    "beam-size: 4\nnormalize: 0\nmini-batch: 16\nmaxi-batch: 100\n")
        sps = spm.SentencePieceProcessor(model_file=vocabs[0])
        spt = spm.SentencePieceProcessor(model_file=vocabs[1])
        src_ids = [sps.encode(s) + [0] for s in test]
        base = (f"-m {os.path.join(out, 'model.npz')} -v {vocabs[0]} {vocabs[1]} --cpu-threads 1 --normalize 0 "
                f"--word-penalty 0 --max-length-factor 100 --max-length {max_new} --mini-batch 1 --quiet")
        greedy_raw = Translator(base + " --beam-size 1 --no-spm-decode --n-best").translate(test)
        greedy_text = Translator(base + " --beam-size 1").translate(test)
        beam_raw = Translator(base + " --beam-size 4 --no-spm-decode --n-best").translate(test)
        assert len(greedy_raw) == len(test) and len(greedy_text) == len(test), "Marian dropped lines"
        write_reference(out, "tools/marian/make_marian_models.py", m["opts"], args.updates, train_s, max_new,
                        test, src_ids, greedy_raw, greedy_text, beam_raw, lambda hyp: marian_ids(hyp, spt))
        print(f"{m['name']}: trained {train_s:.0f} s")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
