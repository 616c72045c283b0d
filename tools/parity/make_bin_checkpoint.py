#!/usr/bin/env python3
"""Save a parity model's weights as pytorch_model.bin (torch.save), for the converter's tests.

The C++ converter reads pytorch_model.bin without Python (converter/pytorch_bin.cc); its test
(tests/converter/pytorch_bin_test.cc) converts the file written here and checks that every tensor
equals the one in the parity model's model.safetensors, and that the .emt file is the same.

Usage:
    python3 tools/parity/make_bin_checkpoint.py \
        tests/data/parity/m2_joint_swish_d40h4_untied tests/data/pytorch_bin [--plain]
    python3 tools/parity/make_bin_checkpoint.py --fuzz-seeds tests/fuzz/corpus/fuzz_pytorch_bin

The state dict is MarianMTModel's own, saved with torch.save as transformers' save_pretrained did
before safetensors (transformers 5 dropped safe_serialization=False): tied tensors share one
storage (model.shared / encoder / decoder embed_tokens).  Unless --plain is given, a few tensors
are stored the ways other checkpoints store them, so that one small file covers every case the
reader handles (and stays under 300 KB):
  - the shared embedding as bfloat16 (three names, one storage, as transformers 4 saved tied
    embeddings), the encoder and decoder positions as one float16 storage,
  - lm_head and the decoder layers as float16,
  - final_logits_bias as float64,
  - encoder layer 0's q/k/v projections as views into one fused [3d, d] storage (offsets),
  - encoder layer 0's fc1 weight transposed in memory (non-contiguous strides),
  - a parameter pickled as torch.nn.Parameter (torch._utils._rebuild_parameter).
manifest.json (beside the .bin) lists each tensor's dtype and layout; the test rounds the
safetensors values to that dtype before comparing.  Rerun this script whenever the parity model
is regenerated.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import struct
import sys
import warnings
import zipfile
import zlib

import torch
import transformers
from transformers import MarianMTModel

warnings.filterwarnings("ignore")
transformers.logging.set_verbosity_error()

DTYPE_NAMES = {torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16", torch.float64: "float64"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("src", nargs="?", help="parity model directory (config.json, model.safetensors)")
    ap.add_argument("out", nargs="?", help="output directory (pytorch_model.bin, manifest.json)")
    ap.add_argument("--plain", action="store_true", help="the state dict as is (float32, contiguous)")
    ap.add_argument("--fuzz-seeds", metavar="DIR", help="write tiny seed inputs for tests/fuzz/fuzz_pytorch_bin.cc")
    args = ap.parse_args()
    if args.fuzz_seeds:
        return fuzz_seeds(args.fuzz_seeds)
    if not args.src or not args.out:
        ap.error("SRC and OUT are required")

    torch.manual_seed(0)
    model = MarianMTModel.from_pretrained(args.src, dtype=torch.float32)
    model.eval()
    sd = model.state_dict()  # OrderedDict; tied parameters are the same tensor
    if not args.plain:
        with torch.no_grad():
            # Embeddings that hold the same values (transformers 4 tied them) become one
            # bfloat16 storage under every name; so do the sinusoidal positions, as float16.
            def share(names, dtype):
                names = [n for n in names if n in sd]
                groups = []
                for n in names:
                    for g in groups:
                        if torch.equal(sd[g[0]], sd[n]):
                            g.append(n)
                            break
                    else:
                        groups.append([n])
                for g in groups:
                    t = sd[g[0]].to(dtype)
                    for n in g:
                        sd[n] = t

            share(["model.shared.weight", "model.encoder.embed_tokens.weight", "model.decoder.embed_tokens.weight"],
                  torch.bfloat16)
            share(["model.encoder.embed_positions.weight", "model.decoder.embed_positions.weight"], torch.float16)
            if "lm_head.weight" in sd and sd["lm_head.weight"].dtype == torch.float32:
                sd["lm_head.weight"] = sd["lm_head.weight"].to(torch.float16)
            for k in sd:
                if k.startswith("model.decoder.layers."):
                    sd[k] = sd[k].to(torch.float16)
            if "final_logits_bias" in sd:
                sd["final_logits_bias"] = sd["final_logits_bias"].to(torch.float64)
            p = "model.encoder.layers.0.self_attn."
            qkv = torch.cat([sd[p + "q_proj.weight"], sd[p + "k_proj.weight"], sd[p + "v_proj.weight"]]).clone()
            d = sd[p + "q_proj.weight"].shape[0]
            for i, n in enumerate(["q_proj", "k_proj", "v_proj"]):
                sd[p + n + ".weight"] = qkv[i * d:(i + 1) * d]
            w = sd["model.encoder.layers.0.fc1.weight"]
            sd["model.encoder.layers.0.fc1.weight"] = w.t().contiguous().t()
            assert not sd["model.encoder.layers.0.fc1.weight"].is_contiguous()
            n = "model.encoder.layers.0.fc2.weight"
            sd[n] = torch.nn.Parameter(sd[n].clone(), requires_grad=False)

    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "pytorch_model.bin")
    torch.save(sd, path)  # the default: zip format, pickle protocol 2

    # torch.save writes stored (uncompressed) entries: the C++ reader relies on it.
    with zipfile.ZipFile(path) as z:
        methods = {i.compress_type for i in z.infolist()}
        if methods != {zipfile.ZIP_STORED}:
            print(f"unexpected zip methods {methods}", file=sys.stderr)
            return 1
    with open(os.path.join(args.src, "model.safetensors"), "rb") as f:
        source_bytes = f.read()
    manifest = {
        "source": os.path.basename(os.path.normpath(args.src)),
        # The test checks these first: a regenerated parity model needs a new .bin.
        "source_safetensors_size": len(source_bytes),
        "source_safetensors_crc32": zlib.crc32(source_bytes),
        "torch": torch.__version__,
        "tensors": {
            k: {"dtype": DTYPE_NAMES[v.dtype], "shape": list(v.shape), "contiguous": v.is_contiguous(),
                "storage_offset": v.storage_offset()}
            for k, v in sd.items()
        },
    }
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {path} ({os.path.getsize(path)} bytes, {len(sd)} tensors)")
    return 0


def fuzz_seeds(out: str) -> int:
    """Seeds in the fuzz target's two modes: byte 0 even = a whole file; odd = storage sizes + data.pkl."""
    torch.manual_seed(0)
    half = torch.randn(24).half()  # one float16 storage, two views at different offsets
    fused = torch.randn(3, 4)
    sd = {
        "f32": torch.randn(2, 3),
        "f16_view": half[4:10].view(2, 3),
        "f16_view2": half[0:4],
        "bf16_t": torch.randn(3, 5).bfloat16().t(),  # non-contiguous
        "f64_scalar": torch.tensor(1.5, dtype=torch.float64),
        "param": torch.nn.Parameter(torch.randn(4), requires_grad=False),
        "i64": torch.arange(3),  # unsupported dtype: read() must refuse it
        "empty": torch.zeros(0, 4),
        "q": fused[0],
        "k": fused[1],
    }
    os.makedirs(out, exist_ok=True)

    def save(obj, **kw) -> bytes:
        f = io.BytesIO()
        torch.save(obj, f, **kw)
        return f.getvalue()

    def wrap_pickle(zbytes: bytes) -> bytes:
        with zipfile.ZipFile(io.BytesIO(zbytes)) as z:
            names = z.namelist()
            pkl = next(n for n in names if n.endswith("/data.pkl"))
            prefix = pkl[: -len("data.pkl")]
            keys = sorted(int(n[len(prefix) + 5:]) for n in names if n.startswith(prefix + "data/"))
            assert keys == list(range(len(keys))) and len(keys) <= 8, keys
            sizes = [z.getinfo(f"{prefix}data/{k}").file_size for k in keys]
            assert all(s < 65536 for s in sizes)
            return bytes([1, len(keys)]) + b"".join(struct.pack("<H", s) for s in sizes) + z.read(pkl)

    seeds = {
        "whole_tiny": b"\0" + save(sd),
        "whole_proto4": b"\0" + save(sd, pickle_protocol=4),
        "whole_legacy": b"\0" + save({"a": torch.ones(2)}, _use_new_zipfile_serialization=False),
        "pickle_tiny": wrap_pickle(save(sd)),
        "pickle_proto4": wrap_pickle(save(sd, pickle_protocol=4)),
        "pickle_ordered": wrap_pickle(save(torch.nn.Linear(3, 2).state_dict())),
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        print(f"wrote {os.path.join(out, name)} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
