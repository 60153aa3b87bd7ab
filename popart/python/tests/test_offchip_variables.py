"""Variables off chip (TensorStorage.OffChip in
optimizerStateTensorLocationSettings, weightTensorLocationSettings,
accumulatorTensorLocationSettings): each lives in a poplar remote buffer,
loaded before the ops of a program fragment that use it and stored after
those that change it. Training gives
the bits of the on-chip session; the IPU Model's graph report shows the
state no longer always live on the tiles and its estimate includes the
transfers."""
import json

import numpy as np
import popart
import pytest
from session_helpers import device, normal_weights, read_weights, replication_options

IN, HIDDEN, OUT = 16, 32, 8  # w1: 512 elements, w2: 256, b1: 32
MICRO_BATCH = 4
STEPS = 5


def initial_weights():
    return normal_weights(3, 0.3, {"w1": (IN, HIDDEN), "b1": (HIDDEN, ), "w2": (HIDDEN, OUT)})


OPTIMIZERS = {
    "sgd": lambda: popart.SGD({
        "defaultLearningRate": (0.1, False),
        "defaultMomentum": (0.9, True),
        "defaultWeightDecay": (0.01, True),
    }),
    "sgd_separate": lambda: popart.SGD(
        {
            "defaultLearningRate": (0.1, False),
            "defaultMomentum": (0.9, True),
        },
        accumulatorAndMomentum=popart.SGDAccumulatorAndMomentum.Separate),
    "adam": lambda: popart.Adam({"defaultLearningRate": (0.01, False)}),
}
STATE = {
    "sgd": ["Accl___w1", "Accl___b1", "Accl___w2"],
    "sgd_separate": ["Accl___w1", "Accl___b1", "Accl___w2"],
    "adam": ["Accl1___w1", "Accl2___w1", "Accl1___w2", "Accl2___b1"],
}


def session_of(optimizer, offchip, replicas=1, accumulation=1, rts=False,
               min_elements=2, cpu=False, tweak=None):
    b = popart.Builder()
    x = b.addInputTensor(popart.TensorInfo("FLOAT", [MICRO_BATCH, IN]), "x")
    label = b.addInputTensor(popart.TensorInfo("INT32", [MICRO_BATCH]), "label")
    w = {k: b.addInitializedInputTensor(v, k)
         for k, v in initial_weights().items()}
    h = b.aiOnnx.relu([b.aiOnnx.add([b.aiOnnx.matmul([x, w["w1"]]), w["b1"]])])
    probs = b.aiOnnx.softmax([b.aiOnnx.matmul([h, w["w2"]])], axis=1)
    loss = b.aiGraphcore.nllloss([probs, label])
    opts = replication_options(replicas, accumulation)
    opts.instrumentWithHardwareCycleCounter = True
    settings = opts.optimizerStateTensorLocationSettings
    if offchip:
        settings.location.storage = popart.TensorStorage.OffChip
        settings.minElementsForOffChip = min_elements
    if rts:
        settings.location.replicatedTensorSharding = (
            popart.ReplicatedTensorSharding.On)
        settings.minElementsForReplicatedTensorSharding = 64
    opts.optimizerStateTensorLocationSettings = settings
    if tweak:
        tweak(opts)
    session = popart.TrainingSession(
        fnModel=b.getModelProto(),
        dataFlow=popart.DataFlow(1, {loss: popart.AnchorReturnType("ALL")}),
        loss=loss, optimizer=OPTIMIZERS[optimizer](),
        deviceInfo=device("cpu" if cpu else "ipumodel", replicas),
        userOptions=opts)
    return session, x, label


def train(optimizer, offchip, replicas=1, accumulation=1, **kwargs):
    """STEPS steps; the weights and state read back, and the session."""
    session, x, label = session_of(optimizer, offchip, replicas, accumulation,
                                   **kwargs)
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    outer = [d for d in (accumulation, replicas) if d > 1]
    for step in range(STEPS):
        rng = np.random.default_rng(50 + step)
        xs = rng.normal(size=outer + [MICRO_BATCH, IN]).astype(np.float32)
        labels = rng.integers(0, OUT, size=outer + [MICRO_BATCH]).astype(np.int32)
        session.run(popart.PyStepIO({x: xs, label: labels}, anchors))
    shapes = {k: v.shape for k, v in initial_weights().items()}
    shapes.update({s: shapes[s.split("___")[1]] for s in STATE[optimizer]})
    return read_weights(session, shapes), session


@pytest.mark.parametrize("optimizer,accumulation", [("sgd", 1), ("adam", 1),
                                                    ("sgd_separate", 2)])
def test_offchip_state_trains_to_the_bits_of_onchip_state(optimizer,
                                                          accumulation):
    onchip, _ = train(optimizer, False, accumulation=accumulation)
    offchip, _ = train(optimizer, True, accumulation=accumulation)
    for k in onchip:
        np.testing.assert_array_equal(offchip[k], onchip[k], err_msg=k)
    # The state read back from the remote buffers is not its initial zeros.
    for s in STATE[optimizer]:
        assert np.abs(offchip[s]).max() > 0, s
    for k, v in initial_weights().items():
        assert not np.allclose(offchip[k], v), k


def memory(session):
    graph = json.loads(session.getGraphReport())
    liveness = graph["memory"]["liveness"]
    return (sum(graph["memory"]["byTile"]["total"]), liveness["alwaysLive"],
            {v["name"] for v in liveness["notAlwaysLive"]})


def test_offchip_state_leaves_the_tiles_and_costs_transfers():
    _, onchip = train("sgd", False)
    _, offchip = train("sgd", True)
    on_total, on_always, _ = memory(onchip)
    off_total, off_always, off_sometimes = memory(offchip)
    for s in STATE["sgd"]:
        assert s in on_always and s not in off_always, s
        assert s in off_sometimes, s
    print(f"tile memory: on chip {on_total:,} B, off chip {off_total:,} B; "
          f"cycles of the last step: on chip {onchip.getCycleCount():,}, "
          f"off chip {offchip.getCycleCount():,}")
    assert off_total < on_total
    # Each step loads and stores the state of the three weights.
    assert offchip.getCycleCount() > onchip.getCycleCount()
    execution = json.loads(offchip.getExecutionReport())
    names = [st.get("name", "") for st in execution["simulation"]["steps"]]
    for s in STATE["sgd"]:
        assert any(s + "/load" in n for n in names), s
        assert any(s + "/store" in n for n in names), s


def test_small_state_stays_on_chip():
    _, session = train("sgd", True, min_elements=100)
    _, always, _ = memory(session)
    assert "Accl___b1" in always  # 32 elements
    assert "Accl___w1" not in always and "Accl___w2" not in always


def test_offchip_sharded_state_gives_the_weights_of_onchip_sharding():
    onchip, _ = train("adam", False, replicas=2, rts=True)
    offchip, session = train("adam", True, replicas=2, rts=True)
    for k in onchip:
        np.testing.assert_array_equal(offchip[k], onchip[k], err_msg=k)
    assert session.getInfo("Accl1___w1").shape() == [256]


def weights_off_chip(opts):
    opts.weightTensorLocationSettings = popart.TensorLocationSettings(
        popart.TensorStorage.OffChip, 0)


def accumulators_off_chip(opts):
    opts.accumulatorTensorLocationSettings = popart.TensorLocationSettings(
        popart.TensorStorage.OffChip, 0)


def test_offchip_weights_and_accumulators_train_to_the_same_bits():
    """Weights off chip are loaded for each micro-batch's forward and
    backward pass and for the update, and stored after it; accumulators
    are loaded and stored every micro-batch."""
    onchip, _ = train("sgd_separate", False, accumulation=2)
    for tweak, off in [(weights_off_chip, ["w1", "b1", "w2"]),
                       (accumulators_off_chip,
                        ["Accum___w1", "Accum___b1", "Accum___w2"])]:
        offchip, session = train("sgd_separate", False, accumulation=2,
                                 tweak=tweak)
        for k in onchip:
            np.testing.assert_array_equal(offchip[k], onchip[k], err_msg=k)
        _, always, sometimes = memory(session)
        for t in off:
            assert t not in always and t in sometimes, t
        assert "Accl___w1" in always  # the state stays on chip


def test_offchip_sharded_weights_give_the_bits_of_onchip_sharded_weights():
    def sharded(opts):
        settings = opts.weightTensorLocationSettings
        settings.location.replicatedTensorSharding = (
            popart.ReplicatedTensorSharding.On)
        settings.minElementsForReplicatedTensorSharding = 64
        opts.weightTensorLocationSettings = settings

    def sharded_off_chip(opts):
        sharded(opts)
        settings = opts.weightTensorLocationSettings
        settings.location.storage = popart.TensorStorage.OffChip
        opts.weightTensorLocationSettings = settings

    onchip, _ = train("sgd", False, replicas=2, tweak=sharded)
    offchip, session = train("sgd", False, replicas=2, tweak=sharded_off_chip)
    for k in onchip:
        np.testing.assert_array_equal(offchip[k], onchip[k], err_msg=k)
    assert session.getInfo("w1").shape() == [256]
    _, always, sometimes = memory(session)
    assert "w1" not in always and "w1" in sometimes


def test_offchip_sharded_accumulators_give_the_bits_of_onchip_sharded_ones():
    def sharded(opts, storage=popart.TensorStorage.OnChip):
        settings = opts.accumulatorTensorLocationSettings
        settings.location.storage = storage
        settings.location.replicatedTensorSharding = (
            popart.ReplicatedTensorSharding.On)
        settings.minElementsForReplicatedTensorSharding = 64
        opts.accumulatorTensorLocationSettings = settings

    onchip, _ = train("sgd_separate", False, replicas=2, accumulation=2,
                      tweak=sharded)
    offchip, session = train(
        "sgd_separate", False, replicas=2, accumulation=2,
        tweak=lambda opts: sharded(opts, popart.TensorStorage.OffChip))
    for k in onchip:
        np.testing.assert_array_equal(offchip[k], onchip[k], err_msg=k)
    assert session.getInfo("Accum___w1").shape() == [256]
    _, always, sometimes = memory(session)
    assert "Accum___w1" not in always and "Accum___w1" in sometimes


def test_what_cannot_be_off_chip_is_refused():
    with pytest.raises(popart.popart_exception,
                       match=r"optimizerStateTensorLocationSettings\.location"
                       r"\.storage OffChip: 'Accl___\w+' needs a remote buffer"):
        session_of("sgd", True, cpu=True)[0].prepareDevice()

    def activations(opts):
        opts.activationTensorLocationSettings = popart.TensorLocationSettings(
            popart.TensorStorage.OffChip, 0)

    with pytest.raises(popart.popart_exception,
                       match=r"activationTensorLocationSettings\.location"
                       r"\.storage OffChip is not supported"):
        session_of("sgd", False, tweak=activations)
