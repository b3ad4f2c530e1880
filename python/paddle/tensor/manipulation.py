"""Shape manipulation written by hand (reshape, transpose, squeeze, ... are generated from the op
declarations): concat/stack/split/slice/gather/index_add normalise their arguments as Paddle
does in Python (tensor lists, a count or sections, axis None, a different argument order), and
reshape_, chunk, unstack, expand_as, broadcast_to, tile and moveaxis compose other ops."""
import numbers

from .. import _C_ops
from ..base.generated_api import expand, flatten, reshape, squeeze, transpose, unsqueeze
from ._helpers import Tensor, as_int_list, check_tensor

__all__ = ["reshape_", "concat", "split", "chunk", "stack", "unstack", "unbind", "expand_as",
           "broadcast_to", "slice", "gather", "index_add", "tile", "moveaxis"]


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
    return expand(x, check_tensor(y, "expand_as", "y").shape)


def tile(x, repeat_times, name=None):
    check_tensor(x, "tile")
    repeats = as_int_list(repeat_times, "tile", "repeat_times")
    shape = list(x.shape)
    rank = max(len(shape), len(repeats))
    shape = [1] * (rank - len(shape)) + shape
    repeats = [1] * (rank - len(repeats)) + repeats
    if any(d < 0 for d in shape):
        return _tile_unknown_dims(x, repeats, rank)
    # Interleave a broadcast axis before each dim, expand it, and merge the pairs.
    interleaved = []
    for d in shape:
        interleaved += [1, d]
    expanded = []
    for r, d in zip(repeats, shape):
        expanded += [r, d]
    out = expand(reshape(x, interleaved), expanded)
    return reshape(out, [r * d for r, d in zip(repeats, shape)])


def _tile_unknown_dims(x, repeats, rank):
    """tile for a static program's x with unknown dims: the same broadcast axes, inserted by
    unsqueeze and merged by flatten, which keep unknown dims unknown."""
    if len(x.shape) < rank:
        x = unsqueeze(x, list(range(rank - len(x.shape))))
    out = unsqueeze(x, [2 * i for i in range(rank)])
    out = expand(out, [size for r in repeats for size in (r, -1)])
    for i in range(rank):
        out = flatten(out, i, i + 1)
    return out


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
