#!/usr/bin/env python3
"""PyTorch's side of the training comparisons.

For each case of cases.json: makes the model's initial weights and the
data of every step (numpy, seeded), trains the same model with PyTorch for
the case's steps (torch.optim where PyTorch has the optimiser, the
optimiser's published update written with torch otherwise), and writes
<outdir>/<case>.json: the case, the initial weights, the data, and after
each step the losses of its micro-batches and every weight.
"""
import json
import math
import sys

import numpy as np
import torch
import torch.nn.functional as F

STEPS = 10
BATCH = 4
CLASSES = 10


def model_weights(kind, rng):
    def init(*shape, scale=0.5):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    if kind == "mlp":
        return {"W1": init(16, 24, scale=0.3), "b1": init(24, scale=0.1),
                "W2": init(24, CLASSES, scale=0.3), "b2": init(CLASSES, scale=0.1)}
    if kind == "cnn":
        # No convolution bias: the batch normalisation after it cancels it
        # (its gradient is rounding noise, which Adam would magnify).
        return {"convW": init(4, 2, 3, 3, scale=0.4),
                "bnScale": (1.0 + init(4, scale=0.1)).astype(np.float32),
                "bnBias": init(4, scale=0.1),
                "bnMean": np.zeros(4, np.float32), "bnVar": np.ones(4, np.float32),
                "fcW": init(36, CLASSES, scale=0.3), "fcB": init(CLASSES, scale=0.1)}
    raise ValueError(kind)


def input_shape(kind):
    return [BATCH, 16] if kind == "mlp" else [BATCH, 2, 6, 6]


def forward(kind, w, x):
    """The probabilities of each class."""
    if kind == "mlp":
        h = torch.relu(x @ w["W1"] + w["b1"])
        return torch.softmax(h @ w["W2"] + w["b2"], dim=1)
    y = F.conv2d(x, w["convW"], padding=1)
    # The running statistics are not compared (PyTorch keeps an unbiased
    # running variance, ONNX a biased one).
    y = F.batch_norm(y, w["bnMean"].clone(), w["bnVar"].clone(), w["bnScale"],
                     w["bnBias"], training=True, momentum=0.1, eps=1e-5)
    y = F.max_pool2d(torch.relu(y), 2)
    return torch.softmax(y.reshape(BATCH, 36) @ w["fcW"] + w["fcB"], dim=1)


def nll(probs, labels):
    return F.nll_loss(torch.log(probs), labels)


def reported_nll(probs, labels):
    """The loss as popart reports it: each probability taken as at least
    1e-7, as the original does, so that one that underflowed gives a finite
    loss. (Its gradient is PyTorch's for probabilities above 1e-10.)"""
    with torch.no_grad():
        return F.nll_loss(torch.log(probs.clamp_min(1e-7)), labels).item()


class Manual:
    """Optimisers PyTorch lacks, each with its published update."""

    def __init__(self, params, o):
        self.params = params
        self.o = o
        self.state = [dict() for _ in params]
        self.t = 0

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        o = self.o
        self.t += 1
        for p, s in zip(self.params, self.state):
            g = p.grad
            kind = o["type"]
            if kind == "sgd":  # dampening applies from the first step
                mm, dm, wd, lr = o.get("momentum", 0.0), o.get("dampening", 0.0), \
                    o.get("wd", 0.0), o["lr"]
                v = s.setdefault("v", torch.zeros_like(p))
                v.mul_(mm).add_((1 - dm) * (g + wd * p))
                p.sub_(lr * v)
            elif kind == "adam":
                self.adam(p, g, s)
            else:
                self.adaptive(p, g, s)

    def adam(self, p, g, s):
        o = self.o
        mode, lr, wd = o["mode"], o["lr"], o.get("wd", 0.0)
        b1, b2, eps = o.get("b1", 0.9), o.get("b2", 0.999), o.get("eps", 1e-6)
        l2 = o.get("wdmode", "Decay") == "L2Regularization"
        g = g + wd * p if l2 else g
        m = s.setdefault("m", torch.zeros_like(p))
        v = s.setdefault("v", torch.zeros_like(p))
        m.mul_(b1).add_((1 - b1) * g)
        if mode == "AdaMax":
            torch.maximum(v * b2, g.abs(), out=v)
        else:
            v.mul_(b2).add_((1 - b2) * g * g)
        bias = mode in ("Adam", "Lamb", "AdaMax")
        mc = m / (1 - b1 ** self.t) if bias else m
        if mode == "AdaMax":
            x = mc / (v + eps)
        else:
            vc = v / (1 - b2 ** self.t) if bias and mode != "AdaMax" else v
            x = mc / (vc.sqrt() + eps)
        if not l2:
            x = x + wd * p
        ratio = 1.0
        if mode in ("Lamb", "LambNoBias"):
            r1, r2 = p.norm().item(), x.norm().item()
            if r1 > 0 and r2 > 0:
                ratio = min(r1, o.get("mwn", 10.0)) / r2
        p.sub_(lr * ratio * x)

    def adaptive(self, p, g, s):
        o = self.o  # RMSProp, TensorFlow's variant or with decoupled decay
        lr, wd, a = o["lr"], o.get("wd", 0.0), o.get("alpha", 0.99)
        mm, eps = o.get("momentum", 0.0), o.get("eps", 1e-6)
        l2 = o.get("wdmode", "Decay") == "L2Regularization"
        tf = o.get("tf", False)
        g = g + wd * p if l2 else g
        v1 = s.setdefault("v1", torch.zeros_like(p))
        v1.mul_(a).add_((1 - a) * g * g)
        x = g / (v1 + eps).sqrt() if tf else g / (v1.sqrt() + eps)
        decay = 0.0 if l2 else wd
        if mm > 0:
            v3 = s.setdefault("v3", torch.zeros_like(p))
            if tf:
                v3.mul_(mm).add_(lr * x)
                p.sub_(v3 + lr * decay * p)
                return
            v3.mul_(mm).add_(x)
            x = v3
        p.sub_(lr * (x + decay * p))


def make_optimizer(o, params):
    kind = o["type"]
    if kind == "sgd" and o.get("dampening", 0.0) == 0.0:
        return torch.optim.SGD(params, lr=o["lr"], momentum=o.get("momentum", 0.0),
                               weight_decay=o.get("wd", 0.0),
                               nesterov=o.get("nesterov", False))
    if kind == "adam" and o["mode"] == "Adam":
        cls = torch.optim.Adam if o.get("wdmode") == "L2Regularization" else torch.optim.AdamW
        return cls(params, lr=o["lr"], betas=(o.get("b1", 0.9), o.get("b2", 0.999)),
                   eps=o.get("eps", 1e-6), weight_decay=o.get("wd", 0.0))
    l2 = o.get("wdmode", "Decay") == "L2Regularization" or o.get("wd", 0.0) == 0.0
    if kind == "adaptive" and l2 and not o.get("tf", False):
        mode, eps, wd = o["mode"], o.get("eps", 1e-6), o.get("wd", 0.0)
        if mode == "AdaGrad":
            return torch.optim.Adagrad(params, lr=o["lr"], eps=eps, weight_decay=wd)
        if mode in ("RMSProp", "CenteredRMSProp"):
            return torch.optim.RMSprop(params, lr=o["lr"], alpha=o.get("alpha", 0.99),
                                       eps=eps, weight_decay=wd,
                                       momentum=o.get("momentum", 0.0),
                                       centered=mode == "CenteredRMSProp")
        if mode == "AdaDelta":
            return torch.optim.Adadelta(params, lr=o["lr"], rho=o.get("alpha", 0.99),
                                        eps=eps, weight_decay=wd)
    return Manual(params, o)


def run_case(case, seed):
    rng = np.random.RandomState(seed)
    kind = case["model"]
    af = case.get("accumulation", 1)
    mean = case.get("reduction", "Sum") == "Mean"
    init = model_weights(kind, rng)
    trained = ["W1", "b1", "W2", "b2"] if kind == "mlp" else \
        ["convW", "bnScale", "bnBias", "fcW", "fcB"]
    w = {k: torch.tensor(v, requires_grad=k in trained) for k, v in init.items()}
    params = [w[k] for k in trained]
    opt = make_optimizer(case["optimizer"], params)
    clip = case["optimizer"].get("clip")
    xs = rng.standard_normal([STEPS, af] + input_shape(kind)).astype(np.float32)
    labels = rng.randint(0, CLASSES, size=[STEPS, af, BATCH]).astype(np.int32)
    steps = []
    for step in range(STEPS):
        opt.zero_grad()
        losses = []
        for micro in range(af):
            probs = forward(kind, w, torch.tensor(xs[step, micro]))
            target = torch.tensor(labels[step, micro]).long()
            loss = nll(probs, target)
            losses.append(reported_nll(probs, target))
            (loss / af if mean else loss).backward()
        if clip is not None:
            torch.nn.utils.clip_grad_norm_(params, clip)
        opt.step()
        steps.append({"losses": losses,
                      "weights": {k: w[k].detach().numpy().ravel().tolist()
                                  for k in trained}})
    return {"case": case, "steps": STEPS, "batch": BATCH, "classes": CLASSES,
            "trained": trained,
            "init": {k: {"shape": list(v.shape), "data": v.ravel().tolist()}
                     for k, v in init.items()},
            "inputShape": input_shape(kind),
            "x": xs.ravel().tolist(), "labels": labels.ravel().tolist(),
            "trajectory": steps}


def main():
    cases, outdir = sys.argv[1], sys.argv[2]
    torch.set_num_threads(1)
    with open(cases) as f:
        spec = json.load(f)
    for i, case in enumerate(spec["cases"]):
        out = run_case(case, 1000 + i)
        with open(f"{outdir}/{case['name']}.json", "w") as f:
            json.dump(out, f)
    print(f"wrote {len(spec['cases'])} PyTorch training runs to {outdir}")


if __name__ == "__main__":
    main()
