"""Behaviour tests of the Python composites beside the logic ops (masked_fill, numel, var, std,
dot) against NumPy, and edge cases of all/any, the class tests and logsumexp."""
import numpy as np
import pytest

import paddle


def _rng():
    return np.random.default_rng(0)


# ---------------------------------------------------------------- masked_fill
def test_masked_fill_with_a_number_broadcasts_the_mask():
    x = _rng().uniform(-1, 1, size=(3, 4)).astype(np.float32)
    mask = np.array([True, False, False, True])
    out = paddle.masked_fill(paddle.to_tensor(x), paddle.to_tensor(mask), 2.5)
    assert out.dtype == paddle.float32 and out.shape == [3, 4]
    np.testing.assert_array_equal(out.numpy(), np.where(mask, np.float32(2.5), x))


def test_masked_fill_with_a_tensor_value_broadcasts_x():
    x = np.array([1.0, 2.0, 3.0])
    mask = np.array([[True, False, True], [False, False, True]])
    out = paddle.masked_fill(paddle.to_tensor(x), paddle.to_tensor(mask), paddle.to_tensor(-1.0))
    np.testing.assert_array_equal(out.numpy(), np.where(mask, -1.0, x))


def test_masked_fill_keeps_integer_dtype_and_is_a_method():
    x = paddle.to_tensor(np.arange(6, dtype=np.int64).reshape(2, 3))
    mask = paddle.to_tensor(np.array([[True, False, False], [False, True, False]]))
    out = x.masked_fill(mask, 7)
    assert out.dtype == paddle.int64
    np.testing.assert_array_equal(out.numpy(), [[7, 1, 2], [3, 7, 5]])


def test_masked_fill_gradient_flows_only_where_unmasked():
    x = paddle.to_tensor(np.ones((2, 3)), stop_gradient=False)
    mask = paddle.to_tensor(np.array([True, False, True]))
    paddle.masked_fill(x, mask, 0.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.tile([0.0, 1.0, 0.0], (2, 1)))


def test_masked_fill_rejects_a_non_tensor():
    with pytest.raises(TypeError, match="masked_fill"):
        paddle.masked_fill([1.0, 2.0], paddle.to_tensor([True, False]), 0.0)


# ---------------------------------------------------------------- numel
@pytest.mark.parametrize("shape", [(2, 3, 4), (), (0, 5)])
def test_numel_is_a_0d_int64_tensor(shape):
    out = paddle.numel(paddle.to_tensor(np.zeros(shape, dtype=np.float32)))
    assert out.shape == [] and out.dtype == paddle.int64
    assert int(out) == int(np.prod(shape))


# ---------------------------------------------------------------- var / std
VAR_CASES = [
    ({}, None, False),
    ({"axis": 1}, 1, False),
    ({"axis": [0, 2], "keepdim": True}, (0, 2), True),
    ({"axis": -1, "unbiased": False}, -1, False),
]


@pytest.mark.parametrize("kwargs,axis,keepdim", VAR_CASES)
def test_var_and_std_match_numpy(kwargs, axis, keepdim):
    x = _rng().uniform(-2, 2, size=(2, 3, 4))
    ddof = 0 if kwargs.get("unbiased") is False else 1
    for api, ref in ((paddle.var, np.var), (paddle.std, np.std)):
        out = api(paddle.to_tensor(x), **kwargs)
        expected = ref(x, axis=axis, ddof=ddof, keepdims=keepdim)
        assert out.shape == list(np.shape(expected))
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-10, atol=1e-12)


def test_var_float32_and_correction():
    x = _rng().uniform(-2, 2, size=(5, 6)).astype(np.float32)
    out = paddle.var(paddle.to_tensor(x), axis=0)
    assert out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy(), np.var(x.astype(np.float64), axis=0, ddof=1), rtol=1e-5)
    out = paddle.var(paddle.to_tensor(x), correction=2)
    np.testing.assert_allclose(out.numpy(), np.var(x.astype(np.float64), ddof=2), rtol=1e-5)


def test_var_of_one_element_unbiased_is_nan():
    assert np.isnan(paddle.var(paddle.to_tensor([1.5])).numpy())
    assert paddle.var(paddle.to_tensor([1.5]), unbiased=False).numpy() == 0.0


def test_var_and_std_gradients():
    x = _rng().uniform(-2, 2, size=(3, 4))
    t = paddle.to_tensor(x, stop_gradient=False)
    paddle.var(t, axis=1).sum().backward()
    n = x.shape[1]
    np.testing.assert_allclose(t.grad.numpy(), 2 * (x - x.mean(axis=1, keepdims=True)) / (n - 1),
                               rtol=1e-10)
    t = paddle.to_tensor(x, stop_gradient=False)
    paddle.std(t).backward()
    expected = (x - x.mean()) / ((x.size - 1) * np.std(x, ddof=1))
    np.testing.assert_allclose(t.grad.numpy(), expected, rtol=1e-10)


def test_var_axis_out_of_range():
    with pytest.raises(IndexError, match="axis"):
        paddle.var(paddle.to_tensor(np.zeros((2, 3))), axis=2)


# ---------------------------------------------------------------- dot
def test_dot_of_vectors_is_0d():
    rng = _rng()
    x, y = rng.uniform(-1, 1, size=5), rng.uniform(-1, 1, size=5)
    out = paddle.dot(paddle.to_tensor(x), paddle.to_tensor(y))
    assert out.shape == []
    np.testing.assert_allclose(out.numpy(), np.dot(x, y), rtol=1e-12)


def test_dot_of_matrices_is_row_wise():
    rng = _rng()
    x, y = rng.uniform(-1, 1, size=(3, 4)), rng.uniform(-1, 1, size=(3, 4))
    out = paddle.dot(paddle.to_tensor(x), paddle.to_tensor(y))
    assert out.shape == [3]
    np.testing.assert_allclose(out.numpy(), (x * y).sum(axis=1), rtol=1e-12)


def test_dot_of_integers_keeps_dtype():
    for dtype in (np.int32, np.int64):
        out = paddle.dot(paddle.to_tensor(np.array([1, 2, 3], dtype=dtype)),
                         paddle.to_tensor(np.array([4, 5, 6], dtype=dtype)))
        assert out.dtype == paddle.to_tensor(np.zeros(1, dtype=dtype)).dtype
        assert int(out) == 32


def test_dot_gradient():
    rng = _rng()
    x, y = rng.uniform(-1, 1, size=(2, 3)), rng.uniform(-1, 1, size=(2, 3))
    tx = paddle.to_tensor(x, stop_gradient=False)
    ty = paddle.to_tensor(y, stop_gradient=False)
    paddle.dot(tx, ty).sum().backward()
    np.testing.assert_allclose(tx.grad.numpy(), y)
    np.testing.assert_allclose(ty.grad.numpy(), x)


def test_dot_rejects_bad_shapes():
    with pytest.raises(ValueError, match="same shape"):
        paddle.dot(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="1-D or 2-D"):
        paddle.dot(paddle.ones([2, 2, 2]), paddle.ones([2, 2, 2]))


# ---------------------------------------------------------------- ops: edge cases
def test_all_any_read_any_dtype_as_nonzero():
    x = paddle.to_tensor(np.array([[1, 0, 2], [3, 4, 5]], dtype=np.int32))
    assert not bool(paddle.all(x))
    np.testing.assert_array_equal(paddle.any(x, axis=1).numpy(), [True, True])
    np.testing.assert_array_equal(paddle.all(x, axis=0).numpy(), [True, False, True])
    assert paddle.all(x, axis=1, keepdim=True).shape == [2, 1]
    assert bool(x.any()) and not bool(paddle.to_tensor([0.0, -0.0]).any())


def test_all_any_of_nothing():
    empty = paddle.to_tensor(np.zeros((0, 3)))
    np.testing.assert_array_equal(paddle.all(empty, axis=0).numpy(), [True, True, True])
    assert not bool(paddle.any(empty))


def test_class_tests_on_special_values():
    x = paddle.to_tensor(np.array([1.0, np.nan, np.inf, -np.inf, 0.0], dtype=np.float32))
    np.testing.assert_array_equal(paddle.isnan(x).numpy(), [False, True, False, False, False])
    np.testing.assert_array_equal(paddle.isinf(x).numpy(), [False, False, True, True, False])
    np.testing.assert_array_equal(paddle.isfinite(x).numpy(), [True, False, False, False, True])
    ints = paddle.to_tensor(np.array([1, -2], dtype=np.int64))
    assert paddle.isfinite(ints).dtype == paddle.bool
    np.testing.assert_array_equal(paddle.isfinite(ints).numpy(), [True, True])


def test_logsumexp_is_stable_and_casts_integers():
    x = np.array([[1000.0, 1000.0], [-1000.0, -999.0]])
    out = paddle.logsumexp(paddle.to_tensor(x), axis=1)
    np.testing.assert_allclose(out.numpy(), [1000 + np.log(2), -999 + np.log1p(np.exp(-1))])
    ints = paddle.logsumexp(paddle.to_tensor(np.array([[1, 2], [3, 4]])))
    assert ints.dtype == paddle.float32
    np.testing.assert_allclose(ints.numpy(), np.log(np.exp([1, 2, 3, 4]).sum()), rtol=1e-6)


def test_logsumexp_of_infinities():
    out = paddle.logsumexp(paddle.to_tensor(np.array([[-np.inf, -np.inf], [np.inf, 1.0]])), axis=1)
    np.testing.assert_array_equal(out.numpy(), [-np.inf, np.inf])


def test_logsumexp_rejects_a_non_tensor():
    with pytest.raises(TypeError, match="logsumexp"):
        paddle.logsumexp([1.0, 2.0])


def test_tril_triu_are_methods_and_complementary():
    x = paddle.to_tensor(_rng().uniform(-1, 1, size=(2, 3, 5)))
    np.testing.assert_array_equal((x.tril() + x.triu(1)).numpy(), x.numpy())
    np.testing.assert_array_equal(paddle.tril(x, diagonal=-1).numpy(), np.tril(x.numpy(), -1))
