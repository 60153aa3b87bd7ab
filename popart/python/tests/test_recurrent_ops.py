"""ONNX's RNN, GRU and LSTM, both directions with per-entry sequence
lengths read at run time, against a NumPy loop written from the ONNX
operator definitions; and a long sequence, which runs as a loop on the
device rather than one graph step per time step."""
import numpy as np
import onnx
import onnx.numpy_helper
import pytest
from onnx import TensorProto, helper

import popart
from session_helpers import DEVICES, anchored, device, run_session

GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def cell(op, x, h, c, w, r, wb, rb):
    """One step of the ONNX cell with its default activations; (h, c)."""
    hidden = h.shape[-1]
    if op == "RNN":
        return np.tanh(x @ w.T + h @ r.T + wb + rb), c
    if op == "GRU":
        # Gates z, r, h; linear_before_reset = 0.
        xw = x @ w.T + wb
        z = sigmoid(xw[:, :hidden] + h @ r[:hidden].T + rb[:hidden])
        reset = sigmoid(xw[:, hidden:2 * hidden] + h @ r[hidden:2 * hidden].T
                        + rb[hidden:2 * hidden])
        candidate = np.tanh(xw[:, 2 * hidden:] + (reset * h) @ r[2 * hidden:].T
                            + rb[2 * hidden:])
        return (1 - z) * candidate + z * h, c
    # LSTM: gates i, o, f, c.
    g = x @ w.T + h @ r.T + wb + rb
    i, o, f = (sigmoid(g[:, k * hidden:(k + 1) * hidden]) for k in range(3))
    c = f * c + i * np.tanh(g[:, 3 * hidden:])
    return o * np.tanh(c), c


def reference(op, x, w, r, b, lens, h0, c0, direction):
    """Y [T, dirs, B, H], Y_h and Y_c [dirs, B, H]: each entry runs over its
    own length, the reverse direction from its last step; outputs past the
    length are zero."""
    steps, batch, _ = x.shape
    dirs, _, hidden = h0.shape
    gates = GATES[op] * hidden
    y = np.zeros([steps, dirs, batch, hidden], np.float64)
    yh, yc = h0.astype(np.float64).copy(), c0.astype(np.float64).copy()
    for d in range(dirs):
        for e in range(batch):
            h, c = yh[d, e:e + 1], yc[d, e:e + 1]
            backwards = d == 1 or direction == "reverse"
            order = reversed(range(lens[e])) if backwards else range(lens[e])
            for t in order:
                h, c = cell(op, x[t, e:e + 1].astype(np.float64), h, c, w[d], r[d],
                            b[d, :gates], b[d, gates:])
                y[t, d, e] = h[0]
            yh[d, e], yc[d, e] = h[0], c[0]
    return y, yh, yc


def recurrent_model(op, steps, batch, inputs, hidden, direction):
    dirs = 2 if direction == "bidirectional" else 1
    gates = GATES[op] * hidden
    names = ["X", "W", "R", "B", "lens", "h0"] + (["c0"] if op == "LSTM" else [])
    outputs = ["Y", "Y_h"] + (["Y_c"] if op == "LSTM" else [])
    shapes = {"X": [steps, batch, inputs], "W": [dirs, gates, inputs],
              "R": [dirs, gates, hidden], "B": [dirs, 2 * gates],
              "h0": [dirs, batch, hidden], "c0": [dirs, batch, hidden]}
    graph_inputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, shapes[n])
                    for n in names if n != "lens"]
    graph_inputs.append(helper.make_tensor_value_info("lens", TensorProto.INT32, [batch]))
    out_shapes = {"Y": [steps, dirs, batch, hidden], "Y_h": [dirs, batch, hidden],
                  "Y_c": [dirs, batch, hidden]}
    node = helper.make_node(op, names, outputs, name="recurrent_" + op.lower(),
                            hidden_size=hidden, direction=direction)
    graph = helper.make_graph(
        [node], op.lower(), graph_inputs,
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, out_shapes[n]) for n in outputs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    onnx.checker.check_model(model)
    return model.SerializeToString(), outputs


def run_case(op, kind, steps, batch, inputs, hidden, direction, lens_sets, seed):
    rng = np.random.default_rng(seed)
    dirs = 2 if direction == "bidirectional" else 1
    gates = GATES[op] * hidden
    values = {
        "X": rng.uniform(-1, 1, [steps, batch, inputs]),
        "W": rng.uniform(-0.5, 0.5, [dirs, gates, inputs]),
        "R": rng.uniform(-0.5, 0.5, [dirs, gates, hidden]),
        "B": rng.uniform(-0.5, 0.5, [dirs, 2 * gates]),
        "h0": rng.uniform(-1, 1, [dirs, batch, hidden]),
        "c0": rng.uniform(-1, 1, [dirs, batch, hidden]),
    }
    values = {k: v.astype(np.float32) for k, v in values.items()}
    if op != "LSTM":
        del values["c0"]
    proto, outputs = recurrent_model(op, steps, batch, inputs, hidden, direction)
    session = popart.InferenceSession(fnModel=proto, dataFlow=anchored(outputs),
                                      deviceInfo=device(kind))
    session.prepareDevice()
    for lens in lens_sets:
        lens = np.array(lens, np.int32)
        got = run_session(session, {**values, "lens": lens})
        y, yh, yc = reference(op, values["X"], values["W"], values["R"], values["B"],
                              lens, values["h0"],
                              values.get("c0", np.zeros_like(values["h0"])), direction)
        np.testing.assert_allclose(got["Y"], y, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(got["Y_h"], yh, rtol=1e-4, atol=1e-5)
        if op == "LSTM":
            np.testing.assert_allclose(got["Y_c"], yc, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("kind", DEVICES)
@pytest.mark.parametrize("op", ["RNN", "GRU", "LSTM"])
def test_bidirectional_with_sequence_lengths(op, kind):
    """One session, two sets of lengths: each direction stops at (or, in
    reverse, starts from) each entry's own last step."""
    run_case(op, kind, steps=6, batch=3, inputs=2, hidden=4,
             direction="bidirectional", lens_sets=([6, 2, 4], [1, 6, 3]), seed=7)


@pytest.mark.parametrize("op", ["GRU", "LSTM"])
def test_long_sequence_runs_as_a_loop(op):
    """600 steps: the session holds one step of the cell in a loop, so it
    is made as quickly as a short one's would be."""
    run_case(op, "cpu", steps=600, batch=2, inputs=3, hidden=5, direction="reverse",
             lens_sets=([600, 450],), seed=11)
