"""Pipelining: enablePipelining with pipelineStage annotations, four
stages on four IPUs of an IPU Model, the batch's micro-batches run through
the fill, main and flush phases; training gives the weights (and losses)
of the unpipelined runs."""
import numpy as np
import popart
import pytest

LAYERS, WIDTH, BATCH, ACCUMULATION, STEPS = 4, 8, 2, 8, 10


def session(ipus, mode, pipelined, accumulation=ACCUMULATION, stages=True,
            training=True):
    """Four matmul layers, layer l in pipeline stage l on IPU l (of
    `ipus`), the loss in the last stage."""
    rng = np.random.default_rng(0)
    b = popart.Builder()
    x = b.addInputTensor(popart.TensorInfo("FLOAT", [BATCH, WIDTH]), "x")
    label = b.addInputTensor(popart.TensorInfo("INT32", [BATCH]), "label")
    h, weights = x, []
    for layer in range(LAYERS):
        w = b.addInitializedInputTensor(
            rng.normal(0, 0.5, (WIDTH, WIDTH)).astype(np.float32), f"w{layer}")
        weights.append(w)
        with b.virtualGraph(layer * ipus // LAYERS):
            if stages or layer > 0:
                with b.pipelineStage(layer):
                    h = b.aiOnnx.matmul([h, w])
            else:
                h = b.aiOnnx.matmul([h, w])
            with b.pipelineStage(layer):
                if layer < LAYERS - 1:
                    h = b.aiOnnx.relu([h])
    with b.virtualGraph(ipus - 1), b.pipelineStage(LAYERS - 1):
        probs = b.aiOnnx.softmax([h], axis=1)
        loss = b.aiGraphcore.nllloss([probs, label])
    opts = popart.SessionOptions()
    opts.virtualGraphMode = mode
    opts.enablePipelining = pipelined
    if accumulation > 1:
        opts.enableGradientAccumulation = True
        opts.accumulationFactor = accumulation
    device = popart.DeviceManager().createIpuModelDevice({
        "numIPUs": ipus,
        "tilesPerIPU": 4
    })
    flow = popart.DataFlow(1, {loss: popart.AnchorReturnType("ALL")})
    if not training:
        return popart.InferenceSession(b.getModelProto(), flow, device,
                                       userOptions=opts)
    s = popart.TrainingSession(
        b.getModelProto(), flow, loss,
        popart.SGD({
            "defaultLearningRate": (0.1, False),
            "defaultMomentum": (0.9, True)
        }), device, userOptions=opts)
    return s, x, label, loss, weights


def train(ipus, mode, pipelined):
    s, x, label, loss, weights = session(ipus, mode, pipelined)
    s.prepareDevice()
    s.weightsFromHost()
    anchors = s.initAnchorArrays()
    data = np.random.default_rng(5)
    losses = []
    for _ in range(STEPS):
        xs = data.normal(size=(ACCUMULATION, BATCH, WIDTH)).astype(np.float32)
        labels = data.integers(0, WIDTH, size=(ACCUMULATION, BATCH)).astype(np.int32)
        s.run(popart.PyStepIO({x: xs, label: labels}, anchors))
        losses.append(anchors[loss].copy())
    s.weightsToHost()
    out = {w: np.empty((WIDTH, WIDTH), np.float32) for w in weights}
    s.readWeights(popart.PyWeightsIO(out))
    return out, np.array(losses)


def test_four_stages_give_the_weights_of_the_unpipelined_runs():
    single, single_losses = train(1, popart.VirtualGraphMode.Off, False)
    sharded, _ = train(4, popart.VirtualGraphMode.Manual, False)
    pipelined, losses = train(4, popart.VirtualGraphMode.Manual, True)
    for w in single:
        np.testing.assert_allclose(pipelined[w], single[w], rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(pipelined[w], sharded[w], rtol=1e-5, atol=1e-7)
    # Each micro-batch's loss, in order, as the single IPU computes it.
    np.testing.assert_allclose(losses, single_losses, rtol=1e-5)
    assert losses.shape == (STEPS, ACCUMULATION)


def test_pipelining_needs_what_the_original_needs():
    manual = popart.VirtualGraphMode.Manual
    with pytest.raises(popart.popart_exception,
                       match="needs gradient accumulation"):
        session(4, manual, True, accumulation=1)
    with pytest.raises(popart.popart_exception,
                       match=r"depth \(gradient accumulation factor\) must equal "
                       r"at least the number of pipeline stages \(7\)"):
        session(4, manual, True, accumulation=6)
    with pytest.raises(popart.popart_exception,
                       match="needs a pipeline stage on every op.*MatMul"):
        session(4, manual, True, stages=False)
    with pytest.raises(popart.popart_exception,
                       match="virtualGraphMode' session option to not be "
                       "VirtualGraphMode::Off"):
        session(1, popart.VirtualGraphMode.Off, True)
    with pytest.raises(popart.popart_exception,
                       match="TrainingSession only"):
        session(4, manual, True, accumulation=1, training=False)
