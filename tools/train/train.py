#!/usr/bin/env python3
"""Train edgemt's small MarianMT models (English->German, or German->English with
--src-lang de --tgt-lang en) with a plain torch loop, on the CPU or a GPU (--device;
bfloat16 autocast on a GPU).

Model: transformers MarianMTModel, by default d_model 256, 6 encoder / 2 decoder
layers, 4 heads, FFN 1024 (the bundled models: --d-model 384 --heads 6 --ffn 1536), swish, shared vocabulary with tied embeddings,
scale_embedding, 256 positions, eos = 0, pad = decoder_start = last id.

Training: AdamW, linear warmup + inverse-sqrt decay, label smoothing 0.1,
token-based length-bucketed batches, gradient clipping, optional accumulation.

Resumable: DATA/train/ckpt/last.pt (model, optimizer, scheduler, RNG states,
data position, elapsed time) is written every --ckpt-minutes and at exit
(also on SIGTERM/SIGINT); a restart resumes from it automatically. The time
budget --max-minutes counts training wall time summed over all runs; when it is
used up, training stops cleanly, saves, and writes DATA/train/DONE.
The best model by dev BLEU (greedy decode of --bleu-sents dev sentences) is
kept as a Hugging Face directory in DATA/train/best-hf (weights + config).

Going on from a shipped model (its checkpoints gone): --init WEIGHTS starts a new run
(no last.pt yet) from the weights tools/train/from_emt.py reads out of an .emt file
(with DATA/spm written from the same file: the model's own vocabulary, and the shape
arguments from_emt.py --info prints). The optimizer starts afresh: a shorter warmup
and a lower --lr than from scratch.

Usage:
  python3 tools/train/train.py [--data /work/edgemt-data] [--max-minutes 120]
  python3 tools/train/train.py --bench-steps 30     # throughput measurement only
"""
import argparse
import json
import math
import os
import random
import signal
import sys
import time

# The 2 cores are shared with other work: with libgomp's default (spinning)
# wait policy, a preempted OpenMP thread stalls the other one at every barrier
# (measured ~1.7x slower under load). Must be set before torch is imported.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402
import sentencepiece as spm  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))


# ----------------------------------------------------------------------------- utils
class Logger:
    def __init__(self, path):
        self.f = open(path, "a", buffering=1)

    def __call__(self, msg):
        line = time.strftime("%Y-%m-%d %H:%M:%S ") + msg
        print(line, flush=True)
        self.f.write(line + "\n")


def load_vocab(spm_dir):
    with open(os.path.join(spm_dir, "vocab.json")) as f:
        vocab = json.load(f)
    sp = spm.SentencePieceProcessor(model_file=os.path.join(spm_dir, "source.spm"))
    # SentencePiece ids must equal vocab.json ids (train_spm.py guarantees it)
    for i in range(sp.get_piece_size()):
        assert vocab[sp.id_to_piece(i)] == i
    return sp, vocab


def encode_file(sp, path, max_len):
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f]
    ids = sp.encode(lines)
    return [x[:max_len - 1] + [0] for x in ids]  # append </s> (id 0)


def load_split(data, sp, name, max_len, cache_dir, src_lang="en", tgt_lang="de"):
    cache = os.path.join(cache_dir, f"{name}.{src_lang}-{tgt_lang}.npz")
    src_path = os.path.join(data, "corpus", f"{name}.{src_lang}")
    if os.path.exists(cache) and os.path.getmtime(cache) > os.path.getmtime(src_path):
        z = np.load(cache)
        def unflat(flat, off):
            return [flat[off[i]:off[i + 1]].tolist() for i in range(len(off) - 1)]
        return unflat(z["src"], z["src_off"]), unflat(z["tgt"], z["tgt_off"])
    src = encode_file(sp, src_path, max_len)
    tgt = encode_file(sp, os.path.join(data, "corpus", f"{name}.{tgt_lang}"), max_len)
    def flat(seqs):
        off = np.zeros(len(seqs) + 1, dtype=np.int64)
        off[1:] = np.cumsum([len(s) for s in seqs])
        return np.fromiter((t for s in seqs for t in s), dtype=np.int32, count=int(off[-1])), off
    s, so = flat(src)
    t, to = flat(tgt)
    np.savez(cache + ".tmp.npz", src=s, src_off=so, tgt=t, tgt_off=to)
    os.replace(cache + ".tmp.npz", cache)
    return src, tgt


def make_batches(src, tgt, max_tokens, epoch, seed, pool=200):
    """Deterministic token-based batches for one epoch (list of index lists).
    Cost of a batch = n_sentences * max(len) over src and tgt (padded size)."""
    rng = random.Random(seed * 1000003 + epoch)
    idx = list(range(len(src)))
    rng.shuffle(idx)
    batches = []
    approx = max_tokens // 16
    chunk = pool * approx
    for c in range(0, len(idx), chunk):
        part = sorted(idx[c:c + chunk], key=lambda i: (len(src[i]), len(tgt[i])))
        cur, cur_max = [], 0
        for i in part:
            m = max(cur_max, len(src[i]), len(tgt[i]))
            if cur and m * (len(cur) + 1) > max_tokens:
                batches.append(cur)
                cur, m = [], max(len(src[i]), len(tgt[i]))
            cur.append(i)
            cur_max = m
        if cur:
            batches.append(cur)
    rng.shuffle(batches)
    return batches


def collate(src, tgt, ids, pad, device="cpu"):
    bs = len(ids)
    ls = max(len(src[i]) for i in ids)
    lt = max(len(tgt[i]) for i in ids)
    x = np.full((bs, ls), pad, dtype=np.int64)
    dec = np.full((bs, lt), pad, dtype=np.int64)  # column 0 stays pad = decoder_start_token_id
    lab = np.full((bs, lt), -100, dtype=np.int64)
    for j, i in enumerate(ids):
        s, t = src[i], tgt[i]
        x[j, :len(s)] = s
        lab[j, :len(t)] = t
        dec[j, 1:len(t)] = t[:-1]
    x, dec, lab = (torch.from_numpy(a) for a in (x, dec, lab))
    if device != "cpu":
        x, dec, lab = (a.pin_memory().to(device, non_blocking=True) for a in (x, dec, lab))
    return x, (x != pad).long(), dec, lab


def build_model(vocab_size, pad, args):
    from transformers import MarianConfig, MarianMTModel
    cfg = MarianConfig(
        vocab_size=vocab_size, decoder_vocab_size=vocab_size,
        d_model=args.d_model, encoder_layers=args.enc_layers, decoder_layers=args.dec_layers,
        encoder_attention_heads=args.heads, decoder_attention_heads=args.heads,
        encoder_ffn_dim=args.ffn, decoder_ffn_dim=args.ffn, activation_function="swish",
        max_position_embeddings=256, scale_embedding=True,
        share_encoder_decoder_embeddings=True, tie_word_embeddings=True,
        pad_token_id=pad, decoder_start_token_id=pad, eos_token_id=0, forced_eos_token_id=0,
        bos_token_id=None,
        dropout=args.dropout, attention_dropout=0.0, activation_dropout=0.0,
        architectures=["MarianMTModel"],
    )
    torch.manual_seed(args.seed)
    model = MarianMTModel(cfg)
    model.generation_config.max_length = 256
    model.generation_config.num_beams = 1
    model.generation_config.bad_words_ids = [[pad]]
    return model


def init_weights(model, path, log):
    """Loads MarianMT weights into a new model; every trained tensor must be there with
    its shape (sinusoidal position tables, the tied lm_head and final_logits_bias may be
    absent: the model has them)."""
    from safetensors.torch import load_file
    state = load_file(path)
    own = model.state_dict()
    if "model.shared.weight" in state:  # the stacks' embeddings are the shared one
        for k in ("model.encoder.embed_tokens.weight", "model.decoder.embed_tokens.weight"):
            if k in own:
                state.setdefault(k, state["model.shared.weight"])
    for k, v in state.items():
        if k not in own:
            raise SystemExit(f"--init {path}: {k} is not a tensor of this model (other shape arguments?)")
        if tuple(v.shape) != tuple(own[k].shape):
            raise SystemExit(f"--init {path}: {k} has shape {tuple(v.shape)}, the model {tuple(own[k].shape)}")
    missing = [k for k in own if k not in state and "embed_positions" not in k
               and k not in ("lm_head.weight", "final_logits_bias")]
    if missing:
        raise SystemExit(f"--init {path}: missing {missing[:5]}")
    model.load_state_dict(state, strict=False)
    if model.config.tie_word_embeddings:
        model.tie_weights()
    log(f"initialized from {path}: {len(state)} tensors")


def lr_lambda_factory(warmup):
    def f(step):
        step = max(step, 1)
        return min(step / warmup, math.sqrt(warmup / step))
    return f


def rng_state():
    return {"torch": torch.get_rng_state(), "python": random.getstate(), "numpy": np.random.get_state()}


def set_rng_state(s):
    torch.set_rng_state(s["torch"].cpu())  # a checkpoint loaded onto a GPU holds it there
    random.setstate(s["python"])
    np.random.set_state(s["numpy"])


def atomic_save(obj, path):
    tmp = path + ".tmp"
    torch.save(obj, tmp)
    os.replace(tmp, path)


# ----------------------------------------------------------------------------- eval
@torch.no_grad()
def dev_loss(model, src, tgt, pad, max_tokens, device="cpu"):
    model.eval()
    tot, n = 0.0, 0
    for ids in make_batches(src, tgt, max_tokens, 0, 0):
        x, m, dec, lab = collate(src, tgt, ids, pad, device)
        with autocast(device):
            logits = model(input_ids=x, attention_mask=m, decoder_input_ids=dec).logits.float()
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), lab.view(-1), ignore_index=-100, reduction="sum")
        tot += loss.item()
        n += int((lab != -100).sum())
    model.train()
    return tot / max(n, 1)


@torch.no_grad()
def source_gap(model, src, tgt, pad, n=256, device="cpu"):
    """Dev loss with each target paired with another sentence's source, minus the true
    loss, on the first n dev pairs. Near 0 means the decoder ignores the encoder (a
    collapsed encoder: post-norm stacks can lose all input dependence when the learning
    rate rises too fast); a healthy model shows a gap of several nats."""
    model.eval()
    ids = list(range(min(n, len(src))))
    rolled = src[1:len(ids)] + src[:1]
    def loss(srcs):
        x, m, dec, lab = collate(srcs, tgt, ids, pad, device)
        with autocast(device):
            logits = model(input_ids=x, attention_mask=m, decoder_input_ids=dec).logits.float()
        return F.cross_entropy(logits.view(-1, logits.size(-1)), lab.view(-1), ignore_index=-100).item()
    gap = loss(rolled) - loss(src[:len(ids)])
    model.train()
    return gap


@torch.no_grad()
def greedy_translate(model, sp, sents, pad, batch_size=64, num_beams=1, device="cpu"):
    model.eval()
    order = sorted(range(len(sents)), key=lambda i: len(sents[i]))
    out = [None] * len(sents)
    for b in range(0, len(order), batch_size):
        ids = order[b:b + batch_size]
        enc = [sp.encode(sents[i])[:255] + [0] for i in ids]
        L = max(len(e) for e in enc)
        x = torch.full((len(ids), L), pad, dtype=torch.long)
        for j, e in enumerate(enc):
            x[j, :len(e)] = torch.tensor(e)
        x = x.to(device)
        with autocast(device):
            gen = model.generate(input_ids=x, attention_mask=(x != pad).long(), num_beams=num_beams,
                                 do_sample=False, max_length=min(256, int(L * 2 + 10)))
        for j, i in enumerate(ids):
            toks = [t for t in gen[j].tolist() if t not in (0, pad)]
            out[i] = sp.decode(toks)
    model.train()
    return out


def dev_bleu(model, sp, dev_src, dev_tgt, pad, device="cpu"):
    import sacrebleu
    hyps = greedy_translate(model, sp, dev_src, pad, device=device)
    return sacrebleu.corpus_bleu(hyps, [dev_tgt]).score, hyps


CPU_BF16 = False  # --cpu-bf16


def autocast(device):
    """bfloat16 autocast on a GPU (weights and optimizer stay float32); on the CPU only with
    --cpu-bf16 (CPUs with AVX-512 BF16 or AMX run its matrix products about twice as fast)."""
    import contextlib
    if str(device).startswith("cuda"):
        return torch.autocast("cuda", dtype=torch.bfloat16)
    if CPU_BF16:
        return torch.autocast("cpu", dtype=torch.bfloat16)
    return contextlib.nullcontext()


# ----------------------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/edgemt-data")
    ap.add_argument("--out", default=None, help="default DATA/train")
    ap.add_argument("--max-minutes", type=float, default=120.0,
                    help="wall-time budget of the training loop incl. evals/checkpoints, summed over resumes")
    ap.add_argument("--max-steps", type=int, default=0, help="optional step limit (0 = none)")
    ap.add_argument("--max-tokens", type=int, default=4096, help="padded tokens per batch (per side)")
    ap.add_argument("--accum", type=int, default=1)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--warmup", type=int, default=1000)
    ap.add_argument("--label-smoothing", type=float, default=0.1)
    ap.add_argument("--clip", type=float, default=1.0)
    ap.add_argument("--weight-decay", type=float, default=0.01)
    ap.add_argument("--dropout", type=float, default=0.05)
    ap.add_argument("--max-len", type=int, default=128, help="max tokens per sentence incl. </s>")
    ap.add_argument("--d-model", type=int, default=256)
    ap.add_argument("--enc-layers", type=int, default=6)
    ap.add_argument("--dec-layers", type=int, default=2)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--ffn", type=int, default=1024)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--src-lang", default="en", help="source side: corpus files *.SRC (en or de)")
    ap.add_argument("--tgt-lang", default="de", help="target side: corpus files *.TGT")
    ap.add_argument("--device", default="auto", help="cpu, cuda or auto (cuda when there is a GPU); "
                    "on a GPU the forward pass runs under bfloat16 autocast")
    ap.add_argument("--cpu-bf16", action="store_true",
                    help="on the CPU, run the forward pass under bfloat16 autocast too")
    ap.add_argument("--ckpt-minutes", type=float, default=10.0)
    ap.add_argument("--eval-minutes", type=float, default=15.0)
    ap.add_argument("--log-every", type=int, default=50)
    ap.add_argument("--bleu-sents", type=int, default=300)
    ap.add_argument("--bench-steps", type=int, default=0, help="only measure throughput for N steps, save nothing")
    ap.add_argument("--init", default=None,
                    help="a new run starts from these MarianMT weights (safetensors, tools/train/from_emt.py)")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    global CPU_BF16
    CPU_BF16 = args.cpu_bf16
    if args.device == "auto":
        args.device = "cuda" if torch.cuda.is_available() else "cpu"
    device = args.device
    if device.startswith("cuda"):
        torch.backends.cuda.matmul.allow_tf32 = True
    out = args.out or os.path.join(args.data, "train")
    ckdir = os.path.join(out, "ckpt")
    os.makedirs(ckdir, exist_ok=True)
    log = Logger(os.path.join(out, "train.log" if not args.bench_steps else "bench.log"))
    done_path = os.path.join(out, "DONE")
    if os.path.exists(done_path) and not args.bench_steps:
        log(f"training already finished ({done_path} exists); delete it to train further")
        return

    spm_dir = os.path.join(args.data, "spm")
    sp, vocab = load_vocab(spm_dir)
    V = len(vocab)
    pad = vocab["<pad>"]
    assert pad == V - 1
    t0 = time.time()
    langs = (args.src_lang, args.tgt_lang)
    src, tgt = load_split(args.data, sp, "train", args.max_len, out, *langs)
    dsrc, dtgt = load_split(args.data, sp, "dev", args.max_len, out, *langs)
    with open(os.path.join(args.data, "corpus", f"dev.{args.src_lang}")) as f:
        dev_en = [l.rstrip("\n") for l in f][:args.bleu_sents]
    with open(os.path.join(args.data, "corpus", f"dev.{args.tgt_lang}")) as f:
        dev_de = [l.rstrip("\n") for l in f][:args.bleu_sents]
    ntok = sum(len(s) for s in tgt)
    log(f"data: {len(src)} train pairs ({ntok} target tokens), {len(dsrc)} dev; vocab {V}, pad {pad}; "
        f"loaded in {time.time() - t0:.1f}s; threads {torch.get_num_threads()}")

    model = build_model(V, pad, args).to(device)
    nparams = sum(p.numel() for p in model.parameters())
    log(f"model: {nparams / 1e6:.2f}M parameters; args {vars(args)}")
    decay, no_decay = [], []
    for n, p in model.named_parameters():
        (no_decay if p.dim() < 2 or "layer_norm" in n or "bias" in n else decay).append(p)
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": args.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}],
                            lr=args.lr, betas=(0.9, 0.98), eps=1e-9)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda_factory(args.warmup))

    st = {"step": 0, "epoch": 0, "batch_idx": 0, "elapsed": 0.0, "best_bleu": -1.0, "best_step": 0,
          "tokens": 0, "history": []}
    last = os.path.join(ckdir, "last.pt")
    if os.path.exists(last) and not args.bench_steps:
        ck = torch.load(last, map_location=device, weights_only=False)
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["optimizer"])
        sched.load_state_dict(ck["scheduler"])
        # --lr given on resume replaces the checkpoint's base rate (the schedule's shape,
        # warmup then inverse square root of the step, is kept).
        if any(abs(b - args.lr) > 1e-12 for b in sched.base_lrs):
            log(f"base learning rate {sched.base_lrs[0]:.2e} -> {args.lr:.2e} (from --lr)")
            sched.base_lrs = [args.lr for _ in opt.param_groups]
            for g in opt.param_groups:
                g["initial_lr"] = args.lr
        set_rng_state(ck["rng"])
        st = ck["state"]
        if st.get("train_pairs") != len(src) and st["batch_idx"]:
            # other training data than the checkpoint's (a new corpus or mix; or a checkpoint
            # that did not record it): its batch position means nothing in the new data's
            # order, so the epoch starts over
            log(f"the training data changed ({st.get('train_pairs')} -> {len(src)} pairs): epoch "
                f"{st['epoch']} starts again at batch 0 (was {st['batch_idx']})")
            st["batch_idx"] = 0
        log(f"resumed from {last}: step {st['step']} epoch {st['epoch']} batch {st['batch_idx']} "
            f"elapsed {st['elapsed'] / 60:.1f} min, best BLEU {st['best_bleu']:.2f} @ {st['best_step']}")
    elif args.init:
        init_weights(model, args.init, log)
    st["train_pairs"] = len(src)
    model.train()

    stop = {"flag": False}
    def on_signal(signum, _frame):
        log(f"signal {signum}: will save and exit")
        stop["flag"] = True
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    def save_ckpt(reason):
        if args.bench_steps:
            return
        t = time.time()
        atomic_save({"model": model.state_dict(), "optimizer": opt.state_dict(), "scheduler": sched.state_dict(),
                     "rng": rng_state(), "state": st, "args": vars(args), "config": model.config.to_dict()}, last)
        log(f"checkpoint ({reason}) step {st['step']} -> {last} in {time.time() - t:.1f}s")

    def evaluate(final=False):
        t = time.time()
        dl = dev_loss(model, dsrc, dtgt, pad, args.max_tokens, device)
        gap = source_gap(model, dsrc, dtgt, pad, device=device)
        bleu, hyps = dev_bleu(model, sp, dev_en, dev_de, pad, device)
        st["history"].append({"step": st["step"], "elapsed_min": round(st["elapsed"] / 60, 2),
                              "dev_loss": round(dl, 4), "dev_bleu": round(bleu, 2), "source_gap": round(gap, 3)})
        msg = (f"EVAL step {st['step']} epoch {st['epoch']} dev_loss {dl:.4f} dev_ppl {math.exp(dl):.2f} "
               f"dev_bleu[{len(dev_en)} greedy] {bleu:.2f} source_gap {gap:.3f} ({time.time() - t:.0f}s)")
        if bleu > st["best_bleu"] and not args.bench_steps:
            st["best_bleu"], st["best_step"] = bleu, st["step"]
            best_dir = os.path.join(out, "best-hf")
            tmp_dir = best_dir + ".tmp"
            model.save_pretrained(tmp_dir)
            with open(os.path.join(tmp_dir, "train_state.json"), "w") as f:
                json.dump({"step": st["step"], "dev_bleu": bleu, "dev_loss": dl,
                           "elapsed_min": st["elapsed"] / 60}, f)
            if os.path.exists(best_dir):
                os.rename(best_dir, best_dir + ".old")
            os.rename(tmp_dir, best_dir)
            import shutil
            shutil.rmtree(best_dir + ".old", ignore_errors=True)
            msg += " NEW BEST -> best-hf"
        log(msg)
        for i in range(3):
            log(f"  SRC {dev_en[i]}\n  REF {dev_de[i]}\n  HYP {hyps[i]}")
        return time.time() - t

    budget = args.max_minutes * 60
    last_ckpt = time.time()
    last_eval = time.time()
    run_start = time.time()
    seg_t, seg_tok, seg_loss, seg_n, seg_steps = time.time(), 0, 0.0, 0, 0
    batches = make_batches(src, tgt, args.max_tokens, st["epoch"], args.seed)
    log(f"epoch {st['epoch']}: {len(batches)} batches")
    opt.zero_grad(set_to_none=True)
    micro = 0
    t_prev = time.time()
    while True:
        if st["batch_idx"] >= len(batches):
            st["epoch"] += 1
            st["batch_idx"] = 0
            batches = make_batches(src, tgt, args.max_tokens, st["epoch"], args.seed)
            log(f"epoch {st['epoch']}: {len(batches)} batches")
        ids = batches[st["batch_idx"]]
        st["batch_idx"] += 1
        x, m, dec, lab = collate(src, tgt, ids, pad, device)
        ntgt = sum(len(tgt[i]) for i in ids)
        nsrc = sum(len(src[i]) for i in ids)
        with autocast(device):
            logits = model(input_ids=x, attention_mask=m, decoder_input_ids=dec).logits
        logits = logits.float().view(-1, V)
        loss = F.cross_entropy(logits, lab.view(-1), ignore_index=-100,
                               label_smoothing=args.label_smoothing, reduction="sum")
        (loss / ntgt / args.accum).backward()
        with torch.no_grad():
            nll = F.cross_entropy(logits, lab.view(-1), ignore_index=-100, reduction="sum")
        seg_loss += nll  # a tensor: read once per log line, not every step (no GPU sync)
        seg_n += ntgt
        seg_tok += ntgt + nsrc
        st["tokens"] += ntgt + nsrc
        micro += 1
        if micro % args.accum:
            continue
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        opt.step()
        sched.step()
        opt.zero_grad(set_to_none=True)
        st["step"] += 1
        seg_steps += 1
        now = time.time()
        st["elapsed"] += now - t_prev
        t_prev = now
        if st["step"] % args.log_every == 0 or args.bench_steps:
            dt = now - seg_t
            log(f"step {st['step']} ep {st['epoch']} b {st['batch_idx']}/{len(batches)} "
                f"train_nll {float(seg_loss) / max(seg_n, 1):.4f} lr {sched.get_last_lr()[0]:.2e} gnorm {float(gn):.2f} "
                f"tok/s {seg_tok / dt:.0f} (src+tgt) s/step {dt / seg_steps:.2f} "
                f"elapsed {st['elapsed'] / 60:.1f}m")
            seg_t, seg_tok, seg_loss, seg_n, seg_steps = now, 0, 0.0, 0, 0
        if args.bench_steps:
            if st["step"] >= args.bench_steps:
                log(f"bench done: {args.bench_steps} steps in {time.time() - run_start:.1f}s")
                return
            continue
        out_of_time = st["elapsed"] >= budget or (args.max_steps and st["step"] >= args.max_steps)
        if out_of_time or stop["flag"]:
            break
        if now - last_eval >= args.eval_minutes * 60:
            evaluate()
            last_eval = time.time()
        if time.time() - last_ckpt >= args.ckpt_minutes * 60:
            save_ckpt("periodic")
            last_ckpt = time.time()

    if stop["flag"] and not (st["elapsed"] >= budget or (args.max_steps and st["step"] >= args.max_steps)):
        save_ckpt("signal")
        log("stopped by signal; rerun the same command to resume")
        return
    log(f"budget reached: step {st['step']}, {st['elapsed'] / 60:.1f} min of training")
    evaluate(final=True)
    save_ckpt("final")
    with open(done_path, "w") as f:
        json.dump({"step": st["step"], "elapsed_min": st["elapsed"] / 60, "best_bleu": st["best_bleu"],
                   "best_step": st["best_step"], "history": st["history"]}, f, indent=1)
    log(f"DONE: best dev BLEU {st['best_bleu']:.2f} at step {st['best_step']}; model in {os.path.join(out, 'best-hf')}")


if __name__ == "__main__":
    main()
