"""NumPy references of pooling, written from Paddle's documented rules with one explicit window per
output position: the output size (in + pads - k) / stride + 1 rounded down (up in ceil_mode),
"SAME" padding to ceil(in / stride) outputs, windows clipped to the input, averages over the
window's input elements (exclusive) or the whole kernel, adaptive bins
[floor(i * in / out), ceil((i + 1) * in / out)), the first maximum's flat index in its plane, and
unpooling as the scatter of values to those indices. Each function takes the arguments of the
paddle.nn.functional call it checks."""
import itertools
import math

import numpy as np

_FIRST = {1: "NCL", 2: "NCHW", 3: "NCDHW"}


def _channels_first(x, data_format):
    return np.moveaxis(x, -1, 1) if data_format in ("NLC", "NHWC", "NDHWC") else x


def _channels_back(x, data_format):
    return np.moveaxis(x, 1, -1) if data_format in ("NLC", "NHWC", "NDHWC") else x


def _per_dim(value, dims):
    return [int(value)] * dims if np.isscalar(value) else [int(v) for v in value]


def _pads(padding, dims, data_format):
    """[(before, after)] per spatial dim, or the string 'SAME' / 'VALID'."""
    if isinstance(padding, str):
        return padding.upper()
    if np.isscalar(padding):
        return [(int(padding),) * 2] * dims
    padding = list(padding)
    if len(padding) == dims + 2 and not np.isscalar(padding[0]):
        spatial = padding[1:-1] if data_format in ("NLC", "NHWC", "NDHWC") else padding[2:]
        return [tuple(int(v) for v in pair) for pair in spatial]
    if len(padding) == dims:
        return [(int(p), int(p)) for p in padding]
    return [(int(padding[2 * i]), int(padding[2 * i + 1])) for i in range(dims)]


def _bounds(sizes, kernel, stride, pads, ceil_mode):
    """Per dim, the (begin, end) of each window, clipped to the input."""
    if pads == "VALID":
        pads = [(0, 0)] * len(sizes)
    elif pads == "SAME":
        pads = []
        for n, k, s in zip(sizes, kernel, stride):
            total = max((math.ceil(n / s) - 1) * s + k - n, 0)
            pads.append((total // 2, total - total // 2))
    bounds = []
    for n, k, s, (before, after) in zip(sizes, kernel, stride, pads):
        span = n + before + after - k
        count = (span + s - 1) // s + 1 if ceil_mode else span // s + 1
        starts = [i * s - before for i in range(count)]
        bounds.append([(max(b, 0), min(b + k, n)) for b in starts])
    return bounds


def _adaptive_bounds(sizes, output_size):
    return [[(i * n // m, -(-(i + 1) * n // m)) for i in range(m)]
            for n, m in zip(sizes, output_size)]


def _reduce(x, bounds, reduce):
    """out[n, c, o...] = reduce(window of o, its clipped slices) for channels-first x."""
    out = np.zeros(x.shape[:2] + tuple(len(b) for b in bounds))
    for index in itertools.product(*[range(len(b)) for b in bounds]):
        window = tuple(slice(*bounds[d][i]) for d, i in enumerate(index))
        out[(slice(None), slice(None)) + index] = reduce(x[(slice(None), slice(None)) + window],
                                                         index)
    return out


def _rows(patch):
    """[N, C, window...] as [N, C, the window's elements] (N or C may be 0)."""
    return patch.reshape(patch.shape[:2] + (int(np.prod(patch.shape[2:])),))


def _flat_max(patch):
    """The maximum of each [N, C] row of window elements and its first position."""
    flat = _rows(patch)
    return flat.max(axis=-1), flat.argmax(axis=-1)


def _mask(x, bounds):
    """The flat position in the input plane of each window's first maximum."""
    sizes = x.shape[2:]

    def first_max(patch, index):
        _, position = _flat_max(patch)
        starts = [bounds[d][i][0] for d, i in enumerate(index)]
        local = np.unravel_index(position, patch.shape[2:])
        return np.ravel_multi_index(tuple(s + c for s, c in zip(starts, local)), sizes)
    return _reduce(x, bounds, first_max).astype(np.int32)


def np_max_pool(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                data_format=None):
    dims = x.ndim - 2
    data_format = data_format or _FIRST[dims]
    kernel = _per_dim(kernel_size, dims)
    strides = kernel if stride is None else _per_dim(stride, dims)
    x = _channels_first(x, data_format)
    bounds = _bounds(x.shape[2:], kernel, strides, _pads(padding, dims, data_format), ceil_mode)
    out = _channels_back(_reduce(x, bounds, lambda p, _: _flat_max(p)[0]), data_format)
    return (out, _mask(x, bounds)) if return_mask else out


def np_avg_pool(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
                divisor_override=None, data_format=None):
    dims = x.ndim - 2
    data_format = data_format or _FIRST[dims]
    kernel = _per_dim(kernel_size, dims)
    strides = kernel if stride is None else _per_dim(stride, dims)
    x = _channels_first(x, data_format)
    bounds = _bounds(x.shape[2:], kernel, strides, _pads(padding, dims, data_format), ceil_mode)
    size = np.prod(kernel)

    def average(patch, _):
        count = np.prod(patch.shape[2:]) if exclusive else size
        return _rows(patch).sum(axis=-1) / count
    out = _reduce(x, bounds, average)
    if divisor_override is not None:
        out = out * size / divisor_override
    return _channels_back(out, data_format)


def _output_size(output_size, sizes):
    if np.isscalar(output_size):
        return [int(output_size)] * len(sizes)
    return [n if v is None else int(v) for v, n in zip(output_size, sizes)]


def np_adaptive_avg_pool(x, output_size, data_format=None):
    dims = x.ndim - 2
    data_format = data_format or _FIRST[dims]
    x = _channels_first(x, data_format)
    bounds = _adaptive_bounds(x.shape[2:], _output_size(output_size, x.shape[2:]))
    out = _reduce(x, bounds, lambda p, _: _rows(p).mean(axis=-1))
    return _channels_back(out, data_format)


def np_adaptive_max_pool(x, output_size, return_mask=False):
    bounds = _adaptive_bounds(x.shape[2:], _output_size(output_size, x.shape[2:]))
    out = _reduce(x, bounds, lambda p, _: _flat_max(p)[0])
    return (out, _mask(x, bounds)) if return_mask else out


def np_lp_pool(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
               data_format=None):
    dims = x.ndim - 2
    data_format = data_format or _FIRST[dims]
    kernel = _per_dim(kernel_size, dims)
    strides = kernel if stride is None else _per_dim(stride, dims)
    x = _channels_first(x, data_format)
    bounds = _bounds(x.shape[2:], kernel, strides, _pads(padding, dims, data_format), ceil_mode)
    out = _reduce(x, bounds, lambda p, _: (_rows(p) ** norm_type).sum(axis=-1))
    return _channels_back(out ** (1.0 / norm_type), data_format)


def np_max_unpool(x, indices, kernel_size, stride=None, padding=0, data_format=None,
                  output_size=None):
    dims = x.ndim - 2
    kernel = _per_dim(kernel_size, dims)
    strides = kernel if stride is None else _per_dim(stride, dims)
    pads = _per_dim(padding, dims)
    if output_size is None:
        sizes = [(n - 1) * s - 2 * p + k for n, s, p, k in zip(x.shape[2:], strides, pads, kernel)]
    else:
        sizes = list(output_size)[-dims:]
    out = np.zeros(x.shape[:2] + (int(np.prod(sizes)),), dtype=x.dtype)
    flat_x = x.reshape(x.shape[:2] + (-1,))
    flat_i = indices.reshape(indices.shape[:2] + (-1,))
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        out[n, c, flat_i[n, c]] = flat_x[n, c]
    return out.reshape(x.shape[:2] + tuple(sizes))


def np_max_pool_grad(x, out_grad, bounds_of):
    """The max pooling gradient of channels-first x: each out_grad goes to its window's first
    maximum; `bounds_of(sizes)` gives the windows."""
    bounds = bounds_of(x.shape[2:])
    mask = _mask(x, bounds).reshape(x.shape[:2] + (-1,))
    grad = np.zeros(x.shape[:2] + (int(np.prod(x.shape[2:])),))
    g = out_grad.reshape(out_grad.shape[:2] + (-1,))
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        np.add.at(grad[n, c], mask[n, c], g[n, c])
    return grad.reshape(x.shape)


def np_avg_pool_grad(x, out_grad, bounds_of, divisor=None):
    """The average pooling gradient of channels-first x: each out_grad spread evenly over its
    window's input elements, divided by the window's element count or by `divisor`."""
    bounds = bounds_of(x.shape[2:])
    grad = np.zeros(x.shape)
    for index in itertools.product(*[range(len(b)) for b in bounds]):
        window = tuple(slice(*bounds[d][i]) for d, i in enumerate(index))
        count = divisor or np.prod([bounds[d][i][1] - bounds[d][i][0] for d, i in enumerate(index)])
        g = out_grad[(slice(None), slice(None)) + index] / count
        grad[(slice(None), slice(None)) + window] += g.reshape(g.shape + (1,) * len(bounds))
    return grad


def np_max_pool_select(x, grad_x_grad, bounds_of):
    """grad_x_grad at each window's first maximum of channels-first x."""
    bounds = bounds_of(x.shape[2:])
    mask = _mask(x, bounds)
    flat = grad_x_grad.reshape(x.shape[:2] + (-1,))
    out = np.take_along_axis(flat, mask.reshape(mask.shape[:2] + (-1,)).astype(np.int64), 2)
    return out.reshape(mask.shape)


def pool_bounds(kernel, strides, paddings, ceil_mode=False, adaptive=False):
    """A `bounds_of(sizes)` for np_max_pool_grad from an op's attributes (paddings per dim or
    before/after pairs)."""
    def bounds_of(sizes):
        if adaptive:
            return _adaptive_bounds(sizes, kernel)
        pads = _pads(list(paddings), len(sizes), "NCHW")
        return _bounds(sizes, kernel, strides, pads, ceil_mode)
    return bounds_of
