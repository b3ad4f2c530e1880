"""paddle.autograd.jacobian and hessian against closed forms computed with NumPy."""
import numpy as np
import pytest

import paddle


def leaf(values):
    t = paddle.to_tensor(np.asarray(values, dtype="float64"))
    t.stop_gradient = False
    return t


def test_jacobian_of_a_vector_function():
    x_np = np.array([0.5, -1.0, 2.0])
    x = leaf(x_np)
    J = paddle.autograd.jacobian(x * x, x)
    assert isinstance(J, paddle.autograd.Jacobian) and J.shape == [3, 3]
    np.testing.assert_allclose(J[:].numpy(), np.diag(2 * x_np))
    np.testing.assert_allclose(J[1].numpy(), [0.0, -2.0, 0.0])


def test_jacobian_of_tuples_and_of_0d_tensors():
    x_np, s_np = np.array([1.0, 2.0, 3.0]), 1.5
    x, s = leaf(x_np), leaf(s_np)
    J = paddle.autograd.jacobian((x * s, (x * x).sum()), (x, s))
    assert len(J) == 2 and all(len(row) == 2 for row in J)
    np.testing.assert_allclose(J[0][0][:].numpy(), s_np * np.eye(3))
    np.testing.assert_allclose(J[0][1][:].numpy(), x_np)
    np.testing.assert_allclose(J[1][0][:].numpy(), 2 * x_np)
    assert J[1][1].shape == []
    np.testing.assert_allclose(J[1][1][()].numpy(), 0.0)


def test_batched_jacobian_differentiates_each_sample():
    b_np = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])
    b = leaf(b_np)
    J = paddle.autograd.jacobian(b * b, b, batch_axis=0)
    assert J.shape == [2, 3, 3]
    np.testing.assert_allclose(J[:].numpy(), np.stack([np.diag(2 * row) for row in b_np]))
    J = paddle.autograd.jacobian((b * b).sum(1), b, batch_axis=0)
    np.testing.assert_allclose(J[:].numpy(), 2 * b_np[:, None, :])


def test_hessian():
    x_np, y_np = np.array([0.5, -1.0, 2.0]), np.array([1.0, 3.0])
    x, y = leaf(x_np), leaf(y_np)
    H = paddle.autograd.hessian((x * x * x).sum(), x)
    assert isinstance(H, paddle.autograd.Hessian) and H.shape == [3, 3]
    np.testing.assert_allclose(H[:].numpy(), np.diag(6 * x_np))
    H = paddle.autograd.hessian((x * x).sum() * y.sum(), (x, y))
    np.testing.assert_allclose(H[0][0][:].numpy(), 2 * y_np.sum() * np.eye(3))
    np.testing.assert_allclose(H[0][1][:].numpy(), np.tile(2 * x_np[:, None], (1, 2)))
    np.testing.assert_allclose(H[1][1][:].numpy(), np.zeros((2, 2)))
    b_np = np.array([[1.0, 2.0], [-1.0, 0.5]])
    b = leaf(b_np)
    H = paddle.autograd.hessian((b * b * b).sum(1), b, batch_axis=0)
    np.testing.assert_allclose(H[:].numpy(), np.stack([np.diag(6 * row) for row in b_np]))


def test_bad_arguments_raise_typed_errors():
    x = leaf([1.0, 2.0])
    with pytest.raises(ValueError, match="numel"):
        paddle.autograd.hessian(x * x, x)
    with pytest.raises(ValueError, match="batch_axis"):
        paddle.autograd.jacobian(x, x, batch_axis=1)
    with pytest.raises(ValueError, match="xs.ndim"):
        m = leaf([[1.0, 2.0]])
        paddle.autograd.jacobian(m * m, m)
    with pytest.raises(TypeError, match="jacobian.*'xs'"):
        paddle.autograd.jacobian(x, [1.0])
