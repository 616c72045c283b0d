#!/usr/bin/env python3
"""Load test of edgemt-server with wrk on loopback: requests/s, p50/p90/p99 latency and
the server's peak RSS at several concurrencies, for several server configurations
(dynamic batching on, and one request at a time), all in one run.

    python3 bench/server/load.py [--server build/release/runtime/edgemt-server]
        [--model models/edgemt-en-de.emt] [--seconds 10] [--concurrency 1,8,64]
        [--out bench/server/results/load.json]

Each request is one sentence of bench/compare/sentences.en (random, fixed seed), POSTed as
JSON to /translate (bench/server/translate.lua). Every configuration is its own server
process; each concurrency gets a 2 s warm-up first. Needs wrk (scripts/setup --test).
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

sys.path.insert(0, os.path.join(ROOT, "bench"))
from benchlib import cpu_name, start_server  # noqa: E402

# (name, server options). The translation cache is off (--cache-size 0) but in the last
# row: the requests draw from a few hundred sentences, so after the warm-up every request
# would be a cache hit; that row measures the hit path (HTTP, JSON, tokenizing, lookup).
CONFIGS = [
    ("batching, 2 workers x 1 thread", ["--workers", "2", "--threads", "1", "--cache-size", "0"]),
    ("one at a time, 2 workers x 1 thread", ["--workers", "2", "--threads", "1", "--no-batching", "--cache-size", "0"]),
    ("batching, 1 worker x 2 threads", ["--workers", "1", "--threads", "2", "--cache-size", "0"]),
    ("one at a time, 1 worker x 2 threads", ["--workers", "1", "--threads", "2", "--no-batching", "--cache-size", "0"]),
    ("batching, 2 workers x 1 thread, cache hits", ["--workers", "2", "--threads", "1", "--cache-size", "4096"]),
]
# Ratios printed after the table: (configuration, the one it is compared with).
RATIOS = [(CONFIGS[0][0], CONFIGS[1][0]), (CONFIGS[2][0], CONFIGS[3][0]), (CONFIGS[4][0], CONFIGS[0][0])]


def peak_rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def run_wrk(url, conns, seconds, sentences):
    env = dict(os.environ, EDGEMT_WRK_SENTENCES=sentences)
    cmd = ["wrk", "-t", str(min(2, conns)), "-c", str(conns), "-d", f"{seconds}s", "--timeout", "30s",
           "-s", os.path.join(ROOT, "bench/server/translate.lua"), url]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=seconds + 120)
    m = re.search(r"^RESULT (.*)$", out.stdout, re.M)
    if not m:
        raise RuntimeError("wrk gave no result:\n" + out.stdout + out.stderr)
    r = {k: int(v) for k, v in (kv.split("=") for kv in m.group(1).split())}
    r["rps"] = r["requests"] / (r["duration_us"] / 1e6)
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--server", default=os.path.join(ROOT, "build/release/runtime/edgemt-server"))
    ap.add_argument("--model", default=os.path.join(ROOT, "models/edgemt-en-de.emt"))
    ap.add_argument("--sentences", default=os.path.join(ROOT, "bench/compare/sentences.en"))
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--concurrency", default="1,8,64")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench/server/results/load.json"))
    ap.add_argument("--only", default="", help="comma-separated indexes of CONFIGS to run (default: all)")
    a = ap.parse_args()
    configs = [CONFIGS[int(i)] for i in a.only.split(",")] if a.only else CONFIGS
    conc = [int(c) for c in a.concurrency.split(",")]
    rows = []
    for name, extra in configs:
        proc, url = start_server(a.server, ["--model", a.model, "--queue", "4096", *extra])
        try:
            for c in conc:
                run_wrk(url, c, 2, a.sentences)  # warm-up
                r = run_wrk(url, c, a.seconds, a.sentences)
                with urllib.request.urlopen(url + "/health") as h:
                    health = json.load(h)
                r.update(config=name, concurrency=c, peak_rss_mib=peak_rss_kib(proc.pid) / 1024.0,
                         largest_batch=health["largest_batch"], cache_hits=health.get("cache_hits", 0))
                rows.append(r)
                print(f"{name:40s} c={c:3d}  {r['rps']:7.1f} req/s  p50 {r['p50_us'] / 1e3:7.1f} ms  "
                      f"p99 {r['p99_us'] / 1e3:7.1f} ms  non-2xx {r['non2xx']}  errors "
                      f"{r['connect'] + r['read'] + r['write'] + r['timeout']}  RSS {r['peak_rss_mib']:.1f} MiB",
                      flush=True)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=60)
    meta = {"cpu": cpu_name(), "cores": os.cpu_count(), "date": time.strftime("%Y-%m-%d %H:%M"),
            "load_before": os.getloadavg(), "seconds": a.seconds, "model": os.path.basename(a.model)}
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    # Markdown table, with batching's ratio over each one-at-a-time configuration.
    print(f"\n{meta['cpu']}, {meta['cores']} cores, {meta['date']}, {a.seconds} s per row\n")
    print("| server | concurrency | requests/s | p50 ms | p90 ms | p99 ms | errors | peak RSS MiB |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        err = r["non2xx"] + r["connect"] + r["read"] + r["write"] + r["timeout"]
        print(f"| {r['config']} | {r['concurrency']} | {r['rps']:.1f} | {r['p50_us'] / 1e3:.1f} | "
              f"{r['p90_us'] / 1e3:.1f} | {r['p99_us'] / 1e3:.1f} | {err} | {r['peak_rss_mib']:.1f} |")
    by = {(r["config"], r["concurrency"]): r["rps"] for r in rows}
    print()
    for x, y in RATIOS:
        for c in conc:
            b, o = by.get((x, c)), by.get((y, c))
            if b and o:
                print(f"concurrency {c}: {x} / {y}: {b / o:.2f}x")

if __name__ == "__main__":
    main()
