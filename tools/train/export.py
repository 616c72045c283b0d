#!/usr/bin/env python3
"""Export the trained model as a Hugging Face MarianMT directory (default
/work/edgemt-data/model-hf) with config.json, model.safetensors,
generation_config.json, source.spm, target.spm, vocab.json and
tokenizer_config.json, loadable offline by MarianMTModel/MarianTokenizer.

The weights come from DATA/train/best-hf (best dev BLEU, default), from another
save_pretrained directory (--model-dir), or from a training checkpoint (--ckpt,
e.g. DATA/train/ckpt/last.pt, to export an intermediate state).

Usage:
  python3 tools/train/export.py [--data /work/edgemt-data] [--out DIR]
  python3 tools/train/export.py --ckpt /work/edgemt-data/train/ckpt/last.pt --out /tmp/model-early
"""
import argparse
import json
import os
import shutil
import sys

import torch

SAMPLES = [
    "The file could not be opened.",
    "Save the document before closing the window.",
    "No such file or directory",
    "I need to get some exercise.",
]
SAMPLES_DE = [
    "Die Datei konnte nicht geöffnet werden.",
    "Speichern Sie das Dokument, bevor Sie das Fenster schließen.",
    "Datei oder Verzeichnis nicht gefunden",
    "Ich muss mich mehr bewegen.",
]


def load_model(args):
    from transformers import MarianConfig, MarianMTModel
    if args.ckpt:
        ck = torch.load(args.ckpt, map_location="cpu", weights_only=False)
        cfg = MarianConfig.from_dict(ck["config"])
        model = MarianMTModel(cfg)
        missing, unexpected = model.load_state_dict(ck["model"], strict=False)
        # tied/shared embeddings may be reported as missing aliases; anything else is an error
        bad = [k for k in missing if not k.endswith("embed_tokens.weight") and k != "lm_head.weight"]
        assert not bad and not unexpected, (bad, unexpected)
        model.tie_weights()
        info = {"source": args.ckpt, "step": ck["state"]["step"]}
    else:
        model = MarianMTModel.from_pretrained(args.model_dir)
        info = {"source": args.model_dir}
        st = os.path.join(args.model_dir, "train_state.json")
        if os.path.exists(st):
            with open(st) as f:
                info.update(json.load(f))
    return model.eval(), info


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/edgemt-data")
    ap.add_argument("--model-dir", default=None, help="default DATA/train/best-hf")
    ap.add_argument("--ckpt", default=None, help="training checkpoint (.pt) instead of --model-dir")
    ap.add_argument("--spm-dir", default=None, help="default DATA/spm")
    ap.add_argument("--out", default=None, help="default DATA/model-hf")
    ap.add_argument("--src-lang", default="en")
    ap.add_argument("--tgt-lang", default="de")
    ap.add_argument("--float16", action="store_true",
                    help="store the weights as float16 (half the size; edgemt-convert reads F16)")
    args = ap.parse_args()
    args.model_dir = args.model_dir or os.path.join(args.data, "train", "best-hf")
    spm_dir = args.spm_dir or os.path.join(args.data, "spm")
    out = args.out or os.path.join(args.data, "model-hf")

    from transformers import GenerationConfig, MarianMTModel, MarianTokenizer
    model, info = load_model(args)
    cfg = model.config
    pad = cfg.pad_token_id
    assert pad == cfg.vocab_size - 1 and cfg.eos_token_id == 0 and cfg.decoder_start_token_id == pad
    with open(os.path.join(spm_dir, "vocab.json")) as f:
        assert len(json.load(f)) == cfg.vocab_size, "vocab.json does not match the model"

    gen = GenerationConfig(
        bad_words_ids=[[pad]], bos_token_id=None, decoder_start_token_id=pad, eos_token_id=0,
        forced_eos_token_id=0, pad_token_id=pad, max_length=256, num_beams=4,
        early_stopping=True, length_penalty=1.0,
    )
    model.generation_config = gen
    if args.float16:
        model = model.half()
    if os.path.exists(out):
        shutil.rmtree(out)
    model.save_pretrained(out, safe_serialization=True)
    for name in ("source.spm", "target.spm", "vocab.json"):
        shutil.copy(os.path.join(spm_dir, name), os.path.join(out, name))
    with open(os.path.join(out, "tokenizer_config.json"), "w") as f:
        json.dump({"tokenizer_class": "MarianTokenizer", "source_lang": args.src_lang, "target_lang": args.tgt_lang,
                   "separate_vocabs": False, "model_max_length": 256,
                   "unk_token": "<unk>", "eos_token": "</s>", "pad_token": "<pad>"}, f, indent=1)
    with open(os.path.join(out, "edgemt_export.json"), "w") as f:
        json.dump(info, f, indent=1)
    for name in os.listdir(out):  # save_pretrained may create 0600 files
        os.chmod(os.path.join(out, name), 0o644)
    print(f"[export] wrote {out} from {info}", file=sys.stderr)

    # verification: reload offline and translate
    os.environ["HF_HUB_OFFLINE"] = "1"
    tok = MarianTokenizer.from_pretrained(out)
    m2 = MarianMTModel.from_pretrained(out).float().eval()
    assert tok.pad_token_id == pad and tok.eos_token_id == 0
    samples = SAMPLES if args.src_lang == "en" else SAMPLES_DE
    batch = tok(samples, return_tensors="pt", padding=True)
    with torch.no_grad():
        y = m2.generate(**batch)  # generation_config.json: beam 4
    for s, t in zip(samples, tok.batch_decode(y, skip_special_tokens=True)):
        print(f"[export] {s} -> {t}", file=sys.stderr)
    print(f"[export] files: {sorted(os.listdir(out))}", file=sys.stderr)


if __name__ == "__main__":
    main()
