"""paddle.Tensor: creation, properties, conversion, operators and Paddle's promotion rules."""
import numpy as np
import pytest

import paddle


def test_to_tensor_defaults_follow_paddle():
    assert paddle.to_tensor(1.5).dtype == paddle.float32
    assert paddle.to_tensor([1, 2]).dtype == paddle.int64
    assert paddle.to_tensor(True).dtype == paddle.bool
    assert paddle.to_tensor(np.zeros(3, np.float64)).dtype == paddle.float64
    assert paddle.to_tensor(np.zeros(3, np.int32)).dtype == paddle.int32
    assert paddle.to_tensor(3.0).shape == []
    t = paddle.to_tensor([[1, 2], [3, 4]], dtype="float64", stop_gradient=False)
    assert t.dtype == paddle.float64 and t.shape == [2, 2] and not t.stop_gradient
    assert t.place == paddle.CPUPlace() and t.ndim == 2 and t.size == 4


def test_to_tensor_copies_the_data():
    array = np.arange(4.0, dtype=np.float32)
    t = paddle.to_tensor(array)
    array[0] = 99
    assert t.numpy()[0] == 0


def test_to_tensor_rejects_unsupported_data():
    with pytest.raises(TypeError, match="to_tensor"):
        paddle.to_tensor({"a": 1})
    with pytest.raises(TypeError):
        paddle.to_tensor(np.array(["a", "b"]))


def test_bfloat16_and_float16_round_trip():
    values = [1.0, -2.5, 0.15625]
    bf = paddle.to_tensor(values, dtype="bfloat16")
    assert bf.dtype == paddle.bfloat16
    assert np.allclose(bf.astype("float32").numpy(), values, rtol=1e-2)
    half = paddle.to_tensor(values, dtype=paddle.float16)
    assert half.numpy().dtype == np.float16


def test_item_numpy_and_conversions():
    t = paddle.to_tensor([[1.5]])
    assert t.item() == 1.5 and float(t) == 1.5 and int(paddle.to_tensor(7)) == 7
    assert paddle.to_tensor([1, 2, 3]).tolist() == [1, 2, 3]
    with pytest.raises(ValueError, match="one element"):
        paddle.to_tensor([1.0, 2.0]).item()
    assert np.asarray(paddle.to_tensor([1.0, 2.0])).tolist() == [1.0, 2.0]
    assert len(paddle.to_tensor([[1], [2], [3]])) == 3


def test_astype_clone_detach():
    x = paddle.to_tensor([1.7, -2.2], stop_gradient=False)
    assert x.astype("int32").numpy().tolist() == [1, -2]
    c = x.clone()
    assert c.numpy().tolist() == pytest.approx([1.7, -2.2]) and not c.stop_gradient
    d = x.detach()
    assert d.stop_gradient and d._is_shared_buffer_with(x)


@pytest.mark.parametrize("op,ref", [
    (lambda a, b: a + b, np.add), (lambda a, b: a - b, np.subtract),
    (lambda a, b: a * b, np.multiply), (lambda a, b: a / b, np.divide),
    (lambda a, b: a ** b, np.power), (lambda a, b: a // b, np.floor_divide),
    (lambda a, b: a % b, np.mod), (lambda a, b: a @ b.T, lambda a, b: a @ b.T),
])
def test_operators_match_numpy(op, ref):
    a = np.array([[1.5, 2.0, 3.0], [4.0, 5.5, 6.0]], dtype=np.float32)
    b = np.array([[2.0, 0.5, 1.5], [3.0, 2.0, 4.0]], dtype=np.float32)
    np.testing.assert_allclose(op(paddle.to_tensor(a), paddle.to_tensor(b)).numpy(), ref(a, b),
                               rtol=1e-6)


def test_comparison_and_logical_operators():
    a = paddle.to_tensor([1, 2, 3])
    assert (a > 1).numpy().tolist() == [False, True, True]
    assert (a == 2).numpy().tolist() == [False, True, False]
    assert (a != 2).dtype == paddle.bool
    m = (a >= 2) & (a <= 2)
    assert m.numpy().tolist() == [False, True, False]
    assert (~m).numpy().tolist() == [True, False, True]
    assert (a == None) is False  # noqa: E711


def test_scalar_promotion_keeps_the_tensor_float_type():
    half = paddle.to_tensor([1.0], dtype="float16")
    assert (half + 1.5).dtype == paddle.float16
    assert (paddle.to_tensor([1.0], dtype="float64") * 2).dtype == paddle.float64
    ints = paddle.to_tensor([1, 2])
    assert (ints + 1).dtype == paddle.int64
    assert (ints + 0.5).dtype == paddle.float32
    assert (ints / 2).dtype == paddle.float32
    assert (2 - ints).numpy().tolist() == [1, 0]
    assert (paddle.to_tensor([True]) + 1).dtype == paddle.int64


def test_tensor_tensor_promotion_is_between_floats_only():
    f32 = paddle.to_tensor([1.0])
    f64 = paddle.to_tensor([1.0], dtype="float64")
    i64 = paddle.to_tensor([1])
    assert (f32 + f64).dtype == paddle.float64
    half = paddle.to_tensor([1.0], dtype="float16")
    assert (half + paddle.to_tensor([1.0], dtype="bfloat16")).dtype == paddle.float32
    # As in PaddlePaddle 3: integer, bool and mixed operands must be cast explicitly.
    with pytest.raises(TypeError, match="multiply: type promotion"):
        i64 * f32
    with pytest.raises(TypeError, match="int32"):
        paddle.add(paddle.to_tensor([1], dtype="int32"), i64)
    with pytest.raises(TypeError):
        paddle.to_tensor([True]) + i64


def test_broadcast_mismatch_is_a_value_error_naming_the_op_and_shapes():
    with pytest.raises(ValueError) as raised:
        paddle.to_tensor(np.zeros((2, 3))) + paddle.to_tensor(np.zeros((4,)))
    message = str(raised.value)
    assert message.startswith("add:") and "[2, 3]" in message and "[4]" in message


def test_wrong_argument_types_are_type_errors():
    with pytest.raises(TypeError, match="matmul"):
        paddle.matmul([1.0], paddle.to_tensor([1.0]))
    with pytest.raises(TypeError, match="axis"):
        paddle.sum(paddle.to_tensor([1.0]), axis="0")
    with pytest.raises(TypeError, match="data type 'complex512'"):
        paddle.zeros([2], dtype="complex512")


def test_repr_matches_paddle_format():
    text = repr(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]))
    assert text.startswith("Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), "
                           "stop_gradient=True,\n")
    assert "[[1., 2.]," in text
    assert str(paddle.float32) == "paddle.float32"


def test_inplace_methods_write_the_same_buffer():
    x = paddle.to_tensor([1.0, 2.0])
    y = x.detach()
    version = x.inplace_version
    assert x.add_(paddle.to_tensor([1.0, 1.0])) is x
    assert y.numpy().tolist() == [2.0, 3.0]  # the alias sees the write
    assert x.inplace_version == version + 1
    x.scale_(2.0)
    assert x.numpy().tolist() == [4.0, 6.0]
    x.zero_()
    assert x.numpy().tolist() == [0.0, 0.0]


def test_inplace_on_a_leaf_that_requires_grad_is_rejected():
    x = paddle.to_tensor([1.0], stop_gradient=False)
    with pytest.raises(ValueError, match="leaf"):
        x.add_(paddle.to_tensor([1.0]))


def test_inplace_with_a_broadcast_result_shape_is_rejected():
    x = paddle.to_tensor([1.0])
    with pytest.raises(ValueError, match="shape"):
        x.add_(paddle.to_tensor([1.0, 2.0]))


def test_seed_makes_random_ops_repeat():
    paddle.seed(123)
    a = paddle.uniform([5]).numpy()
    b = paddle.randn([3]).numpy()
    paddle.seed(123)
    np.testing.assert_array_equal(paddle.uniform([5]).numpy(), a)
    np.testing.assert_array_equal(paddle.randn([3]).numpy(), b)
    assert not np.array_equal(paddle.uniform([5]).numpy(), a)


def test_flags_round_trip_and_errors():
    name = "FLAGS_allocator_strategy"
    assert paddle.get_flags([name])[name] == "auto_growth"
    with pytest.raises(KeyError):
        paddle.get_flags(["FLAGS_no_such_flag"])
    with pytest.raises(KeyError):
        paddle.set_flags({"FLAGS_no_such_flag": 1})


def test_methods_mirror_functions():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    assert x.sum().item() == 10.0
    assert x.mean(axis=0).numpy().tolist() == [2.0, 3.0]
    assert x.reshape([4]).shape == [4]
    assert x.T.numpy().tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert x.argmax().item() == 3
    assert x.max(axis=1, keepdim=True).shape == [2, 1]
