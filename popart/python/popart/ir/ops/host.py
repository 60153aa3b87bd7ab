"""The host copies: ops.host_load reads a host-to-device stream, and
ops.host_store writes a device-to-host stream."""

from ..streams import DeviceToHostStream, HostToDeviceStream
from ..tensor import Tensor
from .utils import AI_GRAPHCORE, add_op, one_output

__all__ = ["host_load", "host_store"]


def host_load(h2d_stream, name=None):
    """The tensor the host sends through `h2d_stream` (once per batch)."""
    if not isinstance(h2d_stream, HostToDeviceStream):
        raise TypeError(f"host_load: {h2d_stream!r} is not a pir.h2d_stream")
    stream = Tensor(h2d_stream._graph, h2d_stream.tensor_id)
    return one_output("HostLoad", [stream], domain=AI_GRAPHCORE, name=name)


def host_store(d2h_stream, t):
    """Sends `t` to the host through `d2h_stream` (an anchor of the session:
    give its tensor_id to the DataFlow)."""
    if not isinstance(d2h_stream, DeviceToHostStream):
        raise TypeError(f"host_store: {d2h_stream!r} is not a pir.d2h_stream")
    if tuple(t.shape) != d2h_stream.shape or t.dtype != d2h_stream.dtype:
        raise ValueError(f"host_store: '{t.id}' is {t.dtype} {t.shape}, but the "
                         f"stream '{d2h_stream.tensor_id}' carries {d2h_stream.dtype} "
                         f"{d2h_stream.shape}")
    graph = d2h_stream._graph
    if graph._pb().hasTensor(graph.id, d2h_stream.tensor_id):
        raise ValueError(f"host_store: the stream '{d2h_stream.tensor_id}' is "
                         "already stored to")
    add_op("HostStore", [t], domain=AI_GRAPHCORE, name=f"host_store({t.name})",
           output_ids=[d2h_stream.tensor_id])
