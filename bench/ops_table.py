#!/usr/bin/env python3
"""Runs edgemt-bench-ops once and prints the markdown tables of bench/README.md:
edgemt f32 and int8 gemm against OpenBLAS sgemm at the same shapes (same run), and the
memory-bound ops in GB/s. Times are CPU time per call (robust on a shared machine).

  python3 bench/ops_table.py build/release/bench/edgemt-bench-ops [--min-time 0.3]
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import cpu_name  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--min-time", default="0.3")
    ap.add_argument("--filter", default=".")
    args = ap.parse_args()
    out = subprocess.run([args.binary, f"--benchmark_min_time={args.min_time}", "--benchmark_format=json",
                          f"--benchmark_filter={args.filter}"], capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    ctx = data["context"]
    rows = {b["name"]: b for b in data["benchmarks"]}

    def us(name):
        b = rows.get(name)
        if b is None:
            return None
        t = b["cpu_time"]
        return t if b["time_unit"] == "us" else t / 1000.0 if b["time_unit"] == "ns" else t * 1000.0

    print(f"Machine: {cpu_name('unknown')}, {ctx.get('num_cpus')} CPUs, ISA {ctx.get('edgemt_isa')}, "
          f"load average {', '.join(f'{x:.1f}' for x in ctx.get('load_avg', []))}; 1 thread, CPU time per call.\n")
    for model in ("opus", "edge"):
        print(f"**{model}** shapes: µs per call; ratio = OpenBLAS time / edgemt time (> 1: edgemt faster)\n")
        print("| layer (n x k) | rows | edgemt f32 | OpenBLAS | f32 vs OpenBLAS | edgemt int8 | int8 vs f32 |")
        print("|---|---|---|---|---|---|---|")
        for name in sorted({n.split("/")[3] for n in rows if n.startswith(f"gemm/f32/{model}/")},
                           key=["qkv", "out", "ffn1", "ffn2", "logits"].index):
            for m in (1, 4, 16, 64, 256):
                f = us(f"gemm/f32/{model}/{name}/m:{m}")
                o = us(f"gemm/openblas/{model}/{name}/m:{m}")
                q = us(f"gemm/qs8/{model}/{name}/m:{m}")
                if f is None:
                    continue
                shape = rows[f"gemm/f32/{model}/{name}/m:{m}"]
                print(f"| {name} | {m} | {f:.1f} | {o:.1f} | {o / f:.2f}x | {q:.1f} | {f / q:.2f}x |"
                      if o and q else f"| {name} | {m} | {f:.1f} | - | - | - | - |")
        print()
    print("Memory-bound and other ops:\n")
    print("| op | µs per call | GB/s | GFLOP/s |")
    print("|---|---|---|---|")
    for n, b in rows.items():
        if n.startswith("gemm/"):
            continue
        t = us(n)
        gbs = b.get("GB/s")
        gfl = b.get("GFLOP/s")
        print(f"| {n} | {t:.2f} | {gbs / 1e9:.1f} | " if gbs else f"| {n} | {t:.2f} | - | ", end="")
        print(f"{gfl / 1e9:.1f} |" if gfl else "- |")


if __name__ == "__main__":
    sys.exit(main())
