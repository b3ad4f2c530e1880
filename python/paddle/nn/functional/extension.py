"""Functions Paddle keeps in nn.functional.extension: sequence_mask."""
from ... import _C_ops
from ...base.framework import convert_dtype
from ...base.libpaddle import Tensor
from ...tensor._helpers import check_tensor

__all__ = ["sequence_mask"]


def sequence_mask(x, maxlen=None, dtype="int64", name=None):
    """mask[..., j] = j < x[...] for j in [0, maxlen): x holds lengths, the mask gains a last
    dim of maxlen (the largest length when None)."""
    check_tensor(x, "sequence_mask", "x")
    if x.dtype.name not in ("int32", "int64"):
        raise TypeError(f"sequence_mask(): 'x' must be int32 or int64, but it is {x.dtype.name}")
    if maxlen is None:
        maxlen = int(_C_ops.max(x, [], False).item()) if x.size > 0 else 0
    elif isinstance(maxlen, Tensor):
        maxlen = int(maxlen.item())
    if maxlen < 0:
        raise ValueError(f"sequence_mask(): 'maxlen' must be >= 0, but received {maxlen}")
    positions = _C_ops.arange(0, maxlen, 1, x.dtype, x.place)
    mask = _C_ops.less_than(positions, _C_ops.unsqueeze(x, [-1]))
    return _C_ops.cast(mask, convert_dtype(dtype))
