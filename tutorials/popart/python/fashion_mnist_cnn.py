# A convolutional network trained on Fashion-MNIST by a TrainingSession,
# from Python: the twin of tutorials/popart/fashion_mnist/fashion_mnist_cnn.cpp.
#
# The same network (two blocks of convolution, batch normalisation, ReLU and
# 2x2 max pooling, then a fully connected layer and a softmax, trained
# through an NLL loss with SGD and momentum), the same initial weights and
# the same order of the images in each epoch, so that it prints the same
# losses and accuracies as the C++ program: the random numbers are those of
# the C++ standard library as GCC's libstdc++ makes them (std::mt19937,
# std::normal_distribution<float>, std::shuffle), reproduced below.
#
#   python3 fashion_mnist_cnn.py /usr/share/datasets/fashion-mnist [epochs
#       [training images [test images [ipu-model|cpu]]]]
import ctypes
import gzip
import sys

import numpy as np

import popart

IMAGE_SIDE, CLASSES = 28, 10
TRAIN_BATCH, TRAIN_BATCHES_PER_STEP = 32, 50
TEST_BATCH, TEST_BATCHES_PER_STEP = 100, 10


# ---------------------------------------------------------------------------
# The C++ program's random numbers.

class MT19937:
    """std::mt19937: the 32-bit Mersenne Twister, seeded as the standard
    says."""

    def __init__(self, seed):
        mt = [seed & 0xFFFFFFFF]
        for i in range(1, 624):
            mt.append((1812433253 * (mt[-1] ^ (mt[-1] >> 30)) + i) & 0xFFFFFFFF)
        self._mt = np.array(mt, np.uint64)
        self._out = []

    def _twist(self):
        mt = self._mt
        for i in range(624):
            y = (int(mt[i]) & 0x80000000) | (int(mt[(i + 1) % 624]) & 0x7FFFFFFF)
            value = int(mt[(i + 397) % 624]) ^ (y >> 1)
            if y & 1:
                value ^= 0x9908B0DF
            mt[i] = value
        y = mt.copy()
        y ^= y >> np.uint64(11)
        y ^= (y << np.uint64(7)) & np.uint64(0x9D2C5680)
        y ^= (y << np.uint64(15)) & np.uint64(0xEFC60000)
        y ^= y >> np.uint64(18)
        self._out = [int(v) & 0xFFFFFFFF for v in y[::-1]]

    def __call__(self):
        if not self._out:
            self._twist()
        return self._out.pop()


_libm = ctypes.CDLL("libm.so.6")
_libm.logf.restype = ctypes.c_float
_libm.logf.argtypes = [ctypes.c_float]
f32 = np.float32


def canonical_float(rng):
    """std::generate_canonical<float, 24>: one 32-bit draw / 2^32."""
    value = f32(rng()) / f32(2.0 ** 32)
    return value if value < f32(1) else np.nextafter(f32(1), f32(0))


def normal_floats(rng, count, stddev):
    """count draws of a fresh std::normal_distribution<float>(0, stddev):
    Marsaglia's polar method in float, the second of each pair first."""
    out, saved = [], None
    for _ in range(count):
        if saved is not None:
            value, saved = saved, None
        else:
            while True:
                x = f32(f32(2) * canonical_float(rng) - f32(1))
                y = f32(f32(2) * canonical_float(rng) - f32(1))
                r2 = f32(x * x + y * y)
                if 0 < r2 <= 1:
                    break
            mult = np.sqrt(f32(f32(-2) * f32(_libm.logf(r2))) / r2)
            saved, value = f32(x * mult), f32(y * mult)
        out.append(f32(value * stddev + f32(0)))
    return np.array(out, np.float32)


def uniform_below(rng, n):
    """std::uniform_int_distribution over [0, n) from std::mt19937:
    Lemire's multiplication, rejecting the biased low products."""
    product = rng() * n
    low = product & 0xFFFFFFFF
    if low < n:
        threshold = (2 ** 32 - n) % n
        while low < threshold:
            product = rng() * n
            low = product & 0xFFFFFFFF
    return product >> 32


def shuffle(order, rng):
    """std::shuffle: for ranges whose square fits the generator's range,
    two positions from each draw."""
    n = len(order)
    if n == 0:
        return
    if (2 ** 32 - 1) // n < n:
        for i in range(1, n):
            j = uniform_below(rng, i + 1)
            order[i], order[j] = order[j], order[i]
        return
    i = 1
    if n % 2 == 0:
        j = uniform_below(rng, 2)
        order[i], order[j] = order[j], order[i]
        i += 1
    while i != n:
        b0 = i + 1
        x = uniform_below(rng, b0 * (b0 + 1))
        first, second = x // (b0 + 1), x % (b0 + 1)
        order[i], order[first] = order[first], order[i]
        order[i + 1], order[second] = order[second], order[i + 1]
        i += 2


# ---------------------------------------------------------------------------
# The data: IDX files of unsigned bytes, gzip-compressed as Debian ships them.

def read_idx(path, rank):
    with gzip.open(path, "rb") as f:
        data = f.read()
    magic = int.from_bytes(data[0:4], "big")
    if magic != 0x800 | rank:
        raise RuntimeError(f"{path} is not an IDX file of bytes with {rank} dimensions")
    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(rank)]
    header = 4 + 4 * rank
    return np.frombuffer(data, np.uint8, int(np.prod(dims)), header).reshape(dims)


def read_data_set(directory, prefix, limit):
    images = read_idx(f"{directory}/{prefix}-images-idx3-ubyte.gz", 3)
    labels = read_idx(f"{directory}/{prefix}-labels-idx1-ubyte.gz", 1)
    n = min(len(labels), limit)
    pixels = images[:n].astype(np.float32) / np.float32(255)
    return pixels.reshape(n, 1, IMAGE_SIDE, IMAGE_SIDE), labels[:n].astype(np.int32)


# ---------------------------------------------------------------------------
# The network, built twice from the same initial weights: for training,
# batch normalisation has its five outputs; for inference, one.

class NetworkBuilder:
    def __init__(self, training, batch):
        self.builder = popart.Builder(opsets={"ai.onnx": 9, "ai.graphcore": 1})
        self.onnx = self.builder.aiOnnx
        self.training = training
        self.random = MT19937(2024)
        self.images = self.builder.addInputTensor(
            popart.TensorInfo("FLOAT", [batch, 1, IMAGE_SIDE, IMAGE_SIDE]), "images")
        if training:
            self.labels = self.builder.addInputTensor(
                popart.TensorInfo("INT32", [batch]), "labels")

    def build(self):
        x = self.block(self.images, 1, 16, "block1")
        x = self.block(x, 16, 32, "block2")
        features = 32 * (IMAGE_SIDE // 4) * (IMAGE_SIDE // 4)
        x = self.onnx.flatten([x], 1)
        w = self.weight([features, CLASSES], features, "fc/weights")
        b = self.constant_weight([CLASSES], 0.0, "fc/bias")
        x = self.onnx.gemm([x, w, b])
        self.probs = self.onnx.softmax([x], 1, "probs")
        if self.training:
            self.loss = self.builder.aiGraphcore.nllloss(
                [self.probs, self.labels], reduction=popart.ReductionType.Mean)
        self.proto = self.builder.getModelProto()
        return self

    def block(self, x, in_channels, out_channels, name):
        """Convolution (3x3, padded), batch normalisation, ReLU, 2x2 max
        pooling."""
        w = self.weight([out_channels, in_channels, 3, 3], in_channels * 9,
                        name + "/conv/weights")
        x = self.onnx.conv([x, w], dilations=[1, 1], group=1, kernel_shape=[3, 3],
                           pads=[1, 1, 1, 1], strides=[1, 1])
        norm = [self.constant_weight([out_channels], value, f"{name}/bn/{what}")
                for what, value in (("scale", 1.0), ("bias", 0.0), ("mean", 0.0),
                                    ("var", 1.0))]
        x = self.onnx.batchnormalization([x] + norm, 5 if self.training else 1)[0]
        x = self.onnx.relu([x])
        return self.onnx.maxpool([x], 1, [2, 2], pads=[0, 0, 0, 0], strides=[2, 2])[0]

    def weight(self, shape, fan_in, name):
        """He initialisation, from the builder's generator."""
        stddev = np.sqrt(f32(2.0) / f32(fan_in))
        values = normal_floats(self.random, int(np.prod(shape)), stddev)
        return self.builder.addInitializedInputTensor(values.reshape(shape), name)

    def constant_weight(self, shape, value, name):
        return self.builder.addInitializedInputTensor(
            np.full(shape, value, np.float32), name)


# ---------------------------------------------------------------------------
# Training and testing.

def train_epoch(session, net, images, labels, random):
    """One pass over the training images in a new random order; returns the
    mean loss."""
    per_step = TRAIN_BATCH * TRAIN_BATCHES_PER_STEP
    steps = len(labels) // per_step
    if steps == 0:
        raise RuntimeError(f"fewer training images than one step's {per_step}")
    order = list(range(len(labels)))
    shuffle(order, random)
    anchors = session.initAnchorArrays()
    total = 0.0
    for step in range(steps):
        chosen = order[step * per_step:(step + 1) * per_step]
        stepio = popart.PyStepIO({net.images: images[chosen], net.labels: labels[chosen]},
                                 anchors)
        session.run(stepio)
        for loss in anchors[net.loss]:  # in order, in double, as the C++ sums
            total += float(loss)
    return f32(total / (steps * TRAIN_BATCHES_PER_STEP))


def test_accuracy(session, net, images, labels):
    """The percentage of test images whose most probable class is their
    label."""
    per_step = TEST_BATCH * TEST_BATCHES_PER_STEP
    steps = len(labels) // per_step
    if steps == 0:
        raise RuntimeError(f"fewer test images than one step's {per_step}")
    anchors = session.initAnchorArrays()
    correct = 0
    for step in range(steps):
        part = slice(step * per_step, (step + 1) * per_step)
        session.run(popart.PyStepIO({net.images: images[part]}, anchors))
        predicted = anchors[net.probs].reshape(per_step, CLASSES).argmax(axis=1)
        correct += int(np.sum(predicted == labels[part]))
    return f32(100) * f32(correct) / f32(steps * per_step)


def copy_weights(source, target, ids):
    """Every weight of the training session (the running statistics of
    batch normalisation included) into the inference session."""
    source.weightsToHost()
    weights = popart.PyWeightsIO({i: np.empty(source.getInfo(i).shape(), np.float32)
                                  for i in ids})
    source.readWeights(weights)
    target.writeWeights(weights)
    target.weightsFromHost()


def create_device(name):
    manager = popart.DeviceManager()
    if name == "cpu":
        return manager.createCpuDevice()
    if name == "ipu-model":
        return manager.createIpuModelDevice({"numIPUs": 1})
    raise RuntimeError(f"unknown device '{name}' (ipu-model or cpu)")


def main(argv):
    if len(argv) < 2:
        print(f"usage: {argv[0]} <data directory> [epochs [training images [test "
              "images [ipu-model|cpu]]]]", file=sys.stderr)
        return 1
    directory = argv[1]
    epochs = int(argv[2]) if len(argv) > 2 else 2
    train_images, train_labels = read_data_set(
        directory, "train", int(argv[3]) if len(argv) > 3 else 60000)
    test_images, test_labels = read_data_set(
        directory, "t10k", int(argv[4]) if len(argv) > 4 else 10000)
    device_name = argv[5] if len(argv) > 5 else "ipu-model"
    print(f"Fashion-MNIST: {len(train_labels)} training images, "
          f"{len(test_labels)} test images")

    train_net = NetworkBuilder(True, TRAIN_BATCH).build()
    test_net = NetworkBuilder(False, TEST_BATCH).build()

    optimizer = popart.SGD({"defaultLearningRate": (0.02, True),
                            "defaultMomentum": (0.9, True),
                            "defaultWeightDecay": (1e-4, True)})
    training = popart.TrainingSession(
        fnModel=train_net.proto,
        dataFlow=popart.DataFlow(TRAIN_BATCHES_PER_STEP,
                                 {train_net.loss: popart.AnchorReturnType("ALL")}),
        loss=train_net.loss, optimizer=optimizer,
        deviceInfo=create_device(device_name))
    training.prepareDevice()
    training.weightsFromHost()

    # The inference session holds the model's initializers as weights (not
    # constants) so that the trained ones can be written into it.
    test_options = popart.SessionOptions()
    test_options.constantWeights = False
    inference = popart.InferenceSession(
        fnModel=test_net.proto,
        dataFlow=popart.DataFlow(TEST_BATCHES_PER_STEP,
                                 {test_net.probs: popart.AnchorReturnType("ALL")}),
        deviceInfo=create_device(device_name), userOptions=test_options)
    inference.prepareDevice()

    weights = [f"{block}/{part}" for block in ("block1", "block2")
               for part in ("conv/weights", "bn/scale", "bn/bias", "bn/mean", "bn/var")]
    weights += ["fc/weights", "fc/bias"]
    random = MT19937(7)
    accuracy = 0.0
    for epoch in range(1, epochs + 1):
        loss = train_epoch(training, train_net, train_images, train_labels, random)
        copy_weights(training, inference, weights)
        accuracy = test_accuracy(inference, test_net, test_images, test_labels)
        print(f"Epoch {epoch}: mean loss {loss:.4f}, test accuracy {accuracy:.2f} %")
    print(f"Test accuracy: {accuracy:.2f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
