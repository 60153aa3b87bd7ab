"""Sharding: virtualGraphMode Manual and Auto place the ops on the IPUs
of an IPU Model (each IPU's ops lowered into its virtual graph, IpuCopy
ops between them), and training gives the weights of the single-IPU run."""
import json

import numpy as np
import popart
import pytest
from session_helpers import device as make_device

LAYERS, WIDTH, BATCH, BATCHES_PER_STEP, STEPS = 4, 8, 4, 2, 10


def mlp(ipus, training=True):
    """Four matmul layers (ReLU between), layer l on IPU l * ipus / 4 (the
    annotations Manual uses), softmax and NLL loss on the last IPU."""
    rng = np.random.default_rng(0)
    b = popart.Builder()
    x = b.addInputTensor(popart.TensorInfo("FLOAT", [BATCH, WIDTH]), "x")
    label = b.addInputTensor(popart.TensorInfo("INT32", [BATCH]), "label")
    h, weights = x, []
    for layer in range(LAYERS):
        w = b.addInitializedInputTensor(
            rng.normal(0, 0.5, (WIDTH, WIDTH)).astype(np.float32), f"w{layer}")
        weights.append(w)
        with b.virtualGraph(layer * ipus // LAYERS):
            h = b.aiOnnx.matmul([h, w])
            if layer < LAYERS - 1:
                h = b.aiOnnx.relu([h])
    with b.virtualGraph(ipus - 1):
        probs = b.aiOnnx.softmax([h], axis=1)
        loss = b.aiGraphcore.nllloss([probs, label])
    return b, x, label, h, loss, weights


def device(ipus):
    return make_device("ipumodel", ipus)


def train(ipus, mode):
    b, x, label, _, loss, weights = mlp(ipus)
    opts = popart.SessionOptions()
    opts.virtualGraphMode = mode
    session = popart.TrainingSession(
        b.getModelProto(),
        popart.DataFlow(BATCHES_PER_STEP, {loss: popart.AnchorReturnType("ALL")}),
        loss,
        popart.SGD({
            "defaultLearningRate": (0.1, False),
            "defaultMomentum": (0.9, True)
        }),
        device(ipus),
        userOptions=opts)
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    data = np.random.default_rng(5)
    for _ in range(STEPS):
        xs = data.normal(size=(BATCHES_PER_STEP, BATCH, WIDTH)).astype(np.float32)
        labels = data.integers(0, WIDTH, size=(BATCHES_PER_STEP, BATCH)).astype(np.int32)
        session.run(popart.PyStepIO({x: xs, label: labels}, anchors))
    session.weightsToHost()
    out = {w: np.empty((WIDTH, WIDTH), np.float32) for w in weights}
    session.readWeights(popart.PyWeightsIO(out))
    ir = json.loads(session._serializeIr(popart.IrSerializationFormat.JSON))
    return out, ir


@pytest.mark.parametrize("ipus,mode", [(2, "Manual"), (4, "Manual"),
                                       (4, "Auto")])
def test_sharded_training_gives_the_single_ipu_weights(ipus, mode):
    expected, _ = train(1, popart.VirtualGraphMode.Off)
    got, ir = train(ipus, getattr(popart.VirtualGraphMode, mode))
    for w in expected:
        np.testing.assert_allclose(got[w], expected[w], rtol=1e-5, atol=1e-7,
                                   err_msg=w)
    ops = ir["maingraph"]
    ipus_used = {int(op["attributes"]["__ipu_number"]) for op in ops}
    copies = [op for op in ops if op["type"] == "IpuCopy"]
    assert ipus_used == set(range(ipus)), ipus_used
    # Activations forward and their gradients back cross each boundary.
    assert len(copies) >= 2 * (ipus - 1)


def test_each_ipu_holds_its_layers():
    # Inference with the weights as variables: the report's memory of each
    # IPU's tiles beyond the stack every tile has (the weights, the
    # matmul's vertices) is its layer's.
    for ipus in (1, 4):
        b, x, _, h, _, _ = mlp(ipus)
        opts = popart.SessionOptions()
        opts.constantWeights = False
        opts.virtualGraphMode = (popart.VirtualGraphMode.Manual
                                 if ipus > 1 else popart.VirtualGraphMode.Off)
        session = popart.InferenceSession(b.getModelProto(),
                                          popart.DataFlow(1, [h]), device(ipus),
                                          userOptions=opts)
        session.prepareDevice()
        per_tile = json.loads(session.getGraphReport())["memory"]["byTile"]["total"]
        stack = min(per_tile)
        per_ipu = [sum(t - stack for t in per_tile[i * 4:(i + 1) * 4])
                   for i in range(ipus)]
        if ipus == 1:
            single = per_ipu[0]
        else:
            assert all(m > 0 for m in per_ipu), per_ipu
            assert max(per_ipu) < single


def test_manual_needs_every_op_placed():
    b = popart.Builder()
    x = b.addInputTensor(popart.TensorInfo("FLOAT", [2]))
    with b.virtualGraph(0):
        y = b.aiOnnx.relu([x])
    z = b.aiOnnx.neg([y])
    opts = popart.SessionOptions()
    opts.virtualGraphMode = popart.VirtualGraphMode.Manual
    with pytest.raises(popart.popart_exception, match="Neg.*no virtual graph"):
        popart.InferenceSession(b.getModelProto(), popart.DataFlow(1, [z]),
                                device(2), userOptions=opts)
