"""Higher-order gradients of pooling, in float64 against central differences. The first-order
gradient g = x_grad(x, out_grad) of a pooling is linear in out_grad (with zero derivative in x),
so its gradient in out_grad runs pool*_double_grad, and that one's gradient runs pool*_grad again;
the op harness checks first order only for these ops (its second-order check weights the outputs
with constants, which never reaches pool*_double_grad)."""
import numpy as np
import pytest

import paddle
import paddle.nn.functional as F


def _tensor(array, differentiable=True):
    t = paddle.to_tensor(np.asarray(array, dtype=np.float64))
    t.stop_gradient = not differentiable
    return t


def _numeric(f, array, eps=1e-6):
    """Central differences of the scalar f(array) in every element of array."""
    grad = np.zeros_like(array)
    flat, gflat = array.reshape(-1), grad.reshape(-1)
    for i in range(flat.size):
        old = flat[i]
        flat[i] = old + eps
        plus = f(array)
        flat[i] = old - eps
        minus = f(array)
        flat[i] = old
        gflat[i] = (plus - minus) / (2 * eps)
    return grad


def _first_order(pool, x, dy, create_graph):
    out = pool(x)
    return paddle.grad([out], [x], grad_outputs=[dy], create_graph=create_graph)[0]


CASES = [
    ("max2d", lambda x: F.max_pool2d(x, 3, 2, 1), (1, 2, 5, 6)),
    ("max2d_ceil_nhwc", lambda x: F.max_pool2d(x, 2, 2, [0, 1, 1, 0], ceil_mode=True,
                                               data_format="NHWC"), (1, 5, 5, 3)),
    ("avg2d_exclusive", lambda x: F.avg_pool2d(x, 3, 2, 1), (1, 2, 5, 5)),
    ("avg2d_inclusive_ceil", lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True,
                                                    exclusive=False), (1, 2, 6, 5)),
    ("adaptive_avg2d", lambda x: F.adaptive_avg_pool2d(x, [2, 3]), (1, 2, 5, 4)),
    ("adaptive_max2d_by_pool2d", lambda x: paddle._C_ops.pool2d(
        x, [2, 3], [1, 1], [0, 0], False, True, "NCHW", "max", False, True, "EXPLICIT"),
     (1, 2, 5, 4)),
    ("global_avg2d", lambda x: paddle._C_ops.pool2d(
        x, [1, 1], [1, 1], [0, 0], False, True, "NCHW", "avg", True, False, "EXPLICIT"),
     (2, 3, 3, 3)),
    ("max1d", lambda x: F.max_pool1d(x, 3, 2, 1), (2, 2, 7)),
    ("max3d", lambda x: F.max_pool3d(x, 2, 2, 1), (1, 2, 3, 4, 3)),
    ("avg3d_ndhwc", lambda x: F.avg_pool3d(x, 2, 1, data_format="NDHWC"), (1, 3, 3, 3, 2)),
    ("max2d_with_index", lambda x: F.max_pool2d(x, 3, 2, 1, return_mask=True)[0], (1, 2, 5, 6)),
    ("adaptive_max3d_with_index", lambda x: F.adaptive_max_pool3d(x, 2), (1, 2, 3, 4, 3)),
]


@pytest.mark.parametrize("pool, shape", [pytest.param(p, s, id=n) for n, p, s in CASES])
def test_second_order_in_out_grad(pool, shape):
    """d<x_grad(x, dy), w>/d(dy), against central differences; the derivative in x is zero."""
    rng = np.random.default_rng(0)
    x_np = rng.uniform(-1, 1, shape)
    dy_np = rng.standard_normal(pool(_tensor(x_np, False)).shape)
    w = _tensor(rng.standard_normal(shape), False)

    def projected(dy_array):
        g = _first_order(pool, _tensor(x_np), _tensor(dy_array, False), False)
        return float((g * w).sum())

    x, dy = _tensor(x_np), _tensor(dy_np)
    g = _first_order(pool, x, dy, True)
    dx, ddy = paddle.grad([(g * w).sum()], [x, dy], allow_unused=True)
    np.testing.assert_allclose(ddy.numpy(), _numeric(projected, dy_np.copy()), rtol=1e-6,
                               atol=1e-8)
    assert dx is None or not np.any(dx.numpy())


@pytest.mark.parametrize("pool, shape", [pytest.param(p, s, id=n) for n, p, s in CASES[:6]])
def test_third_order(pool, shape):
    """The gradient of h(w) = d<x_grad(x, dy), w>/d(dy) (pool*_double_grad, linear in w) in w,
    which runs pool*_grad again."""
    rng = np.random.default_rng(1)
    x_np = rng.uniform(-1, 1, shape)
    dy_np = rng.standard_normal(pool(_tensor(x_np, False)).shape)
    v = _tensor(rng.standard_normal(dy_np.shape), False)

    def h(w, create_graph):
        x, dy = _tensor(x_np), _tensor(dy_np)
        g = _first_order(pool, x, dy, True)
        return paddle.grad([(g * w).sum()], [dy], create_graph=create_graph)[0]

    def projected(w_array):
        return float((h(_tensor(w_array, False), False) * v).sum())

    w_np = rng.standard_normal(shape)
    w = _tensor(w_np)
    analytic = paddle.grad([(h(w, True) * v).sum()], [w])[0]
    np.testing.assert_allclose(analytic.numpy(), _numeric(projected, w_np.copy()), rtol=1e-6,
                               atol=1e-8)


def test_max_pool_first_maximum_takes_the_gradient():
    """Ties in a window: only the first maximum gets the gradient, in both dtypes (float32 runs
    oneDNN's backward, float64 the loops), and pool2d_double_grad reads the same element."""
    x_np = np.array([[[[1.0, 3.0, 3.0], [3.0, 0.0, 2.0], [1.0, 1.0, 1.0]]]])
    # The 2x2 windows' first maxima: (0, 1) twice, (1, 0) and (1, 2).
    expected = np.array([[[[0.0, 2.0, 0.0], [1.0, 0.0, 1.0], [0.0, 0.0, 0.0]]]])
    for dtype in ("float32", "float64"):
        x = paddle.to_tensor(x_np.astype(dtype), stop_gradient=False)
        out = F.max_pool2d(x, 2, 1)
        g = paddle.grad([out.sum()], [x])[0]
        np.testing.assert_array_equal(g.numpy(), expected, err_msg=dtype)
    x = _tensor(x_np)
    dy = _tensor(np.ones((1, 1, 2, 2)))
    g = _first_order(lambda t: F.max_pool2d(t, 2, 1), x, dy, True)
    w = _tensor(np.arange(9.0).reshape(1, 1, 3, 3), False)
    selected = paddle.grad([(g * w).sum()], [dy])[0]
    # w at the flat positions 1, 1, 3 and 5 of those maxima.
    np.testing.assert_array_equal(selected.numpy().reshape(-1), [1.0, 1.0, 3.0, 5.0])
