"""NumPy references of the convolutions: a sum of one strided slice of the padded input per
kernel offset, and the adjoints of that sum in the input and in the filter."""
import itertools

import numpy as np


def _channels_first(x, channel_last):
    return np.moveaxis(x, -1, 1) if channel_last else x


def _channels_back(x, channel_last):
    return np.moveaxis(x, 1, -1) if channel_last else x


def _pads(padding, dims):
    """(before, after) per spatial dim from an int, a list per dim or a before/after list."""
    if isinstance(padding, int):
        return [(padding, padding)] * dims
    if len(padding) == dims:
        return [(p, p) for p in padding]
    return [(padding[2 * i], padding[2 * i + 1]) for i in range(dims)]


def as_list(value, dims):
    return [value] * dims if isinstance(value, int) else list(value)


def _windows(in_sizes, kernel, strides, dilations, pads, out_sizes):
    """For each kernel offset, the strided slices of the padded input it reads."""
    for offset in itertools.product(*[range(k) for k in kernel]):
        yield offset, tuple(
            slice(o * d, o * d + s * (n - 1) + 1, s)
            for o, d, s, n in zip(offset, dilations, strides, out_sizes))


def np_conv(x, w, stride=1, padding=0, dilation=1, groups=1, channel_last=False):
    """Cross-correlation of x [N, C, spatial...] with w [O, C / groups, k...]."""
    x = _channels_first(x, channel_last)
    dims = x.ndim - 2
    strides, dilations, pads = as_list(stride, dims), as_list(dilation, dims), _pads(padding, dims)
    xp = np.pad(x, [(0, 0), (0, 0)] + pads)
    kernel = w.shape[2:]
    out_sizes = [(xp.shape[2 + i] - dilations[i] * (kernel[i] - 1) - 1) // strides[i] + 1
                 for i in range(dims)]
    n, o = x.shape[0], w.shape[0]
    cg, og = w.shape[1], o // groups
    out = np.zeros([n, o] + out_sizes)
    for offset, window in _windows(x.shape[2:], kernel, strides, dilations, pads, out_sizes):
        for g in range(groups):
            patch = xp[(slice(None), slice(g * cg, (g + 1) * cg)) + window]
            weights = w[(slice(g * og, (g + 1) * og), slice(None)) + offset]
            out[:, g * og:(g + 1) * og] += np.tensordot(weights, patch, ([1], [1])).swapaxes(0, 1)
    return _channels_back(out, channel_last)


def np_conv_input_grad(dy, w, x_shape, stride=1, padding=0, dilation=1, groups=1,
                       channel_last=False):
    """The adjoint of np_conv in x: scatters dy back through each window (channels first)."""
    dims = len(x_shape) - 2
    strides, dilations, pads = as_list(stride, dims), as_list(dilation, dims), _pads(padding, dims)
    padded = [x_shape[0], x_shape[1]] + [x_shape[2 + i] + sum(pads[i]) for i in range(dims)]
    dxp = np.zeros(padded)
    cg, og = w.shape[1], w.shape[0] // groups
    for offset, window in _windows(x_shape[2:], w.shape[2:], strides, dilations, pads,
                                   dy.shape[2:]):
        for g in range(groups):
            weights = w[(slice(g * og, (g + 1) * og), slice(None)) + offset]
            contribution = np.tensordot(dy[:, g * og:(g + 1) * og], weights, ([1], [0]))
            dxp[(slice(None), slice(g * cg, (g + 1) * cg)) + window] += np.moveaxis(
                contribution, -1, 1)
    crop = tuple(slice(b, b + x_shape[2 + i]) for i, (b, _) in enumerate(pads))
    return dxp[(slice(None), slice(None)) + crop]


def np_conv_filter_grad(x, dy, w_shape, stride=1, padding=0, dilation=1, groups=1):
    """The adjoint of np_conv in w (channels first)."""
    dims = x.ndim - 2
    strides, dilations, pads = as_list(stride, dims), as_list(dilation, dims), _pads(padding, dims)
    xp = np.pad(x, [(0, 0), (0, 0)] + pads)
    dw = np.zeros(w_shape)
    cg, og = w_shape[1], w_shape[0] // groups
    for offset, window in _windows(x.shape[2:], w_shape[2:], strides, dilations, pads,
                                   dy.shape[2:]):
        for g in range(groups):
            patch = xp[(slice(None), slice(g * cg, (g + 1) * cg)) + window]
            axes = [0] + list(range(2, 2 + dims))
            dw[(slice(g * og, (g + 1) * og), slice(None)) + offset] += np.tensordot(
                dy[:, g * og:(g + 1) * og], patch, (axes, axes))
    return dw


def _transposed_size(n, k, s, d, pads, extra):
    return (n - 1) * s - pads[0] - pads[1] + d * (k - 1) + 1 + extra


def np_conv_transpose(x, w, stride=1, padding=0, output_padding=0, dilation=1, groups=1,
                      output_size=None, channel_last=False):
    """The transposed convolution: np_conv's adjoint in its input, with x in the output's role
    and w [C_x, C_out / groups, k...] as that convolution's filter."""
    x = _channels_first(x, channel_last)
    dims = x.ndim - 2
    strides, dilations, pads = as_list(stride, dims), as_list(dilation, dims), _pads(padding, dims)
    extra = as_list(output_padding, dims)
    sizes = (as_list(output_size, dims) if output_size is not None else
             [_transposed_size(x.shape[2 + i], w.shape[2 + i], strides[i], dilations[i], pads[i],
                               extra[i]) for i in range(dims)])
    out_shape = [x.shape[0], w.shape[1] * groups] + sizes
    out = np_conv_input_grad(x, w, out_shape, strides, [p for pair in pads for p in pair],
                             dilations, groups)
    return _channels_back(out, channel_last)
