"""popart.Builder: the C++ Builder (_BuilderCore) with the original
module's opset selection: `builder.aiOnnx` is the ai.onnx opset of the
model (popart.defaultAiOnnxOpset, or the first aiOnnxOpsetN used, or the
one given with `opsets`), and a model uses one ai.onnx opset."""

import functools

from . import popart_core as _core


class _Opset:
    """An opset object of the builder. Calls go to the C++ opset; the
    keyword debugPrefix of older releases is taken as debugContext."""

    def __init__(self, core_opset, version):
        self._opset = core_opset
        self.version = version

    def __getattr__(self, name):
        if name == "_opset":  # not made yet (copy, pickle): no recursion
            raise AttributeError(name)
        method = getattr(self._opset, name)
        if not callable(method):
            return method

        @functools.wraps(method)
        def call(*args, **kwargs):
            if "debugPrefix" in kwargs:
                if "debugContext" in kwargs:
                    raise TypeError(f"{name}() got both debugPrefix and debugContext")
                kwargs["debugContext"] = kwargs.pop("debugPrefix")
            # A subgraph builder (call's callee) goes as the C++ builder.
            args = [a._impl if isinstance(a, Builder) else a for a in args]
            kwargs = {k: v._impl if isinstance(v, Builder) else v
                      for k, v in kwargs.items()}
            return method(*args, **kwargs)

        return call

    def __dir__(self):
        return sorted(set(dir(self._opset)) | {"version"})

    def __repr__(self):
        return f"<{type(self._opset).__name__}>"


class Builder:
    """Builds an ONNX model op by op.

    Arguments:
        modelProtoOrFilename: a serialised ModelProto (bytes) or the name of
            an ONNX file to start from; None for an empty model.
        opsets: the opset version of each domain, for example
            {"ai.onnx": 11, "ai.graphcore": 1}; None for the defaults.
    """

    def __init__(self, modelProtoOrFilename=None, opsets=None):
        if modelProtoOrFilename is None:
            self._impl = _core._BuilderCore()
        else:
            self._impl = _core._BuilderCore(modelProtoOrFilename)
        opsets = dict(opsets or {})
        unknown = set(opsets) - {"ai.onnx", "ai.graphcore"}
        if unknown:
            raise ValueError(f"Unknown opset domain(s) {sorted(unknown)}: the "
                             "domains are ai.onnx and ai.graphcore")
        graphcore = opsets.get("ai.graphcore", _core.defaultAiGraphcoreOpset)
        if graphcore != 1:
            raise ValueError(f"Unsupported ai.graphcore opset {graphcore}: the "
                             "builder has opset 1")
        self._onnxVersion = None
        if "ai.onnx" in opsets:
            self._selectOnnxVersion(opsets["ai.onnx"])

    def _selectOnnxVersion(self, version):
        version = int(version)
        if not hasattr(self._impl, f"aiOnnxOpset{version}"):
            raise ValueError(f"Unsupported ai.onnx opset {version}")
        if self._onnxVersion is not None and self._onnxVersion != version:
            raise RuntimeError(f"Invalid opset 'aiOnnxOpset{version}' selected: "
                               "the opset of domain ai.onnx is already "
                               f"{self._onnxVersion}")
        self._onnxVersion = version

    def _onnxOpset(self, version):
        self._selectOnnxVersion(version)
        return _Opset(getattr(self._impl, f"aiOnnxOpset{version}"), version)

    @property
    def aiOnnx(self):
        """The ai.onnx opset of this model."""
        version = self._onnxVersion
        return self._onnxOpset(version if version is not None else _core.defaultAiOnnxOpset)

    @property
    def aiGraphcore(self):
        """The ai.graphcore opset (version 1)."""
        return _Opset(self._impl.aiGraphcoreOpset1, 1)

    @property
    def aiGraphcoreOpset1(self):
        return self.aiGraphcore

    def __getattr__(self, name):
        if name == "_impl":  # not made yet (copy, pickle): no recursion
            raise AttributeError(name)
        if name.startswith("aiOnnxOpset"):
            suffix = name[len("aiOnnxOpset"):]
            if suffix.isdigit():
                return self._onnxOpset(int(suffix))
        return getattr(self._impl, name)

    def __dir__(self):
        return sorted(set(dir(type(self))) | set(dir(self._impl)))

    def createSubgraphBuilder(self):
        """A builder of a subgraph (the callee of aiGraphcore.call), owned
        by this builder."""
        sub = Builder.__new__(Builder)
        sub._impl = self._impl._createSubgraphBuilder()
        sub._onnxVersion = self._onnxVersion
        sub._parent = self
        return sub

    def reshape_const(self, aiOnnx, args, shape, debugContext=""):
        """Reshape args[0] to `shape`, given as a constant of the model."""
        import numpy as np
        name = debugContext + "_const" if debugContext else ""
        newShape = aiOnnx.constant(np.array(shape, dtype=np.int64), debugContext=name)
        return aiOnnx.reshape([args[0], newShape], debugContext=debugContext)
