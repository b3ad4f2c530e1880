"""Behaviour of the sorting, top-k, along-axis and scan ops beyond the op_db harness: NaN order,
stability, the exclusive/reverse scans' gradients, broadcasting and dtype rules."""
import numpy as np
import pytest

import paddle
from harness import OpInfo, Sample, check_gradient


def test_sort_puts_nan_last_ascending_and_first_descending():
    x = paddle.to_tensor([3.0, float("nan"), 1.0, 3.0, 2.0])
    np.testing.assert_array_equal(paddle.argsort(x).numpy(), [2, 4, 0, 3, 1])
    np.testing.assert_array_equal(paddle.argsort(x, descending=True).numpy(), [1, 0, 3, 4, 2])
    np.testing.assert_array_equal(paddle.topk(x, 2)[1].numpy(), [1, 0])
    np.testing.assert_array_equal(paddle.topk(x, 2, largest=False)[1].numpy(), [2, 4])


def test_stable_sort_keeps_equal_values_in_order():
    x = np.random.default_rng(0).integers(0, 4, size=(3, 50)).astype(np.float32)
    for descending in (False, True):
        got = paddle.argsort(paddle.to_tensor(x), axis=1, descending=descending, stable=True).numpy()
        want = np.argsort(-x if descending else x, axis=1, kind="stable")
        np.testing.assert_array_equal(got, want)


def test_topk_unsorted_keeps_input_order_and_accepts_a_tensor_k():
    x = paddle.to_tensor([[5.0, 1.0, 4.0, 2.0, 3.0]])
    values, indices = paddle.topk(x, paddle.to_tensor(3), sorted=False)
    np.testing.assert_array_equal(indices.numpy(), [[0, 2, 4]])
    np.testing.assert_array_equal(values.numpy(), [[5.0, 4.0, 3.0]])
    assert x.topk(1)[0].numpy().tolist() == [[5.0]]


def test_large_lines_run_in_parallel_and_match_numpy():
    x = np.random.default_rng(1).standard_normal((64, 2048))
    t = paddle.to_tensor(x)
    np.testing.assert_allclose(paddle.sort(t, axis=1).numpy(), np.sort(x, axis=1))
    np.testing.assert_allclose(paddle.cumsum(t, axis=0).numpy(), np.cumsum(x, axis=0), atol=1e-9)
    idx = np.argsort(x, axis=0, kind="stable")
    np.testing.assert_array_equal(paddle.argsort(t, axis=0).numpy(), idx)
    np.testing.assert_allclose(paddle.take_along_axis(t, paddle.to_tensor(idx), 0).numpy(),
                               np.take_along_axis(x, idx, 0))


def np_cumprod(x, dim, exclusive=False, reverse=False):
    y = np.flip(x, dim) if reverse else x
    out = np.cumprod(y, dim)
    if exclusive:
        out = np.concatenate([np.ones_like(np.take(out, [0], dim)), np.delete(out, -1, dim)], dim)
    return np.flip(out, dim) if reverse else out


@pytest.mark.parametrize("exclusive,reverse", [(False, True), (True, False), (True, True)])
def test_cumprod_options_and_gradient_with_zeros(exclusive, reverse):
    x = np.array([[2.0, 0.0, 3.0, 0.0, 0.5], [0.7, 1.5, -2.0, 1.0, 0.0]])
    got = paddle._C_ops.cumprod(paddle.to_tensor(x), 1, exclusive, reverse).numpy()
    np.testing.assert_allclose(got, np_cumprod(x, 1, exclusive, reverse))
    info = OpInfo("cumprod_options", lambda t: paddle._C_ops.cumprod(t, 1, exclusive, reverse),
                  None, lambda rng: [])
    check_gradient(info, Sample([x]))


def test_put_along_axis_assign_gradients():
    arr = paddle.to_tensor(np.arange(6.0).reshape(2, 3), stop_gradient=False)
    values = paddle.to_tensor([[10.0], [20.0]], stop_gradient=False)
    out = paddle.put_along_axis(arr, paddle.to_tensor([[1], [2]]), values, 1)
    (out * paddle.to_tensor(np.arange(1.0, 7.0).reshape(2, 3))).sum().backward()
    np.testing.assert_array_equal(arr.grad.numpy(), [[1, 0, 3], [4, 5, 0]])
    np.testing.assert_array_equal(values.grad.numpy(), [[2], [6]])


def test_along_axis_checks():
    arr = paddle.zeros([2, 3])
    with pytest.raises(IndexError, match=r"indices.*5.*\[-3, 3\)"):
        paddle.take_along_axis(arr, paddle.to_tensor([[5]]), 1)
    with pytest.raises(IndexError, match="put_along_axis.*indices"):
        paddle.put_along_axis(arr, paddle.to_tensor([[0, -4]]), 1.0, 1)
    with pytest.raises(ValueError, match="dimensions"):
        paddle.put_along_axis(arr, paddle.to_tensor([0]), 1.0, 1)
    # Negative indices count from the end, as in Paddle.
    np.testing.assert_array_equal(
        paddle.put_along_axis(arr, paddle.to_tensor([[-1]]), 7.0, 1).numpy(), [[0, 0, 7], [0, 0, 7]])


def test_cumsum_dtypes_and_flatten():
    assert paddle.cumsum(paddle.to_tensor([1, 2, 3], dtype="int32")).dtype == paddle.int64
    assert paddle.cumsum(paddle.ones([2, 2]), dtype="float64").dtype == paddle.float64
    assert paddle.cumsum(paddle.ones([2, 3])).shape == [6]
    assert paddle.cumprod(paddle.ones([2, 3])).shape == [6]
    np.testing.assert_array_equal(paddle.ones([2, 3]).cumsum(axis=1).numpy(), [[1, 2, 3]] * 2)
