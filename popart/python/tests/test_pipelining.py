"""Pipelining: enablePipelining with pipelineStage annotations, four
stages on four IPUs of an IPU Model, the batch's micro-batches run through
the fill, main and flush phases; training gives the weights (and losses)
of the unpipelined runs, with or without recomputation, and the IPU
Model's estimate shows the stages overlapping."""
import json
import re

import numpy as np
import popart
import pytest

LAYERS, WIDTH, BATCH, ACCUMULATION, STEPS = 4, 8, 2, 8, 10


def session(ipus, mode, pipelined, accumulation=ACCUMULATION, stages=True,
            training=True, recomputation=popart.RecomputationType.NoRecompute,
            sync_pattern=None):
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
    opts.autoRecomputation = recomputation
    opts.instrumentWithHardwareCycleCounter = True
    opts.reportOptions = {"showPerIpuMemoryUsage": "true"}
    if accumulation > 1:
        opts.enableGradientAccumulation = True
        opts.accumulationFactor = accumulation
    device_options = {"numIPUs": ipus, "tilesPerIPU": 4}
    if sync_pattern is not None:
        device_options["syncPattern"] = sync_pattern
    device = popart.DeviceManager().createIpuModelDevice(device_options)
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


def train(ipus, mode, pipelined, **kwargs):
    s, x, label, loss, weights = session(ipus, mode, pipelined, **kwargs)
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
                       match=r"depth \(batchesPerStep\) must equal at least "
                       r"the number of pipeline stages \(4\)"):
        session(4, manual, True, accumulation=1, training=False)


def batch(seed=5):
    data = np.random.default_rng(seed)
    xs = data.normal(size=(ACCUMULATION, BATCH, WIDTH)).astype(np.float32)
    labels = data.integers(0, WIDTH, size=(ACCUMULATION, BATCH)).astype(np.int32)
    return xs, labels


def one_step(pipelined, recomputation=popart.RecomputationType.NoRecompute,
             sync_pattern=None):
    """One training step on 4 IPUs: the engine's cycles for it, its
    execution report, its graph report and the summary."""
    s, x, label, loss, _ = session(4, popart.VirtualGraphMode.Manual, pipelined,
                                   recomputation=recomputation,
                                   sync_pattern=sync_pattern)
    s.prepareDevice()
    s.weightsFromHost()
    anchors = s.initAnchorArrays()
    xs, labels = batch()
    s.getExecutionReport()  # resets the profile: the step alone from here
    s.run(popart.PyStepIO({x: xs, label: labels}, anchors))
    execution = json.loads(s.getExecutionReport(resetProfile=False))
    graph = json.loads(s.getGraphReport())
    return s.getCycleCount(), execution, graph, s.getSummaryReport()


def per_ipu_memory(summary):
    """'Memory on IPU k:' sections of the summary: their total with gaps."""
    sections = re.split(r"Memory on IPU (\d+):", summary)[1:]
    out = {}
    for ipu, text in zip(sections[::2], sections[1::2]):
        including = re.search(r"Including Gaps:\s+([\d,]+) B", text)
        out[int(ipu)] = int(including.group(1).replace(",", ""))
    return out


def stash_bytes(graph):
    """Bytes of the pipeline's stash slots (variables named <tensor>/stash)."""
    liveness = graph["memory"]["liveness"]
    always = sum(size for name, size in liveness["alwaysLive"].items()
                 if name.endswith("/stash"))
    other = sum(v["bytes"] for v in liveness["notAlwaysLive"]
                if v["name"].endswith("/stash"))
    return always + other


def test_pipelined_estimate_is_below_the_sharded_one():
    sharded, sharded_exec, _, _ = one_step(False)
    pipelined, execution, graph, summary = one_step(True)
    print(f"cycles per step: sharded {sharded:,}, pipelined {pipelined:,}")
    assert sharded == sharded_exec["simulation"]["cycles"]
    assert pipelined == execution["simulation"]["cycles"]
    assert pipelined < sharded
    # Each IPU was busy for less than the step, and together for more:
    # the stages overlapped.
    busy = execution["simulation"]["cyclesByIpu"]
    assert len(busy) == 4
    assert max(busy) <= pipelined < sum(busy)
    # Steps of different IPUs that ran at the same time.
    computes = [st for st in execution["simulation"]["steps"]
                if st["type"] == "OnTileExecute" and len(st["ipus"]) == 1]
    overlapping = [(a["ipus"][0], b["ipus"][0]) for a, b in zip(computes, computes[1:])
                   if a["ipus"] != b["ipus"] and b["cyclesFrom"] < a["cyclesTo"]]
    assert overlapping
    # Every tile accounted for over the whole step.
    tc = execution["simulation"]["tileCycles"]
    tiles = graph["target"]["numTiles"]
    assert sum(v for k, v in tc.items() if k != "activeCompute") == pipelined * tiles
    # Memory per IPU in the summary: each IPU's tiles of the graph report.
    memory = per_ipu_memory(summary)
    by_tile = graph["memory"]["byTile"]["totalIncludingGaps"]
    per_ipu = graph["target"]["tilesPerIPU"]
    assert memory == {ipu: sum(by_tile[ipu * per_ipu:(ipu + 1) * per_ipu])
                      for ipu in range(4)}
    assert all(b > 0 for b in memory.values())


def test_sync_patterns_order_the_estimate_and_change_no_result():
    """The device's SyncPattern (its poplar syncConfiguration) sets which
    IPUs sync when one exchanges with the host: Full all four, so the
    stage-0 input copy waits for the other stages of the pipeline cycle;
    ReplicaAndLadder every second IPU (0 and 2, 1 and 3); SinglePipeline
    the IPU alone. The estimates fall in that order; the results are the
    same bits."""
    cycles, results = {}, {}
    for pattern in ["full", "replicaAndLadder", "singlePipeline"]:
        cycles[pattern] = one_step(True, sync_pattern=pattern)[0]
        results[pattern] = train(4, popart.VirtualGraphMode.Manual, True,
                                 sync_pattern=pattern)
    print("cycles per step by sync pattern:", cycles)
    assert cycles["full"] > cycles["singlePipeline"]
    assert cycles["full"] >= cycles["replicaAndLadder"] >= cycles["singlePipeline"]
    full_weights, full_losses = results["full"]
    for pattern, (weights, losses) in results.items():
        np.testing.assert_array_equal(losses, full_losses, err_msg=pattern)
        for w in weights:
            np.testing.assert_array_equal(weights[w], full_weights[w],
                                          err_msg=f"{pattern}: {w}")


def test_the_sync_pattern_argument_and_option_must_agree():
    dm = popart.DeviceManager()
    device = dm.createHostDevice(popart.DeviceType.IpuModel, {"numIPUs": 4},
                                 popart.SyncPattern.SinglePipeline)
    assert device.numIpus == 4
    with pytest.raises(popart.popart_exception,
                       match="syncPattern 'full' is not the SyncPattern given"):
        dm.createHostDevice(popart.DeviceType.IpuModel,
                            {"numIPUs": 4, "syncPattern": "full"},
                            popart.SyncPattern.SinglePipeline)
    with pytest.raises(popart.popart_exception,
                       match="Unknown syncPattern setting: ladder"):
        dm.createIpuModelDevice({"numIPUs": 4, "syncPattern": "ladder"})


@pytest.mark.parametrize("recomputation", ["Standard", "Pipeline"])
def test_recomputation_gives_the_weights_and_a_smaller_stash(recomputation):
    policy = getattr(popart.RecomputationType, recomputation)
    plain, plain_losses = train(4, popart.VirtualGraphMode.Manual, True)
    recomputed, losses = train(4, popart.VirtualGraphMode.Manual, True,
                               recomputation=policy)
    for w in plain:
        np.testing.assert_allclose(recomputed[w], plain[w], rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(losses, plain_losses, rtol=1e-5)
    _, _, plain_graph, _ = one_step(True)
    cycles, _, graph, _ = one_step(True, policy)
    print(f"{recomputation}: stash {stash_bytes(graph):,} B against "
          f"{stash_bytes(plain_graph):,} B, {cycles:,} cycles")
    assert 0 < stash_bytes(graph) < stash_bytes(plain_graph)


def test_pipeline_recomputation_needs_pipelining():
    with pytest.raises(popart.popart_exception,
                       match="RecomputationType::Pipeline recomputes the "
                       "forward pipeline stages: it needs enablePipelining"):
        session(4, popart.VirtualGraphMode.Manual, False,
                recomputation=popart.RecomputationType.Pipeline)


def inference(pipelined, batches_per_step, art="ALL"):
    """The four layers' forward pass (the probabilities and the loss),
    sharded over 4 IPUs, pipelined or not; each step's anchors and the
    cycles of the last step."""
    rng = np.random.default_rng(0)
    b = popart.Builder()
    x = b.addInputTensor(popart.TensorInfo("FLOAT", [BATCH, WIDTH]), "x")
    label = b.addInputTensor(popart.TensorInfo("INT32", [BATCH]), "label")
    h, weights = x, {}
    for layer in range(LAYERS):
        value = rng.normal(0, 0.5, (WIDTH, WIDTH)).astype(np.float32)
        w = b.addInitializedInputTensor(value, f"w{layer}")
        weights[layer] = value
        with b.virtualGraph(layer), b.pipelineStage(layer):
            h = b.aiOnnx.matmul([h, w])
            if layer < LAYERS - 1:
                h = b.aiOnnx.relu([h])
    with b.virtualGraph(LAYERS - 1), b.pipelineStage(LAYERS - 1):
        probs = b.aiOnnx.softmax([h], axis=1)
        loss = b.aiGraphcore.nllloss([probs, label])
    opts = popart.SessionOptions()
    opts.virtualGraphMode = popart.VirtualGraphMode.Manual
    opts.enablePipelining = pipelined
    opts.instrumentWithHardwareCycleCounter = True
    device = popart.DeviceManager().createIpuModelDevice({
        "numIPUs": 4,
        "tilesPerIPU": 4
    })
    s = popart.InferenceSession(
        b.getModelProto(),
        popart.DataFlow(batches_per_step, {
            probs: (popart.AnchorReturnType("EVERYN", 2) if art == "EVERYN"
                    else popart.AnchorReturnType(art)),
            loss: popart.AnchorReturnType("ALL")
        }), device, userOptions=opts)
    s.prepareDevice()
    s.weightsFromHost()
    anchors = s.initAnchorArrays()
    data = np.random.default_rng(9)
    xs = data.normal(size=(batches_per_step, BATCH, WIDTH)).astype(np.float32)
    labels = data.integers(0, WIDTH, size=(batches_per_step, BATCH)).astype(np.int32)
    s.run(popart.PyStepIO({x: xs, label: labels}, anchors))
    return anchors[probs].copy(), anchors[loss].copy(), s.getCycleCount(), \
        weights, xs, labels


def numpy_probs(weights, xs):
    h = xs
    for layer in range(LAYERS):
        h = h @ weights[layer]
        if layer < LAYERS - 1:
            h = np.maximum(h, 0)
    e = np.exp(h - h.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_pipelined_inference_runs_the_batches_of_a_step_through_the_stages():
    """InferenceSession with enablePipelining: the step's batches are the
    pipeline's micro-batches (depth batchesPerStep, at least the 4
    stages); every batch's anchors are those of the unpipelined run and
    of NumPy, and the estimate is lower."""
    bps = 8
    probs, losses, cycles, weights, xs, labels = inference(True, bps)
    plain_probs, plain_losses, plain_cycles, _, _, _ = inference(False, bps)
    expected = numpy_probs(weights, xs)
    assert probs.shape == (bps, BATCH, WIDTH)
    np.testing.assert_allclose(probs, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(probs, plain_probs, rtol=1e-6, atol=1e-7)
    nll = -np.log(np.take_along_axis(expected, labels[..., None], -1))[..., 0]
    np.testing.assert_allclose(losses, nll.mean(axis=-1), rtol=1e-5)
    np.testing.assert_allclose(losses, plain_losses, rtol=1e-6)
    print(f"inference cycles per step of {bps} batches: sharded "
          f"{plain_cycles:,}, pipelined {cycles:,}")
    assert cycles < plain_cycles
    # FINAL: the last batch's probabilities.
    final, _, _, _, _, _ = inference(True, bps, art="FINAL")
    np.testing.assert_allclose(final, expected[-1], rtol=1e-5, atol=1e-6)
    with pytest.raises(popart.popart_exception, match="depth \\(batchesPerStep\\)"):
        inference(True, 3)
    with pytest.raises(popart.popart_exception, match="returned EVERYN"):
        inference(True, bps, art="EVERYN")
