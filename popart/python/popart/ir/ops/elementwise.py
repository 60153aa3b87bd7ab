"""Element-wise ops (numpy broadcasting for the binary ones)."""

from .utils import AI_GRAPHCORE, as_tensor, one_output

__all__ = ["add", "sub", "mul", "div", "negate", "relu", "gelu", "identity", "cast"]


def _binary(op_type, lhs, rhs, name):
    if not hasattr(lhs, "id"):
        lhs = as_tensor(lhs, rhs if hasattr(rhs, "id") else None)
    rhs = as_tensor(rhs, lhs)
    return one_output(op_type, [lhs, rhs], version=7, name=name)


def add(lhs, rhs, name=None):
    """lhs + rhs."""
    return _binary("Add", lhs, rhs, name)


def sub(lhs, rhs, name=None):
    """lhs - rhs."""
    return _binary("Sub", lhs, rhs, name)


def mul(lhs, rhs, name=None):
    """lhs * rhs."""
    return _binary("Mul", lhs, rhs, name)


def div(lhs, rhs, name=None):
    """lhs / rhs (integer division truncates)."""
    return _binary("Div", lhs, rhs, name)


def negate(t, name=None):
    """-t."""
    return one_output("Neg", [t], version=6, name=name)


def relu(t, name=None):
    """max(t, 0)."""
    return one_output("Relu", [t], version=6, name=name)


def gelu(t, name=None):
    """Gelu, with the tanh approximation."""
    return one_output("Gelu", [t], domain=AI_GRAPHCORE, name=name)


def identity(t, name=None):
    """A copy of t."""
    return one_output("Identity", [t], version=1, name=name)


def cast(t, data_type, name=None):
    """t converted to `data_type`."""
    from .. import dtypes
    data_type = dtypes.dtype.as_dtype(data_type)
    return one_output("Cast", [t], {"to": data_type._onnx_type}, version=9, name=name)
