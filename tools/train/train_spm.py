#!/usr/bin/env python3
"""Train the joint English/German SentencePiece (unigram) vocabulary of edgemt and
write it in Opus-MT/MarianMT layout:

  OUT/source.spm, OUT/target.spm   the same SentencePiece model (joint vocabulary)
  OUT/vocab.json                   piece -> model id; `</s>` = 0, `<unk>` = 1,
                                   `<pad>` = last id (vocab size - 1)

The SentencePiece model is trained with eos_id=0, unk_id=1 and no bos/pad, so
SentencePiece ids equal vocab.json ids for every piece; `<pad>` exists only in
vocab.json (the model's pad/decoder-start id). Total vocab = --vocab-size + 1.

Usage: python3 tools/train/train_spm.py [--data /work/edgemt-data] [--vocab-size 7999]
"""
import argparse
import json
import os
import sys
import tempfile

import sentencepiece as spm


def check_tokenizer(outdir):
    from transformers import MarianTokenizer
    tok = MarianTokenizer.from_pretrained(outdir)
    samples = ["The file could not be opened.", "Die Datei konnte nicht geöffnet werden."]
    for s in samples:
        ids = tok(s)["input_ids"]
        back = tok.decode(ids, skip_special_tokens=True)
        assert ids[-1] == 0, "eos must be id 0"
        assert back == s, (s, back)
        print(f"[spm] {s!r} -> {ids}", file=sys.stderr)
    assert tok.pad_token_id == len(tok) - 1, (tok.pad_token_id, len(tok))
    assert tok.unk_token_id == 1 and tok.eos_token_id == 0
    print(f"[spm] MarianTokenizer OK: vocab {len(tok)}, pad {tok.pad_token_id}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/edgemt-data")
    ap.add_argument("--out", default=None, help="default DATA/spm")
    ap.add_argument("--vocab-size", type=int, default=7999,
                    help="SentencePiece pieces incl. </s> and <unk>; <pad> is added on top")
    ap.add_argument("--max-sentences", type=int, default=2000000)
    args = ap.parse_args()
    outdir = args.out or os.path.join(args.data, "spm")
    os.makedirs(outdir, exist_ok=True)
    corpus = os.path.join(args.data, "corpus")

    with tempfile.TemporaryDirectory() as tmp:
        joint = os.path.join(tmp, "joint.txt")
        with open(joint, "w") as out:
            for lang in ("en", "de"):
                with open(os.path.join(corpus, f"train.{lang}")) as f:
                    for line in f:
                        out.write(line)
        prefix = os.path.join(tmp, "spm")
        spm.set_random_generator_seed(1234)  # deterministic sentence sampling
        spm.SentencePieceTrainer.train(
            input=joint, model_prefix=prefix, model_type="unigram",
            vocab_size=args.vocab_size, character_coverage=0.99995,
            eos_id=0, unk_id=1, bos_id=-1, pad_id=-1,
            input_sentence_size=args.max_sentences, shuffle_input_sentence=True,
            seed_sentencepiece_size=1000000, num_threads=2, max_sentence_length=4096,
            normalization_rule_name="nmt_nfkc", byte_fallback=False,
            minloglevel=1,
        )
        with open(prefix + ".model", "rb") as f:
            model = f.read()
    for name in ("source.spm", "target.spm"):
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(model)
    sp = spm.SentencePieceProcessor(model_file=os.path.join(outdir, "source.spm"))
    vocab = {sp.id_to_piece(i): i for i in range(sp.get_piece_size())}
    assert vocab["</s>"] == 0 and vocab["<unk>"] == 1
    vocab["<pad>"] = len(vocab)
    with open(os.path.join(outdir, "vocab.json"), "w") as f:
        json.dump(vocab, f, ensure_ascii=False, indent=0)
    with open(os.path.join(outdir, "tokenizer_config.json"), "w") as f:
        json.dump({"tokenizer_class": "MarianTokenizer", "source_lang": "en", "target_lang": "de",
                   "separate_vocabs": False, "model_max_length": 256,
                   "unk_token": "<unk>", "eos_token": "</s>", "pad_token": "<pad>"}, f, indent=1)
    print(f"[spm] wrote {outdir}: {len(vocab)} ids (pad={vocab['<pad>']})", file=sys.stderr)
    check_tokenizer(outdir)


if __name__ == "__main__":
    main()
