"""Making ops: each op of popart.ir is an op of the C++ IR, made by the
same op table as the op of an ONNX node (IrBuilder.addOp)."""

from .. import context
from ..tensor import Tensor, constant

AI_ONNX = "ai.onnx"
AI_GRAPHCORE = "ai.graphcore"


def graph_of(*tensors):
    """The current graph, which every tensor given must belong to."""
    graph = context.get_current_graph()
    for t in tensors:
        if isinstance(t, Tensor) and t.graph is not graph:
            raise ValueError(f"Tensor '{t.id}' is in graph '{t.graph.name}', not in "
                             f"the graph being built ('{graph.name}'): pass it "
                             "to the subgraph as an input")
    return graph


def as_tensor(value, like=None):
    """A tensor, or a constant of the current graph holding `value` (of
    `like`'s type for Python numbers)."""
    if isinstance(value, Tensor):
        return value
    if like is not None:
        return like._ensure_tensor(value)
    return constant(value)


def add_op(op_type, inputs, attributes=None, num_outputs=1, domain=AI_ONNX,
           version=1, name=None, output_ids=None):
    """Adds an op to the current graph; returns its id and output tensors."""
    graph = graph_of(*inputs)
    op_name = context._scoped_name(name or op_type)
    if output_ids is None:
        output_ids = [graph._create_tensor_id(f"{name or op_type}"
                                              + (f":{i}" if num_outputs > 1 else ""))
                      for i in range(num_outputs)]
    pb = graph._pb()
    op_id = pb.addOp(graph.id, domain, op_type, version,
                     [t.id if t is not None else "" for t in inputs], output_ids,
                     attributes or {}, op_name, context._virtual_graph())
    if context._sequence_enabled():
        if graph._last_op is not None:
            pb.addTopoCon(graph.id, graph._last_op, op_id)
        graph._last_op = op_id
    return op_id, [Tensor(graph, i) for i in output_ids]


def one_output(*args, **kwargs):
    return add_op(*args, **kwargs)[1][0]
