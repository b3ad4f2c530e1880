"""Complex randn/standard_normal/gaussian: real and imaginary parts drawn in turn from the float
stream with std / sqrt(2), as Paddle's kernel does (so a seeded run gives Paddle's numbers)."""
import math

import numpy as np
import pytest

import paddle
from paddle.tensor.random import gaussian


@pytest.mark.parametrize("dtype,part", [("complex64", "float32"), ("complex128", "float64")])
def test_complex_draws_interleave_the_float_stream(dtype, part):
    paddle.seed(11)
    z = paddle.randn([2, 3], dtype=dtype)
    paddle.seed(11)
    parts = gaussian([2, 3, 2], 0.0, 1.0 / math.sqrt(2), dtype=part).numpy()
    assert z.dtype == getattr(paddle, dtype) and z.shape == [2, 3]
    np.testing.assert_array_equal(z.numpy(), parts[..., 0] + 1j * parts[..., 1])
    paddle.seed(3)
    shifted = gaussian([4], mean=1 + 1j, std=2.0, dtype=dtype)
    paddle.seed(3)
    parts = gaussian([4, 2], 1.0, 2.0 / math.sqrt(2), dtype=part).numpy()
    np.testing.assert_array_equal(shifted.numpy(), parts[:, 0] + 1j * parts[:, 1])


def test_complex_statistics():
    paddle.seed(0)
    z = paddle.standard_normal([20000], dtype="complex64").numpy()
    assert abs(z.mean()) < 0.03
    assert abs(np.mean(np.abs(z) ** 2) - 1.0) < 0.03


def test_complex_mean_errors():
    with pytest.raises(ValueError, match="gaussian.*mean"):
        gaussian([2], mean=1 + 2j, dtype="complex64")
    with pytest.raises(TypeError, match="gaussian.*mean"):
        gaussian([2], mean=1 + 1j, dtype="float32")
