# The PopART user guide's "Retrieving profiling reports": profiling
# enabled in the Poplar engine, the summary, graph and execution reports
# of a session on the IPU Model. The model is the simple addition.
import json

import numpy as np
import popart

builder = popart.Builder()
shape = popart.TensorInfo("FLOAT", [1, 2, 32, 32])
i1 = builder.addInputTensor(shape)
i2 = builder.addInputTensor(shape)
o = builder.aiOnnx.add([i1, i2])
builder.addOutputTensor(o)

opts = popart.SessionOptions()
opts.engineOptions = {"debug.instrument": "true"}

opts.reportOptions = {"showExecutionSteps": "true"}

session = popart.InferenceSession(
    fnModel=builder.getModelProto(),
    dataFlow=popart.DataFlow(1, {o: popart.AnchorReturnType("ALL")}),
    deviceInfo=popart.DeviceManager().createIpuModelDevice({"tilesPerIPU": 16}),
    userOptions=opts)
session.prepareDevice()
anchors = session.initAnchorArrays()
data = np.ones([1, 2, 32, 32], np.float32)
session.run(popart.PyStepIO({i1: data, i2: data}, anchors))

graph = json.loads(session.getGraphReport())
execution = json.loads(session.getExecutionReport(resetProfile=False))
print(session.getSummaryReport())
print("Graph report: {} tiles, execution report: {} cycles".format(
    graph["target"]["numTiles"], execution["simulation"]["cycles"]))
