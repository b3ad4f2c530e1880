"""Comparison and logical ops written by hand (isnan, all, tril, ... are generated from the op
declarations): the comparisons take Python scalars like the binary math ops, and equal_all,
isclose, allclose and masked_fill are compositions of other ops."""
from .. import _C_ops
from ..base.framework import is_complex as _is_complex_dtype
from ._helpers import Tensor, as_scalar, check_tensor
from .math import _binary

__all__ = ["equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal",
           "logical_and", "logical_or", "logical_xor", "logical_not", "equal_all", "allclose",
           "isclose", "is_tensor", "is_complex", "masked_fill"]


def _compare(op, api):
    def fn(x, y, name=None):
        return _binary(op, x, y, api)
    fn.__name__ = api
    fn.__doc__ = f"Elementwise {api} of `x` and `y` with broadcasting; returns a bool tensor."
    return fn


equal = _compare(_C_ops.equal, "equal")
not_equal = _compare(_C_ops.not_equal, "not_equal")
less_than = _compare(_C_ops.less_than, "less_than")
less_equal = _compare(_C_ops.less_equal, "less_equal")
greater_than = _compare(_C_ops.greater_than, "greater_than")
greater_equal = _compare(_C_ops.greater_equal, "greater_equal")
logical_and = _compare(_C_ops.logical_and, "logical_and")
logical_or = _compare(_C_ops.logical_or, "logical_or")
logical_xor = _compare(_C_ops.logical_xor, "logical_xor")


def logical_not(x, out=None, name=None):
    return _C_ops.logical_not(check_tensor(x, "logical_not"))


def equal_all(x, y, name=None):
    """A 0-d bool tensor: True when x and y have the same shape and elements."""
    check_tensor(x, "equal_all")
    check_tensor(y, "equal_all", "y")
    if list(x.shape) != list(y.shape):
        return _C_ops.full([], False, "bool", x.place)
    return _C_ops.cast(_C_ops.min(_C_ops.cast(equal(x, y), "int32"), [], False), "bool")


def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    from ..base.generated_api import abs as _abs
    from .math import subtract
    diff = _abs(subtract(x, y))
    bound = _C_ops.scale(_abs(y), rtol, atol, True)
    close = less_equal(diff, bound)
    if equal_nan:
        close = logical_or(close, logical_and(not_equal(x, x), not_equal(y, y)))
    return close


def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    """A 0-d bool tensor: whether isclose holds everywhere (an op, so it also builds in a static
    program)."""
    return _C_ops.all(isclose(x, y, rtol, atol, equal_nan), [], False)


def is_tensor(x):
    from ._helpers import Tensor
    return isinstance(x, Tensor)


def is_complex(x):
    """Whether x is a complex64 or complex128 tensor."""
    return _is_complex_dtype(check_tensor(x, "is_complex").dtype)


def masked_fill(x, mask, value, name=None):
    """x with `value` (a number or a tensor) written where the bool `mask` holds; x and mask
    broadcast together."""
    from .search import where
    check_tensor(x, "masked_fill")
    check_tensor(mask, "masked_fill", "mask")
    if isinstance(value, Tensor):
        if value.dtype != x.dtype:
            value = _C_ops.cast(value, x.dtype)
    else:
        value = _C_ops.full([], as_scalar(value, "masked_fill", "value"), x.dtype, x.place)
    return where(mask, value, x)
