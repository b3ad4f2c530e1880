"""bfloat16 matmul: on oneDNN's bf16 matmul where the CPU has AVX512-BF16 or AMX, on float32
sgemm elsewhere; both accumulate in float32 and round the result once, so the product of the
bf16 operands matches the float32 product of the same values to bf16's rounding."""
import numpy as np
import pytest

import paddle


@pytest.mark.parametrize("m,k,n,transpose_x,transpose_y", [
    (64, 96, 48, False, False), (37, 65, 19, True, False), (64, 33, 70, False, True),
    (5, 7, 3, True, True), (1, 300, 1, False, False)])
def test_bf16_matmul_matches_float32_product_of_its_operands(m, k, n, transpose_x, transpose_y):
    rng = np.random.default_rng(m * n)
    x = paddle.to_tensor(rng.standard_normal((k, m) if transpose_x else (m, k)).astype(
        "float32")).astype("bfloat16")
    y = paddle.to_tensor(rng.standard_normal((n, k) if transpose_y else (k, n)).astype(
        "float32")).astype("bfloat16")
    out = paddle.matmul(x, y, transpose_x, transpose_y)
    assert out.dtype == paddle.bfloat16
    x32, y32 = x.astype("float32").numpy(), y.astype("float32").numpy()
    expected = (x32.T if transpose_x else x32) @ (y32.T if transpose_y else y32)
    # One bf16 rounding of the float32-accumulated result: within 2^-8 relative.
    np.testing.assert_allclose(out.astype("float32").numpy(), expected, rtol=2 ** -8,
                               atol=2 ** -8 * np.abs(expected).max())


def test_bf16_matmul_batched_and_its_gradient():
    rng = np.random.default_rng(1)
    x32 = rng.standard_normal((3, 8, 16)).astype("float32")
    y32 = rng.standard_normal((16, 4)).astype("float32")
    x = paddle.to_tensor(x32).astype("bfloat16")
    y = paddle.to_tensor(y32).astype("bfloat16")
    x.stop_gradient = False
    out = paddle.matmul(x, y)
    out.astype("float32").sum().backward()
    np.testing.assert_allclose(out.astype("float32").numpy(),
                               x.astype("float32").numpy() @ y.astype("float32").numpy(),
                               rtol=1e-2, atol=5e-2)
    expected_grad = np.broadcast_to(y.astype("float32").numpy().sum(1), (3, 8, 16))
    np.testing.assert_allclose(x.grad.astype("float32").numpy(), expected_grad, rtol=1e-2,
                               atol=2e-2)
