"""builder.aiGraphcore's element-wise and data-movement ops from Python,
with the original module's keywords, run on the CPU device and compared
with numpy."""

import numpy as np
import popart
import pytest


def run(builder, outputs, inputs):
    for o in outputs:
        builder.addOutputTensor(o)
    flow = popart.DataFlow(1, {o: popart.AnchorReturnType("ALL") for o in outputs})
    session = popart.InferenceSession(
        fnModel=builder.getModelProto(), dataFlow=flow,
        deviceInfo=popart.DeviceManager().createCpuDevice())
    session.prepareDevice()
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO(inputs, anchors))
    return [anchors[o] for o in outputs]


def test_elementwise():
    rng = np.random.default_rng(3)
    y = rng.normal(size=(2, 3)).astype(np.float32)
    x = rng.normal(size=(3,)).astype(np.float32)
    a = np.array([7, -7, 12, -1], dtype=np.int32)
    b = np.array([3, 3, -5, 6], dtype=np.int32)
    builder = popart.Builder()
    gc = builder.aiGraphcore
    iy = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 3]))
    ix = builder.addInputTensor(popart.TensorInfo("FLOAT", [3]))
    ia = builder.addInputTensor(popart.TensorInfo("INT32", [4]))
    ib = builder.addInputTensor(popart.TensorInfo("INT32", [4]))
    outs = [gc.atan2(args=[iy, ix]), gc.remainder([ia, ib]), gc.fmod([ia, ib]),
            gc.bitwisexor(args=[ia, ib]), gc.bitwisenot([ia]),
            gc.bucketize([ix, gc.nearbyint([ix])], right=1)]
    got = run(builder, outs, {iy: y, ix: x, ia: a, ib: b})
    np.testing.assert_allclose(got[0], np.arctan2(y, x), rtol=1e-5)
    np.testing.assert_array_equal(got[1], np.remainder(a, b))
    np.testing.assert_array_equal(got[2], np.fmod(a, b))
    np.testing.assert_array_equal(got[3], a ^ b)
    np.testing.assert_array_equal(got[4], ~a)


def test_data_movement():
    t = np.arange(20, dtype=np.float32).reshape(4, 5)
    builder = popart.Builder()
    gc = builder.aiGraphcore
    it = builder.addInputTensor(popart.TensorInfo("FLOAT", [4, 5]))
    io = builder.addInputTensor(popart.TensorInfo("INT32", [1]))
    outs = [gc.dynamicslice([it, io], axes=[1], sizes=[2], noOverlap=1),
            gc.dynamiczero([it, io], axes=[0], sizes=[1]),
            gc.reverse([it], dimensions=[1]),
            gc.slice([it], ends=[3], starts=[1], axes=[0]),
            gc.subsample([it], strides=[3, 2]),
            *gc.sort([it], axis=0, descending=1),
            *gc.reducemedian([it], axes=[1], keepdims=0)]
    got = run(builder, outs, {it: t, io: np.array([2], dtype=np.int32)})
    np.testing.assert_array_equal(got[0], t[:, 2:4])
    zeroed = t.copy()
    zeroed[2] = 0
    np.testing.assert_array_equal(got[1], zeroed)
    np.testing.assert_array_equal(got[2], t[:, ::-1])
    np.testing.assert_array_equal(got[3], t[1:3])
    np.testing.assert_array_equal(got[4], t[::3, ::2])
    np.testing.assert_array_equal(got[5], t[::-1])
    np.testing.assert_array_equal(got[6], np.arange(4)[::-1, None].repeat(5, 1))
    np.testing.assert_array_equal(got[7], t[:, 2])
    np.testing.assert_array_equal(got[8], np.full(4, 2))


def test_bad_attributes_name_the_op():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [4]))
    with pytest.raises(popart.popart_exception, match="Subsample"):
        builder.aiGraphcore.subsample([x], strides=[0])


def test_groupnormalization_and_scatterreduce_against_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    x = rng.normal(size=(2, 6, 4)).astype(np.float32)
    scale = rng.normal(size=(6,)).astype(np.float32)
    bias = rng.normal(size=(6,)).astype(np.float32)
    src = rng.normal(size=(3, 5)).astype(np.float32)
    index = rng.integers(0, 4, size=(3, 5)).astype(np.int32)
    builder = popart.Builder()
    gc = builder.aiGraphcore
    ix = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 6, 4]))
    isc = builder.addInputTensor(popart.TensorInfo("FLOAT", [6]))
    ib = builder.addInputTensor(popart.TensorInfo("FLOAT", [6]))
    isrc = builder.addInputTensor(popart.TensorInfo("FLOAT", [3, 5]))
    iidx = builder.addInputTensor(popart.TensorInfo("INT32", [3, 5]))
    y, mean, inv_std = gc.groupnormalization([ix, isc, ib], num_groups=3,
                                             epsilon=1e-5)
    reduced = [gc.scatterreduce([isrc, iidx], axis_size=4, axis=1,
                                reduction=r)
               for r in (popart.ScatterReduction.Sum,
                         popart.ScatterReduction.Max,
                         popart.ScatterReduction.Min,
                         popart.ScatterReduction.Mul)]
    got = run(builder, [y, mean, inv_std, *reduced],
              {ix: x, isc: scale, ib: bias, isrc: src, iidx: index})
    want = torch.nn.functional.group_norm(torch.tensor(x), 3,
                                          torch.tensor(scale),
                                          torch.tensor(bias), eps=1e-5)
    np.testing.assert_allclose(got[0], want.numpy(), rtol=1e-4, atol=1e-5)
    groups = x.reshape(2 * 3, -1)
    np.testing.assert_allclose(got[1], groups.mean(1), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(got[2], 1 / np.sqrt(groups.var(1) + 1e-5),
                               rtol=1e-4)
    for out, mode in zip(got[3:], ("sum", "amax", "amin", "prod")):
        # Bins nothing reaches: 0, or 1 for a product.
        start = torch.ones(3, 4) if mode == "prod" else torch.zeros(3, 4)
        expected = start.scatter_reduce(1, torch.tensor(index).long(),
                                        torch.tensor(src), mode,
                                        include_self=False)
        np.testing.assert_allclose(out, expected.numpy(), rtol=1e-5,
                                   atol=1e-6)
