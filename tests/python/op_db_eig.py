"""Harness entries (op_db.py) of the general eigenproblem ops eig and eigvals
(paddle/ops/yaml/lapack.yaml), against numpy.linalg.eig.

Eigenvalues come in LAPACK's order, which need not agree between precisions, so both sides sort
them (by real part, then imaginary part: a real matrix's conjugate pairs share the real part).
An eigenvector is unique only up to a unit complex factor per column, so the entries compare the
entrywise magnitudes |V| (columns permuted like the eigenvalues), which do not depend on it; the
gradient checks differentiate the same gauge-invariant outputs, so they exercise both the
eigenvalue and the eigenvector cotangents of eig_grad; the eig_grad entry runs its kernel in
every dtype against the formula in NumPy. linalg/test_eig.py checks A V = V diag(w), the vectors'
normalisation against NumPy's, empty batches, and gradients against PaddlePaddle's."""
import numpy as np

import paddle
from harness import ErrorSample, OpInfo, Sample
from op_db import program_op


def separated(rng, shape):
    """Real matrices with well separated eigenvalues: a complex pair near 2 +- 1.5i and real
    ones at 5, 8, ... (distinct real parts but for the pair), so the sorted order is stable
    under perturbation and in float32; conditioned by a random similarity."""
    n = shape[-1]
    block = np.zeros(shape)
    block[..., 0, 0] = block[..., 1, 1] = 2.0
    block[..., 0, 1], block[..., 1, 0] = 1.5, -1.5
    for k in range(2, n):
        block[..., k, k] = 5.0 + 3.0 * (k - 2)
    similarity = rng.uniform(-0.3, 0.3, size=shape) + np.eye(n)
    return similarity @ block @ np.linalg.inv(similarity) + rng.uniform(-0.05, 0.05, size=shape)


def _sort_key(real, imag):
    """Eigenvalues sort by real part, then imaginary part (the key is continuous, so nearby runs
    in float32 and float64 order alike)."""
    return real + 1e-3 * imag


def _permutation(values):
    """Batched one-hot rows P with P @ values sorted: P[j, k] = 1 where values[k] has j smaller
    ones. Built from Paddle ops that need no static size, so that a static program with unknown
    dims sorts too."""
    key = _sort_key(paddle.real(values), paddle.imag(values))
    rank = paddle.sum(paddle.cast(key.unsqueeze(-2) < key.unsqueeze(-1), key.dtype), axis=-1)
    position = paddle.cumsum(paddle.ones_like(key), axis=-1) - 1
    p = paddle.cast(rank.unsqueeze(-2) == position.unsqueeze(-1), key.dtype)
    return paddle.cast(p, values.dtype)


def _np_permutation(values):
    key = _sort_key(values.real, values.imag)
    rank = (key[..., None, :] < key[..., :, None]).sum(-1)
    return (rank[..., None, :] == np.arange(values.shape[-1])[:, None]).astype(values.dtype)


def eig_sorted(x):
    """(sorted eigenvalues, |V| with its columns in the same order)."""
    values, vectors = paddle.linalg.eig(x)
    p = _permutation(values)
    magnitudes = paddle.abs(vectors)
    return (paddle.matmul(p, values.unsqueeze(-1)).squeeze(-1),
            paddle.matmul(magnitudes, paddle.real(p), transpose_y=True))


def np_eig_sorted(x):
    values, vectors = np.linalg.eig(x)
    p = _np_permutation(values.astype(np.complex128))
    return (p @ values[..., None])[..., 0], np.abs(vectors) @ np.swapaxes(p.real, -1, -2)


def eigvals_sorted(x):
    values = paddle.linalg.eigvals(x)
    return paddle.matmul(_permutation(values), values.unsqueeze(-1)).squeeze(-1)


def np_eigvals_sorted(x):
    values = np.linalg.eigvals(x).astype(np.complex128)
    return (_np_permutation(values) @ values[..., None])[..., 0]


def _complex_cotangent(g):
    """A real sample array as a complex cotangent (its reverse as imaginary part); complex ones
    (the complex dtypes' runs) pass through."""
    if isinstance(g, np.ndarray):
        return g if g.dtype.kind == "c" else g + 1j * np.flip(g, -1)
    return g if g.dtype in (paddle.complex64, paddle.complex128) else paddle.complex(
        g, paddle.flip(g, [-1]))


def eig_grad_op(x, w, v, w_grad, v_grad):
    """eig_grad as a training program holds it, in every dtype (autograd reaches float64 and
    complex128 only). The formula reads only w, v and the cotangents (x gives x_grad's dtype), so
    the samples need not be eigenpairs of x: their real arrays become complex ones."""
    inputs = {"X": x, "Eigenvalues": w, "Eigenvectors": v, "Eigenvalues@GRAD": w_grad,
              "Eigenvectors@GRAD": v_grad}
    inputs = {slot: t if slot == "X" else _complex_cotangent(t) for slot, t in inputs.items()}
    return program_op("eig_grad", inputs, {"X@GRAD": "X"}, {})[0]


def np_eig_grad(x, w, v, w_grad, v_grad):
    """x_grad = V^{-H} (diag(w_grad) + (V^H V_grad - V^H V diag(Re diag(V^H V_grad))) / conj(E))
    V^H with E_ij = w_j - w_i (Paddle's formula); real for real x."""
    w, v, w_grad, v_grad = (_complex_cotangent(a) for a in (w, v, w_grad, v_grad))
    vh = np.conj(np.swapaxes(v, -1, -2))
    vh_gv = vh @ v_grad
    n = x.shape[-1]
    gaps = np.conj(w[..., None, :] - w[..., :, None]) + np.eye(n)
    core = (vh_gv - (vh @ v) * np.real(np.diagonal(vh_gv, 0, -2, -1))[..., None, :]) / gaps
    core = core * (1 - np.eye(n)) + w_grad[..., None, :] * np.eye(n)
    x_grad = np.linalg.solve(vh, core @ vh)
    return x_grad if x.dtype.kind == "c" else np.real(x_grad)


def _eig_grad_sample(rng, batch, n):
    """x, distinct eigenvalues (1, 2.5, 4, ... plus noise), well conditioned eigenvectors and
    random cotangents."""
    return Sample([rng.uniform(-1, 1, batch + (n, n)),
                   1.0 + 1.5 * np.arange(n) + rng.uniform(-0.2, 0.2, batch + (n,)),
                   rng.uniform(-0.5, 0.5, batch + (n, n)) + 2.0 * np.eye(n),
                   rng.standard_normal(batch + (n,)), rng.standard_normal(batch + (n, n))])


def general_square_errors(op):
    return [
        ErrorSample([np.zeros((2, 3))], {}, ValueError, "square matrices, received shape [2, 3]"),
        ErrorSample([np.zeros((3,))], {}, ValueError, "rank >= 2), received shape [3]"),
        ErrorSample([np.array([[1.0, np.nan], [0.0, 1.0]])], {}, ValueError,
                    f"{op}: matrix 0 of 'x' (shape [2, 2]) has an inf or nan entry"),
        ErrorSample([np.array([[[1.0, 0.0], [0.0, 1.0]], [[np.inf, 0.0], [0.0, 1.0]]])], {},
                    ValueError, f"{op}: matrix 1 of 'x' (shape [2, 2, 2])"),
        ErrorSample([np.zeros((2, 2), dtype=np.int64)], {}, TypeError,
                    "float32, float64, complex64 or complex128"),
        ErrorSample([[[1.0]]], {}, TypeError, "must be a Tensor")]


EIG_OPS = [
    OpInfo("eig", eig_sorted, np_eig_sorted, lambda rng: [
        Sample([separated(rng, (3, 3))]),
        Sample([separated(rng, (2, 4, 4))])],
        atol=1e-4, rtol=1e-4,
        errors=lambda: general_square_errors("eig")),
    OpInfo("eig_grad", eig_grad_op, np_eig_grad, lambda rng: [
        _eig_grad_sample(rng, (), 3), _eig_grad_sample(rng, (2,), 4)],
        grad=False, no_grad_reason="eig_grad has no gradient of its own, as in Paddle",
        atol=1e-3, rtol=1e-3),
    OpInfo("eigvals", eigvals_sorted, np_eigvals_sorted, lambda rng: [
        Sample([separated(rng, (3, 3))]),
        Sample([separated(rng, (2, 4, 4))])],
        grad=False, no_grad_reason="eigvals has no backward, as in Paddle",
        atol=1e-4, rtol=1e-4,
        errors=lambda: general_square_errors("eigvals")),
]
