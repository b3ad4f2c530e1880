"""Inputs and calls whose results tools/record_paddle_linalg.py records from PaddlePaddle
(tests/python/linalg/paddle_linalg_reference.npz) and test_linalg_matches_paddle.py compares this
framework with: every paddle.linalg function and paddle matrix function on float64 inputs, the
decompositions' vectors included (their signs are LAPACK's, as Paddle's)."""
import numpy as np

rng = np.random.default_rng(5)
A = rng.uniform(-1, 1, (2, 4, 3))
_F = rng.uniform(-1, 1, (3, 3))
S = _F @ _F.T + 3 * np.eye(3)  # symmetric positive definite
G = rng.uniform(-1, 1, (3, 3)) + 3 * np.eye(3)
B = rng.uniform(-1, 1, (3, 2))


def run(paddle):
    """{name: result as NumPy} of each call, with `paddle` the framework under test."""
    L = paddle.linalg
    t = paddle.to_tensor
    out = {}
    out["svd_u"], out["svd_s"], out["svd_vh"] = L.svd(t(A))
    out["qr_q"], out["qr_r"] = L.qr(t(A))
    out["eigh_w"], out["eigh_v"] = L.eigh(t(S))
    out["eigvalsh"] = L.eigvalsh(t(S))
    out["inv"], out["det"], out["slogdet"] = L.inv(t(G)), L.det(t(G)), L.slogdet(t(G))
    out["chol"], out["chol_u"] = L.cholesky(t(S)), L.cholesky(t(S), upper=True)
    out["solve"] = L.solve(t(G), t(B))
    out["tri"] = L.triangular_solve(t(G), t(B))
    out["chol_solve"] = L.cholesky_solve(t(B), L.cholesky(t(S)))
    out["lu"], out["lu_piv"] = L.lu(t(G))
    out["lu_p"], out["lu_l"], out["lu_u"] = L.lu_unpack(out["lu"], out["lu_piv"])
    out["pinv"], out["rank"] = L.pinv(t(A[0])), L.matrix_rank(t(A))
    out["cond"], out["norm_nuc"] = L.cond(t(G)), L.norm(t(G), "nuc", axis=[0, 1])
    out["norm_vec"], out["norm_all"] = L.norm(t(A), 3, axis=1), L.norm(t(A))
    out["matrix_norm_inf"] = L.matrix_norm(t(G), np.inf)
    out["vector_norm_0"] = L.vector_norm(t(A), 0)
    out["cov"], out["corrcoef"] = L.cov(t(A[0])), L.corrcoef(t(A[0]))
    out["mp"] = L.matrix_power(t(G), -3)
    out["multi_dot"] = L.multi_dot([t(A[0].T), t(A[1]), t(G)])
    ls = L.lstsq(t(A[0]), t(np.vstack([B, B[:1]])), driver="gelsd")
    out.update(lstsq_x=ls[0], lstsq_res=ls[1], lstsq_rank=ls[2], lstsq_sv=ls[3])
    out["trace"] = paddle.trace(t(A), 1, 1, 2)
    out["diagonal"] = paddle.diagonal(t(A), -1, 1, 2)
    out["diag"] = paddle.diag(t(B[:, 0]), 1, padding_value=2)
    out["diag_embed"] = paddle.diag_embed(t(B), 1, 0, 2)
    out["kron"], out["cross"] = paddle.kron(t(A[0]), t(B)), paddle.cross(t(G), t(G.T))
    out["outer"], out["inner"] = paddle.outer(t(B), t(A[0])), paddle.inner(t(A), t(B.T))
    out["dist"] = paddle.dist(t(A[0]), t(A[1]), 3)
    out["einsum"] = paddle.einsum("bij,jk->bik", t(A), t(B))
    out["householder"] = L.householder_product(t(A[0]), t(np.array([1.2, 0.5, 0.3])))
    return {k: np.asarray(v.numpy()) for k, v in out.items()}
