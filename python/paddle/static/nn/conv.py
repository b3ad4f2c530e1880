"""paddle.static.nn's conv2d, conv3d and their transposes: each creates its filter and bias in the
current main program (initialised by the startup program), named like Paddle's
("conv2d_0.w_0", "conv2d_0.b_0"), appends the convolution and applies `act`."""
import math
import numbers

from ...nn import functional as F
from ...nn.initializer import Normal
from ...nn.parameter import _make_parameter
from ...utils import unique_name
from .common import _activate, _check_variable, _static_only

__all__ = ["conv2d", "conv3d", "conv2d_transpose", "conv3d_transpose"]

_CHANNEL_LAST = ("NHWC", "NDHWC")


def _sizes(value, dims, api, arg):
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return [int(value)] * dims
    values = list(value)
    if len(values) != dims:
        raise ValueError(f"{api}(): '{arg}' must be an int or {dims} ints, received {value}")
    return [int(v) for v in values]


def _channels(input, data_format, api):
    _check_variable(input, api, "input")
    channels = input.shape[-1 if data_format in _CHANNEL_LAST else 1]
    if channels < 0:
        raise ValueError(f"{api}(): the channel dim of 'input' must be known, but input has "
                         f"shape {input.shape} ({data_format})")
    return channels


def _groups(groups, channels, api):
    groups = 1 if groups is None else groups
    if not isinstance(groups, numbers.Integral) or groups <= 0 or channels % groups:
        raise ValueError(f"{api}(): 'groups' ({groups}) must be a positive divisor of the "
                         f"input's channels ({channels})")
    return groups


def _conv(api, dims, input, num_filters, filter_size, stride, padding, dilation, groups,
          param_attr, bias_attr, act, name, data_format):
    _static_only(api)
    channels = _channels(input, data_format, api)
    groups = _groups(groups, channels, api)
    kernel = _sizes(filter_size, dims, api, "filter_size")
    owner = name or unique_name.generate(api)
    # Paddle's default: normal with std sqrt(2 / fan_in).
    std = math.sqrt(2.0 / (math.prod(kernel) * channels))
    weight = _make_parameter(owner, [num_filters, channels // groups] + kernel, param_attr,
                             input.dtype, default_initializer=Normal(0.0, std))
    bias = _make_parameter(owner, [num_filters], bias_attr, input.dtype, is_bias=True)
    conv = F.conv2d if dims == 2 else F.conv3d
    out = conv(input, weight, bias, stride, padding, dilation, groups, data_format)
    return _activate(out, act, api)


def conv2d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None,
           param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
           data_format="NCHW"):
    """A 2-D convolution layer with a [num_filters, C / groups, kh, kw] filter and a bias."""
    return _conv("conv2d", 2, input, num_filters, filter_size, stride, padding, dilation,
                 groups, param_attr, bias_attr, act, name, data_format)


def conv3d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None,
           param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
           data_format="NCDHW"):
    """A 3-D convolution layer with a [num_filters, C / groups, kd, kh, kw] filter and a bias."""
    return _conv("conv3d", 3, input, num_filters, filter_size, stride, padding, dilation,
                 groups, param_attr, bias_attr, act, name, data_format)


def _conv_transpose(api, dims, input, num_filters, output_size, filter_size, padding, stride,
                    dilation, groups, param_attr, bias_attr, act, name, data_format):
    _static_only(api)
    channels = _channels(input, data_format, api)
    groups = _groups(groups, channels, api)
    strides = _sizes(stride, dims, api, "stride")
    dilations = _sizes(dilation, dims, api, "dilation")
    if filter_size is None:
        # The smallest filter that reaches output_size, as Paddle derives it.
        if output_size is None:
            raise ValueError(f"{api}(): 'output_size' and 'filter_size' cannot both be None")
        if isinstance(padding, str):
            raise ValueError(f"{api}(): a string padding needs an explicit 'filter_size'")
        sizes = _sizes(output_size, dims, api, "output_size")
        pads = _sizes(padding, dims, api, "padding")
        spatial = input.shape[1:-1] if data_format in _CHANNEL_LAST else input.shape[2:]
        if any(s < 0 for s in spatial):
            raise ValueError(f"{api}(): the spatial dims of 'input' must be known to derive "
                             f"'filter_size', but input has shape {input.shape}")
        kernel = [(o - (i - 1) * s + 2 * p - 1) // d + 1
                  for o, i, s, p, d in zip(sizes, spatial, strides, pads, dilations)]
    else:
        kernel = _sizes(filter_size, dims, api, "filter_size")
    owner = name or unique_name.generate(api)
    weight = _make_parameter(owner, [channels, num_filters // groups] + kernel, param_attr,
                             input.dtype)
    bias = _make_parameter(owner, [num_filters], bias_attr, input.dtype, is_bias=True)
    if dims == 2:
        out = F.conv2d_transpose(input, weight, bias, strides, padding, 0, dilations, groups,
                                 output_size, data_format)
    else:
        out = F.conv3d_transpose(input, weight, bias, strides, padding, 0, groups, dilations,
                                 output_size, data_format)
    return _activate(out, act, api)


def conv2d_transpose(input, num_filters, output_size=None, filter_size=None, padding=0,
                     stride=1, dilation=1, groups=None, param_attr=None, bias_attr=None,
                     use_cudnn=True, act=None, name=None, data_format="NCHW"):
    """A 2-D transposed convolution layer with a [C, num_filters / groups, kh, kw] filter (derived
    from output_size when filter_size is None) and a bias."""
    return _conv_transpose("conv2d_transpose", 2, input, num_filters, output_size, filter_size,
                           padding, stride, dilation, groups, param_attr, bias_attr, act, name,
                           data_format)


def conv3d_transpose(input, num_filters, output_size=None, filter_size=None, padding=0,
                     stride=1, dilation=1, groups=None, param_attr=None, bias_attr=None,
                     use_cudnn=True, act=None, name=None, data_format="NCDHW"):
    """A 3-D transposed convolution layer with a [C, num_filters / groups, kd, kh, kw] filter and
    a bias."""
    return _conv_transpose("conv3d_transpose", 3, input, num_filters, output_size, filter_size,
                           padding, stride, dilation, groups, param_attr, bias_attr, act, name,
                           data_format)
