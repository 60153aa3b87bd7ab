"""What the Python tests share: the devices they run on, sessions run for
one step, the options of replicated and accumulated training, and the
seeded weights and classification data of their small models."""
import numpy as np
import popart

DEVICES = ["cpu", "ipumodel"]


def device(kind="cpu", ipus=1, tiles=4, **options):
    """The CPU device, or an IPU Model of `ipus` IPUs of `tiles` tiles (more
    IPU Model options as keywords)."""
    manager = popart.DeviceManager()
    if kind == "cpu":
        return manager.createCpuDevice()
    return manager.createIpuModelDevice({"numIPUs": ipus, "tilesPerIPU": tiles, **options})


def anchored(ids, batches_per_step=1):
    """A DataFlow returning every one of `ids` in full."""
    return popart.DataFlow(batches_per_step, {i: popart.AnchorReturnType("ALL") for i in ids})


def run_session(session, inputs):
    """One run of a prepared session; its anchors."""
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO(inputs, anchors))
    return anchors


def one_step(builder, outputs, inputs, loss=None, grads_of=(), deviceInfo=None):
    """One step on the CPU device (or `deviceInfo`): an InferenceSession
    without a loss, otherwise a TrainingSession with ConstSGD(0) that also
    returns the gradients of the inputs `grads_of`. The outputs, then those
    gradients, as a list."""
    ids = list(outputs) + [popart.reservedGradientPrefix() + i for i in grads_of]
    flow = anchored(ids)
    deviceInfo = deviceInfo or device()
    if loss is None:
        session = popart.InferenceSession(fnModel=builder.getModelProto(), dataFlow=flow,
                                          deviceInfo=deviceInfo)
    else:
        session = popart.TrainingSession(builder.getModelProto(), flow, loss,
                                         popart.ConstSGD(0.0), deviceInfo)
    session.prepareDevice()
    session.weightsFromHost()
    anchors = run_session(session, inputs)
    return [anchors[i] for i in ids]


def replication_options(replicas=1, accumulation=1, opts=None):
    """`opts` (new ones by default) with `replicas` replicated graphs and
    `accumulation` accumulated micro-batches where they are above 1."""
    opts = opts or popart.SessionOptions()
    if replicas > 1:
        opts.enableReplicatedGraphs = True
        opts.replicatedGraphCount = replicas
    if accumulation > 1:
        opts.enableGradientAccumulation = True
        opts.accumulationFactor = accumulation
    return opts


def normal_weights(seed, scale, shapes):
    """FLOAT weights of the shapes given (name: shape, drawn in that order)
    from N(0, scale)."""
    rng = np.random.default_rng(seed)
    return {k: rng.normal(0, scale, s).astype(np.float32) for k, s in shapes.items()}


def classification_data(seed, samples, features, classes):
    """`samples` FLOAT rows of `features` from N(0, 1) and INT32 labels
    below `classes`."""
    rng = np.random.default_rng(seed)
    xs = rng.normal(size=(samples, features)).astype(np.float32)
    labels = rng.integers(0, classes, size=(samples, )).astype(np.int32)
    return xs, labels


def read_weights(session, shapes):
    """The weights (and optimiser state) named in `shapes` (name: shape),
    read back from the device."""
    session.weightsToHost()
    out = {k: np.empty(s, np.float32) for k, s in shapes.items()}
    session.readWeights(popart.PyWeightsIO(out))
    return out
