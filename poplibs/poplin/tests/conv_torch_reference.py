#!/usr/bin/python3
"""Reference results for ConvTorchTest from PyTorch (Debian's python3-torch).

    conv_torch_reference.py <dir> <json config> [<dir> <json config>...]

For each pair (one Python start for all, as importing torch takes a
second): reads x.bin, w.bin and dy.bin (float32, row-major) from <dir>;
writes
y.bin = convNd(x, w), dx.bin = conv_transposeNd(dy, w) with the output
padding that restores x's size (the input gradient) and dw.bin = the
weight gradient, all computed in float64, for N = 1, 2 or 3 field
dimensions.
"""
import json
import os
import sys

import numpy as np
import torch


def load(path, shape):
    data = np.fromfile(path, dtype=np.float32).astype(np.float64)
    return torch.from_numpy(data.reshape(shape))


def reference(folder, cfg):
    n, cin, cout, groups = cfg["batch"], cfg["in"], cfg["out"], cfg["groups"]
    field, kernel = cfg["field"], cfg["kernel"]
    stride, padding, dilation = (tuple(cfg[k]) for k in
                                 ("stride", "padding", "dilation"))
    nd = len(field)
    conv = getattr(torch.nn.functional, f"conv{nd}d")
    conv_t = getattr(torch.nn.functional, f"conv_transpose{nd}d")
    weight_grad = getattr(torch.nn.grad, f"conv{nd}d_weight")
    x = load(os.path.join(folder, "x.bin"), (n, cin, *field))
    w = load(os.path.join(folder, "w.bin"), (cout, cin // groups, *kernel))
    y = conv(x, w, None, stride, padding, dilation, groups)
    dy = load(os.path.join(folder, "dy.bin"), tuple(y.shape))
    out_pad = []
    for d in range(nd):
        base = ((y.shape[2 + d] - 1) * stride[d] - 2 * padding[d] +
                dilation[d] * (kernel[d] - 1) + 1)
        out_pad.append(field[d] - base)
    dx = conv_t(dy, w, None, stride, padding, tuple(out_pad), groups,
                dilation)
    dw = weight_grad(x, w.shape, dy, stride, padding, dilation, groups)
    for name, t in (("y", y), ("dx", dx), ("dw", dw)):
        t.numpy().astype(np.float32).tofile(os.path.join(folder, name + ".bin"))


def main():
    args = sys.argv[1:]
    if not args or len(args) % 2:
        sys.exit(__doc__)
    for i in range(0, len(args), 2):
        reference(args[i], json.loads(args[i + 1]))


if __name__ == "__main__":
    main()
