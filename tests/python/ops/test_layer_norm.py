"""LayerNorm, F.layer_norm and F.normalize against NumPy re-implementations of Paddle's
documented semantics."""
import numpy as np
import pytest

import paddle
import paddle.nn as nn
import paddle.nn.functional as F

RNG = np.random.RandomState(2025)


def _np_layer_norm(x, ndim, weight=None, bias=None, epsilon=1e-5):
    axes = tuple(range(x.ndim - ndim, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    out = (x - mean) / np.sqrt(variance + epsilon)
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out


def test_layer_matches_numpy_with_default_parameters():
    x = RNG.randn(2, 3, 4).astype("float32")
    layer = nn.LayerNorm([3, 4])
    np.testing.assert_allclose(layer.weight.numpy(), np.ones(12))
    np.testing.assert_allclose(layer.bias.numpy(), np.zeros(12))
    out = layer(paddle.to_tensor(x))
    assert out.shape == [2, 3, 4] and out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy(), _np_layer_norm(x.astype("float64"), 2), atol=1e-5)


def test_layer_with_set_parameters_and_int_shape():
    x = RNG.randn(5, 6)
    layer = nn.LayerNorm(6, epsilon=1e-3)
    w, b = RNG.rand(6) + 0.5, RNG.randn(6)
    layer.weight.set_value(paddle.to_tensor(w.astype("float32")))
    layer.bias.set_value(paddle.to_tensor(b.astype("float32")))
    out = layer(paddle.to_tensor(x.astype("float32")))
    np.testing.assert_allclose(out.numpy(), _np_layer_norm(x, 1, w, b, 1e-3), atol=1e-5)


def test_parameters_in_state_dict_and_attr_false():
    layer = nn.LayerNorm([3, 4])
    keys = list(layer.state_dict().keys())
    assert keys == ["weight", "bias"]
    assert [p.shape for p in layer.parameters()] == [[12], [12]]  # flat, as in Paddle
    assert "normalized_shape=[3, 4]" in repr(layer)
    bare = nn.LayerNorm(4, weight_attr=False, bias_attr=False)
    assert bare.weight is None and bare.bias is None
    assert len(bare.parameters()) == 0
    x = RNG.randn(3, 4)
    np.testing.assert_allclose(bare(paddle.to_tensor(x)).numpy(), _np_layer_norm(x, 1), atol=1e-6)


def test_functional_rejects_a_mismatched_shape():
    with pytest.raises(ValueError, match="normalized_shape"):
        F.layer_norm(paddle.zeros([2, 3]), [4])


def test_op_returns_row_mean_and_variance():
    x = RNG.randn(2, 3, 4)
    out, mean, variance = paddle._C_ops.layer_norm(paddle.to_tensor(x), None, None, 1e-5, 2)
    assert mean.shape == [6] and variance.shape == [6]
    np.testing.assert_allclose(mean.numpy(), x.reshape(6, 4).mean(1), atol=1e-12)
    np.testing.assert_allclose(variance.numpy(), x.reshape(6, 4).var(1), atol=1e-12)
    half = paddle.to_tensor(x).astype("float16")
    out, mean, variance = paddle._C_ops.layer_norm(half, None, None, 1e-5, 1)
    assert out.dtype == paddle.float16 and mean.dtype == paddle.float32


def test_stable_for_a_large_offset():
    x = 1e4 + RNG.randn(4, 8).astype("float32")
    out = F.layer_norm(paddle.to_tensor(x), 8)
    np.testing.assert_allclose(out.numpy(), _np_layer_norm(x.astype("float64"), 1), atol=2e-3)


def test_gradient_of_a_small_model():
    paddle.seed(7)
    x = RNG.randn(4, 5)
    target = RNG.randn(4, 3)
    linear = nn.Linear(5, 3)
    norm = nn.LayerNorm(3)
    with paddle.no_grad():
        norm.weight.set_value(paddle.to_tensor((RNG.rand(3) + 0.5).astype("float32")))
        norm.bias.set_value(paddle.to_tensor(RNG.randn(3).astype("float32")))
    loss = ((norm(linear(paddle.to_tensor(x.astype("float32")))) - paddle.to_tensor(
        target.astype("float32"))) ** 2).mean()
    loss.backward()

    w, b = linear.weight.numpy().astype("float64"), linear.bias.numpy().astype("float64")
    g, beta = norm.weight.numpy().astype("float64"), norm.bias.numpy().astype("float64")

    def f(w, b, g, beta):
        return ((_np_layer_norm(x @ w + b, 1, g, beta) - target) ** 2).mean()

    params = [w, b, g, beta]
    grads = [linear.weight.grad, linear.bias.grad, norm.weight.grad, norm.bias.grad]
    for k, (p, grad) in enumerate(zip(params, grads)):
        numeric = np.zeros_like(p)
        for i in np.ndindex(p.shape):
            old = p[i]
            p[i] = old + 1e-6
            plus = f(*params)
            p[i] = old - 1e-6
            minus = f(*params)
            p[i] = old
            numeric[i] = (plus - minus) / 2e-6
        np.testing.assert_allclose(grad.numpy(), numeric, atol=1e-4, err_msg=f"param {k}")


def test_normalize_matches_numpy():
    x = RNG.randn(3, 4)
    out = F.normalize(paddle.to_tensor(x))
    np.testing.assert_allclose(out.numpy(), x / np.linalg.norm(x, axis=1, keepdims=True))
    out = F.normalize(paddle.to_tensor(x), p=1, axis=0)
    np.testing.assert_allclose(out.numpy(), x / np.abs(x).sum(0, keepdims=True))
    out = F.normalize(paddle.to_tensor(x), p=float("inf"), axis=-1)
    np.testing.assert_allclose(out.numpy(), x / np.abs(x).max(-1, keepdims=True))
    zeros = F.normalize(paddle.zeros([2, 3]))
    np.testing.assert_array_equal(zeros.numpy(), np.zeros((2, 3)))
