"""Statistics written by hand: mean takes Paddle's keyword-only dtype, numel, var, std and dot
compose other ops, and logsumexp derives its reduce_all attribute from the axes."""
import math

from .. import _C_ops
from ..base import libpaddle
from ..base.framework import convert_dtype, default_float_dtype, is_floating
from ._helpers import as_int, as_int_list, as_scalar, check_tensor

__all__ = ["mean", "numel", "var", "std", "logsumexp", "dot", "bincount", "histogram",
           "histogram_bin_edges"]


def mean(x, axis=None, keepdim=False, name=None, *, dtype=None):
    """The mean of x over `axis` (all dims when None); with `dtype`, x is cast to it first."""
    check_tensor(x, "mean")
    if dtype is not None and x.dtype != convert_dtype(dtype):
        x = _C_ops.cast(x, convert_dtype(dtype))
    axes = [] if axis is None else as_int_list(axis, "mean", "axis")
    return _C_ops.mean(x, axes, bool(keepdim))


def numel(x, name=None):
    """The number of elements of x, as a 0-d int64 tensor."""
    check_tensor(x, "numel")
    if x.size < 0:
        # A static program's x with unknown dims: count its elements when the program runs.
        return _count(x, [], False, libpaddle.DataType.INT64)
    return _C_ops.full([], int(x.size), "int64", x.place)


def _count(x, axes, keepdim, dtype):
    """The number of elements of x over `axes` (all when empty), computed by ops."""
    return _C_ops.sum(_C_ops.full_like(x, 1, dtype), axes, dtype, keepdim)


def _float_input(x, api):
    """x, cast to the default float dtype when it is not floating (as Paddle autocasts)."""
    check_tensor(x, api)
    return x if is_floating(x.dtype) else _C_ops.cast(x, default_float_dtype())


def var(x, axis=None, unbiased=None, keepdim=False, name=None, *, correction=1):
    """The variance of x over `axis` (all dims when None): sum((x - mean)^2) / (n - ddof), with
    ddof 1 when `unbiased` (the default), 0 when not, and `correction` when unbiased is None.
    Fewer than ddof + 1 elements give NaN, as in Paddle."""
    x = _float_input(x, "var")
    axes = as_int_list(axis, "var", "axis")
    ddof = correction if unbiased is None else (1 if unbiased else 0)
    rank = len(x.shape)
    if axes:
        n = 1
        for a in axes:
            if not -max(rank, 1) <= a < max(rank, 1):
                raise IndexError(f"var(): argument 'axis' expected to be in range "
                                 f"[{-max(rank, 1)}, {max(rank, 1)}) for a tensor of rank "
                                 f"{rank}, but received {a}")
            n = -1 if n < 0 or (rank and x.shape[a] < 0) else n * (x.shape[a] if rank else 1)
    else:
        n = int(x.size)
    centred = _C_ops.subtract(x, _C_ops.mean(x, axes, True))
    squares = _C_ops.sum(_C_ops.multiply(centred, centred), axes, libpaddle.DataType.UNDEFINED,
                         keepdim)
    if n < 0:
        # A static program's x with unknown reduced dims: divide by the count when it runs;
        # a count of at most ddof divides by 0, giving NaN or inf like the scale below.
        count = _C_ops.scale(_count(x, axes, keepdim, x.dtype), 1.0, -float(ddof), True)
        return _C_ops.divide(squares, _C_ops.maximum(count, _C_ops.full_like(count, 0, x.dtype)))
    divisor = n - ddof
    return _C_ops.scale(squares, 1.0 / divisor if divisor > 0 else math.inf, 0.0, True)


def std(x, axis=None, unbiased=True, keepdim=False, name=None):
    """The standard deviation of x over `axis`: the square root of var."""
    return _C_ops.sqrt(var(x, axis, unbiased, keepdim))


def logsumexp(x, axis=None, keepdim=False, name=None):
    """log(sum(exp(x))) over `axis` (all dims when None), computed without overflow. Integer
    inputs are cast to the default float dtype, as in Paddle."""
    x = _float_input(x, "logsumexp")
    axes = as_int_list(axis, "logsumexp", "axis")
    reduce_all = not axes or len(axes) == len(x.shape)
    return _C_ops.logsumexp(x, axes, keepdim, reduce_all)


def dot(x, y, name=None):
    """The inner product of two 1-D tensors (a 0-d result), or of each row of two 2-D tensors
    (a [rows] result). x and y must have the same shape."""
    check_tensor(x, "dot")
    check_tensor(y, "dot", "y")
    if len(x.shape) not in (1, 2):
        raise ValueError(f"dot(): argument 'x' must be 1-D or 2-D, received shape {x.shape}")
    if list(x.shape) != list(y.shape):
        raise ValueError(f"dot(): arguments 'x' and 'y' must have the same shape, received "
                         f"{x.shape} and {y.shape}")
    product = _C_ops.multiply(x, y)
    dtype = libpaddle.DataType.UNDEFINED if is_floating(product.dtype) else product.dtype
    return _C_ops.sum(product, [-1], dtype, False)


def bincount(x, weights=None, minlength=0, name=None):
    """How many times each value 0, 1, ..., max(x) occurs in the 1-D non-negative int tensor x
    (at least `minlength` entries), int64; with `weights` (x's shape), the sum of the weights
    of each value instead: float32 for float32 weights, else float64."""
    check_tensor(x, "bincount")
    if weights is not None:
        check_tensor(weights, "bincount", "weights")
    return _C_ops.bincount(x, weights, as_int(minlength, "bincount", "minlength"))


def histogram(input, bins=100, min=0.0, max=0.0, weight=None, density=False, name=None):
    """Counts of the elements of `input` in `bins` equal bins over [min, max] (the input's own
    range when both are 0), int64; with `weight` the weights summed per bin, and with `density`
    the result divided by its total and the bin width, both float32. Elements outside the range
    are left out."""
    check_tensor(input, "histogram", "input")
    if weight is not None:
        check_tensor(weight, "histogram", "weight")
    return _C_ops.histogram(input, weight, as_int(bins, "histogram", "bins"), float(min),
                            float(max), bool(density))


def histogram_bin_edges(input, bins=100, min=0.0, max=0.0, name=None):
    """The bins + 1 edges of `bins` equal bins over [min, max] (the input's own range when both
    are 0, NaN in it making every edge NaN), in the default float dtype. As in Paddle, a range of
    one value is widened by 0.5 on each side here, where histogram widens it by 1."""
    from ..base.generated_api import max as reduce_max, min as reduce_min
    from .creation import linspace
    check_tensor(input, "histogram_bin_edges", "input")
    DataType = libpaddle.DataType
    if input.dtype not in (DataType.FLOAT32, DataType.FLOAT64, DataType.INT32, DataType.INT64):
        raise TypeError(f"histogram_bin_edges(): argument 'input' must be a float32, float64, "
                        f"int32 or int64 tensor, received {input.dtype}")
    bins = as_int(bins, "histogram_bin_edges", "bins")
    if min == 0 and max == 0:
        low = as_scalar(reduce_min(input), "histogram_bin_edges", "input")
        high = as_scalar(reduce_max(input), "histogram_bin_edges", "input")
    elif max < min:
        raise ValueError(f"histogram_bin_edges(): argument 'max' ({max}) must not be less than "
                         f"'min' ({min})")
    else:
        low, high = float(min), float(max)
    if low == high:
        low, high = low - 0.5, high + 0.5
    return linspace(low, high, bins + 1)
