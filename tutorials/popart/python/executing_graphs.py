# The PopART user guide's "Executing graphs": data buffers and a PyStepIO,
# the DataFlow and its anchors, selecting a device and running a session.
# The first lines make the model the guide's lines run: inputs named a and
# b added, saved as onnx.pb.
import numpy as np
import popart

builder = popart.Builder()
a = builder.addInputTensor(popart.TensorInfo("FLOAT", [1]), "a")
b = builder.addInputTensor(popart.TensorInfo("FLOAT", [1]), "b")
o = builder.aiOnnx.add([a, b])
builder.addOutputTensor(o)
builder.saveModelProto("onnx.pb")

df = popart.DataFlow(1, {o: popart.AnchorReturnType("ALL")})
device = popart.DeviceManager().createCpuDevice()
s = popart.InferenceSession("onnx.pb", deviceInfo=device, dataFeed=df)

session = s
session.prepareDevice()

# Create buffers to receive results from the execution
anchors = session.initAnchorArrays()

# Generate some random input data
data_a = np.random.rand(1).astype(np.float32)
data_b = np.random.rand(1).astype(np.float32)

stepio = popart.PyStepIO({'a': data_a, 'b': data_b}, anchors)

session.run(stepio)
print("a + b: " + str(data_a) + " + " + str(data_b) + " = " + str(anchors[o]))

# This machine has no IPU hardware: acquiring one raises an exception.
try:
    # Acquire a two-IPU pair
    dev = popart.DeviceManager().acquireAvailableDevice(2)
except popart.popart_exception as e:
    print(e)

try:
    # Acquire IPU configuration 5
    dev = popart.DeviceManager().acquireDeviceById(5)
except popart.popart_exception as e:
    print(e)
