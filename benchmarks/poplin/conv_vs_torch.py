#!/usr/bin/python3
"""The ResNet-style 3x3 convolution (batch 8, 64 -> 64 channels, 56x56,
stride 1, padding 1, FLOAT) run by poplin on the IPU Model and by PyTorch's
conv2d on the same host, with the same thread count, in one run.

    /usr/bin/python3 benchmarks/poplin/conv_vs_torch.py build/benchmarks/poplin_benchmarks [threads]

Prints the host GFLOP/s of each, their ratio, and poplin's estimated IPU
cycles with the fraction of the matrix unit's peak they imply. Needs
Debian's python3-torch (hence /usr/bin/python3).
"""
import json
import os
import subprocess
import sys
import time

import torch

BATCH, CHANNELS, SIZE, KERNEL = 8, 64, 56, 3
FLOP = 2 * BATCH * CHANNELS * CHANNELS * KERNEL * KERNEL * SIZE * SIZE


def poplin_figures(binary, threads):
    env = dict(os.environ, SDK_BENCH_THREADS=str(threads))
    out = subprocess.run(
        [binary, "--benchmark_filter=^ConvResNet3x3Model/",
         "--benchmark_format=json"],
        check=True, capture_output=True, text=True, env=env).stdout
    run = json.loads(out)["benchmarks"][0]
    if run.get("error_occurred"):
        sys.exit("poplin benchmark failed: " + run.get("error_message", ""))
    return run


def torch_seconds(threads, min_time=2.0):
    torch.set_num_threads(threads)
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(BATCH, CHANNELS, SIZE, SIZE, generator=gen)
    w = torch.randn(CHANNELS, CHANNELS, KERNEL, KERNEL, generator=gen)
    with torch.no_grad():
        for _ in range(3):
            torch.nn.functional.conv2d(x, w, padding=1)
        runs, start = 0, time.perf_counter()
        while time.perf_counter() - start < min_time:
            torch.nn.functional.conv2d(x, w, padding=1)
            runs += 1
        return (time.perf_counter() - start) / runs


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    run = poplin_figures(sys.argv[1], threads)
    ours = run["GFLOP"]  # a rate counter: GFLOP per second
    theirs = FLOP / torch_seconds(threads) / 1e9
    print(f"ResNet 3x3 conv, batch {BATCH}, {CHANNELS}->{CHANNELS} channels, "
          f"{SIZE}x{SIZE}, FLOAT, {threads} threads")
    print(f"  poplin on the IPU Model  {run['real_time']:8.1f} ms  "
          f"{ours:7.1f} GFLOP/s")
    print(f"  PyTorch {torch.__version__:<16} {FLOP / theirs / 1e6:8.1f} ms  "
          f"{theirs:7.1f} GFLOP/s")
    print(f"  ratio poplin / PyTorch   {ours / theirs:.2f}")
    print(f"  estimated IPU cycles (Mk2, FLOAT) {run['estCycles']:.0f}, "
          f"{100 * run['peakFraction']:.0f} % of the matrix unit's peak")
    print(f"  estimated IPU cycles (Mk2, HALF)  {run['halfEstCycles']:.0f}, "
          f"{100 * run['halfPeakFraction']:.0f} % of the matrix unit's peak")
    print(f"  IPU Model's simulated cycles of the FLOAT run "
          f"{run['modelCycles']:.0f}, "
          f"{100 * run['modelPeakFraction']:.0f} % of the peak")


if __name__ == "__main__":
    main()
