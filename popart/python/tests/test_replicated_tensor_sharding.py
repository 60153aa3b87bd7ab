"""Replicated tensor sharding of optimiser state
(SessionOptions.optimizerStateTensorLocationSettings): with R replicas each
holds 1/R of every large enough optimiser state tensor, the gradient is
reduce-scattered, the update runs on the replica's part of the weight and
the weight is all-gathered. The weights (and the state read back) after
training are those of the same replicas without sharding, and of one
replica trained on the whole batch. Settings this implementation cannot
honour are refused with an error naming them."""
import json

import numpy as np
import popart
import pytest
from session_helpers import (classification_data, device, normal_weights, read_weights,
                             replication_options)

IN, HIDDEN, OUT = 5, 6, 4  # w1: 30 elements, w2: 24, b1: 6
MICRO_BATCH = 2
STEPS = 5
MIN_ELEMENTS = 20  # w1 and w2 are sharded, b1 is not


def initial_weights():
    return normal_weights(11, 0.5, {"w1": (IN, HIDDEN), "b1": (HIDDEN, ), "w2": (HIDDEN, OUT)})


def build(batch):
    b = popart.Builder()
    x = b.addInputTensor(popart.TensorInfo("FLOAT", [batch, IN]), "x")
    label = b.addInputTensor(popart.TensorInfo("INT32", [batch]), "label")
    w = {k: b.addInitializedInputTensor(v, k)
         for k, v in initial_weights().items()}
    h = b.aiOnnx.relu([b.aiOnnx.add([b.aiOnnx.matmul([x, w["w1"]]), w["b1"]])])
    probs = b.aiOnnx.softmax([b.aiOnnx.matmul([h, w["w2"]])], axis=1)
    loss = b.aiGraphcore.nllloss([probs, label],
                                 reduction=popart.ReductionType.Mean)
    return b, x, label, loss


OPTIMIZERS = {
    "sgd_momentum": lambda: popart.SGD({
        "defaultLearningRate": (0.1, False),
        "defaultMomentum": (0.9, True),
        "defaultWeightDecay": (0.01, True),
    }),
    "sgd_separate_nesterov": lambda: popart.SGD(
        {
            "defaultLearningRate": (0.1, False),
            "defaultMomentum": (0.9, True),
            "defaultDampening": (0.0, True),
            "nesterov": (1.0, True),
        },
        accumulatorAndMomentum=popart.SGDAccumulatorAndMomentum.Separate),
    "sgd_clipped": lambda: popart.SGD(
        {
            "defaultLearningRate": (0.1, False),
            "defaultMomentum": (0.9, True),
        },
        clip_norm_settings=[popart.ClipNormSettings.clipAllWeights(0.05)]),
    "adam": lambda: popart.Adam({
        "defaultLearningRate": (0.01, False),
        "defaultWeightDecay": (0.01, True),
    }),
    "lamb": lambda: popart.Adam({"defaultLearningRate": (0.01, False)},
                                mode=popart.AdamMode.Lamb),
    "rmsprop": lambda: popart.Adaptive(
        {
            "defaultLearningRate": (0.01, False),
            "defaultMomentum": (0.5, True),
        },
        mode=popart.AdaptiveMode.RMSProp),
}

STATE = {
    "sgd_momentum": ["Accl___w1", "Accl___w2"],
    "sgd_separate_nesterov": ["Accl___w1", "Accl___w2"],
    "sgd_clipped": ["Accl___w1", "Accl___w2"],
    "adam": ["Accl1___w1", "Accl2___w2"],
    "lamb": ["Accl1___w1", "Accl2___w2"],
    "rmsprop": ["Accl1___w1", "Accl3___w2"],
}


def options(replicas, accumulation, rts, min_elements=MIN_ELEMENTS,
            weights=False, accumulators=False):
    opts = replication_options(replicas, accumulation)
    opts.accumulationAndReplicationReductionType = popart.ReductionType.Mean
    if rts:
        settings = opts.optimizerStateTensorLocationSettings
        settings.location.replicatedTensorSharding = (
            popart.ReplicatedTensorSharding.On)
        settings.minElementsForReplicatedTensorSharding = min_elements
        opts.optimizerStateTensorLocationSettings = settings
    if weights:
        settings = opts.weightTensorLocationSettings
        settings.location.replicatedTensorSharding = (
            popart.ReplicatedTensorSharding.On)
        settings.minElementsForReplicatedTensorSharding = min_elements
        opts.weightTensorLocationSettings = settings
    if accumulators:
        settings = opts.accumulatorTensorLocationSettings
        settings.location.replicatedTensorSharding = (
            popart.ReplicatedTensorSharding.On)
        settings.minElementsForReplicatedTensorSharding = min_elements
        opts.accumulatorTensorLocationSettings = settings
    return opts


def step_data(step, samples):
    return classification_data(100 + step, samples, IN, OUT)


def session_of(optimizer, replicas=1, accumulation=1, rts=False, batch=None,
               opts=None):
    b, x, label, loss = build(batch or MICRO_BATCH)
    session = popart.TrainingSession(
        fnModel=b.getModelProto(),
        dataFlow=popart.DataFlow(1, {loss: popart.AnchorReturnType("ALL")}),
        loss=loss,
        optimizer=OPTIMIZERS[optimizer](),
        deviceInfo=device("ipumodel", replicas),
        userOptions=opts or options(replicas, accumulation, rts))
    return session, x, label


def train(optimizer, replicas=1, accumulation=1, rts=False, batch=None,
          opts=None):
    """STEPS steps of replicas * accumulation micro-batches (or one batch
    of `batch` samples); the weights and the optimiser state read back."""
    session, x, label = session_of(optimizer, replicas, accumulation, rts,
                                   batch, opts)
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    outer = [d for d in (accumulation, replicas) if d > 1]
    samples = batch or MICRO_BATCH * replicas * accumulation
    for step in range(STEPS):
        xs, labels = step_data(step, samples)
        if batch:
            feeds = {x: xs, label: labels}
        else:
            feeds = {
                x: xs.reshape(outer + [MICRO_BATCH, IN]),
                label: labels.reshape(outer + [MICRO_BATCH])
            }
        session.run(popart.PyStepIO(feeds, anchors))
    return read_weights(session, weights_and_state(optimizer)), session


def weights_and_state(optimizer):
    """The shapes of the weights and of the optimiser's state of them."""
    shapes = {k: v.shape for k, v in initial_weights().items()}
    shapes.update({s: shapes[s.split("___")[1]] for s in STATE[optimizer]})
    return shapes


def assert_close(a, b, what):
    for k in a:
        np.testing.assert_allclose(a[k], b[k], rtol=1e-5, atol=1e-6,
                                   err_msg=f"{what}: {k}")


@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
def test_sharded_state_gives_the_weights_of_unsharded_and_single_replica(
        optimizer):
    replicas = 4
    sharded, _ = train(optimizer, replicas, rts=True)
    unsharded, _ = train(optimizer, replicas, rts=False)
    assert_close(sharded, unsharded, "RTS on against off")
    single, _ = train(optimizer, batch=MICRO_BATCH * replicas)
    weights = {k: sharded[k] for k in initial_weights()}
    assert_close(weights, {k: single[k] for k in weights},
                 "RTS on against one replica")
    # The weights moved: the comparison is not of untouched values.
    for k, v in initial_weights().items():
        assert not np.allclose(sharded[k], v), k


def test_sharded_state_with_accumulation():
    sharded, _ = train("sgd_momentum", replicas=2, accumulation=2, rts=True)
    unsharded, _ = train("sgd_momentum", replicas=2, accumulation=2)
    assert_close(sharded, unsharded, "RTS on against off")
    single, _ = train("sgd_momentum", batch=MICRO_BATCH * 4)
    assert_close({k: sharded[k] for k in initial_weights()},
                 {k: single[k] for k in initial_weights()},
                 "RTS on against one replica")


def test_each_replica_holds_a_quarter_of_the_state():
    session, _, _ = session_of("adam", replicas=4, rts=True)
    session.prepareDevice()
    # w1 (30 elements): parts of ceil(30 / 4) = 8, the last padded.
    for state in ["Accl1___w1", "Accl2___w1"]:
        info = session.getInfo(state)
        assert info.shape() == [8]
        assert info.metaShape() == [IN, HIDDEN]
    assert session.getInfo("Accl1___w2").shape() == [6]
    # b1 has fewer than minElementsForReplicatedTensorSharding elements.
    assert session.getInfo("Accl1___b1").shape() == [HIDDEN]
    assert session.getInfo("Accl1___b1").metaShape() == []
    # Unsharded, every replica holds the whole state.
    whole, _, _ = session_of("adam", replicas=4, rts=False)
    assert whole.getInfo("Accl1___w1").shape() == [IN, HIDDEN]
    whole.prepareDevice()
    # The graph report's bytes of the state variables (per replica).
    sharded_bytes, whole_bytes = variable_bytes(session), variable_bytes(whole)
    for state, part in [("Accl1___w1", 8), ("Accl2___w1", 8),
                        ("Accl1___w2", 6), ("Accl2___w2", 6)]:
        assert sharded_bytes[state] == 4 * part, state
        assert whole_bytes[state] == 4 * initial_weights()[
            state.split("___")[1]].size, state
    assert sharded_bytes["Accl1___b1"] == whole_bytes["Accl1___b1"] == 4 * HIDDEN


def variable_bytes(session):
    """The graph report's bytes of each variable that lives all the run."""
    graph = json.loads(session.getGraphReport())
    return graph["memory"]["liveness"]["alwaysLive"]


def test_state_is_not_sharded_without_replicas():
    session, _, _ = session_of("sgd_momentum", replicas=1, rts=True)
    assert session.getInfo("Accl___w1").shape() == [IN, HIDDEN]


def test_default_minimum_keeps_small_state_whole():
    opts = options(4, 1, rts=True, min_elements=8192)
    session, _, _ = session_of("sgd_momentum", replicas=4, opts=opts)
    assert session.getInfo("Accl___w1").shape() == [IN, HIDDEN]


def refused(opts, match):
    with pytest.raises(popart.popart_exception, match=match):
        session_of("sgd_momentum", replicas=2, opts=opts)


def test_settings_that_cannot_be_honoured_are_refused():
    opts = options(2, 1, rts=True)
    opts.activationTensorLocationSettings = popart.TensorLocationSettings(
        popart.TensorStorage.OffChip, 0)
    refused(opts,
            r"activationTensorLocationSettings\.location\.storage OffChip")

    opts = options(2, 2, rts=False, accumulators=True)
    opts.hostAllReduce = True
    refused(opts, r"accumulatorTensorLocationSettings: replicated tensor "
            r"sharding is not supported with hostAllReduce")

    opts = options(2, 1, rts=True)
    settings = opts.optimizerStateTensorLocationSettings
    settings.location.loadTileSet = popart.TileSet.IO
    opts.optimizerStateTensorLocationSettings = settings
    refused(opts, r"optimizerStateTensorLocationSettings\.location: tile sets")

    opts = options(2, 1, rts=True)
    settings = opts.optimizerStateTensorLocationSettings
    settings.location.shardingDomain = popart.CommGroup(
        popart.CommGroupType.Orthogonal, 1)
    opts.optimizerStateTensorLocationSettings = settings
    refused(opts, "shardingDomain")

    opts = options(2, 1, rts=True)
    opts.hostAllReduce = True
    refused(opts, "hostAllReduce")

    opts = options(2, 1, rts=False, weights=True)
    settings = opts.weightTensorLocationSettings
    settings.location.shardingDomain = popart.CommGroup(
        popart.CommGroupType.Consecutive, 1)
    opts.weightTensorLocationSettings = settings
    refused(opts, r"weightTensorLocationSettings\.location\.shardingDomain")


@pytest.mark.parametrize("optimizer", ["sgd_momentum", "adam", "lamb"])
def test_sharded_weights_give_the_weights_of_unsharded_replicas(optimizer):
    """weightTensorLocationSettings with replicatedTensorSharding On: each
    replica holds its part of w1 and w2 (b1 is below the minimum), which
    every micro-batch all-gathers; the update changes the part with the
    reduce-scattered gradient, and the state is sharded with it."""
    replicas = 4
    opts = options(replicas, 1, rts=False, weights=True)
    sharded, session = train(optimizer, replicas, opts=opts)
    unsharded, _ = train(optimizer, replicas, rts=False)
    assert_close(sharded, unsharded, "weights sharded against whole")
    for k, v in initial_weights().items():
        assert not np.allclose(sharded[k], v), k
    assert session.getInfo("w1").shape() == [8]
    assert session.getInfo("w1").metaShape() == [IN, HIDDEN]
    assert session.getInfo("b1").shape() == [HIDDEN]
    state = STATE[optimizer][0]  # of w1
    assert session.getInfo(state).shape() == [8]
    always = variable_bytes(session)
    assert always["w1"] == 4 * 8 and always["w2"] == 4 * 6
    assert always["b1"] == 4 * HIDDEN


def test_sharded_weights_with_accumulation():
    opts = options(2, 2, rts=False, weights=True)
    sharded, _ = train("sgd_momentum", replicas=2, accumulation=2, opts=opts)
    single, _ = train("sgd_momentum", batch=MICRO_BATCH * 4)
    assert_close({k: sharded[k] for k in initial_weights()},
                 {k: single[k] for k in initial_weights()},
                 "sharded weights against one replica")


@pytest.mark.parametrize("optimizer", ["sgd_momentum", "sgd_clipped", "adam"])
def test_sharded_accumulators_give_the_weights_of_whole_ones(optimizer):
    """accumulatorTensorLocationSettings with replicatedTensorSharding On:
    each micro-batch's gradient of w1 and w2 is reduce-scattered into the
    replica's part of its accumulator (b1's is below the minimum and stays
    whole); the update changes the replica's part of the weight, which is
    gathered back."""
    replicas, accumulation = 2, 3
    opts = options(replicas, accumulation, rts=False, accumulators=True)
    sharded, session = train(optimizer, replicas, accumulation, opts=opts)
    whole, _ = train(optimizer, replicas, accumulation)
    assert_close(sharded, whole, "accumulators sharded against whole")
    single, _ = train(optimizer, batch=MICRO_BATCH * replicas * accumulation)
    assert_close({k: sharded[k] for k in initial_weights()},
                 {k: single[k] for k in initial_weights()},
                 "sharded accumulators against one replica")
    for k, v in initial_weights().items():
        assert not np.allclose(sharded[k], v), k
    assert session.getInfo("Accum___w1").shape() == [15]
    assert session.getInfo("Accum___w1").metaShape() == [IN, HIDDEN]
    assert session.getInfo("Accum___w2").shape() == [12]
    assert session.getInfo("Accum___b1").shape() == [HIDDEN]
    always = variable_bytes(session)
    assert always["Accum___w1"] == 4 * 15 and always["Accum___b1"] == 4 * HIDDEN


def test_activation_sharding_is_ignored_as_the_original_does():
    opts = options(2, 1, rts=False)
    opts.activationTensorLocationSettings.location.replicatedTensorSharding = (
        popart.ReplicatedTensorSharding.On)
    session, _, _ = session_of("sgd_momentum", replicas=2, opts=opts)
    assert session.getInfo("Accl___w1").shape() == [IN, HIDDEN]
