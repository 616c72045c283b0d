#!/usr/bin/env python3
"""Tests of tools/train/from_emt.py: the MarianMT weights it reads back from the parity
models' .emt files (converted by edgemt-convert from the committed MarianMT directories)
are the directories' own, exactly for float32 files and within half a quantization step
for int8 ones; and its vocabulary is theirs. Standard library only.

  from_emt_test.py PARITY_SOURCE_DIR PARITY_BUILD_DIR
"""
import array
import json
import os
import struct
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "train"))
import from_emt  # noqa: E402

SRC, OUT = None, None


def read_safetensors(path):
    with open(path, "rb") as f:
        b = f.read()
    n = struct.unpack_from("<Q", b, 0)[0]
    header = json.loads(b[8:8 + n])
    out = {}
    for name, h in header.items():
        if name == "__metadata__":
            continue
        assert h["dtype"] == "F32", (name, h["dtype"])
        lo, hi = h["data_offsets"]
        out[name] = (h["shape"], array.array("f", b[8 + n + lo:8 + n + hi]))
    return out


def models():
    names = sorted(d for d in os.listdir(SRC) if os.path.isfile(os.path.join(SRC, d, "reference.json")))
    assert names, f"no parity models in {SRC}"
    return names


def expected_name(hf, name):
    """The checkpoint's tensor for a name from_emt writes (tied/shared copies)."""
    if name in hf:
        return name
    if name == "model.shared.weight":
        return "model.encoder.embed_tokens.weight"
    return None


class FromEmtTest(unittest.TestCase):
    def test_float32_files_give_back_the_checkpoint_exactly(self):
        for m in models():
            with self.subTest(model=m):
                hf = read_safetensors(os.path.join(SRC, m, "model.safetensors"))
                cfg, state = from_emt.hf_state(from_emt.read_model(os.path.join(OUT, m + ".emt")))
                self.assertGreater(len(state), 10)
                for name, (shape, vals) in state.items():
                    ref = expected_name(hf, name)
                    self.assertIsNotNone(ref, f"{m}: {name} is not in the checkpoint")
                    rshape, rvals = hf[ref]
                    if name == "final_logits_bias":
                        rshape = [1, rshape[-1]]
                    self.assertEqual(shape, rshape, f"{m}: {name}")
                    self.assertEqual(vals.tobytes(), rvals.tobytes(), f"{m}: {name}")
                # Every trained tensor of the checkpoint comes back (positions are fixed
                # tables, the tied lm_head and per-stack copies of shared embeddings aside).
                back = {expected_name(hf, n) for n in state}
                for name in hf:
                    if "embed_positions" in name or name in back:
                        continue
                    if cfg["tied_output"] and name == "lm_head.weight":
                        continue
                    if cfg["shared_embeddings"] and name.endswith("embed_tokens.weight"):
                        continue
                    if name == "model.shared.weight" and not cfg["shared_embeddings"]:
                        continue
                    if name == "final_logits_bias" and not any(hf[name][1]):
                        continue
                    self.fail(f"{m}: {name} is not read back")

    def test_int8_files_give_back_the_weights_within_half_a_step(self):
        for m in models():
            with self.subTest(model=m):
                hf = read_safetensors(os.path.join(SRC, m, "model.safetensors"))
                _, state = from_emt.hf_state(from_emt.read_model(os.path.join(OUT, m + ".int8.emt")))
                for name, (shape, vals) in state.items():
                    rshape, rvals = hf[expected_name(hf, name)]
                    self.assertEqual(len(vals), len(rvals), f"{m}: {name}")
                    if len(rshape) != 2:
                        continue
                    rows, k = rshape
                    for r in range(rows):
                        ref = rvals[r * k:(r + 1) * k]
                        step = max(abs(v) for v in ref) / 127 or 1.0
                        worst = max(abs(a - b) for a, b in zip(vals[r * k:(r + 1) * k], ref))
                        self.assertLessEqual(worst, 0.5001 * step, f"{m}: {name} row {r}")

    def test_vocabulary_and_safetensors_file(self):
        m = models()[0]
        model = from_emt.read_model(os.path.join(OUT, m + ".emt"))
        with tempfile.TemporaryDirectory() as tmp:
            vocab = from_emt.write_spm(model, os.path.join(tmp, "spm"))
            with open(os.path.join(SRC, m, "vocab.json"), encoding="utf-8") as f:
                self.assertEqual(vocab, json.load(f))
            with open(os.path.join(SRC, m, "source.spm"), "rb") as f, \
                    open(os.path.join(tmp, "spm", "source.spm"), "rb") as g:
                self.assertEqual(f.read(), g.read())
            _, state = from_emt.hf_state(model)
            path = os.path.join(tmp, "w.safetensors")
            from_emt.write_safetensors(path, state)
            back = read_safetensors(path)
            self.assertEqual(set(back), set(state))
            for name, (shape, vals) in state.items():
                self.assertEqual(back[name][0], shape)
                self.assertEqual(back[name][1].tobytes(), vals.tobytes())

    def test_not_a_model_file_is_an_error(self):
        with tempfile.NamedTemporaryFile(suffix=".emt") as f:
            f.write(b"\x10\x00\x00\x00\x08\x00\x00\x00NOPE" + bytes(16))
            f.flush()
            with self.assertRaises(from_emt.EmtError):
                from_emt.read_model(f.name)


if __name__ == "__main__":
    SRC, OUT = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
