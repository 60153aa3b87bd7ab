"""The ops of popart.ir. Each makes an op of the C++ IR in the current
graph and returns its output tensor(s)."""

from . import var_updates  # noqa: F401
from .call import CallSiteInfo, call, call_with_info, repeat, repeat_with_info  # noqa: F401
from .elementwise import add, cast, div, gelu, identity, mul, negate, relu, sub  # noqa: F401
from .host import host_load, host_store  # noqa: F401
from .random import dropout  # noqa: F401
from .reduce import matmul, mean, softmax, sum  # noqa: F401,A004
from .shape import concat, gather, reshape, slice, split, transpose  # noqa: F401,A004
