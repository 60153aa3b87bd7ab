"""pir.Ir: an IR built from Python, graph by graph. It is the IR of the
C++ library (`Ir._pb_ir` is its IrBuilder), run by
popart.InferenceSession.fromIr."""

import inspect
import re

from .. import popart_core as _core
from .graph import Graph
from .tensor import Tensor, TensorByRef, graph_input, graph_output

__all__ = ["Ir"]


class Ir:
    """An IR: a main graph, and the subgraphs made from Python functions."""

    def __init__(self):
        self._pb_ir = _core._IrCore()
        self._main = Graph(self, "")
        self._graph_names = set()

    @property
    def main_graph(self):
        """The main graph (`ir.main_graph()` gives it too)."""
        return self._main

    def _create_name(self, name):
        """A graph id not used yet: name, name_1, ..."""
        base = re.sub(r"[^\w.]", "_", name)
        candidate, n = base, 0
        while candidate in self._graph_names:
            n += 1
            candidate = f"{base}_{n}"
        self._graph_names.add(candidate)
        return candidate

    def create_empty_graph(self, name=None):
        """A subgraph with no inputs, outputs or ops."""
        graph_id = self._create_name(name or "graph")
        self._pb_ir.createGraph(graph_id)
        return Graph(self, graph_id)

    def create_graph(self, fn, *args, **kwargs):
        """A subgraph made by calling `fn` in it: each argument that is a
        Tensor becomes an input of the subgraph of its type and shape (in
        the order of fn's parameters; an argument annotated
        pir.TensorByRef is passed by reference), other arguments are given
        as they are, and the tensors fn returns (None, one, or an iterable)
        are the subgraph's outputs."""
        if not callable(fn):
            raise TypeError(f"create_graph: {fn!r} is not callable")
        signature = inspect.signature(fn)
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as e:
            raise ValueError(f"create_graph: the arguments do not match the "
                             f"signature of {fn.__qualname__}: {e}") from None
        bound.apply_defaults()
        graph = self.create_empty_graph(fn.__qualname__)
        arguments = bound.arguments
        with graph:
            for name, value in list(arguments.items()):
                parameter = signature.parameters[name]
                by_ref = parameter.annotation is TensorByRef
                if isinstance(value, Tensor):
                    arguments[name] = graph_input(value.shape, value.dtype, name,
                                                  by_ref=by_ref)
                elif (parameter.kind is inspect.Parameter.VAR_POSITIONAL
                      and any(isinstance(v, Tensor) for v in value)):
                    arguments[name] = tuple(
                        graph_input(v.shape, v.dtype, f"{name}_{i}", by_ref=by_ref)
                        if isinstance(v, Tensor) else v
                        for i, v in enumerate(value))
            outputs = fn(*bound.args, **bound.kwargs)
            if outputs is None:
                outputs = ()
            elif isinstance(outputs, Tensor):
                outputs = (outputs,)
            for t in outputs:
                if not isinstance(t, Tensor):
                    raise TypeError(f"create_graph: {fn.__qualname__} returned "
                                    f"{type(t).__name__}, not Tensors")
                graph_output(t)
        return graph

    def __repr__(self):
        return f"Ir[{len(self._graph_names)} subgraphs]"
