#!/usr/bin/env python3
"""Side-by-side benchmark: edgemt vs CTranslate2 vs transformers on the same MarianMT models.

    python3 bench/compare/compare.py [--quick] [options]

For each model (the bundled trained model's HF directory, /work/edgemt-data/model-hf, when
it exists; the Opus-MT-base-sized random model made by tools/make_bench_model.py), it
  1. converts the HF directory with each engine's own converter: edgemt-convert (float32
     and --quantize int8) and ct2-transformers-converter (float32 and --quantization int8),
     cached under --cache, redone when the HF directory changes;
  2. tokenizes bench/compare/sentences.en once with MarianTokenizer; every engine gets the
     same source ids (tokenization is not timed);
  3. runs every configuration (threads 1 and 2 x beam 1 and 4 x float32 and int8) with
     every engine, each run in its own process (so peak RSS is per engine), interleaved:
     for each repetition, for each configuration, each engine in turn (the engine order
     rotates between repetitions); reports the median over --repeats repetitions;
  4. measures a cold start per engine (model files evicted from the page cache, then
     load + one sentence);
  5. compares the generated token ids of the engines sentence by sentence;
  6. for configurations where edgemt is slower than CTranslate2, records
     `translate --profile` (edgemt's per-op profile) of the same work;
and writes results/compare.json (all runs), results/compare.md (tables: absolute numbers,
edgemt / CTranslate2 ratios, token agreement, profiles) and results/compare.png.

Engines and what "int8" means for each:
  edgemt        edgemt-bench-translate (bench/translate_bench.cc) on the .emt file;
                int8 = edgemt-convert --quantize int8 (int8 weights, per-channel scales)
  ctranslate2   ctranslate2.Translator(inter_threads=1, intra_threads=N); float32 model with
                compute_type float32; int8 = converted with --quantization int8, run with
                compute_type int8
  transformers  MarianMTModel.generate, torch.set_num_threads(N), float32; with --hf-int8
                also torch dynamic int8 quantization of nn.Linear (quantize_dynamic)

Identical work: the random model can never generate eos or pad (final_logits_bias -1e4,
see tools/make_bench_model.py), and every engine gets the same limit (edgemt --max-length
N, CTranslate2 max_decoding_length=N, transformers max_new_tokens=N), so every sentence
yields exactly N tokens in every engine; the run checks the counts. The trained model
stops at eos, so its engines may do slightly different work (token counts are reported).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DATA = "/work/edgemt-data"
ENGINES = ["edgemt", "ctranslate2", "transformers"]


def log(*a):
    print(f"[compare {time.strftime('%H:%M:%S')}]", *a, file=sys.stderr, flush=True)


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw)


# ------------------------------------------------------------------------------------------
# machine
# ------------------------------------------------------------------------------------------
def machine_info(build_dir):
    info = {"date": datetime.datetime.now().isoformat(timespec="seconds"), "python": platform.python_version(),
            "kernel": platform.release(), "cores": os.cpu_count()}
    try:
        out = sh(["lscpu"]).stdout
        for ln in out.splitlines():
            k, _, v = ln.partition(":")
            k, v = k.strip(), v.strip()
            if k in ("Model name", "CPU(s)", "Thread(s) per core", "Core(s) per socket", "L2 cache", "L3 cache"):
                info[k] = v
            if k == "Flags":
                info["simd"] = " ".join(f for f in ("avx2", "fma", "avx512f", "avx512_vnni", "avx_vnni")
                                        if f in v.split())
    except Exception:
        pass
    try:
        with open("/proc/meminfo") as f:
            info["mem_total_gib"] = round(int(f.readline().split()[1]) / 1048576, 1)
    except Exception:
        pass
    snap = os.path.join(os.path.dirname(os.path.abspath(build_dir)), "SNAPSHOT_OF")
    if os.path.exists(snap):  # bench/compare/build_head.sh
        with open(snap) as f:
            info["edgemt_build"] = f"commit {f.read().strip()} (clean snapshot, build_head.sh)"
    else:
        try:
            commit = sh(["git", "-C", REPO, "rev-parse", "--short", "HEAD"]).stdout.strip()
            dirty = sh(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"]).stdout.strip()
            info["edgemt_build"] = f"work tree at {commit}" + (" with uncommitted changes" if dirty else "")
        except Exception:
            info["edgemt_build"] = "unknown"
    info["edgemt_build_dir"] = build_dir
    # Versions without importing the packages: this process stays small, since a child's
    # getrusage ru_maxrss starts from its parent's RSS at fork (the engines report VmHWM).
    from importlib import metadata

    for pkg in ("ctranslate2", "transformers", "torch"):
        try:
            info[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            info[pkg] = "not installed"
    info["loadavg_start"] = os.getloadavg()
    return info


def ct2_backend(ct2_dir):
    """CTranslate2's CPU ISA and GEMM backends here (it uses MKL only on Intel CPUs)."""
    try:
        env = dict(os.environ, CT2_VERBOSE="1")
        r = subprocess.run([sys.executable, "-c", "import sys, ctranslate2; ctranslate2.Translator(sys.argv[1])",
                            ct2_dir], env=env, text=True, capture_output=True, timeout=300)
        lines = [ln.split("[info]", 1)[1].strip(" -") for ln in r.stderr.splitlines()
                 if "[info]" in ln and "Loaded model" not in ln and "version" not in ln and "revision" not in ln]
        return "; ".join(lines) if lines else "unknown"
    except Exception:
        return "unknown"


# ------------------------------------------------------------------------------------------
# preparation
# ------------------------------------------------------------------------------------------
def dir_stamp(d):
    h = hashlib.sha256()
    for f in sorted(os.listdir(d)):
        p = os.path.join(d, f)
        if os.path.isfile(p):
            st = os.stat(p)
            h.update(f"{f}:{st.st_size}:{int(st.st_mtime)}".encode())
    return h.hexdigest()[:16]


def convert_ct2(hf_dir, out, quant):
    """ct2-transformers-converter, else its Python API (same converter)."""
    tool = shutil.which("ct2-transformers-converter")
    if tool:
        cmd = [tool, "--model", hf_dir, "--output_dir", out, "--force"]
        if quant:
            cmd += ["--quantization", quant]
        r = subprocess.run(cmd, text=True, capture_output=True)
        if r.returncode == 0:
            return "ct2-transformers-converter" + (f" --quantization {quant}" if quant else "")
        log(f"ct2-transformers-converter failed ({r.stderr.strip().splitlines()[-1:]}), trying the Python API")
    code = ("import sys, ctranslate2; ctranslate2.converters.TransformersConverter(sys.argv[1])"
            ".convert(sys.argv[2], quantization=(sys.argv[3] or None), force=True)")
    sh([sys.executable, "-c", code, hf_dir, out, quant or ""])
    return "ctranslate2.converters.TransformersConverter" + (f"(quantization={quant})" if quant else "")


def pad_row_abs_sum(hf_dir):
    """Sum of |x| of the pad (decoder start) embedding row. CTranslate2 starts Marian decoders
    from a zero embedding instead of that row: the same only when the row is zero, as in
    Opus-MT checkpoints."""
    code = r"""
import json, sys
from safetensors import safe_open
with open(sys.argv[1] + "/config.json") as f:
    pad = json.load(f)["pad_token_id"]
with safe_open(sys.argv[1] + "/model.safetensors", "np") as f:
    name = next(k for k in ("model.shared.weight", "model.decoder.embed_tokens.weight") if k in f.keys())
    print(float(abs(f.get_slice(name)[pad:pad + 1]).sum()))
"""
    try:
        return float(sh([sys.executable, "-c", code, hf_dir]).stdout.strip())
    except Exception:
        return None


def prepare_model(m, args, bins):
    """Converts (cached) and tokenizes; fills m['files'] and m['ids']."""
    cache = os.path.join(args.cache, m["name"])
    os.makedirs(cache, exist_ok=True)
    stamp = dir_stamp(m["hf_dir"])
    stamp_file = os.path.join(cache, "stamp.json")
    old = {}
    if os.path.exists(stamp_file):
        with open(stamp_file) as f:
            old = json.load(f)
    fresh = old.get("hf") == stamp
    files = {}
    # edgemt: always reconverted (seconds), so the file matches the current converter.
    int8 = ["--quantize", "int8", "--int8-weight-bits", str(args.edgemt_int8_weight_bits)]
    for prec, extra in (("float32", []), ("int8", int8)):
        out = os.path.join(cache, f"edgemt-{prec}.emt")
        t0 = time.time()
        sh([bins["convert"], *extra, m["hf_dir"], out])
        files[("edgemt", prec)] = out
        log(f"{m['name']}: edgemt-convert {prec} in {time.time() - t0:.1f} s")
    notes = {}
    for prec, quant in (("float32", None), ("int8", "int8")):
        out = os.path.join(cache, f"ct2-{prec}")
        if not (fresh and os.path.exists(os.path.join(out, "model.bin")) and old.get(f"ct2-{prec}")):
            t0 = time.time()
            notes[f"ct2-{prec}"] = convert_ct2(m["hf_dir"], out, quant)
            log(f"{m['name']}: CTranslate2 {prec} converted in {time.time() - t0:.0f} s")
        else:
            notes[f"ct2-{prec}"] = old[f"ct2-{prec}"]
        files[("ctranslate2", prec)] = out
    files[("transformers", "float32")] = m["hf_dir"]
    files[("transformers", "int8")] = m["hf_dir"]
    with open(stamp_file, "w") as f:
        json.dump({"hf": stamp, **notes}, f)
    m["converters"] = notes
    m["files"] = files

    # Source ids (MarianTokenizer), all sentences; subsets are prefixes.
    code = r"""
import sys, warnings
warnings.filterwarnings("ignore")
import transformers
transformers.logging.set_verbosity_error()
from transformers import MarianTokenizer
tok = MarianTokenizer.from_pretrained(sys.argv[1])
with open(sys.argv[2], encoding="utf-8") as f:
    lines = [l.rstrip("\n") for l in f]
with open(sys.argv[3], "w") as f:
    for l in lines:
        f.write(" ".join(map(str, tok(l)["input_ids"])) + "\n")
"""
    ids_all = os.path.join(cache, "ids_all.txt")
    sh([sys.executable, "-c", code, m["hf_dir"], args.sentences_file, ids_all])
    with open(ids_all) as f:
        lines = [ln for ln in f if ln.strip()]
    n = min(m["sentences"], len(lines))
    m["ids"] = os.path.join(cache, f"ids_{n}.txt")
    with open(m["ids"], "w") as f:
        f.writelines(lines[:n])
    m["n_sentences"] = n
    m["source_tokens"] = sum(len(ln.split()) for ln in lines[:n])
    m["ids_one"] = os.path.join(cache, "ids_1.txt")
    with open(m["ids_one"], "w") as f:
        f.writelines(lines[:1])
    m["pad_row_abs_sum"] = pad_row_abs_sum(m["hf_dir"])
    m["file_bytes"] = {}
    for (eng, prec), p in files.items():
        if os.path.isdir(p):
            m["file_bytes"][f"{eng}/{prec}"] = sum(
                os.path.getsize(os.path.join(p, x)) for x in os.listdir(p) if x.endswith((".bin", ".safetensors")))
        else:
            m["file_bytes"][f"{eng}/{prec}"] = os.path.getsize(p)


# ------------------------------------------------------------------------------------------
# running
# ------------------------------------------------------------------------------------------
def engine_cmd(engine, prec, m, cfg, args, bins, ids, out_ids=None, cold=False, latency=None, warmup=None):
    t, beam = cfg["threads"], cfg["beam"]
    n = m["max_new_tokens"]
    lat = m["latency"] if latency is None else latency
    wu = args.warmup if warmup is None else warmup
    f = m["files"][(engine, prec)]
    if engine == "edgemt":
        cmd = [bins["bench"], "--model", f, "--input", ids, "--ids", "--threads", str(t), "--beam", str(beam),
               "--max-length", str(n), "--batch", str(args.batch), "--warmup", str(wu), "--latency", str(lat),
               "--load-repeats", "0"]
        if cold:
            cmd.append("--cold-load")
    else:
        cmd = [sys.executable, os.path.join(HERE, "engines.py"), "ct2" if engine == "ctranslate2" else "hf",
               "--model", f, "--ids", ids, "--threads", str(t), "--beam", str(beam), "--max-new-tokens", str(n),
               "--batch", str(args.batch), "--warmup", str(wu), "--latency", str(lat)]
        if engine == "ctranslate2":
            cmd += ["--vocab", os.path.join(m["hf_dir"], "vocab.json"), "--compute-type",
                    "float32" if prec == "float32" else "int8"]
        elif prec == "int8":
            cmd.append("--int8")
        if cold:
            cmd.append("--cold")
    if out_ids:
        cmd += ["--output-ids", out_ids]
    return cmd


# Read by the engines: edgemt's kernel level, CTranslate2's ISA and its oneDNN's.
ISA_ENV = ("EDGEMT_ISA", "CT2_FORCE_CPU_ISA", "ONEDNN_MAX_CPU_ISA")
OMP_ENV = {"OMP_WAIT_POLICY": "PASSIVE", "KMP_BLOCKTIME": "0"}


def run_one(cmd, threads):
    """Runs one engine process; returns its JSON plus the child's rusage (wait4)."""
    env = dict(os.environ)
    env.update(OMP_ENV)
    for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        env[k] = str(threads)
    env["TOKENIZERS_PARALLELISM"] = "false"
    env["HF_HUB_OFFLINE"] = "1"
    env["TRANSFORMERS_OFFLINE"] = "1"
    load0 = os.getloadavg()[0]
    t0 = time.time()
    with open(os.devnull, "w") as devnull:
        import tempfile

        with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
            p = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, text=True)
            _, status, ru = os.wait4(p.pid, 0)
            p.returncode = os.waitstatus_to_exitcode(status)
            wall = time.time() - t0
            out.seek(0)
            err.seek(0)
            text, etext = out.read(), err.read()
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}):\n{etext[-3000:]}")
    r = json.loads(text)
    r["process"] = {"wall_s": round(wall, 3), "wait4_maxrss_kib": ru.ru_maxrss, "user_s": round(ru.ru_utime, 3),
                    "sys_s": round(ru.ru_stime, 3), "loadavg_1m_before": round(load0, 2)}
    return r


def read_ids_file(p):
    with open(p) as f:
        return [[int(x) for x in ln.split()] for ln in f]


def agreement(a, b):
    """Sentences with identical ids (%), and the mean shared-prefix fraction (%)."""
    same = sum(1 for x, y in zip(a, b) if x == y)
    pref = []
    for x, y in zip(a, b):
        k = 0
        while k < min(len(x), len(y)) and x[k] == y[k]:
            k += 1
        pref.append(k / max(len(x), len(y), 1))
    n = max(len(a), 1)
    return {"identical_pct": round(100.0 * same / n, 1), "prefix_pct": round(100.0 * sum(pref) / n, 1),
            "sentences": len(a)}


def med(v):
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else None


# ------------------------------------------------------------------------------------------
# reporting
# ------------------------------------------------------------------------------------------
def fmt(x, nd=1):
    if x is None:
        return "–"
    if isinstance(x, float) and abs(x) >= 100:
        return f"{x:.0f}"
    return f"{x:.{nd}f}"


def summarize(runs, models, configs, engines_for):
    """Median per (model, config, engine)."""
    rows = []
    for m in models:
        for cfg in configs:
            for eng in engines_for(cfg):
                rs = [r for r in runs if r["key"] == (m["name"], cfg["threads"], cfg["beam"], cfg["precision"], eng)]
                if not rs:
                    continue
                tp = [r["result"]["throughput"]["tokens_per_s"] for r in rs]
                row = {
                    "model": m["name"], "threads": cfg["threads"], "beam": cfg["beam"], "precision": cfg["precision"],
                    "engine": eng, "repeats": len(rs),
                    "tokens_per_s": med(tp), "tokens_per_s_min": min(tp), "tokens_per_s_max": max(tp),
                    "target_tokens": rs[0]["result"]["throughput"]["target_tokens"],
                    "p50_ms": med([r["result"]["latency"]["p50_ms"] for r in rs]),
                    "p90_ms": med([r["result"]["latency"]["p90_ms"] for r in rs]),
                    "load_ms": med([r["result"]["load_ms"] for r in rs]),
                    "peak_rss_mib": med([r["result"]["peak_rss_kib"] / 1024 for r in rs]),
                    "baseline_rss_mib": med([r["result"].get("baseline_rss_kib", 0) / 1024 for r in rs]),
                    "cpu_ms_per_token": med([1e3 * r["result"]["throughput"]["cpu_s"]
                                             / max(r["result"]["throughput"]["target_tokens"], 1) for r in rs]),
                    "file_mib": m["file_bytes"][f"{eng}/{cfg['precision']}"] / 1048576,
                    "loadavg": med([r["result"]["process"]["loadavg_1m_before"] for r in rs]),
                }
                rows.append(row)
    return rows


def write_markdown(path, info, models, skipped, rows, agree, cold, profiles, args, elapsed):
    L = []
    L.append("# edgemt vs CTranslate2 vs transformers\n")
    L.append(f"Generated by `bench/compare/compare.py{' --quick' if args.quick else ''}` on {info['date']} "
             f"in {elapsed / 60:.1f} min.\n")
    L.append(f"Machine: {info.get('Model name', '?')}, {info.get('CPU(s)', info['cores'])} CPUs "
             f"({info.get('Core(s) per socket', '?')} cores/socket, {info.get('Thread(s) per core', '?')} "
             f"thread/core), SIMD {info.get('simd', '?')}, {info.get('mem_total_gib', '?')} GiB; "
             f"load average at start {info['loadavg_start'][0]:.1f} (the machine is shared: see the "
             f"loadavg column). Versions: edgemt {info.get('edgemt_build', '?')}, CTranslate2 "
             f"{info.get('ctranslate2')}, transformers {info.get('transformers')}, torch {info.get('torch')}. CTranslate2 on this CPU: "
             f"{info.get('ctranslate2_cpu', '?')}.\n")
    if info.get("isa_env"):
        L.append("Instruction sets forced for this run: " +
                 ", ".join(f"`{k}={v}`" for k, v in info["isa_env"].items()) + ".\n")
    if info.get("edgemt_int8_weight_bits", 8) != 8:
        L.append(f"edgemt's int8 model: `edgemt-convert --quantize int8 --int8-weight-bits "
                 f"{info['edgemt_int8_weight_bits']}`.\n")
    if info.get("engine_env"):
        L.append("Engine processes run with " + ", ".join(f"`{k}={v}`" for k, v in info["engine_env"].items()) +
                 ": on a shared, oversubscribed machine OpenMP's default busy-waiting makes CTranslate2 and torch "
                 "at 2 threads 10-100x slower than at 1 (`--omp-default` keeps the defaults).\n")
    L.append(f"Each number is the median of {args.repeats} interleaved runs, each engine in its own process. "
             f"tokens/s: generated tokens (eos excluded) over the throughput set at batch {args.batch}; "
             "p50/p90: per-sentence latency at batch 1; load: model construction, warm page cache; RSS: peak "
             "resident memory of the engine's process (the Python engines include the interpreter and "
             "libraries, baseline column); CPU ms/token: process CPU time of the throughput pass per generated "
             "token (robust to other load on the machine, but counts spinning threads).\n")
    for s in skipped:
        L.append(f"- **skipped**: {s}\n")
    for m in models:
        L.append(f"\n## {m['title']}\n")
        L.append(f"{m['desc']} Throughput set: the first {m['n_sentences']} sentences of "
                 f"`bench/compare/sentences.en` ({m['source_tokens']} source tokens); latency: the first "
                 f"{m['latency']}; at most {m['max_new_tokens']} new tokens.\n")
        if m.get("pad_row_abs_sum"):
            L.append(f"Note: this checkpoint's pad (decoder start) embedding row is not zero (sum of |x| = "
                     f"{m['pad_row_abs_sum']:.2f}). CTranslate2's Marian converter assumes it is (it starts the "
                     "decoder from a zero embedding, right for Opus-MT checkpoints), so CTranslate2 decodes a "
                     "slightly different model here and its tokens differ from edgemt's and transformers'.\n")
        L.append("| threads | beam | precision | engine | tokens/s | p50 ms | p90 ms | load ms | peak RSS MiB "
                 "| (baseline) | file MiB | CPU ms/token | tokens | loadavg |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            if r["model"] != m["name"]:
                continue
            eng = r["engine"] + (" (dyn. int8)" if r["engine"] == "transformers" and r["precision"] == "int8" else "")
            L.append(f"| {r['threads']} | {r['beam']} | {r['precision']} | {eng} | {fmt(r['tokens_per_s'])} | "
                     f"{fmt(r['p50_ms'])} | {fmt(r['p90_ms'])} | {fmt(r['load_ms'])} | {fmt(r['peak_rss_mib'], 0)} | "
                     f"{fmt(r['baseline_rss_mib'] or None, 0)} | {fmt(r['file_mib'])} | {fmt(r['cpu_ms_per_token'], 2)} | "
                     f"{r['target_tokens']} | {fmt(r['loadavg'])} |")
        # ratios
        L.append(f"\n**edgemt / CTranslate2** ({m['title']}): tokens/s > 1 means edgemt is faster; latency, "
                 "load, RSS, file and CPU/token < 1 mean edgemt is lower (better).\n")
        L.append("| threads | beam | precision | tokens/s | p50 | p90 | load | peak RSS | file | CPU/token |")
        L.append("|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            if r["model"] != m["name"] or r["engine"] != "edgemt":
                continue
            c = [x for x in rows if x["model"] == m["name"] and x["engine"] == "ctranslate2" and x["threads"] ==
                 r["threads"] and x["beam"] == r["beam"] and x["precision"] == r["precision"]]
            if not c:
                continue
            c = c[0]

            def ratio(k):
                return fmt(r[k] / c[k], 2) if r[k] and c[k] else "–"

            L.append(f"| {r['threads']} | {r['beam']} | {r['precision']} | {ratio('tokens_per_s')} | {ratio('p50_ms')} "
                     f"| {ratio('p90_ms')} | {ratio('load_ms')} | {ratio('peak_rss_mib')} | {ratio('file_mib')} | "
                     f"{ratio('cpu_ms_per_token')} |")
        cs = [c for c in cold if c["model"] == m["name"]]
        if cs:
            L.append(f"\n**Cold start** ({m['title']}, 1 thread, greedy): model files evicted from the page cache "
                     "(posix_fadvise DONTNEED), then load and translate one sentence; median of "
                     f"{args.repeats}. edgemt maps the file, so its load is short and the first sentence pays "
                     "the page faults.\n")
            L.append("| precision | engine | load ms | first sentence ms | total ms |")
            L.append("|---|---|---|---|---|")
            for c in cs:
                L.append(f"| {c['precision']} | {c['engine']} | {fmt(c['load_ms'])} | {fmt(c['first_ms'])} | "
                         f"{fmt(c['load_ms'] + c['first_ms'])} |")
        ag = [a for a in agree if a["model"] == m["name"]]
        if ag:
            L.append(f"\n**Token agreement** ({m['title']}): generated ids compared sentence by sentence over the "
                     "throughput set; identical = % of sentences with exactly the same ids, prefix = mean % of "
                     "tokens before the first difference.\n")
            L.append("| threads | beam | compared | identical % | prefix % |")
            L.append("|---|---|---|---|---|")
            for a in ag:
                L.append(f"| {a['threads']} | {a['beam']} | {a['pair']} | {fmt(a['identical_pct'])} | "
                         f"{fmt(a['prefix_pct'])} |")
    if profiles:
        L.append("\n## edgemt profiles where it is slower than CTranslate2\n")
        L.append("`translate --profile` (the CLI's per-op table) on the same input ids and settings, one run; "
                 "the listed case is edgemt's throughput (batch) configuration.\n")
        for p in profiles:
            L.append(f"### {p['title']}\n")
            L.append(f"edgemt {fmt(p['edgemt_tps'])} tokens/s vs CTranslate2 {fmt(p['ct2_tps'])} "
                     f"(ratio {p['ratio']:.2f}); `{p['command']}`\n")
            L.append("```\n" + p["profile"].rstrip() + "\n```\n")
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")


def write_chart(path, models, rows):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ms = [m for m in models if any(r["model"] == m["name"] for r in rows)]
    if not ms:
        return
    fig, axes = plt.subplots(len(ms), 2, figsize=(13, 3.6 * len(ms)), squeeze=False)
    colors = {"edgemt": "#1f77b4", "ctranslate2": "#ff7f0e", "transformers": "#2ca02c"}
    for mi, m in enumerate(ms):
        mr = [r for r in rows if r["model"] == m["name"]]
        cfgs = []
        for r in mr:
            k = (r["threads"], r["beam"], r["precision"])
            if k not in cfgs:
                cfgs.append(k)
        for ax, key, label in ((axes[mi][0], "tokens_per_s", "tokens/s (batch, higher is better)"),
                               (axes[mi][1], "p50_ms", "latency p50 ms (batch 1, lower is better)")):
            w = 0.27
            for ei, eng in enumerate(ENGINES):
                xs, ys = [], []
                for ci, k in enumerate(cfgs):
                    r = [x for x in mr if (x["threads"], x["beam"], x["precision"]) == k and x["engine"] == eng]
                    if r and r[0][key]:
                        xs.append(ci + (ei - 1) * w)
                        ys.append(r[0][key])
                if xs:
                    ax.bar(xs, ys, w, label=eng, color=colors[eng])
            ax.set_xticks(range(len(cfgs)))
            ax.set_xticklabels([f"t{t} b{b}\n{p}" for t, b, p in cfgs], fontsize=8)
            ax.set_title(f"{m['title']}: {label}", fontsize=9)
            ax.grid(axis="y", alpha=0.3)
            ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=72)
    plt.close(fig)


# ------------------------------------------------------------------------------------------
def render(path):
    """Rewrites the markdown and chart of an earlier run from its JSON."""
    with open(path) as f:
        res = json.load(f)
    info = res["machine"]
    if "ctranslate2_cpu" not in info:
        ct2 = [m["files"].get("ctranslate2/float32") for m in res["models"]]
        if ct2 and ct2[0] and os.path.isdir(ct2[0]):
            info["ctranslate2_cpu"] = ct2_backend(ct2[0])
            with open(path, "w") as f:
                json.dump(res, f, indent=1)
    for m in res["models"]:
        if "pad_row_abs_sum" not in m:
            m["pad_row_abs_sum"] = pad_row_abs_sum(m["hf_dir"])
    args = argparse.Namespace(**res["args"])
    stem = os.path.splitext(path)[0]
    write_markdown(stem + ".md", info, res["models"], res["skipped"], res["summary"], res["agreement"],
                   res["cold_start"], res["profiles"], args, res["elapsed_s"])
    write_chart(stem + ".png", res["models"], res["summary"])
    log(f"rewrote {stem}.md and {stem}.png")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="1 repetition, few sentences, fewer tokens (~5 min)")
    ap.add_argument("--models", default="trained,random", help="comma list of: trained, random")
    ap.add_argument("--trained-dir", default=os.path.join(DATA, "model-hf"))
    ap.add_argument("--random-dir", default=os.path.join(DATA, "bench-model"))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--beams", default="1,4")
    ap.add_argument("--precisions", default="float32,int8")
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--hf-int8", action="store_true", help="also transformers with torch dynamic int8 quantization")
    ap.add_argument("--edgemt-int8-weight-bits", type=int, choices=(7, 8), default=8,
                    help="edgemt-convert --int8-weight-bits for edgemt's int8 model (7: AVX2's VPMADDUBSW kernel)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--random-sentences", type=int, default=16, help="throughput set size, random model")
    ap.add_argument("--random-latency", type=int, default=4, help="latency sentences, random model")
    ap.add_argument("--random-max-new-tokens", type=int, default=48)
    ap.add_argument("--trained-sentences", type=int, default=64)
    ap.add_argument("--trained-latency", type=int, default=8)
    ap.add_argument("--trained-max-new-tokens", type=int, default=64)
    ap.add_argument("--no-cold", action="store_true", help="skip the cold-start runs")
    ap.add_argument("--omp-default", action="store_true",
                    help="keep OpenMP's default (active) waiting instead of OMP_WAIT_POLICY=PASSIVE, KMP_BLOCKTIME=0")
    ap.add_argument("--no-profile", action="store_true", help="skip translate --profile")
    ap.add_argument("--sentences-file", default=os.path.join(HERE, "sentences.en"))
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build", "bench-helper"))
    ap.add_argument("--cache", default=os.path.join(DATA, "bench-cache"))
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--render", metavar="JSON", help="only rewrite the .md and .png of an earlier run's JSON")
    args = ap.parse_args()
    if args.render:
        return render(args.render)
    if args.omp_default:
        OMP_ENV.clear()
    if args.quick:
        args.repeats = 1
        args.random_sentences, args.random_latency, args.random_max_new_tokens = 8, 2, 32
        args.trained_sentences, args.trained_latency, args.trained_max_new_tokens = 32, 4, 64
        args.no_cold = True
    t_start = time.time()

    bins = {"bench": os.path.join(args.build_dir, "bench", "edgemt-bench-translate"),
            "convert": os.path.join(args.build_dir, "converter", "edgemt-convert"),
            "translate": os.path.join(args.build_dir, "runtime", "translate")}
    for k, p in bins.items():
        if not os.path.exists(p):
            sys.exit(f"compare: {p} not found; build first:\n  cmake -S {REPO} -B {args.build_dir} "
                     f"-DCMAKE_BUILD_TYPE=Release && cmake --build {args.build_dir} -j2")
    info = machine_info(args.build_dir)
    info["engine_env"] = dict(OMP_ENV)
    # Instruction-set overrides the engines inherit (an AVX2 machine simulated on a newer one).
    info["isa_env"] = {k: os.environ[k] for k in ISA_ENV if k in os.environ}
    info["edgemt_int8_weight_bits"] = args.edgemt_int8_weight_bits
    log(f"machine: {info.get('Model name')}, {info.get('CPU(s)')} CPUs, load {info['loadavg_start']}")

    wanted = args.models.split(",")
    models, skipped = [], []
    if "trained" in wanted:
        if os.path.exists(os.path.join(args.trained_dir, "config.json")):
            models.append(dict(name="trained", hf_dir=args.trained_dir, title="Bundled trained model",
                               desc=f"The project's trained en-de MarianMT (`{args.trained_dir}`); stops at eos, "
                                    "so engines that disagree may generate different numbers of tokens.",
                               sentences=args.trained_sentences, latency=args.trained_latency,
                               max_new_tokens=args.trained_max_new_tokens))
        else:
            skipped.append(f"the bundled trained model: {args.trained_dir} does not exist (export it with "
                           "tools/train/export.py, then rerun)")
            log(skipped[-1])
    if "random" in wanted:
        if not os.path.exists(os.path.join(args.random_dir, "model.safetensors")):
            log(f"{args.random_dir} missing: running tools/make_bench_model.py")
            subprocess.run([sys.executable, os.path.join(REPO, "tools", "make_bench_model.py"), "--out",
                            args.random_dir], check=True)
        models.append(dict(name="random", hf_dir=args.random_dir, title="Opus-MT-base-sized random model",
                           desc="tools/make_bench_model.py: d_model 512, 6+6 layers, 8 heads, FFN 2048, vocab "
                                "58101, random weights; eos/pad can never be generated, so every engine generates "
                                "exactly the max new tokens for every sentence.",
                           sentences=args.random_sentences, latency=args.random_latency,
                           max_new_tokens=args.random_max_new_tokens))
    for m in models:
        prepare_model(m, args, bins)
    if models:
        info["ctranslate2_cpu"] = ct2_backend(models[0]["files"][("ctranslate2", "float32")])
        log(f"CTranslate2: {info['ctranslate2_cpu']}")

    engines = [e for e in args.engines.split(",") if e in ENGINES]
    configs = [dict(threads=int(t), beam=int(b), precision=p) for t in args.threads.split(",")
               for b in args.beams.split(",") for p in args.precisions.split(",")]

    def engines_for(cfg):
        if cfg["precision"] == "int8" and not args.hf_int8:
            return [e for e in engines if e != "transformers"]
        return engines

    work = os.path.join(args.cache, "runs")
    os.makedirs(work, exist_ok=True)
    runs, cold_runs = [], []
    total = args.repeats * sum(len(engines_for(c)) for c in configs) * len(models)
    done = 0
    for rep in range(args.repeats):
        for m in models:
            for cfg in configs:
                order = engines_for(cfg)
                k = rep % len(order)
                order = order[k:] + order[:k]
                for eng in order:
                    key = (m["name"], cfg["threads"], cfg["beam"], cfg["precision"], eng)
                    out_ids = None
                    if rep == 0:
                        out_ids = os.path.join(work, "ids_" + "_".join(map(str, key)) + ".txt")
                    cmd = engine_cmd(eng, cfg["precision"], m, cfg, args, bins, m["ids"], out_ids)
                    r = run_one(cmd, cfg["threads"])
                    done += 1
                    log(f"[{done}/{total}] rep {rep + 1} {m['name']} t{cfg['threads']} b{cfg['beam']} "
                        f"{cfg['precision']} {eng}: {r['throughput']['tokens_per_s']:.1f} tok/s, p50 "
                        f"{r['latency']['p50_ms']:.0f} ms, rss {r['peak_rss_kib'] // 1024} MiB, "
                        f"{r['process']['wall_s']:.0f} s (load {r['process']['loadavg_1m_before']})")
                    runs.append({"key": key, "rep": rep, "cmd": cmd, "ids_file": out_ids, "result": r})
                    with open(os.path.join(work, "partial-runs.json"), "w") as f:  # survives an interruption
                        json.dump([{**x, "key": list(x["key"])} for x in runs], f)
        if not args.no_cold:
            for m in models:
                for prec in args.precisions.split(","):
                    for eng in engines_for(dict(precision=prec)):
                        cfg = dict(threads=1, beam=1, precision=prec)
                        cmd = engine_cmd(eng, prec, m, cfg, args, bins, m["ids_one"], cold=True, latency=0, warmup=1)
                        r = run_one(cmd, 1)
                        cold_runs.append({"model": m["name"], "precision": prec, "engine": eng, "rep": rep,
                                          "load_ms": r["load_ms"], "first_ms": r["first_sentence_ms"]})
                log(f"cold starts of {m['name']} done (rep {rep + 1})")

    rows = summarize(runs, models, configs, engines_for)

    # Identical work check (random model): every sentence has exactly max_new_tokens tokens.
    checks = []
    for r in runs:
        m = next(x for x in models if x["name"] == r["key"][0])
        if m["name"] == "random":
            exp = m["n_sentences"] * m["max_new_tokens"]
            got = r["result"]["throughput"]["target_tokens"]
            if got != exp:
                checks.append(f"{r['key']}: {got} target tokens, expected {exp}")
    if checks:
        log("WARNING: unequal work:", *checks)

    # Token agreement.
    agree = []
    for m in models:
        for t in args.threads.split(","):
            for b in args.beams.split(","):
                got = {}
                for r in runs:
                    if r["ids_file"] and r["key"][:3] == (m["name"], int(t), int(b)):
                        got[(r["key"][4], r["key"][3])] = read_ids_file(r["ids_file"])
                pairs = [(("edgemt", "float32"), ("ctranslate2", "float32")),
                         (("edgemt", "float32"), ("transformers", "float32")),
                         (("ctranslate2", "float32"), ("transformers", "float32")),
                         (("edgemt", "int8"), ("ctranslate2", "int8")),
                         (("edgemt", "int8"), ("transformers", "float32")),
                         (("ctranslate2", "int8"), ("transformers", "float32")),
                         (("transformers", "int8"), ("transformers", "float32"))]
                for x, y in pairs:
                    if x in got and y in got:
                        a = agreement(got[x], got[y])
                        agree.append({"model": m["name"], "threads": int(t), "beam": int(b),
                                      "pair": f"{x[0]} {x[1]} vs {y[0]} {y[1]}", **a})
        # edgemt determinism across thread counts
        for b in args.beams.split(","):
            for prec in args.precisions.split(","):
                f = [r for r in runs if r["ids_file"] and r["key"][0] == m["name"] and r["key"][2] == int(b)
                     and r["key"][3] == prec and r["key"][4] == "edgemt"]
                if len(f) >= 2:
                    a = agreement(read_ids_file(f[0]["ids_file"]), read_ids_file(f[1]["ids_file"]))
                    agree.append({"model": m["name"], "threads": f"{f[0]['key'][1]}/{f[1]['key'][1]}", "beam": int(b),
                                  "pair": f"edgemt {prec}: threads {f[0]['key'][1]} vs {f[1]['key'][1]}", **a})

    cold = []
    for m in models:
        for prec in args.precisions.split(","):
            for eng in engines_for(dict(precision=prec)):
                cs = [c for c in cold_runs if (c["model"], c["precision"], c["engine"]) == (m["name"], prec, eng)]
                if cs:
                    cold.append({"model": m["name"], "precision": prec, "engine": eng,
                                 "load_ms": med([c["load_ms"] for c in cs]), "first_ms": med([c["first_ms"] for c in cs])})

    # Profiles where edgemt is slower than CTranslate2 (the worst cases, at most --max-profiles).
    profiles = []
    if not args.no_profile:
        slow = []
        for r in rows:
            if r["engine"] != "edgemt":
                continue
            c = [x for x in rows if x["engine"] == "ctranslate2" and (x["model"], x["threads"], x["beam"], x["precision"])
                 == (r["model"], r["threads"], r["beam"], r["precision"])]
            if c and r["tokens_per_s"] and c[0]["tokens_per_s"] and r["tokens_per_s"] < c[0]["tokens_per_s"]:
                slow.append((r["tokens_per_s"] / c[0]["tokens_per_s"], r, c[0]))
        slow.sort(key=lambda x: x[0])
        for ratio, r, c in slow[:4]:
            m = next(x for x in models if x["name"] == r["model"])
            f = m["files"][("edgemt", r["precision"])]
            cmd = [bins["translate"], "--model", f, "--ids", "--threads", str(r["threads"]), "--beam", str(r["beam"]),
                   "--batch", str(args.batch), "--max-length", str(m["max_new_tokens"]), "--profile"]
            with open(m["ids"]) as fin:
                p = subprocess.run(cmd, stdin=fin, capture_output=True, text=True)
            prof = p.stderr[p.stderr.find("per-op profile"):] if "per-op profile" in p.stderr else p.stderr
            profiles.append({"title": f"{m['title']}, {r['threads']} thread(s), beam {r['beam']}, {r['precision']}",
                             "edgemt_tps": r["tokens_per_s"], "ct2_tps": c["tokens_per_s"], "ratio": ratio,
                             "command": " ".join(["translate", "--model", os.path.basename(f)] + cmd[3:])
                             + f" < ids ({m['n_sentences']} sentences)",
                             "profile": prof})
            log(f"profiled {profiles[-1]['title']}")

    elapsed = time.time() - t_start
    info["loadavg_end"] = os.getloadavg()
    os.makedirs(args.out, exist_ok=True)
    result = {
        "machine": info, "args": vars(args), "elapsed_s": round(elapsed, 1), "skipped": skipped,
        "models": [{k: (v if k != "files" else {f"{e}/{p}": x for (e, p), x in v.items()}) for k, v in m.items()}
                   for m in models],
        "summary": rows, "agreement": agree, "cold_start": cold, "work_check_failures": checks,
        "profiles": profiles,
        "runs": [{"key": list(r["key"]), "rep": r["rep"], "cmd": " ".join(r["cmd"]), "result": r["result"]}
                 for r in runs],
        "cold_runs": cold_runs,
    }
    stem = "compare-quick" if args.quick else "compare"
    with open(os.path.join(args.out, stem + ".json"), "w") as f:
        json.dump(result, f, indent=1)
    write_markdown(os.path.join(args.out, stem + ".md"), info, models, skipped, rows, agree, cold, profiles, args,
                   elapsed)
    write_chart(os.path.join(args.out, stem + ".png"), models, rows)
    log(f"wrote {args.out}/{stem}.json, .md, .png in {elapsed / 60:.1f} min")
    with open(os.path.join(args.out, stem + ".md")) as f:
        print(f.read())


if __name__ == "__main__":
    main()
