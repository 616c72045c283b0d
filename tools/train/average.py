#!/usr/bin/env python3
"""Average the weights of training checkpoints (train.py's .pt) and, optionally, of
MarianMT safetensors files (from_emt.py's --weights, e.g. the shipped model a run went on
from), into a checkpoint that export.py reads (--ckpt).

  python3 tools/train/average.py --out avg.pt run/ckpt/a.pt run/ckpt/b.pt
  python3 tools/train/average.py --out mid.pt --weights 0.5,0.5 last.pt init-en-de.safetensors

Checkpoint averaging (Vaswani et al. 2017 averaged the last checkpoints of a run) smooths
the noise of the last steps; averaging a continued run with the model it started from
keeps part of what the new data made it forget. Tensors a safetensors file lacks (the
tied lm_head, sinusoidal positions) are averaged over the checkpoints that have them.
The output keeps the first .pt's configuration and state (step, args), no optimizer.

Without a .pt among the inputs (a GPU lease brings back exports, not checkpoints), --out
ending in .safetensors writes the average of safetensors files, with the first one's
tensor names, in float32 (the converter then rounds once), for an export directory's
model.safetensors:

  cp -r model-en-de model-avg-en-de
  python3 tools/train/average.py --out model-avg-en-de/model.safetensors --weights 0.5,0.5 \
      model-en-de/model.safetensors init-en-de.safetensors
"""
import argparse
import sys

import torch


# The names load() gives model.shared.weight's tensor too; an export has the shared one alone.
TIED = ("model.encoder.embed_tokens.weight", "model.decoder.embed_tokens.weight", "lm_head.weight")


def load(path):
    if path.endswith(".safetensors"):
        from safetensors.torch import load_file
        state = load_file(path)
        if "model.shared.weight" in state:
            for k in TIED:
                state.setdefault(k, state["model.shared.weight"])
        return None, state
    ck = torch.load(path, map_location="cpu", weights_only=False)
    return ck, ck["model"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+", help=".pt checkpoints and .safetensors weights")
    ap.add_argument("--out", required=True)
    ap.add_argument("--weights", default=None, help="comma-separated weights, one per input (default equal)")
    args = ap.parse_args()
    w = [1.0] * len(args.inputs) if not args.weights else [float(x) for x in args.weights.split(",")]
    if len(w) != len(args.inputs) or any(x < 0 for x in w) or sum(w) <= 0:
        sys.exit("--weights: one non-negative weight per input, not all zero")
    loaded = [load(p) for p in args.inputs]
    to_safetensors = args.out.endswith(".safetensors")
    base = next((ck for ck, _ in loaded if ck is not None), None)
    if base is None:
        if not to_safetensors:
            sys.exit("without a training checkpoint (.pt) among the inputs, --out must be a .safetensors file")
        first = loaded[0][1]
        shared = first.get("model.shared.weight")
        # the first file's own names: not the tied ones load() added for the shared tensor
        base = {"model": {k: t for k, t in first.items() if not (k in TIED and t is shared)}}
    out = {}
    for k, ref in base["model"].items():
        have = [(wi, st[k]) for wi, (_, st) in zip(w, loaded) if k in st]
        for p, (_, st) in zip(args.inputs, loaded):
            if k in st and tuple(st[k].shape) != tuple(ref.shape):
                sys.exit(f"{p}: {k} has shape {tuple(st[k].shape)}, expected {tuple(ref.shape)}")
        if not ref.is_floating_point():
            out[k] = ref.clone()
            continue
        total = sum(wi for wi, _ in have)
        out[k] = sum(wi * t.float() for wi, t in have) / total
        if to_safetensors:
            out[k] = out[k].contiguous()
        else:
            out[k] = out[k].to(ref.dtype)
    for p, (_, st) in zip(args.inputs, loaded):
        extra = [k for k in st if k not in out and k not in TIED]
        if extra:
            sys.exit(f"{p}: {extra[:3]} are not tensors of the checkpoints' model")
    if to_safetensors:
        from safetensors.torch import save_file
        save_file(out, args.out, metadata={"format": "pt"})
        print(f"averaged {len(args.inputs)} inputs (weights {w}) -> {args.out}")
        return
    torch.save({"model": out, "state": base["state"], "args": base.get("args"), "config": base["config"],
                "averaged": {"inputs": args.inputs, "weights": w}}, args.out)
    print(f"averaged {len(args.inputs)} inputs (weights {w}) -> {args.out}")


if __name__ == "__main__":
    main()
