"""Linear algebra compositions (paddle.matmul itself is generated from the op declarations)."""
from .. import _C_ops
from ..base.generated_api import matmul
from ._helpers import check_tensor

__all__ = ["mm", "bmm", "t"]


def mm(input, mat2, name=None):
    return matmul(input, mat2)


def bmm(x, y, name=None):
    check_tensor(x, "bmm")
    check_tensor(y, "bmm", "y")
    if len(x.shape) != 3 or len(y.shape) != 3:
        raise ValueError(f"bmm(): both inputs must be 3-D, received shapes {x.shape} and "
                         f"{y.shape}")
    return matmul(x, y)


def t(input, name=None):
    check_tensor(input, "t", "input")
    if len(input.shape) > 2:
        raise ValueError(f"t(): input must have at most 2 dims, received shape {input.shape}")
    if len(input.shape) < 2:
        return input
    return _C_ops.transpose(input, [1, 0])
