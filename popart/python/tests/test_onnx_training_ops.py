# The training operators of ONNX in an InferenceSession: the
# ai.onnx.preview.training Gradient node (checked against torch.autograd)
# and BatchNormalization's training mode (checked against NumPy).
import numpy as np
import onnx
import onnx.helper as oh
import onnx.numpy_helper
import popart
import pytest
import torch
from session_helpers import DEVICES, anchored, device, run_session

FLOAT = onnx.TensorProto.FLOAT


def model_of(nodes, inputs, outputs, initializers=(), opset=13):
    graph = oh.make_graph(nodes, "g", [oh.make_tensor_value_info(n, FLOAT, s) for n, s in inputs],
                          [oh.make_tensor_value_info(n, FLOAT, s) for n, s in outputs],
                          initializer=list(initializers))
    model = oh.make_model(graph, opset_imports=[oh.make_opsetid("", opset),
                                                oh.make_opsetid("ai.onnx.preview.training", 1)])
    return model.SerializeToString()


def session_of(proto, outputs, kind="cpu"):
    session = popart.InferenceSession(fnModel=proto, dataFlow=anchored(outputs),
                                      deviceInfo=device(kind))
    session.prepareDevice()
    return session


def run(proto, outputs, feeds, kind="cpu"):
    return run_session(session_of(proto, outputs, kind), feeds)


def gradient(inputs, outputs, xs, y, zs=(), name="grad"):
    kwargs = {"xs": list(xs), "y": y}
    if zs:
        kwargs["zs"] = list(zs)
    return oh.make_node("Gradient", list(inputs), list(outputs), name=name,
                        domain="ai.onnx.preview.training", **kwargs)


@pytest.mark.parametrize("kind", DEVICES)
def test_gradient_of_a_layer_matches_autograd(kind):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 3)).astype(np.float32)
    w = rng.standard_normal((3, 5)).astype(np.float32)
    b = rng.standard_normal((5,)).astype(np.float32)
    nodes = [oh.make_node("MatMul", ["x", "w"], ["h"]),
             oh.make_node("Add", ["h", "b"], ["a"]),
             oh.make_node("Tanh", ["a"], ["t"]),
             oh.make_node("Mul", ["t", "t"], ["y"]),   # y is [4, 5]: its sum is differentiated
             gradient(["w", "b", "x"], ["dw", "db"], xs=["w", "b"], zs=["x"], y="y")]
    proto = model_of(nodes, [("x", [4, 3]), ("w", [3, 5]), ("b", [5])], [("y", [4, 5]), ("dw", [3, 5]), ("db", [5])])
    got = run(proto, ["y", "dw", "db"], {"x": x, "w": w, "b": b}, kind)

    tw, tb = torch.tensor(w, requires_grad=True), torch.tensor(b, requires_grad=True)
    ty = torch.tanh(torch.tensor(x) @ tw + tb) ** 2
    ty.sum().backward()
    np.testing.assert_allclose(got["y"], ty.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got["dw"], tw.grad.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got["db"], tb.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_gradient_at_other_values_and_of_an_intermediate():
    # The Gradient's inputs give the xs their values: here the
    # intermediate h is differentiated at h1, a value of the user's.
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    h1 = rng.standard_normal((2, 3)).astype(np.float32)
    nodes = [oh.make_node("Exp", ["x"], ["h"]),
             oh.make_node("Sin", ["h"], ["s"]),
             oh.make_node("ReduceSum", ["s"], ["y"], keepdims=0),
             gradient(["h1"], ["dy_dh"], xs=["h"], y="y")]
    proto = model_of(nodes, [("x", [2, 3]), ("h1", [2, 3])], [("y", []), ("dy_dh", [2, 3])])
    got = run(proto, ["y", "dy_dh"], {"x": x, "h1": h1})
    np.testing.assert_allclose(got["y"], np.sin(np.exp(x)).sum(), rtol=1e-5)
    np.testing.assert_allclose(got["dy_dh"], np.cos(h1), rtol=1e-5, atol=1e-6)


def test_gradient_of_an_unused_x_is_zero_and_weights_read_implicitly():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((3,)).astype(np.float32)
    c = rng.standard_normal((3,)).astype(np.float32)
    w = onnx.numpy_helper.from_array(np.array([2.0, -1.0, 0.5], np.float32), "w")
    nodes = [oh.make_node("Mul", ["a", "w"], ["y"]),
             gradient(["a", "c"], ["da", "dc"], xs=["a", "c"], y="y")]
    proto = model_of(nodes, [("a", [3]), ("c", [3])], [("da", [3]), ("dc", [3])], [w])
    got = run(proto, ["da", "dc"], {"a": a, "c": c})
    np.testing.assert_allclose(got["da"], [2.0, -1.0, 0.5])
    np.testing.assert_array_equal(got["dc"], np.zeros(3, np.float32))


def test_gradient_errors_name_the_node():
    shapes = [("a", [2]), ("b", [2])]
    add = oh.make_node("Add", ["a", "b"], ["y"])
    cases = [
        ([add, oh.make_node("Gradient", ["a"], ["da"], name="grad",
                            domain="ai.onnx.preview.training", xs=["a"])],
         "attribute 'y' is missing"),
        ([add, gradient(["a", "b"], ["da"], xs=["a"], y="y")], "2 inputs, but xs and zs name 1"),
        ([gradient(["a"], ["da"], xs=["a"], y="y"), add], "'y' is computed after it"),
        ([add, gradient(["a", "a"], ["da", "da2"], xs=["a", "a"], y="y")], "named twice"),
    ]
    for nodes, message in cases:
        with pytest.raises(popart.popart_exception, match=message) as e:
            run(model_of(nodes, shapes, [("y", [2])]), ["y"], {})
        assert "grad" in str(e.value)


def batchnorm_reference(x, scale, bias, mean, var, momentum, epsilon):
    axes = (0,) + tuple(range(2, x.ndim))
    shape = [1, -1] + [1] * (x.ndim - 2)
    batch_mean, batch_var = x.mean(axis=axes), x.var(axis=axes)
    y = (x - batch_mean.reshape(shape)) / np.sqrt(batch_var.reshape(shape) + epsilon)
    y = y * scale.reshape(shape) + bias.reshape(shape)
    return (y, mean * momentum + batch_mean * (1 - momentum),
            var * momentum + batch_var * (1 - momentum))


@pytest.mark.parametrize("kind", DEVICES)
def test_batchnorm_training_mode_in_inference(kind):
    rng = np.random.default_rng(6)
    x = rng.standard_normal((3, 2, 4, 5)).astype(np.float32) * 2 + 1
    scale, bias = rng.standard_normal(2).astype(np.float32), rng.standard_normal(2).astype(np.float32)
    mean = onnx.numpy_helper.from_array(np.array([0.5, -0.25], np.float32), "mean")
    var = onnx.numpy_helper.from_array(np.array([1.5, 0.75], np.float32), "var")
    nodes = [oh.make_node("BatchNormalization", ["x", "scale", "bias", "mean", "var"],
                          ["y", "running_mean", "running_var"], training_mode=1,
                          momentum=0.8, epsilon=1e-3)]
    proto = model_of(nodes, [("x", [3, 2, 4, 5]), ("scale", [2]), ("bias", [2])],
                     [("y", [3, 2, 4, 5]), ("running_mean", [2]), ("running_var", [2])],
                     [mean, var], opset=15)
    expected = batchnorm_reference(x, scale, bias, onnx.numpy_helper.to_array(mean),
                                   onnx.numpy_helper.to_array(var), 0.8, 1e-3)
    # Two runs of one session: the running statistics given are inputs of
    # the outputs, not changed by a run.
    session = session_of(proto, ["y", "running_mean", "running_var"], kind)
    for _ in range(2):
        got = run_session(session, {"x": x, "scale": scale, "bias": bias})
        for name, want in zip(["y", "running_mean", "running_var"], expected):
            np.testing.assert_allclose(got[name], want, rtol=1e-4, atol=1e-5)
