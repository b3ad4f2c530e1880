"""The pooling layers: Paddle's constructor arguments and defaults, extra_repr, equality with the
functional forms, max_pool with return_mask undone by max_unpool, the argument forms the op
harness cannot express (None in an adaptive output_size, padding 'SAME' with return_mask), a
static program with pool2d saved and loaded as an inference model (Paddle's op type, slots and
attribute names), a Paddle-style program that leaves attributes out, and a small CNN that
learns."""
import inspect

import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
from pool_reference import np_adaptive_avg_pool, np_max_pool
from static_testing import static_mode


def tensor(array, stop_gradient=True):
    t = paddle.to_tensor(np.asarray(array, "float32"))
    t.stop_gradient = stop_gradient
    return t


# Paddle 3.3's constructor signatures (name, default) after `self`.
SIGNATURES = {
    "MaxPool1D": "kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, "
                 "name=None",
    "MaxPool2D": "kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, "
                 "data_format='NCHW', name=None",
    "MaxPool3D": "kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, "
                 "data_format='NCDHW', name=None",
    "AvgPool1D": "kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False, "
                 "name=None",
    "AvgPool2D": "kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, "
                 "divisor_override=None, data_format='NCHW', name=None",
    "AvgPool3D": "kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, "
                 "divisor_override=None, data_format='NCDHW', name=None",
    "AdaptiveAvgPool1D": "output_size, name=None",
    "AdaptiveAvgPool2D": "output_size, data_format='NCHW', name=None",
    "AdaptiveAvgPool3D": "output_size, data_format='NCDHW', name=None",
    "AdaptiveMaxPool1D": "output_size, return_mask=False, name=None",
    "AdaptiveMaxPool2D": "output_size, return_mask=False, name=None",
    "AdaptiveMaxPool3D": "output_size, return_mask=False, name=None",
    "MaxUnPool1D": "kernel_size, stride=None, padding=0, data_format='NCL', output_size=None, "
                   "name=None",
    "MaxUnPool2D": "kernel_size, stride=None, padding=0, data_format='NCHW', "
                   "output_size=None, name=None",
    "MaxUnPool3D": "kernel_size, stride=None, padding=0, data_format='NCDHW', "
                   "output_size=None, name=None",
    "LPPool1D": "norm_type, kernel_size, stride=None, padding=0, ceil_mode=False, "
                "data_format='NCL', name=None",
    "LPPool2D": "norm_type, kernel_size, stride=None, padding=0, ceil_mode=False, "
                "data_format='NCHW', name=None",
}


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_constructor_arguments_and_defaults(name):
    layer = getattr(paddle.nn, name)
    assert name in paddle.nn.__all__
    params = list(inspect.signature(layer.__init__).parameters.values())[1:]
    text = ", ".join(p.name if p.default is inspect.Parameter.empty else f"{p.name}={p.default!r}"
                     for p in params)
    assert text == SIGNATURES[name]
    assert not layer(*([2] * (2 if name.startswith("LP") else 1))).parameters()


def test_extra_repr():
    assert repr(paddle.nn.MaxPool2D(3, 2, 1)) == "MaxPool2D(kernel_size=3, stride=2, padding=1)"
    assert repr(paddle.nn.AvgPool1D(2)) == "AvgPool1D(kernel_size=2, stride=None, padding=0)"
    assert repr(paddle.nn.AdaptiveAvgPool2D([2, 3])) == "AdaptiveAvgPool2D(output_size=[2, 3])"
    assert repr(paddle.nn.AdaptiveMaxPool1D(4, True)) == (
        "AdaptiveMaxPool1D(output_size=4, return_mask=True)")
    assert repr(paddle.nn.MaxUnPool2D(2)) == "MaxUnPool2D(output_size=None)"
    assert repr(paddle.nn.LPPool2D(2, 3)) == (
        "LPPool2D(norm_type=2, kernel_size=3, stride=None, padding=0)")


@pytest.mark.parametrize("layer, functional, shape", [
    (paddle.nn.MaxPool1D(3, 2, 1), lambda x: F.max_pool1d(x, 3, 2, 1), (2, 3, 9)),
    (paddle.nn.MaxPool2D(3, 2, "SAME", data_format="NHWC"),
     lambda x: F.max_pool2d(x, 3, 2, "SAME", data_format="NHWC"), (2, 7, 6, 3)),
    (paddle.nn.MaxPool3D(2, ceil_mode=True), lambda x: F.max_pool3d(x, 2, ceil_mode=True),
     (1, 2, 5, 4, 3)),
    (paddle.nn.AvgPool1D(2, exclusive=False, padding=1),
     lambda x: F.avg_pool1d(x, 2, padding=1, exclusive=False), (2, 3, 9)),
    (paddle.nn.AvgPool2D(3, 2, 1, divisor_override=4),
     lambda x: F.avg_pool2d(x, 3, 2, 1, divisor_override=4), (2, 3, 7, 6)),
    (paddle.nn.AvgPool3D(2, data_format="NDHWC"), lambda x: F.avg_pool3d(x, 2, data_format="NDHWC"),
     (1, 4, 4, 4, 2)),
    (paddle.nn.AdaptiveAvgPool1D(4), lambda x: F.adaptive_avg_pool1d(x, 4), (2, 3, 9)),
    (paddle.nn.AdaptiveAvgPool2D(3), lambda x: F.adaptive_avg_pool2d(x, 3), (2, 3, 7, 6)),
    (paddle.nn.AdaptiveAvgPool3D([1, 2, 3]), lambda x: F.adaptive_avg_pool3d(x, [1, 2, 3]),
     (1, 2, 4, 4, 4)),
    (paddle.nn.AdaptiveMaxPool2D(3), lambda x: F.adaptive_max_pool2d(x, 3), (2, 3, 7, 6)),
    (paddle.nn.LPPool1D(2, 3, data_format="NLC"),
     lambda x: F.lp_pool1d(x, 2, 3, data_format="NLC"), (2, 9, 3)),
    (paddle.nn.LPPool2D(3, 2, 1), lambda x: F.lp_pool2d(x, 3, 2, 1), (2, 3, 7, 6)),
])
def test_layer_equals_functional(layer, functional, shape):
    x = tensor(np.random.default_rng(0).uniform(0.1, 1.0, shape))
    np.testing.assert_array_equal(layer(x).numpy(), functional(x).numpy())


@pytest.mark.parametrize("pool, unpool, shape", [
    (paddle.nn.MaxPool1D(2, return_mask=True), paddle.nn.MaxUnPool1D(2), (2, 3, 8)),
    (paddle.nn.MaxPool2D(2, return_mask=True), paddle.nn.MaxUnPool2D(2), (2, 3, 6, 4)),
    (paddle.nn.MaxPool3D(2, return_mask=True), paddle.nn.MaxUnPool3D(2), (1, 2, 4, 2, 6)),
    (paddle.nn.AdaptiveMaxPool2D(3, return_mask=True), paddle.nn.MaxUnPool2D(2), (1, 2, 6, 6)),
])
def test_return_mask_and_max_unpool_round_trip(pool, unpool, shape):
    """Unpooling puts each maximum back where it was and zeros elsewhere; the gradient of the
    round trip reaches exactly those positions."""
    x = tensor(np.random.default_rng(1).permutation(np.prod(shape)).reshape(shape),
               stop_gradient=False)
    out, mask = pool(x)
    assert mask.dtype == paddle.int32
    restored = unpool(out, mask)
    assert restored.shape == list(shape)
    kept = restored.numpy() != 0
    np.testing.assert_array_equal(restored.numpy()[kept], x.numpy()[kept])
    assert kept.sum() == out.size
    grad = paddle.grad([restored.sum()], [x])[0]
    np.testing.assert_array_equal(grad.numpy(), kept.astype("float32"))


def test_max_unpool_output_size_and_errors():
    x = tensor(np.random.rand(1, 1, 5, 5))
    out, mask = F.max_pool2d(x, 2, return_mask=True)
    assert F.max_unpool2d(out, mask, 2, output_size=[5, 5]).shape == [1, 1, 5, 5]
    with pytest.raises(ValueError, match="output_size"):
        F.max_unpool2d(out, mask, 2, output_size=[7, 7])
    with pytest.raises(ValueError, match="'indices' must have the shape"):
        F.max_unpool2d(out, mask[:, :, :1], 2)
    with pytest.raises(IndexError, match="indices"):
        F.max_unpool2d(out, mask + 100, 2)


def test_adaptive_output_size_none_keeps_the_input_size():
    x = np.random.default_rng(2).standard_normal((2, 3, 7, 5))
    got = F.adaptive_avg_pool2d(tensor(x), [3, None])
    assert got.shape == [2, 3, 3, 5]
    np.testing.assert_allclose(got.numpy(), np_adaptive_avg_pool(x, [3, 5]), rtol=1e-5,
                               atol=1e-6)
    assert F.adaptive_max_pool3d(tensor(np.zeros((1, 1, 4, 3, 2))), [None, 1, None]).shape == [
        1, 1, 4, 1, 2]


def test_same_padding_with_return_mask():
    """Paddle drops 'SAME' for return_mask; here the mask comes from the same windows as the
    values."""
    x = np.random.default_rng(3).standard_normal((1, 2, 5, 6))
    out, mask = F.max_pool2d(tensor(x), [2, 3], 2, "SAME", return_mask=True)
    expected, expected_mask = np_max_pool(x, [2, 3], 2, "SAME", return_mask=True)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)
    np.testing.assert_array_equal(mask.numpy(), expected_mask)


def test_static_program_saves_pool2d_as_paddle_does(tmp_path):
    """An inference model with max and global average pooling holds Paddle's pool2d op (slots X
    and Out, attributes ksize, pooling_type, ...), and runs the same after loading."""
    rng = np.random.default_rng(4)
    xs = rng.standard_normal((4, 3, 8, 8)).astype("float32")
    prefix = str(tmp_path / "pool")
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 3, 8, 8], "float32")
            h = paddle.nn.Conv2D(3, 4, 3, padding=1)(x)
            h = paddle.nn.MaxPool2D(3, 2, 1)(h)
            out = paddle.nn.AdaptiveAvgPool2D(1)(h)
        exe = paddle.static.Executor()
        exe.run(startup)
        expected, = exe.run(main, feed={"x": xs}, fetch_list=[out])
        paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
            pools = [op for op in program.global_block().ops if op.type == "pool2d"]
            assert len(pools) == 2
            for op in pools:
                assert op.input("X") and op.output("Out")
                assert op.has_attr("ksize") and not op.has_attr("kernel_size")
            assert [op.attr("pooling_type") for op in pools] == ["max", "avg"]
            assert pools[0].attr("ksize") == [3, 3] and pools[0].attr("paddings") == [1, 1]
            assert pools[1].attr("adaptive")
            got, = exe.run(program, feed={feeds[0]: xs}, fetch_list=fetches)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)
    assert expected.shape == (4, 4, 1, 1)


def test_program_leaving_out_attributes_takes_paddle_defaults():
    """Paddle's static adaptive_avg_pool2d writes only pooling_type, ksize and adaptive (and old
    programs say data_format 'AnyLayout'): the rest take the legacy defaults."""
    x_np = np.random.default_rng(5).standard_normal((1, 2, 6, 4)).astype("float32")
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [1, 2, 6, 4], "float32")
            block = main.global_block()
            out = block.create_var(name="pooled", shape=[1, 2, 3, 2], dtype="float32")
            block.append_op("pool2d", inputs={"X": [x]}, outputs={"Out": [out]},
                            attrs={"pooling_type": "avg", "ksize": [3, 2], "adaptive": True,
                                   "data_format": "AnyLayout"})
        got, = paddle.static.Executor().run(main, feed={"x": x_np}, fetch_list=[out])
    np.testing.assert_allclose(got, np_adaptive_avg_pool(x_np.astype("float64"), [3, 2]),
                               rtol=1e-5, atol=1e-6)


def test_unpool_program_uses_paddle_attribute_names():
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [1, 1, 4, 4], "float32")
            out, mask = F.max_pool2d(x, 2, return_mask=True)
            F.max_unpool2d(out, mask, 2)
        ops = {op.type: op for op in main.global_block().ops}
    assert ops["max_pool2d_with_index"].output("Mask") and ops["max_pool2d_with_index"].has_attr(
        "ksize")
    unpool = ops["unpool"]
    assert unpool.input("X") and unpool.input("Indices") and unpool.output("Out")
    assert unpool.attr("paddings") == [0, 0] and unpool.attr("unpooling_type") == "max"
    assert unpool.attr("ksize") == [2, 2] and unpool.attr("output_size") == [4, 4]


def test_small_cnn_with_pooling_learns():
    paddle.seed(2)
    rng = np.random.default_rng(6)
    images = rng.standard_normal((32, 1, 8, 8)).astype("float32") * 0.1
    labels = rng.integers(0, 2, (32, 1))
    for i, label in enumerate(labels[:, 0]):
        images[i, 0, :4, :4] += 1.0 if label == 0 else 0.0
        images[i, 0, 4:, 4:] += 1.0 if label == 1 else 0.0
    model = paddle.nn.Sequential(
        paddle.nn.Conv2D(1, 4, 3, padding=1), paddle.nn.ReLU(), paddle.nn.MaxPool2D(2),
        paddle.nn.Conv2D(4, 4, 3, padding=1), paddle.nn.ReLU(), paddle.nn.AvgPool2D(2),
        paddle.nn.AdaptiveMaxPool2D(2), paddle.nn.Flatten(), paddle.nn.Linear(16, 2))
    opt = paddle.optimizer.Adam(0.02, parameters=model.parameters())
    x, y = tensor(images), paddle.to_tensor(labels)
    for _ in range(40):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
    assert (model(x).numpy().argmax(1) == labels[:, 0]).mean() == 1.0
