#!/usr/bin/python3
"""Sequence and optional values through popart_run: models built here with
sequence and optional inputs and outputs (SequenceProto and OptionalProto
files given with --input and written by --save-outputs), compared with the
same computation in NumPy; and bad uses, each of which must fail with a
popart::error naming the op or tensor at fault.

usage: sequence_cases.py POPART_RUN
"""
import pathlib
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F, I32, I64, B = TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64, TensorProto.BOOL
RNG = np.random.default_rng(7)


def tensor_type(elem, shape):
    return helper.make_tensor_type_proto(elem, shape)


def seq_type(elem, shape=None):
    return helper.make_sequence_type_proto(tensor_type(elem, shape))


def opt_type(inner):
    return helper.make_optional_type_proto(inner)


def value(name, type_proto):
    return helper.make_value_info(name, type_proto)


def model(nodes, inputs, outputs, initialisers=(), opset=16):
    graph = helper.make_graph(nodes, "sequences", inputs, outputs,
                              initializer=list(initialisers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def sequence_file(path, arrays):
    proto = onnx.SequenceProto()
    proto.elem_type = onnx.SequenceProto.TENSOR
    for a in arrays:
        proto.tensor_values.append(numpy_helper.from_array(a))
    path.write_bytes(proto.SerializeToString())


def optional_file(path, held):
    proto = onnx.OptionalProto()
    if isinstance(held, list):
        proto.elem_type = onnx.OptionalProto.SEQUENCE
        proto.sequence_value.elem_type = onnx.SequenceProto.TENSOR
        for a in held:
            proto.sequence_value.tensor_values.append(numpy_helper.from_array(a))
    elif held is not None:
        proto.elem_type = onnx.OptionalProto.TENSOR
        proto.tensor_value.CopyFrom(numpy_helper.from_array(held))
    path.write_bytes(proto.SerializeToString())


def tensor_file(path, array):
    path.write_bytes(numpy_helper.from_array(array).SerializeToString())


def read_output(path, type_proto):
    kind = type_proto.WhichOneof("value")
    if kind == "sequence_type":
        proto = onnx.SequenceProto()
        proto.ParseFromString(path.read_bytes())
        return [numpy_helper.to_array(t) for t in proto.tensor_values]
    if kind == "optional_type":
        proto = onnx.OptionalProto()
        proto.ParseFromString(path.read_bytes())
        if proto.HasField("tensor_value"):
            return numpy_helper.to_array(proto.tensor_value)
        if proto.HasField("sequence_value"):
            return [numpy_helper.to_array(t) for t in proto.sequence_value.tensor_values]
        return None
    proto = onnx.TensorProto()
    proto.ParseFromString(path.read_bytes())
    return numpy_helper.to_array(proto)


def same(actual, expected):
    if expected is None or isinstance(expected, list):
        if type(actual) is not type(expected):
            return False
        return expected is None or (len(actual) == len(expected) and
                                    all(same(a, e) for a, e in zip(actual, expected)))
    return (isinstance(actual, np.ndarray) and actual.shape == expected.shape and
            np.allclose(actual, expected, rtol=1e-5, atol=1e-6))


# --- Models and their NumPy results -----------------------------------------

def insert_erase_concat():
    """A sequence input edited (insert at a position given as an INT32
    input, erase the first element) and concatenated; the edited sequence
    is an output too."""
    seq = [RNG.standard_normal((n, 3)).astype(np.float32) for n in (2, 1, 4)]
    t = RNG.standard_normal((3, 3)).astype(np.float32)
    nodes = [helper.make_node("SequenceInsert", ["s", "t", "pos"], ["s2"]),
             helper.make_node("SequenceErase", ["s2"], ["s3"]),
             helper.make_node("SequenceErase", ["s3", "zero"], ["s4"]),
             helper.make_node("ConcatFromSequence", ["s4"], ["cat"], axis=0),
             helper.make_node("SequenceLength", ["s4"], ["len"])]
    m = model(nodes,
              [value("s", seq_type(F, [None, 3])), value("t", tensor_type(F, [3, 3])),
               value("pos", tensor_type(I32, []))],
              [value("s4", seq_type(F)), value("cat", tensor_type(F, [None, 3])),
               value("len", tensor_type(I64, []))],
              [numpy_helper.from_array(np.array(0, np.int64), "zero")])
    inputs = {"s": seq, "t": t, "pos": np.array(-1, np.int32)}
    edited = seq[:2] + [t] + seq[2:]   # inserted before the last
    edited = edited[:-1]               # erase (default: the last)
    edited = edited[1:]                # erase position 0
    return m, inputs, [edited, np.concatenate(edited), np.array(len(edited))]


def split_map_stack():
    """SplitToSequence into chunks of 2, SequenceMap of a body reading an
    outer-scope weight, and a stack (ConcatFromSequence new_axis) of a
    keepdims=0 split."""
    x = RNG.standard_normal((5, 2)).astype(np.float32)
    w = RNG.standard_normal((2,)).astype(np.float32)
    body = helper.make_graph(
        [helper.make_node("Mul", ["e", "w"], ["m"]),
         helper.make_node("Relu", ["m"], ["r"])],
        "body", [value("e", tensor_type(F, [None, 2]))],
        [value("r", tensor_type(F, [None, 2]))])
    nodes = [helper.make_node("SplitToSequence", ["x", "two"], ["chunks"]),
             helper.make_node("SequenceMap", ["chunks"], ["mapped"], body=body),
             helper.make_node("SplitToSequence", ["x"], ["rows"], axis=0, keepdims=0),
             helper.make_node("ConcatFromSequence", ["rows"], ["stacked"],
                              axis=1, new_axis=1),
             helper.make_node("SequenceAt", ["mapped", "last"], ["tail"])]
    m = model(nodes, [value("x", tensor_type(F, [5, 2]))],
              [value("mapped", seq_type(F)), value("stacked", tensor_type(F, [2, 5])),
               value("tail", tensor_type(F, [None, 2]))],
              [numpy_helper.from_array(w, "w"),
               numpy_helper.from_array(np.array(2, np.int64), "two"),
               numpy_helper.from_array(np.array(-1, np.int64), "last")], opset=17)
    mapped = [np.maximum(x[i:i + 2] * w, 0) for i in (0, 2, 4)]
    return m, {"x": x}, [mapped, x.T, mapped[-1]]


def optionals():
    """An optional tensor input read (has element, get element + 1), an
    optional output wrapping a sequence input, and an empty optional."""
    o = RNG.standard_normal((4,)).astype(np.float32)
    seq = [RNG.standard_normal((2,)).astype(np.float32) for _ in range(2)]
    nodes = [helper.make_node("OptionalHasElement", ["o"], ["has"]),
             helper.make_node("OptionalGetElement", ["o"], ["got"]),
             helper.make_node("Add", ["got", "one"], ["plus"]),
             helper.make_node("Optional", ["s"], ["wrapped"]),
             helper.make_node("Optional", [], ["none"], type=tensor_type(F, [4])),
             helper.make_node("OptionalHasElement", ["none"], ["has_none"])]
    m = model(nodes,
              [value("o", opt_type(tensor_type(F, [4]))), value("s", seq_type(F, [2]))],
              [value("has", tensor_type(B, [])), value("plus", tensor_type(F, [4])),
               value("wrapped", opt_type(seq_type(F, [2]))),
               value("none", opt_type(tensor_type(F, [4]))),
               value("has_none", tensor_type(B, []))],
              [numpy_helper.from_array(np.array(1, np.float32), "one")], opset=16)
    return m, {"o": ("optional", o), "s": seq}, [
        np.array(True), o + 1, seq, None, np.array(False)]


def loop_and_if():
    """A Loop appending x * i to a sequence for i < 3 (trip count given as an
    input), and an If (its condition given as an input) picking the
    sequence or a reversed copy built in the other branch."""
    x = RNG.standard_normal((3,)).astype(np.float32)
    body = helper.make_graph(
        [helper.make_node("Identity", ["c"], ["c_out"]),
         helper.make_node("Cast", ["i"], ["f"], to=F),
         helper.make_node("Mul", ["x", "f"], ["scaled"]),
         helper.make_node("SequenceInsert", ["acc", "scaled"], ["acc_out"])],
        "body", [value("i", tensor_type(I64, [])), value("c", tensor_type(B, [])),
                 value("acc", seq_type(F, [3]))],
        [value("c_out", tensor_type(B, [])), value("acc_out", seq_type(F, [3]))])
    then_branch = helper.make_graph(
        [helper.make_node("Identity", ["built"], ["picked"])], "then", [],
        [value("picked", seq_type(F, [3]))])
    else_branch = helper.make_graph(
        [helper.make_node("SequenceAt", ["built", "minus1"], ["last"]),
         helper.make_node("SequenceConstruct", ["last", "x"], ["other"])],
        "else", [], [value("other", seq_type(F, [3]))])
    nodes = [helper.make_node("SequenceEmpty", [], ["empty"]),
             helper.make_node("Loop", ["n", "", "empty"], ["built"], body=body),
             helper.make_node("If", ["which"], ["chosen"],
                              then_branch=then_branch, else_branch=else_branch)]
    m = model(nodes, [value("x", tensor_type(F, [3])), value("n", tensor_type(I64, [])),
                      value("which", tensor_type(B, []))],
              [value("built", seq_type(F)), value("chosen", seq_type(F))],
              [numpy_helper.from_array(np.array(-1, np.int64), "minus1")])
    built = [x * i for i in range(3)]
    return m, {"x": x, "n": np.array(3, np.int64), "which": np.array(False)}, [
        built, [built[-1], x]]


VALUE_CASES = {
    "loop_and_if": (loop_and_if, ["cpu", "ipumodel"]),
    "insert_erase_concat": (insert_erase_concat, ["cpu"]),
    "split_map_stack": (split_map_stack, ["cpu", "ipumodel"]),
    "optionals": (optionals, ["cpu"]),
}


def write_inputs(tmp, name, inputs):
    args = []
    for input_name, data in inputs.items():
        path = tmp / f"{name}_{input_name}.pb"
        if isinstance(data, tuple):
            optional_file(path, data[1])
        elif isinstance(data, list):
            sequence_file(path, data)
        else:
            tensor_file(path, data)
        args += ["--input", f"{input_name}={path}"]
    return args


def run_value_case(popart_run, tmp, name, build, device):
    m, inputs, expected = build()
    path = tmp / f"{name}.onnx"
    onnx.save(m, str(path))
    out = tmp / f"{name}_{device}"
    out.mkdir()
    proc = subprocess.run([popart_run, "--device", device, "--save-outputs", str(out)] +
                          write_inputs(tmp, name, inputs) + [str(path)],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        return f"exit {proc.returncode}: {proc.stderr.strip()}"
    for k, output in enumerate(m.graph.output):
        actual = read_output(out / f"output_{k}.pb", output.type)
        if not same(actual, expected[k]):
            return f"output '{output.name}': {actual!r}, expected {expected[k]!r}"
    return None


# --- Bad uses ------------------------------------------------------------------

def error_cases():
    seq3 = [np.ones((2,), np.float32)] * 3
    at = lambda pos: model(
        [helper.make_node("SequenceAt", ["s", "p"], ["y"])],
        [value("s", seq_type(F, [2])), value("p", tensor_type(I64, []))],
        [value("y", tensor_type(F, [2]))])
    return {
        "position_out_of_range": (
            at(3), {"s": seq3, "p": np.array(3, np.int64)},
            r"SequenceAt.*position 3 is outside \[-3, 2\].*'s' of 3"),
        # A position computed on the device (from an input left random).
        "position_not_constant": (
            model([helper.make_node("ArgMax", ["v"], ["p"], keepdims=0),
                   helper.make_node("SequenceAt", ["s", "p"], ["y"])],
                  [value("s", seq_type(F, [2])), value("v", tensor_type(F, [3]))],
                  [value("y", tensor_type(F, [2]))]),
            {"s": seq3},
            r"SequenceAt.*position \(input 1, 'p'\) must be a constant"),
        "empty_optional_read": (
            model([helper.make_node("OptionalGetElement", ["o"], ["y"])],
                  [value("o", opt_type(tensor_type(F, [2])))],
                  [value("y", tensor_type(F, [2]))]),
            {"o": ("optional", None)},
            r"OptionalGetElement.*optional 'o' holds no value"),
        "sequence_not_given": (
            at(0), {"p": np.array(0, np.int64)},
            r"no value is given for the sequence input 's'"),
        "optional_of_wrong_kind": (
            model([helper.make_node("OptionalHasElement", ["o"], ["y"])],
                  [value("o", opt_type(seq_type(F, [2])))],
                  [value("y", tensor_type(B, []))]),
            {"o": ("optional", np.ones((2,), np.float32))},
            r"o\.pb: optional .* holds a tensor, but the model expects a sequence"),
        "concat_of_empty": (
            model([helper.make_node("SequenceEmpty", [], ["s"]),
                   helper.make_node("ConcatFromSequence", ["s"], ["y"], axis=0)],
                  [], [value("y", tensor_type(F, [2]))]),
            {}, r"ConcatFromSequence.*the sequence 's' is empty"),
        # An If of sequences whose condition is computed on the device.
        "if_condition_not_constant": (
            model([helper.make_node("Less", ["a", "b"], ["c"]),
                   helper.make_node("If", ["c"], ["y"],
                                    then_branch=helper.make_graph(
                                        [helper.make_node("SequenceConstruct", ["a"], ["t"])],
                                        "then", [], [value("t", seq_type(F, [1]))]),
                                    else_branch=helper.make_graph(
                                        [helper.make_node("SequenceConstruct", ["b"], ["e"])],
                                        "else", [], [value("e", seq_type(F, [1]))]))],
                  [value("a", tensor_type(F, [1])), value("b", tensor_type(F, [1]))],
                  [value("y", seq_type(F))]),
            {}, r"If.*condition \(input 0, 'c'\) must be a constant"),
        "loop_too_long": (
            model([helper.make_node("SequenceEmpty", [], ["e"]),
                   helper.make_node("Loop", ["n", "", "e"], ["s"], body=helper.make_graph(
                       [helper.make_node("Identity", ["c"], ["c2"]),
                        helper.make_node("Identity", ["acc"], ["acc2"])],
                       "body", [value("i", tensor_type(I64, [])), value("c", tensor_type(B, [])),
                                value("acc", seq_type(F))],
                       [value("c2", tensor_type(B, [])), value("acc2", seq_type(F))])),
                   helper.make_node("SequenceLength", ["s"], ["y"])],
                  [value("n", tensor_type(I64, []))], [value("y", tensor_type(I64, []))]),
            {"n": np.array(100000, np.int64)},
            r"Loop.*trip count 100000 is more than the 4096 iterations"),
        "split_not_adding_up": (
            model([helper.make_node("SplitToSequence", ["x", "sp"], ["s"]),
                   helper.make_node("SequenceLength", ["s"], ["n"])],
                  [value("x", tensor_type(F, [4]))], [value("n", tensor_type(I64, []))],
                  [numpy_helper.from_array(np.array([1, 2], np.int64), "sp")]),
            {}, r"SplitToSequence.*split sizes add up to 3, but axis 0 of 'x' has 4"),
    }


def run_error_case(popart_run, tmp, name, m, inputs, pattern):
    path = tmp / f"{name}.onnx"
    onnx.save(m, str(path))
    proc = subprocess.run([popart_run, "--device", "cpu"] +
                          write_inputs(tmp, name, inputs) + [str(path)],
                          capture_output=True, text=True, timeout=120)
    message = proc.stdout + proc.stderr
    if proc.returncode != 1 or not re.search(pattern, message):
        return f"exit {proc.returncode}: {message.strip()}"
    return None


def main(argv):
    popart_run = argv[1]
    failures = 0
    total = 0
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = pathlib.Path(tmp_dir)
        for name, (build, devices) in VALUE_CASES.items():
            for device in devices:
                total += 1
                reason = run_value_case(popart_run, tmp, name, build, device)
                failures += reason is not None
                print(f"{'FAIL' if reason else 'PASS'} {name} ({device})"
                      + (f": {reason}" if reason else ""))
        for name, (m, inputs, pattern) in error_cases().items():
            total += 1
            reason = run_error_case(popart_run, tmp, name, m, inputs, pattern)
            failures += reason is not None
            print(f"{'FAIL' if reason else 'PASS'} {name}" + (f": {reason}" if reason else ""))
    print(f"{total - failures} of {total} sequence cases pass")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
