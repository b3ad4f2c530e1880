"""paddle.static.nn.conv2d, conv3d and their transposes: parameters named, shaped and
initialised like Paddle's, results against NumPy, training with minimize, and bad input."""
import numpy as np
import pytest

import paddle
from conv_reference import np_conv, np_conv_transpose
from static_testing import new_programs, scope_value, static_mode

EXECUTOR = paddle.static.Executor(paddle.CPUPlace())
RNG = np.random.default_rng(5)


def test_layers_name_shape_and_compute_like_paddle():
    xv = RNG.standard_normal((2, 4, 6, 6)).astype("float32")
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 4, 6, 6])
            conv = paddle.static.nn.conv2d(x, 8, 3, padding=1, groups=2, act="relu")
            up = paddle.static.nn.conv2d_transpose(x, 3, output_size=[13, 13], stride=2)
            volume = paddle.static.nn.conv3d(paddle.unsqueeze(x, [2]), 2, [1, 3, 3],
                                             bias_attr=False)
        shapes = {p.name: list(p.shape) for p in main.all_parameters()}
        assert shapes == {"conv2d_0.w_0": [8, 2, 3, 3], "conv2d_0.b_0": [8],
                          "conv2d_transpose_0.w_0": [4, 3, 3, 3],
                          "conv2d_transpose_0.b_0": [3], "conv3d_0.w_0": [2, 4, 1, 3, 3]}
        EXECUTOR.run(startup)
        weights = {name: scope_value(name) for name in shapes}
        got = EXECUTOR.run(main, feed={"x": xv}, fetch_list=[conv, up, volume])
    std = np.sqrt(2.0 / (9 * 4))
    assert abs(weights["conv2d_0.w_0"].std() / std - 1) < 0.35
    np.testing.assert_array_equal(weights["conv2d_0.b_0"], 0)
    np.testing.assert_allclose(
        got[0], np.maximum(np_conv(xv, weights["conv2d_0.w_0"], 1, 1, 1, 2), 0), atol=1e-4)
    # The filter is derived from output_size: (13 - 5 * 2 - 1) + 1 = 3.
    np.testing.assert_allclose(
        got[1], np_conv_transpose(xv, weights["conv2d_transpose_0.w_0"], 2), atol=1e-4)
    np.testing.assert_allclose(
        got[2], np_conv(xv[:, :, None], weights["conv3d_0.w_0"]), atol=1e-4)


def test_conv_layer_trains_with_minimize():
    xv = RNG.standard_normal((4, 1, 5, 5)).astype("float32")
    yv = RNG.standard_normal((4, 2, 5, 5)).astype("float32")
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 1, 5, 5])
            y = paddle.static.data("y", [None, 2, 5, 5])
            loss = paddle.nn.functional.mse_loss(paddle.static.nn.conv2d(x, 2, 3, padding=1), y)
            paddle.optimizer.SGD(0.1).minimize(loss)
        EXECUTOR.run(startup)
        losses = [float(EXECUTOR.run(main, feed={"x": xv, "y": yv}, fetch_list=[loss])[0])
                  for _ in range(20)]
    assert losses[-1] < 0.7 * losses[0]


def test_bad_arguments_raise_typed_errors():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 4, 6, 6])
            with pytest.raises(ValueError, match="'groups'"):
                paddle.static.nn.conv2d(x, 8, 3, groups=3)
            with pytest.raises(ValueError, match="cannot both be None"):
                paddle.static.nn.conv2d_transpose(x, 3)
            with pytest.raises(TypeError, match="static Variable"):
                paddle.static.nn.conv2d(np.zeros((1, 4, 6, 6)), 8, 3)
    with pytest.raises(AssertionError, match="static graph mode"):
        paddle.static.nn.conv2d(paddle.zeros([1, 4, 6, 6]), 8, 3)
