"""Training from Python: an MLP trained with each optimiser follows
PyTorch step by step (the cases and data of the C++ TorchTrajectoryTest,
so that both loops train the same model on the same data), optimiser
dicts and their defaults and errors, updateOptimizerFromHost, weights IO,
loss objects and the builder's losses, gradient accumulation's anchors,
the recomputation annotations."""

import importlib.util
import json
import pathlib

import numpy as np
import onnx
from onnx import numpy_helper
import pytest

import popart

TRAINING = pathlib.Path(__file__).resolve().parents[2] / "tests" / "training"


def torch_trajectories():
    spec = importlib.util.spec_from_file_location(
        "torch_trajectories", TRAINING / "torch_trajectories.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cases():
    with open(TRAINING / "cases.json") as f:
        return json.load(f)["cases"]


def value(o, key, default):
    return (float(o.get(key, default)), bool(o.get("const", True)))


def make_optimizer(o):
    clip = [popart.ClipNormSettings.clipAllWeights(o["clip"])] if "clip" in o else []
    wd_mode = (popart.WeightDecayMode.Decay if o.get("wdmode", "Decay") == "Decay"
               else popart.WeightDecayMode.L2Regularization)
    if o["type"] == "sgd":
        return popart.SGD({
            "defaultLearningRate": value(o, "lr", 0.1),
            "defaultWeightDecay": value(o, "wd", 0.0),
            "defaultMomentum": value(o, "momentum", 0.0),
            "defaultDampening": value(o, "dampening", 0.0),
            "defaultVelocityScaling": value(o, "vs", 1.0),
            "lossScaling": value(o, "ls", 1.0),
            "nesterov": (1.0 if o.get("nesterov") else 0.0, True),
        }, clip_norm_settings=clip,
            accumulatorAndMomentum=(popart.SGDAccumulatorAndMomentum.Separate
                                    if o.get("separate") else
                                    popart.SGDAccumulatorAndMomentum.Combined))
    if o["type"] == "adam":
        return popart.Adam({
            "defaultLearningRate": value(o, "lr", 0.1),
            "defaultWeightDecay": value(o, "wd", 0.0),
            "defaultBeta1": value(o, "b1", 0.9),
            "defaultBeta2": value(o, "b2", 0.999),
            "defaultEps": value(o, "eps", 1e-6),
            "defaultMaxWeightNorm": value(o, "mwn", 10.0),
            "lossScaling": value(o, "ls", 1.0),
        }, mode=getattr(popart.AdamMode, o["mode"]), weight_decay_mode=wd_mode,
            accum_type=popart.DataType.FLOAT, clip_norm_settings=clip)
    assert not clip
    return popart.Adaptive({
        "defaultLearningRate": value(o, "lr", 0.01),
        "defaultWeightDecay": value(o, "wd", 0.0),
        "defaultAlpha": value(o, "alpha", 0.99),
        "defaultMomentum": value(o, "momentum", 0.0),
        "defaultEps": value(o, "eps", 1e-6),
        "lossScaling": value(o, "ls", 1.0),
    }, mode=getattr(popart.AdaptiveMode, o["mode"]), weight_decay_mode=wd_mode,
        accum_type=popart.DataType.FLOAT, accl3_type=popart.DataType.FLOAT,
        rmsprop_tf_variant=o.get("tf", False))


def mlp(run):
    builder = popart.Builder(opsets={"ai.onnx": 11, "ai.graphcore": 1})
    o = builder.aiOnnx
    w = {k: builder.addInitializedInputTensor(
        np.array(v["data"], np.float32).reshape(v["shape"]), k)
        for k, v in run["init"].items()}
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", run["inputShape"]), "x")
    labels = builder.addInputTensor(popart.TensorInfo("INT32", [run["batch"]]), "labels")
    h = o.relu([o.add([o.matmul([x, w["W1"]]), w["b1"]])])
    probs = o.softmax([o.add([o.matmul([h, w["W2"]]), w["b2"]])], axis=1)
    loss = builder.aiGraphcore.nllloss([probs, labels], reduction=popart.ReductionType.Mean)
    return builder.getModelProto(), x, labels, loss


def relative_error(actual, expected):
    expected = np.asarray(expected, np.float64)
    scale = np.max(np.abs(expected))
    return np.max(np.abs(np.asarray(actual, np.float64) - expected)) / scale


MLP_CASES = ["mlp_sgd", "mlp_sgd_momentum_separate", "mlp_sgd_nesterov",
             "mlp_sgd_loss_scaling", "mlp_sgd_clipping", "mlp_sgd_accumulation_mean",
             "mlp_adam", "mlp_lamb", "mlp_adagrad", "mlp_rmsprop_tf"]


@pytest.mark.parametrize("name", MLP_CASES)
def test_mlp_follows_pytorch(name):
    all_cases = cases()
    index = next(i for i, c in enumerate(all_cases) if c["name"] == name)
    case = all_cases[index]
    # torch_trajectories.py's data and PyTorch's run, with the seed the C++
    # test's fixture gives this case.
    run = torch_trajectories().run_case(case, 1000 + index)
    proto, x, labels, loss = mlp(run)
    af = case.get("accumulation", 1)
    opts = popart.SessionOptions()
    if af > 1:
        opts.enableGradientAccumulation = True
        opts.accumulationFactor = af
        opts.accumulationAndReplicationReductionType = getattr(
            popart.ReductionType, case.get("reduction", "Sum"))
    session = popart.TrainingSession(
        fnModel=proto, dataFlow=popart.DataFlow(1, {loss: popart.AnchorReturnType("All")}),
        loss=loss, optimizer=make_optimizer(case["optimizer"]),
        deviceInfo=popart.DeviceManager().createCpuDevice(), userOptions=opts)
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    assert anchors[loss].shape == ((af,) if af > 1 else ())
    xs = np.array(run["x"], np.float32).reshape([run["steps"], af] + run["inputShape"])
    ls = np.array(run["labels"], np.int32).reshape(run["steps"], af, run["batch"])
    weights = {k: np.empty(run["init"][k]["shape"], np.float32) for k in run["trained"]}
    weights_io = popart.PyWeightsIO(weights)
    for step, expected in enumerate(run["trajectory"]):
        session.run(popart.PyStepIO({x: xs[step], labels: ls[step]}, anchors))
        session.weightsToHost()
        session.readWeights(weights_io)
        assert relative_error(np.atleast_1d(anchors[loss]), expected["losses"]) < 1e-5, step
        for k in run["trained"]:
            assert relative_error(weights[k].ravel(), expected["weights"][k]) < 1e-5, (step, k)


def test_optimizer_dicts_and_defaults():
    sgd = popart.SGD({"defaultLearningRate": (0.1, False)})
    lr = sgd.learningRates().getDefault()
    assert lr.val() == pytest.approx(0.1) and not lr.isConst()
    assert sgd.momentums().getDefault() == popart.OptimizerValue(0.0, True)
    assert sgd.getLossScalingVal() == 1.0
    sgd.insertSpecific("w", {"learningRate": (0.5, False)})
    assert sgd.learningRates().get("w").val() == 0.5
    assert sgd.hasSpecific("w") and not sgd.hasSpecific("v")
    const = popart.ConstSGD(0.01, weight_decay=0.001)
    assert const.learningRates().getDefault() == popart.OptimizerValue(0.01, True)
    assert const.weightDecays().getDefault().val() == pytest.approx(0.001)
    adam = popart.Adam({"defaultLearningRate": (0.02, True)})
    assert adam.getMode() == popart.AdamMode.Adam
    assert adam.getWeightDecayMode() == popart.WeightDecayMode.Decay
    assert adam.beta2s().getDefault().val() == pytest.approx(0.999)
    adaptive = popart.Adaptive({"defaultLearningRate": (0.02, True)})
    assert adaptive.getMode() == popart.AdaptiveMode.RMSProp
    clip = popart.ClipNormSettings(["w1", "w2"], 2.0)
    assert clip.weightIds == ["w1", "w2"] and clip.maxNorm == 2.0


def test_optimizer_map_errors():
    with pytest.raises(popart.popart_exception, match="defaultLearningRat'"):
        popart.SGD({"defaultLearningRat": (0.1, False)})
    with pytest.raises(popart.popart_exception, match="defaultBeta3"):
        popart.Adam({"defaultBeta3": (0.1, True)})
    with pytest.raises(popart.popart_exception, match="'defaultMomentum'.*tuple"):
        popart.SGD({"defaultMomentum": 0.9})
    with pytest.raises(popart.popart_exception, match="momentum"):
        popart.SGD().insertSpecific("w", {"momentun": (0.9, True)})


def linear_model():
    """y = x @ W; the loss is the sum of y, so dloss/dW = x' @ ones."""
    builder = popart.Builder()
    w0 = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    w = builder.addInitializedInputTensor(w0, "W")
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [1, 2]), "x")
    y = builder.aiOnnx.matmul([x, w])
    loss = builder.aiGraphcore.identityloss([y], reduction=popart.ReductionType.Sum)
    return builder.getModelProto(), w, x, y, loss, w0


def train_linear(optimizer):
    proto, w, x, y, loss, w0 = linear_model()
    session = popart.TrainingSession(
        proto, popart.DataFlow(1, {loss: popart.AnchorReturnType("ALL"),
                                   y: popart.AnchorReturnType("ALL")}),
        loss, optimizer, popart.DeviceManager().createCpuDevice())
    session.prepareDevice()
    session.weightsFromHost()
    return session, w, x, y, loss, w0


def read_weight(session, w, shape=(2, 2)):
    out = np.empty(shape, np.float32)
    session.weightsToHost()
    session.readWeights(popart.PyWeightsIO({w: out}))
    return out


def test_update_optimizer_from_host():
    session, w, x, y, loss, w0 = train_linear(
        popart.SGD({"defaultLearningRate": (0.1, False)}))
    data = np.array([[0.5, -1.5]], np.float32)
    grad = data.T @ np.ones((1, 2), np.float32)
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO({x: data}, anchors))
    np.testing.assert_allclose(anchors[loss], (data @ w0).sum(), rtol=1e-6)
    w1 = w0 - 0.1 * grad
    np.testing.assert_allclose(read_weight(session, w), w1, rtol=1e-6)
    session.updateOptimizerFromHost(popart.SGD({"defaultLearningRate": (0.5, False)}))
    session.run(popart.PyStepIO({x: data}, anchors))
    np.testing.assert_allclose(read_weight(session, w), w1 - 0.5 * grad, rtol=1e-6)


def test_update_optimizer_errors():
    session, *_ = train_linear(popart.SGD({"defaultLearningRate": (0.1, True)}))
    # A constant is compiled in: changing it needs a new session.
    with pytest.raises(popart.popart_exception, match="(?i)learning rate"):
        session.updateOptimizerFromHost(popart.SGD({"defaultLearningRate": (0.2, True)}))
    with pytest.raises(popart.popart_exception, match="(?i)momentum"):
        session.updateOptimizerFromHost(popart.SGD({"defaultLearningRate": (0.1, True),
                                                    "defaultMomentum": (0.9, False)}))
    with pytest.raises(popart.popart_exception, match="Adam"):
        session.updateOptimizerFromHost(popart.Adam({"defaultLearningRate": (0.1, True)}))


def test_weights_io(tmp_path):
    session, w, x, y, loss, w0 = train_linear(popart.ConstSGD(0.0))
    np.testing.assert_array_equal(read_weight(session, w), w0)
    new = np.array([[-1.0, 0.5], [2.0, 0.25]], np.float32)
    session.writeWeights(popart.PyWeightsIO({w: new}))
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    data = np.array([[1.0, 2.0]], np.float32)
    session.run(popart.PyStepIO({x: data}, anchors))
    np.testing.assert_allclose(anchors[y], data @ new, rtol=1e-6)
    # modelToHost writes the session's weights into the model.
    session.modelToHost(str(tmp_path / "trained.onnx"))
    model = onnx.load(str(tmp_path / "trained.onnx"))
    init = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    np.testing.assert_array_equal(init[w], new)
    # resetHostWeights puts a model's weights back.
    session.resetHostWeights(linear_model()[0])
    session.weightsFromHost()
    np.testing.assert_array_equal(read_weight(session, w), w0)
    with pytest.raises(popart.popart_exception, match="contiguous"):
        popart.PyWeightsIO({w: np.empty((2, 4), np.float32)[:, ::2]})
    with pytest.raises(popart.popart_exception, match=w):
        session.readWeights(popart.PyWeightsIO({w: np.empty((3,), np.float32)}))
    session.setRandomSeed(1234)
    assert session.getRandomSeed() == 1234


def test_loss_objects_and_builder_losses():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [3, 4]), "x")
    w = builder.addInitializedInputTensor(np.eye(4, dtype=np.float32), "w")
    probs = builder.aiOnnx.softmax([builder.aiOnnx.matmul([x, w])], axis=1)
    label = builder.addInputTensor(popart.TensorInfo("INT32", [3]), "label")
    nll = popart.NllLoss(probs, label, "nllLoss")
    assert nll.output(0) == "nllLoss" and nll.probsTensorId() == probs
    l1 = popart.L1Loss(probs, "l1Loss", 0.5, reduction=popart.ReductionType.Mean)
    session = popart.TrainingSession(
        fnModel=builder.getModelProto(),
        dataFlow=popart.DataFlow(1, {nll.output(0): popart.AnchorReturnType("ALL"),
                                     l1.output(0): popart.AnchorReturnType("ALL")}),
        losses=[nll, l1], optimizer=popart.ConstSGD(0.0),
        deviceInfo=popart.DeviceManager().createCpuDevice())
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    xs = np.array([[1, 2, 3, 4], [0, 0, 1, 0], [-1, 1, -1, 1]], np.float32)
    ys = np.array([3, 0, 2], np.int32)
    session.run(popart.PyStepIO({x: xs, label: ys}, anchors))
    p = np.exp(xs) / np.exp(xs).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(anchors["nllLoss"], -np.log(p[np.arange(3), ys]).sum(),
                               rtol=1e-5)
    np.testing.assert_allclose(anchors["l1Loss"], 0.5 * np.abs(p).mean(), rtol=1e-5)

    # The builder's nllloss: ignoreIndex leaves the label out of the mean.
    builder = popart.Builder()
    p_in = builder.addInputTensor(popart.TensorInfo("FLOAT", [3, 4]), "p")
    l_in = builder.addInputTensor(popart.TensorInfo("INT32", [3]), "l")
    out = builder.aiGraphcore.nllloss([p_in, l_in], ignoreIndex=0)
    session = popart.InferenceSession(
        builder.getModelProto(), popart.DataFlow(1, {out: popart.AnchorReturnType("ALL")}),
        popart.DeviceManager().createCpuDevice())
    session.prepareDevice()
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO({p_in: p.astype(np.float32), l_in: ys}, anchors))
    kept = ys != 0
    np.testing.assert_allclose(anchors[out], -np.log(p[np.arange(3), ys][kept]).mean(),
                               rtol=1e-5)


def test_anchor_arrays_with_gradient_accumulation():
    proto, w, x, y, loss, w0 = linear_model()
    opts = popart.SessionOptions()
    opts.enableGradientAccumulation = True
    opts.accumulationFactor = 3
    session = popart.TrainingSession(
        proto, popart.DataFlow(2, {loss: popart.AnchorReturnType("ALL"),
                                   y: popart.AnchorReturnType("ALL")}),
        loss, popart.ConstSGD(0.1), popart.DeviceManager().createCpuDevice(),
        userOptions=opts)
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    assert anchors[loss].shape == (2, 3)
    assert anchors[y].shape == (2, 3, 1, 2)
    data = np.arange(12, dtype=np.float32).reshape(2, 3, 1, 2) / 10
    session.run(popart.PyStepIO({x: data}, anchors))
    # The first batch's micro-batches all see the initial weights.
    np.testing.assert_allclose(anchors[y][0], data[0] @ w0, rtol=1e-6)
    np.testing.assert_allclose(anchors[loss][0], (data[0] @ w0).sum(axis=(1, 2)),
                               rtol=1e-6)
    # One update per batch, from the sum of its micro-batches' gradients.
    grad = sum(d.T @ np.ones((1, 2), np.float32) for d in data[0])
    np.testing.assert_allclose(anchors[y][1], data[1] @ (w0 - 0.1 * grad), rtol=1e-5)


def test_recomputation_annotations():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2]))
    a = builder.aiOnnx.relu([x])
    builder.recomputeOutputInBackwardPass(a)
    assert builder.getRecomputeOutputInBackwardPass(a)
    with builder.recomputeOutput(popart.RecomputeType.Checkpoint):
        b = builder.aiOnnx.exp([a])
    c = builder.aiOnnx.sin([b])
    (checkpointed,) = builder.checkpointOutput([c])
    model = onnx.load_from_string(builder.getModelProto())
    kinds = {}
    for node in model.graph.node:
        for attribute in node.attribute:
            if attribute.name == "__recompute_output_in_backward_pass":
                kinds[node.output[0]] = attribute.i
    assert kinds[a] == int(popart.RecomputeType.Recompute)
    assert kinds[b] == int(popart.RecomputeType.Checkpoint)
    assert kinds[checkpointed] == int(popart.RecomputeType.Checkpoint)
    assert c not in kinds


def test_training_session_arguments():
    proto, w, x, y, loss, w0 = linear_model()
    device = popart.DeviceManager().createCpuDevice()
    flow = popart.DataFlow(1, {loss: popart.AnchorReturnType("ALL")})
    with pytest.raises(TypeError, match="loss"):
        popart.TrainingSession(proto, flow, optimizer=popart.ConstSGD(0.1),
                               deviceInfo=device)
    with pytest.raises(TypeError, match="optimizer"):
        popart.TrainingSession(proto, flow, loss, deviceInfo=device)
    with pytest.raises(popart.popart_exception, match="'nosuchloss'"):
        popart.TrainingSession(proto, flow, "nosuchloss", popart.ConstSGD(0.1), device)
    session = popart.TrainingSession(proto, dataFeed=flow, loss=loss,
                                     optimizer=popart.ConstSGD(0.1), deviceInfo=device,
                                     name="mine")
    assert session.dataFlow.batchesPerStep() == 1
    assert session.accumulationFactor == 1
