"""Linear algebra: the functions of paddle.linalg and the matrix functions of paddle.

paddle.matmul is generated from the op declarations. The factorizations, inverse, determinants
and solves call their ops (paddle/ops/yaml/lapack.yaml) through paddle._C_ops; the rest compose
ops here, as Paddle's Python does for pinv, cond, multi_dot, cov and corrcoef."""
import math
import numbers

import numpy as np

from .. import _C_ops
from ..base import libpaddle
from ..base.framework import in_dynamic_mode, is_floating
from ..base.generated_api import matmul
from ._helpers import as_int_list, check_tensor

# The names paddle itself exports; paddle.linalg (python/paddle/linalg.py) exports the rest.
__all__ = ["mm", "bmm", "t", "inverse", "cholesky", "norm", "dist", "trace", "diagonal", "diag",
           "diag_embed", "kron", "outer", "inner", "cross", "einsum"]

_UNDEFINED = libpaddle.DataType.UNDEFINED


def mm(input, mat2, name=None):
    return matmul(input, mat2)


def bmm(x, y, name=None):
    check_tensor(x, "bmm")
    check_tensor(y, "bmm", "y")
    return _C_ops.bmm(x, y)


def t(input, name=None):
    check_tensor(input, "t", "input")
    if len(input.shape) > 2:
        raise ValueError(f"t(): input must have at most 2 dims, received shape {input.shape}")
    if len(input.shape) < 2:
        return input
    return _C_ops.transpose(input, [1, 0])


# ---------------------------------------------------------------- the LAPACK ops
def _matrices(x, api, arg="x"):
    check_tensor(x, api, arg)
    if len(x.shape) < 2:
        raise ValueError(f"{api}(): argument '{arg}' must be a batch of matrices (rank >= 2), "
                         f"received shape {x.shape}")
    return x


def _transpose_matrices(x):
    perm = list(range(len(x.shape)))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return _C_ops.transpose(x, perm)


def inverse(x, name=None):
    """The inverse of each square matrix of x; a singular one is a ValueError."""
    return _C_ops.inverse(check_tensor(x, "inverse"))


inv = inverse


def det(x, name=None):
    """The determinant of each square matrix of x, dims x.shape[:-2]."""
    return _C_ops.determinant(check_tensor(x, "det"))


def slogdet(x, name=None):
    """[2, *x.shape[:-2]]: the signs of the determinants, then their log absolute values."""
    return _C_ops.slogdeterminant(check_tensor(x, "slogdet"))


def cholesky(x, upper=False, name=None):
    """The Cholesky factor (lower, or upper when `upper`) of each symmetric positive definite
    matrix of x, read from its lower (upper) triangle."""
    return _C_ops.cholesky(check_tensor(x, "cholesky"), bool(upper))


def solve(x, y, left=True, name=None):
    """out with x @ out = y (or out @ x = y when not `left`); the batch dims broadcast."""
    check_tensor(x, "solve")
    check_tensor(y, "solve", "y")
    if left:
        return _C_ops.solve(x, y)
    # out x = y is x^T out^T = y^T.
    return _transpose_matrices(_C_ops.solve(_transpose_matrices(_matrices(x, "solve")),
                                            _transpose_matrices(_matrices(y, "solve", "y"))))


def triangular_solve(x, y, upper=True, transpose=False, unitriangular=False, name=None):
    """out with op(x) @ out = y for the triangular x (op the transpose when `transpose`)."""
    check_tensor(x, "triangular_solve")
    check_tensor(y, "triangular_solve", "y")
    return _C_ops.triangular_solve(x, y, bool(upper), bool(transpose), bool(unitriangular))


def cholesky_solve(x, y, upper=False, name=None):
    """out with A @ out = x, A = y @ y^T for the lower Cholesky factor y (y^T @ y when upper)."""
    check_tensor(x, "cholesky_solve")
    check_tensor(y, "cholesky_solve", "y")
    return _C_ops.cholesky_solve(x, y, bool(upper))


def _check_uplo(uplo, api):
    if uplo not in ("L", "U"):
        raise ValueError(f"{api}(): argument 'UPLO' must be 'L' or 'U', received {uplo!r}")


def eigh(x, UPLO="L", name=None):
    """(eigenvalues ascending, eigenvectors as columns) of each symmetric matrix of x, read from
    its lower (UPLO='L') or upper triangle."""
    check_tensor(x, "eigh")
    _check_uplo(UPLO, "eigh")
    values, vectors = _C_ops.eigh(x, UPLO)
    return values, vectors


def eigvalsh(x, UPLO="L", name=None):
    """The eigenvalues (ascending) of each symmetric matrix of x."""
    check_tensor(x, "eigvalsh")
    _check_uplo(UPLO, "eigvalsh")
    values, _ = _C_ops.eigvalsh(x, UPLO, False)
    return values


def eig(x, name=None):
    """(eigenvalues, eigenvectors) of each square matrix of x (LAPACK's geev): complex64 for
    float32 and complex64 x, complex128 otherwise; the eigenvectors are unit-norm columns."""
    check_tensor(x, "eig")
    values, vectors = _C_ops.eig(x)
    return values, vectors


def eigvals(x, name=None):
    """The eigenvalues (complex, LAPACK's order) of each square matrix of x; no gradient, as in
    Paddle."""
    return _C_ops.eigvals(check_tensor(x, "eigvals"))


def svd(x, full_matrices=False, name=None):
    """(u, s, vh) with x = u @ diag(s) @ vh, s descending; vh is V's transpose, as in Paddle."""
    check_tensor(x, "svd")
    u, s, vh = _C_ops.svd(x, bool(full_matrices))
    return u, s, vh


def svdvals(x, name=None):
    """The singular values (descending) of each matrix of x."""
    return svd(x)[1]


def qr(x, mode="reduced", name=None):
    """(q, r) with x = q @ r; mode 'reduced', 'complete', or 'r' (r only)."""
    check_tensor(x, "qr")
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"qr(): argument 'mode' must be 'reduced', 'complete' or 'r', "
                         f"received {mode!r}")
    q, r = _C_ops.qr(x, mode)
    return r if mode == "r" else (q, r)


def lu(x, pivot=True, get_infos=False, name=None):
    """The LU factorization with partial pivoting: (LU packed, int32 1-based pivots), and the
    int32 infos (> 0 where U is singular) when get_infos."""
    check_tensor(x, "lu")
    out, pivots, infos = _C_ops.lu(x, bool(pivot))
    return (out, pivots, infos) if get_infos else (out, pivots)


def lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True, name=None):
    """(P, L, U) with P @ L @ U the matrix whose packed factors x and pivots y lu returned."""
    check_tensor(x, "lu_unpack")
    check_tensor(y, "lu_unpack", "y")
    pmat, lower, upper = _C_ops.lu_unpack(x, y, bool(unpack_ludata), bool(unpack_pivots))
    return pmat, lower, upper


# ---------------------------------------------------------------- compositions
def _square(x, api):
    _matrices(x, api)
    if x.shape[-1] >= 0 and x.shape[-2] >= 0 and x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{api}(): argument 'x' must be a batch of square matrices, received "
                         f"shape {x.shape}")
    return x


def matrix_power(x, n, name=None):
    """x @ x @ ... (n times) for each square matrix of x; n = 0 gives identities and a negative
    n powers the inverse (a singular matrix is then a ValueError)."""
    check_tensor(x, "matrix_power")
    if not isinstance(n, numbers.Integral) or isinstance(n, bool):
        raise TypeError(f"matrix_power(): argument 'n' must be an int, received "
                        f"{type(n).__name__}")
    return _C_ops.matrix_power(x, int(n))


def multi_dot(x, name=None):
    """The product of the matrices in the list x; a 1-D first (last) one is a row (column)."""
    if not isinstance(x, (list, tuple)) or len(x) < 2:
        raise ValueError("multi_dot(): argument 'x' must be a list of at least two tensors")
    for i, m in enumerate(x):
        check_tensor(m, "multi_dot", f"x[{i}]")
        rank = len(m.shape)
        ends = i == 0 or i == len(x) - 1
        if rank != 2 and not (ends and rank == 1):
            raise ValueError(f"multi_dot(): x[{i}] must be 2-D (the first and last may be 1-D), "
                             f"received shape {m.shape}")
    out = x[0]
    for m in x[1:]:
        out = matmul(out, m)
    return out


def _sum(x, axes, keepdim=False):
    return _C_ops.sum(x, list(axes), _UNDEFINED, keepdim)


def _vector_norm(x, p, axes, keepdim):
    """(sum |x|^p)^(1/p) over axes (all when empty); inf/-inf the max/min |x|, 0 the count of
    nonzeros. One axis or all of them is Paddle's p_norm op; other sets of axes compose ops."""
    rank = len(x.shape)
    if len(axes) <= 1 or sorted(axes) == list(range(rank)):
        every = len(axes) != 1 or rank <= 1
        return _C_ops.p_norm(x, float(p), axes[0] if len(axes) == 1 else -1, 1e-12, keepdim,
                             every)
    magnitude = _C_ops.abs(x)
    if p == math.inf:
        return _C_ops.max(magnitude, axes, keepdim)
    if p == -math.inf:
        return _C_ops.min(magnitude, axes, keepdim)
    if p == 0:
        nonzero = _C_ops.cast(_C_ops.not_equal(x, _C_ops.full_like(x, 0, _UNDEFINED)), x.dtype)
        return _sum(nonzero, axes, keepdim)
    if p == 2:
        return _C_ops.sqrt(_sum(_C_ops.multiply(x, x), axes, keepdim))
    if p == 1:
        return _sum(magnitude, axes, keepdim)
    return _C_ops.pow(_sum(_C_ops.pow(magnitude, float(p)), axes, keepdim), 1.0 / float(p))


def _axes(axis, rank, api):
    axes = as_int_list(axis, api, "axis")
    for a in axes:
        if not -max(rank, 1) <= a < max(rank, 1):
            raise IndexError(f"{api}(): argument 'axis' expected to be in range "
                             f"[{-max(rank, 1)}, {max(rank, 1)}) for a tensor of rank {rank}, "
                             f"but received {a}")
    return [a % rank if rank else 0 for a in axes]


def _float_tensor(x, api):
    check_tensor(x, api)
    if not is_floating(x.dtype):
        raise TypeError(f"{api}(): argument 'x' must be a floating-point tensor, received "
                        f"{x.dtype.name.lower()}")
    return x


def vector_norm(x, p=2.0, axis=None, keepdim=False, name=None, *, dtype=None):
    """The vector p-norm of x over `axis` (all elements when None)."""
    _float_tensor(x, "vector_norm")
    if not isinstance(p, numbers.Real) or isinstance(p, bool):
        raise ValueError(f"vector_norm(): argument 'p' must be a number (inf and -inf included), "
                         f"received {p!r}")
    if dtype is not None:
        x = _C_ops.cast(x, dtype)
    return _vector_norm(x, float(p), _axes(axis, len(x.shape), "vector_norm"), keepdim)


_MATRIX_ORDERS = ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf)


def _move_to_end(x, axes):
    """x with the two axes moved last (in their order)."""
    rank = len(x.shape)
    perm = [d for d in range(rank) if d not in axes] + list(axes)
    return _C_ops.transpose(x, perm), perm


def _restore_kept(out, x, axes, keepdim):
    """A reduction over the two matrix axes, with them kept as 1s when `keepdim`."""
    if not keepdim:
        return out
    return _C_ops.unsqueeze(out, sorted(axes))


def matrix_norm(x, p="fro", axis=[-2, -1], keepdim=False, name=None):  # noqa: B006 (Paddle's)
    """The matrix norm of x over the two axes: 'fro', 'nuc', 1, -1, 2, -2, inf or -inf."""
    _float_tensor(x, "matrix_norm")
    rank = len(x.shape)
    axes = _axes(axis, rank, "matrix_norm")
    if len(axes) != 2 or axes[0] == axes[1]:
        raise ValueError(f"matrix_norm(): argument 'axis' must name two different dims, "
                         f"received {axis}")
    if p not in _MATRIX_ORDERS:
        raise ValueError(f"matrix_norm(): argument 'p' must be one of 'fro', 'nuc', 1, -1, 2, "
                         f"-2, inf, -inf, received {p!r}")
    if p == "fro":
        return _C_ops.frobenius_norm(x, axes, keepdim, False)
    if p in (1, -1, math.inf, -math.inf):
        # 1: the largest column sum of |x|; inf: the largest row sum (-1, -inf: the smallest).
        summed, other = (axes[0], axes[1]) if p in (1, -1) else (axes[1], axes[0])
        sums = _sum(_C_ops.abs(x), [summed], True)
        pick = _C_ops.max if p in (1, math.inf) else _C_ops.min
        out = pick(sums, [other], True)
        return out if keepdim else _C_ops.squeeze(out, sorted(axes))
    values = svdvals(_move_to_end(x, axes)[0])
    if p == "nuc":
        out = _sum(values, [-1])
    else:
        out = (_C_ops.max if p == 2 else _C_ops.min)(values, [-1], False)
    return _restore_kept(out, x, axes, keepdim)


def norm(x, p=None, axis=None, keepdim=False, name=None):
    """Paddle's norm: p None is 'fro' over two axes and 2 otherwise; one axis (or none: all
    elements) gives the vector norm, two axes the matrix norm."""
    _float_tensor(x, "norm")
    rank = len(x.shape)
    axes = _axes(axis, rank, "norm") if axis is not None else None
    if axes is not None and len(axes) == 2:
        if p not in _MATRIX_ORDERS and p is not None:
            raise ValueError(f"norm(): argument 'p' must be one of 'fro', 'nuc', 1, -1, 2, -2, "
                             f"inf, -inf over two axes, received {p!r}")
        return matrix_norm(x, "fro" if p is None else p, axes, keepdim)
    if axes is not None and len(axes) > 2:
        raise ValueError(f"norm(): argument 'axis' must name at most two dims, received {axis}")
    if p is None or p == "fro":
        p = 2.0
    if not isinstance(p, numbers.Real) or isinstance(p, bool):
        raise ValueError(f"norm(): argument 'p' must be a number, 'fro' (or, over two axes, "
                         f"'nuc'), received {p!r}")
    return _vector_norm(x, float(p), axes or [], keepdim)


def cond(x, p=None, name=None):
    """The condition number of each square (for p other than 2/-2/None) matrix of x."""
    _float_tensor(x, "cond")
    _matrices(x, "cond")
    if p not in (None,) + _MATRIX_ORDERS:
        raise ValueError(f"cond(): argument 'p' must be None, 'fro', 'nuc', 1, -1, 2, -2, inf or "
                         f"-inf, received {p!r}")
    if p in (None, 2, -2):
        values = svdvals(x)
        largest = _C_ops.max(values, [-1], False)
        smallest = _C_ops.min(values, [-1], False)
        return _C_ops.divide(smallest, largest) if p == -2 else _C_ops.divide(largest, smallest)
    _square(x, "cond")
    return _C_ops.multiply(matrix_norm(x, p), matrix_norm(inverse(x), p))


def matrix_rank(x, tol=None, hermitian=False, atol=None, rtol=None, name=None):
    """The number of singular values (|eigenvalues| when hermitian) above the tolerance: `tol`
    (absolute) when given, else max(atol, rtol * largest) with rtol eps * max(m, n) when neither
    atol nor rtol is given."""
    _float_tensor(x, "matrix_rank")
    _matrices(x, "matrix_rank")
    values = _C_ops.abs(eigvalsh(x)) if hermitian else svdvals(x)
    largest = _C_ops.max(values, [-1], True)
    if tol is not None:
        threshold = tol if isinstance(tol, libpaddle.Tensor) else _C_ops.full_like(largest, tol,
                                                                                   _UNDEFINED)
    else:
        if rtol is None:
            eps = np.finfo(np.float32 if x.dtype == libpaddle.DataType.FLOAT32 else np.float64).eps
            rtol = 0.0 if atol is not None else eps * max(x.shape[-2], x.shape[-1])
        threshold = _C_ops.scale(largest, float(rtol), 0.0, True)
        if atol is not None:
            threshold = _C_ops.maximum(threshold, _C_ops.full_like(largest, atol, _UNDEFINED))
    above = _C_ops.greater_than(values, threshold)
    return _C_ops.sum(_C_ops.cast(above, libpaddle.DataType.INT64), [-1],
                      libpaddle.DataType.INT64, False)


def pinv(x, rcond=1e-15, hermitian=False, name=None):
    """The Moore-Penrose pseudo-inverse from the SVD, dropping singular values at most rcond
    times the largest."""
    _float_tensor(x, "pinv")
    _matrices(x, "pinv")
    u, s, vh = svd(x)
    largest = _C_ops.max(s, [-1], True)
    keep = _C_ops.greater_than(s, _C_ops.scale(largest, float(rcond), 0.0, True))
    ones = _C_ops.full_like(s, 1, _UNDEFINED)
    inverted = _C_ops.where(keep, _C_ops.divide(ones, _C_ops.where(keep, s, ones)),
                            _C_ops.full_like(s, 0, _UNDEFINED))
    # pinv = V diag(1/s) U^T
    return matmul(_C_ops.multiply(_transpose_matrices(vh), _C_ops.unsqueeze(inverted, [-2])),
                  u, False, True)


_LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def lstsq(x, y, rcond=None, driver=None, name=None):
    """(solution, residuals, rank, singular_values) of the least squares problems x @ out = y.

    The solution is the minimum-norm one from the SVD, singular values at most rcond times the
    largest (default eps * max(m, n)) taken as zero. The other results follow Paddle's drivers
    (default 'gelsy'): residuals (squared, per column) for gels/gelsd/gelss when m > n and x has
    full rank, else empty; rank (int32) except for gels; singular values for gelsd/gelss."""
    _float_tensor(x, "lstsq")
    _matrices(x, "lstsq")
    _matrices(y, "lstsq", "y")
    driver = "gelsy" if driver is None else driver
    if driver not in _LSTSQ_DRIVERS:
        raise ValueError(f"lstsq(): argument 'driver' must be one of {_LSTSQ_DRIVERS} or None, "
                         f"received {driver!r}")
    if x.shape[-2] != y.shape[-2]:
        raise ValueError(f"lstsq(): 'x' {x.shape} and 'y' {y.shape} must have the same number "
                         f"of rows")
    m, n = x.shape[-2], x.shape[-1]
    if rcond is None:
        eps = np.finfo(np.float32 if x.dtype == libpaddle.DataType.FLOAT32 else np.float64).eps
        rcond = eps * max(m, n)
    u, s, vh = svd(x)
    largest = _C_ops.max(s, [-1], True)
    keep = _C_ops.greater_than(s, _C_ops.scale(largest, float(rcond), 0.0, True))
    ones = _C_ops.full_like(s, 1, _UNDEFINED)
    inverted = _C_ops.where(keep, _C_ops.divide(ones, _C_ops.where(keep, s, ones)),
                            _C_ops.full_like(s, 0, _UNDEFINED))
    # out = V diag(1/s) U^T y
    projected = _C_ops.multiply(_C_ops.unsqueeze(inverted, [-1]), matmul(u, y, True, False))
    solution = matmul(vh, projected, True, False)
    rank = _C_ops.sum(_C_ops.cast(keep, libpaddle.DataType.INT32), [-1],
                      libpaddle.DataType.INT32, False)
    empty = _C_ops.full([0], 0, x.dtype, x.place)
    residuals = empty
    # Whether x has full rank is known when the function runs in dygraph; a static program is
    # built for full-rank x (the usual least squares problem).
    full_rank = bool(np.all(rank.numpy() == n)) if in_dynamic_mode() else True
    if driver != "gelsy" and m > n and full_rank:
        error = _C_ops.subtract(matmul(x, solution), y)
        residuals = _sum(_C_ops.multiply(error, error), [-2])
    if driver == "gels":
        rank = _C_ops.full([0], 0, libpaddle.DataType.INT64, x.place)
    values = s if driver in ("gelsd", "gelss") else empty
    return solution, residuals, rank, values


def householder_product(x, tau, name=None):
    """The first n columns of H_1 H_2 ... H_k, H_i = I - tau_i v_i v_i^T with v_i column i of x
    below the diagonal and 1 on it (the Q that geqrf's reflectors x and tau describe)."""
    _float_tensor(x, "householder_product")
    _matrices(x, "householder_product")
    check_tensor(tau, "householder_product", "tau")
    m, n = x.shape[-2], x.shape[-1]
    k = tau.shape[-1]
    if m < n or k > n or list(tau.shape[:-1]) != list(x.shape[:-2]):
        raise ValueError(f"householder_product(): expected x [*, m, n] with m >= n and tau "
                         f"[*, k] with k <= n and x's batch dims, received x {x.shape} and tau "
                         f"{tau.shape}")
    reflectors = _C_ops.add(_C_ops.tril(x, -1), _C_ops.eye(m, n, x.dtype, x.place))
    q = _C_ops.expand(_C_ops.eye(m, m, x.dtype, x.place), list(x.shape[:-2]) + [m, m])
    rank = len(x.shape)
    for i in range(k):
        v = _C_ops.slice(reflectors, [rank - 1], [i], [i + 1], [])  # [*, m, 1]
        t = _C_ops.unsqueeze(_C_ops.slice(tau, [rank - 2], [i], [i + 1], []), [-1])  # [*, 1, 1]
        q = _C_ops.subtract(q, _C_ops.multiply(t, matmul(matmul(q, v), v, False, True)))
    return _C_ops.slice(q, [rank - 1], [0], [n], [])


def dist(x, y, p=2, name=None):
    """The p-norm of x - y (broadcast) over all elements."""
    check_tensor(x, "dist")
    check_tensor(y, "dist", "y")
    if not isinstance(p, numbers.Real) or isinstance(p, bool):
        raise ValueError(f"dist(): argument 'p' must be a number, received {p!r}")
    return _vector_norm(_C_ops.subtract(x, y), float(p), [], False)


def diagonal(x, offset=0, axis1=0, axis2=1, name=None):
    """The diagonal `offset` above the main one (below when negative) of the matrices spanned by
    axis1 and axis2, as the last dim."""
    check_tensor(x, "diagonal")
    return _C_ops.diagonal(x, int(offset), int(axis1), int(axis2))


def trace(x, offset=0, axis1=0, axis2=1, name=None):
    """The sum of the diagonal `offset` of the matrices spanned by axis1 and axis2."""
    check_tensor(x, "trace")
    return _C_ops.trace(x, int(offset), int(axis1), int(axis2))


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Matrices whose diagonal `offset` holds the last dim of input, in the dims dim1 and dim2
    of the result (rank + 1)."""
    check_tensor(input, "diag_embed", "input")
    return _C_ops.diag_embed(input, int(offset), int(dim1), int(dim2))


def diag(x, offset=0, padding_value=0, name=None):
    """A 1-D x: the square matrix with x on diagonal `offset` and padding_value elsewhere; a 2-D
    x: its diagonal `offset`."""
    check_tensor(x, "diag")
    if len(x.shape) == 1:
        out = diag_embed(x, offset)
        if padding_value == 0:
            return out
        ones = _C_ops.full_like(x, 1, _UNDEFINED)
        on_diagonal = _C_ops.cast(diag_embed(ones, offset), libpaddle.DataType.BOOL)
        return _C_ops.where(on_diagonal, out, _C_ops.full_like(out, padding_value, _UNDEFINED))
    if len(x.shape) == 2:
        return diagonal(x, offset, 0, 1)
    raise ValueError(f"diag(): argument 'x' must be 1-D or 2-D, received shape {x.shape}")


def kron(x, y, name=None):
    """The Kronecker product: out[i * y.shape + k] = x[i] * y[k] per dim (ranks aligned right)."""
    check_tensor(x, "kron")
    check_tensor(y, "kron", "y")
    return _C_ops.kron(x, y)


def outer(x, y, name=None):
    """out[i, j] = x[i] * y[j] over the flattened x and y."""
    check_tensor(x, "outer")
    check_tensor(y, "outer", "y")
    return _C_ops.multiply(_C_ops.reshape(x, [-1, 1]), _C_ops.reshape(y, [1, -1]))


def inner(x, y, name=None):
    """The sums of products over the last dims: dims x.shape[:-1] + y.shape[:-1]."""
    check_tensor(x, "inner")
    check_tensor(y, "inner", "y")
    if len(x.shape) == 0 or len(y.shape) == 0:
        return _C_ops.multiply(x, y)
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"inner(): the last dims of 'x' {x.shape} and 'y' {y.shape} must match")
    k = x.shape[-1]
    product = matmul(_C_ops.reshape(x, [-1, k]), _C_ops.reshape(y, [-1, k]), False, True)
    return _C_ops.reshape(product, list(x.shape[:-1]) + list(y.shape[:-1]))


def cross(x, y, axis=9, name=None):
    """The cross product of the 3-vectors along `axis` (the default 9: the first dim of size 3)."""
    check_tensor(x, "cross")
    check_tensor(y, "cross", "y")
    return _C_ops.cross(x, y, int(axis))


def cov(x, rowvar=True, ddof=True, fweights=None, aweights=None, name=None):
    """The covariance matrix of the variables (rows when rowvar, else columns) of x, with
    integer frequency weights and observation weights as NumPy's."""
    _float_tensor(x, "cov")
    if len(x.shape) > 2:
        raise ValueError(f"cov(): argument 'x' must have at most 2 dims, received shape "
                         f"{x.shape}")
    data = _C_ops.reshape(x, [1, -1]) if len(x.shape) < 2 else x
    if not rowvar and len(x.shape) == 2:
        data = _C_ops.transpose(data, [1, 0])
    observations = data.shape[1]
    weights = None
    for arg, w in (("fweights", fweights), ("aweights", aweights)):
        if w is None:
            continue
        check_tensor(w, "cov", arg)
        if list(w.shape) != [observations]:
            raise ValueError(f"cov(): argument '{arg}' must have shape [{observations}], "
                             f"received {w.shape}")
        w = _C_ops.cast(w, data.dtype)
        weights = w if weights is None else _C_ops.multiply(weights, w)
    if weights is None:
        weights = _C_ops.full([observations], 1.0, data.dtype, data.place)
    total = _sum(weights, [])
    mean = _C_ops.divide(_sum(_C_ops.multiply(data, weights), [1], True), total)
    centred = _C_ops.subtract(data, mean)
    if not ddof:
        divisor = total
    elif aweights is None:
        divisor = _C_ops.scale(total, 1.0, -1.0, True)
    else:
        aw = _C_ops.cast(aweights, data.dtype)
        weighted = _sum(_C_ops.multiply(weights, aw), [])
        divisor = _C_ops.subtract(total, _C_ops.divide(weighted, total))
    out = _C_ops.divide(matmul(_C_ops.multiply(centred, weights), centred, False, True), divisor)
    return _C_ops.squeeze(out, []) if data.shape[0] == 1 else out


def corrcoef(x, rowvar=True, name=None):
    """The correlation coefficients cov[i, j] / sqrt(cov[i, i] cov[j, j]), clipped to [-1, 1]."""
    c = cov(x, rowvar)
    if len(c.shape) == 0:
        return _C_ops.divide(c, c)
    std = _C_ops.sqrt(diagonal(c))
    out = _C_ops.divide(_C_ops.divide(c, _C_ops.unsqueeze(std, [-1])), _C_ops.unsqueeze(std, [0]))
    return _C_ops.clip(out, -1.0, 1.0)


# ---------------------------------------------------------------- einsum
def _einsum_labels(equation, operands):
    """Each operand's labels (one per dim, '...' expanded to private labels aligned right) and
    the output's."""
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"einsum(): the equation {equation!r} has {len(terms)} operands, "
                         f"received {len(operands)} tensors")
    ellipsis_rank = 0
    labels = []
    for term, operand in zip(terms, operands):
        letters = term.replace("...", "")
        if not all(c.isalpha() for c in letters) or term.count("...") > 1:
            raise ValueError(f"einsum(): invalid operand term {term!r} in {equation!r}")
        rank = len(operand.shape)
        extra = rank - len(letters)
        if extra < 0 or (extra > 0 and "..." not in term):
            raise ValueError(f"einsum(): the term {term!r} does not match an operand of rank "
                             f"{rank}")
        ellipsis_rank = max(ellipsis_rank, extra)
        labels.append((term, extra))
    # Ellipsis dims align right, so an operand with fewer takes the last private labels.
    expanded = []
    for term, extra in labels:
        private = "".join(chr(0x100 + i) for i in range(ellipsis_rank - extra, ellipsis_rank))
        expanded.append(term.replace("...", private))
    broadcast = "".join(chr(0x100 + i) for i in range(ellipsis_rank))
    if arrow:
        if not all(c.isalpha() for c in output.replace("...", "")):
            raise ValueError(f"einsum(): invalid output term {output!r} in {equation!r}")
        out = output.replace("...", broadcast)
        for c in out:
            if not any(c in term for term in expanded):
                raise ValueError(f"einsum(): the output label {c!r} is in no operand of "
                                 f"{equation!r}")
    else:
        counts = {}
        for term in expanded:
            for c in term:
                counts[c] = counts.get(c, 0) + 1
        out = broadcast + "".join(sorted(c for c, n in counts.items()
                                         if n == 1 and c not in broadcast))
    return expanded, out


def _einsum_unique(operand, term):
    """operand with each label once: a repeated label takes the diagonal of its two dims."""
    while len(set(term)) < len(term):
        c = next(c for c in term if term.count(c) > 1)
        first = term.index(c)
        second = term.index(c, first + 1)
        operand = diagonal(operand, 0, first, second)
        term = "".join(ch for i, ch in enumerate(term) if i not in (first, second)) + c
    return operand, term


def _einsum_sum_out(operand, term, keep):
    """operand with the labels not in `keep` summed out."""
    axes = [i for i, c in enumerate(term) if c not in keep]
    if not axes:
        return operand, term
    return _sum(operand, axes), "".join(c for c in term if c in keep)


def _einsum_pair(a, a_term, b, b_term, keep):
    """The product of two operands, contracting the shared labels not in `keep`, as one batched
    matmul: a as [batch, free_a, contracted], b as [batch, contracted, free_b]."""
    shared = [c for c in a_term if c in b_term]
    batch = [c for c in shared if c in keep]
    contracted = [c for c in shared if c not in keep]
    free_a = [c for c in a_term if c not in shared]
    free_b = [c for c in b_term if c not in shared]

    def size(c):
        sizes = [t.shape[term.index(c)] for t, term in ((a, a_term), (b, b_term)) if c in term]
        return max(sizes)

    def arranged(t, term, order):
        t = _C_ops.transpose(t, [term.index(c) for c in order])
        target = [size(c) for c in order]
        if list(t.shape) != target:  # size-1 dims broadcast against the other operand
            t = _C_ops.expand(t, target)
        return t

    def product(cs):
        n = 1
        for c in cs:
            n *= size(c)
        return n

    a3 = _C_ops.reshape(arranged(a, a_term, batch + free_a + contracted),
                        [product(batch), product(free_a), product(contracted)])
    b3 = _C_ops.reshape(arranged(b, b_term, batch + contracted + free_b),
                        [product(batch), product(contracted), product(free_b)])
    out = _C_ops.reshape(matmul(a3, b3), [size(c) for c in batch + free_a + free_b])
    return out, "".join(batch + free_a + free_b)


def einsum(equation, *operands):
    """Einstein summation over the operands, as numpy.einsum: explicit ('ij,jk->ik') or implicit
    output, '...' for broadcast dims, repeated labels in an operand for its diagonal. Operands
    are multiplied left to right, each pair one batched matmul."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not isinstance(equation, str):
        raise TypeError(f"einsum(): argument 'equation' must be a str, received "
                        f"{type(equation).__name__}")
    if not operands:
        raise ValueError("einsum(): at least one operand is required")
    for i, operand in enumerate(operands):
        check_tensor(operand, "einsum", f"operands[{i}]")
    terms, out = _einsum_labels(equation, operands)
    pending = []
    for i, (operand, term) in enumerate(zip(operands, terms)):
        operand, term = _einsum_unique(operand, term)
        later = out + "".join(t for j, t in enumerate(terms) if j != i)
        pending.append(_einsum_sum_out(operand, term, later))
    result, result_term = pending[0]
    for k in range(1, len(pending)):
        keep = out + "".join(t for _, t in pending[k + 1:])
        result, result_term = _einsum_pair(result, result_term, *pending[k], keep)
    result, result_term = _einsum_sum_out(result, result_term, out)
    if result_term != out:
        result = _C_ops.transpose(result, [result_term.index(c) for c in out])
    return result
