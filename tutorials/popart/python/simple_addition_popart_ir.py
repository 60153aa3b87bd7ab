# The popart.ir user guide's simple example: two inputs loaded from the
# host, added, and the sum stored back to the host; then run in a session
# on the CPU device.
import numpy as np

import popart
import popart.ir as pir
import popart.ir.ops as ops

# Creating a model with popart.ir
ir = pir.Ir()
main = ir.main_graph()
with main:
    # host load
    input0 = pir.h2d_stream([1], pir.float32, name="input0_stream")
    a = ops.host_load(input0, "a")
    input1 = pir.h2d_stream([1], pir.float32, name="input1_stream")
    b = ops.host_load(input1, "b")
    # addition
    o = ops.add(a, b)
    # host store
    o_d2h = pir.d2h_stream(o.shape, o.dtype, name="output_stream")
    ops.host_store(o_d2h, o)

# The IR's streams are the session's inputs and anchors.
pb_ir = ir._pb_ir
pb_ir.setDataFlow(popart.DataFlow(1, {o_d2h.tensor_id: popart.AnchorReturnType("All")}))
opts = pb_ir.getSessionOptions()
opts.useHostCopyOps = True
opts.enableExplicitMainLoops = True
pb_ir.updateVertices()

session = popart.InferenceSession.fromIr(ir=pb_ir,
                                         deviceInfo=popart.DeviceManager().createCpuDevice())
session.prepareDevice()
anchors = session.initAnchorArrays()

data_a = np.random.rand(1).astype(np.float32)
data_b = np.random.rand(1).astype(np.float32)
session.run(popart.PyStepIO({input0.tensor_id: data_a, input1.tensor_id: data_b}, anchors))

print(f"Input a is {data_a}")
print(f"Input b is {data_b}")
print(f"Result is {anchors[o_d2h.tensor_id]}")
