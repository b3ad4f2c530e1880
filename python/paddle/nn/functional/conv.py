"""conv1d/2d/3d and their transposes. Hand-written because Paddle normalises the arguments here
before calling the op: padding as an int, a list per dim, before/after pairs (with or without the
batch and channel dims) or "SAME"/"VALID"; the choice of depthwise_conv2d; the 1-D forms as 2-D
convolutions over a unit height; and the bias added along the channel dim."""
import numbers

from ... import _C_ops
from ...base import generated_api as _api
from ...tensor import math as _math
from ...tensor._helpers import as_int_list, check_tensor

__all__ = ["conv1d", "conv2d", "conv3d", "conv1d_transpose", "conv2d_transpose",
           "conv3d_transpose"]

_FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _int_list(value, count, api, arg):
    """An int repeated `count` times, or a list/tuple of exactly `count` ints."""
    if _is_int(value):
        return [int(value)] * count
    values = as_int_list(value, api, arg)
    if len(values) != count:
        raise ValueError(f"{api}(): argument '{arg}' must be an int or {count} ints, received "
                         f"{value}")
    return values


def _padding(padding, channel_last, dims, api):
    """Paddle's padding forms as (paddings, padding_algorithm)."""
    if isinstance(padding, str):
        algorithm = padding.upper()
        if algorithm not in ("SAME", "VALID"):
            raise ValueError(f"{api}(): unknown padding '{padding}'; it can only be 'SAME' or "
                             f"'VALID'")
        return [0] * dims, algorithm
    if _is_int(padding):
        paddings = [int(padding)] * dims
    elif isinstance(padding, (list, tuple)):
        if len(padding) == dims + 2 and all(isinstance(p, (list, tuple)) for p in padding):
            spatial = padding[1:-1] if channel_last else padding[2:]
            fixed = [padding[0], padding[-1]] if channel_last else padding[:2]
            if any(list(p) != [0, 0] for p in fixed):
                raise ValueError(f"{api}(): non-zero padding {padding} in the batch or channel "
                                 f"dims is not supported")
            paddings = []
            for pair in spatial:
                paddings += as_int_list(pair, api, "padding")
        elif len(padding) in (dims, 2 * dims):
            paddings = as_int_list(padding, api, "padding")
        else:
            raise ValueError(f"{api}(): invalid padding {padding}: expected an int, {dims} ints, "
                             f"{2 * dims} ints or {dims + 2} pairs")
        if len(paddings) == 2 * dims and paddings[0::2] == paddings[1::2]:
            paddings = paddings[0::2]
    else:
        raise TypeError(f"{api}(): 'padding' must be a str, an int or a list, received "
                        f"{type(padding).__name__}")
    if any(p < 0 for p in paddings):
        raise ValueError(f"{api}(): 'padding' must not be negative, received {padding}")
    return paddings, "EXPLICIT"


def _check_format(data_format, dims, api):
    if data_format not in _FORMATS[dims]:
        raise ValueError(f"{api}(): 'data_format' must be '{_FORMATS[dims][0]}' or "
                         f"'{_FORMATS[dims][1]}', received '{data_format}'")
    return data_format == _FORMATS[dims][1]


def _check_input(x, weight, dims, channel_last, groups, api):
    check_tensor(x, api)
    check_tensor(weight, api, "weight")
    if len(x.shape) != dims + 2:
        raise ValueError(f"{api}(): input 'x' must be {dims + 2}-D, received shape {x.shape}")
    if len(weight.shape) != dims + 2:
        raise ValueError(f"{api}(): 'weight' must be {dims + 2}-D, received shape "
                         f"{weight.shape}")
    if not _is_int(groups) or groups <= 0:
        raise ValueError(f"{api}(): 'groups' must be a positive int, received {groups}")
    channels = x.shape[-1 if channel_last else 1]
    if channels >= 0 and channels % groups != 0:
        raise ValueError(f"{api}(): the channels of 'x' ({channels}) must be divisible by "
                         f"'groups' ({groups})")
    return channels


def _add_bias(out, bias, channel_last, api):
    if bias is None:
        return out
    check_tensor(bias, api, "bias")
    if len(bias.shape) != 1:
        raise ValueError(f"{api}(): 'bias' must be 1-D, received shape {bias.shape}")
    if channel_last:
        return _math.add(out, bias)
    shape = [1, -1] + [1] * (len(out.shape) - 2)
    return _math.add(out, _api.reshape(bias, shape))


def _conv(x, weight, bias, stride, padding, dilation, groups, data_format, dims, api):
    channel_last = _check_format(data_format, dims, api)
    channels = _check_input(x, weight, dims, channel_last, groups, api)
    paddings, algorithm = _padding(padding, channel_last, dims, api)
    strides = _int_list(stride, dims, api, "stride")
    dilations = _int_list(dilation, dims, api, "dilation")
    if dims == 3:
        out = _C_ops.conv3d(x, weight, strides, paddings, algorithm, groups, dilations,
                            data_format)
    else:
        filters = weight.shape[0]
        depthwise = (channels == groups and channels != 1 and filters >= 0 and channels > 0
                     and filters % channels == 0)
        op = _C_ops.depthwise_conv2d if depthwise else _C_ops.conv2d
        out = op(x, weight, strides, paddings, algorithm, dilations, groups, data_format)
    return _add_bias(out, bias, channel_last, api)


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCHW",
           name=None):
    """2-D convolution of x [N, C, H, W] (or NHWC) with weight [C_out, C / groups, kh, kw]."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, 2, "conv2d")


def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCDHW",
           name=None):
    """3-D convolution of x [N, C, D, H, W] (or NDHWC) with weight [C_out, C / groups, kd, kh,
    kw]."""
    return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, 3, "conv3d")


def _as_2d(x, weight, channel_last, api):
    """x [N, C, L] as [N, C, 1, L] (NLC: [N, 1, L, C]) and weight [O, I, k] as [O, I, 1, k]."""
    check_tensor(x, api)
    check_tensor(weight, api, "weight")
    if len(x.shape) != 3:
        raise ValueError(f"{api}(): input 'x' must be 3-D, received shape {x.shape}")
    if len(weight.shape) != 3:
        raise ValueError(f"{api}(): 'weight' must be 3-D, received shape {weight.shape}")
    axis = -3 if channel_last else -2
    return _api.unsqueeze(x, [axis]), _api.unsqueeze(weight, [-2]), axis


def _padding_1d(padding, channel_last, api):
    paddings, algorithm = _padding(padding, channel_last, 1, api)
    return [0] * len(paddings) + paddings, algorithm


def conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCL",
           name=None):
    """1-D convolution of x [N, C, L] (or NLC) with weight [C_out, C / groups, k], run as conv2d
    over a unit height, as Paddle does."""
    api = "conv1d"
    channel_last = _check_format(data_format, 1, api)
    x2, w2, axis = _as_2d(x, weight, channel_last, api)
    _check_input(x2, w2, 2, channel_last, groups, api)
    paddings, algorithm = _padding_1d(padding, channel_last, api)
    strides = [1] + _int_list(stride, 1, api, "stride")
    dilations = [1] + _int_list(dilation, 1, api, "dilation")
    out = _C_ops.conv2d(x2, w2, strides, paddings, algorithm, dilations, groups,
                        "NHWC" if channel_last else "NCHW")
    return _add_bias(_api.squeeze(out, [axis]), bias, channel_last, api)


def _transpose_sizes(output_size, output_padding, dims, api):
    """(output_padding, output_size) as the op takes them: [] where not given."""
    if output_size is None:
        sizes = []
    else:
        if output_padding != 0:
            raise ValueError(f"{api}(): 'output_padding' and 'output_size' are mutually "
                             f"exclusive")
        sizes = _int_list(output_size, dims, api, "output_size")
    paddings = [] if output_padding == 0 else _int_list(output_padding, dims, api,
                                                        "output_padding")
    return paddings, sizes


def _conv_transpose(x, weight, bias, stride, padding, output_padding, groups, dilation,
                    output_size, data_format, dims, api):
    channel_last = _check_format(data_format, dims, api)
    channels = _check_input(x, weight, dims, channel_last, groups, api)
    paddings, algorithm = _padding(padding, channel_last, dims, api)
    strides = _int_list(stride, dims, api, "stride")
    dilations = _int_list(dilation, dims, api, "dilation")
    extra, sizes = _transpose_sizes(output_size, output_padding, dims, api)
    if dims == 3:
        op = _C_ops.conv3d_transpose
    else:
        depthwise = channels == groups and channels != 1 and weight.shape[1] == 1
        op = _C_ops.depthwise_conv2d_transpose if depthwise else _C_ops.conv2d_transpose
    out = op(x, weight, strides, paddings, extra, sizes, algorithm, groups, dilations,
             data_format)
    return _add_bias(out, bias, channel_last, api)


def conv2d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, dilation=1,
                     groups=1, output_size=None, data_format="NCHW", name=None):
    """The transposed 2-D convolution (the gradient of conv2d in its input) of x [N, C, H, W]
    with weight [C, C_out / groups, kh, kw]."""
    return _conv_transpose(x, weight, bias, stride, padding, output_padding, groups, dilation,
                           output_size, data_format, 2, "conv2d_transpose")


def conv3d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, output_size=None, data_format="NCDHW", name=None):
    """The transposed 3-D convolution of x [N, C, D, H, W] with weight
    [C, C_out / groups, kd, kh, kw]."""
    return _conv_transpose(x, weight, bias, stride, padding, output_padding, groups, dilation,
                           output_size, data_format, 3, "conv3d_transpose")


def conv1d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, output_size=None, data_format="NCL", name=None):
    """The transposed 1-D convolution of x [N, C, L] with weight [C, C_out / groups, k], run as
    conv2d_transpose over a unit height."""
    api = "conv1d_transpose"
    channel_last = _check_format(data_format, 1, api)
    x2, w2, axis = _as_2d(x, weight, channel_last, api)
    _check_input(x2, w2, 2, channel_last, groups, api)
    paddings, algorithm = _padding_1d(padding, channel_last, api)
    strides = [1] + _int_list(stride, 1, api, "stride")
    dilations = [1] + _int_list(dilation, 1, api, "dilation")
    extra, sizes = _transpose_sizes(output_size, output_padding, 1, api)
    extra = [0] + extra if extra else []
    sizes = [1] + sizes if sizes else []
    out = _C_ops.conv2d_transpose(x2, w2, strides, paddings, extra, sizes, algorithm, groups,
                                  dilations, "NHWC" if channel_last else "NCHW")
    return _add_bias(_api.squeeze(out, [axis]), bias, channel_last, api)
