#!/usr/bin/python3
"""Reference results for ConvTorchTest from PyTorch (Debian's python3-torch).

    conv_torch_reference.py <dir> <json config>

Reads x.bin, w.bin and dy.bin (float32, row-major) from <dir>; writes
y.bin = conv2d(x, w), dx.bin = conv_transpose2d(dy, w) with the output
padding that restores x's size (the input gradient) and dw.bin = the
weight gradient, all computed in float64.
"""
import json
import os
import sys

import numpy as np
import torch


def load(path, shape):
    data = np.fromfile(path, dtype=np.float32).astype(np.float64)
    return torch.from_numpy(data.reshape(shape))


def main():
    folder, cfg = sys.argv[1], json.loads(sys.argv[2])
    n, cin, h, w_ = cfg["batch"], cfg["in"], cfg["h"], cfg["w"]
    cout, groups = cfg["out"], cfg["groups"]
    kh, kw = cfg["kernel"]
    stride, padding, dilation = (tuple(cfg[k]) for k in
                                 ("stride", "padding", "dilation"))
    x = load(os.path.join(folder, "x.bin"), (n, cin, h, w_))
    w = load(os.path.join(folder, "w.bin"), (cout, cin // groups, kh, kw))
    y = torch.nn.functional.conv2d(x, w, None, stride, padding, dilation,
                                   groups)
    dy = load(os.path.join(folder, "dy.bin"), tuple(y.shape))
    out_pad = []
    for d, size in enumerate((h, w_)):
        k = (kh, kw)[d]
        base = ((y.shape[2 + d] - 1) * stride[d] - 2 * padding[d] +
                dilation[d] * (k - 1) + 1)
        out_pad.append(size - base)
    dx = torch.nn.functional.conv_transpose2d(dy, w, None, stride, padding,
                                              tuple(out_pad), groups,
                                              dilation)
    dw = torch.nn.grad.conv2d_weight(x, w.shape, dy, stride, padding,
                                     dilation, groups)
    for name, t in (("y", y), ("dx", dx), ("dw", dw)):
        t.numpy().astype(np.float32).tofile(os.path.join(folder, name + ".bin"))


if __name__ == "__main__":
    main()
