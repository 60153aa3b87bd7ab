#!/usr/bin/python3
"""poplin::matMul 1024^3 on the IPU Model and on the CPU device (host time
of Engine::run) against OpenBLAS's cblas_sgemm on the same operands, FLOAT,
and the HALF product against the FLOAT one, at each thread count, in one
run.

    /usr/bin/python3 benchmarks/poplin/matmul_vs_openblas.py \\
        [build/benchmarks/poplin_benchmarks] [threads, default 1,2] \\
        [devices, default ipumodel,cpu]

Runs poplin_benchmarks' MatMulVsOpenBLAS and MatMulHalfVsFloat (each
alternates its two sides iteration by iteration and keeps each side's
fastest run) with POPLIN_BENCHMARK_THREADS set, and prints GFLOP/s and the
ratios (ours over OpenBLAS in GFLOP/s: the target is at least 1; HALF's
time over FLOAT's: the target is at most 1), with the load average.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


DEVICE_ARG = {"ipumodel": 0, "cpu": 1}
DEVICE_NAME = {"ipumodel": "the IPU Model (Mk2, 1,472 tiles)",
               "cpu": "the CPU device (one tile)"}


def counters(binary, name, threads, device):
    out = subprocess.run(
        [binary, "--benchmark_format=json",
         f"--benchmark_filter=^{name}/1024/{DEVICE_ARG[device]}/"],
        check=True, capture_output=True, text=True,
        env=dict(os.environ, POPLIN_BENCHMARK_THREADS=str(threads))).stdout
    # The program prints a summary line after the JSON.
    run = json.JSONDecoder().raw_decode(out)[0]["benchmarks"][0]
    if run.get("error_occurred"):
        sys.exit(f"{name} failed: {run.get('error_message', '')}")
    return run


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        HERE, "..", "..", "build", "benchmarks", "poplin_benchmarks")
    threads = [int(t) for t in (sys.argv[2] if len(sys.argv) > 2
                                else "1,2").split(",")]
    devices = (sys.argv[3] if len(sys.argv) > 3 else "ipumodel,cpu").split(",")
    for d in devices:
        if d not in DEVICE_ARG:
            sys.exit(f"matmul_vs_openblas.py: unknown device '{d}' "
                     f"(use {', '.join(DEVICE_ARG)})")
    if not os.path.exists(binary):
        sys.exit(f"matmul_vs_openblas.py: no benchmark program '{binary}'")
    print(f"load average before: {load_average()}")
    rows = {d: [] for d in devices}
    for d in devices:
        for t in threads:
            blas = counters(binary, "MatMulVsOpenBLAS", t, d)
            half = counters(binary, "MatMulHalfVsFloat", t, d)
            rows[d].append((t, blas, half))
    print(f"load average after:  {load_average()}")
    for d in devices:
        print(f"matMul 1024x1024x1024 on {DEVICE_NAME[d]}, host GFLOP/s, "
              "fastest iteration of each side")
        print(f"{'threads':>7}  {'FLOAT':>7}{'sgemm':>8}{'ratio':>7}  "
              f"{'FLOAT':>7}{'HALF':>7}{'HALF/FLOAT time':>17}")
        for t, blas, half in rows[d]:
            print(f"{t:>7}  {blas['oursGFLOPs']:>7.1f}"
                  f"{blas['openblasGFLOPs']:>8.1f}{blas['ratio']:>7.2f}  "
                  f"{half['floatGFLOPs']:>7.1f}{half['halfGFLOPs']:>7.1f}"
                  f"{half['halfOverFloat']:>17.2f}")


if __name__ == "__main__":
    main()
