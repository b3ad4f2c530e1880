"""As in PaddlePaddle, poisson and exponential_ pass a zero gradient back to their input (a draw
does not move with its parameter)."""
import numpy as np

import paddle


def test_poisson_gradient_is_zero():
    rate = paddle.to_tensor(np.array([0.5, 3.0, 20.0]), stop_gradient=False)
    (grad,) = paddle.grad([(paddle.poisson(rate) * 2.0).sum()], [rate])
    assert np.array_equal(grad.numpy(), np.zeros(3))


def test_exponential_gradient_is_zero():
    x = paddle.to_tensor(np.ones((2, 3), np.float32), stop_gradient=False)
    y = x * 1.0  # exponential_ fills y in place; x, before it, is the leaf
    out = y.exponential_(2.0)
    (grad,) = paddle.grad([(out * 3.0).sum()], [x])
    assert np.array_equal(grad.numpy(), np.zeros((2, 3), np.float32))
