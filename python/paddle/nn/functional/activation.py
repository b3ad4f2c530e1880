"""Activation functions written by hand (relu, gelu, silu, ... are generated from the op
declarations): softmax and log_softmax cast to their `dtype` argument first, and leaky_relu
composes other ops."""
from ... import _C_ops
from ...base.framework import convert_dtype
from ...tensor._helpers import check_tensor

__all__ = ["softmax", "log_softmax", "leaky_relu"]


def _cast_for(x, dtype, api):
    check_tensor(x, api)
    if dtype is not None and x.dtype != convert_dtype(dtype):
        x = _C_ops.cast(x, convert_dtype(dtype))
    return x


def softmax(x, axis=-1, dtype=None, name=None):
    """exp(x) / sum(exp(x)) along `axis`; `dtype` casts x first (to avoid overflow)."""
    return _C_ops.softmax(_cast_for(x, dtype, "softmax"), int(axis))


def log_softmax(x, axis=-1, dtype=None, name=None):
    return _C_ops.log_softmax(_cast_for(x, dtype, "log_softmax"), int(axis))


def leaky_relu(x, negative_slope=0.01, name=None):
    """x where x > 0, else negative_slope * x."""
    check_tensor(x, "leaky_relu")
    zero = _C_ops.full_like(x, 0.0, x.dtype)
    return _C_ops.where(_C_ops.greater_than(x, zero), x,
                        _C_ops.scale(x, float(negative_slope), 0.0, True))
