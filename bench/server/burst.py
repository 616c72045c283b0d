#!/usr/bin/env python3
"""A burst of equal requests on a cold edgemt-server: CLIENTS clients send the same request
(SENTENCES sentences of bench/compare/sentences.en) at the same moment, as kiosks or
browsers opening the same page at once. Reports, per server configuration, the wall time
until every client has its answer and the segments the model translated (/health), with
the translation cache off and on (on, equal segments in flight are translated once:
docs/server.md, "Translation cache").

    python3 bench/server/burst.py [--server build/release/runtime/edgemt-server]
        [--clients 8] [--sentences 24] [--rounds 3]
"""
import argparse
import json
import os
import signal
import sys
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from benchlib import start_server  # noqa: E402

CONFIGS = [
    ("cache off", ["--cache-size", "0"]),
    ("cache on", ["--cache-size", "4096"]),
]


def post(url, body):
    req = urllib.request.Request(url + "/translate", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=300) as r:
        return json.load(r)


def burst(url, clients, texts):
    barrier = threading.Barrier(clients)
    answers = [None] * clients

    def client(i):
        barrier.wait()
        answers[i] = post(url, {"q": texts, "source": "en", "target": "de"})["translatedText"]

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, answers


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--server", default=os.path.join(ROOT, "build/release/runtime/edgemt-server"))
    ap.add_argument("--model", default=os.path.join(ROOT, "models/edgemt-en-de.emt"))
    ap.add_argument("--sentences-file", default=os.path.join(ROOT, "bench/compare/sentences.en"))
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--sentences", type=int, default=24)
    ap.add_argument("--rounds", type=int, default=3, help="bursts per configuration, each on other sentences")
    ap.add_argument("--workers", default="2")
    ap.add_argument("--threads", default="1")
    a = ap.parse_args()
    with open(a.sentences_file, encoding="utf-8") as f:
        pool = [l.strip() for l in f if l.strip()]
    if len(pool) < a.sentences * a.rounds:
        sys.exit(f"{a.sentences_file}: {len(pool)} sentences, {a.sentences * a.rounds} needed")
    results = {}
    for name, extra in CONFIGS:
        proc, url = start_server(
            a.server, ["--model", a.model, "--queue", "4096", "--workers", a.workers, "--threads", a.threads, *extra])
        try:
            post(url, {"q": "Warm-up.", "source": "en", "target": "de"})
            times = []
            with urllib.request.urlopen(url + "/health") as h:
                before = json.load(h)["segments"]
            for r in range(a.rounds):
                texts = pool[r * a.sentences:(r + 1) * a.sentences]
                seconds, answers = burst(url, a.clients, texts)
                if any(x != answers[0] for x in answers):
                    sys.exit(f"{name}: clients got different answers")
                times.append(seconds)
                results.setdefault(r, {})[name] = answers[0]
            with urllib.request.urlopen(url + "/health") as h:
                health = json.load(h)
            translated = health["segments"] - before
            print(f"{name:10s} {a.clients} clients x {a.sentences} sentences, {a.rounds} bursts: "
                  f"wall {', '.join(f'{t:.2f}' for t in times)} s; segments translated {translated} "
                  f"({translated / a.rounds:.0f} a burst); joined {health.get('joined_segments', 0)}, "
                  f"cache hits {health.get('cache_hits', 0)}", flush=True)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=60)
    same = all(len(set(json.dumps(v[n]) for n in v)) == 1 for v in results.values())
    print("answers equal across configurations:", same)
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
