# The PopART user guide's "Turning on execution tracing": the logging
# level set for each module from the program.
import popart

# Set all modules to DEBUG level
popart.getLogger().setLevel("DEBUG")
# Turn off logging for the session module
popart.getLogger("session").setLevel("OFF")

builder = popart.Builder()
i1 = builder.addInputTensor(popart.TensorInfo("FLOAT", [1]))
i2 = builder.addInputTensor(popart.TensorInfo("FLOAT", [1]))
o = builder.aiOnnx.add([i1, i2])
session = popart.InferenceSession(
    builder.getModelProto(),
    popart.DataFlow(1, {o: popart.AnchorReturnType("ALL")}),
    popart.DeviceManager().createCpuDevice())
