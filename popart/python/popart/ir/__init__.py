"""popart.ir: PopART IRs built directly from Python, graph by graph, as an
alternative to the ONNX builder (experimental, as in the original).

    import popart.ir as pir
    import popart.ir.ops as ops

    ir = pir.Ir()
    with ir.main_graph():
        a = pir.variable(3, dtype=pir.int8, name="variable_a")
        o = a + 1

The IR is the C++ library's (`ir._pb_ir`); popart.InferenceSession.fromIr
runs it.
"""

from . import ops  # noqa: F401
from .context import get_current_graph, get_main_graph, in_sequence, name_scope, virtual_graph  # noqa: F401
from .dtypes import (bool, double, dtype, float, float16, float32, float64, half,  # noqa: F401,A004
                     int8, int16, int32, int64, uint8, uint16, uint32, uint64)
from .graph import Graph  # noqa: F401
from .ir import Ir  # noqa: F401
from .streams import DeviceToHostStream, HostToDeviceStream, d2h_stream, h2d_stream  # noqa: F401
from .tensor import (Constant, Tensor, TensorByRef, Variable, constant, graph_input,  # noqa: F401
                     graph_output, variable)
