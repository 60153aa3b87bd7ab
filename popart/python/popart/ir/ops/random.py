"""Ops drawing random numbers from the session's seed
(session.setRandomSeed)."""

import numpy as np

from ..tensor import constant
from .utils import one_output

__all__ = ["dropout"]


def dropout(t, seed_tensor=None, p=0.5, name=None):
    """Each element of t kept with probability 1 - p and scaled by
    1 / (1 - p), the others zero; every run draws new numbers from the
    session's random seed. (Seed tensors are not taken: the session's seed
    drives every random op here.)"""
    if seed_tensor is not None:
        raise ValueError("dropout: seed_tensor is not supported; the session's "
                         "random seed (session.setRandomSeed) drives dropout")
    if not 0.0 <= p < 1.0:
        raise ValueError(f"dropout: p must be in [0, 1), not {p}")
    ratio = constant(np.array(p, np.float32), name="ratio")
    training = constant(np.array(True), name="training_mode")
    return one_output("Dropout", [t, ratio, training], version=13, name=name)
