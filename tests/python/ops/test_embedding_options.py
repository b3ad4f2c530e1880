"""Embedding's max_norm, norm_type and scale_grad_by_freq (F.embedding and nn.Embedding), and
nn.Embedding's _weight, _freeze and dtype, against values PaddlePaddle 3.3.1 gives."""
import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
from static_testing import new_programs, static_mode

IDS = [[0, 2], [2, 3]]


def weight_values():
    return np.arange(12, dtype="float32").reshape(4, 3) / 3


# PaddlePaddle 3.3.1: F.embedding(x, w, max_norm=1.5, scale_grad_by_freq=True) on IDS; rows 2 and
# 3 (norms 2.5 and 3.5) are scaled to norm 1.5 in place, rows 0 and 1 are not (row 1 is not
# looked up); row 2 occurs twice, so its gradient of sum() is 2 / 2.
RENORMED = np.array([[0.0, 0.33333334, 0.6666667], [1.0, 1.3333334, 1.6666666],
                     [0.73730874, 0.8601935, 0.98307836], [0.77683765, 0.8631529, 0.94946826]])
FREQUENCY_GRAD = np.array([[1.0] * 3, [0.0] * 3, [1.0] * 3, [1.0] * 3])


def test_max_norm_renormalises_the_rows_looked_up_in_place_and_scale_grad_by_freq_divides():
    w = paddle.to_tensor(weight_values(), stop_gradient=False)
    out = F.embedding(paddle.to_tensor(IDS), w, max_norm=1.5, scale_grad_by_freq=True)
    out.sum().backward()
    np.testing.assert_allclose(w.numpy(), RENORMED, rtol=1e-6)
    np.testing.assert_allclose(out.numpy(), RENORMED[np.array(IDS)], rtol=1e-6)
    np.testing.assert_array_equal(w.grad.numpy(), FREQUENCY_GRAD)


def test_norm_type_picks_the_norm():
    w = paddle.to_tensor(weight_values())
    F.embedding_renorm_(paddle.to_tensor([1]), w, max_norm=2.0, norm_type=1.0)
    row = weight_values()[1]
    np.testing.assert_allclose(w.numpy()[1], row * 2.0 / (np.abs(row).sum() + 1e-7), rtol=1e-6)
    np.testing.assert_array_equal(w.numpy()[[0, 2, 3]], weight_values()[[0, 2, 3]])


def test_scale_grad_by_freq_leaves_the_values_and_divides_the_gradient_by_the_counts():
    ids = paddle.to_tensor([[1, 1, 1], [0, 1, 3]])
    layer = paddle.nn.Embedding(4, 2, scale_grad_by_freq=True)
    plain = paddle.nn.Embedding(4, 2)
    plain.weight.set_value(layer.weight.numpy())
    np.testing.assert_array_equal(layer(ids).numpy(), plain(ids).numpy())
    (layer(ids) * 3.0).sum().backward()
    np.testing.assert_allclose(layer.weight.grad.numpy(),
                               [[3.0, 3.0], [3.0, 3.0], [0.0, 0.0], [3.0, 3.0]])


def test_scale_grad_by_freq_in_a_static_program():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 2], "int64")
            layer = paddle.nn.Embedding(4, 3, scale_grad_by_freq=True)
            paddle.static.append_backward(layer(x).sum())
        exe = paddle.static.Executor()
        exe.run(startup)
        (grad,) = exe.run(main, feed={"x": np.array(IDS)},
                          fetch_list=[layer.weight.name + "@GRAD"])
    np.testing.assert_array_equal(grad, FREQUENCY_GRAD)


def test_scale_grad_by_freq_refuses_sparse_as_paddle():
    with pytest.raises(AttributeError, match="scale_grad_by_freq"):
        F.embedding(paddle.to_tensor([0]), paddle.ones([2, 2]), sparse=True,
                    scale_grad_by_freq=True)


def test_weight_freeze_and_dtype():
    given = paddle.to_tensor(weight_values())
    layer = paddle.nn.Embedding(4, 3, _weight=given, _freeze=True)
    assert layer.weight is given and layer.weight.stop_gradient
    np.testing.assert_array_equal(layer(paddle.to_tensor([3])).numpy(), weight_values()[[3]])
    assert paddle.nn.Embedding(4, 3, dtype="float64").weight.dtype == paddle.float64
    assert paddle.nn.Embedding(4, 3, _freeze=True).weight.stop_gradient
    with pytest.raises(ValueError, match="_weight"):
        paddle.nn.Embedding(4, 2, _weight=given)
