"""Ops that update a tensor in place: a variable, or an input of a
subgraph passed by reference."""

from .utils import AI_GRAPHCORE, as_tensor, one_output

__all__ = ["copy_var_update_"]


def copy_var_update_(t, X, name=None):
    """t takes the value of X, in place; returns t updated."""
    X = as_tensor(X, t)
    return one_output("CopyVarUpdate", [t, X], domain=AI_GRAPHCORE, name=name)
