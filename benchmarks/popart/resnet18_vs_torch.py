#!/usr/bin/python3
"""ResNet-18 inference (batch 1, 224x224, FLOAT, torchvision's network with
random weights) by a popart InferenceSession on the CPU device and by
PyTorch on the same host, with the same thread count, in one run.

    /usr/bin/python3 benchmarks/popart/resnet18_vs_torch.py build/benchmarks/popart_benchmarks [threads]

Exports the model with tests/models/export_models.py (into a temporary
directory), runs the Google Benchmark program on it, times PyTorch's
forward pass, and prints both times, their ratio and the session's
creation time. Needs Debian's python3-torch (hence /usr/bin/python3).
"""
import os
import sys
import tempfile
import time

import torch
import torchvision

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tests", "models"))
import export_models  # noqa: E402

import benchmark_runs  # noqa: E402


def popart_figures(binary, model, threads):
    return benchmark_runs.real_times(
        binary, "ResNet18Inference|ResNet18SessionCreation",
        SDK_BENCH_THREADS=threads, POPART_BENCH_MODEL=model)


def torch_ms(threads, min_time=3.0):
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    model = torchvision.models.resnet18(weights=None).eval()
    x = torch.randn(1, 3, 224, 224)
    with torch.no_grad():
        for _ in range(3):
            model(x)
        runs, start = 0, time.perf_counter()
        while time.perf_counter() - start < min_time:
            model(x)
            runs += 1
    return 1e3 * (time.perf_counter() - start) / runs


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    with tempfile.TemporaryDirectory() as out_dir:
        export_models.export("resnet18", out_dir)
        runs = popart_figures(sys.argv[1],
                              os.path.join(out_dir, "resnet18", "model.onnx"),
                              threads)
    ours = runs["ResNet18InferenceCpu/min_time:3.000/real_time"]
    theirs = torch_ms(threads)
    print(f"ResNet-18 inference, batch 1, 224x224, FLOAT, {threads} threads")
    print(f"  popart on the CPU device   {ours:8.1f} ms")
    print(f"  PyTorch {torch.__version__:<18} {theirs:8.1f} ms")
    print(f"  ratio popart / PyTorch     {ours / theirs:8.2f}")
    for name, label in (("ResNet18SessionCreation/0", "CPU device"),
                        ("ResNet18SessionCreation/1", "IPU Model")):
        key = next(k for k in runs if k.startswith(name + "/"))
        print(f"  session creation ({label}) {runs[key] / 1e3:8.2f} s")


if __name__ == "__main__":
    main()
