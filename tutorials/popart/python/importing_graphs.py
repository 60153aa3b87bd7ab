# The PopART user guide's "Importing graphs": torchvision's AlexNet,
# exported to ONNX by PyTorch, imported into an inference session on the
# CPU device. Data loading aside: the weights are random (pretrained=False)
# because pretrained ones are downloaded from the internet.
import popart

import torch.onnx
import torchvision

input_ = torch.FloatTensor(torch.randn(4, 3, 224, 224))
model = torchvision.models.alexnet(pretrained=False)

output_name = "output"

torch.onnx.export(model, input_, "alexnet.onnx", output_names=[output_name])

# Create a runtime environment
anchors = {output_name: popart.AnchorReturnType("ALL")}
dataFeed = popart.DataFlow(100, anchors)
device = popart.DeviceManager().createCpuDevice()

session = popart.InferenceSession("alexnet.onnx", dataFeed, device)
