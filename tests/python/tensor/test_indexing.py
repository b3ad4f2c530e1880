"""Tensor __getitem__ / __setitem__ against NumPy."""
import numpy as np
import pytest

import paddle

A = np.arange(60, dtype=np.float32).reshape(3, 4, 5)


@pytest.mark.parametrize("index", [
    0, -1, (1, 2), (1, 2, 3), slice(1, 3), (slice(None), 1), (Ellipsis, 2), (0, Ellipsis, slice(1, 4)),
    (slice(None, None, 2),), (slice(None, None, -1), slice(1, None, 2)), (None, 1), (1, None, 2),
    (Ellipsis, None), (slice(-2, None), slice(None), -1),
])
def test_basic_indexing(index):
    np.testing.assert_array_equal(paddle.to_tensor(A)[index].numpy(), A[index])


@pytest.mark.parametrize("index", [
    [0, 2], np.array([2, 0, 1]), (slice(None), [1, 3]), (slice(None), np.array([-1, 0])),
    ([0, 2], [1, 3]), (slice(None), [0, 1], [2, 4]),
])
def test_integer_array_indexing(index):
    np.testing.assert_array_equal(paddle.to_tensor(A)[index].numpy(), A[index])


def test_integer_tensor_indexing():
    index = paddle.to_tensor([2, 0])
    np.testing.assert_array_equal(paddle.to_tensor(A)[index].numpy(), A[[2, 0]])


def test_boolean_indexing():
    mask = A > 30
    np.testing.assert_array_equal(paddle.to_tensor(A)[paddle.to_tensor(mask)].numpy(), A[mask])
    rows = np.array([True, False, True])
    np.testing.assert_array_equal(paddle.to_tensor(A)[paddle.to_tensor(rows)].numpy(), A[rows])


def test_out_of_range_index_is_an_index_error():
    x = paddle.to_tensor(A)
    with pytest.raises(IndexError, match="out of bounds"):
        x[3]
    with pytest.raises(IndexError, match="too many"):
        x[0, 0, 0, 0]
    with pytest.raises(IndexError):
        x[paddle.to_tensor([0, 7])]


def test_indexing_gradient_flows_back():
    x = paddle.to_tensor(A, stop_gradient=False)
    y = x[1, ::2, [0, 4]]
    y.sum().backward()
    expected = np.zeros_like(A)
    expected[1, ::2][:, [0, 4]] = 1
    np.testing.assert_array_equal(x.grad.numpy(), expected)


@pytest.mark.parametrize("index,value", [
    (0, 7.0), ((1, 2), np.arange(5, dtype=np.float32)), ((slice(None), 1), -1.0),
    ((Ellipsis, slice(None, None, 2)), 5.0), ((slice(0, 2), slice(1, 3), 0), np.ones((2, 2), np.float32)),
])
def test_setitem_matches_numpy(index, value):
    expected = A.copy()
    expected[index] = value
    x = paddle.to_tensor(A)
    x[index] = value
    np.testing.assert_array_equal(x.numpy(), expected)


def test_setitem_with_a_mask_and_with_indices():
    expected = A.copy()
    expected[A > 40] = 0.0
    x = paddle.to_tensor(A)
    x[x > 40] = 0.0
    np.testing.assert_array_equal(x.numpy(), expected)
    expected = A.copy()
    expected[[0, 2]] = 1.0
    y = paddle.to_tensor(A)
    y[paddle.to_tensor([0, 2])] = 1.0
    np.testing.assert_array_equal(y.numpy(), expected)


def test_setitem_gradient_reaches_value_and_untouched_elements():
    x0 = paddle.to_tensor(np.ones((3, 2), np.float32), stop_gradient=False)
    v = paddle.to_tensor([5.0, 6.0], stop_gradient=False)
    x = x0 * 2
    x[1] = v
    (x * paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).sum().backward()
    np.testing.assert_array_equal(v.grad.numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(x0.grad.numpy(), [[2.0, 4.0], [0.0, 0.0], [10.0, 12.0]])


def test_setitem_on_a_leaf_that_requires_grad_is_rejected():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(ValueError, match="leaf"):
        x[0] = 3.0
