"""popart.InferenceSession and popart.TrainingSession: the C++ sessions
(_InferenceSessionCore, _TrainingSessionCore) with the original module's
keyword arguments and anchor arrays."""

import numpy as np

from . import popart_core as _core


def _initAnchorArrays(session):
    """numpy arrays to receive the anchors of one step, by anchor id.

    The shape of an anchor's array is [values per step, accumulation
    factor, replication factor, *tensor shape] with every dimension equal
    to 1 dropped from the first three. The values per step are
    batchesPerStep for ALL and batchesPerStep / N for EVERYN; FINAL and
    SUM return one value, so their arrays are [replication factor,
    *tensor shape] (again without a replication factor of 1).
    """
    dataFlow = session.dataFlow
    batchesPerStep = dataFlow.batchesPerStep()
    arrays = {}
    for anchor in dataFlow.anchors():
        info = session.getInfo(anchor)
        art = dataFlow.art(anchor)
        outer = [session.replicationFactor]
        if art.id() == _core.AnchorReturnTypeId.All:
            outer = [batchesPerStep, session.accumulationFactor] + outer
        elif art.id() == _core.AnchorReturnTypeId.EveryN:
            if batchesPerStep % art.rp() != 0:
                raise RuntimeError(f"Anchor '{anchor}': its return period "
                                   f"{art.rp()} does not divide batchesPerStep "
                                   f"{batchesPerStep}")
            outer = [batchesPerStep // art.rp(), session.accumulationFactor] + outer
        shape = [d for d in outer if d != 1] + list(info.shape())
        if info.data_type() == "STRING":
            # Strings of any length: Python str objects.
            arrays[anchor] = np.full(shape, "", dtype=object)
        else:
            arrays[anchor] = np.empty(shape, dtype=info.data_type_lcase())
    return arrays


class _SessionMethods:
    """What the Python sessions add to the C++ ones."""

    @property
    def dataFlow(self):
        """The DataFlow the session was made with."""
        return self._getDataFlow()

    @property
    def replicationFactor(self):
        return self._replicationFactor()

    @property
    def accumulationFactor(self):
        return self._accumulationFactor()

    def initAnchorArrays(self):
        """numpy arrays for the anchors of one step (see _initAnchorArrays)."""
        return _initAnchorArrays(self)

    def run(self, stepio, debugName=""):
        """Runs one step. A STRING anchor whose shape depends on its input's
        values (a StringNormalizer's output) is replaced, in the anchors
        dict the PyStepIO was made with, by an array of the shape of the
        value computed."""
        super().run(stepio, debugName)
        fit = getattr(stepio, "_fitStringAnchors", None)
        if fit is None:
            return
        shapes = {}
        for anchor in self.dataFlow.anchors():
            info = self.getInfo(anchor)
            if info.data_type() == "STRING":
                shapes[anchor] = list(info.shape())
        if shapes:
            fit(shapes)


def _dataFlowArgument(kind, dataFlow, dataFeed):
    # dataFeed is the name older releases gave the DataFlow.
    if dataFeed is not None:
        if dataFlow is not None:
            raise TypeError(f"{kind}() got both dataFlow and dataFeed")
        dataFlow = dataFeed
    if dataFlow is None:
        raise TypeError(f"{kind}() missing the argument 'dataFlow'")
    return dataFlow


def _lossObjects(kind, losses):
    """The loss objects of the older interface, checked."""
    losses = list(losses)
    for loss in losses:
        if not isinstance(loss, _core.Loss):
            raise TypeError(f"{kind}(): losses must be popart.Loss objects "
                            f"(NllLoss, L1Loss, IdentityLoss), not {type(loss).__name__}")
    return losses


class InferenceSession(_SessionMethods, _core._InferenceSessionCore):
    """A session running a model's forward pass.

    Arguments:
        fnModel: the model, as serialised ModelProto bytes
            (Builder.getModelProto()) or the name of an ONNX file.
        dataFlow: batches per step and the anchors to return.
        deviceInfo: the device (DeviceManager().createIpuModelDevice({}),
            createCpuDevice()).
        inputShapeInfo: shapes of inputs the model leaves unknown.
        patterns: the patterns to apply; None for the default ones.
        userOptions: the SessionOptions.
        name: the session's name.
        losses: (older releases) loss objects whose ops are added to the
            model, so that their values can be anchored.
    """

    def __init__(self, fnModel, dataFlow=None, deviceInfo=None,
                 inputShapeInfo=None, patterns=None, userOptions=None,
                 name="inference", *, dataFeed=None, losses=None):
        dataFlow = _dataFlowArgument("InferenceSession", dataFlow, dataFeed)
        if deviceInfo is None:
            raise TypeError("InferenceSession() missing the argument 'deviceInfo'")
        inputShapeInfo = inputShapeInfo if inputShapeInfo is not None else _core.InputShapeInfo()
        userOptions = userOptions if userOptions is not None else _core.SessionOptions()
        patterns = patterns if patterns is not None else _core.Patterns()
        if losses is not None:
            if name != "inference":
                raise TypeError("InferenceSession(): a session with losses keeps "
                                "the name 'inference'")
            super().__init__(fnModel, dataFlow, deviceInfo,
                             _lossObjects("InferenceSession", losses),
                             inputShapeInfo, userOptions, patterns)
        else:
            super().__init__(fnModel, dataFlow, deviceInfo, inputShapeInfo,
                             userOptions, patterns, name)


    @classmethod
    def fromIr(cls, ir, deviceInfo, name="fromIr"):
        """A session of an IR built with popart.ir (the pir.Ir, or its
        `_pb_ir`), with the DataFlow and SessionOptions set on `_pb_ir`."""
        pb_ir = getattr(ir, "_pb_ir", ir)
        if not isinstance(pb_ir, _core._IrCore):
            raise TypeError(f"InferenceSession.fromIr: {ir!r} is not a popart.ir IR")
        self = cls.__new__(cls)
        _core._InferenceSessionCore.__init__(self, pb_ir, deviceInfo, name)
        return self


class TrainingSession(_SessionMethods, _core._TrainingSessionCore):
    """A session that trains a model: each step runs the forward pass, the
    backward pass from the loss and the optimiser's weight updates.

    Arguments:
        fnModel: the model, as serialised ModelProto bytes or an ONNX file.
        dataFlow: batches per step and the anchors to return.
        loss: the id of the loss tensor (the output of
            builder.aiGraphcore.nllloss, l1loss or identityloss); a list of
            loss objects is taken as `losses`.
        optimizer: popart.SGD, ConstSGD, Adam or Adaptive.
        deviceInfo: the device.
        inputShapeInfo: shapes of inputs the model leaves unknown.
        patterns: the patterns to apply; None for the default ones.
        userOptions: the SessionOptions.
        name: the session's name.
        losses: (older releases) loss objects (popart.NllLoss, L1Loss,
            IdentityLoss) whose sum is the loss.
    """

    def __init__(self, fnModel, dataFlow=None, loss=None, optimizer=None,
                 deviceInfo=None, inputShapeInfo=None, patterns=None,
                 userOptions=None, name="training", *, dataFeed=None,
                 losses=None):
        dataFlow = _dataFlowArgument("TrainingSession", dataFlow, dataFeed)
        if isinstance(loss, (list, tuple, _core.Loss)):
            if losses is not None:
                raise TypeError("TrainingSession() got both loss objects and losses")
            losses = [loss] if isinstance(loss, _core.Loss) else loss
            loss = None
        if (loss is None) == (losses is None):
            raise TypeError("TrainingSession() needs the loss: a tensor id "
                            "(loss=) or loss objects (losses=)")
        for argument, value in (("optimizer", optimizer), ("deviceInfo", deviceInfo)):
            if value is None:
                raise TypeError(f"TrainingSession() missing the argument '{argument}'")
        inputShapeInfo = inputShapeInfo if inputShapeInfo is not None else _core.InputShapeInfo()
        userOptions = userOptions if userOptions is not None else _core.SessionOptions()
        patterns = patterns if patterns is not None else _core.Patterns()
        lossArgument = loss if loss is not None else _lossObjects("TrainingSession", losses)
        super().__init__(fnModel, dataFlow, lossArgument, optimizer, deviceInfo,
                         inputShapeInfo, userOptions, patterns, name)
        # The model, whose initializers horovod.popart's broadcast_weights
        # sends.
        self._fnModel = fnModel
