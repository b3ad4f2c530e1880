"""Elementwise math, activations as tensor functions, and reductions."""
import numbers

from .. import _C_ops
from ..base import libpaddle
from ..base.framework import convert_dtype, default_float_dtype, is_floating
from ._helpers import Tensor, as_int_list, as_scalar, check_tensor, scalar_dtype

__all__ = ["add", "subtract", "multiply", "divide", "pow", "maximum", "minimum", "floor_divide",
           "remainder", "mod", "floor_mod", "exp", "log", "sqrt", "rsqrt", "abs", "sin", "cos",
           "tanh", "sigmoid", "erf", "square", "reciprocal", "sign", "floor", "ceil", "round",
           "clip", "scale", "sum", "max", "min", "prod", "neg", "add_n", "log1p", "amax",
           "amin", "increment"]


def _as_tensor(value, like, api, arg):
    """`value` as a tensor; a Python scalar takes a dtype from `like` by Paddle's rules."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, numbers.Number)):
        dtype = scalar_dtype(value, like.dtype if like is not None else None)
        place = like.place if like is not None else libpaddle._default_place()
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
    # True division: integer operands give a floating result, as in Paddle.
    if isinstance(x, Tensor) and not is_floating(x.dtype) and (
            not isinstance(y, Tensor) or not is_floating(y.dtype)):
        x = _C_ops.cast(x, default_float_dtype())
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
    if isinstance(y, float) and not is_floating(x.dtype):
        x = _C_ops.cast(x, default_float_dtype())
    return _C_ops.pow(x, y)


def maximum(x, y, name=None):
    return _binary(_C_ops.maximum, x, y, "maximum")


def minimum(x, y, name=None):
    return _binary(_C_ops.minimum, x, y, "minimum")


def _unary(op, api):
    def fn(x, name=None):
        return op(check_tensor(x, api))
    fn.__name__ = api
    fn.__doc__ = f"Elementwise {api} of `x`."
    return fn


exp = _unary(_C_ops.exp, "exp")
log = _unary(_C_ops.log, "log")
sqrt = _unary(_C_ops.sqrt, "sqrt")
rsqrt = _unary(_C_ops.rsqrt, "rsqrt")
abs = _unary(_C_ops.abs, "abs")
sin = _unary(_C_ops.sin, "sin")
cos = _unary(_C_ops.cos, "cos")
tanh = _unary(_C_ops.tanh, "tanh")
sigmoid = _unary(_C_ops.sigmoid, "sigmoid")
erf = _unary(_C_ops.erf, "erf")
square = _unary(_C_ops.square, "square")
reciprocal = _unary(_C_ops.reciprocal, "reciprocal")
sign = _unary(_C_ops.sign, "sign")
floor = _unary(_C_ops.floor, "floor")
ceil = _unary(_C_ops.ceil, "ceil")
round = _unary(_C_ops.round, "round")


def log1p(x, name=None):
    return _C_ops.log(_C_ops.scale(check_tensor(x, "log1p"), 1.0, 1.0, True))


def neg(x, name=None):
    return _C_ops.scale(check_tensor(x, "neg"), -1.0, 0.0, True)


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    check_tensor(x, "scale")
    out = _C_ops.scale(x, as_scalar(scale, "scale", "scale"), as_scalar(bias, "scale", "bias"),
                       bias_after_scale)
    if act is not None:
        out = getattr(_C_ops, act)(out)
    return out


def clip(x, min=None, max=None, name=None):
    check_tensor(x, "clip")
    info_min, info_max = ((-3.4028234663852886e38, 3.4028234663852886e38) if is_floating(x.dtype)
                          else (-(2 ** 63), 2 ** 63 - 1))
    lo = info_min if min is None else as_scalar(min, "clip", "min")
    hi = info_max if max is None else as_scalar(max, "clip", "max")
    return _C_ops.clip(x, lo, hi)


def _axis(axis, api):
    return as_int_list(axis, api, "axis")


def sum(x, axis=None, dtype=None, keepdim=False, name=None):
    check_tensor(x, "sum")
    dtype = libpaddle.DataType.UNDEFINED if dtype is None else convert_dtype(dtype)
    return _C_ops.sum(x, _axis(axis, "sum"), dtype, keepdim)


def max(x, axis=None, keepdim=False, name=None):
    return _C_ops.max(check_tensor(x, "max"), _axis(axis, "max"), keepdim)


def min(x, axis=None, keepdim=False, name=None):
    return _C_ops.min(check_tensor(x, "min"), _axis(axis, "min"), keepdim)


amax = max
amin = min


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
