#!/usr/bin/env python3
"""Create an Opus-MT-base-sized MarianMT with random weights for benchmarks.

Usage:
    python3 tools/make_bench_model.py [--out /work/edgemt-data/bench-model] [--seed 1234]

The model has the shape of Helsinki-NLP/opus-mt-en-de (the "base" Opus-MT models):
d_model 512, 6 encoder + 6 decoder layers, 8 heads, FFN 2048, swish, scale_embedding,
max_position_embeddings 512, one shared vocabulary of 58101 ids (eos 0, unk 1, pad 58100
= decoder start, the last id, as in Opus-MT), tied output projection. About 74M
parameters, ~296 MB as float32 safetensors. The directory is a normal Hugging Face MarianMT
directory (config.json, generation_config.json, model.safetensors, source.spm, target.spm,
vocab.json, tokenizer_config.json) that MarianMTModel / MarianTokenizer,
ct2-transformers-converter and edgemt-convert all read offline.

Tokenizer: a SentencePiece unigram model of 16000 pieces trained on English text found on
this machine (the English side of the ding dictionary /usr/share/trans/de-en, else the
corpus under /work/edgemt-data/corpus, else a built-in text); source.spm == target.spm.
vocab.json maps </s>=0, <unk>=1, the SentencePiece pieces to 2.., then synthetic pieces
"<bench_unused_NNNNN>" (which SentencePiece never produces) up to id 58099, and <pad>=58100,
so the vocabulary, the embedding table and the output projection have Opus-MT's size.

FIXED OUTPUT LENGTH (so that every engine does the same work):
  - final_logits_bias is -1e4 at eos (0) and at pad (58100), 0 elsewhere: with logits of
    a few units, neither can ever win an argmax or enter a beam, in any engine, float32 or
    int8. (CTranslate2's converter keeps final_logits_bias as the output bias and drops the
    pad row; edgemt-convert keeps it as final_logits_bias; transformers adds it.)
  - forced_eos_token_id is unset (config.json and generation_config.json): Opus-MT sets it
    to 0, which makes transformers and edgemt force eos at the last allowed step while
    CTranslate2 does not; without it all three generate exactly max-new-tokens tokens.
  - the benchmark then runs every engine with the same limit: edgemt --max-length N
    (generated tokens incl. eos), CTranslate2 max_decoding_length=N, transformers
    max_new_tokens=N, so each sentence yields exactly N target tokens in every engine
    (bench/compare/compare.py checks the counts).

Weights: a random init with per-kind gains (like tools/parity/make_parity_models.py) rather
than transformers' std 0.02, which makes a random post-norm transformer collapse to one
repeated token with nearly flat logits; this one gives varied, source-dependent, peaked
outputs, so token agreement between engines means something. The pad row of the
embedding table is zero (as in Opus-MT, and as CTranslate2's "start from zero embedding"
assumes).
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import re
import shutil
import sys
import time
import warnings

warnings.filterwarnings("ignore")

DING = "/usr/share/trans/de-en"
CORPUS_EN = "/work/edgemt-data/corpus/train.en"
VOCAB_SIZE = 58101  # Opus-MT en-de
SPM_PIECES = 16000
EOS, UNK = 0, 1
PAD = VOCAB_SIZE - 1
NEG = -1e4
GAINS = {"qk": 2.0, "v": 1.0, "self_out": 0.3, "cross_v": 1.0, "cross_out": 0.4, "fc1": 2.5, "fc2": 6.0}

FALLBACK_TEXT = """The quick brown fox jumps over the lazy dog.
Please close the window before you leave the house.
The file could not be opened because it does not exist.
Where is the nearest train station?
Select the files you want to copy and press the button.
An error occurred while saving the document.
"""


def log(*a):
    print("[make_bench_model]", *a, file=sys.stderr, flush=True)


def english_lines(max_lines: int = 400_000):
    """English text available offline: ding's English side, else the corpus, else built-in."""
    lines = []
    if os.path.exists(DING):
        with open(DING, encoding="utf-8", errors="replace") as f:
            for ln in f:
                if ln.startswith("#") or "::" not in ln:
                    continue
                en = ln.split("::", 1)[1]
                for part in en.split("|"):
                    s = re.sub(r"\{[^}]*\}|\[[^\]]*\]", "", part)
                    s = re.sub(r"\s+", " ", s).strip(" ;\n")
                    if s:
                        lines.append(s)
                if len(lines) >= max_lines:
                    break
        source = DING
    if len(lines) < 20000 and os.path.exists(CORPUS_EN):
        with open(CORPUS_EN, encoding="utf-8", errors="replace") as f:
            for i, ln in enumerate(f):
                if i >= max_lines:
                    break
                if ln.strip():
                    lines.append(ln.strip())
        source = CORPUS_EN
    if len(lines) < 1000:
        lines = FALLBACK_TEXT.strip().split("\n") * 50
        source = "built-in text"
    return lines, source


def train_spm(lines, pieces, seed):
    import sentencepiece as spm

    spm.set_random_generator_seed(seed)
    buf = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines),
        model_writer=buf,
        vocab_size=pieces,
        hard_vocab_limit=False,
        model_type="unigram",
        character_coverage=0.9995,
        input_sentence_size=300000,
        shuffle_input_sentence=True,
        num_threads=2,
        minloglevel=2,
    )
    data = buf.getvalue()
    sp = spm.SentencePieceProcessor(model_proto=data)
    assert [sp.id_to_piece(i) for i in range(3)] == ["<unk>", "<s>", "</s>"]
    return data, sp


def build_vocab(sp):
    vocab = {"</s>": EOS, "<unk>": UNK}
    for i in range(sp.get_piece_size()):
        if sp.is_unknown(i) or sp.is_control(i):
            continue
        p = sp.id_to_piece(i)
        if p not in vocab:
            vocab[p] = len(vocab)
    n_spm = len(vocab)
    k = 0
    while len(vocab) < PAD:
        vocab[f"<bench_unused_{k:05d}>"] = len(vocab)
        k += 1
    vocab["<pad>"] = PAD
    assert len(vocab) == VOCAB_SIZE and sorted(vocab.values()) == list(range(VOCAB_SIZE))
    return vocab, n_spm


def linear_gain(name):
    if ".fc1." in name:
        return GAINS["fc1"]
    if ".fc2." in name:
        return GAINS["fc2"]
    cross = ".encoder_attn." in name
    if "out_proj" in name:
        return GAINS["cross_out" if cross else "self_out"]
    if "v_proj" in name:
        return GAINS["cross_v" if cross else "v"]
    return GAINS["qk"]


def build_model(seed):
    import torch
    from transformers import GenerationConfig, MarianConfig, MarianMTModel

    cfg = MarianConfig(
        vocab_size=VOCAB_SIZE,
        decoder_vocab_size=VOCAB_SIZE,
        max_position_embeddings=512,
        encoder_layers=6,
        encoder_ffn_dim=2048,
        encoder_attention_heads=8,
        decoder_layers=6,
        decoder_ffn_dim=2048,
        decoder_attention_heads=8,
        d_model=512,
        activation_function="swish",
        scale_embedding=True,
        share_encoder_decoder_embeddings=True,
        tie_word_embeddings=True,
        pad_token_id=PAD,
        decoder_start_token_id=PAD,
        eos_token_id=EOS,
        bos_token_id=EOS,
        forced_eos_token_id=None,
        dropout=0.1,
        attention_dropout=0.0,
        activation_dropout=0.0,
    )
    cfg.architectures = ["MarianMTModel"]
    torch.manual_seed(seed)
    model = MarianMTModel(cfg)
    g = torch.Generator().manual_seed(seed)
    emb_std = 3.5 / math.sqrt(cfg.d_model)
    with torch.no_grad():
        for name, p in sorted(model.named_parameters(), key=lambda kv: kv[0]):
            if "embed_positions" in name:
                continue  # sinusoidal, not saved
            if "layer_norm" in name:
                if name.endswith("weight"):
                    p.copy_(torch.randn(p.shape, generator=g) * 0.1 + 1.0)
                else:
                    p.copy_(torch.randn(p.shape, generator=g) * 0.1)
            elif "embed_tokens" in name or "shared" in name or name == "lm_head.weight":
                p.copy_(torch.randn(p.shape, generator=g) * emb_std)
            elif name.endswith(".weight"):
                w = torch.randn(p.shape, generator=g) * (linear_gain(name) / math.sqrt(p.shape[1]))
                if ".fc2." in name:
                    w -= w.mean(dim=1, keepdim=True)
                p.copy_(w)
            elif name.endswith(".bias"):
                p.copy_(torch.randn(p.shape, generator=g) * 0.15)
            else:
                raise RuntimeError(f"unexpected parameter {name}")
        model.model.shared.weight[PAD].zero_()
        bias = torch.zeros_like(model.final_logits_bias)
        bias[0, EOS] = NEG
        bias[0, PAD] = NEG
        model.final_logits_bias.copy_(bias)
    model.generation_config = GenerationConfig(
        bad_words_ids=[[PAD]],
        bos_token_id=EOS,
        decoder_start_token_id=PAD,
        eos_token_id=EOS,
        pad_token_id=PAD,
        max_length=512,
        num_beams=4,
        early_stopping=True,
        length_penalty=1.0,
    )
    return model.eval()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="/work/edgemt-data/bench-model")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--spm-pieces", type=int, default=SPM_PIECES)
    ap.add_argument("--force", action="store_true", help="overwrite an existing directory")
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if out == repo or out.startswith(repo + os.sep):
        sys.exit(f"make_bench_model: write the model outside the repository (got {out})")
    if os.path.exists(os.path.join(out, "model.safetensors")) and not args.force:
        log(f"{out} exists (use --force to rebuild)")
        return

    import torch
    import transformers

    transformers.logging.set_verbosity_error()
    torch.set_num_threads(2)
    t0 = time.time()
    lines, source = english_lines()
    log(f"training SentencePiece ({args.spm_pieces} pieces) on {len(lines)} lines from {source}")
    spm_bytes, sp = train_spm(lines, args.spm_pieces, args.seed)
    vocab, n_spm = build_vocab(sp)
    log(f"vocab.json: {n_spm} real pieces + {PAD - n_spm} synthetic + <pad> = {len(vocab)}")

    model = build_model(args.seed)
    n_params = sum(p.numel() for p in model.parameters())
    log(f"model: {n_params / 1e6:.1f}M parameters")

    tmp = out + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    model.save_pretrained(tmp, safe_serialization=True)
    for name in ("source.spm", "target.spm"):
        with open(os.path.join(tmp, name), "wb") as f:
            f.write(spm_bytes)
    with open(os.path.join(tmp, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False, indent=0)
    with open(os.path.join(tmp, "tokenizer_config.json"), "w") as f:
        json.dump({"tokenizer_class": "MarianTokenizer", "source_lang": "en", "target_lang": "de",
                   "separate_vocabs": False, "model_max_length": 512,
                   "unk_token": "<unk>", "eos_token": "</s>", "pad_token": "<pad>"}, f, indent=1)
    with open(os.path.join(tmp, "bench_model.json"), "w") as f:
        json.dump({"made_by": "tools/make_bench_model.py", "seed": args.seed, "spm_text": source,
                   "spm_pieces": n_spm - 2, "parameters": n_params, "eos_bias": NEG, "pad_bias": NEG,
                   "note": "random weights; eos and pad can never be generated, so the output length "
                           "is always the engine's max new tokens"}, f, indent=1)

    # Check: reload offline, tokenizer ids, no eos in a short greedy generation.
    os.environ["HF_HUB_OFFLINE"] = "1"
    from transformers import MarianMTModel, MarianTokenizer

    tok = MarianTokenizer.from_pretrained(tmp)
    m2 = MarianMTModel.from_pretrained(tmp).eval()
    assert tok.pad_token_id == PAD and tok.eos_token_id == EOS and len(tok) == VOCAB_SIZE
    assert float(m2.final_logits_bias[0, EOS]) == NEG
    assert float(m2.model.shared.weight[PAD].abs().sum()) == 0.0
    batch = tok(["The file could not be opened.", "Where is the nearest train station?"],
                return_tensors="pt", padding=True)
    with torch.no_grad():
        y = m2.generate(**batch, num_beams=1, do_sample=False, max_new_tokens=16)
    gen = y[:, 1:]
    assert gen.shape[1] == 16 and not bool((gen == EOS).any()), y
    log("check: ids", batch["input_ids"][0].tolist(), "->", gen[0].tolist())
    shutil.rmtree(out, ignore_errors=True)
    os.replace(tmp, out)
    size = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
    log(f"wrote {out} ({size / 1e6:.0f} MB) in {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
