"""Adds the Python operators and the tensor API methods to paddle.Tensor (x + y, x.sum(), ...)."""
import numbers

import numpy as np

from .. import _C_ops
from ..base import generated_api, libpaddle
from ..base.framework import convert_dtype, is_floating
from . import creation, indexing, linalg, logic, manipulation, math, random, search, stat
from .to_string import tensor_repr

Tensor = libpaddle.Tensor


def _reflected(fn):
    return lambda self, other: fn(other, self)


def _item(self, *args):
    array = self.numpy()
    if args:
        return array.item(*args)
    if array.size != 1:
        raise ValueError(f"item(): only a tensor with one element can be converted to a Python "
                         f"scalar, this one has shape {self.shape}")
    return array.reshape(-1)[0].item()


def _scalar_conversion(kind):
    def convert(self):
        if self.size != 1:
            raise TypeError(f"only a tensor with one element can be converted to {kind.__name__}, "
                            f"this one has shape {self.shape}")
        return kind(self.numpy().reshape(-1)[0])
    return convert


def _bool(self):
    if self.size != 1:
        raise ValueError(f"the truth value of a tensor with {self.size} elements is ambiguous; "
                         f"use .all() or .any()")
    return bool(self.numpy().reshape(-1)[0])


def _index(self):
    from ..base.framework import is_integer
    if self.size != 1 or not is_integer(self.dtype):
        raise TypeError("only an integer tensor with one element can be used as an index")
    return int(self.numpy().reshape(-1)[0])


def _len(self):
    if len(self.shape) == 0:
        raise TypeError("len() of a 0-d tensor")
    return self.shape[0]


def _iter(self):
    if len(self.shape) == 0:
        raise TypeError("iteration over a 0-d tensor")
    for i in range(self.shape[0]):
        yield self[i]


def _eq(self, other):
    if other is None:
        return False
    return logic.equal(self, other)


def _ne(self, other):
    if other is None:
        return True
    return logic.not_equal(self, other)


def _invert(self):
    if self.dtype != convert_dtype("bool"):
        raise TypeError(f"~ is only defined for bool tensors here, this one is {self.dtype.name}")
    return logic.logical_not(self)


def _astype(self, dtype):
    return _C_ops.cast(self, convert_dtype(dtype))


def _backward(self, grad_tensor=None, retain_graph=False):
    from ..autograd import backward
    backward([self], None if grad_tensor is None else [grad_tensor], retain_graph)


def _register_hook(self, hook):
    if not callable(hook):
        raise TypeError(f"register_hook(): hook must be callable, not {type(hook).__name__}")
    return self._register_hook(hook)


def _clear_gradient(self, set_to_zero=True):
    self._clear_grad(set_to_zero)


def _gradient(self):
    return None if self.grad is None else self.grad.numpy()


def _set_value(self, value):
    """Writes `value` (a tensor or array of the same shape) into this tensor's memory."""
    if not isinstance(value, Tensor):
        value = creation.to_tensor(np.asarray(value), dtype=self.dtype, place=self.place)
    self._set_value(value)


def _set(self, array, place=None):
    """PaddlePaddle's LoDTensor.set: replaces this tensor's data, shape and dtype with `array`'s
    (how static programs load values into scope variables: scope.find_var(n).get_tensor())."""
    if place is None:
        # A scope variable no op has written yet has no place: the current device then.
        place = self.place if self._is_initialized() else libpaddle._default_place()
    if isinstance(array, Tensor):
        array = array.numpy()
    data = libpaddle._tensor_from_numpy(np.asarray(array), place, libpaddle.DataType.UNDEFINED)
    libpaddle._set_tensor_data(self, data)


def _to(self, *args, **kwargs):
    place, dtype = kwargs.get("device"), kwargs.get("dtype")
    for a in args:
        if isinstance(a, (str, libpaddle.Place)) and not _is_dtype_name(a):
            place = a
        else:
            dtype = a
    out = self
    if dtype is not None:
        out = _C_ops.cast(out, convert_dtype(dtype))
    if place is not None:
        from ..device import _resolve_place
        out = out._copy_to(_resolve_place(place))
    return out


def _is_dtype_name(value):
    if not isinstance(value, str):
        return False
    try:
        convert_dtype(value)
        return True
    except TypeError:
        return False


def _inplace(op_name):
    op = getattr(_C_ops, op_name + "_")

    def method(self, *args):
        args = [math._as_tensor(a, self, op_name + "_", "y") if isinstance(a, (bool, numbers.Number))
                else a for a in args]
        op(self, *args)
        return self
    method.__name__ = op_name + "_"
    return method


def _deepcopy(self, memo):
    """A new tensor with a copy of the data and the same stop_gradient, as Paddle's deepcopy."""
    copied = self.detach()._copy_to(self.place)
    copied.stop_gradient = self.stop_gradient
    memo[id(self)] = copied
    return copied


def _scale_(self, scale=1.0, bias=0.0, bias_after_scale=True, act=None):
    _C_ops.scale_(self, scale, bias, bias_after_scale)
    return self


def _zero_(self):
    self._set_value(creation.zeros_like(self))
    return self


def _fill_(self, value):
    self._set_value(creation.full_like(self, value))
    return self


_METHODS = {
    "__add__": math.add, "__radd__": _reflected(math.add),
    "__sub__": math.subtract, "__rsub__": _reflected(math.subtract),
    "__mul__": math.multiply, "__rmul__": _reflected(math.multiply),
    "__truediv__": math.divide, "__rtruediv__": _reflected(math.divide),
    "__floordiv__": math.floor_divide, "__rfloordiv__": _reflected(math.floor_divide),
    "__mod__": math.remainder, "__rmod__": _reflected(math.remainder),
    "__pow__": math.pow, "__rpow__": lambda self, other: math._binary(
        _C_ops.elementwise_pow, other, self, "pow"),
    "__matmul__": generated_api.matmul, "__rmatmul__": _reflected(generated_api.matmul),
    "__neg__": math.neg, "__abs__": generated_api.abs, "__invert__": _invert,
    "__and__": logic.logical_and, "__or__": logic.logical_or, "__xor__": logic.logical_xor,
    "__eq__": _eq, "__ne__": _ne, "__lt__": logic.less_than, "__le__": logic.less_equal,
    "__gt__": logic.greater_than, "__ge__": logic.greater_equal,
    "__hash__": object.__hash__,
    "__getitem__": indexing.getitem, "__setitem__": indexing.setitem,
    "__len__": _len, "__iter__": _iter, "__bool__": _bool, "__float__": _scalar_conversion(float),
    "__int__": _scalar_conversion(int), "__index__": _index,
    "__array__": lambda self, dtype=None, copy=None: (
        self.numpy() if dtype is None else self.numpy().astype(dtype)),
    "__repr__": tensor_repr, "__str__": tensor_repr,
    "item": _item, "tolist": lambda self: self.numpy().tolist(), "astype": _astype,
    "cast": _astype, "clone": creation.clone, "backward": _backward,
    "register_hook": _register_hook, "clear_gradient": _clear_gradient,
    "clear_grad": _clear_gradient, "gradient": _gradient, "set_value": _set_value,
    "set": _set,
    "to": _to, "cpu": lambda self: self._copy_to(libpaddle.CPUPlace()),
    "cuda": lambda self, device_id=0, blocking=True: self._copy_to(libpaddle.CUDAPlace(device_id)),
    "dim": lambda self: len(self.shape), "numel": lambda self: self.size,
    "element_size": lambda self: libpaddle.size_of_dtype(self.dtype),
    "is_floating_point": lambda self: is_floating(self.dtype),
    "scale_": _scale_, "zero_": _zero_, "fill_": _fill_, "__deepcopy__": _deepcopy,
    "T": property(lambda self: generated_api.transpose(self, list(range(len(self.shape)))[::-1])),
    "mT": property(lambda self: generated_api.transpose(
        self, list(range(len(self.shape) - 2)) + [len(self.shape) - 1, len(self.shape) - 2])),
}

# The in-place forms of the binary ops written by hand in math.py (they take Python scalars).
for _name in ("add", "subtract", "multiply", "divide"):
    _METHODS[_name + "_"] = _inplace(_name)
_METHODS["exponential_"] = random.exponential_
_METHODS["multinomial"] = random.multinomial
# Paddle has x.eig() and x.eigvals() but no paddle.eig: they are only in paddle.linalg.
_METHODS["eig"] = linalg.eig
_METHODS["eigvals"] = linalg.eigvals
# The methods generated from the op declarations (x.exp(), x.exp_(), x.reshape(...), ...).
_METHODS.update(generated_api.TENSOR_METHODS)

# Every public tensor function is also a method (x.sum(), x.reshape(...), ...).
for _module in (creation, linalg, logic, manipulation, math, search, stat):
    for _name in _module.__all__:
        if _name not in ("to_tensor", "full", "zeros", "ones", "empty", "arange", "linspace",
                         "eye", "is_tensor"):
            _METHODS.setdefault(_name, getattr(_module, _name))

for _name, _fn in _METHODS.items():
    setattr(Tensor, _name, _fn)
