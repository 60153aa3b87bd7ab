"""InferenceSession from Python on the CPU device and the IPU Model:
results against numpy and PyTorch, the anchor arrays of each return type,
PyStepIO and PyStepIOCallback, reports, and the exceptions of each layer."""

import json

import numpy as np
import onnx
import onnx.numpy_helper
import popart
import pytest
import torch
from session_helpers import DEVICES, device, run_session as run


def session_of(builder, anchors, kind="cpu", batchesPerStep=1, **kwargs):
    dataFlow = popart.DataFlow(batchesPerStep, anchors)
    session = popart.InferenceSession(fnModel=builder.getModelProto(), dataFlow=dataFlow,
                                      deviceInfo=device(kind), **kwargs)
    session.prepareDevice()
    return session


@pytest.mark.parametrize("kind", DEVICES)
def test_ops_against_numpy(kind):
    rng = np.random.default_rng(1)
    x_data = rng.standard_normal([3, 5]).astype(np.float32)
    w_data = rng.standard_normal([5, 4]).astype(np.float32)
    b_data = rng.standard_normal([4]).astype(np.float32)
    builder = popart.Builder(opsets={"ai.onnx": 13, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [3, 5]))
    w = builder.addInitializedInputTensor(w_data)
    b = builder.addInitializedInputTensor(b_data)
    h = builder.aiOnnx.relu([builder.aiOnnx.add([builder.aiOnnx.matmul([x, w]), b])])
    p = builder.aiOnnx.softmax([h], axis=1)
    idx = builder.aiOnnx.constant(np.array([2, 0], np.int64))
    g = builder.aiOnnx.gather([x, idx], axis=1)
    s = builder.aiOnnx.reducesum([x, builder.aiOnnx.constant(np.array([0], np.int64))],
                                 keepdims=0)
    anchors = run(session_of(builder, {t: popart.AnchorReturnType("ALL")
                                       for t in (p, g, s)}, kind), {x: x_data})
    hidden = np.maximum(x_data @ w_data + b_data, 0)
    expected = np.exp(hidden) / np.exp(hidden).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(anchors[p], expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(anchors[g], x_data[:, [2, 0]])
    np.testing.assert_allclose(anchors[s], x_data.sum(axis=0), rtol=1e-5)


@pytest.mark.parametrize("kind", DEVICES)
def test_conv_against_torch(kind):
    rng = np.random.default_rng(2)
    x_data = rng.standard_normal([1, 2, 7, 7]).astype(np.float32)
    w_data = rng.standard_normal([3, 2, 3, 3]).astype(np.float32)
    bias = rng.standard_normal([3]).astype(np.float32)
    builder = popart.Builder(opsets={"ai.onnx": 11, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo(x_data))
    w = builder.addInitializedInputTensor(w_data)
    b = builder.addInitializedInputTensor(bias)
    y = builder.aiOnnx.conv([x, w, b], dilations=[1, 1], pads=[1, 0, 1, 2], strides=[2, 1])
    got = run(session_of(builder, {y: popart.AnchorReturnType("ALL")}, kind), {x: x_data})[y]
    padded = torch.nn.functional.pad(torch.from_numpy(x_data), (0, 2, 1, 1))
    expected = torch.nn.functional.conv2d(padded, torch.from_numpy(w_data),
                                          torch.from_numpy(bias), stride=(2, 1))
    np.testing.assert_allclose(got, expected.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kind", DEVICES)
def test_anchor_return_types(kind):
    """Four batches per step: each return type's array shape and values."""
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2]))
    outs = {name: builder.aiOnnx.mul([x, builder.aiOnnx.constant(np.float32([k]))])
            for k, name in enumerate(["all", "everyn", "final", "sum"], start=1)}
    arts = {outs["all"]: popart.AnchorReturnType("ALL"),
            outs["everyn"]: popart.AnchorReturnType("EVERYN", 2),
            outs["final"]: popart.AnchorReturnType("Final"),
            outs["sum"]: popart.AnchorReturnType("SUM")}
    session = session_of(builder, arts, kind, batchesPerStep=4)
    data = np.arange(8, dtype=np.float32).reshape(4, 2)
    anchors = run(session, {x: data})
    assert {k: anchors[v].shape for k, v in outs.items()} == \
        {"all": (4, 2), "everyn": (2, 2), "final": (2,), "sum": (2,)}
    np.testing.assert_array_equal(anchors[outs["all"]], data * 1)
    np.testing.assert_array_equal(anchors[outs["everyn"]], data[[1, 3]] * 2)
    np.testing.assert_array_equal(anchors[outs["final"]], data[3] * 3)
    np.testing.assert_array_equal(anchors[outs["sum"]], data.sum(axis=0) * 4)
    assert session.dataFlow.batchesPerStep() == 4
    assert (session.replicationFactor, session.accumulationFactor) == (1, 1)


def test_anchor_shape_drops_dimensions_of_one():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("INT32", [1, 3]))
    y = builder.aiOnnx.neg([x])
    one = session_of(builder, {y: popart.AnchorReturnType("ALL")})
    arrays = one.initAnchorArrays()
    assert arrays[y].shape == (1, 3) and arrays[y].dtype == np.int32
    five = session_of(builder, {y: popart.AnchorReturnType("ALL")}, batchesPerStep=5)
    assert five.initAnchorArrays()[y].shape == (5, 1, 3)


def test_input_shape_info():
    """An input the model leaves without a type gets one from InputShapeInfo."""
    builder = popart.Builder()
    x = builder.addUntypedInputTensor("x")
    y = builder.aiOnnx.relu([x])
    shapes = popart.InputShapeInfo()
    shapes.add(x, popart.TensorInfo("FLOAT", [3]))
    assert shapes.has(x) and shapes.getAllTensorIds() == [x]
    session = session_of(builder, {y: popart.AnchorReturnType("ALL")},
                         inputShapeInfo=shapes)
    assert session.getInfo(y) == popart.TensorInfo("FLOAT", [3])
    data = np.float32([-1, 2, -3])
    np.testing.assert_array_equal(run(session, {x: data})[y], np.maximum(data, 0))


def test_step_io_errors_name_the_tensor():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [4]), "data")
    y = builder.aiOnnx.abs([x])
    session = session_of(builder, {y: popart.AnchorReturnType("ALL")})
    anchors = session.initAnchorArrays()
    with pytest.raises(popart.popart_exception, match="'data'.*INT32.*FLOAT"):
        session.run(popart.PyStepIO({x: np.ones(4, np.int32)}, anchors))
    with pytest.raises(popart.popart_exception, match="'data' has 3 elements"):
        session.run(popart.PyStepIO({x: np.ones(3, np.float32)}, anchors))
    with pytest.raises(popart.popart_exception, match="no input array.*'data'"):
        session.run(popart.PyStepIO({}, anchors))
    with pytest.raises(popart.popart_exception, match=f"'{y}' is not C-contiguous"):
        popart.PyStepIO({x: np.ones(4, np.float32)},
                        {y: np.empty([4, 2], np.float32)[:, 0]})
    with pytest.raises(popart.popart_exception, match=f"anchor '{y}' must be a numpy"):
        popart.PyStepIO({x: np.ones(4, np.float32)}, {y: [0.0] * 4})
    with pytest.raises(popart.popart_exception, match="'data'.*complex64"):
        popart.PyStepIO({x: np.ones(4, np.complex64)}, anchors)
    # An input that is not contiguous is copied; the result is right.
    strided = np.arange(-8, 0, dtype=np.float32)[::2]
    session.run(popart.PyStepIO({x: strided}, anchors))
    np.testing.assert_array_equal(anchors[y], np.abs(strided))


def test_step_io_uses_the_arrays_in_place():
    """PyStepIO reads and writes the user's arrays, not copies: a change to
    an input between runs is seen, and the anchor arrays are written."""
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2]))
    y = builder.aiOnnx.add([x, x])
    session = session_of(builder, {y: popart.AnchorReturnType("ALL")})
    data = np.float32([1, 2])
    anchors = session.initAnchorArrays()
    result = anchors[y]
    stepio = popart.PyStepIO({x: data}, anchors)
    session.run(stepio)
    np.testing.assert_array_equal(result, [2, 4])
    data[:] = [3, 5]
    session.run(stepio)
    np.testing.assert_array_equal(result, [6, 10])
    assert anchors[y] is result


def test_step_io_callback():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2]))
    y = builder.aiOnnx.add([x, x])
    session = session_of(builder, {y: popart.AnchorReturnType("ALL")}, batchesPerStep=3)
    batches = [np.float32([i, -i]) for i in range(3)]
    results = [np.zeros(2, np.float32) for _ in range(3)]
    calls = []

    def input_callback(tensor, prefetch):
        calls.append(("in", tensor))
        return batches[sum(1 for c in calls if c == ("in", tensor)) - 1]

    def output_callback(tensor):
        calls.append(("out", tensor))
        return results[sum(1 for c in calls if c == ("out", tensor)) - 1]

    stepio = popart.PyStepIOCallback(input_callback,
                                     lambda t: calls.append(("in done", t)),
                                     output_callback,
                                     lambda t: calls.append(("out done", t)))
    session.run(stepio)
    for b, r in zip(batches, results):
        np.testing.assert_array_equal(r, 2 * b)
    assert calls.count(("in done", x)) == 3 and calls.count(("out done", y)) == 3

    def failing_input(tensor, prefetch):
        raise KeyError(f"no data for {tensor}")

    with pytest.raises(KeyError, match="no data for"):
        session.run(popart.PyStepIOCallback(failing_input, lambda t: None,
                                            output_callback, lambda t: None))


def test_session_errors():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2]))
    y = builder.aiOnnx.relu([x])
    proto = builder.getModelProto()
    flow = popart.DataFlow(1, {y: popart.AnchorReturnType("ALL")})
    cpu = popart.DeviceManager().createCpuDevice()
    with pytest.raises(popart.popart_exception, match="'nothing'"):
        popart.InferenceSession(proto, popart.DataFlow(1, {"nothing": popart.AnchorReturnType("ALL")}), cpu)
    with pytest.raises(TypeError, match="dataFlow"):
        popart.InferenceSession(proto, deviceInfo=cpu)
    # The guide's older keyword for the DataFlow.
    session = popart.InferenceSession(proto, deviceInfo=cpu, dataFeed=flow)
    assert session.dataFlow.anchors() == [y]
    session.prepareDevice()
    # Poplar's errors are poplar_exception: the CPU has no profile.
    with pytest.raises(popart.poplar_exception):
        session.getSummaryReport()
    options = popart.SessionOptions()
    options.engineOptions["no.such.option"] = "1"
    bad = popart.InferenceSession(proto, flow, cpu, userOptions=options)
    with pytest.raises(popart.poplar_exception, match="no.such.option"):
        bad.prepareDevice()
    with pytest.raises(popart.popart_exception, match="Unknown logging module 'nope'"):
        popart.getLogger("nope")
    # PopLibs' errors are poplibs_exception: no matmul plan fits one tile.
    with pytest.raises(popart.poplibs_exception, match="poplin: no matmul plan"):
        too_big_for_one_tile("matmul").prepareDevice()


def too_big_for_one_tile(op):
    """A session of `op` on two 512x512 matrices on a 1-tile IPU Model."""
    builder = popart.Builder()
    a = builder.addInputTensor(popart.TensorInfo("FLOAT", [512, 512]))
    y = getattr(builder.aiOnnx, op)([a, a])
    return popart.InferenceSession(
        builder.getModelProto(), popart.DataFlow(1, {y: popart.AnchorReturnType("ALL")}),
        popart.DeviceManager().createIpuModelDevice({"tilesPerIPU": 1}))


def test_out_of_memory():
    session = too_big_for_one_tile("add")
    with pytest.raises(popart.OutOfMemoryException) as error:
        session.prepareDevice()
    assert isinstance(error.value, popart.popart_exception)
    assert "Out of memory" in str(error.value)
    assert "Memory Usage:" in error.value.getSummaryReport()
    assert error.value.getProfilePath() == ""


def test_reports_and_model_to_host(tmp_path):
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [4]))
    w_data = np.float32([1, 2, 3, 4])
    w = builder.addInitializedInputTensor(w_data)
    y = builder.aiOnnx.mul([x, w])
    options = popart.SessionOptions()
    options.constantWeights = False
    session = session_of(builder, {y: popart.AnchorReturnType("ALL")}, "ipumodel",
                         userOptions=options)
    session.weightsFromHost()
    anchors = run(session, {x: np.ones(4, np.float32)})
    np.testing.assert_array_equal(anchors[y], w_data)
    graph = json.loads(session.getGraphReport())
    assert graph["target"]["numTiles"] == 4
    assert isinstance(session.getGraphReport(useCbor=True), bytes)
    execution = json.loads(session.getExecutionReport())
    assert execution["simulation"]["cycles"] > 0
    assert "Memory Usage:" in session.getSummaryReport()
    assert session.getInfo(y).shape() == [4] and session.hasInfo(w)
    assert set(session.getAllTensorIds()) >= {x, w, y}
    session.weightsToHost()
    session.modelToHost(str(tmp_path / "out.onnx"))
    model = onnx.load(str(tmp_path / "out.onnx"))
    init = next(t for t in model.graph.initializer if t.name == w)
    np.testing.assert_array_equal(onnx.numpy_helper.to_array(init), w_data)
    assert json.loads(session._serializeIr(popart.IrSerializationFormat.JSON))
