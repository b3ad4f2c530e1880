"""The paddle.linalg functions and paddle matrix functions composed of other ops (norms, cond,
matrix_rank, pinv, matrix_power, multi_dot, cov, corrcoef, dist, trace, diagonal, diag,
diag_embed, kron, outer, inner, cross), against NumPy: values, float64 gradients by central
differences, a static program, and the typed errors of bad arguments. The LAPACK ops they build on
are checked by the op harness (op_db_linalg.py)."""
import math

import numpy as np
import pytest

import paddle
from static_testing import new_programs, static_mode

RNG = np.random.default_rng(7)
MATRIX = RNG.uniform(-1.0, 1.0, (3, 4))
SQUARE = RNG.uniform(-1.0, 1.0, (2, 3, 3)) + 3.0 * np.eye(3)
VECTORS = RNG.uniform(-1.0, 1.0, (2, 3, 4))


def t(a):
    return paddle.to_tensor(a)


def close(actual, expected, atol=1e-10, rtol=1e-8):
    np.testing.assert_allclose(np.asarray(actual.numpy(), np.float64), expected, atol=atol,
                               rtol=rtol)


# p_norm takes the root 1/p in float precision, as Paddle does (porder is a float attribute);
# NumPy's is exact.
FLOAT_ROOT = 1e-7


def check_gradient(fn, *arrays):
    """paddle.grad of sum(fn(...) * w) against central differences, for each float64 input."""
    tensors = [paddle.to_tensor(a, stop_gradient=False) for a in arrays]
    out = fn(*tensors)
    weights = RNG.standard_normal(out.shape)
    grads = paddle.grad([(out * t(weights)).sum()], tensors)

    def loss(values):
        return float((fn(*[t(v) for v in values]).numpy() * weights).sum())

    for k, array in enumerate(arrays):
        numeric = np.zeros_like(array)
        for i in range(array.size):
            plus = [a.copy() for a in arrays]
            minus = [a.copy() for a in arrays]
            plus[k].reshape(-1)[i] += 1e-6
            minus[k].reshape(-1)[i] -= 1e-6
            numeric.reshape(-1)[i] = (loss(plus) - loss(minus)) / 2e-6
        np.testing.assert_allclose(grads[k].numpy(), numeric, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("p", [None, "fro", 1, 2, 3.5, 0, math.inf, -math.inf])
def test_norm_over_all_elements_and_one_axis(p):
    ord_ = None if p in (None, "fro") else p
    close(paddle.linalg.norm(t(VECTORS), p), np.linalg.norm(VECTORS.reshape(-1), ord_),
          rtol=FLOAT_ROOT)
    close(paddle.norm(t(VECTORS), p, axis=1, keepdim=True),
          np.linalg.norm(VECTORS, ord_, axis=1, keepdims=True), rtol=FLOAT_ROOT)
    close(paddle.linalg.vector_norm(t(VECTORS), 2.0 if p in (None, "fro") else p, axis=[0, 2]),
          np.linalg.norm(VECTORS.transpose(1, 0, 2).reshape(3, -1), ord_, axis=1),
          rtol=FLOAT_ROOT)


@pytest.mark.parametrize("p", ["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf])
@pytest.mark.parametrize("axis", [[0, 2], [-1, 1]])
def test_matrix_norms(p, axis):
    expected = np.linalg.norm(VECTORS, p, axis=tuple(axis))
    close(paddle.linalg.norm(t(VECTORS), p, axis=axis), expected)
    kept = paddle.linalg.matrix_norm(t(VECTORS), p, axis=axis, keepdim=True)
    close(kept, np.linalg.norm(VECTORS, p, axis=tuple(axis), keepdims=True))


def test_norm_gradients():
    check_gradient(lambda x: paddle.linalg.norm(x, 3.0, axis=1), VECTORS.copy())
    check_gradient(lambda x: paddle.linalg.norm(x, "fro", axis=[0, 1]), MATRIX.copy())
    check_gradient(lambda x: paddle.linalg.matrix_norm(x, "nuc"), SQUARE.copy())
    check_gradient(lambda x: paddle.linalg.matrix_norm(x, math.inf), SQUARE.copy())


def test_norm_errors_name_the_argument():
    with pytest.raises(ValueError, match="norm\\(\\): argument 'p'.*'abc'"):
        paddle.linalg.norm(t(MATRIX), "abc", axis=[0, 1])
    with pytest.raises(ValueError, match="'p' must be a number.*'nuc'"):
        paddle.linalg.norm(t(MATRIX), "nuc", axis=0)
    with pytest.raises(ValueError, match="matrix_norm\\(\\): argument 'p'.*3"):
        paddle.linalg.matrix_norm(t(MATRIX), 3)
    with pytest.raises(IndexError, match="'axis'"):
        paddle.linalg.norm(t(MATRIX), 2, axis=5)
    with pytest.raises(TypeError, match="floating-point"):
        paddle.linalg.norm(paddle.to_tensor([1, 2]))


@pytest.mark.parametrize("p", [None, 2, -2, "fro", "nuc", 1, -1, math.inf, -math.inf])
def test_cond(p):
    close(paddle.linalg.cond(t(SQUARE), p), np.linalg.cond(SQUARE, p), atol=1e-8)


def test_matrix_rank_and_pinv():
    deficient = MATRIX[:, :3] @ np.array([[1.0, 0, 1, 2], [0, 1, 1, 0], [0, 0, 0, 0]])
    assert int(paddle.linalg.matrix_rank(t(deficient)).numpy()) == 2
    assert paddle.linalg.matrix_rank(t(SQUARE)).numpy().tolist() == [3, 3]
    assert int(paddle.linalg.matrix_rank(t(np.diag([1.0, 1e-3, 0.0])), tol=1e-2).numpy()) == 1
    symmetric = np.diag([2.0, -1.0, 0.0])
    assert int(paddle.linalg.matrix_rank(t(symmetric), hermitian=True).numpy()) == 2
    close(paddle.linalg.pinv(t(MATRIX)), np.linalg.pinv(MATRIX))
    close(paddle.linalg.pinv(t(deficient)), np.linalg.pinv(deficient))
    check_gradient(paddle.linalg.pinv, MATRIX.copy())


@pytest.mark.parametrize("n", [0, 1, 2, 5, -1, -3])
def test_matrix_power(n):
    close(paddle.linalg.matrix_power(t(SQUARE), n), np.linalg.matrix_power(SQUARE, n), atol=1e-8)


def test_matrix_power_gradient_and_errors():
    check_gradient(lambda x: paddle.linalg.matrix_power(x, 3), SQUARE.copy())
    check_gradient(lambda x: paddle.linalg.matrix_power(x, -2), SQUARE.copy())
    with pytest.raises(ValueError, match="square"):
        paddle.linalg.matrix_power(t(MATRIX), 2)
    with pytest.raises(TypeError, match="'n' must be an int"):
        paddle.linalg.matrix_power(t(SQUARE), 1.5)


def test_multi_dot():
    a, b, c = MATRIX, MATRIX.T, RNG.uniform(-1, 1, (3, 2))
    close(paddle.linalg.multi_dot([t(a), t(b), t(c)]), np.linalg.multi_dot([a, b, c]))
    v, w = RNG.uniform(-1, 1, 3), RNG.uniform(-1, 1, 2)
    close(paddle.linalg.multi_dot([t(v), t(a), t(b), t(c), t(w)]),
          np.linalg.multi_dot([v, a, b, c, w]))
    with pytest.raises(ValueError, match="x\\[1\\] must be 2-D"):
        paddle.linalg.multi_dot([t(a), t(v), t(b)])


@pytest.mark.parametrize("rowvar", [True, False])
def test_cov_and_corrcoef(rowvar):
    close(paddle.linalg.cov(t(MATRIX), rowvar), np.cov(MATRIX, rowvar=rowvar))
    close(paddle.linalg.cov(t(MATRIX), rowvar, ddof=False), np.cov(MATRIX, rowvar=rowvar, ddof=0))
    observations = MATRIX.shape[1] if rowvar else MATRIX.shape[0]
    fweights = np.arange(1, observations + 1)
    aweights = RNG.uniform(0.5, 1.5, observations)
    close(paddle.linalg.cov(t(MATRIX), rowvar, fweights=t(fweights), aweights=t(aweights)),
          np.cov(MATRIX, rowvar=rowvar, fweights=fweights, aweights=aweights))
    close(paddle.linalg.corrcoef(t(MATRIX), rowvar), np.corrcoef(MATRIX, rowvar=rowvar))
    with pytest.raises(ValueError, match="'fweights' must have shape"):
        paddle.linalg.cov(t(MATRIX), rowvar, fweights=t(np.ones(observations + 1)))


@pytest.mark.parametrize("p", [2, 1, 0, 3, math.inf, -math.inf])
def test_dist(p):
    y = RNG.uniform(-1, 1, (4,))
    close(paddle.dist(t(MATRIX), t(y), p), np.linalg.norm((MATRIX - y).reshape(-1), p),
          rtol=FLOAT_ROOT)


DIAGONALS = [(0, 0, 1), (1, 0, 1), (-1, 0, 1), (2, 2, 0), (-2, -1, 1), (5, 0, 1)]


@pytest.mark.parametrize("offset,axis1,axis2", DIAGONALS)
def test_diagonal_and_trace(offset, axis1, axis2):
    close(paddle.diagonal(t(VECTORS), offset, axis1, axis2),
          np.diagonal(VECTORS, offset, axis1, axis2))
    close(paddle.trace(t(VECTORS), offset, axis1, axis2), np.trace(VECTORS, offset, axis1, axis2))
    with pytest.raises(ValueError, match="'axis1' and 'axis2' must name different dims"):
        paddle.diagonal(t(VECTORS), 0, 1, -2)


@pytest.mark.parametrize("offset", [0, 2, -1])
def test_diag_and_diag_embed(offset):
    v = RNG.uniform(-1, 1, 3)
    close(paddle.diag(t(v), offset), np.diag(v, offset))
    padded = np.diag(v, offset) + np.where(np.diag(np.ones(3), offset) == 0, 7.0, 0.0)
    close(paddle.diag(t(v), offset, padding_value=7), padded)
    close(paddle.diag(t(MATRIX), offset), np.diag(MATRIX, offset))
    embedded = paddle.diag_embed(t(MATRIX), offset).numpy()
    for i in range(3):
        np.testing.assert_allclose(embedded[i], np.diag(MATRIX[i], offset))
    moved = paddle.diag_embed(t(MATRIX), offset, dim1=0, dim2=2).numpy()
    np.testing.assert_allclose(moved, embedded.transpose(1, 0, 2))


def test_kron_outer_inner_cross():
    x, y = RNG.uniform(-1, 1, (2, 3)), RNG.uniform(-1, 1, (3, 2, 2))
    close(paddle.kron(t(x), t(y)), np.kron(x, y))
    close(paddle.outer(t(x), t(y)), np.outer(x, y))
    close(paddle.inner(t(x), t(y[..., :1].repeat(3, -1))), np.inner(x, y[..., :1].repeat(3, -1)))
    a, b = RNG.uniform(-1, 1, (2, 3, 4)), RNG.uniform(-1, 1, (2, 3, 4))
    close(paddle.cross(t(a), t(b)), np.cross(a, b, axis=1))
    close(paddle.linalg.cross(t(a[:, :, :3]), t(b[:, :, :3]), axis=-1),
          np.cross(a[:, :, :3], b[:, :, :3]))
    check_gradient(paddle.kron, x.copy(), y.copy())
    check_gradient(lambda p, q: paddle.cross(p, q, axis=1), a.copy(), b.copy())
    check_gradient(lambda p: paddle.trace(p, 1), VECTORS.copy())
    with pytest.raises(ValueError, match="cross: dim 2 of 'x' must have size 3"):
        paddle.cross(t(a), t(b), axis=2)


EINSUM_CASES = [
    ("ij,jk->ik", [(3, 4), (4, 2)]),
    ("ij,jk", [(3, 4), (4, 2)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("ij->", [(3, 4)]),
    ("ji", [(3, 4)]),
    ("i,j->ij", [(3,), (4,)]),
    ("i,i->", [(3,), (3,)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
    ("b...,b->...", [(2, 3, 4), (2,)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("abc,cd,bd->ad", [(2, 3, 4), (4, 5), (3, 5)]),
    ("iij,j->i", [(3, 3, 2), (2,)]),
    ("ij,ij->ij", [(1, 4), (3, 4)]),
]


@pytest.mark.parametrize("equation,shapes", EINSUM_CASES)
def test_einsum(equation, shapes):
    arrays = [RNG.uniform(-1, 1, s) for s in shapes]
    close(paddle.einsum(equation, *[t(a) for a in arrays]), np.einsum(equation, *arrays))


def test_einsum_gradient_and_errors():
    a, b = RNG.uniform(-1, 1, (2, 3, 4)), RNG.uniform(-1, 1, (4, 3))
    check_gradient(lambda x, y: paddle.einsum("bij,jk->bik", x, y), a.copy(), b.copy())
    check_gradient(lambda x: paddle.einsum("iij->j", x), RNG.uniform(-1, 1, (3, 3, 2)))
    with pytest.raises(ValueError, match="2 operands, received 1"):
        paddle.einsum("ij,jk", t(a))
    with pytest.raises(ValueError, match="does not match an operand of rank 3"):
        paddle.einsum("ij", t(a))
    with pytest.raises(ValueError, match="output label 'z'"):
        paddle.einsum("bij->z", t(a))


def test_solve_on_the_right_and_svdvals():
    b = RNG.uniform(-1, 1, (2, 4, 3))
    close(paddle.linalg.solve(t(SQUARE), t(b), left=False),
          np.swapaxes(np.linalg.solve(np.swapaxes(SQUARE, -1, -2), np.swapaxes(b, -1, -2)),
                      -1, -2))
    close(paddle.linalg.svdvals(t(MATRIX)), np.linalg.svd(MATRIX, compute_uv=False))


def test_compositions_in_a_static_program():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [3, 4], "float64")
            s = paddle.static.data("s", [2, 3, 3], "float64")
            outs = [paddle.linalg.norm(x, "nuc", axis=[0, 1]), paddle.linalg.cond(s),
                    paddle.linalg.det(s), paddle.trace(x), paddle.linalg.pinv(x)]
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        got = exe.run(main, feed={"x": MATRIX, "s": SQUARE}, fetch_list=outs)
    np.testing.assert_allclose(got[0], np.linalg.norm(MATRIX, "nuc"))
    np.testing.assert_allclose(got[1], np.linalg.cond(SQUARE))
    np.testing.assert_allclose(got[2], np.linalg.det(SQUARE))
    np.testing.assert_allclose(got[3], np.trace(MATRIX))
    np.testing.assert_allclose(got[4], np.linalg.pinv(MATRIX), atol=1e-12)


@pytest.mark.parametrize("driver", [None, "gels", "gelsy", "gelsd", "gelss"])
def test_lstsq_full_rank(driver):
    x, y = RNG.uniform(-1, 1, (2, 5, 3)), RNG.uniform(-1, 1, (2, 5, 2))
    solution, residuals, rank, values = paddle.linalg.lstsq(t(x), t(y), driver=driver)
    expected = [np.linalg.lstsq(a, b, rcond=None) for a, b in zip(x, y)]
    close(solution, np.stack([e[0] for e in expected]))
    if driver in ("gels", "gelsd", "gelss"):
        close(residuals, np.stack([e[1] for e in expected]))
    else:
        assert residuals.shape == [0]
    if driver == "gels":
        assert rank.shape == [0] and rank.dtype == paddle.int64
    else:
        assert rank.dtype == paddle.int32 and rank.numpy().tolist() == [3, 3]
    if driver in ("gelsd", "gelss"):
        close(values, np.stack([e[3] for e in expected]))
    else:
        assert values.shape == [0]


def test_lstsq_rank_deficient_gives_the_minimum_norm_solution():
    x = MATRIX[:, :2] @ RNG.uniform(-1, 1, (2, 3))  # 3 x 3 of rank 2
    y = RNG.uniform(-1, 1, (3, 1))
    solution, residuals, rank, values = paddle.linalg.lstsq(t(x), t(y), driver="gelsd")
    close(solution, np.linalg.lstsq(x, y, rcond=None)[0])
    assert int(rank.numpy()) == 2 and residuals.shape == [0]
    with pytest.raises(ValueError, match="'driver' must be one of"):
        paddle.linalg.lstsq(t(x), t(y), driver="qr")


@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (2, 5, 2)])
def test_householder_product_rebuilds_q(shape):
    a = RNG.uniform(-1, 1, shape)
    reflectors, taus = [], []
    for matrix in a.reshape((-1,) + shape[-2:]):
        h, tau = np.linalg.qr(matrix, mode="raw")
        reflectors.append(h.T)
        taus.append(tau)
    x = np.stack(reflectors).reshape(shape)
    tau = np.stack(taus).reshape(shape[:-2] + (-1,))
    q = np.stack([np.linalg.qr(m)[0] for m in a.reshape((-1,) + shape[-2:])]).reshape(shape)
    close(paddle.linalg.householder_product(t(x), t(tau)), q)
    check_gradient(paddle.linalg.householder_product, x.copy(), tau.copy())
    with pytest.raises(ValueError, match="m >= n"):
        paddle.linalg.householder_product(t(np.swapaxes(x, -1, -2)[..., :2, :]), t(tau))
