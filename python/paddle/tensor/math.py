"""Elementwise math and reductions written by hand (the single-op functions such as paddle.exp
and paddle.max are generated from the op declarations): the binary ops take Python scalars and
promote them by Paddle's rules, sum/prod/clip normalise their dtype and bound arguments, and
neg, log1p, add_n and increment are compositions or in-place forms of other ops."""
import numbers

import numpy as np

from .. import _C_ops
from ..base import generated_api, libpaddle
from ..base.framework import (convert_dtype, default_float_dtype, is_complex, is_floating,
                              to_numpy_dtype)
from ._helpers import Tensor, as_int_list, as_scalar, check_tensor, scalar_dtype
from .creation import to_tensor

__all__ = ["add", "subtract", "multiply", "divide", "pow", "maximum", "minimum", "floor_divide",
           "remainder", "mod", "floor_mod", "clip", "clip_", "scale", "sum", "prod", "neg", "add_n", "log1p",
           "amax", "amin", "increment", "sgn"]


def _as_tensor(value, like, api, arg):
    """`value` as a tensor; a Python scalar takes a dtype from `like` by Paddle's rules."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, numbers.Number)):
        dtype = scalar_dtype(value, like.dtype if like is not None else None)
        place = like.place if like is not None else libpaddle._default_place()
        if isinstance(value, complex):  # a Scalar attribute holds real numbers only
            return to_tensor(np.asarray(value, to_numpy_dtype(dtype)), place=place)
        return _C_ops.full([], value, dtype, place)
    raise TypeError(f"{api}(): argument '{arg}' must be a Tensor or a number, not "
                    f"{type(value).__name__}")


def _binary(op, x, y, api):
    """op(x, y) where either may be a Python scalar. A scalar takes the tensor's dtype, except
    that a float scalar turns an integer or bool tensor into the default float dtype and an int
    scalar turns a bool tensor into int64 (Paddle's rules)."""
    if not isinstance(x, Tensor):
        check_tensor(y, api, "y")
        x = _as_tensor(x, y, api, "x")
        if x.dtype != y.dtype:
            y = _C_ops.cast(y, x.dtype)
    elif not isinstance(y, Tensor):
        y = _as_tensor(y, x, api, "y")
        if y.dtype != x.dtype:
            x = _C_ops.cast(x, y.dtype)
    return op(x, y)


def add(x, y, name=None):
    return _binary(_C_ops.add, x, y, "add")


def subtract(x, y, name=None):
    return _binary(_C_ops.subtract, x, y, "subtract")


def multiply(x, y, name=None):
    return _binary(_C_ops.multiply, x, y, "multiply")


def divide(x, y, name=None):
    # True division: integer and bool operands divide in the default float dtype, as in Paddle.
    tensors = [v for v in (x, y) if isinstance(v, Tensor)]
    if tensors and not any(is_floating(t.dtype) or is_complex(t.dtype) for t in tensors):
        x, y = (_C_ops.cast(v, default_float_dtype()) if isinstance(v, Tensor) else v
                for v in (x, y))
    return _binary(_C_ops.divide, x, y, "divide")


def floor_divide(x, y, name=None):
    return _binary(_C_ops.floor_divide, x, y, "floor_divide")


def remainder(x, y, name=None):
    return _binary(_C_ops.remainder, x, y, "remainder")


mod = remainder
floor_mod = remainder


def pow(x, y, name=None):
    check_tensor(x, "pow")
    if isinstance(y, Tensor):
        return _C_ops.elementwise_pow(x, y)
    y = as_scalar(y, "pow", "y")
    if isinstance(y, float) and not is_floating(x.dtype) and not is_complex(x.dtype):
        x = _C_ops.cast(x, default_float_dtype())
    return _C_ops.pow(x, y)


def maximum(x, y, name=None):
    return _binary(_C_ops.maximum, x, y, "maximum")


def minimum(x, y, name=None):
    return _binary(_C_ops.minimum, x, y, "minimum")


def sgn(x, name=None):
    """x / |x| for complex x (0 at 0), the sign of real x: the sign kernel serves both."""
    return _C_ops.sign(check_tensor(x, "sgn"))


def log1p(x, name=None):
    return _C_ops.log(_C_ops.scale(check_tensor(x, "log1p"), 1.0, 1.0, True))


def neg(x, name=None):
    return _C_ops.scale(check_tensor(x, "neg"), -1.0, 0.0, True)


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    check_tensor(x, "scale")
    out = _C_ops.scale(x, as_scalar(scale, "scale", "scale"), as_scalar(bias, "scale", "bias"),
                       bias_after_scale)
    if act is not None:
        activation = getattr(_C_ops, act, None) if isinstance(act, str) else None
        if activation is None:
            raise ValueError(f"scale(): argument 'act' must name an activation op such as 'relu', "
                             f"received {act!r}")
        out = activation(out)
    return out


def _clip_bounds(dtype):
    # A missing bound is the dtype's own extreme, which the kernel's dtype can hold.
    if is_floating(dtype):
        return -3.4028234663852886e38, 3.4028234663852886e38
    info = np.iinfo(to_numpy_dtype(dtype))
    return int(info.min), int(info.max)


def _clip_range(x, min, max, api):
    """clip's checked x and its (lo, hi): a missing bound is the dtype's extreme."""
    check_tensor(x, api)
    if is_complex(x.dtype):
        raise TypeError(f"{api}: complex input (data type {x.dtype.name}) is not supported; "
                        f"complex numbers have no order")
    info_min, info_max = _clip_bounds(x.dtype)
    lo = info_min if min is None else as_scalar(min, api, "min")
    hi = info_max if max is None else as_scalar(max, api, "max")
    return lo, hi


def clip(x, min=None, max=None, name=None):
    return _C_ops.clip(x, *_clip_range(x, min, max, "clip"))


def clip_(x, min=None, max=None, name=None):
    """clip written into x, which is returned; x's inplace version goes up, so a backward that
    saved x for its gradient refuses to run on the new values."""
    _C_ops.clip_(x, *_clip_range(x, min, max, "clip_"))
    return x


def _axis(axis, api):
    return as_int_list(axis, api, "axis")


def sum(x, axis=None, dtype=None, keepdim=False, name=None):
    check_tensor(x, "sum")
    dtype = libpaddle.DataType.UNDEFINED if dtype is None else convert_dtype(dtype)
    return _C_ops.sum(x, _axis(axis, "sum"), dtype, keepdim)


# Paddle's amax and amin, here the same reductions as max and min.
amax = generated_api.max
amin = generated_api.min


def prod(x, axis=None, keepdim=False, dtype=None, name=None):
    check_tensor(x, "prod")
    if dtype is not None and x.dtype != convert_dtype(dtype):
        x = _C_ops.cast(x, convert_dtype(dtype))
    return _C_ops.prod(x, _axis(axis, "prod"), keepdim)


def add_n(inputs, name=None):
    """The elementwise sum of a list of same-shape, same-dtype tensors (a single tensor is copied)."""
    return _C_ops.add_n([inputs] if isinstance(inputs, Tensor) else inputs)


def increment(x, value=1.0, name=None):
    """x + value for a one-element x, written into x, which is returned (Paddle's dygraph API)."""
    _C_ops.increment_(check_tensor(x, "increment"), value)
    return x
