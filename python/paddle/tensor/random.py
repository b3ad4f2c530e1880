"""Random tensors. paddle.seed(n) makes them reproducible. Written by hand: they apply Paddle's
dtype defaults and argument orders."""
import math
import numbers

from .. import _C_ops
from ..base.framework import convert_dtype, is_floating
from ..device import _resolve_place
from ._helpers import as_int_list, as_scalar, check_tensor, dtype_or_default

__all__ = ["uniform", "normal", "gaussian", "standard_normal", "randn", "rand", "randint",
           "randperm", "bernoulli", "poisson", "multinomial"]


def _float_dtype(dtype, api):
    dtype = dtype_or_default(dtype)
    if not is_floating(dtype):
        raise TypeError(f"{api}(): argument 'dtype' must be a floating-point type, received "
                        f"{dtype.name}")
    return dtype


def uniform(shape, dtype=None, min=0.0, max=1.0, seed=0, name=None):
    """Uniform draws in [min, max) (PaddlePaddle 3.3's defaults: [0, 1))."""
    return _C_ops.uniform(as_int_list(shape, "uniform", "shape"), _float_dtype(dtype, "uniform"),
                          as_scalar(min, "uniform", "min"), as_scalar(max, "uniform", "max"),
                          int(seed), _resolve_place(None))


_COMPLEX_PARTS = {"complex64": "float32", "complex128": "float64"}


def gaussian(shape, mean=0.0, std=1.0, seed=0, dtype=None, name=None):
    """Normal draws. A complex dtype draws real and imaginary parts in turn, each with standard
    deviation std / sqrt(2) (so |z - mean| has variance std^2), as Paddle's kernel does; a
    complex mean must then have equal parts."""
    shape = as_int_list(shape, "gaussian", "shape")
    resolved = dtype_or_default(dtype)
    if resolved.name in _COMPLEX_PARTS:
        if isinstance(mean, complex):
            if mean.real != mean.imag:
                raise ValueError(f"gaussian(): a complex 'mean' must have equal real and "
                                 f"imaginary parts, but received {mean}")
            mean = mean.real
        parts = _C_ops.gaussian(shape + [2], float(mean), float(std) / math.sqrt(2), int(seed),
                                convert_dtype(_COMPLEX_PARTS[resolved.name]), _resolve_place(None))
        return _C_ops.as_complex(parts)
    if isinstance(mean, complex):
        raise TypeError(f"gaussian(): a complex 'mean' needs a complex dtype, but dtype is "
                        f"{resolved.name}")
    return _C_ops.gaussian(shape, float(mean), float(std), int(seed),
                           _float_dtype(dtype, "gaussian"), _resolve_place(None))


def normal(mean=0.0, std=1.0, shape=None, name=None):
    return gaussian(shape if shape is not None else [1], mean, std)


def standard_normal(shape, dtype=None, name=None):
    return gaussian(shape, 0.0, 1.0, dtype=dtype)


def randn(shape, dtype=None, name=None):
    return gaussian(shape, 0.0, 1.0, dtype=dtype)


def rand(shape, dtype=None, name=None):
    return uniform(shape, dtype, 0.0, 1.0)


def _int(value, api, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{api}(): argument '{arg}' must be an int, received "
                        f"{type(value).__name__}")
    return int(value)


def randint(low=0, high=None, shape=(1,), dtype=None, name=None):
    if high is None:
        low, high = 0, low
    low, high = _int(low, "randint", "low"), _int(high, "randint", "high")
    for arg, value in (("low", low), ("high", high)):
        if not -2**31 <= value < 2**31:  # Paddle's randint takes int32 bounds
            raise ValueError(f"randint(): argument '{arg}' ({value}) must fit in int32")
    return _C_ops.randint(low, high, as_int_list(shape, "randint", "shape"),
                          convert_dtype(dtype or "int64"), 0, _resolve_place(None))


def randperm(n, dtype="int64", name=None):
    return _C_ops.randperm(_int(n, "randperm", "n"), convert_dtype(dtype), 0,
                           _resolve_place(None))


def bernoulli(x, p=None, name=None):
    """Each element is 1 with probability x (or p, when given, for every element of x's shape)
    and 0 otherwise."""
    check_tensor(x, "bernoulli")
    if p is not None:
        if isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0 <= p <= 1:
            raise ValueError(f"bernoulli(): argument 'p' must be a probability in [0, 1], "
                             f"received {p!r}")
        x = _C_ops.full_like(x, float(p), x.dtype)
    return _C_ops.bernoulli(x)


def poisson(x, name=None):
    return _C_ops.poisson(check_tensor(x, "poisson"))


def multinomial(x, num_samples=1, replacement=False, name=None):
    check_tensor(x, "multinomial")
    return _C_ops.multinomial(x, _int(num_samples, "multinomial", "num_samples"),
                              bool(replacement))


def exponential_(x, lam=1.0, name=None):
    """Fills x in place with draws from the exponential distribution of rate lam."""
    check_tensor(x, "exponential_")
    if isinstance(lam, bool) or not isinstance(lam, numbers.Real):
        raise TypeError(f"exponential_(): argument 'lam' must be a float, received "
                        f"{type(lam).__name__}")
    return _C_ops.exponential_(x, float(lam))
