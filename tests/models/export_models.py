#!/usr/bin/python3
"""Exports reference models to ONNX with PyTorch and records their outputs.

Each model is written in the ONNX backend test layout, so the same runner
handles these and the ONNX test data:

    <out>/<name>/model.onnx
    <out>/<name>/test_data_set_0/input_<i>.pb   (onnx TensorProto)
    <out>/<name>/test_data_set_0/output_<j>.pb

Weights are random with a fixed seed; nothing is downloaded. Models already
exported (model.onnx and output_0.pb present) are kept.
Usage: export_models.py OUT_DIR [NAME ...]
"""
import math
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper
import torch
import torch.nn as nn
import torchvision


class Mlp(nn.Module):
    """Three dense layers (ReLU, tanh), log-softmax: a small classifier."""

    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(784, 256), nn.ReLU(),
            nn.Linear(256, 128), nn.Tanh(),
            nn.Linear(128, 10))

    def forward(self, x):
        return torch.log_softmax(self.layers(torch.flatten(x, 1)), dim=-1)


class SelfAttention(nn.Module):
    """Multi-head self-attention written out so the export is plain ONNX ops."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        batch, seq, dim = x.shape
        head_dim = dim // self.heads
        q, k, v = self.qkv(x).chunk(3, dim=-1)

        def split(t):
            return t.reshape(batch, seq, self.heads, head_dim).transpose(1, 2)

        q, k, v = split(q), split(k), split(v)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(head_dim)
        context = torch.matmul(torch.softmax(scores, dim=-1), v)
        return self.proj(context.transpose(1, 2).reshape(batch, seq, dim))


class EncoderLayer(nn.Module):
    def __init__(self, dim, heads, hidden):
        super().__init__()
        self.attention = SelfAttention(dim, heads)
        self.norm1 = nn.LayerNorm(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(),
                                 nn.Linear(hidden, dim))

    def forward(self, x):
        x = self.norm1(x + self.attention(x))
        return self.norm2(x + self.ffn(x))


class TransformerEncoder(nn.Module):
    """Token and position embeddings (gathers), two encoder layers, a head."""

    def __init__(self, vocab=1000, seq=32, dim=64, heads=4, hidden=256,
                 layers=2, classes=8):
        super().__init__()
        self.tokens = nn.Embedding(vocab, dim)
        self.positions = nn.Embedding(seq, dim)
        self.layers = nn.ModuleList(
            [EncoderLayer(dim, heads, hidden) for _ in range(layers)])
        self.head = nn.Linear(dim, classes)

    def forward(self, ids):
        positions = torch.arange(ids.shape[1], dtype=torch.int64)
        x = self.tokens(ids) + self.positions(positions)
        for layer in self.layers:
            x = layer(x)
        return self.head(x.mean(dim=1))


class Recurrent(nn.Module):
    """Two bidirectional recurrent layers (ONNX LSTM, GRU or RNN): every
    direction, GRU's linear_before_reset, initial states of zero."""

    def __init__(self, kind):
        super().__init__()
        layers = {"lstm": nn.LSTM, "gru": nn.GRU,
                  "rnn_relu": lambda *a, **k: nn.RNN(*a, nonlinearity="relu",
                                                     **k)}[kind]
        self.rnn = layers(8, 16, num_layers=2, bidirectional=True)

    def forward(self, x):
        return self.rnn(x)[0]


class ScriptedControlFlow(nn.Module):
    """Control flow scripted with torch.jit.script, exported as ONNX Loop and
    If: a loop of a trip count given as an input, a loop whose condition
    the body computes (a trip count known only at run time), and a branch
    on the input's values."""

    def __init__(self):
        super().__init__()
        self.cell = nn.Linear(8, 8)
        self.head = nn.Linear(8, 4)

    def forward(self, x, steps: torch.Tensor):
        h = torch.zeros_like(x)
        for _ in range(int(steps)):
            h = torch.tanh(self.cell(x) + h)
        while bool(h.abs().sum() < 100.0):
            h = h * 2.0
        if bool(x.sum() > 0):
            y = self.head(h)
        else:
            y = self.head(-h) * 0.5
        return y


def scripted_control_flow(branch):
    """The scripted model, with an input taking the `branch` of its If."""
    def make():
        x = torch.randn(4, 8)
        if (x.sum() > 0) != (branch == "then"):
            x = -x
        return torch.jit.script(ScriptedControlFlow()), (x, torch.tensor(3))
    return make


def image_model(factory):
    def make():
        return factory(weights=None), torch.randn(1, 3, 224, 224)
    return make


MODELS = {
    "resnet18": (image_model(torchvision.models.resnet18), 13),
    "mobilenet_v2": (image_model(torchvision.models.mobilenet_v2), 13),
    "alexnet": (image_model(torchvision.models.alexnet), 11),
}
# The MLP and the encoder at the lowest and highest opsets exported.
for opset in (11, 13):
    MODELS[f"mlp_opset{opset}"] = (lambda: (Mlp(), torch.randn(4, 784)), opset)
for opset in (11, 14):
    MODELS[f"transformer_encoder_opset{opset}"] = (
        lambda: (TransformerEncoder(), torch.randint(0, 1000, (2, 32))), opset)
for branch in ("then", "else"):
    MODELS[f"scripted_control_flow_{branch}"] = (
        scripted_control_flow(branch), 13)
for kind in ("lstm", "gru", "rnn_relu"):
    MODELS[f"{kind}_bidirectional"] = (
        lambda kind=kind: (Recurrent(kind), torch.randn(5, 3, 8)), 14)


def up_to_date(model_dir):
    """The export exists and is newer than this script."""
    output = os.path.join(model_dir, "test_data_set_0", "output_0.pb")
    return (os.path.exists(output) and
            os.path.getmtime(output) > os.path.getmtime(__file__))


def export(name, out_dir):
    make, opset = MODELS[name]
    if up_to_date(os.path.join(out_dir, name)):
        return
    torch.manual_seed(0)
    model, examples = make()
    if not isinstance(examples, tuple):
        examples = (examples,)
    model.eval()
    # Batch-norm statistics that are not the identity, so the test sees them.
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.running_mean.uniform_(-0.5, 0.5)
            module.running_var.uniform_(0.5, 1.5)
    with torch.no_grad():
        expected = model(*examples)
    model_dir = os.path.join(out_dir, name)
    data_dir = os.path.join(model_dir, "test_data_set_0")
    os.makedirs(data_dir, exist_ok=True)
    path = os.path.join(model_dir, "model.onnx")
    input_names = ["input"] + [f"input_{i}" for i in range(1, len(examples))]
    torch.onnx.export(model, examples, path, opset_version=opset,
                      input_names=input_names, output_names=["output"],
                      do_constant_folding=True)
    onnx.checker.check_model(onnx.load(path))
    arrays = [(f"input_{i}", e) for i, e in enumerate(examples)]
    for index, array in arrays + [("output_0", expected)]:
        tensor = numpy_helper.from_array(array.numpy(), name=index)
        with open(os.path.join(data_dir, index + ".pb"), "wb") as f:
            f.write(tensor.SerializeToString())


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    names = argv[2:] or sorted(MODELS)
    torch.set_num_threads(2)
    for name in names:
        if name not in MODELS:
            sys.exit(f"export_models.py: unknown model '{name}'")
        export(name, argv[1])
        print(f"exported {name}")


if __name__ == "__main__":
    main(sys.argv)
