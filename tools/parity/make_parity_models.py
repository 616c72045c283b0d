#!/usr/bin/env python3
"""Create tiny random MarianMT (Opus-MT layout) models plus transformers reference outputs.

The C++ parity tests of edgemt load these models and compare their tokenizer, encoder, decoder and
search results with the reference.json written next to each model.

Usage:
    python3 tools/parity/make_parity_models.py --out tests/data/parity
    python3 tools/parity/make_parity_models.py --out tests/data/parity --add-nbest   # see add_nbest()
    python3 tools/parity/make_parity_models.py --out tests/data/parity --add-alignment   # see add_alignment()

Everything is deterministic (fixed seeds, single-threaded torch, SentencePiece trained from an
in-memory iterator).  See tools/parity/README.md for what the models are and for the exact
generate() semantics the references follow.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import random
import re
import shutil
import warnings

import sentencepiece as spm
import torch
import transformers
from safetensors import safe_open
from transformers import (GenerationConfig, MarianConfig, MarianMTModel, MarianTokenizer, PegasusConfig,
                          PegasusForConditionalGeneration)

warnings.filterwarnings("ignore")
transformers.logging.set_verbosity_error()
try:  # progress bars of save/load
    transformers.utils.logging.disable_progress_bar()
except Exception:  # pragma: no cover
    pass

DING = "/usr/share/trans/de-en"
MAX_NEW_TOKENS = 40
NUM_BEAMS = 4
GEN_MAX_LENGTH = 64  # generation_config.json max_length (Opus-MT ships 512; small here)
GREEDY_MARGIN = 1e-3  # min gap between top-1 and top-2 processed logits at every greedy step
BEAM_GAP = 1e-4  # min gap between accumulated scores at every beam-search decision boundary
MAX_BAD_SENTENCES = 3  # more violating sentences than this -> re-roll the model seed
MAX_REROLLS = 8
MAX_EMPTY = 4  # more greedy outputs that are just eos than this -> re-roll the model seed
N_DETAIL = 3  # sentences with encoder_output / first_step_logits

# ----------------------------------------------------------------------------------------------
# Test sentences (English source).  They avoid characters that sacremoses' MosesPunctNormalizer
# (which MarianTokenizer uses when sacremoses is installed) would change: no quotes, parentheses,
# " :" / " ;" / " %", doubled spaces.  So the src_ids are the same with and without sacremoses.
# ----------------------------------------------------------------------------------------------
SENTENCES = [
    "The weather is nice today, so we are going to the lake.",
    "She bought 3 apples and 12 oranges at the market.",
    "Where is the nearest train station?",
    "Hi",
    ">>deu<< Good morning, how are you?",
    "I would like a cup of coffee at the café, please.",
    "The meeting starts at 9:30 on Monday, 14 March 2024.",
    "He said that the price was 1,250 euros, which is far too much for an old bicycle.",
    "Thank you!",
    "These characters 漢字 are not in the vocabulary 🙂.",
    "Although the train from Berlin arrived forty minutes late again yesterday evening, nobody on the "
    "platform could explain why this keeps happening every single week, and the passengers were tired.",
    "Yes.",
    "Can you help me find my keys? I have looked everywhere, but they are gone.",
    "The quick brown fox jumps over the lazy dog.",
    "In 1999, the company had 250 employees; today it has more than 4000.",
    "Please close the window.",
    "My phone number is 555-0199 and my e-mail address is anna@example.com.",
    "Naïve questions are sometimes the best ones.",
    "Good night",
    "The children played football in the park until it got dark.",
    "After a long discussion, the committee decided to postpone the vote until next month because "
    "several members were ill and could not attend.",
    "Water boils at 100 degrees Celsius at sea level.",
    "Don't forget to buy milk, bread, eggs, and cheese!",
    "What time is it?",
    "The report, which was published last week, shows a 7.5% increase in sales.",
    "We'll see.",
    "Zoë and José travelled from São Paulo to Zürich by plane.",
    "Ok",
    "If you want to learn a new language quickly, you should read simple books, listen to the radio "
    "every day, speak with native speakers whenever possible and never be afraid of making mistakes, "
    "because everybody makes them at the beginning.",
    "One, two, three, four, five, six, seven, eight, nine, ten.",
    "Is this the way to the airport?",
]

# never dropped (a violation re-rolls the seed instead): short input, language code, accent, <unk>
REQUIRED_SENTENCES = {SENTENCES[3], SENTENCES[4], SENTENCES[5], SENTENCES[9]}

LANG_CODES_3 = [">>deu<<", ">>nld<<", ">>fra<<"]

# ----------------------------------------------------------------------------------------------
# Model zoo.  vocab kinds:
#   shared_single: one spm (trained on English+German), source.spm == target.spm, one vocab.json
#   shared_joint:  English source.spm and German target.spm, one joint vocab.json (like opus-mt-en-de)
#   separate:      English source.spm / German target.spm, vocab.json + target_vocab.json with
#                  shuffled ids (ids != SentencePiece ids), share_encoder_decoder_embeddings false
# ----------------------------------------------------------------------------------------------
MODELS = [
    dict(name="m1_shared_relu_d16", seed=1101, d_model=16, enc_heads=2, dec_heads=2, enc_ffn=72, dec_ffn=72,
         enc_layers=1, dec_layers=1, act="relu", scale_embedding=True, tie=True, max_pos=256,
         vocab=dict(kind="shared_single", spm_type="unigram", total=317, codes=LANG_CODES_3,
                    codes_at="front")),
    dict(name="m2_joint_swish_d40h4_untied", seed=2202, d_model=40, enc_heads=4, dec_heads=4, enc_ffn=100,
         dec_ffn=72, enc_layers=2, dec_layers=1, act="swish", scale_embedding=False, tie=False, max_pos=256,
         vocab=dict(kind="shared_joint", spm_type="bpe", src_spm=300, tgt_spm=260, codes=[">>deu<<"],
                    codes_at="end")),
    dict(name="m3_separate_gelu_d64", seed=3303, d_model=64, enc_heads=4, dec_heads=4, enc_ffn=128, dec_ffn=96,
         enc_layers=3, dec_layers=2, act="gelu", scale_embedding=True, tie=True, max_pos=256,
         vocab=dict(kind="separate", src_type="unigram", tgt_type="bpe", src_total=733, tgt_total=419)),
    dict(name="m4_separate_relu_d48_untied", seed=4404, d_model=48, enc_heads=8, dec_heads=6, enc_ffn=136,
         dec_ffn=88, enc_layers=1, dec_layers=3, act="relu", scale_embedding=False, tie=False, max_pos=128,
         vocab=dict(kind="separate", src_type="bpe", tgt_type="unigram", src_total=563, tgt_total=563)),
    dict(name="m5_shared_gelu_d40h5", seed=5505, d_model=40, enc_heads=5, dec_heads=5, enc_ffn=84, dec_ffn=84,
         enc_layers=2, dec_layers=2, act="gelu", scale_embedding=True, tie=True, max_pos=256,
         vocab=dict(kind="shared_single", spm_type="bpe", total=453, codes=[">>deu<<"], codes_at="end",
                    omit_pieces=2, omit_candidates=["é", "ür", "ü", "ä", "ö", "ß"])),
    dict(name="m6_shared_swish_d36h3", seed=6606, d_model=36, enc_heads=3, dec_heads=3, enc_ffn=60, dec_ffn=60,
         enc_layers=3, dec_layers=3, act="swish", scale_embedding=False, tie=True, max_pos=256,
         vocab=dict(kind="shared_single", spm_type="unigram", total=389, codes=[], codes_at="end")),
    # Pre-norm (x + f(LN(x)), a final LN after each stack): transformers' Pegasus, which is MarianMT
    # with normalize_before; the tokenizer files are MarianMT's (the parity test is about the layers).
    dict(name="m7_prenorm_pegasus_d32", arch="pegasus", seed=7707, d_model=32, enc_heads=4, dec_heads=2,
         enc_ffn=80, dec_ffn=64, enc_layers=2, dec_layers=2, act="gelu", scale_embedding=True, tie=True,
         max_pos=256, vocab=dict(kind="shared_single", spm_type="unigram", total=347, codes=[], codes_at="end")),
]


def model_class(mcfg):
    return PegasusForConditionalGeneration if mcfg.get("arch") == "pegasus" else MarianMTModel


def log(*a):
    print(*a, flush=True)


# ----------------------------------------------------------------------------------------------
# Text and SentencePiece
# ----------------------------------------------------------------------------------------------
def load_ding(stride: int = 60):
    """English and German phrases from the ding dictionary (every `stride`-th entry)."""
    lines = []
    with open(DING, encoding="utf-8") as f:
        for ln in f:
            if ln.startswith("#") or "::" not in ln:
                continue
            lines.append(ln.rstrip("\n"))

    def clean(s):
        s = re.sub(r"\{[^}]*\}|\[[^\]]*\]", "", s)
        return re.sub(r"\s+", " ", s).strip(" ;")

    en, de = [], []
    for ln in lines[::stride]:
        d, e = ln.split("::", 1)
        en += [p for p in (clean(x) for x in e.split("|")) if p]
        de += [p for p in (clean(x) for x in d.split("|")) if p]
    return en, de


def train_spm(lines, vocab_size, model_type, seed):
    spm.set_random_generator_seed(seed)
    buf = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines),
        model_writer=buf,
        vocab_size=vocab_size,
        model_type=model_type,
        character_coverage=0.9995,
        required_chars="0123456789%",  # digits are rare in ding; rare accents/CJK/emoji stay <unk>
        num_threads=1,
        minloglevel=2,
    )
    data = buf.getvalue()
    sp = spm.SentencePieceProcessor(model_proto=data)
    assert sp.get_piece_size() == vocab_size, (sp.get_piece_size(), vocab_size)
    assert [sp.id_to_piece(i) for i in range(3)] == ["<unk>", "<s>", "</s>"]
    return data, sp


def spm_pieces(sp):
    """Normal pieces (without <unk>, <s>, </s>) in SentencePiece id order."""
    return [sp.id_to_piece(i) for i in range(sp.get_piece_size())
            if not (sp.is_unknown(i) or sp.is_control(i))]


def derange(pieces, sp, first_id=2):
    """Swap neighbours until no piece's vocab id (first_id + index) equals its SentencePiece id."""
    pieces = list(pieces)

    def fixed(k):
        return sp.piece_to_id(pieces[k]) == first_id + k

    changed = True
    while changed:
        changed = False
        for k in range(len(pieces)):
            if fixed(k):
                j = k + 1 if k + 1 < len(pieces) else k - 1
                pieces[k], pieces[j] = pieces[j], pieces[k]
                changed = True
    assert not any(fixed(k) for k in range(len(pieces)))
    return pieces


def marian_vocab(pieces, codes=(), codes_at="end"):
    """MarianMT convention: </s>=0, <unk>=1, ..., <pad>=last."""
    toks = ["</s>", "<unk>"]
    toks += list(codes) + list(pieces) if codes_at == "front" else list(pieces) + list(codes)
    toks.append("<pad>")
    assert len(set(toks)) == len(toks)
    return {t: i for i, t in enumerate(toks)}


def build_vocab(mcfg, en, de, seed):
    """Returns dict(src_spm=bytes, tgt_spm=bytes, vocab=dict, target_vocab=dict|None, notes=[...])."""
    v = mcfg["vocab"]
    kind = v["kind"]
    notes = []
    if kind == "shared_single":
        n_omit = v.get("omit_pieces", 0)
        n_codes = len(v["codes"])
        spm_size = v["total"] - 2 - n_codes - 1 + 3 + n_omit
        mixed = [x for pair in zip(en, de) for x in pair]
        data, sp = train_spm(mixed, spm_size, v["spm_type"], seed)
        pieces = spm_pieces(sp)
        omit = [p for p in v.get("omit_candidates", []) if p in pieces][:n_omit]
        assert len(omit) == n_omit, omit
        pieces = [p for p in pieces if p not in omit]
        if omit:
            notes.append(f"vocab.json omits the SentencePiece pieces {omit} (they map to <unk>)")
        vocab = marian_vocab(pieces, v["codes"], v["codes_at"])
        assert len(vocab) == v["total"], (len(vocab), v["total"])
        shift = -1 + (n_codes if v["codes_at"] == "front" else 0)
        notes.append(f"source.spm and target.spm are the same file; vocab.json id = spm id {shift:+d} for "
                     f"pieces before the first omitted piece (ids shift after omitted pieces)")
        if n_codes:
            notes.append(f"language codes {v['codes']} are vocab.json entries at the {v['codes_at']} "
                         f"(ids {[vocab[c] for c in v['codes']]}); MarianTokenizer strips a leading >>xx<< "
                         f"before SentencePiece and looks it up in vocab.json")
        return dict(src_spm=data, tgt_spm=data, vocab=vocab, target_vocab=None, notes=notes)
    if kind == "shared_joint":
        sdata, ssp = train_spm(en, v["src_spm"], v["spm_type"], seed)
        tdata, tsp = train_spm(de, v["tgt_spm"], v["spm_type"], seed + 1)
        # joint vocabulary ordered by SentencePiece score (a stand-in for Marian's frequency order)
        scored = {}
        for sp in (ssp, tsp):
            for i in range(sp.get_piece_size()):
                if sp.is_unknown(i) or sp.is_control(i):
                    continue
                p = sp.id_to_piece(i)
                scored[p] = max(scored.get(p, -1e30), sp.get_score(i))
        pieces = sorted(scored, key=lambda p: (-scored[p], p))
        codes = list(v["codes"])
        extra = [">>ltz<<", ">>nds<<", ">>gsw<<"]
        while (2 + len(pieces) + len(codes) + 1) % 16 == 0:
            codes.append(extra.pop(0))
        vocab = marian_vocab(pieces, codes, v["codes_at"])
        notes.append(f"joint vocab.json = union of source.spm ({v['src_spm']}) and target.spm "
                     f"({v['tgt_spm']}) pieces ordered by spm score; ids unrelated to either spm's ids")
        return dict(src_spm=sdata, tgt_spm=tdata, vocab=vocab, target_vocab=None, notes=notes)
    if kind == "separate":
        sdata, ssp = train_spm(en, v["src_total"], v["src_type"], seed)
        tdata, tsp = train_spm(de, v["tgt_total"], v["tgt_type"], seed + 1)
        rng = random.Random(seed)
        sp_src, sp_tgt = spm_pieces(ssp), spm_pieces(tsp)
        rng.shuffle(sp_src)
        rng.shuffle(sp_tgt)
        sp_src, sp_tgt = derange(sp_src, ssp), derange(sp_tgt, tsp)
        vocab = marian_vocab(sp_src)
        tvocab = marian_vocab(sp_tgt)
        assert len(vocab) == v["src_total"] and len(tvocab) == v["tgt_total"]
        notes.append("vocab.json / target_vocab.json piece ids are a shuffled order (never the spm ids)")
        return dict(src_spm=sdata, tgt_spm=tdata, vocab=vocab, target_vocab=tvocab, notes=notes)
    raise ValueError(kind)


# ----------------------------------------------------------------------------------------------
# Model
# ----------------------------------------------------------------------------------------------
def make_config(mcfg, voc):
    vocab_size = len(voc["vocab"])
    if voc["target_vocab"] is None:
        share, dec_vocab = True, vocab_size
    else:
        share, dec_vocab = False, len(voc["target_vocab"])
        assert dec_vocab <= vocab_size
    pad = dec_vocab - 1  # <pad> is the last target id; also decoder_start_token_id
    tgt = voc["target_vocab"] or voc["vocab"]
    assert tgt["<pad>"] == pad and tgt["</s>"] == 0 and tgt["<unk>"] == 1
    if mcfg.get("arch") == "pegasus":
        assert share and mcfg["tie"], "Pegasus shares and ties its embeddings"
        cfg = PegasusConfig(
            vocab_size=vocab_size, max_position_embeddings=mcfg["max_pos"], encoder_layers=mcfg["enc_layers"],
            decoder_layers=mcfg["dec_layers"], encoder_attention_heads=mcfg["enc_heads"],
            decoder_attention_heads=mcfg["dec_heads"], encoder_ffn_dim=mcfg["enc_ffn"],
            decoder_ffn_dim=mcfg["dec_ffn"], d_model=mcfg["d_model"], activation_function=mcfg["act"],
            scale_embedding=mcfg["scale_embedding"], tie_word_embeddings=True, pad_token_id=pad,
            decoder_start_token_id=pad, eos_token_id=0, forced_eos_token_id=0, bos_token_id=0, dropout=0.1,
            attention_dropout=0.0, activation_dropout=0.0)
        cfg.architectures = ["PegasusForConditionalGeneration"]
        return cfg
    cfg = MarianConfig(
        vocab_size=vocab_size,
        decoder_vocab_size=dec_vocab,
        max_position_embeddings=mcfg["max_pos"],
        encoder_layers=mcfg["enc_layers"],
        decoder_layers=mcfg["dec_layers"],
        encoder_attention_heads=mcfg["enc_heads"],
        decoder_attention_heads=mcfg["dec_heads"],
        encoder_ffn_dim=mcfg["enc_ffn"],
        decoder_ffn_dim=mcfg["dec_ffn"],
        d_model=mcfg["d_model"],
        activation_function=mcfg["act"],
        scale_embedding=mcfg["scale_embedding"],
        share_encoder_decoder_embeddings=share,
        tie_word_embeddings=mcfg["tie"],
        pad_token_id=pad,
        decoder_start_token_id=pad,
        eos_token_id=0,
        forced_eos_token_id=0,
        bos_token_id=0,
        dropout=0.1,
        attention_dropout=0.0,
        activation_dropout=0.0,
    )
    cfg.architectures = ["MarianMTModel"]
    return cfg


def generation_config(pad):
    return GenerationConfig(
        bad_words_ids=[[pad]],
        bos_token_id=0,
        decoder_start_token_id=pad,
        eos_token_id=0,
        forced_eos_token_id=0,
        max_length=GEN_MAX_LENGTH,
        num_beams=NUM_BEAMS,
        pad_token_id=pad,
    )


# Gains of the linear weights (std = gain / sqrt(fan_in)).  A plain large init makes random post-LN
# transformers collapse (all positions get nearly the same hidden state, so greedy output is one token
# repeated).  Weak attention output projections, a strong FFN and fc2 rows with zero sum (removes the
# common direction that the positive mean of relu/gelu/swish adds to every position) keep the outputs
# varied, source dependent and peaked.
GAINS = {"qk": 2.0, "v": 1.0, "self_out": 0.3, "cross_v": 1.0, "cross_out": 0.4, "fc1": 2.5, "fc2": 6.0}


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


@torch.no_grad()
def init_weights(model, mcfg, seed):
    """Large random init so output distributions are peaked; every bias and LN gets a random value."""
    g = torch.Generator().manual_seed(seed)
    d = mcfg["d_model"]
    emb_std = min(0.6, 3.5 / math.sqrt(d))

    def normal(shape, std, mean=0.0):
        return torch.randn(shape, generator=g) * std + mean

    for name, p in sorted(model.named_parameters(), key=lambda kv: kv[0]):
        if "embed_positions" in name:
            continue  # static sinusoidal, not saved
        if "layer_norm" in name:
            p.copy_(normal(p.shape, 0.1, 1.0) if name.endswith("weight") else normal(p.shape, 0.1))
        elif "embed_tokens" in name or "shared" in name or name == "lm_head.weight":
            p.copy_(normal(p.shape, emb_std))
        elif name.endswith(".weight"):
            w = normal(p.shape, linear_gain(name) / math.sqrt(p.shape[1]))
            if ".fc2." in name:
                w -= w.mean(dim=1, keepdim=True)
            p.copy_(w)
        elif name.endswith(".bias"):
            p.copy_(normal(p.shape, 0.15))
        else:
            raise RuntimeError(f"unexpected parameter {name}")
    m = model.model
    if mcfg["vocab_kind"] != "separate" and not mcfg["tie"]:
        # transformers 5 unties shared/encoder/decoder embeddings when tie_word_embeddings is false:
        # make them identical so "shared" really means shared.  lm_head stays different.
        m.encoder.embed_tokens.weight.copy_(m.shared.weight)
        m.decoder.embed_tokens.weight.copy_(m.shared.weight)
    if not mcfg["tie"]:
        assert not torch.equal(model.lm_head.weight, m.decoder.embed_tokens.weight)
    model.final_logits_bias.copy_(normal(model.final_logits_bias.shape, 0.5))


def build_model(mcfg, voc, seed):
    cfg = make_config(mcfg, voc)
    torch.manual_seed(seed)
    model = model_class(mcfg)(cfg)
    model.set_attn_implementation("eager")
    init_weights(model, mcfg, seed)
    model.generation_config = generation_config(cfg.pad_token_id)
    model.eval()
    return model


# ----------------------------------------------------------------------------------------------
# Reference search implementations (full recompute, no KV cache).  They restate transformers'
# semantics (README) and additionally measure decision margins; their ids must equal generate()'s.
# ----------------------------------------------------------------------------------------------
@torch.no_grad()
def encode(model, ids):
    x = torch.tensor([ids])
    return model.get_encoder()(input_ids=x, attention_mask=torch.ones_like(x)).last_hidden_state


@torch.no_grad()
def step_logits(model, enc, dec_seqs):
    """Raw next-token logits (lm_head + final_logits_bias) for each decoder prefix in dec_seqs."""
    n = len(dec_seqs)
    e = enc.expand(n, -1, -1)
    out = model(encoder_outputs=(e,), attention_mask=torch.ones(e.shape[:2], dtype=torch.long),
                decoder_input_ids=torch.tensor(dec_seqs), use_cache=False)
    return out.logits[:, -1, :].float()


def process(scores, cur_len, max_length, pad, eos):
    """NoBadWords([[pad]]) then ForcedEOS, in generate()'s order."""
    scores = scores.clone()
    scores[:, pad] = -math.inf
    if cur_len == max_length - 1:
        scores = torch.full_like(scores, -math.inf)
        scores[:, eos] = 0.0
    return scores


def ref_greedy(model, enc, start, pad, eos, n_new):
    max_length = 1 + n_new
    seq = [start]
    min_margin = math.inf
    while len(seq) < max_length:
        s = process(step_logits(model, enc, [seq]), len(seq), max_length, pad, eos)[0]
        top = torch.topk(s, 2).values
        if torch.isfinite(top[1]):
            min_margin = min(min_margin, float(top[0] - top[1]))
        tok = int(torch.argmax(s))
        seq.append(tok)
        if tok == eos:
            break
    return seq[1:], min_margin


def ref_beam(model, enc, start, pad, eos, n_new, nb=NUM_BEAMS, length_penalty=1.0):
    """Beam search exactly as transformers 5.23 _beam_search does it for batch 1, early_stopping=True."""
    max_length = 1 + n_new
    K = 2 * nb
    NEG = -1.0e9
    run_seqs = [[start] for _ in range(nb)]
    run_scores = torch.tensor([0.0] + [NEG] * (nb - 1), dtype=torch.float32)
    fin = []  # list of (score, seq) , at most nb, sorted desc
    cur_len = 1
    min_gap = math.inf

    def gap(a, b):
        nonlocal min_gap
        if a > -1e8 and b > -1e8 and math.isfinite(a) and math.isfinite(b):
            min_gap = min(min_gap, abs(a - b))

    while True:
        logits = step_logits(model, enc, run_seqs)
        lp = torch.log_softmax(logits, dim=-1)
        lp = process(lp, cur_len, max_length, pad, eos)
        V = lp.shape[1]
        acc = (lp + run_scores[:, None]).reshape(-1)
        vals, idx = torch.topk(acc, K + 1)
        # boundary 1: which candidates make the top 2*nb
        gap(float(vals[K - 1]), float(vals[K]))
        vals, idx = vals[:K], idx[:K]
        cand = []
        for r in range(K):
            b, t = int(idx[r]) // V, int(idx[r]) % V
            hit = (t == eos) or (cur_len + 1 >= max_length)
            cand.append((float(vals[r]), run_seqs[b] + [t], hit))
        # boundary 2: only ranks < nb may be finalised
        if cand[nb - 1][2] or cand[nb][2]:
            gap(cand[nb - 1][0], cand[nb][0])
        # running beams for the next step: best nb candidates that did not finish
        alive = [c for c in cand if not c[2]]
        if len(alive) > nb:
            gap(alive[nb - 1][0], alive[nb][0])
        # finished pool update (beam pool is never full here: the loop stops when it becomes full)
        denom = (cur_len + 1 - 1) ** length_penalty
        new_fin = [(c[0] / denom, c[1]) for c in cand[:nb] if c[2] and math.isfinite(c[0])]
        merged = sorted(fin + new_fin, key=lambda x: -x[0])
        if len(merged) > nb:
            gap(merged[nb - 1][0], merged[nb][0])
        fin = merged[:nb]
        if len(fin) >= 2:
            gap(fin[0][0], fin[1][0])
        cur_len += 1
        all_hit = all(c[2] for c in cand)
        if len(fin) == nb or all_hit:
            break
        nxt = alive[:nb]
        run_seqs = [c[1] for c in nxt]
        run_scores = torch.tensor([c[0] for c in nxt], dtype=torch.float32)
    best = fin[0][1][1:]
    if best and best[-1] == eos:
        best = best[:-1]
    return best, min_gap, fin[0][0]


# ----------------------------------------------------------------------------------------------
# generate() wrappers
# ----------------------------------------------------------------------------------------------
def strip_out(seq, eos, pad):
    """generate() output row -> ids without decoder start, cut at the first eos (excluded)."""
    seq = list(seq)[1:]
    if eos in seq:
        seq = seq[: seq.index(eos)]
    while seq and seq[-1] == pad:
        seq.pop()
    return seq


GREEDY_KW = dict(num_beams=1, do_sample=False, max_new_tokens=MAX_NEW_TOKENS)
BEAM_KW = dict(num_beams=NUM_BEAMS, do_sample=False, max_new_tokens=MAX_NEW_TOKENS, length_penalty=1.0,
               early_stopping=True)
NBEST_KW = dict(BEAM_KW, num_return_sequences=NUM_BEAMS)  # all finished hypotheses, best first


@torch.no_grad()
def gen(model, input_ids, attention_mask, kw):
    out = model.generate(input_ids=input_ids, attention_mask=attention_mask, **kw)
    return out.tolist()


def gen_one(model, ids, kw):
    x = torch.tensor([ids])
    return gen(model, x, torch.ones_like(x), kw)[0]


@torch.no_grad()
def gen_nbest(model, ids, eos, pad):
    """generate(NBEST_KW) on a batch of 1: the beam's finished hypotheses, best first, stripped as the
    beam4 reference is, and the smallest gap between neighbouring hypotheses' scores."""
    x = torch.tensor([ids])
    hyps = [strip_out(r, eos, pad) for r in gen(model, x, torch.ones_like(x), NBEST_KW)]
    out = model.generate(input_ids=x, attention_mask=torch.ones_like(x), return_dict_in_generate=True,
                         output_scores=True, **NBEST_KW)
    assert [strip_out(r, eos, pad) for r in out.sequences.tolist()] == hyps
    scores = out.sequences_scores.tolist()
    gap = min((scores[i] - scores[i + 1] for i in range(len(scores) - 1)), default=math.inf)
    return hyps, gap


# ----------------------------------------------------------------------------------------------
# EOS-bias calibration: choose final_logits_bias[eos] so that about half of the sentences end with
# a natural eos under greedy search and the others run to max_new_tokens.
# ----------------------------------------------------------------------------------------------
@torch.no_grad()
def natural_end_fraction(model, batch, eos, pad, kw):
    rows = gen(model, batch["input_ids"], batch["attention_mask"], kw)
    n_nat = sum(1 for r in rows if len(strip_out(r, eos, pad)) < MAX_NEW_TOKENS - 1)
    return n_nat / len(rows)


@torch.no_grad()
def calibrate_eos(model, batch, eos, pad):
    """Bisection on final_logits_bias[eos]: the mean of the greedy and the beam natural-eos fractions
    should be about 0.5 (beam search ends earlier than greedy, so greedy then has more limit hits)."""
    base = float(model.final_logits_bias[0, eos])

    def fractions(b):
        model.final_logits_bias[0, eos] = b
        return (natural_end_fraction(model, batch, eos, pad, GREEDY_KW),
                natural_end_fraction(model, batch, eos, pad, BEAM_KW))

    lo, hi = -12.0, 16.0
    best = None
    for _ in range(14):
        mid = round((lo + hi) / 2, 3)
        fg, fb = fractions(mid)
        score = abs((fg + fb) / 2 - 0.5)
        if best is None or score < best[0]:
            best = (score, mid)
        if (fg + fb) / 2 < 0.5:
            lo = mid
        else:
            hi = mid
    b = best[1]
    fg, fb = fractions(b)
    return b, fg, fb, base


# ----------------------------------------------------------------------------------------------
# Files
# ----------------------------------------------------------------------------------------------
def write_json(path, obj, indent=None):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, indent=indent)
        f.write("\n")


def write_model_dir(path, model, voc, separate):
    if os.path.isdir(path):
        shutil.rmtree(path)
    os.makedirs(path)
    model.save_pretrained(path, safe_serialization=True)
    with open(os.path.join(path, "source.spm"), "wb") as f:
        f.write(voc["src_spm"])
    with open(os.path.join(path, "target.spm"), "wb") as f:
        f.write(voc["tgt_spm"])
    write_json(os.path.join(path, "vocab.json"), voc["vocab"], indent=2)
    if separate:
        write_json(os.path.join(path, "target_vocab.json"), voc["target_vocab"], indent=2)
    # as the Opus-MT converter writes it (convert_marian_to_pytorch.save_tokenizer_config)
    write_json(os.path.join(path, "tokenizer_config.json"),
               {"target_lang": "de", "source_lang": "en", "separate_vocabs": separate})


def r8(x):
    """Round floats to 8 significant digits (nested lists)."""
    if isinstance(x, list):
        return [r8(v) for v in x]
    return float(f"{float(x):.8g}")


# ----------------------------------------------------------------------------------------------
# One model
# ----------------------------------------------------------------------------------------------
def check_saved(path, model, mcfg):
    """Reload offline and compare every tensor; check which embedding keys the safetensors file holds."""
    loaded = model_class(mcfg).from_pretrained(path, attn_implementation="eager", local_files_only=True).eval()
    a, b = model.state_dict(), loaded.state_dict()
    assert a.keys() == b.keys()
    for k in a:
        assert torch.equal(a[k], b[k]), f"{k} differs after reload"
    with safe_open(os.path.join(path, "model.safetensors"), "pt") as f:
        keys = sorted(f.keys())
        if not mcfg["tie"]:
            assert "lm_head.weight" in keys
            lm = f.get_tensor("lm_head.weight")
            dec = f.get_tensor("model.decoder.embed_tokens.weight")
            assert lm.shape == dec.shape and not torch.equal(lm, dec)
            assert float((lm - dec).abs().max()) > 0.1
    emb_keys = [k for k in keys if "layers" not in k]
    tok = MarianTokenizer.from_pretrained(path, local_files_only=True)
    return loaded, tok, emb_keys


def run_model(mcfg, en, de, out_dir):
    name = mcfg["name"]
    mcfg = dict(mcfg, vocab_kind=mcfg["vocab"]["kind"])
    log(f"\n=== {name} ===")
    voc = build_vocab(mcfg, en, de, mcfg["seed"])
    separate = voc["target_vocab"] is not None
    path = os.path.join(out_dir, name)
    rerolls = []
    for attempt in range(MAX_REROLLS):
        seed = mcfg["seed"] + 1000 * attempt
        model = build_model(mcfg, voc, seed)
        cfg = model.config
        pad, eos, start = cfg.pad_token_id, cfg.eos_token_id, cfg.decoder_start_token_id
        write_model_dir(path, model, voc, separate)  # tokenizer needs the files
        tok = MarianTokenizer.from_pretrained(path, local_files_only=True)

        # sentences that fit max_position_embeddings
        sents, dropped = [], []
        for s in SENTENCES:
            n = len(tok(s)["input_ids"])
            if n > cfg.max_position_embeddings:
                dropped.append({"sentence": s, "reason": f"src_len {n} > max_position_embeddings"})
            else:
                sents.append(s)
        batch = tok(sents, padding=True, return_tensors="pt")
        eos_bias, fg, fb, base = calibrate_eos(model, batch, eos, pad)
        log(f"  seed {seed}: eos bias {base:.3f} -> {eos_bias} (natural-eos fraction greedy {fg:.2f}, "
            f"beam4 {fb:.2f})")
        write_model_dir(path, model, voc, separate)
        loaded, tok, emb_keys = check_saved(path, model, mcfg)

        results, bad = [], []
        for s in sents:
            ids = tok(s)["input_ids"]
            enc = encode(loaded, ids)
            g_ref, g_margin = ref_greedy(loaded, enc, start, pad, eos, MAX_NEW_TOKENS)
            b_ref, b_gap, b_score = ref_beam(loaded, enc, start, pad, eos, MAX_NEW_TOKENS)
            g_gen = gen_one(loaded, ids, GREEDY_KW)
            b_gen = gen_one(loaded, ids, BEAM_KW)
            g_ids, b_ids = strip_out(g_gen, eos, pad), strip_out(b_gen, eos, pad)
            nbest, _ = gen_nbest(loaded, ids, eos, pad)
            assert nbest[0] == b_ids, "num_return_sequences changed the best beam hypothesis"
            g_ref_ids = g_ref[:-1] if g_ref and g_ref[-1] == eos else g_ref
            problems = []
            if g_margin < GREEDY_MARGIN:
                problems.append(f"greedy margin {g_margin:.2e}")
            if b_gap < BEAM_GAP:
                problems.append(f"beam near-tie {b_gap:.2e}")
            if g_ids != g_ref_ids:
                problems.append("greedy: generate() != reference implementation")
            if b_ids != b_ref:
                problems.append("beam: generate() != reference implementation")
            if g_gen[-1] != eos or (len(g_gen) - 1 < MAX_NEW_TOKENS and g_gen[1:].count(eos) != 1):
                problems.append("greedy output does not end with exactly one eos")
            r = dict(sentence=s, ids=ids, greedy=g_ids, beam=b_ids, nbest=nbest, g_margin=g_margin,
                     b_gap=b_gap, b_score=b_score, g_len=len(g_gen) - 1, b_len=len(b_gen) - 1)
            if problems:
                bad.append((s, problems))
            else:
                results.append(r)
        n_empty = sum(1 for r in results if not r["greedy"])
        bad_required = [x for x in bad if x[0] in REQUIRED_SENTENCES]
        if (len(bad) <= MAX_BAD_SENTENCES and not bad_required and len(results) >= 20
                and n_empty <= MAX_EMPTY):
            for s, p in bad:
                log(f"  dropped sentence {s!r}: {'; '.join(p)}")
                dropped.append({"sentence": s, "reason": "; ".join(p)})
            break
        if bad_required:
            msg = f"seed {seed}: required sentence {bad_required[0][0]!r} violates margins -> re-roll"
        elif n_empty > MAX_EMPTY:
            msg = f"seed {seed}: {n_empty} empty greedy outputs (immediate eos) -> re-roll"
        else:
            msg = f"seed {seed}: {len(bad)} sentences violate margins/parity -> re-roll"
        log("  " + msg)
        for s, p in bad:
            log(f"    {s!r}: {'; '.join(p)}")
        rerolls.append(msg)
    else:
        raise SystemExit(f"{name}: no acceptable seed after {MAX_REROLLS} attempts")

    # step_logits teacher-forces sentence 0's greedy output for 3 steps: sentence 0 must have >= 2
    # greedy tokens before its eos.  If it has not, move the first sentence that has to the front.
    if len(results[0]["greedy"]) < 2:
        j = next(i for i, r in enumerate(results) if len(r["greedy"]) >= 2)
        log(f"  moved sentence {results[j]['sentence']!r} to index 0 (sentence 0 greedy output too short)")
        results.insert(0, results.pop(j))

    # ---- batch check: padded batch must give the same ids as one-by-one ------------------------
    bsents = [r["sentence"] for r in results]
    bb = tok(bsents, padding=True, return_tensors="pt")
    bg = [strip_out(x, eos, pad) for x in gen(loaded, bb["input_ids"], bb["attention_mask"], GREEDY_KW)]
    bbm = [strip_out(x, eos, pad) for x in gen(loaded, bb["input_ids"], bb["attention_mask"], BEAM_KW)]
    g_mis = [i for i, r in enumerate(results) if bg[i] != r["greedy"]]
    b_mis = [i for i, r in enumerate(results) if bbm[i] != r["beam"]]
    log(f"  batch check (batch of {len(results)}): greedy mismatches {g_mis}, beam4 mismatches {b_mis}")

    # ---- detail tensors -------------------------------------------------------------------------
    with torch.no_grad():
        enc_out, first_logits = [], []
        for r in results[:N_DETAIL]:
            e = encode(loaded, r["ids"])
            enc_out.append(r8(e[0].tolist()))
            first_logits.append(r8(step_logits(loaded, e, [[start]])[0].tolist()))
        r0 = results[0]
        g_full = r0["greedy"] + [eos]
        dec_in = [start] + g_full[:2]
        e = encode(loaded, r0["ids"])
        full = loaded(encoder_outputs=(e,), attention_mask=torch.ones(e.shape[:2], dtype=torch.long),
                      decoder_input_ids=torch.tensor([dec_in]), use_cache=False).logits[0]
        # the same through the KV cache, one token at a time
        past, cached = None, []
        for t in range(3):
            o = loaded(encoder_outputs=(e,), attention_mask=torch.ones(e.shape[:2], dtype=torch.long),
                       decoder_input_ids=torch.tensor([[dec_in[t]]]), past_key_values=past, use_cache=True)
            past = o.past_key_values
            cached.append(o.logits[0, -1])
        kv_diff = float((torch.stack(cached) - full).abs().max())
        assert kv_diff < 1e-4, kv_diff
        step = r8(full.tolist())

    def text(ids):
        return tok.decode(ids, skip_special_tokens=True)

    n_new = MAX_NEW_TOKENS
    ref = {
        "model": name,
        "transformers_version": transformers.__version__,
        "torch_version": torch.__version__,
        "dtype": "float32",
        "attn_implementation": "eager",
        "config": {
            "d_model": cfg.d_model, "encoder_layers": cfg.encoder_layers, "decoder_layers": cfg.decoder_layers,
            "encoder_attention_heads": cfg.encoder_attention_heads,
            "decoder_attention_heads": cfg.decoder_attention_heads,
            "encoder_ffn_dim": cfg.encoder_ffn_dim, "decoder_ffn_dim": cfg.decoder_ffn_dim,
            "activation_function": cfg.activation_function, "scale_embedding": cfg.scale_embedding,
            "model_type": cfg.model_type,
            "share_encoder_decoder_embeddings": getattr(cfg, "share_encoder_decoder_embeddings", True),
            "tie_word_embeddings": cfg.tie_word_embeddings, "vocab_size": cfg.vocab_size,
            "decoder_vocab_size": getattr(cfg, "decoder_vocab_size", cfg.vocab_size),
            "max_position_embeddings": cfg.max_position_embeddings, "pad_token_id": pad, "eos_token_id": eos,
            "decoder_start_token_id": start, "separate_vocabs": separate,
            "vocab_kind": mcfg["vocab_kind"], "safetensors_non_layer_keys": emb_keys,
        },
        "seed": seed,
        "eos_bias": eos_bias,
        "notes": voc["notes"],
        "max_new_tokens": n_new,
        "greedy_kwargs": GREEDY_KW,
        "beam4_kwargs": BEAM_KW,
        "sentences": [r["sentence"] for r in results],
        "src_ids": [r["ids"] for r in results],
        "greedy": [r["greedy"] for r in results],
        "beam4": [r["beam"] for r in results],
        "beam4_nbest": [r["nbest"] for r in results],
        "greedy_text": [text(r["greedy"]) for r in results],
        "beam4_text": [text(r["beam"]) for r in results],
        "greedy_hit_limit": [r["g_len"] == n_new for r in results],
        "beam4_hit_limit": [r["b_len"] == n_new for r in results],
        "beam4_score": [r8(r["b_score"]) for r in results],
        "greedy_min_margin": r8(min(r["g_margin"] for r in results)),
        "beam4_min_gap": r8(min(r["b_gap"] for r in results)),
        "encoder_output": enc_out,
        "first_step_logits": first_logits,
        "step_logits_decoder_input": dec_in,
        "step_logits": step,
        "batch_check": {"greedy_mismatch_indices": g_mis, "beam4_mismatch_indices": b_mis},
        "dropped_sentences": dropped,
        "rerolls": rerolls,
    }
    write_json(os.path.join(path, "reference.json"), ref)
    size = os.path.getsize(os.path.join(path, "reference.json"))
    assert size < 1_000_000, size

    # ---- reload check: references reproduce from the files alone --------------------------------
    chk = model_class(mcfg).from_pretrained(path, attn_implementation="eager", local_files_only=True).eval()
    ctok = MarianTokenizer.from_pretrained(path, local_files_only=True)
    for i in range(len(results)):
        ids = ctok(ref["sentences"][i])["input_ids"]
        assert ids == ref["src_ids"][i]
        if i % 5 == 0:
            assert strip_out(gen_one(chk, ids, GREEDY_KW), eos, pad) == ref["greedy"][i]
            assert strip_out(gen_one(chk, ids, BEAM_KW), eos, pad) == ref["beam4"][i]
            assert gen_nbest(chk, ids, eos, pad)[0] == ref["beam4_nbest"][i]

    g_lim = sum(ref["greedy_hit_limit"])
    b_lim = sum(ref["beam4_hit_limit"])
    n = len(results)
    unk_sents = sum(1 for r in results if 1 in r["ids"])
    summary = dict(
        name=name, seed=seed, rerolls=len(rerolls), sentences=n, dropped=len(dropped),
        greedy_eos=n - g_lim, greedy_limit=g_lim, beam_eos=n - b_lim, beam_limit=b_lim,
        greedy_min_margin=ref["greedy_min_margin"], beam_min_gap=ref["beam4_min_gap"],
        batch_greedy_mismatch=len(g_mis), batch_beam_mismatch=len(b_mis), unk_sentences=unk_sents,
        vocab=cfg.vocab_size, dec_vocab=getattr(cfg, "decoder_vocab_size", cfg.vocab_size), ref_bytes=size,
    )
    log("  " + json.dumps(summary))
    return summary


def committed_models(out_dir, only):
    """(model config, reference.json path, its contents, the loaded model) of each committed model;
    one transformers cannot load (4.x and separate decoder vocabularies) is skipped with a note."""
    for m in MODELS:
        if only and m["name"] not in only:
            continue
        path = os.path.join(out_dir, m["name"])
        ref_path = os.path.join(path, "reference.json")
        with open(ref_path, encoding="utf-8") as f:
            ref = json.load(f)
        try:
            model = model_class(m).from_pretrained(path, attn_implementation="eager", local_files_only=True)
        except RuntimeError as e:
            log(f"{m['name']}: not loaded with transformers {transformers.__version__}, skipped: {e}")
            continue
        model.eval()
        yield m, ref_path, ref, model


def add_nbest(out_dir, only):
    """Adds "beam4_nbest" to existing reference.json files: per sentence, the 4 hypotheses of generate(
    NBEST_KW) (BEAM_KW plus num_return_sequences=4) from the committed model, stripped as "beam4" is.
    Nothing is regenerated; every other key keeps its value and the file its format."""
    for m, ref_path, ref, model in committed_models(out_dir, only):
        cfg = model.config
        eos, pad = cfg.eos_token_id, cfg.pad_token_id
        assert ref["beam4_kwargs"] == BEAM_KW and ref["max_new_tokens"] == MAX_NEW_TOKENS
        nbest, gaps = [], []
        for i, ids in enumerate(ref["src_ids"]):
            hyps, gap = gen_nbest(model, ids, eos, pad)
            assert hyps[0] == ref["beam4"][i], f"{m['name']} sentence {i}: best hypothesis != beam4"
            assert len(hyps) == NUM_BEAMS and len({tuple(h) for h in hyps}) == NUM_BEAMS, (m["name"], i)
            nbest.append(hyps)
            gaps.append(gap)
        # the key goes after "beam4", where run_model puts it
        out = {}
        for k, v in ref.items():
            if k != "beam4_nbest":
                out[k] = v
            if k == "beam4":
                out["beam4_nbest"] = nbest
        write_json(ref_path, out)
        close = [(i, f"{g:.2e}") for i, g in enumerate(gaps) if g < BEAM_GAP]
        log(f"{m['name']}: beam4_nbest for {len(nbest)} sentences; smallest score gap between neighbouring "
            f"hypotheses {min(gaps):.2e}; gaps < {BEAM_GAP}: {close}")


@torch.no_grad()
def cross_attention_peaks(model, src, dec):
    """Per decoder layer, per decoder position of `dec` (decoder start + output): the source position
    the layer's cross-attention, averaged over its heads, weighs most (the source's final eos aside),
    and the margin between that weight and the next largest."""
    x = torch.tensor([src])
    out = model(input_ids=x, attention_mask=torch.ones_like(x), decoder_input_ids=torch.tensor([dec]),
                output_attentions=True, use_cache=False)
    peaks, margins = [], []
    for layer in out.cross_attentions:  # [1, heads, len(dec), len(src)]
        w = layer[0].double().mean(dim=0)[:, : len(src) - 1]
        if w.shape[1] == 0:
            peaks.append([-1] * len(dec))
            margins.append([math.inf] * len(dec))
            continue
        top = torch.topk(w, min(2, w.shape[1]), dim=1)
        peaks.append([int(i) for i in top.indices[:, 0]])
        margins.append([float(v[0] - v[1]) if len(v) > 1 else math.inf for v in top.values])
    return peaks, margins


def add_alignment(out_dir, only):
    """Adds "greedy_alignment" to existing reference.json files: per decoder layer and sentence, for
    each token of the greedy output and its final eos, the source position that layer's
    cross-attention (heads averaged, eos aside) weighs most when the token is chosen, from
    transformers' output_attentions; and the smallest margin to the runner-up over all tokens.
    Nothing is regenerated; every other key keeps its value."""
    for m, ref_path, ref, model in committed_models(out_dir, only):
        start = model.config.decoder_start_token_id
        layers = {}
        margins = {}
        for ids, out in zip(ref["src_ids"], ref["greedy"]):
            # The model must still give the reference's greedy output (first token at least).
            logits = step_logits(model, encode(model, ids), [[start]])[0]
            logits[model.config.pad_token_id] = -math.inf
            assert not out or int(torch.argmax(logits)) == out[0], (m["name"], ids)
            peaks, margin = cross_attention_peaks(model, ids, [start] + out)
            for layer, (p, g) in enumerate(zip(peaks, margin)):
                layers.setdefault(str(layer), []).append(p)
                margins.setdefault(str(layer), []).append(g)
        small = {k: min(min(g) for g in v) for k, v in margins.items()}
        ref["greedy_alignment"] = {
            "transformers_version": transformers.__version__, "torch_version": torch.__version__,
            "layers": layers, "margins": margins}
        write_json(ref_path, ref)
        log(f"{m['name']}: greedy_alignment for {len(ref['greedy'])} sentences, {len(layers)} layers; "
            f"smallest margins {small}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="tests/data/parity")
    ap.add_argument("--only", nargs="*", help="model names to (re)build (default: all)")
    ap.add_argument("--add-nbest", action="store_true",
                    help="add beam4_nbest to the existing reference.json files (no model is rebuilt)")
    ap.add_argument("--add-alignment", action="store_true",
                    help="add greedy_alignment to the existing reference.json files (no model is rebuilt)")
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    if args.add_alignment:
        add_alignment(args.out, args.only)
        return
    if args.add_nbest:
        add_nbest(args.out, args.only)
        return
    os.makedirs(args.out, exist_ok=True)
    en, de = load_ding()
    log(f"ding corpus: {len(en)} English / {len(de)} German phrases")
    summaries = []
    for m in MODELS:
        if args.only and m["name"] not in args.only:
            continue
        summaries.append(run_model(m, en, de, args.out))
    if not args.only:
        write_json(os.path.join(args.out, "models.json"),
                   {"generator": "tools/parity/make_parity_models.py",
                    "transformers_version": transformers.__version__, "torch_version": torch.__version__,
                    "models": summaries}, indent=1)
    total = 0
    for root, _, files in os.walk(args.out):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    log(f"\ntotal size of {args.out}: {total / 1e6:.2f} MB")
    if total > 8_000_000:
        log("WARNING: parity data exceeds 8 MB")


if __name__ == "__main__":
    main()
