"""Max, average, adaptive and power-average pooling over 1 to 3 spatial dims, and max unpooling.
Hand-written because Paddle normalises the arguments here before calling the ops (pool2d, pool3d,
max_pool2d/3d_with_index, lp_pool2d, unpool, unpool3d): kernel_size, stride and padding as an int
or lists, padding "SAME"/"VALID" and before/after pairs, stride defaulting to kernel_size, the
1-D forms as 2-D pooling over a unit height, divisor_override applied after the average, and
max_unpool's output_size checked against the pooling it inverts."""
import numbers

from ... import _C_ops
from ...base import generated_api as _api
from ...tensor._helpers import check_tensor
from .conv import _check_format, _int_list, _padding

__all__ = ["max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
           "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
           "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d", "max_unpool1d",
           "max_unpool2d", "max_unpool3d", "lp_pool1d", "lp_pool2d"]

_FIRST = {1: "NCHW", 2: "NCHW", 3: "NCDHW"}
_LAST = {1: "NHWC", 2: "NHWC", 3: "NDHWC"}


def _check_rank(x, dims, api):
    check_tensor(x, api)
    if len(x.shape) != dims + 2:
        raise ValueError(f"{api}(): input 'x' must be {dims + 2}-D, received shape {x.shape}")


def _positive(values, api, arg):
    if any(v <= 0 for v in values):
        raise ValueError(f"{api}(): every value of '{arg}' must be positive, received {values}")
    return values


def _window(kernel_size, stride, dims, api):
    """kernel_size and stride as lists of `dims` positive ints; stride defaults to the kernel."""
    kernel = _positive(_int_list(kernel_size, dims, api, "kernel_size"), api, "kernel_size")
    if stride is None:
        return kernel, list(kernel)
    return kernel, _positive(_int_list(stride, dims, api, "stride"), api, "stride")


def _pool_padding(padding, channel_last, dims, ceil_mode, api):
    paddings, algorithm = _padding(padding, channel_last, dims, api)
    if algorithm == "VALID" and ceil_mode:
        raise ValueError(f"{api}(): padding 'VALID' needs ceil_mode=False, received "
                         f"ceil_mode={ceil_mode}")
    return paddings, algorithm


def _spatial_sizes(x, channel_last, dims):
    return list(x.shape[1:1 + dims]) if channel_last else list(x.shape[2:])


def _same_paddings(sizes, kernel, stride, api):
    """The explicit (before, after) pairs of padding 'SAME', for the ops without
    padding_algorithm (max_pool*_with_index)."""
    if any(s < 0 for s in sizes):
        raise ValueError(f"{api}(): padding 'SAME' with return_mask=True needs known spatial "
                         f"sizes, received {sizes}")
    pads = []
    for n, k, s in zip(sizes, kernel, stride):
        total = max((-(-n // s) - 1) * s + k - n, 0)
        pads += [total // 2, total - total // 2]
    return pads


def _as_2d(x, channel_last):
    """[N, C, L] as [N, C, 1, L] (NLC: [N, 1, L, C]), and the axis added."""
    axis = 1 if channel_last else 2
    return _api.unsqueeze(x, [axis]), axis


def _squeezed(result, axis, return_mask):
    if return_mask:
        return tuple(_api.squeeze(t, [axis]) for t in result)
    return _api.squeeze(result, [axis])


def _max_pool(x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, dims, api):
    """Max pooling of x of spatial rank `dims` (1-D runs as 2-D over a unit height)."""
    channel_last = _check_format(data_format, dims, api)
    _check_rank(x, dims, api)
    kernel, strides = _window(kernel_size, stride, dims, api)
    paddings, algorithm = _pool_padding(padding, channel_last, dims, ceil_mode, api)
    if return_mask and channel_last:
        raise ValueError(f"{api}(): return_mask=True needs data_format '{_FIRST[dims]}', "
                         f"received '{data_format}'")
    if return_mask and algorithm == "SAME":
        paddings = _same_paddings(_spatial_sizes(x, channel_last, dims), kernel, strides, api)
    elif algorithm == "VALID":
        paddings = [0] * dims
    axis = None
    if dims == 1:
        x, axis = _as_2d(x, channel_last)
        kernel, strides = [1] + kernel, [1] + strides
        paddings = [0] * len(paddings) + paddings
    op_dims = max(dims, 2)
    if return_mask:
        with_index = _C_ops.max_pool3d_with_index if op_dims == 3 else _C_ops.max_pool2d_with_index
        result = with_index(x, kernel, strides, paddings, False, False, ceil_mode)
    else:
        pool = _C_ops.pool3d if op_dims == 3 else _C_ops.pool2d
        fmt = (_LAST if channel_last else _FIRST)[dims]
        result = pool(x, kernel, strides, paddings, ceil_mode, True, fmt, "max", False, False,
                      algorithm)
    return result if axis is None else _squeezed(result, axis, return_mask)


def max_pool1d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               name=None):
    """Max pooling of x [N, C, L]; with return_mask also each maximum's position in L."""
    return _max_pool(x, kernel_size, stride, padding, return_mask, ceil_mode, "NCL", 1,
                     "max_pool1d")


def max_pool2d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCHW", name=None):
    """Max pooling of x [N, C, H, W] (or NHWC); with return_mask (NCHW only) also each
    maximum's flat position in its H * W plane."""
    return _max_pool(x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, 2,
                     "max_pool2d")


def max_pool3d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCDHW", name=None):
    """Max pooling of x [N, C, D, H, W] (or NDHWC); with return_mask (NCDHW only) also each
    maximum's flat position in its D * H * W volume."""
    return _max_pool(x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, 3,
                     "max_pool3d")


def _avg_pool(x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override,
              data_format, dims, api):
    channel_last = _check_format(data_format, dims, api)
    _check_rank(x, dims, api)
    kernel, strides = _window(kernel_size, stride, dims, api)
    paddings, algorithm = _pool_padding(padding, channel_last, dims, ceil_mode, api)
    if divisor_override is not None and (
            not isinstance(divisor_override, numbers.Real) or isinstance(divisor_override, bool)
            or divisor_override == 0):
        raise ValueError(f"{api}(): 'divisor_override' must be a non-zero number or None, "
                         f"received {divisor_override!r}")
    axis = None
    if dims == 1:
        x, axis = _as_2d(x, channel_last)
        kernel, strides = [1] + kernel, [1] + strides
        paddings = [0] * len(paddings) + paddings
    pool = _C_ops.pool3d if dims == 3 else _C_ops.pool2d
    fmt = (_LAST if channel_last else _FIRST)[dims]
    out = pool(x, kernel, strides, paddings, ceil_mode, exclusive, fmt, "avg", False, False,
               algorithm)
    if axis is not None:
        out = _api.squeeze(out, [axis])
    if divisor_override is not None:
        # Paddle rescales the average: kernel elements over the divisor.
        size = 1
        for k in kernel:
            size *= k
        out = out * (size / divisor_override)
    return out


def avg_pool1d(x, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False,
               name=None):
    """Average pooling of x [N, C, L]; `exclusive` counts only the input elements of each
    window."""
    return _avg_pool(x, kernel_size, stride, padding, ceil_mode, exclusive, None, "NCL", 1,
                     "avg_pool1d")


def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCHW", name=None):
    """Average pooling of x [N, C, H, W] (or NHWC)."""
    return _avg_pool(x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override,
                     data_format, 2, "avg_pool2d")


def avg_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCDHW", name=None):
    """Average pooling of x [N, C, D, H, W] (or NDHWC)."""
    return _avg_pool(x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override,
                     data_format, 3, "avg_pool3d")


def _output_size(output_size, sizes, dims, api):
    """output_size as `dims` positive ints; None entries keep the input's size."""
    if isinstance(output_size, numbers.Integral) and not isinstance(output_size, bool):
        values = [int(output_size)] * dims
    elif isinstance(output_size, (list, tuple)) and len(output_size) == dims:
        values = [sizes[i] if v is None else v for i, v in enumerate(output_size)]
        values = _int_list(values, dims, api, "output_size")
    else:
        raise ValueError(f"{api}(): 'output_size' must be an int or {dims} ints (or None), "
                         f"received {output_size}")
    return _positive(values, api, "output_size")


def _adaptive_avg(x, output_size, data_format, dims, api):
    channel_last = _check_format(data_format, dims, api)
    _check_rank(x, dims, api)
    sizes = _output_size(output_size, _spatial_sizes(x, channel_last, dims), dims, api)
    axis = None
    if dims == 1:
        x, axis = _as_2d(x, channel_last)
        sizes = [1] + sizes
    pool = _C_ops.pool3d if dims == 3 else _C_ops.pool2d
    fmt = (_LAST if channel_last else _FIRST)[dims]
    out = pool(x, sizes, [1] * max(dims, 2), [0] * max(dims, 2), False, True, fmt, "avg", False,
               True, "EXPLICIT")
    return out if axis is None else _api.squeeze(out, [axis])


def adaptive_avg_pool1d(x, output_size, name=None):
    """Average of each of `output_size` bins [floor(i * L / out), ceil((i + 1) * L / out)) of
    x [N, C, L]."""
    return _adaptive_avg(x, output_size, "NCL", 1, "adaptive_avg_pool1d")


def adaptive_avg_pool2d(x, output_size, data_format="NCHW", name=None):
    """Adaptive average pooling of x [N, C, H, W] (or NHWC) to output_size bins per dim."""
    return _adaptive_avg(x, output_size, data_format, 2, "adaptive_avg_pool2d")


def adaptive_avg_pool3d(x, output_size, data_format="NCDHW", name=None):
    """Adaptive average pooling of x [N, C, D, H, W] (or NDHWC)."""
    return _adaptive_avg(x, output_size, data_format, 3, "adaptive_avg_pool3d")


def _adaptive_max(x, output_size, return_mask, dims, api):
    _check_rank(x, dims, api)
    sizes = _output_size(output_size, list(x.shape[2:]), dims, api)
    axis = None
    if dims == 1:
        x, axis = _as_2d(x, False)
        sizes = [1] + sizes
    with_index = _C_ops.max_pool3d_with_index if dims == 3 else _C_ops.max_pool2d_with_index
    result = with_index(x, sizes, [1] * max(dims, 2), [0] * max(dims, 2), False, True, False)
    if axis is not None:
        result = _squeezed(result, axis, True)
    return tuple(result) if return_mask else result[0]


def adaptive_max_pool1d(x, output_size, return_mask=False, name=None):
    """Maximum of each adaptive bin of x [N, C, L]; with return_mask also its position."""
    return _adaptive_max(x, output_size, return_mask, 1, "adaptive_max_pool1d")


def adaptive_max_pool2d(x, output_size, return_mask=False, name=None):
    """Adaptive max pooling of x [N, C, H, W]; with return_mask also each maximum's flat
    position in its plane."""
    return _adaptive_max(x, output_size, return_mask, 2, "adaptive_max_pool2d")


def adaptive_max_pool3d(x, output_size, return_mask=False, name=None):
    """Adaptive max pooling of x [N, C, D, H, W]; with return_mask also the positions."""
    return _adaptive_max(x, output_size, return_mask, 3, "adaptive_max_pool3d")


def _unpool_output_size(x, kernel, strides, paddings, output_size, dims, api):
    """The output's spatial size: (in - 1) * stride - 2 * padding + kernel per dim, or
    output_size (optionally with N and C first), which must lie strictly within one stride of
    that size. Zeros leave the default to the op where a static program does not know x's
    sizes yet."""
    sizes = list(x.shape[2:])
    default = [(n - 1) * s - 2 * p + k for n, s, p, k in zip(sizes, strides, paddings, kernel)]
    if output_size is None:
        return [0] * dims if any(n < 0 for n in sizes) else default
    if not isinstance(output_size, (list, tuple)):
        raise ValueError(f"{api}(): 'output_size' must be a list or tuple, received "
                         f"{output_size!r}")
    values = list(output_size)
    if len(values) == dims + 2:
        values = values[2:]
    values = _int_list(values, dims, api, "output_size")
    for d in range(dims):
        if sizes[d] >= 0 and not default[d] - strides[d] < values[d] < default[d] + strides[d]:
            raise ValueError(f"{api}(): invalid output_size {output_size}: spatial dim {d} must "
                             f"lie strictly between {default[d] - strides[d]} and "
                             f"{default[d] + strides[d]}")
    return values


def _max_unpool(x, indices, kernel_size, stride, padding, data_format, output_size, dims, api):
    expected = {1: "NCL", 2: "NCHW", 3: "NCDHW"}[dims]
    if data_format != expected:
        raise ValueError(f"{api}(): 'data_format' must be '{expected}', received "
                         f"'{data_format}'")
    _check_rank(x, dims, api)
    check_tensor(indices, api, "indices")
    if len(indices.shape) != len(x.shape) or any(
            a != b and a >= 0 and b >= 0 for a, b in zip(indices.shape, x.shape)):
        raise ValueError(f"{api}(): 'indices' must have the shape of 'x' {x.shape}, received "
                         f"{indices.shape}")
    kernel, strides = _window(kernel_size, stride, dims, api)
    paddings = _int_list(padding, dims, api, "padding")
    if any(p < 0 for p in paddings):
        raise ValueError(f"{api}(): 'padding' must not be negative, received {padding}")
    sizes = _unpool_output_size(x, kernel, strides, paddings, output_size, dims, api)
    if dims == 1:
        x, indices = _api.unsqueeze(x, [2]), _api.unsqueeze(indices, [2])
        kernel, strides, paddings = [1] + kernel, [1] + strides, [0] + paddings
        sizes = [1 if sizes[0] else 0] + sizes
        out = _C_ops.unpool(x, indices, kernel, strides, paddings, sizes, "NCHW")
        return _api.squeeze(out, [2])
    unpool = _C_ops.unpool3d if dims == 3 else _C_ops.unpool
    return unpool(x, indices, kernel, strides, paddings, sizes, expected)


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, data_format="NCL",
                 output_size=None, name=None):
    """The partial inverse of max_pool1d: zeros with each x at the position its index names."""
    return _max_unpool(x, indices, kernel_size, stride, padding, data_format, output_size, 1,
                       "max_unpool1d")


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, data_format="NCHW",
                 output_size=None, name=None):
    """The partial inverse of max_pool2d(return_mask=True)."""
    return _max_unpool(x, indices, kernel_size, stride, padding, data_format, output_size, 2,
                       "max_unpool2d")


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, data_format="NCDHW",
                 output_size=None, name=None):
    """The partial inverse of max_pool3d(return_mask=True)."""
    return _max_unpool(x, indices, kernel_size, stride, padding, data_format, output_size, 3,
                       "max_unpool3d")


def _lp_pool(x, norm_type, kernel_size, stride, padding, ceil_mode, data_format, dims, api):
    channel_last = _check_format(data_format, dims, api)
    _check_rank(x, dims, api)
    if not isinstance(norm_type, numbers.Real) or isinstance(norm_type, bool):
        raise TypeError(f"{api}(): 'norm_type' must be a number, received "
                        f"{type(norm_type).__name__}")
    kernel, strides = _window(kernel_size, stride, dims, api)
    paddings, algorithm = _pool_padding(padding, channel_last, dims, ceil_mode, api)
    axis = None
    if dims == 1:
        x, axis = _as_2d(x, channel_last)
        kernel, strides = [1] + kernel, [1] + strides
        paddings = [0] * len(paddings) + paddings
    out = _C_ops.lp_pool2d(x, kernel, strides, paddings, ceil_mode, True,
                           _LAST[2] if channel_last else _FIRST[2], "lp", False, False,
                           algorithm, float(norm_type))
    return out if axis is None else _api.squeeze(out, [axis])


def lp_pool1d(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
              data_format="NCL", name=None):
    """Power-average pooling of x [N, C, L] (or NLC): (sum of x^p over each window)^(1/p)."""
    return _lp_pool(x, norm_type, kernel_size, stride, padding, ceil_mode, data_format, 1,
                    "lp_pool1d")


def lp_pool2d(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
              data_format="NCHW", name=None):
    """Power-average pooling of x [N, C, H, W] (or NHWC)."""
    return _lp_pool(x, norm_type, kernel_size, stride, padding, ceil_mode, data_format, 2,
                    "lp_pool2d")
