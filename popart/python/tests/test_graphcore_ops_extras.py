"""builder.aiGraphcore's batchnormalization, printtensor and replicated
collectives from Python: values against NumPy (per replica for the
collectives, with 2 replicas), printed text against the original's
strings and numpy's layout, gradients against central differences, and
the errors that name the op."""

import re

import numpy as np
import popart
import pytest


def cpu():
    return popart.DeviceManager().createCpuDevice()


def ipu_model(ipus):
    return popart.DeviceManager().createIpuModelDevice({
        "numIPUs": ipus,
        "tilesPerIPU": 4
    })


def infer(builder, outputs, inputs, device=None, opts=None):
    for o in outputs:
        builder.addOutputTensor(o)
    flow = popart.DataFlow(1, {o: popart.AnchorReturnType("ALL") for o in outputs})
    kwargs = {} if opts is None else {"userOptions": opts}
    session = popart.InferenceSession(fnModel=builder.getModelProto(),
                                      dataFlow=flow,
                                      deviceInfo=device or cpu(), **kwargs)
    session.prepareDevice()
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO(inputs, anchors))
    return [anchors[o] for o in outputs]


def train(builder, loss, anchored, inputs, learning_rate=0.0):
    flow = popart.DataFlow(1, {a: popart.AnchorReturnType("ALL") for a in anchored})
    session = popart.TrainingSession(fnModel=builder.getModelProto(),
                                     dataFlow=flow, loss=loss,
                                     optimizer=popart.ConstSGD(learning_rate),
                                     deviceInfo=cpu())
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO(inputs, anchors))
    return [anchors[a] for a in anchored]


# ---------------------------------------------------------------- batchnorm

def bn_inputs(rng):
    return (rng.normal(size=(4, 3, 2)).astype(np.float32),
            rng.normal(1.0, 0.2, size=3).astype(np.float32),
            rng.normal(size=3).astype(np.float32),
            rng.normal(size=3).astype(np.float32),
            rng.uniform(0.5, 1.5, size=3).astype(np.float32))


def test_batchnormalization_inference_uses_running_statistics():
    x, scale, bias, mean, var = bn_inputs(np.random.default_rng(1))
    builder = popart.Builder()
    ix = builder.addInputTensor(popart.TensorInfo("FLOAT", x.shape))
    consts = [builder.aiOnnx.constant(v) for v in (scale, bias, mean, var)]
    (y, ) = builder.aiGraphcore.batchnormalization([ix] + consts, num_outputs=1,
                                                   epsilon=1e-3)
    (got, ) = infer(builder, [y], {ix: x})
    want = ((x - mean[:, None]) / np.sqrt(var[:, None] + 1e-3) * scale[:, None] +
            bias[:, None])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_batchnormalization_training_variance_is_unbiased():
    """The Graphcore form: the batch variance (output 4, and what the
    running variance moves towards) divides by N - 1, ONNX's by N; Y is
    normalised with the biased one in both."""
    rng = np.random.default_rng(2)
    x, scale, bias, mean, var = bn_inputs(rng)
    r = rng.normal(size=x.shape).astype(np.float32)
    eps, momentum = 1e-5, 0.8
    builder = popart.Builder()
    ix = builder.addInputTensor(popart.TensorInfo("FLOAT", x.shape), "x")
    ir = builder.addInputTensor(popart.TensorInfo("FLOAT", x.shape), "r")
    w = [builder.addInitializedInputTensor(v) for v in (scale, bias)]
    stats = [builder.addInitializedInputTensor(v) for v in (mean, var)]
    y, rmean, rvar, smean, svar = builder.aiGraphcore.batchnormalization(
        [ix] + w + stats, 5, epsilon=eps, momentum=momentum)
    loss = builder.aiGraphcore.identityloss([builder.aiOnnx.mul([y, ir])],
                                            reduction=popart.ReductionType.Sum)
    grad = popart.reservedGradientPrefix() + ix
    got = train(builder, loss, [y, rmean, rvar, smean, svar, grad], {ix: x, ir: r})

    xd = x.astype(np.float64)
    n = x.shape[0] * x.shape[2]
    bmean = xd.mean(axis=(0, 2))
    bvar_biased = xd.var(axis=(0, 2))
    bvar = xd.var(axis=(0, 2), ddof=1)
    norm = (xd - bmean[:, None]) / np.sqrt(bvar_biased[:, None] + eps)
    np.testing.assert_allclose(got[0], norm * scale[:, None] + bias[:, None],
                               rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(got[1], momentum * mean + (1 - momentum) * bmean,
                               rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got[2], momentum * var + (1 - momentum) * bvar,
                               rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got[3], bmean, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got[4], bvar, rtol=1e-4, atol=1e-5)
    assert not np.allclose(got[4], bvar_biased, rtol=1e-3)
    assert n == 8

    # d(sum(y * r))/dx by central differences of the host's forward pass.
    def loss_of(xv):
        m = xv.mean(axis=(0, 2))
        v = xv.var(axis=(0, 2))
        yv = (xv - m[:, None]) / np.sqrt(v[:, None] + eps) * scale[:, None] + bias[:, None]
        return float((yv * r).sum())

    h = 1e-4
    numeric = np.zeros_like(xd)
    for i in np.ndindex(*x.shape):
        up, down = xd.copy(), xd.copy()
        up[i] += h
        down[i] -= h
        numeric[i] = (loss_of(up) - loss_of(down)) / (2 * h)
    np.testing.assert_allclose(got[5], numeric, rtol=1e-3, atol=1e-3)


def test_batchnormalization_errors_name_the_op():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 3]))
    with pytest.raises(popart.popart_exception, match="BatchNormalization takes 5 inputs"):
        builder.aiGraphcore.batchnormalization([x, x], 1)
    with pytest.raises(popart.popart_exception, match="BatchNormalization has 1 to 5 outputs"):
        builder.aiGraphcore.batchnormalization([x] * 5, 6)


# -------------------------------------------------------------- printtensor

def test_printtensor_prints_and_passes_through(capfd):
    """The original's test: two sums printed with their ids as titles,
    integers right-aligned to one width."""
    builder = popart.Builder()
    shape = popart.TensorInfo("INT32", [3])
    i1 = builder.addInputTensor(shape)
    i2 = builder.addInputTensor(shape)
    a1 = builder.aiOnnx.add([i1, i2])
    p1 = builder.aiGraphcore.printtensor([a1])
    a2 = builder.aiOnnx.add([i1, p1])
    p2 = builder.aiGraphcore.printtensor([a2])
    capfd.readouterr()
    (got, ) = infer(builder, [p2], {
        i1: np.array([1, 2, 3], dtype=np.int32),
        i2: np.array([4, 5, 6], dtype=np.int32)
    })
    out = capfd.readouterr().out
    np.testing.assert_array_equal(got, [6, 9, 12])
    lines = [l for l in out.splitlines() if l.startswith(a1 + ":") or l.startswith(a2 + ":")]
    assert lines == [f"{a1}: [5 7 9]", f"{a2}: [ 6  9 12]"]


def test_printtensor_layout_matches_numpy(capfd):
    """Integers laid out as numpy lays them out: rows, blocks, the summary
    of the edges, and the line split."""
    cases = [
        (np.arange(12, dtype=np.int32).reshape(3, 4), {}, {}),
        (np.arange(24, dtype=np.int32).reshape(2, 3, 4), {}, {}),
        (np.arange(40, dtype=np.int32).reshape(4, 10), {"summariseThreshold": 20, "edgeItems": 2},
         {"threshold": 20, "edgeitems": 2}),
        (np.arange(100, 130, dtype=np.int32), {"maxLineWidth": 30}, {"max_line_width": 30}),
    ]
    for k, (value, fmt, numpy_fmt) in enumerate(cases):
        builder = popart.Builder()
        x = builder.addInputTensor(popart.TensorInfo("INT32", value.shape))
        y = builder.aiGraphcore.printtensor([x], title=f"case{k}", **fmt)
        capfd.readouterr()
        (got, ) = infer(builder, [y], {x: value})
        out = capfd.readouterr().out
        np.testing.assert_array_equal(got, value)
        want = np.array2string(value, **numpy_fmt)
        assert f"case{k}: {want}\n" in out, (out, want)


def test_printtensor_float_formats(capfd):
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 2]))
    tiny = builder.addInputTensor(popart.TensorInfo("FLOAT", [2]))
    outs = [
        builder.aiGraphcore.printtensor([x], title="auto"),
        builder.aiGraphcore.printtensor([x], title="sci", digits=4, floatFormat=2),
        builder.aiGraphcore.printtensor([x], title="fixed", digits=3, floatFormat=1,
                                        separator=",", openBracket="|", closeBracket="|"),
        builder.aiGraphcore.printtensor([tiny], title="tiny"),
        builder.aiGraphcore.printtensor([x], title="none", floatFormat=3),
    ]
    value = np.array([[1.5, -20.25], [0.125, 3.0]], dtype=np.float32)
    capfd.readouterr()
    got = infer(builder, outs, {x: value, tiny: np.array([2.0**-30, 2.0], dtype=np.float32)})
    out = capfd.readouterr().out
    for g in got[:3] + got[4:]:
        np.testing.assert_array_equal(g, value)
    # digits 8, two before the point: six after, one width.
    assert "auto: [[  1.500000 -20.250000]\n [  0.125000   3.000000]]\n" in out
    assert "sci: [[ 1.500e+00 -2.025e+01]\n [ 1.250e-01  3.000e+00]]\n" in out
    assert "fixed: ||  1.5,-20.2|,\n |  0.1,  3.0||\n" in out or \
        "fixed: ||  1.5,-20.3|,\n |  0.1,  3.0||\n" in out
    # 2^-30 vanishes in fixed form: scientific.
    assert "tiny: [9.3132257e-10 2.0000000e+00]\n" in out
    assert "none: [[1.5 -20.25]\n [0.125 3]]\n" in out


def test_printtensor_gradient_in_training(capfd):
    """The original's training test: the filter and its gradient printed
    (print_gradient 1), the convolution's output but not its gradient
    (print_gradient 0), with the original's expected text."""
    filt = np.array([1.0, 2.0, 1.0, 2.0], dtype=np.float32).reshape(1, 1, 2, 2)
    data = np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32).reshape(1, 1, 2, 2)
    builder = popart.Builder()
    i1 = builder.addInputTensor(popart.TensorInfo("FLOAT", data.shape), "data")
    i2 = builder.addInitializedInputTensor(filt, "filter")
    p1 = builder.aiGraphcore.printtensor([i2])
    c1 = builder.aiOnnx.conv([i1, p1], dilations=[1, 1], pads=[1, 1, 1, 1], strides=[2, 2])
    o = builder.aiGraphcore.printtensor([c1], print_gradient=0, title="bar")
    loss = builder.aiGraphcore.l1loss([o], 0.1, reduction=popart.ReductionType.Sum)
    capfd.readouterr()
    (conv, ) = train(builder, loss, [o], {i1: data}, learning_rate=0.1)
    out = re.sub(r"\s", "", capfd.readouterr().out)
    np.testing.assert_allclose(conv.reshape(-1), [2, 2, 6, 4])
    d_i2 = popart.reservedGradientPrefix() + i2
    assert i2 + ":[[[[1.00000002.0000000][1.00000002.0000000]]]]" in out
    assert "bar:[[[[2.00000002.0000000][6.00000004.0000000]]]]" in out
    assert d_i2 + ":[[[[0.40000000.3000000][0.20000000.1000000]]]]" in out
    assert "bar_gradient" not in out


def test_printtensor_errors_name_the_op():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2]))
    with pytest.raises(popart.popart_exception, match="PrintTensor takes 1 input"):
        builder.aiGraphcore.printtensor([x, x])
    y = builder.aiGraphcore.printtensor([x], floatFormat=7, debugContext="p")
    with pytest.raises(popart.popart_exception, match=r"PrintTensor.*floatFormat is 7"):
        infer(builder, [y], {x: np.zeros(2, np.float32)})


# --------------------------------------------------------------- collectives

REPLICAS = 2


def replicated(build, data, replicas=REPLICAS):
    """The model `build` makes of one input, run with `replicas` replicas;
    data[r] is replica r's input, the result [replicas, ...]."""
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo(
        "FLOAT" if data.dtype == np.float32 else "INT32", data.shape[1:]))
    y = build(builder, x)
    opts = popart.SessionOptions()
    opts.enableReplicatedGraphs = True
    opts.replicatedGraphCount = replicas
    (got, ) = infer(builder, [y], {x: data}, device=ipu_model(replicas), opts=opts)
    return got


@pytest.mark.parametrize("op,reduce", [
    (None, np.sum),
    (popart.CollectiveOperator.Add, np.sum),
    (popart.CollectiveOperator.Mean, np.mean),
    (popart.CollectiveOperator.Max, np.max),
    (popart.CollectiveOperator.Min, np.min),
    (popart.CollectiveOperator.Mul, np.prod),
])
def test_replicatedallreduce(op, reduce):
    data = np.random.default_rng(5).normal(size=(REPLICAS, 2, 3)).astype(np.float32)
    got = replicated(lambda b, x: b.aiGraphcore.replicatedallreduce([x], collectiveOperator=op), data)
    want = reduce(data.astype(np.float64), axis=0)
    for r in range(REPLICAS):
        np.testing.assert_allclose(got[r], want, rtol=1e-5, atol=1e-6)


def test_replicatedallreduce_groups_of_four_replicas():
    data = np.arange(4 * 3, dtype=np.int32).reshape(4, 3) ** 2
    consecutive = replicated(
        lambda b, x: b.aiGraphcore.replicatedallreduce(
            [x], commGroup=popart.CommGroup(popart.CommGroupType.Consecutive, 2)),
        data, replicas=4)
    orthogonal = replicated(
        lambda b, x: b.aiGraphcore.replicatedallreduce(
            [x], commGroup=popart.CommGroup(popart.CommGroupType.Orthogonal, 2)),
        data, replicas=4)
    for r in range(4):
        first = r - r % 2  # replicas {0, 1} and {2, 3}
        np.testing.assert_array_equal(consecutive[r], data[first] + data[first + 1])
        # replicas {0, 2} and {1, 3}
        np.testing.assert_array_equal(orthogonal[r], data[r % 2] + data[r % 2 + 2])


def test_replicatedreducescatter():
    """5 elements over 2 replicas: 3 each, the last part padded with 0."""
    data = np.random.default_rng(6).normal(size=(REPLICAS, 5)).astype(np.float32)
    got = replicated(lambda b, x: b.aiGraphcore.replicatedreducescatter([x]), data)
    total = np.concatenate([data.sum(axis=0), [0.0]])
    assert got.shape == (REPLICAS, 3)
    for r in range(REPLICAS):
        np.testing.assert_allclose(got[r], total[3 * r:3 * r + 3], rtol=1e-5)
    local = replicated(lambda b, x: b.aiGraphcore.replicatedreducescatter(
        [x], collectiveOperator=popart.CollectiveOperator.Local), data)
    for r in range(REPLICAS):
        mine = np.concatenate([data[r], [0.0]])
        np.testing.assert_allclose(local[r], mine[3 * r:3 * r + 3], rtol=1e-6)


def reduce_scatter_training(op, data, r):
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", data.shape[1:]), "x")
    ir = builder.addInputTensor(popart.TensorInfo("FLOAT", r.shape[1:]), "r")
    y = builder.aiGraphcore.replicatedreducescatter([x], collectiveOperator=op)
    loss = builder.aiGraphcore.identityloss([builder.aiOnnx.mul([y, ir])],
                                            reduction=popart.ReductionType.Sum)
    grad = popart.reservedGradientPrefix() + x
    opts = popart.SessionOptions()
    opts.enableReplicatedGraphs = True
    opts.replicatedGraphCount = REPLICAS
    flow = popart.DataFlow(1, {t: popart.AnchorReturnType("ALL") for t in (y, grad)})
    session = popart.TrainingSession(fnModel=builder.getModelProto(), dataFlow=flow,
                                     loss=loss, optimizer=popart.ConstSGD(0.0),
                                     deviceInfo=ipu_model(REPLICAS), userOptions=opts)
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO({x: data, ir: r}, anchors))
    return anchors[y], anchors[grad]


def test_replicatedreducescatter_local_gradient_gathers_the_replicas():
    """The original's gradient of a Local reduce-scatter: every replica
    gets the output gradients of all replicas, gathered in order, cut to
    the input's elements."""
    rng = np.random.default_rng(10)
    data = rng.normal(size=(REPLICAS, 5)).astype(np.float32)
    r = rng.normal(size=(REPLICAS, 3)).astype(np.float32)
    y, grad = reduce_scatter_training(popart.CollectiveOperator.Local, data, r)
    for k in range(REPLICAS):
        np.testing.assert_allclose(y[k], np.concatenate([data[k], [0.0]])[3 * k:3 * k + 3])
        np.testing.assert_allclose(grad[k], np.concatenate([r[0], r[1]])[:5], rtol=1e-6)
    with pytest.raises(popart.popart_exception,
                       match=r"ReplicatedReduceScatter.*only implemented for "
                       r"CollectiveOperator::Local, not Add"):
        reduce_scatter_training(popart.CollectiveOperator.Add, data, r)


def test_collective_errors_name_the_op():
    data = np.zeros((REPLICAS, 4), np.float32)
    with pytest.raises(popart.popart_exception, match=r"ReplicatedAllReduce.*does not divide the 2 replicas"):
        replicated(lambda b, x: b.aiGraphcore.replicatedallreduce(
            [x], commGroup=popart.CommGroup(popart.CommGroupType.Consecutive, 3)), data)
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2]))
    with pytest.raises(popart.popart_exception, match="ReplicatedReduceScatter takes 1 input"):
        builder.aiGraphcore.replicatedreducescatter([x, x])
    b = popart.Builder()
    i = b.addInputTensor(popart.TensorInfo("INT64", [2]))
    y = b.aiGraphcore.replicatedallreduce([i])
    with pytest.raises(popart.popart_exception, match=r"ReplicatedAllReduce.*FLOAT, FLOAT16, INT32"):
        infer(b, [y], {i: np.zeros(2, np.int64)})


# --------------------------------------------------------------------- call

def multiply_add_subgraph(builder):
    """A subgraph builder of (a, b) -> (a * b + a, sin(b))."""
    sub = builder.createSubgraphBuilder()
    a = sub.addInputTensor(popart.TensorInfo("FLOAT", [2, 3]))
    b = sub.addInputTensor(popart.TensorInfo("FLOAT", [2, 3]))
    sub.addOutputTensor(sub.aiOnnx.add([sub.aiOnnx.mul([a, b]), a]))
    sub.addOutputTensor(sub.aiOnnx.sin([b]))
    return sub


def test_call_in_inference_twice():
    rng = np.random.default_rng(8)
    x, y, z = (rng.normal(size=(2, 3)).astype(np.float32) for _ in range(3))
    builder = popart.Builder()
    sub = multiply_add_subgraph(builder)
    ix, iy, iz = (builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 3])) for _ in range(3))
    first, second = builder.aiGraphcore.call([ix, iy], 2, sub)
    (third, _) = builder.aiGraphcore.call([first, iz], num_outputs=2, callee=sub)
    assert builder.getTensorShape(first) == [2, 3]
    got = infer(builder, [first, second, third], {ix: x, iy: y, iz: z})
    np.testing.assert_allclose(got[0], x * y + x, rtol=1e-5)
    np.testing.assert_allclose(got[1], np.sin(y), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[2], (x * y + x) * z + (x * y + x), rtol=1e-5)


def test_calls_of_one_callee_share_its_subgraph():
    import json
    builder = popart.Builder()
    sub = builder.createSubgraphBuilder()
    a = sub.addInputTensor(popart.TensorInfo("FLOAT", [2]))
    sub.addOutputTensor(sub.aiOnnx.neg([a]))
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2]))
    (y, ) = builder.aiGraphcore.call([x], 1, sub)
    (z, ) = builder.aiGraphcore.call([y], 1, sub)
    builder.addOutputTensor(z)
    session = popart.InferenceSession(
        fnModel=builder.getModelProto(),
        dataFlow=popart.DataFlow(1, {z: popart.AnchorReturnType("ALL")}),
        deviceInfo=cpu())
    ir = json.loads(session._serializeIr(popart.IrSerializationFormat.JSON))
    calls = [op for op in ir["maingraph"] if op["type"] == "Call"]
    assert len(calls) == 2
    assert calls[0]["attributes"]["callee"] == calls[1]["attributes"]["callee"]
    assert len([g for g in ir if g not in ("maingraph", "tensors")]) == 1
    session.prepareDevice()
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO({x: np.array([1.5, -2.0], np.float32)}, anchors))
    np.testing.assert_array_equal(anchors[z], [1.5, -2.0])


def test_call_gradient_against_central_differences():
    """loss = sum(r * (f(x, w)[0] + f(x, w)[1])), f the subgraph; the
    gradients of the input x and the weight w through the call."""
    rng = np.random.default_rng(9)
    x = rng.normal(size=(2, 3)).astype(np.float32)
    w0 = rng.normal(size=(2, 3)).astype(np.float32)
    r = rng.normal(size=(2, 3)).astype(np.float32)
    builder = popart.Builder()
    sub = multiply_add_subgraph(builder)
    ix = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 3]), "x")
    ir = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 3]), "r")
    w = builder.addInitializedInputTensor(w0, "w")
    out, sin = builder.aiGraphcore.call([ix, w], 2, sub)
    total = builder.aiOnnx.mul([builder.aiOnnx.add([out, sin]), ir])
    loss = builder.aiGraphcore.identityloss([total], reduction=popart.ReductionType.Sum)
    prefix = popart.reservedGradientPrefix()
    got = train(builder, loss, [out, prefix + ix, prefix + w], {ix: x, ir: r})

    def loss_of(xv, wv):
        return float((r * (xv * wv + xv + np.sin(wv))).sum())

    def numeric(which):
        xd, wd = x.astype(np.float64), w0.astype(np.float64)
        g = np.zeros_like(xd)
        h = 1e-5
        for i in np.ndindex(*x.shape):
            args_up = [xd.copy(), wd.copy()]
            args_down = [xd.copy(), wd.copy()]
            args_up[which][i] += h
            args_down[which][i] -= h
            g[i] = (loss_of(*args_up) - loss_of(*args_down)) / (2 * h)
        return g

    np.testing.assert_allclose(got[0], x * w0 + x, rtol=1e-5)
    np.testing.assert_allclose(got[1], numeric(0), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got[2], numeric(1), rtol=1e-4, atol=1e-5)


def test_call_errors_name_the_op():
    builder = popart.Builder()
    sub = multiply_add_subgraph(builder)
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 3]))
    with pytest.raises(popart.popart_exception,
                       match=r"For CallOp 'c', number of outputs \(1\) does not match "
                       r"that of the callee subgraph \(2\)"):
        builder.aiGraphcore.call([x, x], 1, sub, debugContext="c")
    with pytest.raises(popart.popart_exception,
                       match=r"For CallOp 'd', number of inputs \(1\) does not match"):
        builder.aiGraphcore.call([x], 2, sub, debugContext="d")
    wrong = builder.addInputTensor(popart.TensorInfo("FLOAT", [3, 2]))
    outs = builder.aiGraphcore.call([x, wrong], 2, sub)
    with pytest.raises(popart.popart_exception,
                       match=r"\(Call\): input 1 .* but the callee's input"):
        infer(builder, outs, {x: np.zeros((2, 3), np.float32),
                              wrong: np.zeros((3, 2), np.float32)})
