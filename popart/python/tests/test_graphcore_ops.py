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


def test_gather_init_slices_and_remap_keywords():
    data = np.arange(24, dtype=np.float32).reshape(2, 4, 3)
    idx = np.array([[3, 0], [1, 1]], dtype=np.int32)
    img = np.arange(12, dtype=np.float32).reshape(2, 2, 3)
    offsets = np.array([1, 2, 3], dtype=np.float32)
    scales = np.array([0.5, 1, 2], dtype=np.float32)
    src = np.arange(10, dtype=np.float32).reshape(5, 2)
    dst = -np.ones((4, 2), dtype=np.float32)
    builder = popart.Builder()
    gc = builder.aiGraphcore
    idata = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 4, 3]))
    iidx = builder.addInputTensor(popart.TensorInfo("INT32", [2, 2]))
    iimg = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 2, 3]))
    ioff = builder.addInputTensor(popart.TensorInfo("FLOAT", [3]))
    isc = builder.addInputTensor(popart.TensorInfo("FLOAT", [3]))
    isrc = builder.addInputTensor(popart.TensorInfo("FLOAT", [5, 2]))
    idst = builder.addInputTensor(popart.TensorInfo("FLOAT", [4, 2]))
    iu = [builder.addInputTensor(popart.TensorInfo("UINT32", [1]))
          for _ in range(3)]
    zeros = gc.init(shape=[2, 3], data_type=int(popart.DataType.FLOAT),
                    init_type=int(popart.InitType.Zero), debugContext="zeros")
    outs = [gc.groupedgather([idata, iidx], axis=1, group_size=2),
            gc.normalize_image([iimg, ioff, isc], scale=2.0),
            gc.sequenceslice([isrc, idst, *iu], zeroUnused=1),
            gc.tensorremap([idata], remap_type=int(popart.TensorRemapType.Fwd)),
            zeros]
    u = [np.array([v], dtype=np.uint32) for v in (2, 3, 1)]
    got = run(builder, outs, {idata: data, iidx: idx, iimg: img, ioff: offsets,
                              isc: scales, isrc: src, idst: dst, iu[0]: u[0],
                              iu[1]: u[1], iu[2]: u[2]})
    np.testing.assert_array_equal(got[0], np.stack([data[0][idx[0]],
                                                    data[1][idx[1]]]))
    want = np.concatenate([(img * 2 - offsets) * scales,
                           np.zeros((2, 2, 1), np.float32)], axis=-1)
    np.testing.assert_allclose(got[1], want, rtol=1e-6)
    want = np.zeros((4, 2), np.float32)
    want[1:3] = src[3:5]
    np.testing.assert_array_equal(got[2], want)
    np.testing.assert_array_equal(got[3], data)
    np.testing.assert_array_equal(got[4], np.zeros((2, 3), np.float32))
