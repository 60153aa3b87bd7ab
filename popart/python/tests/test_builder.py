"""popart.Builder from Python: the opsets and their selection, keyword
attributes with the ONNX schemas' defaults, tensor data from numpy, the
annotations and their context managers, and errors. Models are read back
with the ONNX library."""

import numpy as np
import onnx
import onnx.numpy_helper
import popart
import pytest


def model(builder):
    return onnx.load_from_string(builder.getModelProto())


def node(builder, output):
    return next(n for n in model(builder).graph.node if output in n.output)


def attributes(n):
    return {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute}


def test_every_opset_is_bound():
    for version in range(6, 18):
        builder = popart.Builder()
        opset = getattr(builder, f"aiOnnxOpset{version}")
        x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2]))
        opset.relu([x])
        imports = {o.domain: o.version for o in model(builder).opset_import}
        assert imports[""] == version
    # Opset 17's new operator, with its schema's defaults.
    builder = popart.Builder(opsets={"ai.onnx": 17, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 4]))
    scale = builder.addInitializedInputTensor(np.ones([4], np.float32))
    y = builder.aiOnnx.layernormalization([x, scale], num_outputs=1)[0]
    assert attributes(node(builder, y)) == {"axis": -1, "epsilon": pytest.approx(1e-5),
                                            "stash_type": 1}


def test_aiOnnx_is_the_default_opset_until_one_is_chosen():
    builder = popart.Builder()
    assert builder.aiOnnx.version == popart.defaultAiOnnxOpset == 10
    with pytest.raises(RuntimeError, match="aiOnnxOpset11"):
        builder.aiOnnxOpset11
    pinned = popart.Builder()
    x = pinned.addInputTensor(popart.TensorInfo("FLOAT", [1]))
    pinned.aiOnnxOpset13.abs([x])
    assert pinned.aiOnnx.version == 13
    with pytest.raises(ValueError, match="ai.onnx opset 99"):
        popart.Builder(opsets={"ai.onnx": 99, "ai.graphcore": 1})


def test_keyword_attributes_and_defaults():
    builder = popart.Builder(opsets={"ai.onnx": 11, "ai.graphcore": 1})
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [1, 2, 8, 8]))
    w = builder.addInitializedInputTensor(np.ones([4, 2, 3, 3], np.float32))
    c = builder.aiOnnx.conv([x, w], dilations=[1, 1], pads=[1, 1, 1, 1], strides=[2, 2])
    assert attributes(node(builder, c)) == {
        "dilations": [1, 1], "group": 1, "pads": [1, 1, 1, 1], "strides": [2, 2]}
    # Positional attributes in the schema's order, as the guide writes them.
    y = builder.aiOnnx.gemm([x, x, x], 2.0, 3.0, False, True)
    assert attributes(node(builder, y)) == {"alpha": 2.0, "beta": 3.0, "transA": 0,
                                            "transB": 1}
    # An optional attribute without a default is left out.
    s = builder.aiOnnx.reducesum([x], keepdims=0)
    assert attributes(node(builder, s)) == {"keepdims": 0}
    s = builder.aiOnnx.reducesum([x], axes=[1, 2])
    assert attributes(node(builder, s)) == {"axes": [1, 2], "keepdims": 1}
    outs = builder.aiOnnx.split([x], num_outputs=2, axis=1, split=[1, 1])
    assert len(outs) == 2
    t = builder.aiOnnx.cast([x], "INT32")
    assert attributes(node(builder, t))["to"] == onnx.TensorProto.INT32
    with pytest.raises(TypeError):
        builder.aiOnnx.conv([x, w], nonsense=1)


def test_debug_names():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 3]), "input")
    i = builder.addInputTensor(popart.TensorInfo("INT32", [2]), "indices")
    assert (x, i) == ("input", "indices")
    r = builder.aiOnnx.relu([x], "debug-name")
    assert node(builder, r).name == "debug-name"
    g = builder.aiOnnx.gather(["input", "indices"], axis=1, debugPrefix="My-Gather")
    assert node(builder, g).name == "My-Gather"
    g2 = builder.aiOnnx.gather([x, i], debugContext="Other")
    assert node(builder, g2).name == "Other"
    with pytest.raises(TypeError, match="both debugPrefix and debugContext"):
        builder.aiOnnx.relu([x], debugPrefix="a", debugContext="b")
    with builder.nameScope("layer1"):
        with builder.nameScope("inner"):
            n = builder.aiOnnx.neg([x])
    assert node(builder, n).name == "layer1/inner/Neg"
    assert builder.getNameScope() == ""


def test_initializers_and_constants_are_the_numpy_data():
    builder = popart.Builder()
    data = np.arange(12, dtype=np.float16).reshape(3, 4)
    w = builder.addInitializedInputTensor(data, "weights")
    # A transposed (not contiguous) array is stored in its logical order.
    k = builder.aiOnnx.constant(np.arange(6, dtype=np.int64).reshape(2, 3).T)
    m = model(builder)
    init = next(t for t in m.graph.initializer if t.name == w)
    np.testing.assert_array_equal(onnx.numpy_helper.to_array(init), data)
    value = attributes(node(builder, k))["value"]
    np.testing.assert_array_equal(onnx.numpy_helper.to_array(value),
                                  np.arange(6).reshape(2, 3).T)
    assert builder.getTensorShape(w) == [3, 4]
    assert builder.getTensorDtypeString(w) == "float16"
    assert builder.isInitializer(w)
    assert w in builder.getTrainableTensorIds()
    with pytest.raises(popart.popart_exception, match="complex128"):
        builder.addInitializedInputTensor(np.zeros(2, np.complex128))


def test_tensor_info():
    assert popart.TensorInfo("FLOAT", [2, 3]).shape() == [2, 3]
    assert popart.TensorInfo(np.float16, (4,)).data_type() == "FLOAT16"
    assert popart.TensorInfo(np.dtype("int32"), [1]).data_type_lcase() == "int32"
    assert popart.TensorInfo("float64", [1]).data_type() == "DOUBLE"
    info = popart.TensorInfo(np.zeros([5, 6], np.uint8))
    assert (info.data_type(), info.shape(), info.nelms(), info.nbytes()) == \
        ("UINT8", [5, 6], 30, 30)
    assert popart.TensorInfo("INT64", [2]) == popart.TensorInfo(np.int64, [2])
    assert str(popart.TensorInfo("FLOAT", [1, 2])) == "FLOAT [1 2]"
    with pytest.raises(popart.popart_exception, match="'WIDE' is not a data type"):
        popart.TensorInfo("WIDE", [1])


def test_annotations():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [1]))
    with builder.virtualGraph(0):
        a = builder.aiOnnx.relu([x])
        with builder.virtualGraph(1):
            b = builder.aiOnnx.relu([a])
        assert builder.getVirtualGraph() == 0
        c = builder.aiOnnx.relu([b])
    assert not builder.hasVirtualGraph()
    d = builder.aiOnnx.relu([c])
    assert [attributes(node(builder, t)).get("__ipu_number") for t in (a, b, c, d)] == \
        [0, 1, 0, None]
    builder.virtualGraph(d, 2)
    assert builder.getVirtualGraph(d) == 2
    builder.virtualGraph({a, b}, 3)
    assert builder.getVirtualGraph(a) == builder.getVirtualGraph(b) == 3
    with builder.pipelineStage(1), builder.executionPhase(2):
        e = builder.aiOnnx.relu([d])
    assert attributes(node(builder, e)) == {"__pipeline_stage": 1, "__execution_phase": 2}
    builder.pipelineStage(e, 4)
    assert attributes(node(builder, e))["__pipeline_stage"] == 4
    builder.setAvailableMemoryProportion(e, 0.5)
    builder.setPartialsType(e, "half")
    assert builder.getPartialsType(e) == "half"
    builder.excludePatterns(e, ["PreUniRepl"])
    builder.addNodeAttribute("myInts", [1, 2], {e})
    builder.addNodeAttribute("myFloat", 0.25, {e})
    assert builder.getInt64VectorNodeAttribute("myInts", {e}) == [1, 2]
    assert builder.getFloatNodeAttribute("myFloat", {e}) == 0.25
    assert builder.nodeHasAttribute("myInts", {e})
    builder.removeNodeAttribute("myInts", {e})
    assert not builder.nodeHasAttribute("myInts", {e})
    with pytest.raises(popart.popart_exception, match="'nothing'"):
        builder.virtualGraph("nothing", 1)


def test_custom_op_and_graphcore_ops():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 2]))
    out = builder.customOp(opName="LeakyRelu", opVersion=6, domain="com.acme",
                           inputs=[x], attributes={"alpha": 0.1, "mode": "fast",
                                                   "sizes": [1, 2]})
    n = node(builder, out[0])
    assert (n.domain, n.op_type) == ("com.acme", "LeakyRelu")
    assert attributes(n) == {"alpha": pytest.approx(0.1), "mode": b"fast", "sizes": [1, 2]}
    s = builder.aiGraphcore.scale([x], 3.0)
    assert (node(builder, s).domain, attributes(node(builder, s))) == \
        ("ai.graphcore", {"scale": 3.0})
    r = builder.aiGraphcoreOpset1.reshape(x, shape=[4])
    assert attributes(node(builder, r)) == {"shape": [4]}
    with pytest.raises(popart.popart_exception, match="Attribute 'bad'"):
        builder.customOp("X", 1, "com.acme", [x], {"bad": object()})


def test_models_in_and_out(tmp_path):
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [3]))
    y = builder.aiOnnx.sqrt([x])
    builder.addOutputTensor(y)
    proto = builder.getModelProto()
    assert isinstance(proto, bytes)
    assert "Sqrt" in builder.getModelProto(humanReadable=True)
    path = tmp_path / "m.onnx"
    builder.saveModelProto(str(path))
    for source in (proto, str(path)):
        loaded = popart.Builder(source)
        assert loaded.getInputTensorIds() == [x]
        assert loaded.getOutputTensorIds() == [y]
    with pytest.raises(popart.popart_exception, match="missing.onnx"):
        popart.Builder(str(tmp_path / "missing.onnx"))
