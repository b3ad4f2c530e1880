"""Random tensors. paddle.seed(n) makes them reproducible. Written by hand: they apply Paddle's
dtype defaults and argument orders."""
from .. import _C_ops
from ..base.framework import is_floating
from ..device import _resolve_place
from ._helpers import as_int_list, as_scalar, dtype_or_default

__all__ = ["uniform", "normal", "gaussian", "standard_normal", "randn", "rand", "randint"]


def _float_dtype(dtype, api):
    dtype = dtype_or_default(dtype)
    if not is_floating(dtype):
        raise TypeError(f"{api}(): argument 'dtype' must be a floating-point type, received "
                        f"{dtype.name}")
    return dtype


def uniform(shape, dtype=None, min=-1.0, max=1.0, seed=0, name=None):
    return _C_ops.uniform(as_int_list(shape, "uniform", "shape"), _float_dtype(dtype, "uniform"),
                          as_scalar(min, "uniform", "min"), as_scalar(max, "uniform", "max"),
                          int(seed), _resolve_place(None))


def gaussian(shape, mean=0.0, std=1.0, seed=0, dtype=None, name=None):
    return _C_ops.gaussian(as_int_list(shape, "gaussian", "shape"), float(mean), float(std),
                           int(seed), _float_dtype(dtype, "gaussian"), _resolve_place(None))


def normal(mean=0.0, std=1.0, shape=None, name=None):
    return gaussian(shape if shape is not None else [1], mean, std)


def standard_normal(shape, dtype=None, name=None):
    return gaussian(shape, 0.0, 1.0, dtype=dtype)


def randn(shape, dtype=None, name=None):
    return gaussian(shape, 0.0, 1.0, dtype=dtype)


def rand(shape, dtype=None, name=None):
    return uniform(shape, dtype, 0.0, 1.0)


def randint(low=0, high=None, shape=(1,), dtype=None, name=None):
    if high is None:
        low, high = 0, low
    if high <= low:
        raise ValueError(f"randint(): 'high' ({high}) must be greater than 'low' ({low})")
    u = uniform(shape, "float64", float(low), float(high))
    out = _C_ops.floor(u)
    # uniform can return exactly `high` after rounding; keep the result in [low, high).
    out = _C_ops.clip(out, float(low), float(high - 1))
    return _C_ops.cast(out, dtype or "int64")
