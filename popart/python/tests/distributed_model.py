"""The model, data and cases of the distributed-training tests: a linear
layer, ReLU, a second linear layer and softmax with an NllLoss (mean), on
data drawn from fixed seeds, so that each process of a job and the
single-process reference see the same numbers."""
import numpy as np
import popart

IN, HIDDEN, OUT = 6, 8, 4
REPLICA_BATCH = 3  # samples of each replica's micro-batch
REPLICAS = 2
BATCHES_PER_STEP = 2
STEPS = 4

CASES = {
    # SGD with momentum; the replicas' gradients averaged.
    "mean_momentum": {
        "reduction": popart.ReductionType.Mean,
        "accumulation": 1,
        "optimizer": lambda scale: popart.SGD({
            "defaultLearningRate": (0.05 * scale, False),
            "defaultMomentum": (0.9, True)
        }),
    },
    # Summed over the replicas (the default), accumulated over two
    # micro-batches: as the mean over the combined batch with twice the
    # learning rate.
    "sum_accumulate": {
        "reduction": popart.ReductionType.Sum,
        "accumulation": 2,
        "optimizer": lambda scale: popart.ConstSGD(0.05 * scale),
    },
    # Dropout after the ReLU: each replica draws its own mask, from its
    # global index, so a job of processes draws what one process of as
    # many replicas does.
    "dropout": {
        "reduction": popart.ReductionType.Mean,
        "accumulation": 1,
        "dropout": True,
        "optimizer": lambda scale: popart.ConstSGD(0.05 * scale),
    },
    # horovod.popart: hostAllReduce, DistributedOptimizer (the mean over
    # the processes), broadcast_weights; no distributed replicas.
    "horovod": {
        "reduction": popart.ReductionType.Sum,
        "accumulation": 1,
        "horovod": True,
        "optimizer": lambda scale: popart.SGD({
            "defaultLearningRate": (0.05, False),
            "defaultMomentum": (0.9, True)
        }),
    },
}


def reference_scale(case):
    """The learning-rate scale of the single-process run that trains as
    the replicas do: the replicas' gradients summed are twice the mean
    over the combined batch."""
    c = CASES[case]
    summed = c["reduction"] == popart.ReductionType.Sum and not c.get("horovod")
    return REPLICAS if summed else 1


def initial_weights(seed):
    rng = np.random.default_rng(seed)
    return {
        "w1": rng.normal(0, 0.5, (IN, HIDDEN)).astype(np.float32),
        "b1": rng.normal(0, 0.1, (HIDDEN, )).astype(np.float32),
        "w2": rng.normal(0, 0.5, (HIDDEN, OUT)).astype(np.float32),
    }


def training_session(batch, weights, opts, optimizer, accumulation, ipus=1,
                     dropout=False):
    b = popart.Builder()
    x = b.addInputTensor(popart.TensorInfo("FLOAT", [batch, IN]), "x")
    label = b.addInputTensor(popart.TensorInfo("INT32", [batch]), "label")
    ids = {k: b.addInitializedInputTensor(v, k) for k, v in weights.items()}
    h = b.aiOnnx.relu(
        [b.aiOnnx.add([b.aiOnnx.matmul([x, ids["w1"]]), ids["b1"]])])
    if dropout:
        h = b.aiOnnx.dropout([h], num_outputs=1, ratio=0.5)[0]
    probs = b.aiOnnx.softmax([b.aiOnnx.matmul([h, ids["w2"]])], axis=1)
    loss = b.aiGraphcore.nllloss([probs, label],
                                 reduction=popart.ReductionType.Mean)
    session = popart.TrainingSession(
        fnModel=b.getModelProto(),
        dataFlow=popart.DataFlow(BATCHES_PER_STEP,
                                 {loss: popart.AnchorReturnType("ALL")}),
        loss=loss,
        optimizer=optimizer,
        deviceInfo=popart.DeviceManager().createIpuModelDevice({
            "numIPUs": ipus,
            "tilesPerIPU": 4
        }),
        userOptions=opts)
    return session, {"x": x, "label": label, "weights": ids}


def combined_data(step, accumulation, replicas=REPLICAS):
    """The step's data of all the replicas: [batches, (accumulation,)
    replicas * REPLICA_BATCH, ...]."""
    rng = np.random.default_rng(1000 + step)
    shape = [BATCHES_PER_STEP, accumulation, replicas * REPLICA_BATCH]
    xs = rng.normal(size=shape + [IN]).astype(np.float32)
    labels = rng.integers(0, OUT, size=shape).astype(np.int32)
    if accumulation == 1:
        xs, labels = xs[:, 0], labels[:, 0]
    return xs, labels


def replica_data(step, replica, accumulation):
    xs, labels = combined_data(step, accumulation)
    part = slice(replica * REPLICA_BATCH, (replica + 1) * REPLICA_BATCH)
    return xs[..., part, :], labels[..., part]


def replicas_data(step, first, count, accumulation, replicas=REPLICAS):
    """The data of replicas first ... first + count - 1 (of `replicas`) as
    one process holding them reads it: [batches, (accumulation,)
    (count,) REPLICA_BATCH, ...]."""
    xs, labels = combined_data(step, accumulation, replicas)
    xs = xs.reshape(xs.shape[:-2] + (replicas, REPLICA_BATCH, IN))
    labels = labels.reshape(labels.shape[:-1] + (replicas, REPLICA_BATCH))
    xs, labels = xs[..., first:first + count, :, :], labels[..., first:first + count, :]
    if count == 1:
        xs, labels = xs[..., 0, :, :], labels[..., 0, :]
    return xs, labels


def read_weights(session):
    out = {k: np.empty(v.shape, np.float32) for k, v in initial_weights(0).items()}
    session.readWeights(popart.PyWeightsIO(out))
    return out
