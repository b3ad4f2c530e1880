"""paddle.linalg: the linear algebra functions, implemented in paddle.tensor.linalg."""
from .base.generated_api import matmul  # noqa: F401
from .tensor.linalg import (cholesky, cholesky_solve, cond, corrcoef, cov, cross, det,  # noqa: F401
                            diagonal, eig, eigh, eigvals, eigvalsh,
                            householder_product, inv, lstsq, lu,
                            lu_unpack, matrix_norm, matrix_power, matrix_rank, multi_dot, norm,
                            pinv, qr, slogdet, solve, svd, svdvals, triangular_solve, vector_norm)

__all__ = ["cholesky", "cholesky_solve", "cond", "corrcoef", "cov", "cross", "det", "diagonal",
           "eig", "eigh", "eigvals", "eigvalsh", "householder_product", "inv", "lstsq", "lu", "lu_unpack",
           "matmul", "matrix_norm", "matrix_power", "matrix_rank",
           "multi_dot", "norm", "pinv", "qr", "slogdet", "solve", "svd", "svdvals",
           "triangular_solve", "vector_norm"]
