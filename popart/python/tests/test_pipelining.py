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
            training=True, recomputation=popart.RecomputationType.NoRecompute):
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
                       match="TrainingSession only"):
        session(4, manual, True, accumulation=1, training=False)


def batch(seed=5):
    data = np.random.default_rng(seed)
    xs = data.normal(size=(ACCUMULATION, BATCH, WIDTH)).astype(np.float32)
    labels = data.integers(0, WIDTH, size=(ACCUMULATION, BATCH)).astype(np.int32)
    return xs, labels


def one_step(pipelined, recomputation=popart.RecomputationType.NoRecompute):
    """One training step on 4 IPUs: the engine's cycles for it, its
    execution report, its graph report and the summary."""
    s, x, label, loss, _ = session(4, popart.VirtualGraphMode.Manual, pipelined,
                                   recomputation=recomputation)
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
