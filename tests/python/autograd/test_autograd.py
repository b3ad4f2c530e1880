"""Autograd: backward, accumulation, retain_graph, paddle.grad (create_graph), no_grad, hooks."""
import numpy as np
import pytest

import paddle


def leaf(values, dtype="float64"):
    return paddle.to_tensor(values, dtype=dtype, stop_gradient=False)


def test_backward_and_accumulation():
    x = leaf([1.0, 2.0])
    (x * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0])
    (x * 3).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [5.0, 7.0])  # accumulated
    x.clear_grad()
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 0.0])
    x.clear_gradient(set_to_zero=False)
    assert x.grad is None


def test_variable_used_twice_sums_gradients():
    x = leaf([3.0])
    y = x * x + x
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [7.0])


def test_non_leaf_grad_is_kept_only_with_retain_grads():
    x = leaf([1.0, 2.0])
    y = x * 2
    z = x * 3
    z.retain_grads()
    (y.sum() + (z * z).sum()).backward()
    assert y.grad is None
    np.testing.assert_allclose(z.grad.numpy(), [6.0, 12.0])
    assert not y.is_leaf and x.is_leaf


def test_backward_twice_needs_retain_graph():
    x = leaf([2.0])
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [8.0])
    z = (x * x).sum()
    z.backward()
    with pytest.raises(RuntimeError, match="retain_graph"):
        z.backward()


def test_backward_from_a_tensor_without_grad_is_an_error():
    with pytest.raises(RuntimeError, match="stop_gradient"):
        paddle.to_tensor([1.0]).sum().backward()


def test_backward_with_grad_tensor():
    x = leaf([1.0, 2.0])
    y = x * 2
    y.backward(paddle.to_tensor([1.0, 10.0], dtype="float64"))
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 20.0])
    with pytest.raises(ValueError, match="shape"):
        (x * 2).backward(paddle.to_tensor([1.0], dtype="float64"))


def test_paddle_grad_does_not_touch_dot_grad():
    x = leaf([1.0, 2.0])
    w = leaf([3.0, 4.0])
    (gx,) = paddle.grad((x * w).sum(), [x])
    np.testing.assert_allclose(gx.numpy(), [3.0, 4.0])
    assert x.grad is None and w.grad is None


def test_paddle_grad_allow_unused():
    x = leaf([1.0])
    unused = leaf([1.0])
    y = (x * 2).sum()
    with pytest.raises(ValueError, match="allow_unused"):
        paddle.grad(y, [x, unused], retain_graph=True)
    gx, gu = paddle.grad(y, [x, unused], allow_unused=True)
    assert gu is None and gx.numpy().tolist() == [2.0]


@pytest.mark.parametrize("fn,d1,d2", [
    (lambda x: x * x * x, lambda v: 3 * v ** 2, lambda v: 6 * v),
    (paddle.tanh, lambda v: 1 - np.tanh(v) ** 2, lambda v: -2 * np.tanh(v) * (1 - np.tanh(v) ** 2)),
    (paddle.sigmoid, lambda v: (1 / (1 + np.exp(-v))) * (1 - 1 / (1 + np.exp(-v))),
     lambda v: (s := 1 / (1 + np.exp(-v))) * (1 - s) * (1 - 2 * s)),
    (paddle.exp, np.exp, np.exp),
])
def test_second_order_with_create_graph(fn, d1, d2):
    values = np.array([0.3, -0.7])
    x = leaf(values)
    (g,) = paddle.grad(fn(x).sum(), [x], create_graph=True)
    np.testing.assert_allclose(g.numpy(), d1(values), rtol=1e-10)
    assert not g.stop_gradient
    (gg,) = paddle.grad(g.sum(), [x])
    np.testing.assert_allclose(gg.numpy(), d2(values), rtol=1e-10)


def test_second_order_through_matmul():
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    x = leaf(a)
    y = paddle.matmul(x, x).sum()
    (g,) = paddle.grad(y, [x], create_graph=True)
    (gg,) = paddle.grad((g * g).sum(), [x])
    # g = 1 1^T X^T + X^T 1 1^T; check against central differences of sum(g^2).

    def f(m):
        ones = np.ones((2, 2))
        gm = ones @ m.T + m.T @ ones
        return (gm ** 2).sum()
    numeric = np.zeros_like(a)
    for i in range(2):
        for j in range(2):
            e = np.zeros_like(a)
            e[i, j] = 1e-6
            numeric[i, j] = (f(a + e) - f(a - e)) / 2e-6
    np.testing.assert_allclose(gg.numpy(), numeric, rtol=1e-6)


def test_no_grad_stops_recording():
    x = leaf([1.0])
    with paddle.no_grad():
        y = x * 2
    assert y.stop_gradient
    assert paddle.is_grad_enabled()

    @paddle.no_grad()
    def f(t):
        return t * 3
    assert f(x).stop_gradient
    with paddle.set_grad_enabled(False):
        assert not paddle.is_grad_enabled()
    assert paddle.is_grad_enabled()


def test_hooks_replace_and_observe_gradients():
    x = leaf([1.0, 2.0])
    seen = []
    handle = x.register_hook(lambda g: seen.append(g.numpy().tolist()))
    y = x * 3
    y.register_hook(lambda g: g * 10)
    y.sum().backward()
    assert seen == [[30.0, 30.0]]
    np.testing.assert_allclose(x.grad.numpy(), [30.0, 30.0])
    handle.remove()
    x.clear_gradient(False)
    (x * 1).sum().backward()
    assert len(seen) == 1


def test_hook_on_a_tensor_without_grad_is_an_error():
    with pytest.raises(RuntimeError, match="stop_gradient"):
        paddle.to_tensor([1.0]).register_hook(lambda g: g)


def test_modifying_a_saved_tensor_in_place_is_detected():
    x = leaf([1.0, 2.0])
    y = x * 1
    z = y * y
    y.scale_(2.0)
    with pytest.raises(RuntimeError, match="inplace"):
        z.sum().backward()


def test_integer_outputs_do_not_require_grad():
    x = leaf([1.5, 2.5])
    assert x.astype("int32").stop_gradient
    assert paddle.argmax(x).stop_gradient
