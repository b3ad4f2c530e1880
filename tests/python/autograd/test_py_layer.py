"""paddle.autograd.PyLayer: custom forward/backward in Python, checked against NumPy."""
import numpy as np
import pytest

import paddle
from paddle.autograd import PyLayer


class TanhAndScaledProduct(PyLayer):
    """tanh(x) and x * y * k, with a backward that is deliberately not the true gradient
    (+7 and *3), so the test sees that this backward, not the ops', is used."""

    @staticmethod
    def forward(ctx, x, y, k=2.0):
        a = paddle.tanh(x)
        ctx.save_for_backward(a)
        return a, x * y * k

    @staticmethod
    def backward(ctx, da, db):
        (a,) = ctx.saved_tensor()
        return da * (1 - paddle.square(a)) + db * 7, db * 3


def leaf(values):
    t = paddle.to_tensor(np.asarray(values, dtype="float64"))
    t.stop_gradient = False
    return t


def test_backward_is_the_layers_and_gets_every_output_gradient():
    x_np, y_np = np.array([[0.5, -1.0], [2.0, 0.1]]), np.array([[1.0, 2.0], [3.0, -1.0]])
    x, y = leaf(x_np), leaf(y_np)
    a, b = TanhAndScaledProduct.apply(x, y, k=3.0)
    np.testing.assert_allclose(a.numpy(), np.tanh(x_np))
    np.testing.assert_allclose(b.numpy(), x_np * y_np * 3)
    (a.mean() + b.sum() * 2).backward()
    np.testing.assert_allclose(x.grad.numpy(), (1 - np.tanh(x_np) ** 2) / 4 + 14)
    np.testing.assert_allclose(y.grad.numpy(), np.full((2, 2), 6.0))


def test_unused_outputs_get_zero_gradients_and_grads_accumulate():
    x_np = np.array([0.3, -0.7])
    x, y = leaf(x_np), leaf([1.0, 1.0])
    a, _ = TanhAndScaledProduct.apply(x, y)
    a.sum().backward()
    a, _ = TanhAndScaledProduct.apply(x, y)
    a.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * (1 - np.tanh(x_np) ** 2))
    np.testing.assert_allclose(y.grad.numpy(), [0.0, 0.0])


def test_outputs_pass_inf_and_nan_through_unchanged():
    x = leaf([np.inf, np.nan, 1.0])
    a, b = TanhAndScaledProduct.apply(x, leaf([1.0, 1.0, 1.0]))
    np.testing.assert_array_equal(a.numpy(), np.tanh([np.inf, np.nan, 1.0]))
    np.testing.assert_array_equal(b.numpy(), [np.inf, np.nan, 2.0])


def test_without_gradients_the_outputs_stop_gradient():
    a, _ = TanhAndScaledProduct.apply(paddle.to_tensor([1.0]), paddle.to_tensor([2.0]))
    assert a.stop_gradient
    with paddle.no_grad():
        a, _ = TanhAndScaledProduct.apply(leaf([1.0]), leaf([2.0]))
    assert a.stop_gradient


def test_backward_returning_the_wrong_number_of_gradients_raises():
    class OneGradient(PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x + y

        @staticmethod
        def backward(ctx, grad):
            return grad

    out = OneGradient.apply(leaf([1.0]), leaf([2.0]))
    with pytest.raises(ValueError, match="OneGradient.backward returned 1 gradients"):
        out.sum().backward()
