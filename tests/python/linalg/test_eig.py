"""paddle.linalg.eig and eigvals beyond the harness's sorted, gauge-invariant comparison
(op_db_eig.py): A V = V diag(w) in every dtype, the vectors exactly as LAPACK (and so NumPy and
Paddle) normalise them, the result dtypes, and the gradients of real and complex input against
values PaddlePaddle 3.3.1 gives (recorded with /opt/venv-paddle, printed to 10 digits)."""
import numpy as np
import pytest

import paddle

RNG = np.random.default_rng(11)


def _matrices(shape, dtype):
    x = RNG.uniform(-1, 1, shape)
    if dtype.startswith("complex"):
        x = x + 1j * RNG.uniform(-1, 1, shape)
    return x.astype(dtype)


@pytest.mark.parametrize("dtype,result", [("float32", "complex64"), ("float64", "complex128"),
                                          ("complex64", "complex64"),
                                          ("complex128", "complex128")])
@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 5, 5), (1, 1)])
def test_eigenpairs_reconstruct_the_matrix(dtype, result, shape):
    x = _matrices(shape, dtype)
    w, v = paddle.linalg.eig(paddle.to_tensor(x))
    assert w.dtype == getattr(paddle, result) and v.dtype == getattr(paddle, result)
    assert w.shape == list(shape[:-1]) and v.shape == list(shape)
    w, v = w.numpy(), v.numpy()
    tol = 1e-4 if result == "complex64" else 1e-10
    np.testing.assert_allclose(x @ v, v * w[..., None, :], atol=tol)
    np.testing.assert_allclose(np.linalg.norm(v, axis=-2), np.ones(w.shape), atol=tol)
    np.testing.assert_allclose(paddle.linalg.eigvals(paddle.to_tensor(x)).numpy(), w, atol=tol)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_vectors_are_normalised_as_numpy_returns_them(dtype):
    """geev scales each vector to unit norm with its largest component real; NumPy calls the
    same routine, so values and vectors agree in order and phase."""
    x = _matrices((3, 4, 4), dtype)
    w, v = paddle.linalg.eig(paddle.to_tensor(x))
    expected_w, expected_v = np.linalg.eig(x)
    np.testing.assert_allclose(w.numpy(), expected_w, atol=1e-10)
    np.testing.assert_allclose(v.numpy(), expected_v, atol=1e-10)


@pytest.mark.parametrize("shape", [(2, 0, 0), (0, 3, 3)])
def test_empty_batches(shape):
    w, v = paddle.linalg.eig(paddle.zeros(shape))
    assert w.shape == list(shape[:-1]) and v.shape == list(shape) and w.dtype == paddle.complex64
    assert paddle.linalg.eigvals(paddle.zeros(shape, dtype="float64")).shape == list(shape[:-1])
    x = paddle.zeros(shape, dtype="float64")
    x.stop_gradient = False
    w, v = paddle.linalg.eig(x)
    (paddle.abs(v).sum() + paddle.real(w).sum()).backward()
    assert x.grad.shape == list(shape)


def test_tensor_methods_and_no_paddle_eig():
    x = paddle.to_tensor(_matrices((3, 3), "float64"))
    np.testing.assert_allclose(x.eigvals().numpy(), paddle.linalg.eigvals(x).numpy())
    np.testing.assert_allclose(x.eig()[1].numpy(), paddle.linalg.eig(x)[1].numpy())
    assert not hasattr(paddle, "eig") and not hasattr(paddle, "eigvals")


def test_eigvals_has_no_gradient():
    x = paddle.to_tensor(_matrices((3, 3), "float64"), stop_gradient=False)
    assert paddle.linalg.eigvals(x).stop_gradient


def _paddle_loss(w, v, weights):
    return paddle.abs(v).sum() + paddle.real(w * paddle.to_tensor(weights)).sum()


def test_gradient_of_a_real_matrix_matches_paddle():
    """A conjugate pair and a real eigenvalue; the gradient is real like x."""
    x = paddle.to_tensor(np.array([[2.0, -1.5, 0.3], [1.5, 2.0, 0.1], [0.2, 0.0, 5.0]]),
                         stop_gradient=False)
    w, v = paddle.linalg.eig(x)
    _paddle_loss(w, v, np.array([1 + 2j, 0.5 - 1j, 2])).backward()
    assert x.grad.dtype == paddle.float64
    np.testing.assert_allclose(w.numpy(), [1.9933451848 + 1.4933391279j,
                                           1.9933451848 - 1.4933391279j, 5.0133096304], atol=1e-9)
    np.testing.assert_allclose(x.grad.numpy(), [[0.7851667731, 1.5164274556, 0.470691904],
                                                [-1.5139494193, 0.7785952702, 0.1723838695],
                                                [0.5751256909, -0.0220216123, 1.9362379567]],
                               atol=1e-8)


def test_gradient_of_a_complex_matrix_matches_paddle():
    x = paddle.to_tensor(np.array([[1 + 1j, 2], [3 - 0.5j, 4 - 2j]]), stop_gradient=False)
    w, v = paddle.linalg.eig(x)
    _paddle_loss(w, v, np.array([1 + 2j, 0.5 - 1j])).backward()
    np.testing.assert_allclose(v.numpy(), [[0.8481936116, 0.3243938759 + 0.1976729062j],
                                           [-0.4914822744 - 0.1975165088j, 0.9250373157]],
                               atol=1e-9)
    np.testing.assert_allclose(x.grad.numpy(),
                               [[1.4239142967 - 1.4673227011j, 0.1349850452 + 1.6448292936j],
                                [0.2496567377 + 1.0549434061j, 0.0760857033 + 0.4673227011j]],
                               atol=1e-8)


def test_only_the_eigenvalues_differentiated():
    """d(sum w)/dx = I: the trace's gradient, with the eigenvector cotangent left out (zeros)."""
    x = paddle.to_tensor(_matrices((2, 3, 3), "float64"), stop_gradient=False)
    w, _ = paddle.linalg.eig(x)
    paddle.real(w).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.broadcast_to(np.eye(3), (2, 3, 3)), atol=1e-10)


def test_errors_name_the_op_and_the_shape():
    with pytest.raises(ValueError, match=r"eig.*square matrices, received shape \[2, 3\]"):
        paddle.linalg.eig(paddle.zeros([2, 3]))
    with pytest.raises(ValueError, match=r"eigvals.*rank >= 2\), received shape \[3\]"):
        paddle.linalg.eigvals(paddle.zeros([3]))
    x = np.eye(3)
    x[1, 2] = np.nan
    with pytest.raises(ValueError, match=r"eig: matrix 0 of 'x' \(shape \[3, 3\]\) has an inf"):
        paddle.linalg.eig(paddle.to_tensor(x))
    with pytest.raises(TypeError, match="float32, float64, complex64 or complex128"):
        paddle.linalg.eig(paddle.ones([2, 2], dtype="int32"))
