#!/usr/bin/python3
"""Bad uses of the ops added for ONNX coverage, run through popart_run: each
must fail with a message naming the op and what is wrong (no crash).

usage: op_errors.py POPART_RUN
"""
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(node, inputs, outputs, initialisers=(), opset=17, domain=None):
    graph = helper.make_graph([node], "bad", inputs, outputs,
                              initializer=list(initialisers))
    imports = [helper.make_opsetid("", opset)]
    if domain:
        imports.append(helper.make_opsetid(domain, 1))
    return helper.make_model(graph, opset_imports=imports)


def value(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def const(name, array):
    return numpy_helper.from_array(np.array(array), name)


F, U8, I64, S = (TensorProto.FLOAT, TensorProto.UINT8, TensorProto.INT64,
                 TensorProto.STRING)
CASES = {
    # A per-channel scale whose length is not the axis's.
    "quantize_scale": (
        model(helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"]),
              [value("x", F, [2, 3])], [value("y", U8, [2, 3])],
              [const("s", np.ones(4, np.float32)),
               const("z", np.zeros(4, np.uint8))]),
        r"QuantizeLinear.*scale 's' has shape \[4\]"),
    # Every box scores below the threshold: an empty result.
    "nms_empty": (
        model(helper.make_node("NonMaxSuppression",
                               ["b", "s", "m", "iou", "t"], ["sel"]),
              [], [value("sel", I64, [None, 3])],
              [const("b", np.array([[[0, 0, 1, 1]]], np.float32)),
               const("s", np.array([[[0.1]]], np.float32)),
               const("m", np.array([5], np.int64)),
               const("iou", np.array([0.5], np.float32)),
               const("t", np.array([0.9], np.float32))]),
        r"NonMaxSuppression.*no box is selected"),
    "rnn_activation": (
        model(helper.make_node("RNN", ["x", "w", "r"], ["", "h"],
                               hidden_size=2, activations=["Cube"]),
              [value("x", F, [1, 1, 2])], [value("h", F, [1, 1, 2])],
              [const("w", np.ones((1, 2, 2), np.float32)),
               const("r", np.ones((1, 2, 2), np.float32))]),
        r"RNN.*activation 'Cube' is not supported"),
    "gridsample_mode": (
        model(helper.make_node("GridSample", ["x", "g"], ["y"], mode="area"),
              [value("x", F, [1, 1, 2, 2]), value("g", F, [1, 2, 2, 2])],
              [value("y", F, [1, 1, 2, 2])]),
        r"GridSample.*mode 'area'"),
    "maxunpool_shape": (
        model(helper.make_node("MaxUnpool", ["x", "i", "o"], ["y"],
                               kernel_shape=[2, 2], strides=[2, 2]),
              [value("x", F, [1, 1, 2, 2])], [value("y", F, [1, 1, 3, 3])],
              [const("i", np.zeros((1, 1, 2, 2), np.int64)),
               const("o", np.array([1, 1, 3, 3], np.int64))]),
        r"MaxUnpool.*output_shape .* is smaller than the unpooled shape"),
    "momentum_mode": (
        model(helper.make_node("Momentum", ["r", "t", "x", "g", "v"],
                               ["x2", "v2"], domain="ai.onnx.preview.training",
                               alpha=0.9, beta=0.1, norm_coefficient=0.0,
                               mode="heavy"),
              [value("x", F, [2]), value("g", F, [2]), value("v", F, [2])],
              [value("x2", F, [2]), value("v2", F, [2])],
              [const("r", np.float32(0.1)), const("t", np.int64(1))],
              domain="ai.onnx.preview.training"),
        r"Momentum.*mode 'heavy' is neither"),
    # RoiAlign's mode other than avg and max, and an adaptive sampling
    # ratio (its number of samples follows from the regions' values).
    "roialign_mode": (
        model(helper.make_node("RoiAlign", ["x", "r", "b"], ["y"], mode="sum",
                               sampling_ratio=2),
              [value("x", F, [1, 1, 4, 4]), value("r", F, [1, 4])],
              [value("y", F, [1, 1, 1, 1])],
              [const("b", np.zeros(1, np.int64))], opset=16),
        r"RoiAlign.*mode 'sum' is not avg or max"),
    "roialign_adaptive": (
        model(helper.make_node("RoiAlign", ["x", "r", "b"], ["y"]),
              [value("x", F, [1, 1, 4, 4]), value("r", F, [1, 4])],
              [value("y", F, [1, 1, 1, 1])],
              [const("b", np.zeros(1, np.int64))], opset=16),
        r"RoiAlign.*sampling_ratio 0 is not supported"),
    # STRING tensors: only Cast, CastLike and StringNormalizer take them,
    # on the host.
    "string_into_device_op": (
        model(helper.make_node("Identity", ["x"], ["y"]),
              [value("x", S, [2])], [value("y", S, [2])]),
        r"Tensor 'x' of type STRING is an input of Identity"),
    "strnorm_locale": (
        model(helper.make_node("StringNormalizer", ["x"], ["y"],
                               case_change_action="UPPER", locale="xx_NOWHERE"),
              [value("x", S, [2])], [value("y", S, [None])], opset=10),
        r"StringNormalizer.*locale 'xx_NOWHERE' is not available"),
    "strnorm_action": (
        model(helper.make_node("StringNormalizer", ["x"], ["y"],
                               case_change_action="TITLE"),
              [value("x", S, [2])], [value("y", S, [None])], opset=10),
        r"StringNormalizer.*case_change_action 'TITLE' is not LOWER, UPPER or NONE"),
    "strnorm_rank": (
        model(helper.make_node("StringNormalizer", ["x"], ["y"]),
              [value("x", S, [2, 3])], [value("y", S, [None, None])], opset=10),
        r"StringNormalizer.*takes a \[C\] or \[1, C\] tensor"),
    "cast_string_not_number": (
        model(helper.make_node("Cast", ["t"], ["y"], to=F),
              [], [value("y", F, [2])],
              [helper.make_tensor("t", S, [2], [b"1.5", b"abc"])]),
        r"Cast.*reading 't'.*element 1 \(\"abc\"\) is not a number"),
}


def main(argv):
    import re
    popart_run = argv[1]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, (m, pattern) in CASES.items():
            path = pathlib.Path(tmp) / f"{name}.onnx"
            onnx.save(m, str(path))
            proc = subprocess.run([popart_run, "--device", "cpu", str(path)],
                                  capture_output=True, text=True, timeout=120)
            message = proc.stdout + proc.stderr
            if proc.returncode in (0,) or proc.returncode < 0 or \
                    not re.search(pattern, message):
                failures += 1
                print(f"FAIL {name}: exit {proc.returncode}: {message.strip()}")
            else:
                print(f"PASS {name}")
    print(f"{len(CASES) - failures} of {len(CASES)} error cases reported")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
