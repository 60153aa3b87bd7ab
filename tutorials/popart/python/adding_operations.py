# The PopART user guide's "Adding operations to the graph", "Adding
# parameters to the graph" and "Setting outputs". The guide's lines use
# tensors named input and indices: the first lines add them.
import numpy as np
import popart

builder = popart.Builder()
input = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 4]), "input")
builder.addInputTensor(popart.TensorInfo("INT32", [3]), "indices")

output = builder.aiOnnx.relu([input], "debug-name")

output = builder.aiOnnx.gather(['input', 'indices'], axis=1, debugPrefix="My-Gather")

w_data = np.random.rand(64, 4, 3, 3).astype(np.float16)
w1 = builder.addInitializedInputTensor(w_data)

builder.addOutputTensor(output)
