"""horovod.popart: Horovod's PopART extension, over popart's MPI layer
(popart_core._mpi, OpenMPI).

A job is started by ``mpirun -np N python train.py`` (or ``horovodrun``
where Horovod is installed). With ``SessionOptions.hostAllReduce`` each
weight's gradient comes to the host before its update;
``DistributedOptimizer`` connects those streams so that the gradient is
averaged over the processes (as Horovod's allreduce does by default) and
goes back to the device. ``broadcast_weights`` gives every process the
weights of one, so that all start, and stay, the same.
"""
import numpy as np

from popart.popart_core import _mpi

__all__ = [
    "init", "shutdown", "is_initialized", "rank", "size", "local_rank",
    "local_size", "allreduce", "broadcast", "broadcast_weights",
    "DistributedOptimizer"
]

_initialized = False


def init():
    """Initialises MPI (every process of the job calls it)."""
    global _initialized
    _mpi.init()
    _initialized = True


def shutdown():
    """MPI is finalised when the process exits; nothing to do before."""


def is_initialized():
    return _initialized


def _check():
    if not _initialized:
        raise ValueError(
            "horovod.popart has not been initialized; use hvd.init().")


def rank():
    _check()
    return _mpi.rank()


def size():
    _check()
    return _mpi.size()


def local_rank():
    _check()
    return _mpi.local_rank()


def local_size():
    _check()
    return _mpi.local_size()


def allreduce(tensor, average=True, name=None):
    """A new array: the mean (or sum) of `tensor` over the processes."""
    _check()
    out = np.array(tensor, copy=True, order="C")
    _mpi.allreduce(out, average)
    return out


def broadcast(tensor, root_rank, name=None):
    """A new array: `tensor` of the process of rank `root_rank`."""
    _check()
    out = np.array(tensor, copy=True, order="C")
    _mpi.broadcast(out, root_rank)
    return out


def _weight_ids(session):
    """The session's weights."""
    import onnx
    model = session._fnModel
    if isinstance(model, (bytes, bytearray)):
        model = onnx.load_model_from_string(bytes(model))
    else:
        model = onnx.load(model, load_external_data=False)
    # A TrainingSession's weights are its floating-point initializers (the
    # others are constants).
    weights = (onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16)
    return sorted(init.name for init in model.graph.initializer
                  if init.data_type in weights)


def broadcast_weights(session, root_rank=0):
    """The session's host weights become those of process `root_rank`
    (send them to the device with weightsFromHost)."""
    _check()
    import popart
    ids = [i for i in _weight_ids(session) if session.hasInfo(i)]
    buffers = {}
    for i in ids:
        info = session.getInfo(i)
        buffers[i] = np.empty(info.shape(), dtype=info.data_type_lcase())
    session.readWeights(popart.PyWeightsIO(buffers))
    for i in ids:
        _mpi.broadcast(buffers[i], root_rank)
    session.writeWeights(popart.PyWeightsIO(buffers))


class DistributedOptimizer:
    """Averages the gradients of a TrainingSession over the processes.

    optimizer: the session's optimiser; training_session: the session,
    made with `userOpts` (which must have hostAllReduce). The gradient
    streams are connected once the session's device is prepared: here if
    it is already, else by insert_host_allreduce() after prepareDevice.
    """

    def __init__(self, optimizer, training_session, userOpts):
        _check()
        if not userOpts.hostAllReduce:
            raise ValueError(
                "DistributedOptimizer needs SessionOptions.hostAllReduce = "
                "True (the gradients come to the host to be reduced)")
        self.optimizer = optimizer
        self.session = training_session
        self._gradients = {}
        self._connected = False
        if training_session.getHostReduceStreamIds():
            self.insert_host_allreduce()

    def insert_host_allreduce(self):
        """Connects the gradient streams to the reduction (after
        prepareDevice)."""
        if self._connected:
            return
        streams = self.session.getHostReduceStreamIds()
        if not streams:
            raise RuntimeError(
                "DistributedOptimizer: the session has no gradient streams "
                "yet (call prepareDevice first)")
        store, load = "gradientStore__", "gradientLoad__"
        for stream in streams:
            if stream.startswith(store):
                grad = stream[len(store):]
                self.session.connectStreamToCallback(
                    stream, self._storer(grad))
            elif stream.startswith(load):
                grad = stream[len(load):]
                self.session.connectStreamToCallback(
                    stream, self._loader(grad))
        self._connected = True

    def _storer(self, grad):
        def store(array):
            self._gradients[grad] = array.copy()

        return store

    def _loader(self, grad):
        def load(array):
            reduced = self._gradients.pop(grad)
            _mpi.allreduce(reduced, True)
            array[...] = reduced

        return load
