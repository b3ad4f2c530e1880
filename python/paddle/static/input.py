"""paddle.static.data and InputSpec: declaring a program's inputs."""
import numpy as np

from ..base import libpaddle
from ..base.framework import convert_dtype, default_float_dtype
from .program import default_main_program

__all__ = ["data", "InputSpec"]


def _check_shape(shape, api):
    if isinstance(shape, int):
        shape = [shape]
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"{api}(): 'shape' must be a list or tuple, but received "
                        f"{type(shape).__name__}")
    out = []
    for d in shape:
        if d is None:
            out.append(-1)
        elif isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d >= -1:
            out.append(int(d))
        else:
            raise ValueError(f"{api}(): every dimension of 'shape' must be an int >= -1 or None, "
                             f"but received {shape}")
    return out


def data(name, shape, dtype=None, lod_level=0):
    """A program input named `name`: its dimensions of None or -1 take their size from the
    data fed at each run."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"data(): 'name' must be a non-empty str, but received {name!r}")
    shape = _check_shape(shape, "data")
    dtype = default_float_dtype() if dtype is None else convert_dtype(dtype)
    block = default_main_program().global_block()
    var = block.create_var(name=name, shape=shape, dtype=dtype, stop_gradient=True,
                           need_check_feed=True)
    return var


class InputSpec:
    """The shape, dtype and name of a model input (for data() and saving)."""

    def __init__(self, shape, dtype="float32", name=None, stop_gradient=False):
        self.shape = tuple(-1 if d < 0 else d for d in _check_shape(shape, "InputSpec"))
        self.dtype = convert_dtype(dtype)
        self.name = name
        self.stop_gradient = stop_gradient

    @classmethod
    def from_tensor(cls, tensor, name=None):
        if not isinstance(tensor, libpaddle.Tensor):
            raise TypeError(f"InputSpec.from_tensor(): expected a Tensor, received "
                            f"{type(tensor).__name__}")
        return cls(tensor.shape, tensor.dtype, name or getattr(tensor, "name", None))

    @classmethod
    def from_numpy(cls, ndarray, name=None):
        return cls(ndarray.shape, ndarray.dtype, name)

    def batch(self, batch_size):
        if isinstance(batch_size, (list, tuple)):
            if len(batch_size) != 1:
                raise ValueError(f"InputSpec.batch(): expected one batch size, received "
                                 f"{batch_size}")
            batch_size = batch_size[0]
        self.shape = (int(batch_size),) + self.shape
        return self

    def unbatch(self):
        if not self.shape:
            raise ValueError("InputSpec.unbatch(): the shape is already 0-d")
        self.shape = self.shape[1:]
        return self

    def _create_feed_layer(self):
        return data(self.name, list(self.shape), self.dtype)

    def __eq__(self, other):
        return (type(self) is type(other) and self.shape == other.shape and
                self.dtype == other.dtype and self.name == other.name)

    def __hash__(self):
        return hash((self.shape, self.dtype, self.name))

    def __repr__(self):
        return f"InputSpec(shape={self.shape}, dtype={self.dtype}, name={self.name}, " \
               f"stop_gradient={self.stop_gradient})"
