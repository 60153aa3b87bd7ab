#!/usr/bin/python3
"""Exports small PyTorch models to ONNX for popart's import tests, with
reference outputs computed by PyTorch.

    export_models.py <output dir>

For each model <name> it writes <name>.onnx, <name>.input<i>.bin and
<name>.output.bin (raw little-endian arrays) and a line of manifest.txt:
    <name> <output name> <n inputs> <input name>:<dtype>:<dims,> ...
"""
import os
import sys

import numpy as np
import torch

torch.manual_seed(7)


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(12, 32)
        self.fc2 = torch.nn.Linear(32, 16)
        self.fc3 = torch.nn.Linear(16, 5)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = torch.tanh(self.fc2(x))
        return torch.log_softmax(self.fc3(torch.flatten(x, 1)), dim=1)


class TinyEncoder(torch.nn.Module):
    """Embedding gather, multi-head self attention, layer norm and GELU."""

    def __init__(self, vocab=20, d=16, heads=2, ff=32):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, d)
        self.pos = torch.nn.Parameter(torch.randn(1, 6, d) * 0.1)
        self.heads = heads
        self.qkv = torch.nn.Linear(d, 3 * d)
        self.proj = torch.nn.Linear(d, d)
        self.norm1 = torch.nn.LayerNorm(d)
        self.norm2 = torch.nn.LayerNorm(d)
        self.ff1 = torch.nn.Linear(d, ff)
        self.ff2 = torch.nn.Linear(ff, d)

    def forward(self, tokens):
        x = self.embed(tokens) + self.pos
        b, s, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        def heads(t):
            return t.reshape(b, s, self.heads, d // self.heads).transpose(1, 2)
        q, k, v = heads(q), heads(k), heads(v)
        att = torch.softmax(q @ k.transpose(-2, -1) / (d // self.heads) ** 0.5, dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, s, d)
        x = self.norm1(x + self.proj(y))
        h = torch.nn.functional.gelu(self.ff1(x))
        return self.norm2(x + self.ff2(h)).mean(dim=1)


def export(out_dir, name, model, inputs, opset, manifest):
    model.eval()
    path = os.path.join(out_dir, name + ".onnx")
    input_names = ["in%d" % i for i in range(len(inputs))]
    with torch.no_grad():
        torch.onnx.export(model, tuple(inputs), path, opset_version=opset,
                          input_names=input_names, output_names=["out"])
        reference = model(*inputs).numpy()
    fields = [name, "out", str(len(inputs))]
    for i, t in enumerate(inputs):
        a = t.numpy()
        a.tofile(os.path.join(out_dir, "%s.input%d.bin" % (name, i)))
        dims = ",".join(str(d) for d in a.shape)
        fields.append("%s:%s:%s" % (input_names[i], a.dtype, dims))
    reference.astype(np.float32).tofile(os.path.join(out_dir, name + ".output.bin"))
    fields.append("%d" % reference.size)
    manifest.write(" ".join(fields) + "\n")


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "manifest.txt"), "w") as manifest:
        x = torch.randn(3, 12)
        export(out_dir, "mlp_opset11", Mlp(), [x], 11, manifest)
        export(out_dir, "mlp_opset13", Mlp(), [x], 13, manifest)
        tokens = torch.randint(0, 20, (2, 6))
        encoder = TinyEncoder()
        export(out_dir, "encoder_opset11", encoder, [tokens], 11, manifest)
        export(out_dir, "encoder_opset14", encoder, [tokens], 14, manifest)


if __name__ == "__main__":
    main()
