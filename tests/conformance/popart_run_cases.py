#!/usr/bin/python3
"""Runs ONNX backend test cases through popart_run the way a user would
(--input NAME=FILE.pb for every input, --save-outputs DIR) and compares the
saved outputs with the case's expected ones (|a - e| <= atol + rtol |e|);
sequence and optional values are SequenceProto and OptionalProto files.

usage: popart_run_cases.py POPART_RUN DEVICE LIST DATA_DIR...
LIST names the cases, one per line (the conformance lists' format).
Prints the count that pass, and each failure with its reason; exits 1 if
any listed case fails.
"""
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

RTOL, ATOL = 1e-3, 1e-7


def read_value(path, type_proto):
    """A tensor as an array, a sequence as a list of arrays, an optional as
    None or its value: the file's kind follows the model's type."""
    kind = type_proto.WhichOneof("value")
    if kind == "sequence_type":
        seq = onnx.SequenceProto()
        seq.ParseFromString(path.read_bytes())
        return [numpy_helper.to_array(t) for t in seq.tensor_values]
    if kind == "optional_type":
        opt = onnx.OptionalProto()
        opt.ParseFromString(path.read_bytes())
        if opt.HasField("tensor_value"):
            return numpy_helper.to_array(opt.tensor_value)
        if opt.HasField("sequence_value"):
            return [numpy_helper.to_array(t) for t in opt.sequence_value.tensor_values]
        return None
    tensor = onnx.TensorProto()
    tensor.ParseFromString(path.read_bytes())
    return numpy_helper.to_array(tensor)


def compare(name, actual, expected):
    """None if the values match, else why not."""
    if isinstance(expected, list) or expected is None:
        if type(actual) is not type(expected):
            return f"output '{name}': {type(actual).__name__}, expected {type(expected).__name__}"
        if expected is None:
            return None
        if len(actual) != len(expected):
            return f"output '{name}': {len(actual)} elements, expected {len(expected)}"
        for k, (a, e) in enumerate(zip(actual, expected)):
            reason = compare(f"{name}[{k}]", a, e)
            if reason:
                return reason
        return None
    if not isinstance(actual, np.ndarray):
        return f"output '{name}': {type(actual).__name__}, expected a tensor"
    if actual.shape != expected.shape:
        return f"output '{name}': shape {actual.shape}, expected {expected.shape}"
    if expected.dtype.kind in "fc":
        close = np.abs(actual.astype(np.float64) - expected) <= (
            ATOL + RTOL * np.abs(expected))
        close |= np.isnan(actual) & np.isnan(expected)
        close |= np.isinf(expected) & (actual == expected)
        if not close.all():
            return f"output '{name}': {np.count_nonzero(~close)} values differ"
    elif not np.array_equal(actual, expected):
        return f"output '{name}': values differ"
    return None


def run_case(popart_run, device, case):
    model = onnx.load(str(case / "model.onnx"), load_external_data=False)
    initialisers = {init.name for init in model.graph.initializer}
    input_names = [i.name for i in model.graph.input if i.name not in initialisers]
    data = case / "test_data_set_0"
    args = [popart_run, "--device", device]
    for k, name in enumerate(input_names):
        args += ["--input", f"{name}={data / f'input_{k}.pb'}"]
    with tempfile.TemporaryDirectory() as out:
        args += ["--save-outputs", out, str(case / "model.onnx")]
        proc = subprocess.run(args, capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            return proc.stderr.strip().splitlines()[-1] if proc.stderr else "failed"
        for k, output in enumerate(model.graph.output):
            expected = read_value(data / f"output_{k}.pb", output.type)
            actual = read_value(pathlib.Path(out) / f"output_{k}.pb", output.type)
            reason = compare(output.name, actual, expected)
            if reason:
                return reason
    return None


def main():
    popart_run, device, listing = sys.argv[1:4]
    dirs = [pathlib.Path(d) for d in sys.argv[4:]]
    names = [line.strip() for line in open(listing)
             if line.strip() and not line.startswith("#")]
    failures = []
    for name in names:
        case = next((d / name for d in dirs if (d / name).is_dir()), None)
        if case is None:
            failures.append((name, "no such case"))
            continue
        reason = run_case(popart_run, device, case)
        if reason:
            failures.append((name, reason))
    for name, reason in failures:
        print(f"FAIL {name}: {reason}")
    print(f"{len(names) - len(failures)} of {len(names)} cases pass through popart_run")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
