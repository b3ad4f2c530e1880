"""paddle.nn's recurrent layers: the cells, RNN / BiRNN, and SimpleRNN / LSTM / GRU on the fused
rnn op. Parameter names, shapes and initialisation as in PaddlePaddle; the fused networks agree
with the same cells run step by step (values and gradients, sequence_length included); dropout
between layers; static Programs; bad arguments. compat/test_rnn_against_paddlepaddle.py compares
with PaddlePaddle itself."""
import math

import numpy as np
import pytest

import paddle
from static_testing import static_mode


def randn(*shape, dtype="float64"):
    return paddle.to_tensor(np.random.default_rng(sum(shape)).standard_normal(shape).astype(dtype),
                            stop_gradient=False)


@pytest.fixture(autouse=True)
def float64_layers():
    previous = paddle.get_default_dtype()
    paddle.set_default_dtype("float64")
    yield
    paddle.set_default_dtype(previous)


NETWORKS = [
    (paddle.nn.LSTM, {}, 2),
    (paddle.nn.GRU, {}, 1),
    (paddle.nn.SimpleRNN, {}, 1),
    (paddle.nn.SimpleRNN, {"activation": "relu"}, 1),
]


def test_parameter_names_shapes_and_initialisation():
    lstm = paddle.nn.LSTM(4, 3, num_layers=2, direction="bidirect")
    shapes = {name: list(p.shape) for name, p in lstm.named_parameters()}
    assert shapes == {
        "weight_ih_l0": [12, 4], "weight_hh_l0": [12, 3], "bias_ih_l0": [12], "bias_hh_l0": [12],
        "weight_ih_l0_reverse": [12, 4], "weight_hh_l0_reverse": [12, 3],
        "bias_ih_l0_reverse": [12], "bias_hh_l0_reverse": [12],
        "weight_ih_l1": [12, 6], "weight_hh_l1": [12, 3], "bias_ih_l1": [12], "bias_hh_l1": [12],
        "weight_ih_l1_reverse": [12, 6], "weight_hh_l1_reverse": [12, 3],
        "bias_ih_l1_reverse": [12], "bias_hh_l1_reverse": [12]}
    # As in Paddle, state_dict also lists each cell's parameters under its sublayer.
    keys = list(lstm.state_dict())
    assert keys[:16] == list(shapes) and "0.cell_fw.weight_ih" in keys and len(keys) == 32
    gru = paddle.nn.GRU(5, 8)
    assert [list(p.shape) for p in gru.parameters()] == [[24, 5], [24, 8], [24], [24]]
    bound = 1 / math.sqrt(8)
    for p in gru.parameters():
        values = p.numpy()
        assert values.min() >= -bound and values.max() <= bound and values.std() > bound / 4
    assert paddle.nn.SimpleRNN(2, 7, direction="bidirectional").weight_hh_l0_reverse.shape == [7, 7]


@pytest.mark.parametrize("cls, kwargs, components", NETWORKS)
@pytest.mark.parametrize("direction", ["forward", "bidirect"])
@pytest.mark.parametrize("time_major", [False, True])
def test_fused_network_matches_its_cells_step_by_step(cls, kwargs, components, direction,
                                                      time_major):
    """The fused op against the same parameters run by the layer's RNN / BiRNN sublayers (the
    cells composed from matmul, split and activations), values and gradients."""
    net = cls(3, 4, num_layers=2, direction=direction, time_major=time_major, **kwargs)
    assert net.could_use_cudnn
    directions = 2 if direction == "bidirect" else 1
    x = randn(5, 2, 3) if time_major else randn(2, 5, 3)
    states = [randn(2 * directions, 2, 4) for _ in range(components)]
    initial = tuple(states) if components == 2 else states[0]
    out, final = net(x, initial)
    fused = [out] + (list(final) if components == 2 else [final])

    net.could_use_cudnn = False  # the layer's own step-by-step path
    x_copy = paddle.to_tensor(x.numpy(), stop_gradient=False)
    copies = [paddle.to_tensor(s.numpy(), stop_gradient=False) for s in states]
    out2, final2 = net(x_copy, tuple(copies) if components == 2 else copies[0])
    composed = [out2] + (list(final2) if components == 2 else [final2])
    for a, b in zip(fused, composed):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12)

    weights = [paddle.to_tensor(np.random.default_rng(k).standard_normal(t.shape))
               for k, t in enumerate(fused)]
    params = net.parameters()
    grads = paddle.grad([(t * w).sum() for t, w in zip(fused, weights)], [x] + states + params)
    grads2 = paddle.grad([(t * w).sum() for t, w in zip(composed, weights)],
                         [x_copy] + copies + params)
    for a, b in zip(grads, grads2):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("cls, kwargs, components", NETWORKS)
def test_sequence_length(cls, kwargs, components):
    """Steps past a sequence's length: the fused op outputs 0 there and keeps the state of the
    last valid step (Paddle's rnn op); the cells carry the state too, and their outputs agree
    at the valid steps."""
    net = cls(3, 4, direction="bidirect", **kwargs)
    x = randn(3, 6, 3)
    lengths = paddle.to_tensor(np.array([6, 2, 0], np.int64))
    out, final = net(x, sequence_length=lengths)
    net.could_use_cudnn = False
    out2, final2 = net(x, sequence_length=lengths)
    valid = (np.arange(6)[None, :] < lengths.numpy()[:, None])[:, :, None]
    np.testing.assert_allclose(out.numpy(), np.where(valid, out2.numpy(), 0), atol=1e-12)
    for a, b in zip(final if components == 2 else [final],
                    final2 if components == 2 else [final2]):
        np.testing.assert_allclose(a.numpy(), b.numpy(), atol=1e-12)
    # An empty sequence keeps its (zero) initial state; the reverse direction of a length-2
    # sequence starts at its second step.
    h = final[0] if components == 2 else final
    np.testing.assert_array_equal(h.numpy()[:, 2], 0)
    single = cls(3, 4, **kwargs)
    reverse = dict(net.named_parameters())
    for name, param in single.named_parameters():
        param.set_value(reverse[name + "_reverse"].numpy())
    _, reverse_final = single(paddle.flip(x[1:2, :2], [1]))
    h_reverse = reverse_final[0] if components == 2 else reverse_final
    np.testing.assert_allclose(h.numpy()[1, 1], h_reverse.numpy()[0, 0], atol=1e-12)


def test_cells_and_rnn_wrappers():
    cell = paddle.nn.LSTMCell(3, 5)
    x = randn(2, 3)
    h, (h2, c) = cell(x)
    assert h.shape == [2, 5] and c.shape == [2, 5] and h is h2
    assert cell.state_shape == ((5,), (5,))
    gru_cell = paddle.nn.GRUCell(3, 5)
    h_prev = randn(2, 5)
    h, _ = gru_cell(x, h_prev)
    # GRU: r, z, c with the reset gate applied after the hidden matmul.
    xg = x.numpy() @ gru_cell.weight_ih.numpy().T + gru_cell.bias_ih.numpy()
    hg = h_prev.numpy() @ gru_cell.weight_hh.numpy().T + gru_cell.bias_hh.numpy()
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    r, z = sig(xg[:, :5] + hg[:, :5]), sig(xg[:, 5:10] + hg[:, 5:10])
    cand = np.tanh(xg[:, 10:] + r * hg[:, 10:])
    np.testing.assert_allclose(h.numpy(), z * h_prev.numpy() + (1 - z) * cand, rtol=1e-12)
    rnn = paddle.nn.RNN(paddle.nn.SimpleRNNCell(3, 4, activation="relu"), is_reverse=True)
    out, final = rnn(randn(2, 5, 3))
    assert out.shape == [2, 5, 4] and final.shape == [2, 4]
    np.testing.assert_allclose(out.numpy()[:, 0], final.numpy())
    birnn = paddle.nn.BiRNN(paddle.nn.GRUCell(3, 4), paddle.nn.GRUCell(3, 4), time_major=True)
    out, (fw, bw) = birnn(randn(5, 2, 3))
    assert out.shape == [5, 2, 8]
    np.testing.assert_allclose(out.numpy()[-1, :, :4], fw.numpy())
    np.testing.assert_allclose(out.numpy()[0, :, 4:], bw.numpy())


def test_lstm_projection():
    lstm = paddle.nn.LSTM(3, 6, num_layers=2, proj_size=2)
    assert not lstm.could_use_cudnn
    # Paddle pairs its flat names with the parameters in order, so with the projection weights
    # in between the names after weight_hh_l0... shift, as here.
    assert [(n, p.shape) for n, p in lstm.named_parameters()] == [
        ("weight_ih_l0", [24, 3]), ("weight_hh_l0", [24, 2]), ("bias_ih_l0", [24]),
        ("bias_hh_l0", [24]), ("weight_ih_l1", [6, 2]), ("weight_hh_l1", [24, 2]),
        ("bias_ih_l1", [24, 2]), ("bias_hh_l1", [24]), ("1.cell.bias_hh", [24]),
        ("1.cell.weight_ho", [6, 2])]
    out, (h, c) = lstm(randn(2, 4, 3))
    assert out.shape == [2, 4, 2] and h.shape == [2, 2, 2] and c.shape == [2, 2, 6]


def test_dropout_between_layers():
    paddle.set_default_dtype("float32")
    lstm = paddle.nn.LSTM(4, 8, num_layers=3, dropout=0.5)
    x = randn(2, 5, 4, dtype="float32")
    lstm.eval()
    a, _ = lstm(x)
    b, _ = lstm(x)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    lstm.train()
    paddle.seed(3)
    c, _ = lstm(x)
    paddle.seed(3)
    d, (h, _) = lstm(x)
    np.testing.assert_array_equal(c.numpy(), d.numpy())  # reproducible after paddle.seed
    assert not np.allclose(a.numpy(), c.numpy())
    (d.sum() + h.sum()).backward()
    assert all(np.isfinite(p.grad.numpy()).all() for p in lstm.parameters())
    # Everything dropped: the last layer sees zeros, whatever the input.
    dropped = paddle.nn.GRU(4, 8, num_layers=2, dropout=1.0)
    out1, _ = dropped(x)
    out2, _ = dropped(randn(2, 5, 4, dtype="float32") * 3)
    np.testing.assert_allclose(out1.numpy(), out2.numpy(), rtol=1e-6)


def test_networks_and_rnn_in_a_static_program():
    paddle.set_default_dtype("float32")
    x_np = np.random.default_rng(0).standard_normal((2, 5, 3)).astype("float32")
    for build in (lambda: paddle.nn.LSTM(3, 4, num_layers=2, direction="bidirect"),
                  lambda: paddle.nn.RNN(paddle.nn.GRUCell(3, 4))):
        paddle.seed(7)
        eager = build()
        expected, _ = eager(paddle.to_tensor(x_np))
        with static_mode():
            main, startup = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, startup):
                x = paddle.static.data("x", [2, 5, 3], "float32")
                paddle.seed(7)
                layer = build()
                out, _ = layer(x)
                loss = out.mean()
                grads = paddle.static.gradients([loss], [x])
            exe = paddle.static.Executor(paddle.CPUPlace())
            exe.run(startup)
            scope = paddle.static.global_scope()
            for (_, value), (_, param) in zip(eager.named_parameters(),
                                              layer.named_parameters()):
                scope.find_var(param.name).get_tensor().set(value.numpy(), paddle.CPUPlace())
            got, dx = exe.run(main, feed={"x": x_np}, fetch_list=[out, grads[0]])
        np.testing.assert_allclose(got, expected.numpy(), rtol=1e-5, atol=1e-6)
        assert dx.shape == (2, 5, 3) and np.abs(dx).sum() > 0


def test_bad_arguments_raise_typed_errors():
    lstm = paddle.nn.LSTM(3, 4, num_layers=2)
    with pytest.raises(ValueError, match=r"rnn: argument 'x' .*input_size = 3.*\[5, 2, 6\]"):
        lstm(randn(2, 5, 6))
    with pytest.raises(ValueError, match=r"rnn: argument 'pre_state'.*\[2, 2, 4\]"):
        lstm(randn(2, 5, 3), (randn(1, 2, 4), randn(1, 2, 4)))
    with pytest.raises(ValueError, match=r"rnn: argument 'sequence_length'.*= 9.*\[0, 5\]"):
        lstm(randn(2, 5, 3), sequence_length=paddle.to_tensor([9, 2]))
    with pytest.raises(ValueError, match="direction should be forward or bidirect"):
        paddle.nn.GRU(3, 4, direction="backward")
    with pytest.raises(ValueError, match="Unknown activation"):
        paddle.nn.SimpleRNN(3, 4, activation="sigmoid")
    with pytest.raises(ValueError, match="hidden_size of GRUCell must be greater than 0"):
        paddle.nn.GRUCell(3, 0)
    with pytest.raises(ValueError, match="proj_size must be smaller than hidden_size"):
        paddle.nn.LSTMCell(3, 4, proj_size=4)


@pytest.mark.parametrize("slot, value, match", [
    ("Reserve", np.zeros(7, np.float32), "argument 'reserve' must hold"),
    ("DropoutState", np.zeros(5, np.uint8), "argument 'dropout_state' must be the uint8 masks"),
    ("State@GRAD", np.zeros((1, 2, 3), np.float64), "argument 'state_grad' \\[0\\] must be a float32"),
])
def test_rnn_grad_program_rejects_foreign_buffers(slot, value, match):
    """A program's rnn_grad whose Reserve, DropoutState or state gradient did not come from the
    forward op fails with a typed error before the kernel reads them."""
    rng = np.random.default_rng(0)
    arrays = {"x": rng.standard_normal((4, 2, 3)), "h0": rng.standard_normal((1, 2, 3)),
              "w_ih": rng.standard_normal((3, 3)), "w_hh": rng.standard_normal((3, 3)),
              "b_ih": rng.standard_normal(3), "b_hh": rng.standard_normal(3)}
    feed = {k: v.astype(np.float32) for k, v in arrays.items()}
    feed["foreign"] = value
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            v = {k: paddle.static.data(k, a.shape, a.dtype.name) for k, a in feed.items()}
            out, dropout_state, state, reserve = paddle._C_ops.rnn(
                v["x"], [v["h0"]], [v["w_ih"], v["w_hh"], v["b_ih"], v["b_hh"]], None, 0.0,
                False, 3, 3, 1, "RNN_TANH", 0, False)
            block = main.global_block()
            slots = {"Input": [v["x"]], "PreState": [v["h0"]],
                     "WeightList": [v["w_ih"], v["w_hh"], v["b_ih"], v["b_hh"]],
                     "DropoutState": [dropout_state], "Reserve": [reserve], "Out": [out],
                     "State": list(state), "Out@GRAD": [out], "State@GRAD": list(state)}
            slots[slot] = [v["foreign"]]
            dx = block.create_var(name="dx", shape=[4, 2, 3], dtype="float32")
            block.append_op("rnn_grad", inputs=slots, outputs={"Input@GRAD": [dx]},
                            attrs={"is_bidirec": False, "input_size": 3, "hidden_size": 3,
                                   "num_layers": 1, "mode": "RNN_TANH", "is_test": False})
        with pytest.raises(ValueError, match=match):
            paddle.static.Executor(paddle.CPUPlace()).run(main, feed=feed, fetch_list=[dx])


@pytest.mark.parametrize("cls", [paddle.nn.LSTM, paddle.nn.GRU, paddle.nn.SimpleRNN])
@pytest.mark.parametrize("time_major", [False, True])
def test_jit_save_for_any_batch_size(tmp_path, cls, time_major):
    """A network saved with a None batch dimension builds its zero initial states from the
    inputs at run time, and the loaded program gives the layer's outputs and final states for
    batches of several sizes."""
    paddle.seed(0)
    net = cls(3, 8, num_layers=2, direction="bidirect", time_major=time_major)
    net.eval()
    shape = [4, None, 3] if time_major else [None, 4, 3]
    paddle.jit.save(net, str(tmp_path / "rnn"),
                    input_spec=[paddle.static.InputSpec(shape, paddle.get_default_dtype(), "x")])
    loaded = paddle.jit.load(str(tmp_path / "rnn"))
    rng = np.random.default_rng(0)
    for batch in (1, 5):
        x_shape = [4, batch, 3] if time_major else [batch, 4, 3]
        x = paddle.to_tensor(rng.standard_normal(x_shape).astype(paddle.get_default_dtype()))
        out, states = net(x)
        expected = [out] + (list(states) if isinstance(states, tuple) else [states])
        got = loaded(x)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-6, atol=1e-6)
