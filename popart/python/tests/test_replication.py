"""Replicated graphs in one process (SessionOptions.replicatedGraphCount):
the step's data split between the replicas as
[batchesPerStep, accumulationFactor, replicationFactor, micro-batch, ...],
the weight gradients summed over the replicas on the device (gcl) and the
weights read back from replica 0. Training 4 replicas, or 2 replicas of 2
accumulated micro-batches, gives the weights of one replica trained on
the whole batch; each replica's anchors are those NumPy computes for its
part of the data."""
import re

import numpy as np
import popart
import pytest
from session_helpers import (classification_data, device, normal_weights, read_weights,
                             replication_options)

IN, HIDDEN, OUT = 5, 6, 4
MICRO_BATCH = 2
STEPS = 10
DEVICES = ["ipu_model", "cpu"]


def initial_weights():
    return normal_weights(7, 0.5, {"w1": (IN, HIDDEN), "w2": (HIDDEN, OUT)})


def make_device(kind, ipus):
    return device("cpu" if kind == "cpu" else "ipumodel", ipus)


def build(batch, sharded=False):
    """Linear, ReLU, linear, softmax, NllLoss (mean over the batch); with
    `sharded` each linear layer on an IPU of its own, in a pipeline stage
    of its own."""
    b = popart.Builder()
    x = b.addInputTensor(popart.TensorInfo("FLOAT", [batch, IN]), "x")
    label = b.addInputTensor(popart.TensorInfo("INT32", [batch]), "label")
    w = {k: b.addInitializedInputTensor(v, k)
         for k, v in initial_weights().items()}
    with b.virtualGraph(0), b.pipelineStage(0):
        h = b.aiOnnx.relu([b.aiOnnx.matmul([x, w["w1"]])])
    with b.virtualGraph(1 if sharded else 0), b.pipelineStage(1 if sharded else 0):
        probs = b.aiOnnx.softmax([b.aiOnnx.matmul([h, w["w2"]])], axis=1)
        loss = b.aiGraphcore.nllloss([probs, label],
                                     reduction=popart.ReductionType.Mean)
    return b, x, label, probs, loss


def options(replicas=1, accumulation=1, sharded=False,
            reduction=popart.ReductionType.Mean, pipelined=False,
            shard_weights=False,
            recomputation=popart.RecomputationType.NoRecompute):
    opts = replication_options(replicas, accumulation)
    opts.enablePipelining = pipelined
    opts.autoRecomputation = recomputation
    if shard_weights:
        settings = opts.weightTensorLocationSettings
        settings.location.replicatedTensorSharding = (
            popart.ReplicatedTensorSharding.On)
        settings.minElementsForReplicatedTensorSharding = 1
        opts.weightTensorLocationSettings = settings
    if sharded:
        opts.virtualGraphMode = popart.VirtualGraphMode.Manual
    opts.accumulationAndReplicationReductionType = reduction
    return opts


def step_data(step, samples):
    return classification_data(100 + step, samples, IN, OUT)


def train(kind, replicas=1, accumulation=1, sharded=False,
          reduction=popart.ReductionType.Mean, learning_rate=0.1,
          pipelined=False, shard_weights=False,
          recomputation=popart.RecomputationType.NoRecompute):
    """Trains STEPS steps of replicas * accumulation micro-batches; the
    weights, and each step's anchors (probabilities and losses)."""
    b, x, label, probs, loss = build(MICRO_BATCH, sharded)
    ipus = replicas * (2 if sharded else 1)
    session = popart.TrainingSession(
        fnModel=b.getModelProto(),
        dataFlow=popart.DataFlow(1, {
            probs: popart.AnchorReturnType("ALL"),
            loss: popart.AnchorReturnType("ALL")
        }),
        loss=loss,
        optimizer=popart.SGD({
            "defaultLearningRate": (learning_rate, False),
            "defaultMomentum": (0.9, True)
        }),
        deviceInfo=make_device(kind, ipus),
        userOptions=options(replicas, accumulation, sharded, reduction,
                            pipelined, shard_weights, recomputation))
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    outer = [d for d in (accumulation, replicas) if d > 1]
    history = []
    for step in range(STEPS):
        xs, labels = step_data(step, MICRO_BATCH * replicas * accumulation)
        session.run(popart.PyStepIO({
            x: xs.reshape(outer + [MICRO_BATCH, IN]),
            label: labels.reshape(outer + [MICRO_BATCH])
        }, anchors))
        history.append({k: v.copy() for k, v in anchors.items()})
    out = read_weights(session, {k: v.shape for k, v in initial_weights().items()})
    return out, history, (probs, loss)


def single_run_of_the_whole_batch(kind, samples, learning_rate=0.1):
    """One replica, no accumulation, trained on all the samples of each
    step at once."""
    b, x, label, probs, loss = build(samples)
    session = popart.TrainingSession(
        fnModel=b.getModelProto(),
        dataFlow=popart.DataFlow(1, {loss: popart.AnchorReturnType("ALL")}),
        loss=loss,
        optimizer=popart.SGD({
            "defaultLearningRate": (learning_rate, False),
            "defaultMomentum": (0.9, True)
        }),
        deviceInfo=make_device(kind, 1))
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    for step in range(STEPS):
        xs, labels = step_data(step, samples)
        session.run(popart.PyStepIO({x: xs, label: labels}, anchors))
    out = read_weights(session, {k: v.shape for k, v in initial_weights().items()})
    return out


def numpy_forward(weights, xs, labels):
    """Probabilities and the mean NLL loss of a batch."""
    h = np.maximum(xs @ weights["w1"], 0)
    logits = h @ weights["w2"]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs = e / e.sum(axis=1, keepdims=True)
    loss = -np.mean(np.log(probs[np.arange(len(labels)), labels]))
    return probs, loss


def assert_same_weights(got, want):
    start = initial_weights()
    for name in want:
        # Trained far from the start, and as the single run.
        assert np.max(np.abs(want[name] - start[name])) > 0.05
        np.testing.assert_allclose(got[name], want[name], rtol=1e-5, atol=1e-6,
                                   err_msg=name)


@pytest.mark.parametrize("kind", DEVICES)
@pytest.mark.parametrize("replicas,accumulation", [(4, 1), (2, 2)])
def test_replicas_train_as_one_replica_on_the_whole_batch(
        kind, replicas, accumulation):
    samples = MICRO_BATCH * replicas * accumulation
    expected = single_run_of_the_whole_batch(kind, samples)
    weights, history, (probs, loss) = train(kind, replicas, accumulation)
    assert_same_weights(weights, expected)
    # Each replica's anchors of the first step: its part of the data
    # through the initial weights.
    outer = [d for d in (accumulation, replicas) if d > 1]
    assert history[0][probs].shape == tuple(outer + [MICRO_BATCH, OUT])
    assert history[0][loss].shape == tuple(outer)
    xs, labels = step_data(0, samples)
    xs = xs.reshape(accumulation, replicas, MICRO_BATCH, IN)
    labels = labels.reshape(accumulation, replicas, MICRO_BATCH)
    got_probs = history[0][probs].reshape(accumulation, replicas, MICRO_BATCH, OUT)
    got_loss = history[0][loss].reshape(accumulation, replicas)
    # The first micro-batch runs with the initial weights (later ones of
    # the step too: the update comes after the last).
    for a in range(accumulation):
        for r in range(replicas):
            want_probs, want_loss = numpy_forward(initial_weights(), xs[a, r],
                                                  labels[a, r])
            np.testing.assert_allclose(got_probs[a, r], want_probs, rtol=1e-5,
                                       atol=1e-6)
            np.testing.assert_allclose(got_loss[a, r], want_loss, rtol=1e-5)


def test_summed_replicas_train_as_a_larger_learning_rate():
    """ReductionType.Sum (the default): the replicas' gradients of their
    mean losses summed, as the mean over the whole batch with the
    learning rate times the replicas."""
    expected = single_run_of_the_whole_batch("ipu_model", MICRO_BATCH * 2,
                                             learning_rate=0.1)
    weights, _, _ = train("ipu_model", 2, reduction=popart.ReductionType.Sum,
                          learning_rate=0.05)
    assert_same_weights(weights, expected)


def test_sharded_replicas():
    """Two replicas of a model sharded over two IPUs: a device of four."""
    expected = single_run_of_the_whole_batch("ipu_model", MICRO_BATCH * 2)
    weights, _, _ = train("ipu_model", 2, sharded=True)
    assert_same_weights(weights, expected)


def test_pipelined_replicas():
    """Two replicas of a two-stage pipeline (two IPUs each), three
    micro-batches accumulated."""
    expected = single_run_of_the_whole_batch("ipu_model", MICRO_BATCH * 2 * 3)
    weights, _, _ = train("ipu_model", 2, accumulation=3, sharded=True,
                          pipelined=True)
    assert_same_weights(weights, expected)


@pytest.mark.parametrize("recomputation", ["NoRecompute", "Pipeline"])
def test_pipelined_replicas_with_sharded_weights(recomputation):
    """The same with each weight sharded over the two replicas
    (weightTensorLocationSettings, each a part of 15 of its 30 or 24
    elements): the stage that reads a weight first gathers it from the
    replicas' parts, later stages (the backward pass, recomputation)
    receive the gathered weight as any activation of that stage."""
    expected = single_run_of_the_whole_batch("ipu_model", MICRO_BATCH * 2 * 3)
    recompute = getattr(popart.RecomputationType, recomputation)
    weights, _, _ = train("ipu_model", 2, accumulation=3, sharded=True,
                          pipelined=True, shard_weights=True,
                          recomputation=recompute)
    assert_same_weights(weights, expected)
    b, _, _, _, loss = build(MICRO_BATCH, sharded=True)
    session = popart.TrainingSession(
        fnModel=b.getModelProto(), dataFlow=popart.DataFlow(1, [loss]), loss=loss,
        optimizer=popart.ConstSGD(0.1), deviceInfo=make_device("ipu_model", 4),
        userOptions=options(2, 3, True, pipelined=True, shard_weights=True))
    assert session.getInfo("w1").shape() == [15]
    assert session.getInfo("w2").shape() == [12]


@pytest.mark.parametrize("kind", DEVICES)
def test_replicated_inference(kind):
    b, x, label, probs, loss = build(MICRO_BATCH)
    session = popart.InferenceSession(
        fnModel=b.getModelProto(),
        dataFlow=popart.DataFlow(3, {
            probs: popart.AnchorReturnType("ALL"),
            loss: popart.AnchorReturnType("FINAL")
        }),
        deviceInfo=make_device(kind, 2),
        userOptions=options(2))
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    assert anchors[probs].shape == (3, 2, MICRO_BATCH, OUT)
    assert anchors[loss].shape == (2, )
    xs, labels = step_data(0, 3 * 2 * MICRO_BATCH)
    xs = xs.reshape(3, 2, MICRO_BATCH, IN)
    labels = labels.reshape(3, 2, MICRO_BATCH)
    session.run(popart.PyStepIO({x: xs, label: labels}, anchors))
    for batch in range(3):
        for r in range(2):
            want, want_loss = numpy_forward(initial_weights(), xs[batch, r],
                                            labels[batch, r])
            np.testing.assert_allclose(anchors[probs][batch, r], want,
                                       rtol=1e-5, atol=1e-6)
            if batch == 2:  # FINAL: each replica's last value
                np.testing.assert_allclose(anchors[loss][r], want_loss,
                                           rtol=1e-5)


def test_too_few_ipus_for_the_replicas():
    b, x, label, probs, loss = build(MICRO_BATCH)
    flow = popart.DataFlow(1, {loss: popart.AnchorReturnType("ALL")})
    with pytest.raises(popart.popart_exception,
                       match=r"replicated graph count \(4\) needs to be equal "
                       r"to the number of IPUs \(2\)"):
        popart.InferenceSession(b.getModelProto(), flow,
                                make_device("ipu_model", 2),
                                userOptions=options(4))
    b, x, label, probs, loss = build(MICRO_BATCH, sharded=True)
    with pytest.raises(popart.popart_exception,
                       match=r"replicatedGraphCount 2: the device's 3 IPUs"):
        popart.InferenceSession(b.getModelProto(), flow,
                                make_device("ipu_model", 3),
                                userOptions=options(2, sharded=True))
    opts = popart.SessionOptions()
    opts.replicatedGraphCount = 2
    with pytest.raises(popart.popart_exception,
                       match="enableReplicatedGraphs is false, but "
                       "replicatedGraphCount > 1"):
        popart.InferenceSession(b.getModelProto(), flow,
                                make_device("ipu_model", 2), userOptions=opts)


def test_data_without_the_replica_dimension_is_refused():
    b, x, label, probs, loss = build(MICRO_BATCH)
    session = popart.InferenceSession(
        b.getModelProto(), popart.DataFlow(1, {loss: popart.AnchorReturnType("ALL")}),
        make_device("ipu_model", 2), userOptions=options(2))
    session.prepareDevice()
    anchors = session.initAnchorArrays()
    xs, labels = step_data(0, MICRO_BATCH)
    with pytest.raises(popart.popart_exception,
                       match=r"input array of tensor '" + re.escape(x) +
                       r"' has 10 elements, but one step needs 20.*"
                       r"replicationFactor 2"):
        session.run(popart.PyStepIO({
            x: xs,
            label: np.stack([labels, labels])
        }, anchors))


def test_every_sync_pattern_makes_a_device_of_several_ipus():
    dm = popart.DeviceManager()
    assert popart.SyncPattern.PingPong == popart.SyncPattern.ReplicaAndLadder
    for pattern in (popart.SyncPattern.Full, popart.SyncPattern.SinglePipeline,
                    popart.SyncPattern.PingPong):
        device = dm.createHostDevice(popart.DeviceType.IpuModel,
                                     {"numIPUs": 2}, pattern)
        assert device.numIpus == 2


@pytest.mark.parametrize("kind", DEVICES)
def test_a_broadcast_input_is_given_once_for_every_replica(kind):
    """InputSettings(ReplicatedStreamMode.Broadcast): the array has no
    replica dimension and every replica reads the same values."""
    b = popart.Builder()
    x = b.addInputTensor(popart.TensorInfo("FLOAT", [MICRO_BATCH, IN]), "x")
    s = b.addInputTensor(
        popart.TensorInfo("FLOAT", [IN]),
        popart.InputSettings(popart.ReplicatedStreamMode.Broadcast), "s")
    y = b.aiOnnx.mul([x, s])
    session = popart.InferenceSession(
        b.getModelProto(), popart.DataFlow(2, {y: popart.AnchorReturnType("ALL")}),
        make_device(kind, 2), userOptions=options(2))
    session.prepareDevice()
    anchors = session.initAnchorArrays()
    rng = np.random.default_rng(3)
    xs = rng.normal(size=(2, 2, MICRO_BATCH, IN)).astype(np.float32)
    scales = rng.normal(size=(2, IN)).astype(np.float32)
    session.run(popart.PyStepIO({x: xs, s: scales}, anchors))
    np.testing.assert_allclose(anchors[y], xs * scales[:, None, None, :],
                               rtol=1e-6)
    # Given per replica, the array is too large.
    with pytest.raises(popart.popart_exception,
                       match=r"tensor '" + re.escape(s) + r"' has 20 elements, "
                       r"but one step needs 10"):
        session.run(popart.PyStepIO({
            x: xs,
            s: np.stack([scales, scales], axis=1)
        }, anchors))


def test_an_ir_built_op_by_op_runs_replicated():
    """popart.ir: each replica loads its own part of the stream and stores
    its own result; a variable is every replica's."""
    import popart.ir as pir
    import popart.ir.ops as ops
    ir = pir.Ir()
    with ir.main_graph():
        w = pir.variable(np.array([[1, 2], [3, 4]], np.float32), name="w")
        s = pir.h2d_stream([1, 2], pir.float32, name="in")
        y = ops.host_load(s) @ w
        out = pir.d2h_stream(y.shape, y.dtype, name="out")
        ops.host_store(out, y)
    pb = ir._pb_ir
    pb.setDataFlow(popart.DataFlow(3, {out.tensor_id: popart.AnchorReturnType("All")}))
    opts = pb.getSessionOptions()
    opts.useHostCopyOps = True
    opts.enableExplicitMainLoops = True
    opts.enableReplicatedGraphs = True
    opts.replicatedGraphCount = 2
    with pytest.raises(popart.popart_exception,
                       match=r"replicated graph count \(2\) needs to be equal "
                       r"to the number of IPUs \(1\)"):
        popart.InferenceSession.fromIr(ir, make_device("ipu_model", 1))
    session = popart.InferenceSession.fromIr(ir, make_device("ipu_model", 2))
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    assert anchors[out.tensor_id].shape == (3, 2, 1, 2)
    data = np.arange(12, dtype=np.float32).reshape(3, 2, 1, 2)
    session.run(popart.PyStepIO({s.tensor_id: data}, anchors))
    np.testing.assert_allclose(anchors[out.tensor_id],
                               data @ np.array([[1, 2], [3, 4]], np.float32))
