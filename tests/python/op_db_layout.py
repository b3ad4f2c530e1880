"""Harness entries of the layout ops (paddle/ops/yaml/layout.yaml): F.pad (the pad and pad3d ops)
and pad3d's gradient kernel, flip, roll, tile, expand_as, pixel_unshuffle, channel_shuffle,
unfold and fold. The NumPy references are written independently of the kernels: np.pad for the
paddings, explicit loops for the sliding blocks."""
import numpy as np

import paddle
import paddle.nn.functional as F
from harness import ErrorSample, OpInfo, Sample
from op_db import LINEAR, program_op, uniform

# ---------------------------------------------------------------- pad

_NP_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}
_CHANNEL_LAST = ("NLC", "NHWC", "NDHWC")


def np_pad(x, pad, mode="constant", value=0.0, data_format=None, pad_from_left_axis=True):
    """Paddle's F.pad: a constant list of any length but 2 * (ndim - 2) pads pairs from the last
    axis (from the first when it has 2 * ndim values and pad_from_left_axis); otherwise the pairs
    pad the spatial axes of `data_format` from the last one."""
    rank = x.ndim
    pad = list(pad)
    if mode == "constant" and len(pad) != 2 * (rank - 2):
        padded = pad + [0] * (2 * rank - len(pad))
        pairs = [tuple(padded[i:i + 2]) for i in range(0, 2 * rank, 2)]
        if not (len(pad) == 2 * rank and pad_from_left_axis):
            pairs = pairs[::-1]
        return np.pad(x, pairs, constant_values=value)
    spatial = list(range(1, rank - 1)) if data_format in _CHANNEL_LAST else list(range(2, rank))
    widths = [(0, 0)] * rank
    for k, axis in enumerate(reversed(spatial)):
        widths[axis] = (pad[2 * k], pad[2 * k + 1])
    if mode == "constant":
        return np.pad(x, widths, constant_values=value)
    return np.pad(x, widths, mode=_NP_MODES[mode])


def np_pad3d_grad(x, out_grad, paddings, mode, data_format):
    """The adjoint of pad3d: each output's gradient added into the input element it copies (the
    element's flat index, padded like the data, says which)."""
    index = np.arange(x.size, dtype=np.int64).reshape(x.shape)
    if mode == "constant":
        index = np_pad(index, paddings, "constant", -1, data_format)
    else:
        index = np_pad(index, paddings, mode, data_format=data_format)
    x_grad = np.zeros(x.size, dtype=out_grad.dtype)
    kept = index >= 0
    np.add.at(x_grad, index[kept], out_grad[kept])
    return x_grad.reshape(x.shape)


def pad3d_grad_op(x, out_grad, paddings, mode, data_format):
    """pad3d's gradient kernel, run as a Paddle training program holds it (pad3d_grad)."""
    return program_op("pad3d_grad", {"X": x, "Out@GRAD": out_grad}, {"X@GRAD": "X"},
                      {"paddings": paddings, "mode": mode, "value": 0.0,
                       "data_format": data_format})[0]


def _pad3d_grad_sample(rng, x_shape, paddings, mode, data_format):
    x = uniform(rng, x_shape)
    out = np_pad(x, paddings[:2 * (len(x_shape) - 2)], mode, data_format=data_format)
    return Sample([x, uniform(rng, out.shape), paddings, mode, data_format])


def _pad3d_errors():
    return [
        ErrorSample([np.zeros((2, 3, 4)), [1, 2]], {"mode": "wrap"}, ValueError, "mode"),
        ErrorSample([np.zeros((1, 1, 3)), [3, 0]], {"mode": "reflect"}, ValueError,
                    "less than the size"),
        ErrorSample([np.zeros((1, 1, 0)), [1, 0]], {"mode": "replicate"}, ValueError,
                    "empty dimension"),
        ErrorSample([np.zeros((1, 2, 3, 4)), [1, 1]], {"mode": "reflect"}, ValueError,
                    "4 values"),
        ErrorSample([np.zeros((3, 4)), [1, 1]], {"mode": "replicate"}, ValueError, "3-, 4- or 5-D"),
        ErrorSample([np.zeros((1, 2, 3, 4)), [1, 1, 1, 1]], {"data_format": "NCL"}, ValueError,
                    "data_format"),
        ErrorSample([np.zeros((1, 2, 3)), [-1, 0]], {"mode": "circular"}, ValueError,
                    "non-negative"),
        ErrorSample([np.zeros((1, 2, 3)), 1], {}, TypeError, "'pad'"),
        ErrorSample([[1.0, 2.0], [1, 1]], {}, TypeError, "must be a Tensor"),
    ]


PAD_OPS = [
    OpInfo("pad3d", F.pad, np_pad, lambda rng: [
        Sample([uniform(rng, (2, 3, 5)), [2, 1]], {"mode": "reflect"}),
        Sample([uniform(rng, (2, 5, 3)), [1, 2]], {"mode": "replicate", "data_format": "NLC"}),
        Sample([uniform(rng, (1, 2, 3, 4)), [1, 2, 2, 1]], {"mode": "circular"}),
        # circular padding longer than the dimension wraps around more than once
        Sample([uniform(rng, (1, 1, 2, 3)), [4, 1, 3, 0]], {"mode": "circular"}),
        Sample([uniform(rng, (2, 3, 4, 2)), [1, 0, 2, 1]], {"value": 2.0, "data_format": "NHWC"}),
        Sample([uniform(rng, (1, 2, 3, 3, 4)), [1, 1, 2, 0, 1, 2]], {"mode": "reflect"}),
        Sample([uniform(rng, (1, 2, 3, 2, 2)), [0, 1, 1, 0, 2, 1]],
               {"mode": "replicate", "data_format": "NDHWC"}),
        Sample([uniform(rng, (1, 2, 2, 2, 3)), [1, 0, 0, 2, 1, 1]], {"value": -1.0})],
        second_order=True, no_second_order_reason=LINEAR, errors=_pad3d_errors),
    OpInfo("pad", F.pad, np_pad, lambda rng: [
        Sample([uniform(rng, (3, 4)), [1, 2]], {"value": 1.5}),
        Sample([uniform(rng, (2, 3, 2)), [1, 0, 0, 1, 2, 1]]),
        Sample([uniform(rng, (2, 3, 2)), [1, 0, 0, 1, 2, 1]], {"pad_from_left_axis": False}),
        Sample([uniform(rng, (2, 3)), (1, 2, 3)], {"value": -2.0}),  # odd length: zero-filled
        Sample([uniform(rng, (2, 1, 2, 2)), [1, 1, 0, 2, 1, 0]]),
        Sample([uniform(rng, (2, 2, 2, 2, 2, 2)), [1, 0, 0, 1, 1, 1, 0, 0]])],
        second_order=True, no_second_order_reason=LINEAR, errors=lambda: [
            ErrorSample([np.zeros((2, 3)), [1] * 6], {}, ValueError, "more than"),
            ErrorSample([np.zeros((2, 3)), [1, 2]], {"value": "a"}, TypeError, "value")]),
    OpInfo("pad3d_grad", pad3d_grad_op, np_pad3d_grad, lambda rng: [
        _pad3d_grad_sample(rng, (1, 2, 3, 3, 4), [1, 2, 0, 1, 2, 1], "reflect", "NCDHW"),
        _pad3d_grad_sample(rng, (1, 2, 2, 3, 2), [3, 1, 2, 0, 1, 4], "circular", "NDHWC"),
        _pad3d_grad_sample(rng, (2, 1, 2, 2, 3), [2, 1, 1, 2, 0, 1], "replicate", "NCDHW"),
        _pad3d_grad_sample(rng, (1, 2, 2, 2, 2), [1, 0, 1, 1, 0, 2], "constant", "NDHWC")],
        grad=False, no_grad_reason="its gradient, pad3d, is checked as the second-order gradient "
                                   "of the pad3d entry"),
]

# ---------------------------------------------------------------- flip, roll, tile, expand_as


def _as_tuple(axis):
    return tuple(axis) if isinstance(axis, (list, tuple)) else axis


MOVE_OPS = [
    OpInfo("flip", paddle.flip, lambda x, axis: np.flip(x, _as_tuple(axis)), lambda rng: [
        Sample([uniform(rng, (3, 4))], {"axis": [0]}),
        Sample([uniform(rng, (2, 3, 4))], {"axis": [0, 2]}),
        Sample([uniform(rng, (2, 3, 4))], {"axis": [-1, 1]}),
        Sample([uniform(rng, (2, 3))], {"axis": -1}),
        Sample([uniform(rng, (2, 3))], {"axis": []})],
        second_order=True, no_second_order_reason=LINEAR, errors=lambda: [
            ErrorSample([np.zeros((2, 3))], {"axis": [1, -1]}, ValueError, "twice"),
            ErrorSample([np.zeros((2, 3))], {"axis": [2]}, IndexError, "axis")]),
    OpInfo("roll", paddle.roll, lambda x, shifts, axis=None: np.roll(x, shifts, _as_tuple(axis)),
           lambda rng: [
               Sample([uniform(rng, (3, 4)), 5]),  # flattened
               Sample([uniform(rng, (3, 4)), [1, -2]], {"axis": [0, 1]}),
               Sample([uniform(rng, (2, 3, 4)), -7], {"axis": 2}),
               Sample([uniform(rng, (2, 3)), [2, 2]], {"axis": [1, -1]}),  # shifts add up
               Sample([uniform(rng, (2, 3)), [-2 ** 63]], {"axis": [1]})],
           second_order=True, no_second_order_reason=LINEAR, errors=lambda: [
               ErrorSample([np.zeros((2, 3)), [1, 2]], {"axis": [0]}, ValueError, "same length"),
               ErrorSample([np.zeros((2, 3)), [1, 2]], {}, ValueError, "one value"),
               ErrorSample([np.zeros((2, 3)), 1], {"axis": 2}, IndexError, "axis")]),
    OpInfo("tile", paddle.tile, np.tile, lambda rng: [
        Sample([uniform(rng, (2, 3)), [2, 1]]),
        Sample([uniform(rng, (3,)), [2, 3]]),  # repeats outrank x
        Sample([uniform(rng, (2, 1, 3)), (2,)]),  # x outranks the repeats
        Sample([uniform(rng, (2, 2)), [3, 2]]),
        # An empty result: no loss to differentiate.
        Sample([uniform(rng, (2, 3)), [0, 2]], grad_args=[])],
        second_order=True, no_second_order_reason=LINEAR, errors=lambda: [
            ErrorSample([np.zeros((2, 3)), [1, -1]], {}, ValueError, "non-negative"),
            ErrorSample([np.zeros((2, 3)), [1] * 10], {}, ValueError, "at most")]),
    OpInfo("expand_as", paddle.expand_as, lambda x, y: np.broadcast_to(x, y.shape), lambda rng: [
        Sample([uniform(rng, (3, 1)), uniform(rng, (3, 4))], grad_args=[0]),
        Sample([uniform(rng, (4,)), uniform(rng, (2, 3, 4))], grad_args=[0]),
        Sample([uniform(rng, (1, 4)), uniform(rng, (3, 4))], grad_args=[0]),
        Sample([uniform(rng, (2, 3)), uniform(rng, (2, 3))], grad_args=[0])],
        second_order=True, no_second_order_reason=LINEAR, errors=lambda: [
            ErrorSample([np.zeros((3, 2)), np.zeros((3, 4))], {}, ValueError, "expand_as"),
            ErrorSample([np.zeros((2, 3, 4)), np.zeros((3, 4))], {}, ValueError, "more dimensions"),
            ErrorSample([np.zeros((3, 4)), [1.0]], {}, TypeError, "'y'")]),
]

# ---------------------------------------------------------------- pixel_unshuffle, channel_shuffle


def _nchw(x, data_format):
    return x if data_format == "NCHW" else x.transpose(0, 3, 1, 2)


def _from_nchw(x, data_format):
    return x if data_format == "NCHW" else x.transpose(0, 2, 3, 1)


def np_pixel_unshuffle(x, downscale_factor, data_format="NCHW"):
    """Pixel (i, j) of each r x r block goes to channel c * r * r + i * r + j."""
    r = downscale_factor
    nchw = _nchw(x, data_format)
    n, c, h, w = nchw.shape
    out = np.zeros((n, c * r * r, h // r, w // r), x.dtype)
    for i in range(r):
        for j in range(r):
            out[:, i * r + j::r * r] = nchw[:, :, i::r, j::r]
    return _from_nchw(out, data_format)


def np_channel_shuffle(x, groups, data_format="NCHW"):
    """Output channel k * groups + g is input channel g * (C / groups) + k."""
    nchw = _nchw(x, data_format)
    per_group = nchw.shape[1] // groups
    out = np.empty_like(nchw)
    for g in range(groups):
        for k in range(per_group):
            out[:, k * groups + g] = nchw[:, g * per_group + k]
    return _from_nchw(out, data_format)


CHANNEL_OPS = [
    OpInfo("pixel_unshuffle", F.pixel_unshuffle, np_pixel_unshuffle, lambda rng: [
        Sample([uniform(rng, (2, 2, 4, 6)), 2]),
        Sample([uniform(rng, (1, 1, 3, 3)), 3]),
        Sample([uniform(rng, (2, 4, 2, 3)), 2], {"data_format": "NHWC"}),
        Sample([uniform(rng, (1, 2, 2, 3)), 1])],
        second_order=True, no_second_order_reason=LINEAR, errors=lambda: [
            ErrorSample([np.zeros((2, 4, 4)), 2], {}, ValueError, "must be a 4-D tensor"),
            ErrorSample([np.zeros((1, 1, 3, 4)), 2], {}, ValueError, "divisible by downscale_factor"),
            ErrorSample([np.zeros((1, 1, 2, 2)), 0], {}, ValueError, "'downscale_factor' must be"),
            ErrorSample([np.zeros((1, 1, 2, 2)), 2], {"data_format": "NCDHW"}, ValueError,
                        "'NCDHW'")]),
    OpInfo("channel_shuffle", F.channel_shuffle, np_channel_shuffle, lambda rng: [
        Sample([uniform(rng, (2, 6, 2, 3)), 3]),
        Sample([uniform(rng, (1, 4, 2, 2)), 2]),
        Sample([uniform(rng, (2, 2, 3, 6)), 2], {"data_format": "NHWC"}),
        Sample([uniform(rng, (1, 3, 2, 2)), 1])],
        second_order=True, no_second_order_reason=LINEAR, errors=lambda: [
            ErrorSample([np.zeros((1, 6, 2)), 3], {}, ValueError, "must be a 4-D tensor"),
            ErrorSample([np.zeros((1, 6, 2, 2)), 4], {}, ValueError, "divisible by groups"),
            ErrorSample([np.zeros((1, 6, 2, 2)), 0], {}, ValueError, "'groups' must be positive"),
            ErrorSample([np.zeros((1, 6, 2, 2)), 2], {"data_format": "HWCN"}, ValueError,
                        "data_format")]),
]

# ---------------------------------------------------------------- unfold, fold


def _block_args(kernel_sizes, strides, paddings, dilations):
    def pair(v):
        return [v, v] if isinstance(v, int) else list(v)
    pads = [paddings] * 4 if isinstance(paddings, int) else list(paddings)
    pads = pads * 2 if len(pads) == 2 else pads
    return pair(kernel_sizes), pair(strides), pads, pair(dilations)


def _blocks(size, kernel, stride, pad_begin, pad_end, dilation):
    return (size + pad_begin + pad_end - dilation * (kernel - 1) - 1) // stride + 1


def _block_positions(h, w, kernel_sizes, strides, paddings, dilations):
    """For each (c-less) column index (i, j) and block (by, bx): the image element it covers."""
    (kh, kw), (sh, sw), (pt, pl, pb, pr), (dh, dw) = _block_args(kernel_sizes, strides, paddings,
                                                                 dilations)
    bh, bw = _blocks(h, kh, sh, pt, pb, dh), _blocks(w, kw, sw, pl, pr, dw)
    for i in range(kh):
        for j in range(kw):
            for by in range(bh):
                for bx in range(bw):
                    yield i * kw + j, kh * kw, by * bw + bx, by * sh - pt + i * dh, bx * sw - pl + j * dw


def np_unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1):
    n, c, h, w = x.shape
    cols = list(_block_positions(h, w, kernel_sizes, strides, paddings, dilations))
    area, blocks = cols[0][1], max(col[2] for col in cols) + 1
    out = np.zeros((n, c * area, blocks), x.dtype)
    for k, _, b, iy, ix in cols:
        if 0 <= iy < h and 0 <= ix < w:
            out[:, k::area, b] = x[:, :, iy, ix]
    return out


def np_fold(x, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1):
    h, w = [output_sizes] * 2 if isinstance(output_sizes, int) else output_sizes
    cols = list(_block_positions(h, w, kernel_sizes, strides, paddings, dilations))
    area = cols[0][1]
    out = np.zeros((x.shape[0], x.shape[1] // area, h, w), x.dtype)
    for k, _, b, iy, ix in cols:
        if 0 <= iy < h and 0 <= ix < w:
            out[:, :, iy, ix] += x[:, k::area, b]
    return out


BLOCK_OPS = [
    OpInfo("unfold", F.unfold, np_unfold, lambda rng: [
        Sample([uniform(rng, (2, 2, 3, 4)), 2]),
        Sample([uniform(rng, (1, 2, 5, 4)), [2, 3]],
               {"strides": [2, 1], "paddings": [1, 0, 2, 1], "dilations": [1, 2]}),
        Sample([uniform(rng, (1, 1, 4, 4)), 3], {"strides": 2, "paddings": 1}),
        Sample([uniform(rng, (1, 3, 3, 3)), [1, 2]], {"paddings": [1, 2], "dilations": 2})],
        second_order=True, no_second_order_reason=LINEAR, errors=lambda: [
            ErrorSample([np.zeros((1, 1, 2, 2)), 3], {}, ValueError, "does not fit"),
            ErrorSample([np.zeros((1, 2, 2)), 1], {}, ValueError, "must be a 4-D tensor"),
            ErrorSample([np.zeros((1, 1, 3, 3)), 2], {"strides": 0}, ValueError, "'strides'"),
            ErrorSample([np.zeros((1, 1, 3, 3)), 2], {"paddings": [1, 1, 1]}, ValueError,
                        "'paddings'"),
            ErrorSample([np.zeros((1, 1, 3, 3)), [2, 2, 2]], {}, ValueError, "'kernel_sizes'")]),
    OpInfo("fold", F.fold, np_fold, lambda rng: [
        Sample([uniform(rng, (2, 2 * 4, 6)), [3, 4], 2]),
        Sample([uniform(rng, (1, 6, 4)), [5, 4], [2, 3]],
               {"strides": [2, 1], "paddings": [1, 0, 2, 1], "dilations": [1, 2]}),
        Sample([uniform(rng, (1, 9, 4)), 4, 3], {"strides": 2, "paddings": 1}),
        Sample([uniform(rng, (1, 4, 25)), [3, 3], [1, 2]], {"paddings": [1, 2], "dilations": 2})],
        second_order=True, no_second_order_reason=LINEAR, errors=lambda: [
            ErrorSample([np.zeros((1, 4, 5)), [3, 3], 2], {}, ValueError, "number of blocks"),
            ErrorSample([np.zeros((1, 5, 4)), [3, 3], 2], {}, ValueError, "divisible"),
            ErrorSample([np.zeros((1, 1, 4, 4)), [3, 3], 2], {}, ValueError, "must be a 3-D tensor"),
            ErrorSample([np.zeros((1, 4, 4)), [3, 0], 2], {}, ValueError, "'output_sizes'")]),
]

LAYOUT_OPS = PAD_OPS + MOVE_OPS + CHANNEL_OPS + BLOCK_OPS
