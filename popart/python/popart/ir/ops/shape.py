"""Ops that rearrange tensors: reshape, transpose, slice, split, concat,
gather."""

import numpy as np

from ..tensor import constant
from .utils import AI_GRAPHCORE, add_op, one_output

__all__ = ["reshape", "transpose", "slice", "split", "concat", "gather"]


def reshape(t, shape, name=None):
    """t with shape `shape` (one dimension may be -1)."""
    shape = [int(d) for d in shape]
    return one_output("Reshape", [t], {"shape": shape}, domain=AI_GRAPHCORE, name=name)


def transpose(t, permutation=None, name=None):
    """t with its dimensions permuted (reversed by default)."""
    if permutation is None:
        permutation = list(reversed(range(t.rank)))
    return one_output("Transpose", [t], {"perm": [int(p) for p in permutation]},
                      version=1, name=name)


def _listed(value, what, n=None):
    if value is None:
        return None
    values = [int(v) for v in (value if np.ndim(value) else [value])]
    if n is not None and len(values) != n:
        raise ValueError(f"slice: {what} has {len(values)} values, not {n}")
    return values


def slice(t, start=None, stop=None, step=None, axis=None, name=None):
    """t[start:stop:step] along each axis (numpy's rules for negative and
    out-of-range bounds). start, stop, step and axis are ints or lists."""
    lists = [_listed(v, w) for v, w in ((start, "start"), (stop, "stop"),
                                        (step, "step"), (axis, "axis"))]
    n = max(len(v) for v in lists if v is not None) if any(v is not None for v in lists) else 0
    if n == 0:
        raise ValueError("slice: give at least one of start, stop, step and axis")
    start, stop, step, axis = lists
    axis = axis if axis is not None else list(range(n))
    step = step if step is not None else [1] * n
    if start is None:
        start = [0 if s > 0 else np.iinfo(np.int64).max for s in step]
    if stop is None:
        stop = [np.iinfo(np.int64).max if s > 0 else np.iinfo(np.int64).min for s in step]
    for values, what in ((start, "start"), (stop, "stop"), (step, "step"), (axis, "axis")):
        if len(values) != n:
            raise ValueError(f"slice: {what} has {len(values)} values, not {n}")
    data = [constant(np.array(v, np.int64), name=f"slice_{w}")
            for v, w in ((start, "starts"), (stop, "ends"), (axis, "axes"),
                         (step, "steps"))]
    return one_output("Slice", [t] + data, version=11, name=name)


def split(t, splits, axis=0, name=None):
    """t split along `axis` into `splits` equal parts (an int) or parts of
    the sizes listed."""
    axis = int(axis)
    if isinstance(splits, (int, np.integer)):
        size = t.shape[axis]
        if int(splits) <= 0 or size % int(splits) != 0:
            raise ValueError(f"split: dimension {axis} of '{t.id}' ({size}) does "
                             f"not split into {splits} equal parts")
        splits = [size // int(splits)] * int(splits)
    splits = [int(s) for s in splits]
    _, outputs = add_op("Split", [t], {"axis": axis, "split": splits},
                        num_outputs=len(splits), version=2, name=name)
    return outputs


def concat(ts, axis=0, name=None):
    """The tensors joined along `axis`."""
    return one_output("Concat", list(ts), {"axis": int(axis)}, version=4, name=name)


def gather(t, indices, axis=0, name=None):
    """The slices of t along `axis` at `indices` (negative ones count from
    the end)."""
    if not hasattr(indices, "id"):
        indices = constant(np.asarray(indices, np.int32), name="indices")
    return one_output("Gather", [t, indices], {"axis": int(axis)}, version=11,
                      name=name)
