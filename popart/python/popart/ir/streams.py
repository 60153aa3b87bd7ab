"""Streams between the host and the device: pir.h2d_stream (read by
ops.host_load) and pir.d2h_stream (written by ops.host_store, anchored in
the session's DataFlow by its tensor_id)."""

from .. import popart_core as _core
from . import dtypes
from .context import get_current_graph

__all__ = ["HostToDeviceStream", "DeviceToHostStream", "h2d_stream", "d2h_stream"]


class _Stream:
    def __init__(self, graph, tensor_id, shape, dtype):
        self._graph = graph
        self._tensor_id = tensor_id
        self._shape = tuple(int(d) for d in shape)
        self._dtype = dtype

    @property
    def tensor_id(self):
        return self._tensor_id

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    def __repr__(self):
        return f"{type(self).__name__}[{self._tensor_id} {self._dtype} {self._shape}]"


class HostToDeviceStream(_Stream):
    """Data from the host: an input of the session (PyStepIO), read once
    per batch."""


class DeviceToHostStream(_Stream):
    """Data to the host: an anchor of the session."""


def _main_graph(what):
    graph = get_current_graph()
    if not graph._is_main():
        raise ValueError(f"{what}: streams belong to the main graph, not to "
                         f"subgraph '{graph.id}'")
    return graph


def h2d_stream(shape, dtype, name=None):
    """A host-to-device stream of tensors of `shape` and `dtype`."""
    graph = _main_graph("h2d_stream")
    dtype = dtypes.dtype.as_dtype(dtype)
    tensor_id = graph._create_tensor_id(name or "h2d_stream")
    graph._pb().addStream(tensor_id, _core.TensorInfo(dtype._popart(), list(shape)))
    return HostToDeviceStream(graph, tensor_id, shape, dtype)


def d2h_stream(shape, dtype, name=None):
    """A device-to-host stream of tensors of `shape` and `dtype`; its
    tensor_id is the anchor to give the DataFlow."""
    graph = _main_graph("d2h_stream")
    dtype = dtypes.dtype.as_dtype(dtype)
    tensor_id = graph._create_tensor_id(name or "d2h_stream", reserve=True)
    return DeviceToHostStream(graph, tensor_id, shape, dtype)
