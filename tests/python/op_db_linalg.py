"""Harness entries (op_db.py) of the dense linear algebra ops (paddle/ops/yaml/lapack.yaml):
inverse, determinant, slogdeterminant, cholesky, solve, triangular_solve, cholesky_solve, eigh,
eigvalsh, svd and qr, against numpy.linalg.

The inputs are well conditioned (diagonally dominant, or symmetric positive definite where the op
needs it) so that float64 central differences are accurate. The factorizations of a symmetric
matrix read one triangle, so their entries symmetrize the input first: the gradient checked is
then the symmetric one the rules return. Eigenvectors and singular vectors are defined up to
sign; those entries fix the sign (the first row of each vector positive) on both sides, which
keeps the loss smooth, so the vector gradients are checked too."""
import numpy as np

import paddle
from paddle import _C_ops
from harness import ErrorSample, OpInfo, Sample


def general(rng, shape):
    """Square matrices kept well away from singular by a dominant diagonal."""
    n = shape[-1]
    return rng.uniform(-1.0, 1.0, size=shape) + 3.0 * np.eye(n)


def spd(rng, shape):
    """Symmetric positive definite matrices: b b^T + n I."""
    b = rng.uniform(-1.0, 1.0, size=shape)
    return b @ np.swapaxes(b, -1, -2) + shape[-1] * np.eye(shape[-1])


def rect(rng, shape):
    return rng.uniform(-1.0, 1.0, size=shape)


def np_t(x):
    return np.swapaxes(x, -1, -2)


def sym_np(x):
    return (x + np_t(x)) / 2


def sym(x):
    """The symmetric part of square float matrices; anything else unchanged, for the op's own
    error."""
    if not isinstance(x, paddle.Tensor):
        return x
    square = len(x.shape) >= 2 and x.shape[-1] == x.shape[-2]
    if not square or x.dtype not in (paddle.float32, paddle.float64):
        return x
    return (x + paddle.transpose(x, _swap_last(x))) * 0.5


def _swap_last(x):
    perm = list(range(len(x.shape)))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return perm


SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]])
NOT_PD = np.array([[1.0, 2.0], [2.0, 1.0]])


def square_errors():
    """The errors every square-matrix op shares: not square, not a matrix, not floating."""
    return [
        ErrorSample([np.zeros((2, 3))], {}, ValueError, "square"),
        ErrorSample([np.zeros((3,))], {}, ValueError, "rank >= 2"),
        ErrorSample([np.zeros((2, 2), dtype=np.int64)], {}, TypeError, "float32 or float64"),
        ErrorSample([[[1.0]]], {}, TypeError, "must be a Tensor")]


# ---------------------------------------------------------------- inverse, determinants
def np_slogdet(x):
    sign, logabs = np.linalg.slogdet(x)
    return np.stack([sign, logabs])


# ---------------------------------------------------------------- cholesky
def cholesky_sym(x, upper=False):
    return paddle.linalg.cholesky(sym(x), upper)


def np_cholesky(x, upper=False):
    lower = np.linalg.cholesky(sym_np(x))
    return np_t(lower) if upper else lower


# ---------------------------------------------------------------- solves
def np_triangular_solve(x, y, upper=True, transpose=False, unitriangular=False):
    a = np.triu(x) if upper else np.tril(x)
    if unitriangular:
        a = a - a * np.eye(x.shape[-1]) + np.eye(x.shape[-1])
    if transpose:
        a = np_t(a)
    return np.linalg.solve(a, y)


def np_cholesky_solve(x, y, upper=False):
    factor = np.triu(y) if upper else np.tril(y)
    a = np_t(factor) @ factor if upper else factor @ np_t(factor)
    return np.linalg.solve(a, x)


def triangular(rng, shape):
    """Matrices whose triangles are well conditioned (diagonal 2 to 3)."""
    return rng.uniform(-0.5, 0.5, size=shape) + np.diag(rng.uniform(2.0, 3.0, size=shape[-1]))


# ---------------------------------------------------------------- eigh, eigvalsh
def np_signs(vectors):
    """+-1 per column making its first entry nonnegative."""
    first = vectors[..., :1, :]
    return np.where(first < 0, -1.0, 1.0)


def signs(vectors):
    first = vectors[..., :1, :]
    return paddle.where(first < 0, paddle.full_like(first, -1.0), paddle.full_like(first, 1.0))


def eigh_fixed(x, UPLO="L"):
    values, vectors = paddle.linalg.eigh(sym(x), UPLO)
    return values, vectors * signs(vectors)


def np_eigh_fixed(x, UPLO="L"):
    values, vectors = np.linalg.eigh(sym_np(x), UPLO)
    return values, vectors * np_signs(vectors)


def eigvalsh_sym(x, UPLO="L"):
    return paddle.linalg.eigvalsh(sym(x), UPLO)


def np_eigvalsh(x, UPLO="L"):
    return np.linalg.eigvalsh(sym_np(x), UPLO)


def distinct_spectrum(rng, shape):
    """Symmetric matrices with well separated eigenvalues (1, 2.5, 4, ...)."""
    n = shape[-1]
    q, _ = np.linalg.qr(rng.standard_normal(shape))
    values = 1.0 + 1.5 * np.arange(n)
    return (q * values[..., None, :]) @ np_t(q)


# ---------------------------------------------------------------- svd
def svd_fixed(x):
    """u, s, vh with each singular pair's sign fixed. (full_matrices, whose extra columns span a
    complement and are not unique, is checked in linalg/test_lapack_ops.py.)"""
    u, s, vh = paddle.linalg.svd(x)
    d = signs(u)
    return u * d, s, vh * paddle.transpose(d, _swap_last(d))


def np_svd_fixed(x):
    u, s, vh = np.linalg.svd(x, full_matrices=False)
    d = np_signs(u)
    return u * d, s, vh * np_t(d)


def separated_singular(rng, shape):
    """Matrices with singular values 1, 2, 3, ... (distinct and away from zero)."""
    m, n = shape[-2], shape[-1]
    k = min(m, n)
    u, _ = np.linalg.qr(rng.standard_normal(shape[:-2] + (m, k)))
    v, _ = np.linalg.qr(rng.standard_normal(shape[:-2] + (n, k)))
    return (u * (1.0 + np.arange(k))) @ np_t(v)


# ---------------------------------------------------------------- qr
def qr_api(x, mode="reduced"):
    return paddle.linalg.qr(x, mode)


def np_qr(x, mode="reduced"):
    return np.linalg.qr(x, mode)


# ---------------------------------------------------------------- lu, lu_unpack
def np_lu_matrix(a):
    """getrf's partial pivoting on one matrix: (packed L and U, 1-based pivots, info)."""
    a = a.copy()
    m, n = a.shape
    k = min(m, n)
    pivots = np.zeros(k, np.int32)
    info = 0
    for j in range(k):
        p = j + int(np.argmax(np.abs(a[j:, j])))
        pivots[j] = p + 1
        a[[j, p]] = a[[p, j]]
        if a[j, j] == 0:
            info = info or j + 1
            continue
        a[j + 1:, j] /= a[j, j]
        a[j + 1:, j + 1:] -= np.outer(a[j + 1:, j], a[j, j + 1:])
    return a, pivots, np.int32(info)


def np_lu(x, pivot=True, get_infos=False):
    batch = x.shape[:-2]
    parts = [np_lu_matrix(a) for a in x.reshape((-1,) + x.shape[-2:])]
    out = np.stack([p[0] for p in parts]).reshape(x.shape)
    pivots = np.stack([p[1] for p in parts]).reshape(batch + (-1,))
    infos = np.array([p[2] for p in parts], np.int32).reshape(batch)
    return (out, pivots, infos) if get_infos else (out, pivots)


def lu_api(x, pivot=True, get_infos=False):
    return paddle.linalg.lu(x, pivot, get_infos)


def np_lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True):
    m, n = x.shape[-2:]
    k = min(m, n)
    lower = np.tril(x, -1)[..., :, :k] + np.eye(m, k)
    upper = np.triu(x)[..., :k, :]
    pmat = np.zeros(x.shape[:-2] + (m, m))
    for index in np.ndindex(x.shape[:-2]):
        rows = list(range(m))
        for i, p in enumerate(y[index]):
            rows[i], rows[p - 1] = rows[p - 1], rows[i]
        pmat[index][rows, range(m)] = 1.0
    return pmat, lower, upper


def pivots_for(rng, batch, m, n):
    """Valid 1-based pivots: row i swaps with a row at or below it."""
    k = min(m, n)
    return np.array([[rng.integers(i, m) + 1 for i in range(k)]
                     for _ in range(int(np.prod(batch, dtype=int)))],
                    np.int32).reshape(tuple(batch) + (k,))


def lu_unpack_sample(rng, batch, m, n):
    return Sample([rect(rng, tuple(batch) + (m, n)), pivots_for(rng, batch, m, n)])


# ---------------------------------------------------------------- p_norm, frobenius_norm
def p_norm_api(x, porder=2.0, axis=-1, epsilon=1e-12, keepdim=False, asvector=False):
    return _C_ops.p_norm(x, porder, axis, epsilon, keepdim, asvector)


def np_p_norm(x, porder=2.0, axis=-1, epsilon=1e-12, keepdim=False, asvector=False):
    axes = None if asvector else axis
    magnitude = np.abs(x)
    if porder == np.inf:
        out = magnitude.max(axis=axes, keepdims=keepdim)
    elif porder == -np.inf:
        out = magnitude.min(axis=axes, keepdims=keepdim)
    elif porder == 0:
        out = (x != 0).sum(axis=axes, keepdims=keepdim).astype(x.dtype)
    else:
        out = (magnitude ** porder).sum(axis=axes, keepdims=keepdim) ** (1.0 / porder)
    return np.asarray(out)


def frobenius_norm_api(x, dim=(), keep_dim=False, reduce_all=False):
    return _C_ops.frobenius_norm(x, list(dim), keep_dim, reduce_all)


def np_frobenius_norm(x, dim=(), keep_dim=False, reduce_all=False):
    axes = None if reduce_all or not dim else tuple(dim)
    return np.asarray(np.sqrt((x * x).sum(axis=axes, keepdims=keep_dim)))


def signed_away_from_zero(rng, shape):
    """Values with |x| in [0.3, 1.5] and either sign: |x|^(p-1) is smooth there."""
    return rng.uniform(0.3, 1.5, size=shape) * rng.choice([-1.0, 1.0], size=shape)


# ---------------------------------------------------------------- diagonal, trace, diag_embed
def np_diagonal(x, offset=0, axis1=0, axis2=1):
    return np.ascontiguousarray(np.diagonal(x, offset, axis1, axis2))


def np_trace(x, offset=0, axis1=0, axis2=1):
    return np.asarray(np.trace(x, offset, axis1, axis2)).astype(x.dtype)


def np_diag_embed(x, offset=0, dim1=-2, dim2=-1):
    n = x.shape[-1]
    size = n + abs(offset)
    out = np.zeros(x.shape[:-1] + (size, size), x.dtype)
    rows = np.arange(n) + max(0, -offset)
    out[..., rows, rows + offset] = x
    rank = out.ndim
    d1, d2 = dim1 % rank, dim2 % rank
    # The two matrix dims (last) go to d1 and d2; the batch dims fill the rest in order.
    perm = [None] * rank
    perm[d1], perm[d2] = rank - 2, rank - 1
    batch = iter(range(rank - 2))
    return np.transpose(out, [p if p is not None else next(batch) for p in perm])


def diagonal_grad_op(x, out_grad, offset=0, axis1=0, axis2=1):
    """The diagonal_grad kernel, run as a program op (it has no Python API)."""
    from op_db import program_op  # op_db imports this module's entries at its end
    return program_op("diagonal_grad", {"Input": x, "Out@GRAD": out_grad},
                      {"Input@GRAD": (list(x.shape), "Out@GRAD")},
                      {"offset": offset, "axis1": axis1, "axis2": axis2})[0]


def np_diagonal_grad(x, out_grad, offset=0, axis1=0, axis2=1):
    grad = np.zeros(x.shape, out_grad.dtype)
    view = np.diagonal(grad, offset, axis1, axis2)
    view.setflags(write=True)
    view[...] = out_grad
    return grad


def diagonal_samples(rng, make=rect):
    return [
        Sample([make(rng, (3, 4))]),
        Sample([make(rng, (2, 3, 4))], {"offset": 1, "axis1": 2, "axis2": 0}),
        Sample([make(rng, (3, 4, 2))], {"offset": -2, "axis1": -3, "axis2": 1}),
        # Past the matrix: an empty diagonal (and a zero trace).
        Sample([make(rng, (2, 3))], {"offset": 5}, grad_args=NO_GRAD_EMPTY)]


NO_GRAD_EMPTY = []  # nothing to differentiate: diagonal's result is empty
DIAGONAL_ERRORS = [
    ErrorSample([np.zeros((3,))], {}, ValueError, "at least 2 dims"),
    ErrorSample([np.zeros((2, 3))], {"axis1": 1, "axis2": -1}, ValueError, "different dims"),
    ErrorSample([np.zeros((2, 3))], {"axis2": 2}, IndexError, "'axis2'")]


# ---------------------------------------------------------------- cross, kron
def np_cross(x, y, axis=9):
    if axis == 9:
        axis = list(x.shape).index(3)
    return np.cross(x, y, axis=axis)


def cross_api(x, y, axis=9):
    return paddle.cross(x, y, axis)


CUBIC_KEPT = {"porder": 3.0, "axis": 1, "keepdim": True}
SMALLEST_OF_ALL_KEPT = {"porder": -np.inf, "asvector": True, "keepdim": True}
NO_GRAD_RECTANGULAR = []  # lu's gradient is implemented for square matrices only
NO_GRAD_SINGULAR = []  # U of a singular matrix is not invertible: no gradient

UNIT_LOWER_TRANSPOSED = {"upper": False, "transpose": True, "unitriangular": True}
NO_GRAD_WIDE = []  # QR's gradient is defined for m >= n only (qr_grad raises otherwise)

LINALG_OPS = [
    OpInfo("inverse", paddle.linalg.inv, np.linalg.inv, lambda rng: [
        Sample([general(rng, (3, 3))]),
        Sample([general(rng, (2, 4, 4))]),
        Sample([general(rng, (1, 1))])],
        second_order=True,
        errors=lambda: square_errors() + [
            ErrorSample([SINGULAR], {}, ValueError, "inverse: matrix 0 of 'x' is singular")]),
    OpInfo("determinant", paddle.linalg.det, np.linalg.det, lambda rng: [
        Sample([general(rng, (3, 3))]),
        Sample([general(rng, (2, 2, 4, 4))]),
        Sample([-general(rng, (2, 2))])],
        second_order=True,
        errors=lambda: square_errors()),
    OpInfo("slogdeterminant", paddle.linalg.slogdet, np_slogdet, lambda rng: [
        Sample([general(rng, (3, 3))]),
        Sample([-general(rng, (3, 2, 2))])],
        second_order=True,
        errors=lambda: square_errors()),
    OpInfo("cholesky", cholesky_sym, np_cholesky, lambda rng: [
        Sample([spd(rng, (3, 3))]),
        Sample([spd(rng, (2, 4, 4))], {"upper": True})],
        second_order=True,
        errors=lambda: square_errors() + [
            ErrorSample([NOT_PD], {}, ValueError, "cholesky: matrix 0 of 'x' is not positive "
                                                  "definite")]),
    OpInfo("solve", paddle.linalg.solve, np.linalg.solve, lambda rng: [
        Sample([general(rng, (3, 3)), rect(rng, (3, 2))]),
        Sample([general(rng, (2, 3, 3)), rect(rng, (2, 3, 1))]),
        # x's batch broadcasts against y's.
        Sample([general(rng, (3, 3)), rect(rng, (2, 3, 2))])],
        second_order=True,
        errors=lambda: [
            ErrorSample([SINGULAR, np.ones((2, 1))], {}, ValueError,
                        "solve: matrix 0 of 'x' is singular"),
            ErrorSample([np.eye(3), np.ones((2, 1))], {}, ValueError, "as many rows"),
            ErrorSample([np.zeros((2, 3)), np.ones((2, 1))], {}, ValueError, "square"),
            ErrorSample([np.eye(2), np.ones((2, 1), dtype=np.float32)], {}, TypeError,
                        "dtype float32")]),
    OpInfo("triangular_solve", paddle.linalg.triangular_solve, np_triangular_solve, lambda rng: [
        Sample([triangular(rng, (3, 3)), rect(rng, (3, 2))]),
        Sample([triangular(rng, (2, 3, 3)), rect(rng, (2, 3, 2))], {"upper": False}),
        Sample([triangular(rng, (3, 3)), rect(rng, (3, 1))], {"transpose": True}),
        Sample([triangular(rng, (4, 4)), rect(rng, (2, 4, 2))], UNIT_LOWER_TRANSPOSED)],
        second_order=True,
        errors=lambda: [
            ErrorSample([np.eye(3), np.ones((2, 1))], {}, ValueError, "as many rows"),
            ErrorSample([np.zeros((2, 3)), np.ones((2, 1))], {}, ValueError, "square")]),
    OpInfo("cholesky_solve", paddle.linalg.cholesky_solve, np_cholesky_solve, lambda rng: [
        Sample([rect(rng, (3, 2)), triangular(rng, (3, 3))]),
        Sample([rect(rng, (2, 3, 1)), triangular(rng, (2, 3, 3))], {"upper": True})],
        second_order=True,
        errors=lambda: [
            ErrorSample([np.ones((2, 1)), np.eye(3)], {}, ValueError, "as many rows"),
            ErrorSample([np.ones((2, 1)), np.zeros((2, 3))], {}, ValueError, "square")]),
    OpInfo("eigh", eigh_fixed, np_eigh_fixed, lambda rng: [
        Sample([distinct_spectrum(rng, (3, 3))]),
        Sample([distinct_spectrum(rng, (2, 4, 4))], {"UPLO": "U"})],
        second_order=True, atol=1e-4, rtol=1e-4,
        errors=lambda: square_errors() + [
            ErrorSample([np.eye(2)], {"UPLO": "X"}, ValueError, "'UPLO' must be 'L' or 'U'")]),
    OpInfo("eigvalsh", eigvalsh_sym, np_eigvalsh, lambda rng: [
        Sample([distinct_spectrum(rng, (3, 3))]),
        Sample([distinct_spectrum(rng, (2, 4, 4))], {"UPLO": "U"})],
        second_order=True, atol=1e-4, rtol=1e-4,
        errors=lambda: square_errors()),
    OpInfo("svd", svd_fixed, np_svd_fixed, lambda rng: [
        Sample([separated_singular(rng, (4, 3))]),
        Sample([separated_singular(rng, (3, 5))]),
        Sample([separated_singular(rng, (2, 3, 3))])],
        second_order=True, atol=1e-4, rtol=1e-4,
        errors=lambda: [
            ErrorSample([np.zeros((3,))], {}, ValueError, "rank >= 2"),
            ErrorSample([np.zeros((2, 2), dtype=np.int32)], {}, TypeError,
                        "float32 or float64")]),
    OpInfo("qr", qr_api, np_qr, lambda rng: [
        Sample([separated_singular(rng, (4, 3))]),
        Sample([general(rng, (3, 3))]),
        Sample([separated_singular(rng, (2, 5, 2))]),
        Sample([general(rng, (3, 3))], {"mode": "r"}),
        Sample([general(rng, (3, 3))], {"mode": "complete"}),
        Sample([separated_singular(rng, (4, 3))], {"mode": "complete"}, grad_args=NO_GRAD_WIDE),
        Sample([separated_singular(rng, (3, 5))], grad_args=NO_GRAD_WIDE)],
        second_order=True, atol=1e-4, rtol=1e-4,
        errors=lambda: [
            ErrorSample([np.eye(3)], {"mode": "full"}, ValueError, "'mode'"),
            ErrorSample([np.zeros((3,))], {}, ValueError, "rank >= 2")]),
    OpInfo("lu", lu_api, np_lu, lambda rng: [
        Sample([general(rng, (3, 3))]),
        Sample([general(rng, (2, 4, 4))], {"get_infos": True}),
        Sample([rect(rng, (4, 3))], grad_args=NO_GRAD_RECTANGULAR),
        Sample([rect(rng, (2, 3, 5))], grad_args=NO_GRAD_RECTANGULAR),
        Sample([SINGULAR], {"get_infos": True}, grad_args=NO_GRAD_SINGULAR)],
        second_order=True,
        errors=lambda: [
            ErrorSample([np.eye(3)], {"pivot": False}, ValueError, "pivot=False"),
            ErrorSample([np.zeros((3,))], {}, ValueError, "rank >= 2")]),
    OpInfo("lu_unpack", paddle.linalg.lu_unpack, np_lu_unpack, lambda rng: [
        lu_unpack_sample(rng, [], 3, 3),
        lu_unpack_sample(rng, [2], 4, 4),
        lu_unpack_sample(rng, [], 4, 2),
        lu_unpack_sample(rng, [2], 2, 4)],
        second_order=True, no_second_order_reason="unpacking copies elements: a linear map",
        errors=lambda: [
            ErrorSample([np.eye(3), np.ones(3)], {}, TypeError, "int32"),
            ErrorSample([np.eye(3), np.ones(2, np.int32)], {}, ValueError, "pivots"),
            ErrorSample([np.eye(3), np.array([1, 2, 7], np.int32)], {}, ValueError,
                        "pivot 2 of matrix 0 is 7")]),
    OpInfo("p_norm", p_norm_api, np_p_norm, lambda rng: [
        Sample([signed_away_from_zero(rng, (3, 4))]),
        Sample([signed_away_from_zero(rng, (2, 3, 4))], CUBIC_KEPT),
        Sample([signed_away_from_zero(rng, (3, 4))], {"porder": 1.0, "axis": 0}),
        Sample([signed_away_from_zero(rng, (3, 4))], {"porder": 0.5, "asvector": True}),
        Sample([signed_away_from_zero(rng, (2, 5))], {"porder": np.inf, "axis": 1}),
        Sample([signed_away_from_zero(rng, (2, 5))], SMALLEST_OF_ALL_KEPT),
        Sample([signed_away_from_zero(rng, (6,))], {"porder": 0.0})],
        second_order=True,
        errors=lambda: [
            ErrorSample([np.zeros((2, 3))], {"axis": 2}, ValueError, "'axis' must be in [-2, 2)"),
            ErrorSample([np.zeros((2, 3), np.int64)], {}, TypeError, "float32 or float64")]),
    OpInfo("frobenius_norm", frobenius_norm_api, np_frobenius_norm, lambda rng: [
        Sample([signed_away_from_zero(rng, (3, 4))], {"dim": [0, 1]}),
        Sample([signed_away_from_zero(rng, (2, 3, 4))], {"dim": [-1, 0], "keep_dim": True}),
        Sample([signed_away_from_zero(rng, (2, 3))], {"reduce_all": True})],
        second_order=True,
        errors=lambda: [
            ErrorSample([np.zeros((2, 3))], {"dim": [0, 3]}, ValueError, "'dim' must be in"),
            ErrorSample([np.zeros((2, 3), np.int32)], {}, TypeError, "float32 or float64")]),
    OpInfo("diagonal", paddle.diagonal, np_diagonal, diagonal_samples, second_order=True,
           no_second_order_reason="diagonal copies elements: a linear map",
           errors=lambda: DIAGONAL_ERRORS),
    OpInfo("diagonal_grad", diagonal_grad_op, np_diagonal_grad, lambda rng: [
        Sample([rect(rng, (3, 4)), rect(rng, (3,))]),
        Sample([rect(rng, (2, 3, 4)), rect(rng, (3, 1))], {"offset": 1, "axis1": 2, "axis2": 0})],
        grad=False, no_grad_reason="its gradient, diagonal, is checked as the second-order "
                                   "gradient of the diagonal entry",
        errors=lambda: [
            ErrorSample([np.zeros((3, 4)), np.zeros((2,))], {}, ValueError, "'out_grad'")]),
    OpInfo("trace", paddle.trace, np_trace, diagonal_samples, second_order=True,
           no_second_order_reason="trace is linear", errors=lambda: DIAGONAL_ERRORS),
    OpInfo("diag_embed", paddle.diag_embed, np_diag_embed, lambda rng: [
        Sample([rect(rng, (3,))]),
        Sample([rect(rng, (2, 3))], {"offset": 1}),
        Sample([rect(rng, (2, 3))], {"offset": -2, "dim1": 0, "dim2": 2}),
        Sample([rect(rng, (2, 2, 3))], {"dim1": -1, "dim2": 1})],
        second_order=True, no_second_order_reason="diag_embed places elements: a linear map",
        errors=lambda: [
            ErrorSample([np.zeros(())], {}, ValueError, "at least 1 dim"),
            ErrorSample([np.zeros((3,))], {"dim1": 0, "dim2": -2}, ValueError, "different dims"),
            ErrorSample([np.zeros((3,))], {"dim1": 3}, IndexError, "'dim1'")]),
    OpInfo("cross", cross_api, np_cross, lambda rng: [
        Sample([rect(rng, (3,)), rect(rng, (3,))]),
        Sample([rect(rng, (2, 3, 4)), rect(rng, (2, 3, 4))]),
        Sample([rect(rng, (4, 3, 3)), rect(rng, (4, 3, 3))], {"axis": -1}),
        Sample([rect(rng, (3, 2)), rect(rng, (3, 2))], {"axis": 0})],
        second_order=True,
        errors=lambda: [
            ErrorSample([np.zeros((2, 4)), np.zeros((2, 4))], {}, ValueError, "no dim"),
            ErrorSample([np.zeros((3, 4)), np.zeros((3, 4))], {"axis": 1}, ValueError,
                        "dim 1 of 'x' must have size 3"),
            ErrorSample([np.zeros((3,)), np.zeros((3, 1))], {}, ValueError, "same shape"),
            ErrorSample([np.zeros((3,)), np.zeros((3,))], {"axis": 2}, IndexError, "'axis'")]),
    OpInfo("kron", paddle.kron, np.kron, lambda rng: [
        Sample([rect(rng, (2, 3)), rect(rng, (3, 2))]),
        Sample([rect(rng, (2,)), rect(rng, (2, 3, 2))]),
        Sample([rect(rng, (2, 1, 3)), rect(rng, (2, 2))]),
        Sample([rect(rng, ()), rect(rng, (3,))])],
        second_order=True,
        errors=lambda: [
            ErrorSample([np.zeros((2,)), np.zeros((2,), np.float32)], {}, TypeError,
                        "dtype float32")]),
    OpInfo("matrix_power", paddle.linalg.matrix_power, np.linalg.matrix_power, lambda rng: [
        Sample([general(rng, (3, 3)) / 3.0, 3]),
        Sample([general(rng, (2, 2, 2)) / 3.0, 2]),
        Sample([general(rng, (3, 3)) / 3.0, -2]),
        Sample([general(rng, (3, 3)), 1]),
        Sample([general(rng, (2, 3, 3)), 0])],
        second_order=True,
        nonfinite_reason="binary powering multiplies in another order than NumPy's repeated "
                         "products, so inf inputs give NaN where NumPy's give inf",
        errors=lambda: [
            ErrorSample([np.zeros((2, 3)), 2], {}, ValueError, "square"),
            ErrorSample([np.zeros((2, 2), dtype=np.int64), 2], {}, TypeError, "float32 or float64"),
            ErrorSample([np.eye(2), 1.5], {}, TypeError, "'n' must be an int"),
            ErrorSample([SINGULAR, -1], {}, ValueError, "matrix_power: matrix 0 of 'x' is "
                                                        "singular")]),
    OpInfo("bmm", paddle.bmm, np.matmul, lambda rng: [
        Sample([rect(rng, (2, 3, 4)), rect(rng, (2, 4, 5))]),
        Sample([rect(rng, (1, 1, 3)), rect(rng, (1, 3, 2))])],
        second_order=True,
        errors=lambda: [
            ErrorSample([np.zeros((3, 4)), np.zeros((4, 2))], {}, ValueError, "must be 3-D"),
            ErrorSample([np.zeros((2, 3, 4)), np.zeros((3, 4, 2))], {}, ValueError,
                        "batch sizes"),
            ErrorSample([np.zeros((2, 3, 4)), np.zeros((2, 3, 2))], {}, ValueError,
                        "contracted dims")]),
]
