"""Shape manipulation written by hand (reshape, transpose, squeeze, flip, ... are generated from
the op declarations): concat/stack/split/slice/gather/index_add/tile/expand_as/roll normalise
their arguments as Paddle does in Python (tensor lists, a count or sections, axis None, a
different argument order), and reshape_, chunk, unstack, broadcast_to, moveaxis, rot90 and
unflatten compose other ops; unique and unique_consecutive select the outputs asked for."""
import math
import numbers

from .. import _C_ops
from ..base.framework import convert_dtype
from ..base.generated_api import expand, flip, reshape, squeeze, transpose
from ._helpers import Tensor, as_int, as_int_list, check_tensor

__all__ = ["reshape_", "concat", "split", "chunk", "stack", "unstack", "unbind", "expand_as",
           "broadcast_to", "slice", "gather", "index_add", "tile", "moveaxis", "roll", "rot90",
           "unflatten", "unique", "unique_consecutive"]


def reshape_(x, shape, name=None):
    out = reshape(x, shape)
    x._share_data_from(out)
    return x


def moveaxis(x, source, destination, name=None):
    check_tensor(x, "moveaxis")
    src = as_int_list(source, "moveaxis", "source")
    dst = as_int_list(destination, "moveaxis", "destination")
    if len(src) != len(dst):
        raise ValueError(f"moveaxis(): 'source' and 'destination' must name as many axes, received "
                         f"{src} and {dst}")
    rank = len(x.shape)
    for arg, axes in (("source", src), ("destination", dst)):
        for a in axes:
            if not -rank <= a < rank:
                raise IndexError(f"moveaxis(): argument '{arg}' holds axis {a}, out of range "
                                 f"[{-rank}, {rank}) for a tensor of rank {rank}")
        if len({a % rank for a in axes}) != len(axes):
            raise ValueError(f"moveaxis(): argument '{arg}' repeats an axis: {axes}")
    src = [s % rank for s in src]
    dst = [d % rank for d in dst]
    order = [i for i in range(rank) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(x, order)


def _check_tensor_list(x, api):
    if isinstance(x, Tensor) or not isinstance(x, (list, tuple)):
        raise TypeError(f"{api}(): argument 'x' must be a list or tuple of Tensors, not "
                        f"{type(x).__name__}")
    for i, t in enumerate(x):
        if not isinstance(t, Tensor):
            raise TypeError(f"{api}(): x[{i}] must be a Tensor, not {type(t).__name__}")
    return list(x)


def _int(value, api, arg):
    values = as_int_list(value, api, arg)
    if len(values) != 1:
        raise TypeError(f"{api}(): argument '{arg}' must be a single int")
    return values[0]


def concat(x, axis=0, name=None):
    return _C_ops.concat(_check_tensor_list(x, "concat"), _int(axis, "concat", "axis"))


def split(x, num_or_sections, axis=0, name=None):
    check_tensor(x, "split")
    if isinstance(num_or_sections, (numbers.Integral,)) and not isinstance(num_or_sections, bool):
        sections = [int(num_or_sections)]
    else:
        sections = as_int_list(num_or_sections, "split", "num_or_sections")
        if len(sections) == 1:
            # A one-element list is a size, not a count; with one part it is the whole dim.
            return [x]
    return _C_ops.split(x, sections, _int(axis, "split", "axis"))


def chunk(x, chunks, axis=0, name=None):
    return split(x, int(chunks), axis)


def stack(x, axis=0, name=None):
    return _C_ops.stack(_check_tensor_list(x, "stack"), _int(axis, "stack", "axis"))


def unstack(x, axis=0, num=None):
    check_tensor(x, "unstack")
    axis = _int(axis, "unstack", "axis")
    n = x.shape[axis]
    return [squeeze(p, [axis]) for p in split(x, n, axis)] if n > 1 else [squeeze(x, [axis])]


def unbind(input, axis=0):
    return unstack(input, axis)


def broadcast_to(x, shape, name=None):
    return expand(x, shape)


def expand_as(x, y, name=None):
    # Paddle's programs record y's shape as target_shape and pass y along for its unknown dims.
    check_tensor(y, "expand_as", "y")
    return _C_ops.expand_as(check_tensor(x, "expand_as"), y, [int(d) for d in y.shape])


def tile(x, repeat_times, name=None):
    return _C_ops.tile(check_tensor(x, "tile"), as_int_list(repeat_times, "tile", "repeat_times"))


def roll(x, shifts, axis=None, name=None):
    """Without `axis` the tensor rolls as one flat sequence (one shift)."""
    check_tensor(x, "roll")
    axes = [] if axis is None else as_int_list(axis, "roll", "axis")
    return _C_ops.roll(x, as_int_list(shifts, "roll", "shifts"), axes)


def rot90(x, k=1, axes=[0, 1], name=None):  # noqa: B006  (Paddle's default)
    """Rotates by k * 90 degrees in the plane of `axes`, from the first axis towards the second:
    flips and a transpose, as Paddle composes it."""
    check_tensor(x, "rot90")
    axes = as_int_list(axes, "rot90", "axes")
    rank = len(x.shape)
    if len(axes) != 2:
        raise ValueError(f"rot90(): argument 'axes' must name 2 axes, received {axes}")
    if rank < 2:
        raise ValueError(f"rot90(): 'x' must have at least 2 dimensions, received shape {x.shape}")
    for a in axes:
        if not -rank <= a < rank:
            raise IndexError(f"rot90(): argument 'axes' holds axis {a}, out of range [{-rank}, "
                             f"{rank}) for a tensor of rank {rank}")
    first, second = axes[0] % rank, axes[1] % rank
    if first == second:
        raise ValueError(f"rot90(): argument 'axes' must name two different axes, received {axes}")
    k = as_int(k, "rot90", "k") % 4
    if k == 0:
        return x
    if k == 2:
        return flip(x, [first, second])
    perm = list(range(rank))
    perm[first], perm[second] = second, first
    if k == 1:
        return transpose(flip(x, [second]), perm)
    return flip(transpose(x, perm), [second])


def unflatten(x, axis, shape, name=None):
    """Splits dimension `axis` into `shape` (which may hold one -1), a reshape."""
    check_tensor(x, "unflatten")
    rank = len(x.shape)
    axis = as_int(axis, "unflatten", "axis")
    if not -rank <= axis < rank:
        raise IndexError(f"unflatten(): argument 'axis' ({axis}) is out of range [{-rank}, {rank}) "
                         f"for a tensor of rank {rank}")
    axis %= rank
    if not isinstance(shape, (list, tuple, Tensor)):
        raise TypeError(f"unflatten(): argument 'shape' must be a list, tuple or Tensor, not "
                        f"{type(shape).__name__}")
    shape = as_int_list(shape, "unflatten", "shape")
    if not shape:
        raise ValueError("unflatten(): argument 'shape' cannot be empty")
    if shape.count(-1) > 1 or any(d < -1 for d in shape):
        raise ValueError(f"unflatten(): argument 'shape' must hold sizes and at most one -1, "
                         f"received {shape}")
    size = x.shape[axis]
    known = math.prod(d for d in shape if d != -1)
    fits = (known != 0 and size % known == 0) if -1 in shape else known == size
    if size >= 0 and not fits:
        raise ValueError(f"unflatten(): argument 'shape' {shape} does not split dimension {axis} "
                         f"of size {size}")
    if size >= 0 and -1 in shape:
        shape = [size // known if d == -1 else d for d in shape]
    # The leading dims are kept with 0 (reshape copies them, known or not); the trailing ones
    # are spelt out, unknown ones as -1 where shape leaves room for it.
    trailing = [int(d) for d in x.shape[axis + 1:]]
    if sum(1 for d in trailing if d < 0) + shape.count(-1) > 1:
        raise NotImplementedError(
            f"unflatten(): a static program's x of shape {x.shape} has too many unknown "
            f"dimensions to reshape to {shape} at axis {axis}")
    return reshape(x, [0] * axis + shape + [d if d >= 0 else -1 for d in trailing])


def slice(input, axes, starts, ends):
    return _C_ops.slice(check_tensor(input, "slice", "input"), as_int_list(axes, "slice", "axes"),
                        as_int_list(starts, "slice", "starts"), as_int_list(ends, "slice", "ends"),
                        [])


def gather(x, index, axis=None, name=None):
    check_tensor(index, "gather", "index")
    return _C_ops.gather(check_tensor(x, "gather"), index,
                         0 if axis is None else _int(axis, "gather", "axis"))


def index_add(x, index, axis, value, name=None):
    return _C_ops.index_add(check_tensor(x, "index_add"), check_tensor(index, "index_add", "index"),
                            check_tensor(value, "index_add", "value"), _int(axis, "index_add", "axis"))


def _unique_axis(axis, api):
    return [] if axis is None else [as_int(axis, api, "axis")]


def unique(x, return_index=False, return_inverse=False, return_counts=False, axis=None,
           dtype="int64", name=None):
    """The sorted distinct values of x (flattened), or its distinct slices along `axis`; with
    the flags also, in this order, the index of each one's first occurrence, the index into the
    result of each element (or slice) of x, and each one's count, all of `dtype` (int32 or
    int64). NaNs are each distinct and sort last."""
    check_tensor(x, "unique")
    out, indices, inverse, counts = _C_ops.unique(
        x, bool(return_index), bool(return_inverse), bool(return_counts),
        _unique_axis(axis, "unique"), convert_dtype(dtype), True)
    outs = [out] + [t for t, wanted in ((indices, return_index), (inverse, return_inverse),
                                        (counts, return_counts)) if wanted]
    return outs[0] if len(outs) == 1 else tuple(outs)


def unique_consecutive(x, return_inverse=False, return_counts=False, axis=None, dtype="int64",
                       name=None):
    """x (flattened, or its slices along `axis`) with each run of equal neighbours collapsed to
    one; with the flags also the index into the result of each element (or slice) of x and the
    length of each run, of `dtype` (int32 or int64)."""
    check_tensor(x, "unique_consecutive")
    out, inverse, counts = _C_ops.unique_consecutive(
        x, bool(return_inverse), bool(return_counts),
        _unique_axis(axis, "unique_consecutive"), convert_dtype(dtype))
    outs = [out] + [t for t, wanted in ((inverse, return_inverse), (counts, return_counts))
                    if wanted]
    return outs[0] if len(outs) == 1 else tuple(outs)
