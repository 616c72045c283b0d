#!/usr/bin/env python3
"""edgemt vs Marian (pymarian 1.12, Marian's own CPU engine) on Marian models of Firefox
Translations' student shapes (tools/marian/make_bench_student.py: tiny and base, SSRU
decoders, 32k joint vocabulary, random weights that never end a sentence).

    /tmp/venv-marian/bin/python tools/marian/make_bench_student.py --out /work/edgemt-data/marian-bench
    /tmp/venv-marian/bin/python bench/compare/marian_compare.py [--models tiny,base] [--repeats 3]

Both engines get the same sentences (bench/compare/sentences.en cut to exactly
--src-tokens SentencePiece pieces, so every sentence has the same length): Marian as text
(its time includes SentencePiece encoding; output as pieces, --no-spm-decode), edgemt as
the same SentencePiece ids (translate --ids; output ids). Both generate the same number of
tokens per sentence: Marian stops at max-length-factor x the batch's source
width (--factor), edgemt at --max-length set to the count Marian produced (checked on
the outputs). Each run is its own process (peak RSS per engine); runs are interleaved
and the median of --repeats is reported. Marian's int8 needs marian-conv's intgemm models, which pymarian does not
ship: Marian runs float32 only; edgemt float32 and int8 (its own quantization).
Writes bench/compare/results/marian.json and marian.md.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

sys.path.insert(0, os.path.dirname(HERE))
from benchlib import cpu_name  # noqa: E402

MARIAN_RUN = r"""
import resource, sys, time, json
from pymarian import Translator
t0 = time.perf_counter()
model, vocab, threads, beam, batch, factor, src, shortlist = sys.argv[1:9]
sl = f" --shortlist {shortlist} 0" if shortlist != "-" else ""
t = Translator(f"-m {model} -v {vocab} {vocab} --cpu-threads {threads} --beam-size {beam} --mini-batch {batch} "
               f"--maxi-batch 100 --max-length-factor {factor} --normalize 0 --no-spm-decode --quiet{sl}")
t1 = time.perf_counter()
lines = open(src).read().splitlines()
out = t.translate(lines)
t2 = time.perf_counter()
tokens = [len(o.split()) for o in out]
print(json.dumps({"load_s": t1 - t0, "run_s": t2 - t1, "tokens": tokens,
                  "rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def run_marian(args, model_dir, threads, beam, src):
    p = subprocess.run([sys.executable, "-c", MARIAN_RUN, os.path.join(model_dir, "model.npz"),
                        os.path.join(model_dir, "vocab.spm"), str(threads), str(beam), str(args.batch),
                        str(args.factor), src, args.shortlist_file or "-"], capture_output=True, text=True,
                       check=True)
    return json.loads(p.stdout.strip().splitlines()[-1])


def run_edgemt(args, emt, threads, beam, max_len, src_ids):
    t0 = time.perf_counter()
    p = subprocess.run([args.translate, "--model", emt, "--threads", str(threads), "--beam", str(beam), "--batch",
                        str(args.batch), "--max-length", str(max_len), "--ids", "--stats"],
                       stdin=open(src_ids), capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    err = p.stderr
    load_ms = float(re.search(r"model load:\s+([\d.]+) ms", err).group(1))
    run_s = float(re.search(r"translated:\s+\d+ lines in ([\d.]+) s", err).group(1))
    rss = int(re.search(r"peak RSS:\s+(\d+) KiB", err).group(1))
    return {"load_s": load_ms / 1000, "run_s": run_s, "wall_s": wall, "rss_kib": rss,
            "tokens": [len(x.split()) for x in p.stdout.splitlines()]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="/work/edgemt-data/marian-bench")
    ap.add_argument("--models", default="tiny,base")
    ap.add_argument("--sentences", type=int, default=48)
    ap.add_argument("--src-tokens", type=int, default=20)
    ap.add_argument("--factor", type=float, default=1.6)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--beams", default="1,4")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--translate", default=os.path.join(REPO, "build/release/runtime/translate"))
    ap.add_argument("--convert", default=os.path.join(REPO, "build/release/converter/edgemt-convert"))
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--shortlist", action="store_true",
                    help="both engines with the lexical shortlist <data>/lex.50.50.s2t.bin "
                         "(results/marian-shortlist.*)")
    args = ap.parse_args()
    args.shortlist_file = os.path.join(args.data, "lex.50.50.s2t.bin") if args.shortlist else None
    tag = "-shortlist" if args.shortlist else ""
    import sentencepiece as spm

    sp = spm.SentencePieceProcessor(model_file=os.path.join(args.data, "vocab.spm"))
    src_lines = []
    for line in open(os.path.join(HERE, "sentences.en")):
        ids = sp.encode(line.strip())
        if len(ids) < args.src_tokens:
            continue
        text = sp.decode(ids[: args.src_tokens])
        if len(sp.encode(text)) == args.src_tokens:
            src_lines.append(text)
        if len(src_lines) == args.sentences:
            break
    src = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
    src.write("\n".join(src_lines) + "\n")
    src.close()
    src_ids = tempfile.NamedTemporaryFile("w", suffix=".ids", delete=False)
    src_ids.write("".join(" ".join(str(i) for i in sp.encode(t) + [0]) + "\n" for t in src_lines))
    src_ids.close()

    results = {"cpu": cpu_name(), "date": time.strftime("%Y-%m-%d"), "sentences": len(src_lines),
               "src_tokens": args.src_tokens + 1, "batch": args.batch, "runs": []}
    for name in args.models.split(","):
        mdir = os.path.join(args.data, name)
        if args.shortlist:  # the model directory with the shortlist beside it, as Firefox ships one
            sdir = os.path.join(args.data, name + "-sl")
            os.makedirs(sdir, exist_ok=True)
            for f, target in (("model.npz", os.path.join(mdir, "model.npz")),
                              ("vocab.spm", os.path.join(args.data, "vocab.spm")),
                              ("lex.50.50.s2t.bin", args.shortlist_file)):
                if not os.path.exists(os.path.join(sdir, f)):
                    os.symlink(target, os.path.join(sdir, f))
            mdir_convert = sdir
        else:
            mdir_convert = mdir
        emts = {"float32": os.path.join(args.data, name + tag + ".emt"),
                "int8": os.path.join(args.data, name + tag + ".int8.emt")}
        for prec, path in emts.items():
            if not os.path.exists(path):
                subprocess.run([args.convert] + (["--quantize", "int8"] if prec == "int8" else []) + [mdir_convert, path],
                               check=True, capture_output=True)
        sizes = {"npz": os.path.getsize(os.path.join(mdir, "model.npz")),
                 **{k: os.path.getsize(v) for k, v in emts.items()}}
        for threads in [int(x) for x in args.threads.split(",")]:
            for beam in [int(x) for x in args.beams.split(",")]:
                cfg = {"model": name, "threads": threads, "beam": beam, "sizes": sizes}
                runs = {"marian float32": [], "edgemt float32": [], "edgemt int8": []}
                max_len = None
                for rep in range(args.repeats):
                    order = list(runs)
                    order = order[rep % 3:] + order[: rep % 3]
                    for eng in order:
                        if eng.startswith("marian"):
                            r = run_marian(args, mdir, threads, beam, src.name)
                            n = set(r["tokens"])
                            max_len = max(n)  # eos is never chosen: edgemt stops at the limit too
                        else:
                            if max_len is None:
                                r0 = run_marian(args, mdir, threads, beam, src.name)
                                max_len = max(r0["tokens"])
                            r = run_edgemt(args, emts[eng.split()[1]], threads, beam, max_len, src_ids.name)
                        runs[eng].append(r)
                row = dict(cfg)
                for eng, rs in runs.items():
                    toks = sum(rs[0]["tokens"])
                    run_s = statistics.median(r["run_s"] for r in rs)
                    row[eng] = {"tokens": toks, "run_s": run_s, "tokens_per_s": toks / run_s,
                                "sentences_per_s": len(src_lines) / run_s,
                                "load_s": statistics.median(r["load_s"] for r in rs),
                                "rss_mib": max(r["rss_kib"] for r in rs) / 1024,
                                "token_counts": sorted(set(rs[0]["tokens"]))}
                results["runs"].append(row)
                print(json.dumps({k: (v if not isinstance(v, dict) or "tokens" not in v else
                                      {kk: round(vv, 3) if isinstance(vv, float) else vv for kk, vv in v.items()})
                                  for k, v in row.items() if k != "sizes"}), flush=True)
    os.unlink(src.name)
    os.unlink(src_ids.name)
    os.makedirs(args.out, exist_ok=True)
    results["shortlist"] = "lex.50.50.s2t.bin (Zipf-drawn lists, first 50, best 50)" if args.shortlist else None
    with open(os.path.join(args.out, f"marian{tag}.json"), "w") as f:
        json.dump(results, f, indent=1)
    flags = open("/proc/cpuinfo").read()
    isa = "avx512vnni" if "avx512_vnni" in flags else "avx2" if "avx2" in flags else "other"
    results["cpu"] += f" ({isa}, {os.cpu_count()} cores)"
    md = [f"# edgemt vs Marian (pymarian 1.12) on Firefox-student-shaped models"
          f"{' with a lexical shortlist (first 50, best 50)' if args.shortlist else ''}\n",
          f"CPU: {results['cpu']}; {results['date']}; {results['sentences']} sentences of "
          f"{results['src_tokens']} source tokens, batch {args.batch}, median of {args.repeats} runs; "
          f"Marian text in (SentencePiece pieces out), edgemt ids in and out. Marian float32 only (pymarian has no intgemm model converter).\n",
          "| model | threads | beam | tokens | Marian f32 tok/s | edgemt f32 tok/s | edgemt int8 tok/s | "
          "f32 ratio | int8 / Marian f32 | Marian RSS MiB | edgemt f32 RSS | edgemt int8 RSS | Marian load s | "
          "edgemt f32 load s |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results["runs"]:
        m, e, q = r["marian float32"], r["edgemt float32"], r["edgemt int8"]
        md.append(f"| {r['model']} | {r['threads']} | {r['beam']} | {m['tokens']} / {e['tokens']} | "
                  f"{m['tokens_per_s']:.0f} | {e['tokens_per_s']:.0f} | {q['tokens_per_s']:.0f} | "
                  f"{e['tokens_per_s'] / m['tokens_per_s']:.2f}x | {q['tokens_per_s'] / m['tokens_per_s']:.2f}x | "
                  f"{m['rss_mib']:.0f} | {e['rss_mib']:.0f} | {q['rss_mib']:.0f} | {m['load_s']:.2f} | "
                  f"{e['load_s']:.2f} |")
    with open(os.path.join(args.out, f"marian{tag}.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
