"""builder.aiGraphcore.multiconv on the CPU device: several convolutions with
their own groups, strides, pads, kernel and input dilations and output
padding, against PyTorch (input dilation written out as zeros between the
elements, output padding as zeros around conv1d/conv2d's result), in
inference and training (data, weights and bias gradients); the options and
the errors naming the op."""

import numpy as np
import popart
import pytest
from session_helpers import device, one_step

torch = pytest.importorskip("torch")
F = torch.nn.functional


def run(builder, outputs, inputs, loss=None, grads_of=()):
    return one_step(builder, outputs, inputs, loss, grads_of)


def torch_conv(x, w, b, groups, stride, pads, dilation, in_dilation, out_pads):
    """The convolution with input dilation and output padding, from conv1d /
    conv2d: zeros between the input's elements, then the pads, then the
    convolution, then zeros around the output, then the bias."""
    d = x.dim() - 2
    if any(i > 1 for i in in_dilation):
        shape = list(x.shape[:2]) + [s * (n - 1) + 1 for s, n in
                                     zip(in_dilation, x.shape[2:])]
        dilated = x.new_zeros(shape)
        index = (slice(None), slice(None)) + tuple(
            slice(None, None, s) for s in in_dilation)
        dilated[index] = x
        x = dilated
    # F.pad takes the last dimension first, (lower, upper) each.
    def torch_pads(p):
        return [v for k in reversed(range(d)) for v in (p[k], p[d + k])]
    x = F.pad(x, torch_pads(pads))
    conv = F.conv1d if d == 1 else F.conv2d
    y = F.pad(conv(x, w, None, stride=stride, dilation=dilation,
                   groups=groups), torch_pads(out_pads))
    # The bias is added to the whole output, its padding included (the
    # original adds it with an AddBias op after the convolution).
    if b is not None:
        y = y + b.reshape([1, -1] + [1] * d)
    return y


# Three convolutions: 2-D grouped with a bias, 1-D with input dilation,
# 2-D with input dilation, stride and kernel dilation.
CONVS = [
    dict(x=[2, 4, 7, 6], w=[6, 2, 3, 2], bias=True, groups=2, strides=[2, 1],
         pads=[1, 0, 1, 1], dilations=[1, 2], inDilations=[1, 1],
         outPads=[0, 1, 1, 0]),
    dict(x=[1, 3, 5], w=[2, 3, 3], bias=False, groups=1, strides=[1],
         pads=[1, 2], dilations=[1], inDilations=[2], outPads=[1, 0]),
    dict(x=[2, 2, 4, 5], w=[3, 2, 2, 3], bias=True, groups=1, strides=[2, 1],
         pads=[0, 1, 1, 0], dilations=[2, 1], inDilations=[3, 2],
         outPads=[2, 0, 0, 1]),
]


def data(seed=3):
    rng = np.random.default_rng(seed)
    values = []
    for c in CONVS:
        x = rng.normal(size=c["x"]).astype(np.float32)
        w = rng.normal(size=c["w"]).astype(np.float32)
        b = rng.normal(size=[c["w"][0]]).astype(np.float32) if c["bias"] \
            else None
        values.append((x, w, b))
    return values


def build(builder, values, initialized_weights=False, **options):
    ids, args = [], []
    for (x, w, b) in values:
        ix = builder.addInputTensor(popart.TensorInfo("FLOAT", list(x.shape)))
        if initialized_weights:
            iw = builder.addInitializedInputTensor(w)
        else:
            iw = builder.addInputTensor(popart.TensorInfo("FLOAT",
                                                          list(w.shape)))
        conv_ids = [ix, iw]
        if b is not None:
            conv_ids.append(builder.addInputTensor(
                popart.TensorInfo("FLOAT", list(b.shape))))
        ids.append(conv_ids)
        args.append(conv_ids)
    outs = builder.aiGraphcore.multiconv(
        args,
        dilations=[c["dilations"] for c in CONVS],
        inDilations=[c["inDilations"] for c in CONVS],
        pads=[c["pads"] for c in CONVS],
        outPads=[c["outPads"] for c in CONVS],
        strides=[c["strides"] for c in CONVS], **options)
    return ids, outs


def feed(ids, values):
    inputs = {}
    for conv_ids, conv_values in zip(ids, values):
        for i, v in zip(conv_ids, conv_values):
            inputs[i] = v
    return inputs


def reference(values, requires_grad=False):
    tensors, outs = [], []
    for c, (x, w, b) in zip(CONVS, values):
        t = [torch.tensor(v, requires_grad=requires_grad) for v in (x, w)]
        t.append(None if b is None else
                 torch.tensor(b, requires_grad=requires_grad))
        tensors.append(t)
        outs.append(torch_conv(t[0], t[1], t[2], c["groups"], c["strides"],
                               c["pads"], c["dilations"], c["inDilations"],
                               c["outPads"]))
    return tensors, outs


def test_multiconv_inference_matches_torch():
    values = data()
    builder = popart.Builder()
    ids, outs = build(builder, values)
    _, want = reference(values)
    assert len(outs) == 3
    for o, w in zip(outs, want):
        assert builder.getTensorShape(o) == list(w.shape)
        builder.addOutputTensor(o)
    got = run(builder, outs, feed(ids, values))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w.numpy(), rtol=1e-4, atol=1e-5)


def test_multiconv_defaults_equal_plain_convolutions():
    """No parameters: stride 1, no padding, no dilation; the groups from the
    shapes (depthwise here)."""
    rng = np.random.default_rng(5)
    x0 = rng.normal(size=[1, 3, 6, 6]).astype(np.float32)
    w0 = rng.normal(size=[4, 3, 3, 3]).astype(np.float32)
    x1 = rng.normal(size=[2, 4, 5]).astype(np.float32)
    w1 = rng.normal(size=[4, 1, 2]).astype(np.float32)
    builder = popart.Builder()
    i0 = builder.addInputTensor(popart.TensorInfo("FLOAT", [1, 3, 6, 6]))
    i1 = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 4, 5]))
    c0 = builder.aiOnnx.constant(w0)
    c1 = builder.aiOnnx.constant(w1)
    a, b = builder.aiGraphcore.multiconv([[i0, c0], [i1, c1]])
    got = run(builder, [a, b], {i0: x0, i1: x1})
    np.testing.assert_allclose(
        got[0], F.conv2d(torch.tensor(x0), torch.tensor(w0)).numpy(),
        rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(
        got[1], F.conv1d(torch.tensor(x1), torch.tensor(w1), groups=4).numpy(),
        rtol=1e-4, atol=1e-5)


def test_input_dilation_reference_is_a_transposed_convolution():
    """The reference's input dilation agrees with conv_transpose1d (input
    dilation s with padding k - 1 - p is a transposed convolution of stride
    s and padding p with the flipped, transposed kernel)."""
    rng = np.random.default_rng(9)
    x = torch.tensor(rng.normal(size=[1, 2, 5]).astype(np.float32))
    w = torch.tensor(rng.normal(size=[3, 2, 3]).astype(np.float32))
    mine = torch_conv(x, w, None, 1, [1], [1, 1], [1], [2], [0, 0])
    theirs = F.conv_transpose1d(x, w.flip(2).transpose(0, 1), stride=2,
                                padding=1)
    np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-5,
                               atol=1e-6)


def test_multiconv_training_gradients_match_torch():
    values = data(seed=4)
    builder = popart.Builder()
    ids, outs = build(builder, values)
    _, want = reference(values)
    rng = np.random.default_rng(8)
    weights = [rng.normal(size=list(w.shape)).astype(np.float32)
               for w in want]
    rids = [builder.addInputTensor(popart.TensorInfo("FLOAT", list(r.shape)))
            for r in weights]
    # loss = sum_i sum(out_i * r_i): the output gradients are the r_i.
    parts = [builder.aiOnnx.reducesum([builder.aiOnnx.mul([o, r])], keepdims=0)
             for o, r in zip(outs, rids)]
    loss = builder.aiGraphcore.identityloss(
        [builder.aiOnnx.sum(parts)], reduction=popart.ReductionType.Sum)
    flat_ids = [i for conv_ids in ids for i in conv_ids]
    inputs = feed(ids, values)
    inputs.update(dict(zip(rids, weights)))
    got = run(builder, outs, inputs, loss=loss, grads_of=flat_ids)

    tensors, touts = reference(values, requires_grad=True)
    total = sum((o * torch.tensor(r)).sum() for o, r in zip(touts, weights))
    total.backward()
    for g, w in zip(got[:3], touts):
        np.testing.assert_allclose(g, w.detach().numpy(), rtol=1e-4,
                                   atol=1e-5)
    want_grads = [t.grad.numpy() for conv in tensors for t in conv
                  if t is not None]
    assert len(want_grads) == len(flat_ids)
    for i, g, w in zip(flat_ids, got[3:], want_grads):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4, err_msg=i)


def test_multiconv_trains_initialized_weights():
    """Weights as initializers take an SGD step with their gradients."""
    values = data(seed=6)
    builder = popart.Builder()
    ids, outs = build(builder, values, initialized_weights=True,
                      partialsTypes=["float", "half", "float"],
                      availableMemoryProportions=[0.5, 0.3, 0.9],
                      enableConvDithering=[1, 0, 1], planType="serial")
    parts = [builder.aiOnnx.reducesum([o], keepdims=0) for o in outs]
    loss = builder.aiGraphcore.identityloss(
        [builder.aiOnnx.sum(parts)], reduction=popart.ReductionType.Sum)
    weight_ids = [conv_ids[1] for conv_ids in ids]
    flow = popart.DataFlow(1, {outs[0]: popart.AnchorReturnType("ALL")})
    session = popart.TrainingSession(builder.getModelProto(), flow, loss,
                                     popart.ConstSGD(0.5), device())
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    inputs = {i: v for conv_ids, conv_values in zip(ids, values)
              for i, v in zip(conv_ids, conv_values) if i not in weight_ids}
    session.run(popart.PyStepIO(inputs, anchors))
    updated = {w: np.zeros(v[1].shape, np.float32)
               for w, v in zip(weight_ids, values)}
    session.weightsToHost()
    session.readWeights(popart.PyWeightsIO(updated))

    tensors, touts = reference(values, requires_grad=True)
    sum(o.sum() for o in touts).backward()
    np.testing.assert_allclose(anchors[outs[0]], touts[0].detach().numpy(),
                               rtol=1e-4, atol=1e-5)
    for w, conv in zip(weight_ids, tensors):
        want = conv[1].detach().numpy() - 0.5 * conv[1].grad.numpy()
        np.testing.assert_allclose(updated[w], want, rtol=1e-4, atol=1e-4)


def small_model(**options):
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [1, 2, 4, 4]))
    w = builder.aiOnnx.constant(np.ones([3, 2, 2, 2], np.float32))
    y = builder.addInputTensor(popart.TensorInfo("FLOAT", [1, 1, 5]))
    v = builder.aiOnnx.constant(np.ones([1, 1, 2], np.float32))
    return builder, [[x, w], [y, v]], options


def session_error(builder, outs):
    flow = popart.DataFlow(1, {o: popart.AnchorReturnType("ALL")
                               for o in outs})
    with pytest.raises(popart.popart_exception) as e:
        popart.InferenceSession(fnModel=builder.getModelProto(),
                                dataFlow=flow, deviceInfo=device())
    return str(e.value)


def test_multiconv_argument_count_errors_name_the_op():
    builder, args, _ = small_model()
    gc = builder.aiGraphcore
    with pytest.raises(popart.popart_exception, match="MultiConv 'mc'.*no input"):
        gc.multiconv([], debugContext="mc")
    with pytest.raises(popart.popart_exception,
                       match="Convolution 1 of MultiConv 'mc' has 1 inputs"):
        gc.multiconv([args[0], args[1][:1]], debugContext="mc")
    with pytest.raises(popart.popart_exception,
                       match="Convolution 0 of MultiConv 'mc' has 4 inputs"):
        gc.multiconv([args[0] + args[1], args[1]], debugContext="mc")
    for name, kwargs in [
            ("strides", dict(strides=[[1, 1]])),
            ("pads", dict(pads=[[0] * 4] * 3)),
            ("outPads", dict(outPads=[[0] * 4])),
            ("dilations", dict(dilations=[[1, 1]])),
            ("inDilations", dict(inDilations=[[1, 1]])),
            ("availableMemoryProportions",
             dict(availableMemoryProportions=[0.5])),
            ("partialsTypes", dict(partialsTypes=["half"])),
            ("enableConvDithering", dict(enableConvDithering=[1, 0, 1]))]:
        with pytest.raises(popart.popart_exception,
                           match=f"MultiConv 'mc'.* of {name} for 2 input"):
            gc.multiconv(args, debugContext="mc", **kwargs)


def test_multiconv_attribute_errors_name_the_op():
    # One list per convolution, but of the wrong length for its dimensions.
    builder, args, _ = small_model()
    outs = builder.aiGraphcore.multiconv(args, strides=[[1, 1], [1, 1]],
                                         debugContext="mc")
    message = session_error(builder, outs)
    assert "MultiConv" in message and "mc" in message
    assert "strides has 4 values" in message and "need 3" in message

    builder, args, _ = small_model()
    outs = builder.aiGraphcore.multiconv(args, pads=[[0, 0, 0, 0], [-1, 0]],
                                         debugContext="mc")
    message = session_error(builder, outs)
    assert "mc" in message and "negative padding" in message

    builder, args, _ = small_model()
    outs = builder.aiGraphcore.multiconv(args, dilations=[[5, 1], [1]],
                                         debugContext="mc")
    message = session_error(builder, outs)
    assert "mc" in message and "larger than the input" in message

    for kwargs, text in [
            (dict(planType="diagonal"), "planType 'diagonal'"),
            (dict(cycleBackOff=1.5), "cycleBackOff 1.5"),
            (dict(perConvReservedTiles=-2), "perConvReservedTiles -2"),
            (dict(availableMemoryProportions=[0.5, 1.5]),
             "availableMemoryProportion 1.5 of convolution 1"),
            (dict(partialsTypes=["float", "double"]), "'double'")]:
        builder, args, _ = small_model()
        outs = builder.aiGraphcore.multiconv(args, debugContext="mc", **kwargs)
        message = session_error(builder, outs)
        assert "mc" in message and text in message, message


def test_multiconv_plan_options_reach_poplin():
    """planType, perConvReservedTiles and cycleBackOff are poplin's
    multi-convolution options: accepted values run (a parallel plan falls
    back to the serial one, as the original does when it finds none)."""
    rng = np.random.default_rng(2)
    x = rng.normal(size=[1, 2, 4, 4]).astype(np.float32)
    y = rng.normal(size=[1, 1, 5]).astype(np.float32)
    for options in [dict(planType="parallel", perConvReservedTiles=4,
                         cycleBackOff=0.3), dict(planType="serial")]:
        builder, args, _ = small_model()
        outs = builder.aiGraphcore.multiconv(args, **options)
        got = run(builder, outs, {args[0][0]: x, args[1][0]: y})
        want0 = F.conv2d(torch.tensor(x), torch.ones(3, 2, 2, 2))
        want1 = F.conv1d(torch.tensor(y), torch.ones(1, 1, 2))
        np.testing.assert_allclose(got[0], want0.numpy(), rtol=1e-5)
        np.testing.assert_allclose(got[1], want1.numpy(), rtol=1e-5)


def test_multiconv_float16():
    """FLOAT16 data and weights (half partials for one convolution) against
    the float reference of the same values."""
    rng = np.random.default_rng(1)
    x0 = rng.normal(size=[1, 4, 5, 5]).astype(np.float16)
    w0 = rng.normal(size=[2, 2, 3, 3]).astype(np.float16)
    x1 = rng.normal(size=[2, 3, 6]).astype(np.float16)
    w1 = rng.normal(size=[4, 3, 2]).astype(np.float16)
    builder = popart.Builder()
    i0 = builder.addInputTensor(popart.TensorInfo("FLOAT16", [1, 4, 5, 5]))
    i1 = builder.addInputTensor(popart.TensorInfo("FLOAT16", [2, 3, 6]))
    outs = builder.aiGraphcore.multiconv(
        [[i0, builder.aiOnnx.constant(w0)], [i1, builder.aiOnnx.constant(w1)]],
        inDilations=[[2, 1], [1]], outPads=[[0, 0, 1, 1], [2, 0]],
        strides=[[1, 2], [2]], partialsTypes=["half", "float"])
    got = run(builder, outs, {i0: x0, i1: x1})
    want0 = torch_conv(torch.tensor(x0.astype(np.float32)),
                       torch.tensor(w0.astype(np.float32)), None, 2, [1, 2],
                       [0, 0, 0, 0], [1, 1], [2, 1], [0, 0, 1, 1])
    want1 = torch_conv(torch.tensor(x1.astype(np.float32)),
                       torch.tensor(w1.astype(np.float32)), None, 1, [2],
                       [0, 0], [1], [1], [2, 0])
    assert got[0].dtype == np.float16
    np.testing.assert_allclose(got[0], want0.numpy(), rtol=1e-2, atol=1e-2)
    np.testing.assert_allclose(got[1], want1.numpy(), rtol=1e-2, atol=1e-2)
