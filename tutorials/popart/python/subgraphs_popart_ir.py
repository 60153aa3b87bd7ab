# Subgraphs in popart.ir: a graph made from a Python function, called
# twice (it is compiled once and called from both places), run four times
# by ops.repeat with its output carried to its input, and a graph whose
# input is passed by reference (pir.TensorByRef) updating a variable.
import numpy as np

import popart
import popart.ir as pir
import popart.ir.ops as ops


def scale_and_shift(x, scale, shift):
    return x * scale + shift


def accumulate(total: pir.TensorByRef, x):
    ops.var_updates.copy_var_update_(total, total + x)


ir = pir.Ir()
main = ir.main_graph()
with main:
    stream = pir.h2d_stream([2, 2], pir.float32, name="x_stream")
    x = ops.host_load(stream, "x")
    scale = pir.constant(np.full([2, 2], 2.0, np.float32), name="scale")
    shift = pir.constant(np.full([2, 2], 1.0, np.float32), name="shift")

    affine = ir.create_graph(scale_and_shift, x, scale, shift)
    y, = ops.call(affine, x, scale, shift)      # 2x + 1
    z, = ops.call(affine, y, scale, shift)      # 2(2x + 1) + 1

    def step(v):
        return v * 2.0
    doubling = ir.create_graph(step, x)
    r, = ops.repeat(doubling, 4, x)             # 16x

    total = pir.variable(np.zeros([2, 2], np.float32), name="total")
    add_to = ir.create_graph(accumulate, total, x)
    ops.call(add_to, total, z)                  # total += z, in place

    outputs = {}
    for name, t in (("z", z), ("r", r)):
        d2h = pir.d2h_stream(t.shape, t.dtype, name=name + "_stream")
        ops.host_store(d2h, t)
        outputs[name] = d2h.tensor_id

pb_ir = ir._pb_ir
pb_ir.setDataFlow(popart.DataFlow(1, {i: popart.AnchorReturnType("All")
                                      for i in outputs.values()}))
opts = pb_ir.getSessionOptions()
opts.useHostCopyOps = True
opts.enableExplicitMainLoops = True

session = popart.InferenceSession.fromIr(ir, popart.DeviceManager().createCpuDevice())
session.prepareDevice()
session.weightsFromHost()
anchors = session.initAnchorArrays()
data = np.array([[0.0, 1.0], [2.0, 3.0]], np.float32)
for _ in range(2):
    session.run(popart.PyStepIO({stream.tensor_id: data}, anchors))

session.weightsToHost()
total_value = np.empty([2, 2], np.float32)
session.readWeights(popart.PyWeightsIO({total.id: total_value}))

print(f"x is {data.tolist()}")
print(f"call twice: 2(2x + 1) + 1 = {anchors[outputs['z']].tolist()}")
print(f"repeat four times: 16x = {anchors[outputs['r']].tolist()}")
print(f"total after two runs: {total_value.tolist()}")
