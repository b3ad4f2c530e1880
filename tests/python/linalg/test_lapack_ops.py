"""What the op harness (op_db_linalg.py) cannot compare elementwise: svd with full_matrices
(whose extra singular vectors are any orthonormal completion), the triangle the symmetric
factorizations read, the values Paddle gives for singular input, and the gradient of the
determinant through a batch."""
import numpy as np
import pytest

import paddle

RNG = np.random.default_rng(3)


@pytest.mark.parametrize("shape", [(4, 2), (2, 5), (2, 3, 3)])
def test_svd_full_matrices_is_an_orthonormal_completion(shape):
    x = RNG.uniform(-1, 1, shape)
    u, s, vh = paddle.linalg.svd(paddle.to_tensor(x), full_matrices=True)
    m, n = shape[-2:]
    k = min(m, n)
    assert u.shape == list(shape[:-2]) + [m, m] and vh.shape == list(shape[:-2]) + [n, n]
    u, s, vh = u.numpy(), s.numpy(), vh.numpy()
    np.testing.assert_allclose(u @ np.swapaxes(u, -1, -2), np.broadcast_to(np.eye(m), u.shape),
                               atol=1e-12)
    np.testing.assert_allclose(vh @ np.swapaxes(vh, -1, -2),
                               np.broadcast_to(np.eye(n), vh.shape), atol=1e-12)
    np.testing.assert_allclose((u[..., :k] * s[..., None, :]) @ vh[..., :k, :], x, atol=1e-12)
    np.testing.assert_allclose(s, np.linalg.svd(x, compute_uv=False), atol=1e-12)


def test_svd_full_matrices_gradient_of_the_singular_values():
    x = paddle.to_tensor(RNG.uniform(-1, 1, (4, 3)), stop_gradient=False)
    _, s, _ = paddle.linalg.svd(x, full_matrices=True)
    grad, = paddle.grad([s.sum()], [x])
    u, _, vh = np.linalg.svd(x.numpy(), full_matrices=False)
    np.testing.assert_allclose(grad.numpy(), u @ vh, atol=1e-10)  # d(sum s)/dx = U Vh


@pytest.mark.parametrize("upper", [False, True])
def test_symmetric_factorizations_read_one_triangle(upper):
    a = RNG.uniform(-1, 1, (3, 3))
    a = a @ a.T + 3 * np.eye(3)
    noisy = a.copy()
    other = np.tril_indices(3, -1) if upper else np.triu_indices(3, 1)
    noisy[other] = 99.0  # the triangle the op must not read
    uplo = "U" if upper else "L"
    np.testing.assert_allclose(paddle.linalg.cholesky(paddle.to_tensor(noisy), upper).numpy(),
                               np.linalg.cholesky(a).T if upper else np.linalg.cholesky(a))
    np.testing.assert_allclose(paddle.linalg.eigvalsh(paddle.to_tensor(noisy), uplo).numpy(),
                               np.linalg.eigvalsh(a))


def test_singular_input():
    singular = paddle.to_tensor(np.array([[[1.0, 2.0], [2.0, 4.0]], [[1.0, 0.0], [0.0, 1.0]]]))
    np.testing.assert_allclose(paddle.linalg.det(singular).numpy(), [0.0, 1.0])
    sign, logabs = paddle.linalg.slogdet(singular).numpy()
    assert sign.tolist() == [0.0, 1.0] and logabs[0] == -np.inf and logabs[1] == 0.0
    with pytest.raises(ValueError, match="inverse: matrix 0 of 'x' is singular"):
        paddle.linalg.inv(singular)


def test_determinant_gradient_through_a_batch_and_sign():
    x = RNG.uniform(-1, 1, (3, 2, 2)) + 2 * np.eye(2)
    x[1] = -x[1][::-1]  # a negative determinant
    t = paddle.to_tensor(x, stop_gradient=False)
    grad, = paddle.grad([paddle.linalg.det(t).sum()], [t])
    expected = np.linalg.det(x)[:, None, None] * np.swapaxes(np.linalg.inv(x), -1, -2)
    np.testing.assert_allclose(grad.numpy(), expected, atol=1e-12)
