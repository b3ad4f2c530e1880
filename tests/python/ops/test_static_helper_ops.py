"""Behaviour of paddle.add_n, paddle.assign, paddle.increment and _C_ops.assign_value beyond
the op harness: Paddle's conversions, in-place results, gradients and accumulation."""
import numpy as np
import pytest

import paddle
from paddle import _C_ops


# ---------------------------------------------------------------- add_n
def test_add_n_of_one_tensor_is_a_copy():
    x = paddle.to_tensor([1.0, 2.0])
    out = paddle.add_n(x)
    assert out is not x and not out._is_shared_buffer_with(x)
    np.testing.assert_array_equal(out.numpy(), [1.0, 2.0])


def test_add_n_accumulates_float16_once():
    # 60000 + 60000 overflows float16; the float accumulator brings the sum back to 60000.
    h = paddle.to_tensor([60000.0], dtype="float16")
    np.testing.assert_array_equal(paddle.add_n([h, h, -h]).numpy(), [60000.0])


def test_add_n_gradient_reaches_every_input():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    paddle.add_n([x, x, y]).backward(paddle.to_tensor([1.0, 5.0]))
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 10.0])
    np.testing.assert_array_equal(y.grad.numpy(), [1.0, 5.0])
    x.grad.zero_()  # the leaves' gradients do not share a buffer
    np.testing.assert_array_equal(y.grad.numpy(), [1.0, 5.0])


def test_add_n_of_many_inputs():
    xs = [paddle.to_tensor(np.full(3, i, dtype=np.int64)) for i in range(200)]
    np.testing.assert_array_equal(paddle.add_n(xs).numpy(), np.full(3, sum(range(200))))


# ---------------------------------------------------------------- assign
@pytest.mark.parametrize("data,dtype,shape", [
    (1.5, paddle.float64, [1]),
    (3, paddle.int64, [1]),
    (True, paddle.bool, [1]),
    (np.float32(2.0), paddle.float32, [1]),
    ([1.5, 2.5], paddle.float64, [2]),
    ((1, 2), paddle.int64, [2]),
    (np.array([1, 2], dtype=np.int32), paddle.int32, [2]),
    (np.array(3.0), paddle.float64, []),
])
def test_assign_converts_data_as_paddle_does(data, dtype, shape):
    out = paddle.assign(data)
    assert out.dtype == dtype and out.shape == shape
    np.testing.assert_array_equal(out.numpy(), np.asarray(data).reshape(shape))


def test_assign_copies_a_tensor_with_its_gradient():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = paddle.assign(x)
    assert not y.stop_gradient and not y._is_shared_buffer_with(x)
    (y * 3).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_assign_into_output_writes_its_buffer():
    out = paddle.zeros([2])
    buffer_view = out.detach()
    result = paddle.assign(paddle.to_tensor([5.0, 6.0]), out)
    assert result is out
    np.testing.assert_array_equal(buffer_view.numpy(), [5.0, 6.0])


def test_assign_into_output_records_the_gradient():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    out = paddle.zeros([2])
    paddle.assign(x * 2, out)
    assert not out.stop_gradient
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


def test_assign_gives_output_the_shape_and_dtype_of_x():
    out = paddle.zeros([3, 3], dtype="float32")
    paddle.assign(np.array([[1, 2], [3, 4]]), out)
    assert out.shape == [2, 2] and out.dtype == paddle.int64
    np.testing.assert_array_equal(out.numpy(), [[1, 2], [3, 4]])


def test_assign_cannot_reshape_an_output_on_the_gradient_path():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(ValueError, match="assign"):
        paddle.assign(x, paddle.zeros([3]))


def test_clone_is_a_copy():
    x = paddle.to_tensor([1, 2])
    y = paddle.clone(x)
    assert not y._is_shared_buffer_with(x)
    np.testing.assert_array_equal(y.numpy(), [1, 2])


# ---------------------------------------------------------------- assign_value
def test_assign_value_uses_the_current_place_by_default():
    out = _C_ops.assign_value([2], paddle.int32, [7, 8])
    assert out.place == paddle.CPUPlace() and out.dtype == paddle.int32
    np.testing.assert_array_equal(out.numpy(), [7, 8])


def test_assign_value_rounds_int64_beyond_2_pow_53():
    # The values are doubles: documented in paddle/ops/yaml/assign.yaml.
    out = _C_ops.assign_value([2], paddle.int64, [2 ** 53, 2 ** 53 + 1])
    np.testing.assert_array_equal(out.numpy(), [2 ** 53, 2 ** 53])


def test_assign_value_without_dtype_is_an_error():
    with pytest.raises(ValueError, match="dtype"):
        _C_ops.assign_value([1], paddle.dtype.UNDEFINED, [1.0])


# ---------------------------------------------------------------- increment
def test_increment_writes_x_and_returns_it():
    x = paddle.zeros([1])
    out = paddle.increment(x, 2.0)
    assert out is x
    np.testing.assert_array_equal(x.numpy(), [2.0])


def test_increment_converts_the_step_to_the_counter_dtype():
    x = paddle.to_tensor([1])
    paddle.increment(x, 2.5)
    np.testing.assert_array_equal(x.numpy(), [3])


def test_increment_out_of_place_keeps_x():
    x = paddle.to_tensor(1.0)
    out = _C_ops.increment(x)
    assert float(x) == 1.0 and float(out) == 2.0
