#!/usr/bin/python3
"""One training step of ResNet-18 (batch 4, 224x224, FLOAT, torchvision's
network with random weights, batch normalisation on the batch's statistics)
by a popart TrainingSession on the CPU device and by PyTorch on the same
host, with the same thread count, in one run.

    /usr/bin/python3 benchmarks/popart/resnet18_training_vs_torch.py build/benchmarks/popart_benchmarks [threads]

A step is the forward pass, a softmax cross-entropy loss (mean over the
batch), the backward pass and a plain SGD update (learning rate 0.01) in
both. The network is exported in training mode into a temporary directory
and handed to the Google Benchmark program, which also times the training
session's creation (import, autodiff, lowering and compilation). Prints
both step times, their ratio and the creation time. Needs Debian's
python3-torch (hence /usr/bin/python3).
"""
import os
import sys
import tempfile
import time
import warnings

import torch
import torchvision

import benchmark_runs

BATCH = 4


def export_training_model(path):
    torch.manual_seed(0)
    model = torchvision.models.resnet18(weights=None).train()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the export's notes on BN counters
        torch.onnx.export(model, (torch.randn(BATCH, 3, 224, 224),), path,
                          opset_version=13, input_names=["input"],
                          output_names=["output"],
                          training=torch.onnx.TrainingMode.TRAINING,
                          do_constant_folding=False)


def popart_figures(binary, model, threads):
    return benchmark_runs.real_times(
        binary, "ResNet18Training", SDK_BENCH_THREADS=threads,
        POPART_BENCH_TRAINING_MODEL=model)


def torch_step_ms(threads, min_time=5.0):
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    model = torchvision.models.resnet18(weights=None).train()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = torch.nn.CrossEntropyLoss()
    x = torch.randn(BATCH, 3, 224, 224)
    labels = torch.tensor([3, 141, 592, 653])

    def step():
        optimizer.zero_grad()
        loss_fn(model(x), labels).backward()
        optimizer.step()

    step()
    runs, start = 0, time.perf_counter()
    while time.perf_counter() - start < min_time:
        step()
        runs += 1
    return 1e3 * (time.perf_counter() - start) / runs


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    with tempfile.TemporaryDirectory() as out_dir:
        model = os.path.join(out_dir, "resnet18_training.onnx")
        export_training_model(model)
        runs = popart_figures(sys.argv[1], model, threads)
    ours = next(v for k, v in runs.items()
                if k.startswith("ResNet18TrainingStepCpu"))
    creation = next(v for k, v in runs.items()
                    if k.startswith("ResNet18TrainingSessionCreation"))
    theirs = torch_step_ms(threads)
    print(f"ResNet-18 training step (forward, backward, SGD), batch "
          f"{BATCH}, 224x224, FLOAT, {threads} threads")
    print(f"  popart on the CPU device   {ours:8.1f} ms")
    print(f"  PyTorch {torch.__version__:<18} {theirs:8.1f} ms")
    print(f"  ratio popart / PyTorch     {ours / theirs:8.2f}")
    print(f"  training session creation  {creation / 1e3:8.2f} s")


if __name__ == "__main__":
    main()
