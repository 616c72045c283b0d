#!/usr/bin/env python3
"""Weights and vocabulary of an edgemt model file (.emt) in the Hugging Face MarianMT form,
so that training can go on from a shipped model when its training checkpoints are gone
(they do not outlive a session here; the models/ files do).

  python3 tools/train/from_emt.py --model models/edgemt-en-de.emt \\
      --weights init-en-de.safetensors --spm DATA/spm

  --weights  a safetensors file of float32 tensors named as MarianMTModel's state dict
             (model.shared.weight, model.encoder.layers.0.self_attn.q_proj.weight, ...;
             train.py --init loads it). int8 tensors are dequantized (int8 * scale of
             their row), fused projections split back (qkv_proj -> q/k/v_proj,
             cross-attention kv_proj -> k/v_proj); sinusoidal position tables are left out
             (MarianMTModel makes its own).
  --spm      the model's SentencePiece vocabulary as tools/train/train_spm.py writes it
             (source.spm, target.spm, vocab.json with <pad> last), so that training
             encodes text with the ids the model was trained on.
  --info     print the configuration (and the train.py arguments of that shape).

Standard library only (a FlatBuffer reader of schema/edgemt.fbs's tables, little-endian).
Transformer decoders only: a model with SSRU decoder layers (Marian's students) has no
MarianMT form.
"""
import argparse
import array
import json
import os
import struct
import sys

# Field indices of schema/edgemt.fbs (declaration order).
MODEL = dict(schema_version=0, config=1, generation=2, tokenizer=3, tensors=4, metadata=5)
CONFIG = dict(source_vocab_size=0, target_vocab_size=1, d_model=2, encoder_layers=3, decoder_layers=4,
              encoder_heads=5, decoder_heads=6, encoder_ffn_dim=7, decoder_ffn_dim=8, activation=9,
              norm_placement=10, layer_norm_epsilon=11, position_kind=12, max_positions=13,
              embedding_scale=14, shared_embeddings=15, tied_output=16, has_final_logits_bias=17,
              pad_id=18, eos_id=19, unk_id=20, decoder_start_id=21, decoder_layer_kind=22)
TOKENIZER = dict(source_spm=0, target_spm=1, source_vocab=2, target_vocab=3)
TENSOR = dict(name=0, dtype=1, layout=2, shape=3, data=4, scales=5)
F32, I8 = 0, 1
ROW_MAJOR, PANEL_F32, PANEL_I8 = 0, 1, 2
ACTIVATIONS = {0: "relu", 1: "gelu", 2: "swish", 3: "gelu_new"}


class Table:
    """A FlatBuffer table at `pos` of `buf`."""

    def __init__(self, buf, pos):
        self.buf, self.pos = buf, pos
        vt = pos - struct.unpack_from("<i", buf, pos)[0]
        self.vt, self.vt_size = vt, struct.unpack_from("<H", buf, vt)[0]

    def _off(self, field):
        at = 4 + 2 * field
        return struct.unpack_from("<H", self.buf, self.vt + at)[0] if at < self.vt_size else 0

    def scalar(self, field, fmt, default):
        off = self._off(field)
        return struct.unpack_from("<" + fmt, self.buf, self.pos + off)[0] if off else default

    def _target(self, field):
        off = self._off(field)
        if not off:
            return None
        p = self.pos + off
        return p + struct.unpack_from("<I", self.buf, p)[0]

    def table(self, field):
        t = self._target(field)
        return None if t is None else Table(self.buf, t)

    def vector(self, field, fmt):
        """(start, count) of a vector of scalars, or a memoryview cast to fmt."""
        t = self._target(field)
        if t is None:
            return None
        n = struct.unpack_from("<I", self.buf, t)[0]
        size = struct.calcsize(fmt)
        return self.buf[t + 4:t + 4 + n * size].cast(fmt) if fmt != "B" else self.buf[t + 4:t + 4 + n]

    def string(self, field):
        v = self.vector(field, "B")
        return None if v is None else bytes(v).decode("utf-8")

    def tables(self, field):
        t = self._target(field)
        if t is None:
            return []
        n = struct.unpack_from("<I", self.buf, t)[0]
        out = []
        for i in range(n):
            p = t + 4 + 4 * i
            out.append(Table(self.buf, p + struct.unpack_from("<I", self.buf, p)[0]))
        return out

    def strings(self, field):
        return [None if s is None else s for s in (self._string_at(x) for x in self._offsets(field))]

    def _offsets(self, field):
        t = self._target(field)
        if t is None:
            return []
        n = struct.unpack_from("<I", self.buf, t)[0]
        return [t + 4 + 4 * i + struct.unpack_from("<I", self.buf, t + 4 + 4 * i)[0] for i in range(n)]

    def _string_at(self, p):
        n = struct.unpack_from("<I", self.buf, p)[0]
        return bytes(self.buf[p + 4:p + 4 + n]).decode("utf-8")


class EmtError(Exception):
    pass


def read_model(path):
    with open(path, "rb") as f:
        buf = memoryview(f.read())
    # A size-prefixed FlatBuffer: size, root offset (from byte 4), file identifier.
    if len(buf) < 12 or bytes(buf[8:12]) != b"EMT1":
        raise EmtError(f"{path}: not an edgemt model file (no EMT1 identifier)")
    if struct.unpack_from("<I", buf, 0)[0] + 4 > len(buf):
        raise EmtError(f"{path}: truncated")
    return Table(buf, 4 + struct.unpack_from("<I", buf, 4)[0])


def config_of(model):
    c = model.table(MODEL["config"])
    ints = {k: c.scalar(i, "i", 0) for k, i in CONFIG.items()
            if k not in ("activation", "norm_placement", "layer_norm_epsilon", "position_kind",
                         "embedding_scale", "shared_embeddings", "tied_output", "has_final_logits_bias",
                         "decoder_layer_kind")}
    ints.update(activation=c.scalar(CONFIG["activation"], "b", 2),
                norm_placement=c.scalar(CONFIG["norm_placement"], "b", 0),
                layer_norm_epsilon=c.scalar(CONFIG["layer_norm_epsilon"], "f", 1e-5),
                position_kind=c.scalar(CONFIG["position_kind"], "b", 0),
                embedding_scale=c.scalar(CONFIG["embedding_scale"], "f", 1.0),
                shared_embeddings=bool(c.scalar(CONFIG["shared_embeddings"], "B", 1)),
                tied_output=bool(c.scalar(CONFIG["tied_output"], "B", 1)),
                has_final_logits_bias=bool(c.scalar(CONFIG["has_final_logits_bias"], "B", 0)),
                decoder_layer_kind=c.scalar(CONFIG["decoder_layer_kind"], "b", 0))
    return ints


def tensor_values(t):
    """(logical shape, row-major float32 array) of a Tensor table, dequantized."""
    name = t.string(TENSOR["name"])
    dtype, layout = t.scalar(TENSOR["dtype"], "b", F32), t.scalar(TENSOR["layout"], "b", ROW_MAJOR)
    shape = list(t.vector(TENSOR["shape"], "q") or [])
    data = t.vector(TENSOR["data"], "B")
    n_rows = shape[0] if shape else 1
    k = 1
    for s in shape[1:]:
        k *= s
    out = array.array("f", bytes(4 * n_rows * k))
    if dtype == F32 and layout == ROW_MAJOR:
        out = array.array("f", bytes(data))
    elif dtype == F32 and layout == PANEL_F32:
        vals = array.array("f", bytes(data))
        for n in range(n_rows):
            base, lane = (n // 16) * k * 16, n % 16
            out[n * k:(n + 1) * k] = array.array("f", vals[base + lane:base + k * 16:16])
    elif dtype == I8:
        scales = t.vector(TENSOR["scales"], "f")
        if scales is None or len(scales) != n_rows:
            raise EmtError(f"{name}: int8 tensor without one scale per row")
        q = array.array("b", bytes(data))
        if layout == ROW_MAJOR:
            for n in range(n_rows):
                s = scales[n]
                out[n * k:(n + 1) * k] = array.array("f", (v * s for v in q[n * k:(n + 1) * k]))
        elif layout == PANEL_I8:
            # Row n's bytes k..k+3 are 4 contiguous bytes of each 64-byte group of its panel.
            kq = (k + 3) // 4
            raw = bytes(data)
            for n in range(n_rows):
                start = (n // 16) * kq * 64 + (n % 16) * 4
                row = b"".join(raw[start + g * 64:start + g * 64 + 4] for g in range(kq))[:k]
                s = scales[n]
                out[n * k:(n + 1) * k] = array.array("f", (v * s for v in array.array("b", row)))
        else:
            raise EmtError(f"{name}: int8 tensor in layout {layout}")
    else:
        raise EmtError(f"{name}: dtype {dtype} layout {layout} is not a weight this reads")
    if len(out) != n_rows * k:
        raise EmtError(f"{name}: {len(out)} values for shape {shape}")
    return shape, out


def hf_state(model):
    """{MarianMTModel state dict name: (shape, float32 array)} of an .emt model."""
    cfg = config_of(model)
    if cfg["decoder_layer_kind"] != 0:
        raise EmtError("the model's decoder layers are SSRUs (a Marian student): MarianMT has no such layer")
    tensors = {t.string(TENSOR["name"]): t for t in model.tables(MODEL["tensors"])}
    out = {}

    def put(hf, shape, vals):
        out[hf] = (list(shape), vals)

    def get(name):
        if name not in tensors:
            raise EmtError(f"tensor {name} missing")
        return tensor_values(tensors[name])

    def linear(emt, hf_parts):
        shape, w = get(emt + "/weight")
        n, k = shape
        each = n // len(hf_parts)
        b = get(emt + "/bias")[1] if emt + "/bias" in tensors else None
        for i, h in enumerate(hf_parts):
            put(h + ".weight", [each, k], w[i * each * k:(i + 1) * each * k])
            if b is not None:
                put(h + ".bias", [each], b[i * each:(i + 1) * each])

    def norm(emt, hf):
        put(hf + ".weight", *get(emt + "/weight"))
        put(hf + ".bias", *get(emt + "/bias"))

    emb = get("encoder/embed_tokens")
    if cfg["shared_embeddings"]:
        put("model.shared.weight", *emb)
    else:
        put("model.encoder.embed_tokens.weight", *emb)
        put("model.decoder.embed_tokens.weight", *get("decoder/embed_tokens"))
    def self_attn(p, e):
        linear(e + "self_attn/qkv_proj", [p + "self_attn.q_proj", p + "self_attn.k_proj", p + "self_attn.v_proj"])
        linear(e + "self_attn/out_proj", [p + "self_attn.out_proj"])
        norm(e + "self_attn_layer_norm", p + "self_attn_layer_norm")

    def ffn(p, e):
        linear(e + "fc1", [p + "fc1"])
        linear(e + "fc2", [p + "fc2"])
        norm(e + "final_layer_norm", p + "final_layer_norm")

    for i in range(cfg["encoder_layers"]):
        p, e = f"model.encoder.layers.{i}.", f"encoder/layer_{i}/"
        self_attn(p, e)
        ffn(p, e)
    for i in range(cfg["decoder_layers"]):
        p, e = f"model.decoder.layers.{i}.", f"decoder/layer_{i}/"
        self_attn(p, e)
        linear(e + "cross_attn/q_proj", [p + "encoder_attn.q_proj"])
        linear(e + "cross_attn/kv_proj", [p + "encoder_attn.k_proj", p + "encoder_attn.v_proj"])
        linear(e + "cross_attn/out_proj", [p + "encoder_attn.out_proj"])
        norm(e + "cross_attn_layer_norm", p + "encoder_attn_layer_norm")
        ffn(p, e)
    if cfg["norm_placement"] == 1:
        norm("encoder/layer_norm", "model.encoder.layer_norm")
        norm("decoder/layer_norm", "model.decoder.layer_norm")
    if not cfg["tied_output"]:
        put("lm_head.weight", *get("decoder/output_projection/weight"))
    if cfg["has_final_logits_bias"]:
        shape, b = get("decoder/final_logits_bias")
        put("final_logits_bias", [1, shape[0]], b)
    return cfg, out


def write_safetensors(path, state):
    header, offset = {}, 0
    for name, (shape, vals) in state.items():
        size = 4 * len(vals)
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    head = json.dumps(header, separators=(",", ":")).encode()
    head += b" " * (-len(head) % 8)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(head)))
        f.write(head)
        for _, (_, vals) in state.items():
            if sys.byteorder != "little":
                vals = array.array("f", vals)
                vals.byteswap()
            f.write(vals.tobytes())
    os.replace(tmp, path)


def write_spm(model, outdir):
    tok = model.table(MODEL["tokenizer"])
    src = tok.vector(TOKENIZER["source_spm"], "B")
    tgt = tok.vector(TOKENIZER["target_spm"], "B")
    if src is None:
        raise EmtError("the model holds no SentencePiece model")
    if tok.table(TOKENIZER["target_vocab"]) is not None:
        raise EmtError("the model has separate source and target vocabularies (train_spm.py makes one)")
    pieces = tok.table(TOKENIZER["source_vocab"]).strings(0)
    vocab = {p: i for i, p in enumerate(pieces) if p}
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "source.spm"), "wb") as f:
        f.write(bytes(src))
    with open(os.path.join(outdir, "target.spm"), "wb") as f:
        f.write(bytes(tgt if tgt is not None else src))
    with open(os.path.join(outdir, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False, indent=0)
    return vocab


def train_args(cfg):
    """train.py's shape arguments for this configuration."""
    if cfg["encoder_heads"] != cfg["decoder_heads"] or cfg["encoder_ffn_dim"] != cfg["decoder_ffn_dim"]:
        return None
    return (f"--d-model {cfg['d_model']} --heads {cfg['encoder_heads']} --ffn {cfg['encoder_ffn_dim']} "
            f"--enc-layers {cfg['encoder_layers']} --dec-layers {cfg['decoder_layers']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="an .emt file")
    ap.add_argument("--weights", help="write the MarianMT weights here (safetensors)")
    ap.add_argument("--spm", help="write the vocabulary into this directory")
    ap.add_argument("--info", action="store_true")
    args = ap.parse_args()
    try:
        model = read_model(args.model)
        cfg = config_of(model)
        if args.info or not (args.weights or args.spm):
            print(json.dumps({"config": cfg, "train_py": train_args(cfg),
                              "activation": ACTIVATIONS.get(cfg["activation"])}, indent=1))
        if args.weights:
            _, state = hf_state(model)
            write_safetensors(args.weights, state)
            print(f"{args.weights}: {len(state)} tensors, "
                  f"{sum(len(v) for _, v in state.values()) / 1e6:.2f} M values", file=sys.stderr)
        if args.spm:
            vocab = write_spm(model, args.spm)
            print(f"{args.spm}: {len(vocab)} ids", file=sys.stderr)
    except (EmtError, OSError, struct.error) as e:
        sys.exit(f"from_emt: {e}")


if __name__ == "__main__":
    main()
