"""matmul, softmax and the reductions."""

from .utils import one_output

__all__ = ["matmul", "softmax", "sum", "mean"]


def matmul(lhs, rhs, name=None):
    """The matrix product, as numpy's matmul (broadcast batch dimensions)."""
    return one_output("MatMul", [lhs, rhs], version=9, name=name)


def softmax(t, axis, name=None):
    """The softmax of t along `axis`."""
    return one_output("Softmax", [t], {"axis": int(axis)}, version=13, name=name)


def _reduce(op_type, t, axis, keepdims, name):
    attributes = {"keepdims": 1 if keepdims else 0}
    if axis is not None:
        attributes["axes"] = [int(a) for a in (axis if hasattr(axis, "__len__") else [axis])]
    return one_output(op_type, [t], attributes, version=1, name=name)


def sum(t, axis=None, keepdims=False, name=None):
    """The sum over `axis` (an int or a list; all dimensions by default)."""
    return _reduce("ReduceSum", t, axis, keepdims, name)


def mean(t, axis=None, keepdims=False, name=None):
    """The mean over `axis` (an int or a list; all dimensions by default)."""
    return _reduce("ReduceMean", t, axis, keepdims, name)
