"""popart.InferenceSession: the C++ InferenceSession (_InferenceSessionCore)
with the original module's keyword arguments and anchor arrays."""

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
        arrays[anchor] = np.empty(shape, dtype=info.data_type_lcase())
    return arrays


class InferenceSession(_core._InferenceSessionCore):
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
    """

    def __init__(self, fnModel, dataFlow=None, deviceInfo=None,
                 inputShapeInfo=None, patterns=None, userOptions=None,
                 name="inference", *, dataFeed=None):
        # dataFeed is the name older releases gave the DataFlow.
        if dataFeed is not None:
            if dataFlow is not None:
                raise TypeError("InferenceSession() got both dataFlow and dataFeed")
            dataFlow = dataFeed
        if dataFlow is None:
            raise TypeError("InferenceSession() missing the argument 'dataFlow'")
        if deviceInfo is None:
            raise TypeError("InferenceSession() missing the argument 'deviceInfo'")
        super().__init__(
            fnModel, dataFlow, deviceInfo,
            inputShapeInfo if inputShapeInfo is not None else _core.InputShapeInfo(),
            userOptions if userOptions is not None else _core.SessionOptions(),
            patterns if patterns is not None else _core.Patterns(), name)

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
