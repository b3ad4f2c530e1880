"""The upsampling layers: Upsample, UpsamplingNearest2D and UpsamplingBilinear2D take Paddle's
constructor arguments and run F.interpolate with them (whose values the op harness checks)."""
import inspect

import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
from static_testing import static_mode


def _input(shape, seed=0):
    return paddle.to_tensor(np.random.default_rng(seed).standard_normal(shape).astype("float32"))


def test_constructor_arguments_are_paddles():
    assert list(inspect.signature(paddle.nn.Upsample).parameters) == [
        "size", "scale_factor", "mode", "align_corners", "align_mode", "data_format",
        "recompute_scale_factor", "name"]
    for layer in (paddle.nn.UpsamplingNearest2D, paddle.nn.UpsamplingBilinear2D):
        signature = inspect.signature(layer)
        assert list(signature.parameters) == ["size", "scale_factor", "data_format", "name"]
        assert signature.parameters["data_format"].default == "NCHW"
    defaults = inspect.signature(paddle.nn.Upsample).parameters
    assert defaults["mode"].default == "nearest" and defaults["align_corners"].default is False
    assert defaults["align_mode"].default == 0 and defaults["data_format"].default is None


@pytest.mark.parametrize("shape,kwargs", [
    ((2, 3, 4, 5), {"size": [7, 3]}),
    ((2, 3, 4, 5), {"scale_factor": 2, "mode": "bilinear", "align_corners": True}),
    ((1, 2, 4, 5), {"scale_factor": [0.5, 1.5], "mode": "BICUBIC"}),
    ((1, 2, 6), {"size": [9], "mode": "linear", "align_mode": 1}),
    ((1, 2, 3, 4, 2), {"scale_factor": 2, "mode": "trilinear", "data_format": "NDHWC"}),
    ((1, 4, 5, 2), {"size": [3, 3], "mode": "area", "data_format": "NHWC"}),
])
def test_upsample_runs_interpolate(shape, kwargs):
    x = _input(shape)
    layer = paddle.nn.Upsample(**kwargs)
    assert not layer.parameters()
    expected = F.interpolate(x, **{**kwargs, "mode": kwargs.get("mode", "nearest").lower()})
    np.testing.assert_array_equal(layer(x).numpy(), expected.numpy())


def test_upsampling_nearest_2d():
    x = _input((2, 3, 2, 3))
    out = paddle.nn.UpsamplingNearest2D(scale_factor=2)(x)
    np.testing.assert_array_equal(out.numpy(), x.numpy().repeat(2, axis=2).repeat(2, axis=3))
    nhwc = paddle.nn.UpsamplingNearest2D(size=[4, 6], data_format="NHWC")(
        paddle.transpose(x, [0, 2, 3, 1]))
    np.testing.assert_array_equal(nhwc.numpy(), out.numpy().transpose(0, 2, 3, 1))


def test_upsampling_bilinear_2d_aligns_the_corners():
    x = _input((1, 2, 3, 4))
    out = paddle.nn.UpsamplingBilinear2D(size=[5, 7])(x)
    np.testing.assert_array_equal(
        out.numpy(), F.interpolate(x, size=[5, 7], mode="bilinear", align_corners=True).numpy())
    for i, j in ((0, 0), (0, -1), (-1, 0), (-1, -1)):
        np.testing.assert_allclose(out.numpy()[..., i, j], x.numpy()[..., i, j], rtol=1e-6)
    # Midway between two input rows with the corners aligned: their mean.
    np.testing.assert_allclose(out.numpy()[..., 1, 0], x.numpy()[..., :2, 0].mean(axis=-1),
                               rtol=1e-5)


def test_gradient_flows_through_the_layers():
    x = _input((1, 2, 3, 4))
    x.stop_gradient = False
    for layer in (paddle.nn.Upsample(scale_factor=2, mode="bilinear"),
                  paddle.nn.UpsamplingNearest2D(scale_factor=2),
                  paddle.nn.UpsamplingBilinear2D(size=[4, 5])):
        grad, = paddle.grad([layer(x).sum()], [x])
        assert grad.shape == x.shape
        # Nearest copies each pixel to 4; the linear modes spread weights that sum to the number
        # of output pixels.
        np.testing.assert_allclose(grad.numpy().sum(), layer(x).size, rtol=1e-5)


def test_layers_in_a_static_program():
    xv = np.random.default_rng(1).standard_normal((2, 3, 4, 4)).astype("float32")
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [None, 3, 4, 4], "float32")
            out = paddle.nn.UpsamplingBilinear2D(scale_factor=1.5)(x)
            near = paddle.nn.Upsample(size=[2, 8])(x)
        assert out.shape == [-1, 3, 6, 6] and near.shape == [-1, 3, 2, 8]
        got, got_near = paddle.static.Executor().run(main, feed={"x": xv},
                                                     fetch_list=[out, near])
    x = paddle.to_tensor(xv)
    np.testing.assert_allclose(got, paddle.nn.UpsamplingBilinear2D(scale_factor=1.5)(x).numpy(),
                               rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(got_near, paddle.nn.Upsample(size=[2, 8])(x).numpy())


def test_extra_repr():
    assert repr(paddle.nn.Upsample(scale_factor=2, mode="bilinear")) == (
        "Upsample(scale_factor=2, mode=bilinear, align_corners=False, align_mode=0, "
        "data_format=None)")
    assert repr(paddle.nn.UpsamplingNearest2D(size=[4, 4])) == (
        "UpsamplingNearest2D(size=[4, 4], data_format=NCHW)")
    assert "name=up" in repr(paddle.nn.UpsamplingBilinear2D(scale_factor=2, name="up"))


def test_bad_arguments_raise_when_called():
    with pytest.raises(ValueError, match="'data_format'"):
        paddle.nn.UpsamplingNearest2D(scale_factor=2)(_input((1, 2, 2, 2, 2)))
    with pytest.raises(ValueError, match="one of 'size' and 'scale_factor' must be given"):
        paddle.nn.Upsample()(_input((1, 2, 2, 2)))
    with pytest.raises(ValueError, match="mode 'trilinear' resamples 5-D"):
        paddle.nn.Upsample(scale_factor=2, mode="trilinear")(_input((1, 2, 2, 2)))
    with pytest.raises(ValueError, match="'mode' must be one of"):
        paddle.nn.Upsample(scale_factor=2, mode="lanczos")(_input((1, 2, 2, 2)))
