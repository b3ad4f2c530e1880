"""The Conv layers: Paddle's parameter names, shapes and initialisation, the functional forms
they call, conv1d over a unit height, the transposed layers' output_size, a static program with
a convolution trained and saved as an inference model (Paddle's conv2d op type and slots), and a
small CNN that learns."""
import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
from conv_reference import np_conv, np_conv_transpose
from static_testing import static_mode


def tensor(array, stop_gradient=True):
    t = paddle.to_tensor(np.asarray(array, "float32"))
    t.stop_gradient = stop_gradient
    return t


@pytest.mark.parametrize("layer, weight_shape", [
    (lambda: paddle.nn.Conv1D(4, 6, 3, groups=2), [6, 2, 3]),
    (lambda: paddle.nn.Conv2D(4, 6, (3, 2)), [6, 4, 3, 2]),
    (lambda: paddle.nn.Conv3D(2, 3, 2), [3, 2, 2, 2, 2]),
    (lambda: paddle.nn.Conv1DTranspose(4, 6, 3, groups=2), [4, 3, 3]),
    (lambda: paddle.nn.Conv2DTranspose(4, 6, 3), [4, 6, 3, 3]),
    (lambda: paddle.nn.Conv3DTranspose(2, 3, 2), [2, 3, 2, 2, 2]),
])
def test_parameter_names_and_shapes(layer, weight_shape):
    conv = layer()
    assert list(conv.weight.shape) == weight_shape
    assert list(conv.bias.shape) == [weight_shape[0] if "Transpose" not in type(conv).__name__
                                     else conv._out_channels]
    assert list(conv.state_dict()) == ["weight", "bias"]
    np.testing.assert_array_equal(conv.bias.numpy(), 0)


def test_conv_weight_starts_normal_with_kaiming_std():
    paddle.seed(0)
    conv = paddle.nn.Conv2D(64, 128, 3)
    std = np.sqrt(2.0 / (64 * 9))
    values = conv.weight.numpy()
    assert abs(values.mean()) < 0.05 * std
    assert abs(values.std() / std - 1) < 0.02


def test_bias_attr_false_leaves_out_the_bias():
    conv = paddle.nn.Conv2D(2, 3, 3, bias_attr=False)
    assert conv.bias is None
    x = tensor(np.random.rand(1, 2, 4, 4))
    np.testing.assert_allclose(conv(x).numpy(), np_conv(x.numpy(), conv.weight.numpy()),
                               rtol=1e-5, atol=1e-5)


def test_layer_equals_functional_with_bias():
    conv = paddle.nn.Conv2D(3, 4, 3, stride=2, padding=1, data_format="NHWC")
    x = tensor(np.random.rand(2, 5, 5, 3))
    expected = F.conv2d(x, conv.weight, conv.bias, stride=2, padding=1, data_format="NHWC")
    np.testing.assert_array_equal(conv(x).numpy(), expected.numpy())
    bias = np.random.rand(4).astype("float32")
    conv.bias.set_value(bias)
    reference = np_conv(x.numpy(), conv.weight.numpy(), 2, 1, channel_last=True) + bias
    np.testing.assert_allclose(conv(x).numpy(), reference, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("data_format", ["NCL", "NLC"])
def test_conv1d_is_conv2d_over_a_unit_height(data_format):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 4, 9)).astype("float32")
    w = rng.standard_normal((6, 2, 3)).astype("float32")
    b = rng.standard_normal(6).astype("float32")
    reference = np_conv(x, w, 2, [1, 2], 2, 2) + b[:, None]
    if data_format == "NLC":
        x, reference = x.transpose(0, 2, 1), reference.transpose(0, 2, 1)
    got = F.conv1d(tensor(x), tensor(w), tensor(b), stride=2, padding=[1, 2], dilation=2,
                   groups=2, data_format=data_format)
    np.testing.assert_allclose(got.numpy(), reference, rtol=1e-5, atol=1e-5)


def test_conv1d_transpose_output_size():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 2, 4)).astype("float32")
    w = rng.standard_normal((2, 3, 3)).astype("float32")
    got = F.conv1d_transpose(tensor(x), tensor(w), stride=2, padding=1, output_size=8)
    assert got.shape == [1, 3, 8]
    np.testing.assert_allclose(got.numpy(), np_conv_transpose(x, w, 2, 1, output_size=8),
                               rtol=1e-5, atol=1e-5)


def test_transposed_layer_takes_output_size_in_forward():
    conv = paddle.nn.Conv2DTranspose(2, 3, 3, stride=2, padding=1)
    x = tensor(np.random.rand(1, 2, 4, 4))
    assert conv(x).shape == [1, 3, 7, 7]
    assert conv(x, output_size=[8, 8]).shape == [1, 3, 8, 8]
    with pytest.raises(ValueError, match="output_size"):
        conv(x, output_size=[10, 10])


def test_padding_pairs_with_batch_and_channel_dims():
    x = tensor(np.random.rand(1, 2, 5, 5))
    w = tensor(np.random.rand(3, 2, 3, 3))
    pairs = F.conv2d(x, w, padding=[[0, 0], [0, 0], [1, 2], [0, 1]])
    flat = F.conv2d(x, w, padding=[1, 2, 0, 1])
    np.testing.assert_array_equal(pairs.numpy(), flat.numpy())
    with pytest.raises(ValueError, match="batch or channel"):
        F.conv2d(x, w, padding=[[0, 0], [1, 1], [1, 2], [0, 1]])


def test_constructor_errors_name_the_argument():
    with pytest.raises(ValueError, match="divisible by groups"):
        paddle.nn.Conv2D(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="padding_mode"):
        paddle.nn.Conv2D(3, 4, 3, padding_mode="mirror")
    with pytest.raises(ValueError, match="kernel_size"):
        paddle.nn.Conv2D(3, 4, [3, 3, 3])


def test_extra_repr():
    conv = paddle.nn.Conv2D(3, 8, 3, stride=2, padding=1, groups=1)
    assert repr(conv) == "Conv2D(3, 8, kernel_size=[3, 3], stride=[2, 2], padding=1)"


def test_static_program_trains_and_serves_conv(tmp_path):
    """A program with conv2d, its gradient ops and Adam; the inference model it saves holds
    Paddle's conv2d op type with the Input/Filter/Output slots."""
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((8, 1, 6, 6)).astype("float32")
    ys = rng.standard_normal((8, 4, 3, 3)).astype("float32")
    prefix = str(tmp_path / "conv")
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 1, 6, 6], "float32")
            y = paddle.static.data("y", [None, 4, 3, 3], "float32")
            out = paddle.nn.Conv2D(1, 4, 3, stride=2, padding=1)(x)
            loss = F.mse_loss(out, y)
            paddle.optimizer.Adam(0.05).minimize(loss)
        exe = paddle.static.Executor()
        exe.run(startup)
        losses = [float(exe.run(main, feed={"x": xs, "y": ys}, fetch_list=[loss])[0])
                  for _ in range(30)]
        assert losses[-1] < 0.8 * losses[0]
        expected, = exe.run(main.clone(for_test=True), feed={"x": xs}, fetch_list=[out])
        paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
        types = [op.type for op in main.global_block().ops]
        assert "conv2d" in types and "conv2d_grad" in types
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
            conv_ops = [op for op in program.global_block().ops if op.type == "conv2d"]
            assert len(conv_ops) == 1
            assert conv_ops[0].input("Input") and conv_ops[0].input("Filter")
            assert conv_ops[0].output("Output")
            got, = exe.run(program, feed={feeds[0]: xs}, fetch_list=fetches)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)


def test_small_cnn_learns():
    paddle.seed(1)
    rng = np.random.default_rng(1)
    # Two classes told apart by where a bright square sits.
    images = rng.standard_normal((32, 1, 8, 8)).astype("float32") * 0.1
    labels = rng.integers(0, 2, (32, 1))
    for i, label in enumerate(labels[:, 0]):
        images[i, 0, :4, :4] += 1.0 if label == 0 else 0.0
        images[i, 0, 4:, 4:] += 1.0 if label == 1 else 0.0
    model = paddle.nn.Sequential(
        paddle.nn.Conv2D(1, 4, 3, padding=1), paddle.nn.ReLU(),
        paddle.nn.Conv2D(4, 4, 3, stride=2, padding=1, groups=2), paddle.nn.ReLU(),
        paddle.nn.Flatten(), paddle.nn.Linear(64, 2))
    opt = paddle.optimizer.Adam(0.02, parameters=model.parameters())
    x, y = tensor(images), paddle.to_tensor(labels)
    for _ in range(40):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
    accuracy = (model(x).numpy().argmax(1) == labels[:, 0]).mean()
    assert accuracy == 1.0


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_padding_mode_pads_before_convolving(mode):
    conv = paddle.nn.Conv2D(2, 3, 3, padding=[1, 2], padding_mode=mode)
    x = tensor(np.random.rand(1, 2, 5, 6))
    padded = np.pad(x.numpy(), [(0, 0), (0, 0), (1, 1), (2, 2)],
                    mode={"reflect": "reflect", "replicate": "edge", "circular": "wrap"}[mode])
    reference = np_conv(padded, conv.weight.numpy()) + conv.bias.numpy()[:, None, None]
    np.testing.assert_allclose(conv(x).numpy(), reference, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("api, w_shape", [(F.conv2d, (4, 3, 3, 3)),
                                          (F.conv2d_transpose, (3, 4, 3, 3))])
def test_filter_gradient_alone_equals_the_full_backward(api, w_shape):
    """The backward of a convolution whose input needs no gradient (a network's first layer)
    computes the filter's alone; it must equal the filter gradient of the full backward."""
    rng = np.random.default_rng(3)
    x_np = rng.standard_normal((2, 3, 6, 6)).astype("float32")
    w_np = rng.standard_normal(w_shape).astype("float32")
    grads = []
    for x_needs_grad in (True, False):
        x, w = tensor(x_np, not x_needs_grad), tensor(w_np, False)
        (api(x, w, padding=1) ** 2).sum().backward()
        assert (x.grad is not None) == x_needs_grad
        grads.append(w.grad.numpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-5, atol=1e-5)


def test_program_written_as_paddle_writes_conv_ops_runs():
    """A conv2d / depthwise_conv2d / conv2d_transpose op as Paddle's exported programs hold it:
    Paddle's extra attributes (use_cudnn, use_mkldnn, workspace_size_MB, ...) and the
    'AnyLayout' data format of older programs, with 4-value paddings."""
    rng = np.random.default_rng(7)
    x_np = rng.standard_normal((1, 4, 6, 6)).astype("float32")
    w_np = rng.standard_normal((4, 1, 3, 3)).astype("float32")
    t_np = rng.standard_normal((4, 2, 2, 2)).astype("float32")
    extra = {"use_cudnn": True, "use_mkldnn": False, "workspace_size_MB": 512,
             "exhaustive_search": False, "fuse_relu_before_depthwise_conv": False,
             "data_format": "AnyLayout", "padding_algorithm": "EXPLICIT", "dilations": [1, 1]}
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [1, 4, 6, 6], "float32")
            w = paddle.static.data("w", [4, 1, 3, 3], "float32")
            t = paddle.static.data("t", [4, 2, 2, 2], "float32")
            block = main.global_block()
            depthwise = block.create_var(name="dw", shape=[1, 4, 6, 6], dtype="float32")
            block.append_op("depthwise_conv2d", inputs={"Input": [x], "Filter": [w]},
                            outputs={"Output": [depthwise]},
                            attrs=dict(extra, strides=[1, 1], paddings=[1, 1, 1, 1], groups=4))
            up = block.create_var(name="up", shape=[1, 2, 12, 12], dtype="float32")
            block.append_op("conv2d_transpose", inputs={"Input": [depthwise], "Filter": [t]},
                            outputs={"Output": [up]},
                            attrs=dict(extra, strides=[2, 2], paddings=[0, 0], groups=1,
                                       output_size=[], output_padding=[]))
        got_dw, got_up = paddle.static.Executor().run(
            main, feed={"x": x_np, "w": w_np, "t": t_np}, fetch_list=[depthwise, up])
    np.testing.assert_allclose(got_dw, np_conv(x_np, w_np, 1, 1, 1, 4), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(got_up, np_conv_transpose(got_dw, t_np, 2), rtol=1e-4, atol=1e-4)
