"""Graphs of a popart.ir IR: the main graph and subgraphs."""

from . import context

__all__ = ["Graph"]


class Graph:
    """A graph of an IR (made by the IR: ir.main_graph(), ir.create_graph).
    `with graph:` makes the ops of the block in it."""

    def __init__(self, ir, graph_id):
        self._ir = ir
        self._id = graph_id
        self._by_ref_inputs = set()
        self._last_op = None  # for pir.in_sequence
        self._reserved_ids = set()  # d2h streams' ids, not tensors yet

    @property
    def id(self):
        """"" for the main graph."""
        return self._id

    @property
    def name(self):
        return self._id or "main"

    def ir(self):
        return self._ir

    def __call__(self):
        # ir.main_graph() and ir.main_graph both give the graph.
        return self

    def _is_main(self):
        return self._id == ""

    def _pb(self):
        return self._ir._pb_ir

    def _tensor_prefix(self):
        # Ids are unique in the whole IR: a subgraph's begin with its id.
        return "" if self._is_main() else self._id + "/"

    def _create_tensor_id(self, name, reserve=False):
        base = self._tensor_prefix() + context._scoped_name(name)
        tensor_id, n = self._pb().uniqueId(self._id, base), 0
        while tensor_id in self._reserved_ids:
            n += 1
            tensor_id = self._pb().uniqueId(self._id, f"{base}_{n}")
        if reserve:
            self._reserved_ids.add(tensor_id)
        return tensor_id

    @property
    def inputs(self):
        from .tensor import Tensor
        return tuple(Tensor(self, i) for i in self._pb().getGraphInputIds(self._id))

    @property
    def outputs(self):
        from .tensor import Tensor
        return tuple(Tensor(self, i) for i in self._pb().getGraphOutputIds(self._id))

    def __enter__(self):
        context._push_graph(self)
        return self

    def __exit__(self, *exc):
        context._pop_graph(self)

    def __eq__(self, other):
        return isinstance(other, Graph) and other._ir is self._ir and other._id == self._id

    def __hash__(self):
        return hash((id(self._ir), self._id))

    def __repr__(self):
        return f"Graph[{self.name}]"
