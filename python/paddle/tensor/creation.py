"""Tensor creation: to_tensor, full, zeros, ones, arange, linspace, eye and their *_like forms.
Written by hand: they convert NumPy data and Python values and apply Paddle's dtype and place
defaults."""
import numbers

import numpy as np

from .. import _C_ops
from ..base import libpaddle
from ..base.framework import (convert_dtype, default_complex_dtype, default_float_dtype,
                              to_numpy_dtype)
from ..device import _resolve_place
from ._helpers import Tensor, as_int_list, as_scalar, check_tensor, dtype_or_default

__all__ = ["to_tensor", "full", "full_like", "zeros", "zeros_like", "ones", "ones_like",
           "empty", "empty_like", "arange", "linspace", "eye", "assign", "clone"]


def _infer_numpy(data, dtype=None):
    """NumPy array for `data`, with Paddle's defaults when no `dtype` is asked for: Python
    floats become the default float dtype, Python complex numbers the complex dtype with parts of
    that type, Python ints int64, Python bools bool. With a dtype, Python floats stay float64
    until cast to it, so float64 data keeps its precision."""
    if isinstance(data, np.ndarray):
        if data.dtype.kind not in "biufc" or data.dtype in (np.uint32, np.uint64):
            raise TypeError(f"to_tensor(): cannot convert a NumPy array of dtype {data.dtype}")
        return data
    if isinstance(data, (list, tuple)):
        items = [d.numpy() if isinstance(d, Tensor) else d for d in data]
        array = np.array(items)
    elif isinstance(data, np.generic):
        return np.array(data)
    elif isinstance(data, (bool, numbers.Number)):
        array = np.array(data)
    else:
        raise TypeError(f"to_tensor(): cannot convert data of type {type(data).__name__}; "
                        f"expected a scalar, list, tuple, numpy.ndarray or Tensor")
    if array.dtype == np.float64 and dtype is None:
        array = array.astype(to_numpy_dtype(default_float_dtype()))
    elif array.dtype == np.complex128 and dtype is None:
        array = array.astype(to_numpy_dtype(default_complex_dtype()))
    elif array.dtype.kind in "iu" and array.dtype != np.uint8:
        array = array.astype(np.int64)
    elif array.dtype.kind not in "biufc":
        raise TypeError(f"to_tensor(): cannot convert data of dtype {array.dtype}")
    return array


def to_tensor(data, dtype=None, place=None, stop_gradient=True):
    """Creates a tensor holding a copy of `data` (a scalar, a nested list, a NumPy array or a
    Tensor) on `place` (default: the current device). In static mode the result is a constant
    of the program (see _static_constant)."""
    place = _resolve_place(place)
    if libpaddle._in_static_mode():
        result = _static_constant(data, dtype, place)
        result.stop_gradient = stop_gradient
        return result
    if isinstance(data, Tensor):
        result = data.detach()._copy_to(place)
        if dtype is not None and result.dtype != convert_dtype(dtype):
            result = _C_ops.cast(result, convert_dtype(dtype))
    else:
        array = _infer_numpy(data, dtype)
        target = None if dtype is None else convert_dtype(dtype)
        if array.dtype == np.uint16 and target in (None, libpaddle.DataType.BFLOAT16):
            # Paddle stores bfloat16 as uint16 bit patterns (numpy() returns them that way).
            result = libpaddle._tensor_from_numpy(array, place, libpaddle.DataType.BFLOAT16)
        elif target == libpaddle.DataType.BFLOAT16:
            # Round to nearest even into the upper 16 bits of the float32 pattern.
            words = np.asarray(array, dtype=np.float32, order="C").view(np.uint32)
            bits = np.asarray((words + 0x7FFF + ((words >> 16) & 1)) >> 16, dtype=np.uint16)
            result = libpaddle._tensor_from_numpy(bits, place, target)
        else:
            if target is not None:
                array = array.astype(to_numpy_dtype(target), copy=False)
            result = libpaddle._tensor_from_numpy(array, place)
    result.stop_gradient = stop_gradient
    return result


def _static_constant(data, dtype, place):
    """`data` as a variable of the current program: a copy of a static Variable, else a
    constant of an `assign_value` op, which holds the values as attributes, as Paddle's static
    to_tensor and assign do. Its double values keep float64 data exact, where a 0-d constant
    from `fill_constant` would round to its float attribute."""
    from ..static.program import Variable
    target = None if dtype is None else convert_dtype(dtype)
    if isinstance(data, Variable):
        if target is not None and data.dtype != target:
            return _C_ops.cast(data, target)
        return _C_ops.assign(data)
    bfloat16 = libpaddle.DataType.BFLOAT16
    if isinstance(data, Tensor):
        array, source = data.numpy(), data.dtype
    else:
        array = _infer_numpy(data, dtype)
        # A uint16 array holds bfloat16 bit patterns unless another dtype is asked for.
        source = bfloat16 if array.dtype == np.uint16 and target in (None, bfloat16) else None
    if source == bfloat16:
        # assign_value takes the float32 values of the bit patterns and rounds them back exactly.
        array = (array.astype(np.uint32) << 16).view(np.float32)
    if target is None:
        target = source if source is not None else convert_dtype(array.dtype)
    if target in (libpaddle.DataType.COMPLEX64, libpaddle.DataType.COMPLEX128):
        # assign_value holds real values: a complex constant is built from its two parts.
        parts = np.asarray(array).astype(to_numpy_dtype(target))
        part_dtype = convert_dtype(parts.real.dtype)
        real, imag = (_C_ops.assign_value(list(parts.shape), part_dtype, p.reshape(-1).tolist(),
                                          place) for p in (parts.real, parts.imag))
        return _C_ops.complex(real, imag)
    if target != bfloat16:
        array = array.astype(to_numpy_dtype(target), copy=False)
    return _C_ops.assign_value(list(array.shape), target, array.reshape(-1).tolist(), place)


def _shape(shape, api):
    return as_int_list(shape, api, "shape")


def full(shape, fill_value, dtype=None, name=None):
    if dtype is None:
        # Paddle: bool fills give bool, every number the default float dtype.
        fill = as_scalar(fill_value, "full", "fill_value")
        dtype = libpaddle.DataType.BOOL if isinstance(fill, bool) else default_float_dtype()
    return _C_ops.full(_shape(shape, "full"), as_scalar(fill_value, "full", "fill_value"),
                       convert_dtype(dtype), _resolve_place(None))


def zeros(shape, dtype=None, name=None):
    return _C_ops.full(_shape(shape, "zeros"), 0.0, dtype_or_default(dtype), _resolve_place(None))


def ones(shape, dtype=None, name=None):
    return _C_ops.full(_shape(shape, "ones"), 1.0, dtype_or_default(dtype), _resolve_place(None))


def empty(shape, dtype=None, name=None):
    return zeros(shape, dtype)


def full_like(x, fill_value, dtype=None, name=None):
    check_tensor(x, "full_like")
    dtype = libpaddle.DataType.UNDEFINED if dtype is None else convert_dtype(dtype)
    return _C_ops.full_like(x, as_scalar(fill_value, "full_like", "fill_value"), dtype)


def zeros_like(x, dtype=None, name=None):
    return full_like(x, 0, dtype)


def ones_like(x, dtype=None, name=None):
    return full_like(x, 1, dtype)


def empty_like(x, dtype=None, name=None):
    return full_like(x, 0, dtype)


def arange(start=0, end=None, step=1, dtype=None, name=None):
    if end is None:
        start, end = 0, start
    start = as_scalar(start, "arange", "start")
    end = as_scalar(end, "arange", "end")
    step = as_scalar(step, "arange", "step")
    if dtype is None:
        floats = any(isinstance(v, float) for v in (start, end, step))
        dtype = default_float_dtype() if floats else libpaddle.DataType.INT64
    return _C_ops.arange(start, end, step, convert_dtype(dtype), _resolve_place(None))


def linspace(start, stop, num, dtype=None, name=None):
    num = as_scalar(num, "linspace", "num")
    if not isinstance(num, numbers.Integral):
        raise TypeError(f"linspace(): argument 'num' must be an int, not {type(num).__name__}")
    return _C_ops.linspace(as_scalar(start, "linspace", "start"),
                           as_scalar(stop, "linspace", "stop"), int(num),
                           dtype_or_default(dtype), _resolve_place(None))


def eye(num_rows, num_columns=None, dtype=None, name=None):
    return _C_ops.eye(int(num_rows), -1 if num_columns is None else int(num_columns),
                      dtype_or_default(dtype), _resolve_place(None))


def _assign_array(data):
    """Paddle's conversion of assign's non-tensor input: NumPy's dtype is kept (a Python float is
    float64, not the default float dtype) and a scalar becomes a 1-element 1-D array."""
    if isinstance(data, (np.ndarray, list, tuple)):
        return np.array(data)
    if isinstance(data, (bool, numbers.Number, np.generic)):
        return np.array([data])
    raise TypeError(f"assign(): argument 'x' must be a Tensor, numpy.ndarray, list, tuple or "
                    f"scalar, not {type(data).__name__}")


def assign(x, output=None):
    """Copies `x` (a Tensor, NumPy array, list, tuple or scalar) into a new tensor, or into
    `output`, which then has x's shape and dtype."""
    if libpaddle._in_static_mode():
        return _static_assign(x, output)
    value = x if isinstance(x, Tensor) else to_tensor(_assign_array(x))
    if output is None:
        return _C_ops.assign(value) if value is x else value
    check_tensor(output, "assign", "output")
    if output is value:
        return output
    recorded = libpaddle.is_grad_enabled() and not (value.stop_gradient and output.stop_gradient)
    if list(output.shape) == list(value.shape) and output.dtype == value.dtype:
        if recorded:
            # Through autograd: output's gradient goes to x, and none to output's old value.
            _C_ops.set_value_with_tensor_(output, value, [], [], [], [])
        else:
            output._set_value(value)
    elif recorded:
        raise ValueError(f"assign(): 'output' (shape {list(output.shape)}, {output.dtype}) must "
                         f"have x's shape {list(value.shape)} and dtype {value.dtype} when either "
                         f"requires grad")
    else:
        # As in Paddle, output takes x's shape and dtype.
        output._share_data_from(_C_ops.assign(value) if value is x else value)
    return output


def _static_assign(x, output):
    """assign in static mode: data that is not a Variable of the program becomes a constant;
    with `output`, an `assign` op writes the value into that variable, as in Paddle."""
    from ..static.program import Variable, default_main_program
    if isinstance(x, Variable):
        value = x
    else:
        value = to_tensor(x if isinstance(x, Tensor) else _assign_array(x))
    if output is None:
        return _C_ops.assign(value) if value is x else value
    if not isinstance(output, Variable):
        raise TypeError(f"assign(): in static mode 'output' must be a static Variable, not "
                        f"{type(output).__name__}")
    if output is not value:
        block = default_main_program().current_block()
        block.append_op("assign", inputs={"X": [value]}, outputs={"Out": [output]})
        output.desc.set_dtype(value.dtype)
        output.desc.set_shape(value.shape)
    return output


def clone(x, name=None):
    return _C_ops.assign(check_tensor(x, "clone"))
