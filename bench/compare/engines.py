#!/usr/bin/env python3
"""One benchmark run of CTranslate2 or transformers, in its own process (compare.py runs it).

    python3 engines.py ct2 --model CT2_DIR --compute-type float32|int8 --vocab VOCAB.json ...
    python3 engines.py hf  --model HF_DIR  [--int8] ...
common: --ids FILE --threads N --beam N --max-new-tokens N --batch N --warmup N --repeat N
        --latency N --output-ids FILE [--cold]

Measures exactly what edgemt-bench-translate (bench/translate_bench.cc) measures, the same
way: the input is source token ids (one line per sentence, ending with eos), so
tokenization is not timed in any engine;
  load_ms             model construction (ctranslate2.Translator(...) /
                      MarianMTModel.from_pretrained(...) [+ quantize_dynamic]); with --cold
                      the model files are first evicted from the page cache
  first_sentence_ms   the first translation after loading (one sentence)
  throughput          the whole file at --batch sentences per batch, sorted by length
                      (longest first, as edgemt and CTranslate2's max_batch_size do), median
                      of --repeat passes, generated tokens (without eos) per second
  latency             the first --latency sentences one at a time, p50/p90 in ms
  peak_rss_kib        VmHWM at the end (peak resident memory of this process image;
                      getrusage's ru_maxrss would include the RSS of the parent that
                      forked us); baseline_rss_kib is VmRSS after the imports, before
                      loading the model (the interpreter and libraries)
Prints one JSON object on standard output.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
import warnings

warnings.filterwarnings("ignore")


def percentile(v, p):
    if not v:
        return 0.0
    v = sorted(v)
    pos = p / 100.0 * (len(v) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def cpu_seconds():
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def proc_status_kib(key):
    with open("/proc/self/status") as f:
        for ln in f:
            if ln.startswith(key + ":"):
                return int(ln.split()[1])
    return 0


def vm_rss_kib():
    return proc_status_kib("VmRSS")


def evict(paths):
    for p in paths:
        try:
            fd = os.open(p, os.O_RDONLY)
        except OSError:
            continue
        try:
            os.fdatasync(fd)
        except OSError:
            pass
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)


def model_files(d):
    return [os.path.join(d, f) for f in os.listdir(d) if os.path.isfile(os.path.join(d, f))]


def read_ids(path):
    out = []
    with open(path) as f:
        for ln in f:
            ids = [int(x) for x in ln.split()]
            if ids:
                out.append(ids)
    return out


def batches_by_length(n_items, lengths, batch):
    order = sorted(range(n_items), key=lambda i: -lengths[i])  # stable: longest first
    return [order[i:i + batch] for i in range(0, n_items, batch)]


# ------------------------------------------------------------------------------------------
class Ct2Engine:
    def __init__(self, a):
        import ctranslate2

        self.ct2 = ctranslate2
        with open(a.vocab, encoding="utf-8") as f:
            vocab = json.load(f)
        self.id2tok = {v: k for k, v in vocab.items()}
        self.tok2id = vocab
        self.a = a
        self.eos = self.id2tok[0]
        self.version = ctranslate2.__version__

    def load(self):
        a = self.a
        self.tr = self.ct2.Translator(a.model, device="cpu", compute_type=a.compute_type,
                                      inter_threads=1, intra_threads=a.threads)

    def prepare(self, sources):
        return [[self.id2tok[i] for i in s] for s in sources]

    def translate(self, prepared, batch):
        a = self.a
        res = self.tr.translate_batch(prepared, max_batch_size=batch, batch_type="examples",
                                      beam_size=a.beam, num_hypotheses=1, max_decoding_length=a.max_new_tokens,
                                      return_end_token=False, return_scores=False)
        return [[self.tok2id[t] for t in r.hypotheses[0]] for r in res]


class HfEngine:
    def __init__(self, a):
        import torch
        import transformers

        transformers.logging.set_verbosity_error()
        try:
            transformers.utils.logging.disable_progress_bar()
        except Exception:
            pass
        torch.set_num_threads(a.threads)
        try:
            torch.set_num_interop_threads(1)
        except RuntimeError:
            pass
        self.torch = torch
        self.a = a
        self.version = f"transformers {transformers.__version__}, torch {torch.__version__}"

    def load(self):
        from transformers import MarianMTModel

        torch = self.torch
        m = MarianMTModel.from_pretrained(self.a.model).eval()
        if self.a.int8:
            from torch.ao.quantization import quantize_dynamic

            m = quantize_dynamic(m, {torch.nn.Linear}, dtype=torch.qint8)
        gc = m.generation_config
        gc.max_length = None
        self.model = m
        self.pad = m.config.pad_token_id
        self.eos = m.config.eos_token_id

    def prepare(self, sources):
        return sources

    def translate(self, sources, batch):
        torch = self.torch
        a = self.a
        out = [None] * len(sources)
        for idx in batches_by_length(len(sources), [len(s) for s in sources], batch):
            n = max(len(sources[i]) for i in idx)
            ids = torch.full((len(idx), n), self.pad, dtype=torch.long)
            mask = torch.zeros((len(idx), n), dtype=torch.long)
            for r, i in enumerate(idx):
                ids[r, :len(sources[i])] = torch.tensor(sources[i])
                mask[r, :len(sources[i])] = 1
            with torch.inference_mode():
                y = self.model.generate(input_ids=ids, attention_mask=mask, num_beams=a.beam, do_sample=False,
                                        max_new_tokens=a.max_new_tokens, num_return_sequences=1)
            for r, i in enumerate(idx):
                seq = y[r, 1:].tolist()  # drop the decoder start
                if self.eos in seq:
                    seq = seq[:seq.index(self.eos)]
                while seq and seq[-1] == self.pad:
                    seq.pop()
                out[i] = seq
        return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine", choices=["ct2", "hf"])
    ap.add_argument("--model", required=True)
    ap.add_argument("--vocab", help="ct2: the HF vocab.json (id <-> token)")
    ap.add_argument("--compute-type", default="float32", help="ct2: float32, int8, int8_float32")
    ap.add_argument("--int8", action="store_true", help="hf: torch dynamic int8 quantization of nn.Linear")
    ap.add_argument("--ids", required=True)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--beam", type=int, default=1)
    ap.add_argument("--max-new-tokens", type=int, default=64)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--latency", type=int, default=-1)
    ap.add_argument("--output-ids")
    ap.add_argument("--cold", action="store_true")
    a = ap.parse_args()

    eng = Ct2Engine(a) if a.engine == "ct2" else HfEngine(a)
    sources = read_ids(a.ids)
    baseline = vm_rss_kib()
    if a.cold:
        evict(model_files(a.model))
    t0 = time.perf_counter()
    eng.load()
    load_ms = (time.perf_counter() - t0) * 1e3
    prepared = eng.prepare(sources)

    first_ms = 0.0
    if a.warmup > 0:
        t0 = time.perf_counter()
        eng.translate(prepared[:1], 1)
        first_ms = (time.perf_counter() - t0) * 1e3
        eng.translate(prepared[:a.warmup], a.batch)

    passes = []
    outputs = None
    cpu0 = cpu_seconds()
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        outputs = eng.translate(prepared, a.batch)
        passes.append(time.perf_counter() - t0)
    tp_cpu = (cpu_seconds() - cpu0) / a.repeat
    tp_s = percentile(passes, 50)
    tp_tokens = sum(len(o) for o in outputs)
    if a.output_ids:
        with open(a.output_ids, "w") as f:
            for o in outputs:
                f.write(" ".join(map(str, o)) + "\n")

    nlat = len(prepared) if a.latency < 0 else min(a.latency, len(prepared))
    lat, lat_tokens = [], 0
    cpu0 = cpu_seconds()
    for i in range(nlat):
        t0 = time.perf_counter()
        o = eng.translate(prepared[i:i + 1], 1)
        lat.append((time.perf_counter() - t0) * 1e3)
        lat_tokens += len(o[0])

    lat_cpu = cpu_seconds() - cpu0
    ru = resource.getrusage(resource.RUSAGE_SELF)
    res = {
        "engine": {"ct2": "ctranslate2", "hf": "transformers"}[a.engine],
        "version": eng.version,
        "model": a.model,
        "file_bytes": sum(os.path.getsize(p) for p in model_files(a.model)
                          if p.endswith((".bin", ".safetensors"))),
        "weights": ("int8" if (a.int8 or a.compute_type.startswith("int8")) else "float32"),
        "compute_type": a.compute_type if a.engine == "ct2" else ("dynamic-int8" if a.int8 else "float32"),
        "threads": a.threads, "beam": a.beam, "batch": a.batch, "max_length": a.max_new_tokens,
        "load_ms": load_ms, "load_cold": a.cold, "first_sentence_ms": first_ms,
        "sentences": len(sources), "source_tokens": sum(len(s) for s in sources),
        "throughput": {"passes": a.repeat, "seconds": tp_s, "target_tokens": tp_tokens,
                       "tokens_per_s": tp_tokens / tp_s if tp_s > 0 else 0.0,
                       "sentences_per_s": len(sources) / tp_s if tp_s > 0 else 0.0, "cpu_s": tp_cpu},
        "latency": {"sentences": nlat, "target_tokens": lat_tokens, "p50_ms": percentile(lat, 50),
                    "p90_ms": percentile(lat, 90), "mean_ms": sum(lat) / len(lat) if lat else 0.0,
                    "max_ms": max(lat) if lat else 0.0, "cpu_s": lat_cpu},
        "baseline_rss_kib": baseline,
        "peak_rss_kib": proc_status_kib("VmHWM"),
        "ru_maxrss_kib": ru.ru_maxrss,
        "cpu_user_s": ru.ru_utime, "cpu_sys_s": ru.ru_stime,
    }
    json.dump(res, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
