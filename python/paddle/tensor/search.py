"""Search ops: argmax, argmin, where, nonzero; sorting, top-k, along-axis indexing and the
running sum and product (which Paddle keeps in math.py). Written by hand: each normalises its
arguments as Paddle does in Python (axis None, Python scalars, broadcasting the indices, dtype
casts) or selects among an op's outputs (sort, argsort)."""
from .. import _C_ops
from ..base.framework import convert_dtype
from ._helpers import Tensor, as_scalar, check_tensor

__all__ = ["argmax", "argmin", "where", "nonzero", "topk", "sort", "argsort", "take_along_axis",
           "put_along_axis", "cumsum", "cumprod"]


def _arg(op, api, x, axis, keepdim, dtype):
    check_tensor(x, api)
    flatten = axis is None
    return op(x, 0 if flatten else int(axis), keepdim, flatten, convert_dtype(dtype))


def argmax(x, axis=None, keepdim=False, dtype="int64", name=None):
    return _arg(_C_ops.argmax, "argmax", x, axis, keepdim, dtype)


def argmin(x, axis=None, keepdim=False, dtype="int64", name=None):
    return _arg(_C_ops.argmin, "argmin", x, axis, keepdim, dtype)


def where(condition, x=None, y=None, name=None):
    """Elements of `x` where `condition` holds, else of `y`; with only `condition`, the indices
    of its true elements, one tensor per dimension."""
    check_tensor(condition, "where", "condition")
    if x is None and y is None:
        return nonzero(condition, as_tuple=True)
    from .math import _as_tensor
    if not isinstance(x, Tensor):
        x = _as_tensor(x, y if isinstance(y, Tensor) else None, "where", "x")
    y = _as_tensor(y, x, "where", "y")
    return _C_ops.where(condition, x, y)


def nonzero(x, as_tuple=False):
    indices = _C_ops.nonzero(check_tensor(x, "nonzero"))
    if not as_tuple:
        return indices
    rank = len(x.shape)
    return tuple(_C_ops.slice(indices, [1], [i], [i + 1], [1]) for i in range(rank))


def topk(x, k, axis=None, largest=True, sorted=True, name=None):
    """The k largest (or smallest) entries along `axis` (default: the last) and their int64
    indices; equal values are taken lowest index first, NaN counts as the largest."""
    check_tensor(x, "topk")
    k = int(as_scalar(k, "topk", "k"))
    return _C_ops.topk(x, k, -1 if axis is None else int(axis), bool(largest), bool(sorted))


def sort(x, axis=-1, descending=False, stable=False, name=None):
    """The values of x sorted along `axis` (NaN last ascending, first descending)."""
    return _C_ops.argsort(check_tensor(x, "sort"), int(axis), bool(descending), bool(stable))[0]


def argsort(x, axis=-1, descending=False, stable=False, name=None):
    """The int64 indices that sort x along `axis`; equal values keep their order."""
    return _C_ops.argsort(check_tensor(x, "argsort"), int(axis), bool(descending), bool(stable))[1]


def _along_axis_shapes(arr, indices, axis, api):
    check_tensor(arr, api, "arr")
    check_tensor(indices, api, "indices")
    if len(arr.shape) != len(indices.shape):
        raise ValueError(f"{api}(): `indices` and `arr` must have the same number of dimensions, "
                         f"received shapes {list(indices.shape)} and {list(arr.shape)}")
    rank = max(len(arr.shape), 1)
    if not -rank <= int(axis) < rank:
        raise IndexError(f"{api}(): argument 'axis' expected to be in range [{-rank}, {rank}), "
                         f"received {axis}")
    return int(axis) % rank if arr.shape else 0


def take_along_axis(arr, indices, axis, broadcast=True, name=None):
    """out[..., j, ...] = arr[..., indices[..., j, ...], ...] along `axis`. With `broadcast`,
    indices and arr are first broadcast against each other outside `axis`, as in Paddle."""
    axis = _along_axis_shapes(arr, indices, axis, "take_along_axis")
    if broadcast and arr.shape:
        shape = [0 if a == 0 or i == 0 else max(a, i) for a, i in zip(arr.shape, indices.shape)]
        shape[axis] = indices.shape[axis]
        if list(indices.shape) != shape:
            indices = _C_ops.expand(indices, shape)
        shape[axis] = arr.shape[axis]
        if list(arr.shape) != shape:
            arr = _C_ops.expand(arr, shape)
    return _C_ops.take_along_axis(arr, indices, axis)


def put_along_axis(arr, indices, values, axis, reduce="assign", include_self=True, broadcast=True,
                   name=None):
    """arr with `values` written (reduce="assign"), added ("add") or multiplied ("mul",
    "multiply") into the positions `indices` selects along `axis`. include_self=False leaves the
    original entries of the written positions out of the reduction."""
    axis = _along_axis_shapes(arr, indices, axis, "put_along_axis")
    if reduce not in ("assign", "add", "mul", "multiply"):
        raise ValueError(f"put_along_axis(): argument 'reduce' must be 'assign', 'add', 'mul' or "
                         f"'multiply', received {reduce!r}")
    if not isinstance(values, Tensor):
        from .creation import to_tensor
        values = to_tensor(values, dtype=arr.dtype)
    elif values.dtype != arr.dtype:
        values = _C_ops.cast(values, arr.dtype)
    if broadcast and arr.shape and all(i <= a for a, i in zip(arr.shape, indices.shape)):
        shape = list(arr.shape)
        shape[axis] = indices.shape[axis]
        if list(indices.shape) != shape:
            indices = _C_ops.expand(indices, shape)
    if list(values.shape) != list(indices.shape):
        if len(values.shape) == len(indices.shape) and all(
                v >= i for v, i in zip(values.shape, indices.shape)):
            # Paddle reads only the leading part of a larger `values`.
            n = len(indices.shape)
            values = _C_ops.slice(values, list(range(n)), [0] * n, list(indices.shape))
        else:
            values = _C_ops.expand(values, list(indices.shape))
    return _C_ops.put_along_axis(arr, indices, values, axis, reduce, bool(include_self))


def cumsum(x, axis=None, dtype=None, name=None):
    """The running sum along `axis` (of the flattened x when axis is None). Small integer
    inputs accumulate in int64, as in Paddle."""
    check_tensor(x, "cumsum")
    if dtype is None:
        if x.dtype in tuple(convert_dtype(d) for d in ("uint8", "int8", "int16", "int32", "bool")):
            x = _C_ops.cast(x, convert_dtype("int64"))
    elif x.dtype != convert_dtype(dtype):
        x = _C_ops.cast(x, convert_dtype(dtype))
    if axis is None:
        return _C_ops.cumsum(x, -1, True, False, False)
    return _C_ops.cumsum(x, int(axis), False, False, False)


def cumprod(x, dim=None, dtype=None, name=None):
    """The running product along `dim` (of the flattened x when dim is None)."""
    check_tensor(x, "cumprod")
    if dim is None:
        dim = -1
        x = _C_ops.reshape(x, [-1])
    if dtype is not None and x.dtype != convert_dtype(dtype):
        x = _C_ops.cast(x, convert_dtype(dtype))
    return _C_ops.cumprod(x, int(dim), False, False)
