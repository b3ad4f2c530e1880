"""Tensor.__getitem__ and __setitem__ with NumPy's rules, built from slice, strided_slice,
squeeze/unsqueeze, index_select, gather_nd, masked_select and set_value_with_tensor."""
import numbers
import sys

import numpy as np

from .. import _C_ops
from ..base.framework import convert_dtype
from ._helpers import Tensor


def _index_error(message):
    return IndexError(f"Tensor index: {message}")


def _to_index_tensor(item, place):
    """Lists, NumPy arrays and tensors of ints or bools used as indices, as tensors."""
    if isinstance(item, Tensor):
        return item
    array = np.asarray(item)
    if array.dtype == np.bool_:
        return _tensor_from(array, place)
    if array.dtype.kind not in "iu":
        raise _index_error(f"only integers, slices, None, Ellipsis, and integer or boolean "
                           f"tensors are valid indices, got an array of dtype {array.dtype}")
    return _tensor_from(array.astype(np.int64), place)


def _tensor_from(array, place):
    from ..base import libpaddle
    return libpaddle._tensor_from_numpy(array, place)


def _normalise(index, x):
    """The index as a list of items with Ellipsis expanded, and the dims each item consumes."""
    items = list(index) if isinstance(index, tuple) else [index]
    converted = []
    for item in items:
        if isinstance(item, (list, np.ndarray)) or (
                isinstance(item, Tensor) and not _is_scalar_int_tensor(item)):
            converted.append(_to_index_tensor(item, x.place))
        elif isinstance(item, Tensor):
            converted.append(int(item.numpy().reshape(-1)[0]))
        elif isinstance(item, (bool, np.bool_)):
            converted.append(_tensor_from(np.array(bool(item)), x.place))
        elif isinstance(item, (numbers.Integral, np.integer)):
            converted.append(int(item))
        elif item is None or item is Ellipsis or isinstance(item, slice):
            converted.append(item)
        else:
            raise _index_error(f"unsupported index of type {type(item).__name__}")
    consumed = sum(_dims_consumed(i) for i in converted)
    rank = len(x.shape)
    ellipses = [i for i, item in enumerate(converted) if item is Ellipsis]
    if len(ellipses) > 1:
        raise _index_error("an index can only have a single ellipsis ('...')")
    if consumed > rank:
        raise _index_error(f"too many indices: the tensor has {rank} dims, the index uses "
                           f"{consumed}")
    fill = [slice(None)] * (rank - consumed)
    if ellipses:
        e = ellipses[0]
        converted = converted[:e] + fill + converted[e + 1:]
    else:
        converted = converted + fill
    return converted


def _is_scalar_int_tensor(t):
    from ..base.framework import is_integer
    return t.size == 1 and len(t.shape) == 0 and is_integer(t.dtype)


def _dims_consumed(item):
    if item is None or item is Ellipsis:
        return 0
    if isinstance(item, Tensor) and item.dtype == convert_dtype("bool"):
        return max(len(item.shape), 1)
    return 1


def _expand_none(x, items):
    """Inserts a size-1 axis for each None, so later passes see only dims of x."""
    position, axes, out = 0, [], []
    for item in items:
        if item is None:
            axes.append(position)
            out.append(slice(None))
            position += 1
        else:
            out.append(item)
            position += _dims_consumed(item)
    if axes:
        x = _C_ops.unsqueeze(x, axes)
    return x, out


# Slice bounds past either end of any dim; the slice ops clamp them to the dim's size.
_PAST_END = sys.maxsize
_BEFORE_START = -sys.maxsize


def _bounds(item, size, dim):
    """(start, stop, step) of an int or slice index on a dim of `size`; ints must be in range.
    In a static program the size may be unknown (-1): the bounds then stay relative (negative
    ones count from the end, as the slice ops read them) and ints cannot be checked."""
    if size < 0:
        return _unknown_size_bounds(item)
    if isinstance(item, int):
        if not -size <= item < size:
            raise _index_error(f"index {item} is out of bounds for axis {dim} with size {size}")
        start = item + size if item < 0 else item
        return start, start + 1, 1
    step = 1 if item.step is None else int(item.step)
    if step == 0:
        raise _index_error("slice step cannot be zero")
    start = (0 if step > 0 else size - 1) if item.start is None else int(item.start)
    stop = (size if step > 0 else -size - 1) if item.stop is None else int(item.stop)
    return start, stop, step


def _unknown_size_bounds(item):
    if isinstance(item, int):
        return item, (item + 1 if item != -1 else _PAST_END), 1
    step = 1 if item.step is None else int(item.step)
    if step == 0:
        raise _index_error("slice step cannot be zero")
    start = (0 if step > 0 else -1) if item.start is None else int(item.start)
    stop = (_PAST_END if step > 0 else _BEFORE_START) if item.stop is None else int(item.stop)
    return start, stop, step


def _basic(x, items):
    """Applies ints and slices; returns the result and the advanced items left, by result dim."""
    axes, starts, ends, steps, decrease = [], [], [], [], []
    advanced = []  # (result dim before decrease, tensor)
    dim = 0
    for item in items:
        if isinstance(item, (int, slice)):
            size = x.shape[dim]
            start, stop, step = _bounds(item, size, dim)
            if isinstance(item, int):
                decrease.append(dim)
            if not (start == 0 and step == 1 and stop >= (size if size >= 0 else _PAST_END)):
                axes.append(dim), starts.append(start), ends.append(stop), steps.append(step)
            dim += 1
        else:  # a tensor index
            advanced.append((dim, item))
            dim += _dims_consumed(item)
    if axes:
        if all(s == 1 for s in steps):
            x = _C_ops.slice(x, axes, starts, ends, [])
        else:
            x = _C_ops.strided_slice(x, axes, starts, ends, steps)
    if decrease:
        # Each int index left a dim of size 1 (unknown in a static program with unknown dims).
        x = _C_ops.squeeze(x, decrease)
        advanced = [(d - sum(1 for r in decrease if r < d), t) for d, t in advanced]
    return x, advanced


def _advanced(x, advanced):
    bool_dtype = convert_dtype("bool")
    if len(advanced) == 1:
        dim, index = advanced[0]
        if index.dtype == bool_dtype:
            return _bool_index(x, dim, index)
        if len(index.shape) <= 1:
            flat = _C_ops.reshape(index, [-1])
            out = _C_ops.index_select(x, _wrap_negative(flat, x.shape[dim]), dim)
            if len(index.shape) == 0:
                out = _C_ops.squeeze(out, [dim])
            return out
    # Several integer tensors (or an n-d one): broadcast them and gather along those dims.
    if any(t.dtype == bool_dtype for _, t in advanced):
        raise _index_error("a boolean index cannot be combined with other tensor indices")
    dims = [d for d, _ in advanced]
    indices = [_wrap_negative(t, x.shape[d]) for d, t in advanced]
    shape = list(indices[0].shape)
    for t in indices[1:]:
        shape = list(np.broadcast_shapes(tuple(shape), tuple(t.shape)))
    indices = [_C_ops.expand(t, shape) if list(t.shape) != shape else t for t in indices]
    rest = [d for d in range(len(x.shape)) if d not in dims]
    moved = _C_ops.transpose(x, dims + rest) if dims != list(range(len(dims))) else x
    out = _C_ops.gather_nd(moved, _C_ops.stack(indices, -1))
    adjacent = dims == list(range(dims[0], dims[0] + len(dims)))
    if adjacent and dims[0] > 0:
        # NumPy keeps the indexed dims in place when the tensor indices are adjacent.
        k = len(shape)
        order = list(range(k, k + dims[0])) + list(range(k)) + list(range(k + dims[0], len(out.shape)))
        out = _C_ops.transpose(out, order)
    return out


def _wrap_negative(index, size):
    """Negative indices count from the end, as in NumPy. On a dim of unknown size (a static
    program's) they are left to the op, which rejects them."""
    if size < 0:
        return index
    from .math import _as_tensor
    zero = _as_tensor(0, index, "index", "zero")
    return _C_ops.where(_C_ops.less_than(index, zero),
                        _C_ops.add(index, _as_tensor(size, index, "index", "size")), index)


def _bool_index(x, dim, mask):
    mask_rank = max(len(mask.shape), 1)
    indexed = x.shape[dim:dim + len(mask.shape)]
    if len(indexed) != len(mask.shape) or any(
            m != d and m >= 0 and d >= 0 for m, d in zip(mask.shape, indexed)):
        raise _index_error(f"the boolean index of shape {mask.shape} does not match the indexed "
                           f"dims {x.shape[dim:dim + mask_rank]} of the tensor of shape {x.shape}")
    if dim == 0 and len(mask.shape) == len(x.shape):
        return _C_ops.masked_select(x, mask)
    # Select whole sub-tensors: gather the positions of the true entries.
    positions = _C_ops.nonzero(mask)
    moved = x
    if dim > 0:
        order = list(range(dim, len(x.shape))) + list(range(dim))
        moved = _C_ops.transpose(x, order)
    out = _C_ops.gather_nd(moved, positions)
    if dim > 0:
        k = len(out.shape)
        back = list(range(k - dim, k)) + list(range(k - dim))
        out = _C_ops.transpose(out, back)
    return out


def getitem(x, index):
    items = _normalise(index, x)
    x, items = _expand_none(x, items)
    x, advanced = _basic(x, items)
    if advanced:
        x = _advanced(x, advanced)
    return x


def setitem(x, index, value):
    from .math import _as_tensor
    items = _normalise(index, x)
    if any(item is None for item in items):
        items = [item for item in items if item is not None]
    if not isinstance(value, Tensor):
        if isinstance(value, (list, tuple, np.ndarray)):
            from .creation import to_tensor
            value = to_tensor(np.asarray(value), dtype=x.dtype, place=x.place)
        else:
            value = _as_tensor(value, x, "__setitem__", "value")
    if value.dtype != x.dtype:
        value = _C_ops.cast(value, x.dtype)
    if any(isinstance(item, Tensor) for item in items):
        # Tensor indices: compute the new tensor, then write all of it into x in place.
        new = _advanced_update(x, items, value)
        _C_ops.set_value_with_tensor_(x, new, [], [], [], [])
        return
    axes, starts, ends, steps, decrease = [], [], [], [], []
    for dim, item in enumerate(items):
        start, stop, step = _bounds(item, x.shape[dim], dim)
        axes.append(dim), starts.append(start), ends.append(stop), steps.append(step)
        if isinstance(item, int):
            decrease.append(dim)
    if decrease and len(value.shape) > 0:
        # Give the value a size-1 dim where an int index removed one, so it broadcasts.
        region_rank = len(x.shape) - len(decrease)
        if len(value.shape) >= region_rank:
            lead = len(value.shape) - region_rank
            positions = [lead + d - sum(1 for r in decrease if r < d) for d in decrease]
            value = _C_ops.reshape(value, _insert_ones(value.shape, positions))
    _C_ops.set_value_with_tensor_(x, value, starts, ends, steps, axes)


def _insert_ones(shape, positions):
    shape = list(shape)
    for offset, p in enumerate(sorted(positions)):
        shape.insert(p + offset, 1)
    return shape


def _advanced_update(x, items, value):
    tensors = [(d, t) for d, t in enumerate(items) if isinstance(t, Tensor)]
    others = [t for t in items if not isinstance(t, Tensor)]
    if len(tensors) != 1 or any(o != slice(None) for o in others):
        raise NotImplementedError("assignment with a tensor index supports one boolean or "
                                  "integer tensor index combined only with ':'")
    dim, index = tensors[0]
    if index.dtype == convert_dtype("bool"):
        mask = index
        for _ in range(len(x.shape) - dim - len(mask.shape)):
            mask = _C_ops.unsqueeze(mask, [-1])
        if len(value.shape) == 0 or value.size == 1:
            return _C_ops.where(mask, _C_ops.expand(_C_ops.reshape(value, []), x.shape), x)
        mask = _C_ops.expand(mask, x.shape)
        return _C_ops.masked_scatter(x, mask, value)
    flat = _wrap_negative(_C_ops.reshape(index, [-1]), x.shape[dim])
    current = _C_ops.index_select(x, flat, dim)
    target = _C_ops.expand(value, current.shape) if list(value.shape) != list(current.shape) else value
    return _C_ops.index_add(x, flat, _C_ops.subtract(target, current), dim)
