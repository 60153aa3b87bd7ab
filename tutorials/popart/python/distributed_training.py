# The PopART user guide's distributed training example, with Horovod:
#   mpirun -np 2 python3 distributed_training.py
# (or horovodrun -np 2 -H localhost:2 where Horovod is installed). With
# hostAllReduce each weight's gradient comes to the host, where Horovod's
# DistributedOptimizer averages it over the processes, and
# broadcast_weights starts every process from rank 0's weights, so all
# keep the same weights while each trains on its own data. Where Horovod
# is not installed, horovod.popart is this SDK's, over popart's MPI layer.
# A linear layer and softmax trained with an NllLoss object and SGD on the
# IPU Model, ten steps of 32 batches of synthetic data; each process
# prints the mean loss of each step and, at the end, its weights' sum.
import numpy as np
import os
from collections import namedtuple

# import the PopART Horovod extension
import horovod.popart as hvd
import popart

Session = namedtuple('Session', ['session', 'anchors'])
batch_size = 1
IN_SHAPE = 784
OUT_SHAPE = 10


def create_model():
    builder = popart.Builder()
    dtype = np.float32

    input_shape = popart.TensorInfo(dtype, [batch_size, IN_SHAPE])
    x = builder.addInputTensor(input_shape)
    init_weights = np.random.normal(0, 1, [IN_SHAPE, OUT_SHAPE]).astype(dtype)
    w = builder.addInitializedInputTensor(init_weights)
    init_biases = np.random.normal(0, 1, [OUT_SHAPE]).astype(dtype)
    b = builder.addInitializedInputTensor(init_biases)
    h = builder.aiOnnx.matmul([x, w])
    a = builder.aiOnnx.add([h, b])

    output = a
    probs = builder.aiOnnx.softmax([output])

    label_shape = popart.TensorInfo("INT32", [batch_size])
    label = builder.addInputTensor(label_shape)

    loss = popart.NllLoss(probs, label, "nllLossVal")

    proto = builder.getModelProto()

    return builder, proto, x, label, output, loss


def get_device(simulation=True):
    num_ipus = 1
    deviceManager = popart.DeviceManager()
    if simulation:
        print("Creating ipu sim")
        ipu_options = {
            "compileIPUCode": True,
            'numIPUs': num_ipus,
            "tilesPerIPU": 1216
        }
        device = deviceManager.createIpuModelDevice(ipu_options)
        if device is None:
            raise OSError("Failed to acquire IPU.")
    else:
        print("Aquiring IPU")
        device = deviceManager.acquireAvailableDevice(num_ipus)
        if device is None:
            raise OSError("Failed to acquire IPU.")
        else:
            print("Acquired IPU: {}".format(device))

    return device


def init_session(proto, loss, dataFlow, userOpts, device):
    # Create a session to compile and execute the graph
    optimizer = popart.SGD({"defaultLearningRate": (0.1, False)})
    session = popart.TrainingSession(fnModel=proto,
                                     losses=[loss],
                                     deviceInfo=device,
                                     optimizer=optimizer,
                                     dataFlow=dataFlow,
                                     userOptions=userOpts)

    session.prepareDevice()
    session.setRandomSeed(42)

    # Create buffers to receive results from the execution
    anchors = session.initAnchorArrays()

    return Session(session, anchors), optimizer


def train():
    builder, proto, data_in, labels_in, output, loss, = create_model()

    batches_per_step = 32
    anchor_desc = {
        output: popart.AnchorReturnType("ALL"),
        loss.output(0): popart.AnchorReturnType("ALL")
    }
    dataFlow = popart.DataFlow(batches_per_step, anchor_desc)

    userOpts = popart.SessionOptions()
    device = get_device()

    # Enable host side AllReduce operations in the graph
    userOpts.hostAllReduce = True
    training, optimizer = init_session(proto, loss, dataFlow, userOpts, device)
    if userOpts.hostAllReduce:
        hvd.init()

        distributed_optimizer = hvd.DistributedOptimizer(
            optimizer, training.session, userOpts)

        # Broadcast weights to all the other processes
        hvd.broadcast_weights(training.session, root_rank=0)

    training.session.weightsFromHost()

    # Synthetic data
    data = np.random.normal(size=(batches_per_step, batch_size, 784)).astype(
        np.float32)
    labels = np.zeros((batches_per_step, batch_size, 1)).astype(np.int32)

    num_training_steps = 10

    for step in range(num_training_steps):
        stepio = popart.PyStepIO({
            data_in: data,
            labels_in: labels
        }, training.anchors)
        training.session.run(stepio)
        print(f"Rank {hvd.rank()} step {step}: mean loss "
              f"{np.mean(training.anchors[loss.output(0)]):.6f}")

    training.session.weightsToHost()
    weights = {w: np.empty(training.session.getInfo(w).shape(), np.float32)
               for w in builder.getInputTensorIds()
               if builder.isInitializer(w)}
    training.session.readWeights(popart.PyWeightsIO(weights))
    print(f"Rank {hvd.rank()} weights: " +
          " ".join(f"{w} {weights[w].sum():.9g}" for w in sorted(weights)))


if __name__ == '__main__':
    train()
