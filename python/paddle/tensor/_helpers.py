"""Argument normalisation shared by the tensor API modules."""
import numbers

import numpy as np

from ..base import libpaddle
from ..base.framework import convert_dtype, default_float_dtype

Tensor = libpaddle.Tensor
DataType = libpaddle.DataType


def is_tensor(x):
    return isinstance(x, Tensor)


def check_tensor(x, api, arg="x"):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}(): argument '{arg}' must be a Tensor, not {type(x).__name__}")
    return x


def _int_tensor_values(value, api, arg):
    """The elements of an integer tensor standing for ints."""
    from ..base.framework import is_integer
    if not is_integer(value.dtype):
        raise TypeError(f"{api}(): argument '{arg}' must hold ints, got a {value.dtype.name.lower()} "
                        f"tensor")
    return [int(v) for v in np.asarray(value.numpy()).reshape(-1)]


def as_int_list(value, api, arg):
    """An int, a list/tuple of ints or 0-d int tensors, or a 1-D int tensor, as a list of ints."""
    if value is None:
        return []
    if isinstance(value, Tensor):
        return _int_tensor_values(value, api, arg)
    if isinstance(value, (list, tuple)):
        out = []
        for v in value:
            if isinstance(v, Tensor):
                values = _int_tensor_values(v, api, arg)
                if len(values) != 1:
                    raise TypeError(f"{api}(): argument '{arg}' must hold ints, got a tensor of "
                                    f"shape {v.shape}")
                out.append(values[0])
            elif isinstance(v, (numbers.Integral, np.integer)) and not isinstance(v, bool):
                out.append(int(v))
            else:
                raise TypeError(f"{api}(): argument '{arg}' must hold ints, got "
                                f"{type(v).__name__}")
        return out
    if isinstance(value, (numbers.Integral, np.integer)) and not isinstance(value, bool):
        return [int(value)]
    raise TypeError(f"{api}(): argument '{arg}' must be an int or a list of ints, not "
                    f"{type(value).__name__}")


def as_int(value, api, arg):
    """An int argument: a Python or NumPy int, or a one-element int tensor (bool is not an int)."""
    if type(value) is int:  # the common case, before the slower checks
        return value
    if isinstance(value, Tensor):
        values = as_int_list(value, api, arg)
        if len(values) != 1:
            raise TypeError(f"{api}(): argument '{arg}' must be a single int, got a tensor of "
                            f"shape {value.shape}")
        return values[0]
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        raise TypeError(f"{api}(): argument '{arg}' must be an int, not {type(value).__name__}")
    return int(value)


def as_dtype(value):
    """A dtype argument: None (the op's own rule) or a paddle dtype or its name."""
    return DataType.UNDEFINED if value is None else convert_dtype(value)


def as_scalar(value, api, arg):
    """A Python number (or a 1-element tensor) for a Scalar attribute."""
    if type(value) in (float, int):  # the common case, before the slower checks
        return value
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"{api}(): argument '{arg}' must hold a single value, got shape "
                             f"{value.shape}")
        return value.numpy().reshape(-1)[0].item()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (bool, numbers.Number)):
        return value
    raise TypeError(f"{api}(): argument '{arg}' must be a number, not {type(value).__name__}")


def dtype_or_default(dtype):
    return default_float_dtype() if dtype is None else convert_dtype(dtype)


def scalar_dtype(value, like=None):
    """The dtype a Python scalar takes when it meets a tensor of dtype `like` (Paddle's rules: the
    scalar never widens a floating tensor; an int tensor meeting a float gets the default float
    dtype)."""
    from ..base.framework import default_complex_dtype, is_complex, is_floating
    if like is not None and is_complex(like):
        return like  # no scalar changes a complex tensor's dtype
    if isinstance(value, complex):
        return DataType.COMPLEX128 if like == DataType.FLOAT64 else default_complex_dtype()
    if isinstance(value, bool):
        return like if like is not None else DataType.BOOL
    if isinstance(value, numbers.Integral):
        if like is None or like == DataType.BOOL:
            return DataType.INT64
        return like
    if like is not None and is_floating(like):
        return like
    return default_float_dtype()
