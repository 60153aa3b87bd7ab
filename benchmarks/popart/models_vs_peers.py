#!/usr/bin/python3
"""Inference of ResNet-18 and MobileNet-V2 (torchvision's networks with
random weights, 224x224, FLOAT) on the SDK's CPU device, ONNX Runtime and
PyTorch, on the same ONNX file and with the same thread count, in one run,
and the ratios of their times.

    sh benchmarks/setup-peers.sh        # once: ONNX Runtime for Node.js
    /usr/bin/python3 benchmarks/popart/models_vs_peers.py \\
        [--binary build/benchmarks/popart_benchmarks] [--models resnet18,mobilenet_v2] \\
        [--batches 1,8] [--threads 1,2] [--rounds 2] [--min-time 2]

Each model is exported at each batch size (opset 13, as
tests/models/export_models.py does) into a temporary directory. For each
(model, batch, threads) the three run one after the other, `--rounds`
times, the order turning each round so that all three see the same load
from the rest of the machine; each side's fastest round counts. The SDK
runs in popart_benchmarks' ModelInferenceCpu (an InferenceSession through
onnx_io::ModelRunner, oneTBB limited to the threads), ONNX Runtime in
benchmarks/peers/ort_infer.js (intraOpNumThreads), PyTorch in this process
(torch.set_num_threads) on the same weights. Wall times and process CPU
times (user + system, all threads) of one inference are given: on a shared
machine the CPU time moves less. The load average is printed before and
after. Needs Debian's python3-torch (hence /usr/bin/python3) and node.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings

import torch
import torchvision

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
ORT_SCRIPT = os.path.join(HERE, "..", "peers", "ort_infer.js")
FACTORIES = {"resnet18": torchvision.models.resnet18,
             "mobilenet_v2": torchvision.models.mobilenet_v2}


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def make_model(name):
    torch.manual_seed(0)
    return FACTORIES[name](weights=None).eval()


def export(model, batch, path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, (torch.randn(batch, 3, 224, 224),), path,
                          opset_version=13, input_names=["input"],
                          output_names=["output"], do_constant_folding=True)


def sdk_ms(binary, model_path, threads, min_time):
    out = subprocess.run(
        [binary, "--benchmark_format=json",
         "--benchmark_filter=^ModelInferenceCpu/",
         f"--benchmark_min_time={min_time}"],
        check=True, capture_output=True, text=True,
        env=dict(os.environ, SDK_BENCH_THREADS=str(threads),
                 POPART_BENCH_MODEL=model_path)).stdout
    run = json.loads(out)["benchmarks"][0]
    if run.get("error_occurred"):
        sys.exit(f"ModelInferenceCpu on {model_path} failed: "
                 f"{run.get('error_message', '')}")
    return run["real_time"], run["cpu_ms"]


def ort_ms(model_path, batch, threads, min_time):
    out = subprocess.run(
        ["node", ORT_SCRIPT, model_path, str(threads), str(min_time),
         f"input=1x3x224x224".replace("1x", f"{batch}x", 1)],
        check=True, capture_output=True, text=True).stdout
    result = json.loads(out)
    return result["ms"], result["cpu_ms"], result["version"]


def torch_ms(model, batch, threads, min_time):
    torch.set_num_threads(threads)
    x = torch.randn(batch, 3, 224, 224)
    with torch.no_grad():
        for _ in range(2):
            model(x)
        runs = 0
        cpu_start, start = time.process_time(), time.perf_counter()
        while time.perf_counter() - start < min_time:
            model(x)
            runs += 1
    wall = 1e3 * (time.perf_counter() - start) / runs
    return wall, 1e3 * (time.process_time() - cpu_start) / runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(
        ROOT, "build", "benchmarks", "popart_benchmarks"))
    parser.add_argument("--models", default="resnet18,mobilenet_v2")
    parser.add_argument("--batches", default="1,8")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--min-time", type=float, default=2.0)
    args = parser.parse_args()
    for name in args.models.split(","):
        if name not in FACTORIES:
            sys.exit(f"models_vs_peers.py: unknown model '{name}' "
                     f"(known: {', '.join(FACTORIES)})")
    if not os.path.exists(args.binary):
        sys.exit(f"models_vs_peers.py: no benchmark program '{args.binary}'")
    if not os.path.isdir(os.path.join(HERE, "..", "peers", "node_modules")):
        sys.exit("models_vs_peers.py: run benchmarks/setup-peers.sh first")

    print(f"load average before: {load_average()}")
    rows, ort_version = [], "?"
    with tempfile.TemporaryDirectory() as out_dir:
        for name in args.models.split(","):
            model = make_model(name)
            for batch in map(int, args.batches.split(",")):
                path = os.path.join(out_dir, f"{name}_b{batch}.onnx")
                export(model, batch, path)
                for threads in map(int, args.threads.split(",")):
                    best = {"sdk": (1e30, 0), "ort": (1e30, 0),
                            "torch": (1e30, 0)}
                    sides = ["sdk", "ort", "torch"]
                    for round_ in range(args.rounds):
                        order = sides[round_ % 3:] + sides[:round_ % 3]
                        for side in order:
                            if side == "sdk":
                                t = sdk_ms(args.binary, path, threads,
                                           args.min_time)
                            elif side == "ort":
                                *t, ort_version = ort_ms(
                                    path, batch, threads, args.min_time)
                            else:
                                t = torch_ms(model, batch, threads,
                                             args.min_time)
                            best[side] = min(best[side], tuple(t))
                    rows.append((name, batch, threads, best))
                    print(f"  {name} batch {batch}, {threads} threads done "
                          f"(load {load_average()})", file=sys.stderr)
    print(f"load average after:  {load_average()}")
    print(f"peers: ONNX Runtime {ort_version} (onnxruntime-node), "
          f"PyTorch {torch.__version__}; fastest of {args.rounds} "
          f"interleaved rounds; ms per inference, wall (process CPU)")
    header = (f"{'model':<13}{'batch':>6}{'thr':>4}  {'SDK CPU device':>18}"
              f"{'ONNX Runtime':>18}{'PyTorch':>18}  {'SDK/ORT':>8}"
              f"{'(CPU)':>7}  {'SDK/torch':>9}{'(CPU)':>7}")
    print(header)
    for name, batch, threads, best in rows:
        (sw, sc), (ow, oc), (tw, tc) = best["sdk"], best["ort"], best["torch"]
        print(f"{name:<13}{batch:>6}{threads:>4}  "
              f"{sw:>8.1f} ({sc:>7.1f}){ow:>8.1f} ({oc:>7.1f})"
              f"{tw:>8.1f} ({tc:>7.1f})  {sw / ow:>8.2f}{sc / oc:>7.2f}  "
              f"{sw / tw:>9.2f}{sc / tc:>7.2f}")


if __name__ == "__main__":
    main()
