# The popart.ir user guide's three kinds of tensors: a variable, a
# constant, and the intermediate their sum is; `a + 1` would make the
# constant from the Python literal. Run in a session on the CPU device.
import popart
import popart.ir as pir
import popart.ir.ops as ops

ir = pir.Ir()
main = ir.main_graph()
with main:
    a = pir.variable(3, dtype=pir.int8, name="variable_a")
    b = pir.constant(1, dtype=pir.int8, name="constant_b")

    # addition
    o = a + b

    # host store
    o_d2h = pir.d2h_stream(o.shape, o.dtype, name="output_stream")
    ops.host_store(o_d2h, o)

pb_ir = ir._pb_ir
pb_ir.setDataFlow(popart.DataFlow(1, {o_d2h.tensor_id: popart.AnchorReturnType("All")}))
opts = pb_ir.getSessionOptions()
opts.useHostCopyOps = True
opts.enableExplicitMainLoops = True

session = popart.InferenceSession.fromIr(ir=pb_ir,
                                         deviceInfo=popart.DeviceManager().createCpuDevice())
session.prepareDevice()
# Variables start as their data once it is on the device.
session.weightsFromHost()
anchors = session.initAnchorArrays()
session.run(popart.PyStepIO({}, anchors))

print(f"Result is {anchors[o_d2h.tensor_id]}")
