#!/usr/bin/env python3
"""Runs the training example and compares its printed mean losses with the
same training in PyTorch (the same data, initial weights, losses and
optimisers), step by step, within 1e-5 relative."""
import math
import re
import subprocess
import sys

import torch

BATCH, IN, OUT, BPS, STEPS = 1, 784, 10, 32, 10


def data(step):
    n = BPS * BATCH
    i = torch.arange(step * n * IN, (step + 1) * n * IN, dtype=torch.float64)
    x = (0.1 * torch.sin(0.013 * i.float() + 0.5)).reshape(BPS, BATCH, IN)
    j = torch.arange(step * n, (step + 1) * n)
    return x, ((j * 7 + 3) % OUT).reshape(BPS, BATCH)


def run(lrs):
    i = torch.arange(IN * OUT, dtype=torch.float32)
    w = (0.05 * torch.cos(0.7 * i)).reshape(IN, OUT).requires_grad_()
    b = torch.zeros(OUT, requires_grad=True)
    means = []
    for step in range(STEPS):
        x, labels = data(step)
        losses = []
        for k in range(BPS):
            probs = torch.softmax(x[k] @ w + b, dim=1)
            loss = -torch.log(probs[torch.arange(BATCH), labels[k]]).sum()
            losses.append(loss.item())
            loss.backward()
            with torch.no_grad():
                for p in (w, b):
                    p -= lrs[step] * p.grad
                    p.grad = None
        means.append(sum(losses) / BPS)
    return means


def main():
    out = subprocess.run([sys.argv[1]], check=True, capture_output=True,
                         text=True).stdout
    printed = [float(v) for v in re.findall(r"mean loss ([0-9.]+)", out)]
    expected = run([0.001] * STEPS) + run([0.1 / 2 ** s for s in range(STEPS)])
    assert len(printed) == len(expected), out
    for step, (got, want) in enumerate(zip(printed, expected)):
        assert math.isclose(got, want, rel_tol=1e-5, abs_tol=1e-6), \
            f"step {step}: {got} printed, PyTorch {want}"
    print(f"{len(printed)} mean losses agree with PyTorch")


if __name__ == "__main__":
    main()
