"""Tensors of popart.ir graphs: variables, constants and the outputs of
ops, with Python's operators as ops."""

import numpy as np

from . import dtypes
from .context import get_current_graph

__all__ = ["Tensor", "Variable", "Constant", "TensorByRef", "variable", "constant",
           "graph_input", "graph_output"]


class Tensor:
    """A tensor of a graph: its id, data type and shape. Made by
    pir.variable, pir.constant, graph inputs and ops, not directly."""

    def __init__(self, graph, tensor_id):
        self._graph = graph
        self._id = tensor_id
        info = graph._pb().getTensorInfo(graph.id, tensor_id)
        self._dtype = dtypes.dtype.as_dtype(info.data_type())
        self._shape = tuple(info.shape())

    @property
    def id(self):
        return self._id

    @property
    def name(self):
        """The id without the graph's prefix."""
        prefix = self._graph._tensor_prefix()
        return self._id[len(prefix):] if self._id.startswith(prefix) else self._id

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return self._shape

    @property
    def rank(self):
        return len(self._shape)

    @property
    def nelms(self):
        return int(np.prod(self._shape, dtype=np.int64))

    @property
    def graph(self):
        return self._graph

    def ir(self):
        return self._graph.ir()

    @property
    def T(self):
        """The tensor transposed (dimensions reversed)."""
        from . import ops
        return ops.transpose(self)

    def transpose(self, permutation=None):
        from . import ops
        return ops.transpose(self, permutation)

    def reshape(self, shape):
        from . import ops
        return ops.reshape(self, shape)

    def _ensure_tensor(self, value):
        """`value` as a tensor of this graph: Python numbers and numpy data
        become constants (numbers of this tensor's type)."""
        if isinstance(value, Tensor):
            return value
        dtype = self._dtype if np.isscalar(value) else None
        return constant(value, dtype)

    def _op(self, name, other, reverse=False):
        from . import ops
        other = self._ensure_tensor(other)
        lhs, rhs = (other, self) if reverse else (self, other)
        return getattr(ops, name)(lhs, rhs)

    def __add__(self, other):
        return self._op("add", other)

    def __radd__(self, other):
        return self._op("add", other, True)

    def __sub__(self, other):
        return self._op("sub", other)

    def __rsub__(self, other):
        return self._op("sub", other, True)

    def __mul__(self, other):
        return self._op("mul", other)

    def __rmul__(self, other):
        return self._op("mul", other, True)

    def __truediv__(self, other):
        return self._op("div", other)

    def __rtruediv__(self, other):
        return self._op("div", other, True)

    def __matmul__(self, other):
        return self._op("matmul", other)

    def __rmatmul__(self, other):
        return self._op("matmul", other, True)

    def __neg__(self):
        from . import ops
        return ops.negate(self)

    def __getitem__(self, key):
        """Basic indexing with ints and slices (steps too), as numpy's."""
        from . import ops
        if not isinstance(key, tuple):
            key = (key,)
        if len(key) > self.rank:
            raise IndexError(f"Tensor '{self.id}' of rank {self.rank} indexed "
                             f"with {len(key)} indices")
        starts, stops, steps, axes, squeeze = [], [], [], [], []
        for axis, k in enumerate(key):
            if isinstance(k, slice):
                start, stop, step = k.indices(self._shape[axis])
                if (start, stop, step) == (0, self._shape[axis], 1):
                    continue
            elif isinstance(k, (int, np.integer)):
                k = int(k) + (self._shape[axis] if k < 0 else 0)
                if not 0 <= k < self._shape[axis]:
                    raise IndexError(f"Index {k} is out of range for dimension "
                                     f"{axis} of '{self.id}' ({self._shape[axis]})")
                start, stop, step = k, k + 1, 1
                squeeze.append(axis)
            else:
                raise TypeError(f"Tensors are indexed with ints and slices, not "
                                f"{type(k).__name__}")
            starts.append(start)
            stops.append(stop)
            steps.append(step)
            axes.append(axis)
        out = self if not axes else ops.slice(self, starts, stops, steps, axes)
        if squeeze:
            shape = [d for i, d in enumerate(out.shape) if i not in squeeze]
            out = ops.reshape(out, shape)
        return out

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of a scalar tensor")
        return self._shape[0]

    def __hash__(self):
        return hash((id(self._graph), self._id))

    def __eq__(self, other):
        return (isinstance(other, Tensor) and other._graph is self._graph
                and other._id == self._id)

    def __repr__(self):
        return f"Tensor[{self._id} {self._dtype} {self._shape}]"


class Variable(Tensor):
    """A tensor of the main graph kept on the device between runs, starting
    as its data (session.weightsFromHost copies it there)."""


class Constant(Tensor):
    """A tensor whose data is fixed when the program is compiled."""


class TensorByRef(Tensor):
    """The type hint of an argument of a function made into a graph
    (ir.create_graph) that is passed by reference: what the graph does to
    it in place is done to the caller's tensor."""


def _host_data(data, dtype):
    if dtype is not None:
        dtype = dtypes.dtype.as_dtype(dtype)
        array = np.asarray(data, dtype=dtype.as_numpy())
    else:
        array = np.asarray(data)
        if array.dtype == np.float64 and not isinstance(data, np.ndarray):
            array = array.astype(np.float32)  # Python floats: float32
        elif array.dtype == np.int64 and not isinstance(data, np.ndarray):
            array = array.astype(np.int32)  # Python ints: int32
        dtypes.dtype.as_dtype(array.dtype)  # an error for types popart lacks
    return np.asarray(array, order="C")  # (ascontiguousarray makes scalars 1-d)


def variable(data, dtype=None, name=None):
    """A variable of the main graph with initial value `data` (a numpy array,
    a Python number or list), of `dtype` (that of `data` by default: Python
    floats are float32, ints int32). Made in the main graph's context only."""
    graph = get_current_graph()
    if not graph._is_main():
        raise ValueError(f"Variables belong to the main graph: '{name}' cannot "
                         f"be made in subgraph '{graph.id}'")
    array = _host_data(data, dtype)
    tensor_id = graph._create_tensor_id(name or "variable")
    graph._pb().addVariable(tensor_id, array)
    return Variable(graph, tensor_id)


def constant(data, dtype=None, name=None):
    """A constant of the current graph with value `data`."""
    graph = get_current_graph()
    array = _host_data(data, dtype)
    tensor_id = graph._create_tensor_id(name or "constant")
    graph._pb().addConstant(graph.id, tensor_id, array)
    return Constant(graph, tensor_id)


def graph_input(shape, dtype, name=None, by_ref=False):
    """A new input of the current subgraph; `by_ref` passes it by
    reference."""
    from ..popart_core import TensorInfo
    graph = get_current_graph()
    if graph._is_main():
        raise ValueError("graph_input: the main graph has no inputs (use "
                         "pir.h2d_stream and ops.host_load)")
    dtype = dtypes.dtype.as_dtype(dtype)
    tensor_id = graph._create_tensor_id(name or "input")
    graph._pb().addGraphInput(graph.id, tensor_id,
                              TensorInfo(dtype._popart(), list(shape)))
    if by_ref:
        graph._by_ref_inputs.add(tensor_id)
    return Tensor(graph, tensor_id)


def graph_output(t):
    """Makes `t` the next output of the current subgraph."""
    graph = get_current_graph()
    if t.graph is not graph:
        raise ValueError(f"graph_output: '{t.id}' is not a tensor of graph "
                         f"'{graph.id}'")
    graph._pb().addGraphOutput(graph.id, t.id)
