"""builder.aiGraphcore's sequence-model ops (ctcloss, ctcbeamsearchdecoder,
lstm, splinebasis, splineweighting) run on the CPU device: the CTC loss, its
gradient and the LSTM against PyTorch, the decoder against an exhaustive
sum over alignments, the spline ops against host loops."""

import itertools

import numpy as np
import popart
import pytest
from session_helpers import device, one_step


def infer(builder, outputs, inputs):
    for o in outputs:
        builder.addOutputTensor(o)
    return one_step(builder, outputs, inputs)


def train(builder, loss, outputs, grads_of, inputs):
    """One step with the loss `loss`: the outputs, then the gradients of
    the (stream) inputs `grads_of`."""
    return one_step(builder, outputs, inputs, loss=loss, grads_of=grads_of)


# CTC

T, N, C, S = 6, 3, 5, 3


def ctc_data(seed=1):
    rng = np.random.default_rng(seed)
    logits = rng.normal(size=(T, N, C)).astype(np.float32)
    log_probs = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    targets = rng.integers(1, C, size=(N, S)).astype(np.int32)
    input_lengths = np.array([6, 5, 4], dtype=np.uint32)
    target_lengths = np.array([3, 2, 1], dtype=np.uint32)
    return log_probs.astype(np.float32), targets, input_lengths, target_lengths


def ctc_model(reduction, target_type="INT32", **kwargs):
    builder = popart.Builder()
    lp = builder.addInputTensor(popart.TensorInfo("FLOAT", [T, N, C]))
    tg = builder.addInputTensor(popart.TensorInfo(target_type, [N, S]))
    il = builder.addInputTensor(popart.TensorInfo("UINT32", [N]))
    tl = builder.addInputTensor(popart.TensorInfo("UINT32", [N]))
    loss = builder.aiGraphcore.ctcloss([lp, tg, il, tl], reduction=reduction,
                                       **kwargs)
    return builder, loss, (lp, tg, il, tl)


def torch_ctc(data, reduction, zero_infinity=False):
    torch = pytest.importorskip("torch")
    log_probs, targets, il, tl = data
    lp = torch.tensor(log_probs, requires_grad=True)
    loss = torch.nn.functional.ctc_loss(
        lp, torch.tensor(targets).long(), torch.tensor(il.astype(np.int64)),
        torch.tensor(tl.astype(np.int64)), blank=0, reduction=reduction,
        zero_infinity=zero_infinity)
    return lp, loss


@pytest.mark.parametrize("reduction,name", [
    (popart.ReductionType.Mean, "mean"), (popart.ReductionType.Sum, "sum"),
    (popart.ReductionType.NoReduction, "none")])
def test_ctcloss_matches_torch(reduction, name):
    data = ctc_data()
    builder, loss, ids = ctc_model(reduction, target_type="UINT32")
    feed = dict(zip(ids, (data[0], data[1].astype(np.uint32), data[2],
                          data[3])))
    (got,) = infer(builder, [loss], feed)
    _, want = torch_ctc(data, name)
    np.testing.assert_allclose(got, want.detach().numpy(), rtol=1e-5,
                               atol=1e-5)


@pytest.mark.parametrize("reduction,name", [
    (popart.ReductionType.Mean, "mean"), (popart.ReductionType.Sum, "sum")])
def test_ctcloss_gradient_matches_torch(reduction, name):
    data = ctc_data(seed=2)
    builder, loss, ids = ctc_model(reduction)
    got_loss, got_grad = train(builder, loss, [loss], [ids[0]],
                               dict(zip(ids, data)))
    lp, want = torch_ctc(data, name)
    want.backward()
    np.testing.assert_allclose(got_loss, want.detach().numpy(), rtol=1e-5)
    np.testing.assert_allclose(got_grad, lp.grad.numpy(), rtol=1e-4,
                               atol=1e-5)


@pytest.mark.parametrize("out_type", ["UNDEFINED", "FLOAT"])
def test_ctcloss_float16_log_probs(out_type):
    data = ctc_data(seed=5)
    builder = popart.Builder()
    lp = builder.addInputTensor(popart.TensorInfo("FLOAT16", [T, N, C]))
    tg = builder.addInputTensor(popart.TensorInfo("INT32", [N, S]))
    il = builder.addInputTensor(popart.TensorInfo("UINT32", [N]))
    tl = builder.addInputTensor(popart.TensorInfo("UINT32", [N]))
    loss = builder.aiGraphcore.ctcloss([lp, tg, il, tl], outDataType=out_type)
    (got,) = infer(builder, [loss], {lp: data[0].astype(np.float16),
                                     tg: data[1], il: data[2], tl: data[3]})
    assert got.dtype == (np.float16 if out_type == "UNDEFINED" else np.float32)
    _, want = torch_ctc(data, "mean")
    np.testing.assert_allclose(got, want.item(), rtol=2e-3)


def test_ctcloss_zero_infinity():
    data = list(ctc_data(seed=3))
    data[2] = np.array([6, 5, 1], dtype=np.uint32)  # too short for 2 symbols
    data[3] = np.array([3, 2, 2], dtype=np.uint32)
    for zero in (False, True):
        builder, loss, ids = ctc_model(popart.ReductionType.NoReduction,
                                       zeroInfinity=zero)
        (got,) = infer(builder, [loss], dict(zip(ids, data)))
        _, want = torch_ctc(data, "none", zero_infinity=zero)
        want = want.detach().numpy()
        assert np.isinf(want[2]) != zero and np.isinf(got[2]) != zero
        np.testing.assert_allclose(got[:2], want[:2], rtol=1e-5)
        if zero:
            assert got[2] == 0


def test_ctcloss_errors_name_the_op():
    builder = popart.Builder()
    lp = builder.addInputTensor(popart.TensorInfo("FLOAT", [T, N, C]))
    tg = builder.addInputTensor(popart.TensorInfo("INT32", [N + 1, S]))
    il = builder.addInputTensor(popart.TensorInfo("UINT32", [N]))
    tl = builder.addInputTensor(popart.TensorInfo("UINT32", [N]))
    with pytest.raises(popart.popart_exception, match="Ctc: outDataType"):
        builder.aiGraphcore.ctcloss([lp, tg, il, tl], outDataType="INT32")
    with pytest.raises(popart.popart_exception, match="Ctc takes 4 inputs"):
        builder.aiGraphcore.ctcloss([lp, tg, il])
    loss = builder.aiGraphcore.ctcloss([lp, tg, il, tl])
    builder.addOutputTensor(loss)
    with pytest.raises(popart.popart_exception, match="Ctc.*targets"):
        popart.InferenceSession(builder.getModelProto(),
                                popart.DataFlow(1, [loss]), device())
    builder = popart.Builder()
    lp = builder.addInputTensor(popart.TensorInfo("FLOAT", [T, N, C]))
    tg = builder.addInputTensor(popart.TensorInfo("INT32", [N, S]))
    il = builder.addInputTensor(popart.TensorInfo("UINT32", [N]))
    tl = builder.addInputTensor(popart.TensorInfo("UINT32", [N]))
    loss = builder.aiGraphcore.ctcloss([lp, tg, il, tl], blank=C)
    builder.addOutputTensor(loss)
    with pytest.raises(popart.popart_exception, match="Ctc.*blank 5"):
        popart.InferenceSession(builder.getModelProto(),
                                popart.DataFlow(1, [loss]), device())


# CTC beam search decoding


def exact_labellings(log_probs, length, blank):
    """Every labelling's log probability: the sum over all alignments of
    the first `length` steps (repeats merged, then blanks removed)."""
    probs = np.exp(log_probs[:length].astype(np.float64))
    total = {}
    for path in itertools.product(range(probs.shape[1]), repeat=length):
        p = np.prod([probs[t, c] for t, c in enumerate(path)])
        label = tuple(c for i, c in enumerate(path)
                      if c != blank and (i == 0 or path[i - 1] != c))
        total[label] = total.get(label, 0.0) + p
    return sorted(((np.log(p), label) for label, p in total.items()),
                  key=lambda x: -x[0])


def test_ctcbeamsearchdecoder_matches_exhaustive_search():
    # A beam wider than the number of labellings keeps them all: prefix
    # beam search is then exact.
    t_max, batch, classes, top = 4, 3, 3, 3
    rng = np.random.default_rng(4)
    logits = rng.normal(scale=2.0, size=(t_max, batch, classes))
    log_probs = (logits - np.log(np.exp(logits).sum(-1, keepdims=True)))
    log_probs = log_probs.astype(np.float32)
    lengths = np.array([4, 3, 2], dtype=np.uint32)
    builder = popart.Builder()
    lp = builder.addInputTensor(popart.TensorInfo("FLOAT",
                                                  [t_max, batch, classes]))
    dl = builder.addInputTensor(popart.TensorInfo("UINT32", [batch]))
    outs = builder.aiGraphcore.ctcbeamsearchdecoder([lp, dl], blank=1,
                                                    beam_width=64,
                                                    top_paths=top)
    probs, label_lengths, labels = infer(builder, outs,
                                         {lp: log_probs, dl: lengths})
    assert probs.shape == (batch, top) and labels.shape == (batch, top, t_max)
    for b in range(batch):
        want = exact_labellings(log_probs[:, b], lengths[b], blank=1)
        for p in range(top):
            want_prob, want_label = want[p]
            np.testing.assert_allclose(probs[b, p], want_prob, rtol=1e-4)
            assert label_lengths[b, p] == len(want_label)
            assert tuple(labels[b, p, :len(want_label)]) == want_label
            assert not labels[b, p, len(want_label):].any()


def test_ctcbeamsearchdecoder_errors_name_the_op():
    builder = popart.Builder()
    lp = builder.addInputTensor(popart.TensorInfo("FLOAT", [4, 2, 3]))
    dl = builder.addInputTensor(popart.TensorInfo("INT32", [2]))
    outs = builder.aiGraphcore.ctcbeamsearchdecoder([lp, dl])
    with pytest.raises(popart.popart_exception,
                       match="CtcBeamSearchDecoder.*UINT32"):
        infer(builder, outs, {})
    builder = popart.Builder()
    lp = builder.addInputTensor(popart.TensorInfo("FLOAT", [4, 2, 3]))
    dl = builder.addInputTensor(popart.TensorInfo("UINT32", [2]))
    outs = builder.aiGraphcore.ctcbeamsearchdecoder([lp, dl], beam_width=2,
                                                    top_paths=3)
    with pytest.raises(popart.popart_exception,
                       match="CtcBeamSearchDecoder.*top_paths 3"):
        infer(builder, outs, {})


# The Graphcore LSTM

# popnn's gate order (forget, input, candidate, output) in torch's
# (input, forget, candidate, output) rows.
TORCH_GATE = [1, 0, 2, 3]


def lstm_weights(torch_lstm, hidden):
    """torch.nn.LSTM's parameters as the Graphcore LSTM takes them:
    weights [4, input + hidden, hidden], biases [4, hidden]."""
    w_ih = torch_lstm.weight_ih_l0.detach().numpy()
    w_hh = torch_lstm.weight_hh_l0.detach().numpy()
    b = (torch_lstm.bias_ih_l0 + torch_lstm.bias_hh_l0).detach().numpy()
    rows = [slice(g * hidden, (g + 1) * hidden) for g in TORCH_GATE]
    weights = np.stack([np.concatenate([w_ih[r].T, w_hh[r].T]) for r in rows])
    biases = np.stack([b[r] for r in rows])
    return weights.astype(np.float32), biases.astype(np.float32)


def torch_gate_grads(grad, hidden):
    """A gradient in torch's [4 * hidden, ...] rows, as [4, hidden, ...]
    in popnn's gate order."""
    return np.stack([grad[g * hidden:(g + 1) * hidden] for g in TORCH_GATE])


@pytest.mark.parametrize("full_sequence", [1, 0])
def test_lstm_forward_and_gradients_match_torch(full_sequence):
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    seq, batch, inputs, hidden = 4, 2, 3, 5
    ref = torch.nn.LSTM(inputs, hidden)
    weights, biases = lstm_weights(ref, hidden)
    rng = np.random.default_rng(6)
    x = rng.normal(size=(seq, batch, inputs)).astype(np.float32)
    state = rng.normal(size=(2, batch, hidden)).astype(np.float32)
    out_shape = [seq, batch, hidden] if full_sequence else [batch, hidden]
    r = rng.normal(size=out_shape).astype(np.float32)
    rc = rng.normal(size=(batch, hidden)).astype(np.float32)

    builder = popart.Builder()
    gc = builder.aiGraphcore
    ix = builder.addInputTensor(popart.TensorInfo("FLOAT", [seq, batch, inputs]))
    iw = builder.addInputTensor(popart.TensorInfo("FLOAT", list(weights.shape)))
    ib = builder.addInputTensor(popart.TensorInfo("FLOAT", [4, hidden]))
    iS = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, batch, hidden]))
    ir = builder.addInputTensor(popart.TensorInfo("FLOAT", out_shape))
    irc = builder.addInputTensor(popart.TensorInfo("FLOAT", [batch, hidden]))
    out, cell = gc.lstm([ix, iw, ib, iS], outputFullSequence=full_sequence)
    assert builder.getTensorShape(out) == out_shape
    # loss = sum(out * r) + sum(cell * rc)
    loss = gc.identityloss([builder.aiOnnx.add([
        builder.aiOnnx.reducesum([builder.aiOnnx.mul([out, ir])], keepdims=0),
        builder.aiOnnx.reducesum([builder.aiOnnx.mul([cell, irc])],
                                 keepdims=0)])],
                           reduction=popart.ReductionType.Sum)
    got = train(builder, loss, [out, cell], [ix, iw, ib, iS],
                {ix: x, iw: weights, ib: biases, iS: state, ir: r, irc: rc})

    tx = torch.tensor(x, requires_grad=True)
    h0 = torch.tensor(state[0:1], requires_grad=True)
    c0 = torch.tensor(state[1:2], requires_grad=True)
    y, (hn, cn) = ref(tx, (h0, c0))
    want_out = y if full_sequence else hn[0]
    (want_out * torch.tensor(r)).sum().add(
        (cn[0] * torch.tensor(rc)).sum()).backward()
    np.testing.assert_allclose(got[0], want_out.detach().numpy(), rtol=1e-4,
                               atol=1e-5)
    np.testing.assert_allclose(got[1], cn[0].detach().numpy(), rtol=1e-4,
                               atol=1e-5)
    np.testing.assert_allclose(got[2], tx.grad.numpy(), rtol=1e-4, atol=1e-5)
    w_ih_grad = torch_gate_grads(ref.weight_ih_l0.grad.numpy(), hidden)
    w_hh_grad = torch_gate_grads(ref.weight_hh_l0.grad.numpy(), hidden)
    want_w = np.concatenate([w_ih_grad.transpose(0, 2, 1),
                             w_hh_grad.transpose(0, 2, 1)], axis=1)
    np.testing.assert_allclose(got[3], want_w, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(
        got[4], torch_gate_grads(ref.bias_ih_l0.grad.numpy(), hidden),
        rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(
        got[5], np.concatenate([h0.grad.numpy(), c0.grad.numpy()]),
        rtol=1e-4, atol=1e-5)


def test_lstm_without_biases_and_state_starts_from_zeros():
    torch = pytest.importorskip("torch")
    torch.manual_seed(1)
    seq, batch, inputs, hidden = 3, 2, 4, 3
    ref = torch.nn.LSTM(inputs, hidden, bias=False)
    w_ih = ref.weight_ih_l0.detach().numpy()
    w_hh = ref.weight_hh_l0.detach().numpy()
    rows = [slice(g * hidden, (g + 1) * hidden) for g in TORCH_GATE]
    weights = np.stack([np.concatenate([w_ih[r].T, w_hh[r].T])
                        for r in rows]).astype(np.float32)
    x = np.random.default_rng(7).normal(size=(seq, batch, inputs))
    x = x.astype(np.float32)
    builder = popart.Builder()
    ix = builder.addInputTensor(popart.TensorInfo("FLOAT", [seq, batch, inputs]))
    iw = builder.addInputTensor(popart.TensorInfo("FLOAT", list(weights.shape)))
    out, cell = builder.aiGraphcore.lstm([ix, iw])
    got = infer(builder, [out, cell], {ix: x, iw: weights})
    y, (_, cn) = ref(torch.tensor(x))
    np.testing.assert_allclose(got[0], y.detach().numpy(), rtol=1e-4,
                               atol=1e-5)
    np.testing.assert_allclose(got[1], cn[0].detach().numpy(), rtol=1e-4,
                               atol=1e-5)


def test_lstm_errors_name_the_op():
    def session(weight_shape, with_lengths=False):
        builder = popart.Builder()
        ix = builder.addInputTensor(popart.TensorInfo("FLOAT", [3, 2, 4]))
        iw = builder.addInputTensor(popart.TensorInfo("FLOAT", weight_shape))
        args = [ix, iw]
        if with_lengths:
            ib = builder.addInputTensor(popart.TensorInfo("FLOAT", [4, 5]))
            iS = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 2, 5]))
            il = builder.addInputTensor(popart.TensorInfo("INT32", [2]))
            args += [ib, iS, il]
        out, _ = builder.aiGraphcore.lstm(args)
        builder.addOutputTensor(out)
        popart.InferenceSession(builder.getModelProto(),
                                popart.DataFlow(1, [out]), device())

    with pytest.raises(popart.popart_exception, match="LSTM.*weights"):
        session([4, 8, 5])
    with pytest.raises(popart.popart_exception,
                       match="LSTM.*sequence lengths"):
        session([4, 9, 5], with_lengths=True)


# Spline convolutions


def host_spline_basis(pseudo, kernel_size, is_open, degree):
    """Host loops over the edges, splines and dimensions."""
    def piece(v, k):
        if degree == 1:
            return 1 - v if k == 0 else v
        if degree == 2:
            return [0.5 * v * v - v + 0.5, -v * v + v + 0.5, 0.5 * v * v][k]
        return [(1 - v) ** 3 / 6, (3 * v ** 3 - 6 * v ** 2 + 4) / 6,
                (-3 * v ** 3 + 3 * v ** 2 + 3 * v + 1) / 6, v ** 3 / 6][k]

    edges, dims = pseudo.shape
    splines = (degree + 1) ** dims
    basis = np.zeros((edges, splines))
    index = np.zeros((edges, splines), dtype=np.int64)
    for e in range(edges):
        for s in range(splines):
            rest, b, wi, stride = s, 1.0, 0, 1
            for d in range(dims):
                k = rest % (degree + 1)
                rest //= degree + 1
                v = pseudo[e, d] * (kernel_size[d] - degree * is_open[d])
                wi += ((int(v) + k) % kernel_size[d]) * stride
                stride *= kernel_size[d]
                b *= piece(v - np.floor(v), k)
            basis[e, s] = b
            index[e, s] = wi
    return basis, index


def host_spline_weighting(x, weight, basis, index):
    edges, splines = basis.shape
    out = np.zeros((edges, weight.shape[2]))
    for e in range(edges):
        for s in range(splines):
            out[e] += basis[e, s] * (x[e] @ weight[index[e, s]])
    return out


@pytest.mark.parametrize("degree", [1, 2, 3])
def test_spline_basis_and_weighting_match_host_loops(degree):
    rng = np.random.default_rng(8 + degree)
    edges, dims, cin, cout = 6, 2, 3, 4
    pseudo = rng.uniform(size=(edges, dims)).astype(np.float32)
    kernel_size = np.array([5, 4], dtype=np.int32)
    is_open = np.array([1, 0], dtype=np.uint8)
    weights = int(np.prod(kernel_size))
    weight = rng.normal(size=(weights, cin, cout)).astype(np.float32)
    x = rng.normal(size=(edges, cin)).astype(np.float32)
    builder = popart.Builder()
    gc = builder.aiGraphcore
    ip = builder.addInputTensor(popart.TensorInfo("FLOAT", [edges, dims]))
    ik = builder.addInputTensor(popart.TensorInfo("INT32", [dims]))
    io = builder.addInputTensor(popart.TensorInfo("UINT8", [dims]))
    ix = builder.addInputTensor(popart.TensorInfo("FLOAT", [edges, cin]))
    iw = builder.addInputTensor(popart.TensorInfo("FLOAT",
                                                  [weights, cin, cout]))
    basis, index = gc.splinebasis([ip, ik, io], degree=degree)
    out = gc.splineweighting([ix, iw, basis, index])
    assert builder.getTensorShape(basis) == [edges, (degree + 1) ** dims]
    got = infer(builder, [basis, index, out],
                {ip: pseudo, ik: kernel_size, io: is_open, ix: x, iw: weight})
    want_basis, want_index = host_spline_basis(pseudo, kernel_size, is_open,
                                               degree)
    np.testing.assert_allclose(got[0], want_basis, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(got[1], want_index)
    np.testing.assert_allclose(
        got[2], host_spline_weighting(x, weight, want_basis, want_index),
        rtol=1e-4, atol=1e-5)


def test_spline_errors_name_the_op():
    builder = popart.Builder()
    ip = builder.addInputTensor(popart.TensorInfo("FLOAT", [4, 2]))
    ik = builder.addInputTensor(popart.TensorInfo("INT32", [2]))
    io = builder.addInputTensor(popart.TensorInfo("UINT8", [2]))
    basis, _ = builder.aiGraphcore.splinebasis([ip, ik, io], degree=4)
    with pytest.raises(popart.popart_exception, match="SplineBasis: degree 4"):
        infer(builder, [basis], {})
    builder = popart.Builder()
    ix = builder.addInputTensor(popart.TensorInfo("FLOAT", [4, 3]))
    iw = builder.addInputTensor(popart.TensorInfo("FLOAT", [6, 2, 5]))
    ib = builder.addInputTensor(popart.TensorInfo("FLOAT", [4, 4]))
    ii = builder.addInputTensor(popart.TensorInfo("INT32", [4, 4]))
    out = builder.aiGraphcore.splineweighting([ix, iw, ib, ii])
    with pytest.raises(popart.popart_exception, match="SplineWeighting.*weight"):
        infer(builder, [out], {})
