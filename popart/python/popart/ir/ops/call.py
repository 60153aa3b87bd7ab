"""Running subgraphs: ops.call (once) and ops.repeat (a number of times),
with the inputs of the subgraph given by position or by a map from the
subgraph's input tensors to the caller's. An input of the subgraph made
by reference (pir.TensorByRef, or CallSiteInfo.set_parent_input_modified)
is passed by reference; the others by value."""

from ..graph import Graph
from ..tensor import Tensor, constant
from .utils import AI_GRAPHCORE, add_op, graph_of

__all__ = ["call", "call_with_info", "repeat", "repeat_with_info", "CallSiteInfo"]


class CallSiteInfo:
    """A call of a subgraph (the CallOp or LoopOp) and its tensors."""

    def __init__(self, graph, called_graph, op_id, inputs, outputs):
        self._graph = graph
        self._called = called_graph
        self._op_id = op_id
        self._inputs = tuple(inputs)
        self._outputs = tuple(outputs)

    @property
    def called_graph(self):
        return self._called

    @property
    def inputs(self):
        """The caller's tensors given to the subgraph's inputs, in order."""
        return self._inputs

    @property
    def outputs(self):
        return self._outputs

    def parent_input(self, idx):
        return self._inputs[idx]

    def parent_output(self, idx):
        return self._outputs[idx]

    def graph_to_parent(self, graph_tensor):
        """The caller's tensor given to input `graph_tensor` of the subgraph."""
        ids = [t.id for t in self._called.inputs]
        if graph_tensor.id not in ids:
            raise ValueError(f"'{graph_tensor.id}' is not an input of subgraph "
                             f"'{self._called.id}'")
        return self._inputs[ids.index(graph_tensor.id)]

    def set_parent_input_modified(self, parent_tensor):
        """Passes `parent_tensor` by reference: what the subgraph does to
        its input is done to it."""
        found = [i for i, t in enumerate(self._inputs) if t == parent_tensor]
        if not found:
            raise ValueError(f"'{parent_tensor.id}' is not an input of this call "
                             f"of '{self._called.id}'")
        for i in found:
            self._graph._pb().setCallInputModified(self._graph.id, self._op_id, i)


def _call_inputs(graph, inputs, inputs_dict, what):
    if not isinstance(graph, Graph) or graph._is_main():
        raise TypeError(f"{what}: the first argument must be a subgraph "
                        f"(ir.create_graph), not {graph!r}")
    graph_inputs = graph.inputs
    given = list(inputs)
    if len(given) > len(graph_inputs):
        raise ValueError(f"{what}: {len(given)} inputs given, but subgraph "
                         f"'{graph.id}' has {len(graph_inputs)}")
    by_position = {t.id: v for t, v in zip(graph_inputs, given)}
    for t, v in (inputs_dict or {}).items():
        if t.id in by_position:
            raise ValueError(f"{what}: input '{t.id}' of subgraph '{graph.id}' is "
                             "given twice")
        by_position[t.id] = v
    resolved = []
    for t in graph_inputs:
        if t.id not in by_position:
            raise ValueError(f"{what}: no value for input '{t.id}' of subgraph "
                             f"'{graph.id}'")
        value = by_position[t.id]
        # Python numbers are constants of the input's type.
        resolved.append(value if isinstance(value, Tensor)
                        else constant(value, t.dtype))
    return resolved


def _subgraph_call(op_type, graph, inputs, inputs_dict, attributes, what):
    resolved = _call_inputs(graph, inputs, inputs_dict, what)
    parent = graph_of(*resolved)
    n_out = len(graph.outputs)
    attributes = dict(attributes, callee=graph.id)
    op_id, outputs = add_op(op_type, resolved, attributes, num_outputs=n_out,
                            domain=AI_GRAPHCORE, name=f"{op_type.lower()}({graph.id})")
    info = CallSiteInfo(parent, graph, op_id, resolved, outputs)
    for i, t in enumerate(graph.inputs):
        if t.id in graph._by_ref_inputs:
            info.set_parent_input_modified(resolved[i])
    return info


def call_with_info(graph, *inputs, inputs_dict=None):
    """Calls the subgraph once; returns the CallSiteInfo of the call."""
    return _subgraph_call("Call", graph, inputs, inputs_dict, {}, "call")


def call(graph, *inputs, inputs_dict=None):
    """Calls the subgraph once with `inputs` (tensors, or Python numbers as
    constants); returns its outputs as a tuple."""
    return call_with_info(graph, *inputs, inputs_dict=inputs_dict).outputs


def repeat_with_info(graph, repeat_count, *inputs, inputs_dict=None):
    """Runs the subgraph repeat_count times; returns the CallSiteInfo."""
    repeat_count = int(repeat_count)
    if repeat_count < 0:
        raise ValueError(f"repeat: repeat_count must not be negative, not {repeat_count}")
    if len(graph.outputs) > len(graph.inputs):
        raise ValueError(f"repeat: subgraph '{graph.id}' has more outputs "
                         f"({len(graph.outputs)}) than inputs ({len(graph.inputs)})")
    return _subgraph_call("Loop", graph, inputs, inputs_dict,
                          {"tripCount": repeat_count}, "repeat")


def repeat(graph, repeat_count, *inputs, inputs_dict=None):
    """Runs the subgraph repeat_count times. With N outputs, the first N
    inputs are carried: each iteration's outputs are the next one's inputs;
    the others are the same in every iteration. Returns the last
    iteration's outputs as a tuple."""
    return repeat_with_info(graph, repeat_count, *inputs,
                            inputs_dict=inputs_dict).outputs
