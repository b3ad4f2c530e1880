"""Harness entries of the convolution ops: conv2d, depthwise_conv2d, conv3d, their transposes
and the gradient ops, against a NumPy reference that sums one strided slice per kernel offset."""
import numpy as np

import paddle
import paddle.nn.functional as F
from conv_reference import (as_list, np_conv, np_conv_filter_grad, np_conv_input_grad,
                            np_conv_transpose)
from harness import ErrorSample, OpInfo, Sample
from op_db import program_op, uniform


# ---------------------------------------------------------------- entries

def _conv_samples(dims):
    def samples(rng):
        if dims == 2:
            return [
                Sample([uniform(rng, (2, 3, 5, 5)), uniform(rng, (4, 3, 3, 3))], {"padding": 1}),
                Sample([uniform(rng, (1, 4, 7, 6)), uniform(rng, (6, 2, 3, 2))],
                       {"stride": [2, 1], "padding": [1, 0, 2, 1], "dilation": [1, 2],
                        "groups": 2}),
                Sample([uniform(rng, (2, 5, 4, 3)), uniform(rng, (2, 3, 2, 2))],
                       {"padding": "SAME", "stride": 2, "data_format": "NHWC"}),
                Sample([uniform(rng, (1, 2, 4, 4)), uniform(rng, (3, 2, 1, 1))],
                       {"padding": "VALID"}),
                Sample([uniform(rng, (0, 2, 4, 4)), uniform(rng, (3, 2, 3, 3))]),
            ]
        return [
            Sample([uniform(rng, (1, 2, 3, 4, 3)), uniform(rng, (3, 2, 2, 3, 2))],
                   {"padding": [1, 0, 1]}),
            Sample([uniform(rng, (1, 4, 5, 3, 4)), uniform(rng, (2, 2, 2, 2, 2))],
                   {"stride": 2, "dilation": [1, 1, 2], "groups": 2, "padding": 1}),
            Sample([uniform(rng, (1, 3, 4, 3, 2)), uniform(rng, (2, 2, 2, 2, 2))],
                   {"padding": "SAME", "data_format": "NDHWC"}),
        ]
    return samples


def _np_conv_api(x, weight, stride=1, padding=0, dilation=1, groups=1, data_format="NCHW"):
    dims = x.ndim - 2
    channel_last = data_format in ("NHWC", "NDHWC")
    if padding == "SAME":  # Paddle then ignores the dilation
        padding, dilation = _same_padding(x, weight, stride, channel_last), 1
    elif padding == "VALID":
        padding = 0
    return np_conv(x, weight, stride, padding if padding else [0] * dims, dilation, groups,
                   channel_last)


def _same_padding(x, w, stride, channel_last):
    sizes = x.shape[1:-1] if channel_last else x.shape[2:]
    dims = len(sizes)
    strides = as_list(stride, dims)
    pads = []
    for n, k, s in zip(sizes, w.shape[2:], strides):
        out = -(-n // s)
        total = max((out - 1) * s + k - n, 0)
        pads += [total // 2, total - total // 2]
    return pads


def _conv_errors(api, dims):
    x = np.zeros((1, 4) + (5,) * dims)
    w = np.zeros((2, 4) + (3,) * dims)
    name = api.__name__
    return lambda: [
        ErrorSample([x, w], {"stride": 0}, ValueError, "'strides' must be positive"),
        ErrorSample([x, w], {"dilation": -1}, ValueError, "'dilations' must be positive"),
        ErrorSample([x, np.zeros((2, 4) + (0,) * dims)], {}, ValueError, "kernel size"),
        ErrorSample([x, np.zeros((3, 2) + (3,) * dims)], {"groups": 2}, ValueError,
                    "divisible by 'groups'"),
        ErrorSample([x, w], {"groups": 3}, ValueError, "divisible by 'groups'"),
        ErrorSample([x, w], {"padding": [1] * (dims + 1)}, ValueError, "invalid padding"),
        ErrorSample([x, w], {"padding": "FULL"}, ValueError, "'SAME' or 'VALID'"),
        ErrorSample([np.zeros((4,) + (5,) * dims), w], {}, ValueError, "must be"),
        ErrorSample([x, w], {"data_format": "NCWH"}, ValueError, "data_format"),
        ErrorSample([x, np.zeros((2, 3) + (3,) * dims)], {}, ValueError, "filter's dim 1"),
        ErrorSample([np.zeros((1, 4) + (2,) * dims), w], {}, ValueError, "dilated kernel"),
        ErrorSample([[1.0], w], {}, TypeError, name),
    ]


def _depthwise_samples(rng):
    return [
        Sample([uniform(rng, (2, 3, 5, 4)), uniform(rng, (3, 1, 3, 3))],
               {"padding": 1, "groups": 3}),
        Sample([uniform(rng, (1, 2, 6, 6)), uniform(rng, (4, 1, 3, 2))],
               {"stride": 2, "groups": 2, "dilation": [2, 1]}),
        Sample([uniform(rng, (1, 5, 5, 2)), uniform(rng, (4, 1, 2, 2))],
               {"groups": 2, "data_format": "NHWC"}),
    ]


def _transpose_samples(dims):
    def samples(rng):
        if dims == 2:
            return [
                Sample([uniform(rng, (2, 3, 3, 4)), uniform(rng, (3, 2, 3, 3))], {"padding": 1}),
                Sample([uniform(rng, (1, 4, 3, 3)), uniform(rng, (4, 3, 3, 2))],
                       {"stride": 2, "padding": [1, 0], "output_padding": [1, 0], "groups": 2,
                        "dilation": [1, 2]}),
                Sample([uniform(rng, (1, 2, 3, 3)), uniform(rng, (2, 2, 3, 3))],
                       {"stride": 2, "padding": 1, "output_size": [6, 5]}),
                Sample([uniform(rng, (1, 3, 2, 2)), uniform(rng, (2, 3, 2, 2))],
                       {"stride": [2, 1], "data_format": "NHWC"}),
            ]
        return [
            Sample([uniform(rng, (1, 2, 2, 3, 2)), uniform(rng, (2, 3, 2, 2, 2))],
                   {"stride": 2, "padding": [1, 0, 0]}),
            Sample([uniform(rng, (1, 2, 2, 2, 3)), uniform(rng, (3, 2, 2, 2, 2))],
                   {"output_padding": 1, "stride": 2, "data_format": "NDHWC"}),
        ]
    return samples


def _np_conv_transpose_api(x, weight, stride=1, padding=0, output_padding=0, dilation=1,
                           groups=1, output_size=None, data_format="NCHW"):
    channel_last = data_format in ("NHWC", "NDHWC")
    return np_conv_transpose(x, weight, stride, padding, output_padding, dilation, groups,
                             output_size, channel_last)


def _conv3d_transpose_api(x, weight, stride=1, padding=0, output_padding=0, dilation=1, groups=1,
                          output_size=None, data_format="NCDHW"):
    return F.conv3d_transpose(x, weight, stride=stride, padding=padding,
                              output_padding=output_padding, dilation=dilation, groups=groups,
                              output_size=output_size, data_format=data_format)


def _depthwise_transpose_samples(rng):
    return [
        Sample([uniform(rng, (1, 3, 3, 3)), uniform(rng, (3, 1, 3, 3))],
               {"stride": 2, "padding": 1, "groups": 3}),
        Sample([uniform(rng, (2, 2, 2, 3)), uniform(rng, (2, 1, 2, 2))], {"groups": 2}),
    ]


def _transpose_errors(dims):
    x = np.zeros((1, 4) + (3,) * dims)
    w = np.zeros((4, 2) + (3,) * dims)
    return lambda: [
        ErrorSample([x, w], {"stride": 2, "output_size": [20] * dims}, ValueError,
                    "'output_size'"),
        ErrorSample([x, w], {"stride": 1, "output_padding": 1}, ValueError,
                    "'output_padding'"),
        ErrorSample([x, w], {"output_padding": 1, "output_size": [5] * dims}, ValueError,
                    "mutually exclusive"),
        ErrorSample([x, np.zeros((3, 2) + (3,) * dims)], {}, ValueError, "filter's dim 0"),
        ErrorSample([x, w], {"groups": 3}, ValueError, "divisible by 'groups'"),
        ErrorSample([x, w], {"stride": [1] * (dims + 1)}, ValueError, "'stride'"),
    ]


def _grad_op(op, x_slot, x, w, dy, attrs):
    return program_op(op, {x_slot: x, "Filter": w, "Output@GRAD": dy},
                      {f"{x_slot}@GRAD": x_slot, "Filter@GRAD": "Filter"}, attrs)


def _conv_attrs(dims, strides, paddings, dilations, groups, data_format):
    return {"strides": strides, "paddings": paddings, "padding_algorithm": "EXPLICIT",
            "dilations": dilations, "groups": groups, "data_format": data_format}


def conv_grad_api(op):
    def api(x, w, dy, strides, paddings, dilations, groups):
        dims = len(x.shape) - 2
        fmt = "NCHW" if dims == 2 else "NCDHW"
        return _grad_op(op, "Input", x, w, dy,
                        _conv_attrs(dims, strides, paddings, dilations, groups, fmt))
    return api


def np_conv_grad(x, w, dy, strides, paddings, dilations, groups):
    return (np_conv_input_grad(dy, w, x.shape, strides, paddings, dilations, groups),
            np_conv_filter_grad(x, dy, w.shape, strides, paddings, dilations, groups))


def conv_transpose_grad_api(op):
    def api(x, w, dy, strides, paddings, dilations, groups):
        dims = len(x.shape) - 2
        attrs = _conv_attrs(dims, strides, paddings, dilations, groups,
                            "NCHW" if dims == 2 else "NCDHW")
        attrs.update({"output_padding": [], "output_size": []})
        return _grad_op(op, "Input", x, w, dy, attrs)
    return api


def np_conv_transpose_grad(x, w, dy, strides, paddings, dilations, groups):
    """x_grad = conv(dy, w); filter_grad = the filter gradient of that convolution, with dy as
    its input and x as its output gradient."""
    return (np_conv(dy, w, strides, paddings, dilations, groups),
            np_conv_filter_grad(dy, x, w.shape, strides, paddings, dilations, groups))


def _grad_samples(transposed, dims, depthwise=False):
    def samples(rng):
        k = (3,) * dims
        if depthwise:
            x, w, groups = (1, 2) + (4,) * dims, (2, 1) + k, 2
        elif transposed:
            x, w, groups = (1, 4) + (4,) * dims, (4, 1) + k, 2
        else:
            x, w, groups = (1, 4) + (4,) * dims, (2, 2) + k, 2
        strides, paddings, dilations = [2] * dims, [1] * dims, [1] * dims
        if transposed:
            out = [1, w[1] * groups] + [(4 - 1) * 2 - 2 + 3] * dims
        else:
            out = [1, w[0]] + [(4 + 2 - 3) // 2 + 1] * dims
        return [Sample([uniform(rng, x), uniform(rng, w), uniform(rng, tuple(out)), strides,
                        paddings, dilations, groups])]
    return samples


GRAD_REASON = ("its gradient is checked as the second-order gradient of the forward op's entry, "
               "whose backward runs this op")

CONV_OPS = [
    OpInfo("conv2d", F.conv2d, _np_conv_api, _conv_samples(2), second_order=True,
           atol=1e-4, rtol=1e-4, errors=_conv_errors(F.conv2d, 2)),
    OpInfo("depthwise_conv2d", F.conv2d, _np_conv_api, _depthwise_samples, second_order=True,
           atol=1e-4, rtol=1e-4),
    OpInfo("conv3d", F.conv3d,
           lambda x, w, data_format="NCDHW", **kw: _np_conv_api(x, w, data_format=data_format,
                                                                **kw),
           _conv_samples(3), second_order=True, atol=1e-4, rtol=1e-4,
           errors=_conv_errors(F.conv3d, 3)),
    OpInfo("conv2d_transpose", F.conv2d_transpose, _np_conv_transpose_api, _transpose_samples(2),
           second_order=True, atol=1e-4, rtol=1e-4, errors=_transpose_errors(2)),
    OpInfo("depthwise_conv2d_transpose", F.conv2d_transpose, _np_conv_transpose_api,
           _depthwise_transpose_samples, second_order=True, atol=1e-4, rtol=1e-4),
    OpInfo("conv3d_transpose", _conv3d_transpose_api,
           lambda x, w, data_format="NCDHW", **kw: _np_conv_transpose_api(
               x, w, data_format=data_format, **kw),
           _transpose_samples(3), second_order=True, atol=1e-4, rtol=1e-4,
           errors=_transpose_errors(3)),
]

for _op, _dims, _depthwise in [("conv2d", 2, False), ("depthwise_conv2d", 2, True),
                               ("conv3d", 3, False)]:
    CONV_OPS.append(OpInfo(f"{_op}_grad", conv_grad_api(f"{_op}_grad"), np_conv_grad,
                           _grad_samples(False, _dims, _depthwise), grad=False,
                           no_grad_reason=GRAD_REASON, atol=1e-4, rtol=1e-4))
for _op, _dims, _depthwise in [("conv2d_transpose", 2, False),
                               ("depthwise_conv2d_transpose", 2, True),
                               ("conv3d_transpose", 3, False)]:
    CONV_OPS.append(OpInfo(f"{_op}_grad", conv_transpose_grad_api(f"{_op}_grad"),
                           np_conv_transpose_grad, _grad_samples(True, _dims, _depthwise),
                           grad=False, no_grad_reason=GRAD_REASON, atol=1e-4, rtol=1e-4))


# ---------------------------------------------------------------- fused_conv2d_add_act

_CONV_ACTIVATIONS = {"identity": lambda v, a: v, "relu": lambda v, a: np.maximum(v, 0),
                     "relu6": lambda v, a: np.clip(v, 0, 6), "relux": lambda v, a: np.clip(v, 0, a),
                     "sigmoid": lambda v, a: 1 / (1 + np.exp(-v)), "tanh": lambda v, a: np.tanh(v)}


def _fused_conv(x, w, bias, residual=None, strides=(1, 1), paddings=(0, 0),
                padding_algorithm="EXPLICIT", dilations=(1, 1), groups=1, data_format="NCHW",
                activation="relu", split_channels=(), exhaustive_search=False,
                workspace_size_MB=512, fuse_alpha=0.0):
    """The op's output followed by its `outputs` list, flat for the harness."""
    output, outputs = paddle._C_ops.fused_conv2d_add_act(
        x, w, bias, residual, list(strides), list(paddings), padding_algorithm, list(dilations),
        groups, data_format, activation, list(split_channels), exhaustive_search,
        workspace_size_MB, fuse_alpha)
    return [output] + list(outputs)


def _np_fused_conv(x, w, bias, residual=None, strides=(1, 1), paddings=(0, 0),
                   padding_algorithm="EXPLICIT", dilations=(1, 1), groups=1, data_format="NCHW",
                   activation="relu", split_channels=(), exhaustive_search=False,
                   workspace_size_MB=512, fuse_alpha=0.0):
    """activation(conv2d + bias + residual), and its channel slices of split_channels' sizes."""
    channel_last = data_format == "NHWC"
    padding = paddings if padding_algorithm == "EXPLICIT" else padding_algorithm
    out = _np_conv_api(x, w, list(strides), list(padding) if padding_algorithm == "EXPLICIT"
                       else padding, list(dilations), groups, data_format)
    out = out + bias.reshape((1, 1, 1, -1) if channel_last else (1, -1, 1, 1))
    if residual is not None:
        out = out + residual
    out = _CONV_ACTIVATIONS[activation](out, fuse_alpha)
    axis = 3 if channel_last else 1
    parts = np.split(out, np.cumsum(split_channels)[:-1], axis) if split_channels else []
    return [out] + parts


def _fused_conv_samples(rng):
    return [
        Sample([uniform(rng, (2, 3, 5, 5)), uniform(rng, (4, 3, 3, 3)), uniform(rng, (4,)),
                uniform(rng, (2, 4, 5, 5))], {"paddings": [1, 1]}),
        Sample([uniform(rng, (1, 4, 7, 6)), uniform(rng, (6, 2, 3, 2)),
                uniform(rng, (1, 6, 1, 1))],
               {"strides": [2, 1], "paddings": [1, 0, 2, 1], "dilations": [1, 2], "groups": 2,
                "activation": "sigmoid", "split_channels": [2, 4]}),
        Sample([uniform(rng, (2, 5, 4, 3)), uniform(rng, (2, 3, 2, 2)), uniform(rng, (2,)),
                uniform(rng, (2, 3, 2, 2))],
               {"padding_algorithm": "SAME", "strides": [2, 2], "data_format": "NHWC",
                "activation": "tanh"}),
        Sample([3 * uniform(rng, (1, 2, 4, 4)), 3 * uniform(rng, (3, 2, 1, 1)),
                uniform(rng, (3,))], {"activation": "relu6"}),
        Sample([uniform(rng, (1, 2, 4, 4)), uniform(rng, (3, 2, 1, 1)), uniform(rng, (3,))],
               {"activation": "relux", "fuse_alpha": 0.25, "split_channels": [1, 1, 1]}),
        Sample([uniform(rng, (1, 2, 4, 4)), uniform(rng, (3, 2, 3, 3)), uniform(rng, (3,))],
               {"activation": "identity", "padding_algorithm": "VALID"}),
        Sample([uniform(rng, (0, 2, 4, 4)), uniform(rng, (3, 2, 3, 3)), uniform(rng, (3,))]),
    ]


def _fused_conv_errors():
    x, w = np.zeros((1, 2, 4, 4)), np.zeros((3, 2, 3, 3))
    return [
        ErrorSample([x, w, np.zeros((3,))], {"activation": "gelu"}, ValueError, "activation"),
        ErrorSample([x, w, np.zeros((4,))], {}, ValueError, "'bias'"),
        ErrorSample([x, w, np.zeros((3,)), np.zeros((1, 3, 4, 4))], {}, ValueError,
                    "residual_data"),
        ErrorSample([x, w, np.zeros((3,))], {"split_channels": [1, 1]}, ValueError,
                    "split_channels"),
        ErrorSample([x, np.zeros((3, 5, 3, 3)), np.zeros((3,))], {}, ValueError,
                    "fused_conv2d_add_act"),
    ]


CONV_OPS.append(OpInfo("fused_conv2d_add_act", _fused_conv, _np_fused_conv, _fused_conv_samples,
                       grad=False, no_grad_reason="an inference-only op without a backward",
                       errors=_fused_conv_errors, atol=1e-4, rtol=1e-4))
