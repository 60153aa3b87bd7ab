"""Random ops in a pipeline: Dropout (stage 0) and ShapedDropout (stage
1) of a two-stage model on two IPUs of an IPU Model. Each stage draws from
the micro-batch's seed, so the backward stages (and recomputed ops) drop
what their forward stages dropped and the pipelined run trains as the
sharded, unpipelined one."""
import numpy as np
import popart
import pytest

WIDTH, BATCH, ACCUMULATION, BATCHES, STEPS = 8, 4, 4, 2, 3
RATIO, SHAPED_RATIO = 0.3, 0.5


def train(pipelined, recomputation=popart.RecomputationType.NoRecompute):
    """STEPS steps of BATCHES batches of ACCUMULATION micro-batches; the
    weights after them and the last step's anchors."""
    rng = np.random.default_rng(0)
    b = popart.Builder()
    x = b.addInputTensor(popart.TensorInfo("FLOAT", [BATCH, WIDTH]), "x")
    label = b.addInputTensor(popart.TensorInfo("INT32", [BATCH]), "label")
    w0 = b.addInitializedInputTensor(
        rng.normal(0, 0.5, (WIDTH, WIDTH)).astype(np.float32), "w0")
    w1 = b.addInitializedInputTensor(
        rng.normal(0, 0.5, (WIDTH, WIDTH)).astype(np.float32), "w1")
    with b.virtualGraph(0), b.pipelineStage(0):
        hidden = b.aiOnnx.relu([b.aiOnnx.matmul([x, w0])])
        dropped, mask = b.aiOnnx.dropout([hidden], num_outputs=2, ratio=RATIO)
    with b.virtualGraph(1), b.pipelineStage(1):
        logits = b.aiOnnx.matmul([dropped, w1])
        rows = b.aiGraphcore.shapeddropout([logits], shape=[BATCH, 1],
                                           ratio=SHAPED_RATIO)
        probs = b.aiOnnx.softmax([rows], axis=1)
        loss = b.aiGraphcore.nllloss([probs, label])
    grad = popart.reservedGradientPrefix()
    anchored = [mask, dropped, hidden, logits, rows, grad + dropped,
                grad + hidden, grad + rows, grad + logits]
    opts = popart.SessionOptions()
    opts.virtualGraphMode = popart.VirtualGraphMode.Manual
    opts.enablePipelining = pipelined
    opts.autoRecomputation = recomputation
    opts.enableGradientAccumulation = True
    opts.accumulationFactor = ACCUMULATION
    device = popart.DeviceManager().createIpuModelDevice({
        "numIPUs": 2,
        "tilesPerIPU": 4
    })
    s = popart.TrainingSession(
        b.getModelProto(),
        popart.DataFlow(BATCHES,
                        {t: popart.AnchorReturnType("ALL") for t in anchored}),
        loss,
        popart.SGD({
            "defaultLearningRate": (0.1, False),
            "defaultMomentum": (0.9, True)
        }), device, userOptions=opts)
    s.prepareDevice()
    s.setRandomSeed(11)
    s.weightsFromHost()
    anchors = s.initAnchorArrays()
    data = np.random.default_rng(5)
    masks = []
    for _ in range(STEPS):
        shape = (BATCHES, ACCUMULATION, BATCH)
        xs = data.normal(size=shape + (WIDTH,)).astype(np.float32)
        labels = data.integers(0, WIDTH, size=shape).astype(np.int32)
        s.run(popart.PyStepIO({x: xs, label: labels}, anchors))
        masks.append(anchors[mask].copy())
    s.weightsToHost()
    weights = {w: np.empty((WIDTH, WIDTH), np.float32) for w in [w0, w1]}
    s.readWeights(popart.PyWeightsIO(weights))
    last = {name: anchors[t].copy() for name, t in zip(
        ["mask", "dropped", "hidden", "logits", "rows", "d_dropped",
         "d_hidden", "d_rows", "d_logits"], anchored)}
    return weights, np.array(masks), last


@pytest.mark.parametrize("recomputation", ["NoRecompute", "Standard", "Pipeline"])
def test_a_pipeline_with_dropout_trains_as_the_sharded_run(recomputation):
    sharded, sharded_masks, _ = train(False)
    weights, masks, _ = train(True, getattr(popart.RecomputationType,
                                            recomputation))
    # Every micro-batch of every step dropped the sharded run's elements.
    np.testing.assert_array_equal(masks, sharded_masks)
    for w in sharded:
        np.testing.assert_allclose(weights[w], sharded[w], rtol=0, atol=1e-6)
    # The masks drop about RATIO of the elements, a new draw each
    # micro-batch and step.
    assert masks.shape == (STEPS, BATCHES, ACCUMULATION, BATCH, WIDTH)
    assert 0.15 < 1 - masks.mean() < 0.45
    flat = masks.reshape(-1, BATCH * WIDTH)
    assert len({m.tobytes() for m in flat}) == len(flat)


def test_the_backward_stages_reuse_the_forward_masks():
    _, _, a = train(True)
    # Dropout: the forward output and the gradient are scaled by the
    # same mask.
    keep = a["mask"].astype(np.float32)
    np.testing.assert_allclose(a["dropped"], a["hidden"] * keep / (1 - RATIO),
                               rtol=1e-6)
    np.testing.assert_allclose(a["d_hidden"],
                               a["d_dropped"] * keep / (1 - RATIO), rtol=1e-6)
    # ShapedDropout over [BATCH, 1]: whole rows, the same rows forward and
    # backward.
    kept_rows = np.all(a["rows"] != 0, axis=-1, keepdims=True)
    dropped_rows = np.all(a["rows"] == 0, axis=-1, keepdims=True)
    assert np.all(kept_rows | dropped_rows)
    assert kept_rows.any() and dropped_rows.any()
    scale = kept_rows / (1 - SHAPED_RATIO)
    np.testing.assert_allclose(a["rows"], a["logits"] * scale, rtol=1e-6)
    np.testing.assert_allclose(a["d_logits"], a["d_rows"] * scale, rtol=1e-6)
