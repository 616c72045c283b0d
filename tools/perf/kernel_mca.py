#!/usr/bin/env python3
"""Cycles per inner-loop iteration of edgemt's ARM int8 GEMM kernels, from llvm-mca.

    python3 tools/perf/kernel_mca.py [--md]

Compiles each kernel source with Debian's cross g++ and the flags its ISA level gets in
ops/kernel_list.h (-O3, as a Release build), finds the hottest loop (the one with the
most multiply-accumulate instructions: the tallest tile's k loop), and runs llvm-mca on
it for the Raspberry Pi cores. Prints per kernel and CPU: instructions and MACs per
iteration, cycles per iteration (llvm-mca's steady state over 200 iterations) and int8
MACs per cycle. A model, not a measurement: llvm-mca knows each core's issue widths and
latencies but not its caches (the weights stream from L2/DRAM in a real GEMM). LLVM 14
(Debian 12) has no scheduling model for the Cortex-A7 (nor A8, nor 32-bit code on
in-order ARMv8 cores): the 32-bit rows use Cortex-A9's (out of order, so an upper bound
for an A7); and it schedules Cortex-A76 with its Cortex-A57 model. Needs
g++-aarch64-linux-gnu, g++-arm-linux-gnueabihf and llvm (scripts/setup --test).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (name, source, compiler, flags, llvm-mca triple, cpus, {mnemonic: int8 MACs})
KERNELS = [
    ("neon64 (VMULL+VPADAL)", "ops/quant/qs8_gemm__neon64.cc", "aarch64-linux-gnu-g++", [],
     "aarch64", ["cortex-a53", "cortex-a72", "cortex-a76"], {"smull": 8, "smull2": 8}),
    ("neon64_dot (SDOT)", "ops/quant/qs8_gemm__neon64_dot.cc", "aarch64-linux-gnu-g++",
     ["-march=armv8.2-a+dotprod"], "aarch64", ["cortex-a76", "cortex-a55"], {"sdot": 16}),
    ("neon armv7 (VMULL+VPADAL)", "ops/quant/qs8_gemm__neon.cc", "arm-linux-gnueabihf-g++",
     ["-march=armv7-a+fp", "-mfpu=neon-vfpv4", "-mfloat-abi=hard"], "armv7", ["cortex-a9", "cortex-a72"],
     {"vmull.s8": 8}),
]

BRANCH = re.compile(r"^\s*(b\.\w+|bne|bcc|bcs|blo|bhi|bgt|blt|bge|ble|cbnz|cbz)\s+(?:\w+,\s*)?(\.?\w+)")


def loops(asm):
    """(label, body lines) for every backward branch to a label."""
    lines = asm.splitlines()
    labels = {}
    out = []
    for i, l in enumerate(lines):
        m = re.match(r"^(\.?\w+):", l)
        if m:
            labels[m.group(1)] = i
        b = BRANCH.match(l)
        if b and b.group(2) in labels and labels[b.group(2)] < i:
            body = [x for x in lines[labels[b.group(2)] + 1:i + 1]
                    if x.strip() and not x.strip().startswith((".", "//", "@")) and not re.match(r"^\.?\w+:", x)]
            out.append((b.group(2), body))
    return out


def macs_of(body, weights):
    n = 0
    for l in body:
        op = l.split()[0] if l.split() else ""
        n += weights.get(op, 0)
    return n


def mca(body, triple, cpu):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(body) + "\n")
        path = f.name
    try:
        args = ["llvm-mca", f"-mtriple={triple}", f"-mcpu={cpu}", "-iterations=200"]
        if triple == "armv7":
            args.append("-mattr=+neon")
        p = subprocess.run(args + [path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if p.returncode != 0:
        return None, p.stderr.strip().splitlines()[:1]
    total = int(re.search(r"Total Cycles:\s+(\d+)", p.stdout).group(1))
    warn = [l for l in p.stderr.splitlines() if "warning" in l][:1]
    return total / 200.0, warn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--md", action="store_true", help="a Markdown table")
    args = ap.parse_args()
    rows = []
    for name, src, cxx, flags, triple, cpus, weights in KERNELS:
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "k.s")
            cmd = [cxx, "-O3", "-std=c++20", "-fno-exceptions", "-ffp-contract=off", *flags, "-I", ROOT, "-S",
                   "-o", out, os.path.join(ROOT, src)]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                print(f"{name}: compile failed: {p.stderr[:400]}", file=sys.stderr)
                continue
            asm = open(out).read()
        # Innermost loops only (no branch or return inside): a tile's k loop.
        inner = [lb for lb in loops(asm)
                 if not any(BRANCH.match(x) or x.split()[0] in ("ret", "bx", "pop") for x in lb[1][:-1])]
        best = max(inner, key=lambda lb: macs_of(lb[1], weights), default=None)
        if best is None or macs_of(best[1], weights) == 0:
            print(f"{name}: no multiply-accumulate loop found", file=sys.stderr)
            continue
        macs = macs_of(best[1], weights)
        for cpu in cpus:
            cyc, note = mca(best[1], triple, cpu)
            rows.append((name, cpu, len(best[1]), macs, cyc, note))
    if args.md:
        print("| kernel | CPU (llvm-mca -mcpu) | instructions / iteration | int8 MACs / iteration "
              "| cycles / iteration | MACs / cycle |")
        print("|---|---|---|---|---|---|")
    for name, cpu, n, macs, cyc, note in rows:
        if cyc is None:
            print(f"| {name} | {cpu} | {n} | {macs} | llvm-mca failed: {note} | |" if args.md
                  else f"{name:28} {cpu:11} llvm-mca failed: {note}")
            continue
        if args.md:
            print(f"| {name} | {cpu} | {n} | {macs} | {cyc:.2f} | {macs / cyc:.1f} |")
        else:
            print(f"{name:28} {cpu:11} {n:3} instr {macs:4} MACs {cyc:7.2f} cycles {macs / cyc:6.1f} MACs/cycle"
                  + (f"  ({note[0]})" if note else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
