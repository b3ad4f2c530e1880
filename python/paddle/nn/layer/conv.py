"""Conv1D/2D/3D and their transposes, with Paddle's constructor arguments, parameter names and
shapes (weight [out, in / groups, k...], or [in, out / groups, k...] when transposed; bias
[out]) and initialisation (normal with std sqrt(2 / (in * prod(k))) for a convolution's weight,
Xavier for a transposed one, zero bias), so state dicts interchange with PaddlePaddle."""
import math
import numbers

from ...base.framework import get_default_dtype
from .. import functional as F
from ..initializer import Normal
from .layers import Layer

__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose",
           "Conv3DTranspose"]

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _int_list(value, dims, arg, layer):
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return [int(value)] * dims
    values = list(value)
    if len(values) != dims or not all(isinstance(v, numbers.Integral) for v in values):
        raise ValueError(f"{layer}: '{arg}' must be an int or {dims} ints, received {value}")
    return [int(v) for v in values]


class _ConvNd(Layer):
    def __init__(self, in_channels, out_channels, kernel_size, transposed, dims, stride=1,
                 padding=0, padding_mode="zeros", output_padding=0, dilation=1, groups=1,
                 weight_attr=None, bias_attr=None, data_format="NCHW"):
        super().__init__()
        self._dtype = get_default_dtype()  # Paddle's parameters take the default dtype
        layer = type(self).__name__
        if not isinstance(groups, numbers.Integral) or groups <= 0:
            raise ValueError(f"{layer}: 'groups' must be a positive int, received {groups}")
        if in_channels % groups != 0:
            raise ValueError(f"{layer}: in_channels ({in_channels}) must be divisible by "
                             f"groups ({groups})")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"{layer}: padding_mode must be one of {_PADDING_MODES}, received "
                             f"'{padding_mode}'")
        if padding_mode != "zeros" and isinstance(padding, str):
            raise ValueError(f"{layer}: padding_mode '{padding_mode}' needs a numeric padding, "
                             f"received '{padding}'")
        self._in_channels = in_channels
        self._out_channels = out_channels
        self._data_format = data_format
        self._groups = groups
        self._transposed = transposed
        self._padding_mode = padding_mode
        self.output_padding = output_padding
        self._kernel_size = _int_list(kernel_size, dims, "kernel_size", layer)
        self._stride = _int_list(stride, dims, "stride", layer)
        self._dilation = _int_list(dilation, dims, "dilation", layer)
        self._padding = padding
        if padding_mode != "zeros":
            # F.pad takes (before, after) per dim, last dim first.
            per_dim = _int_list(padding, dims, "padding", layer)
            self._reversed_padding_repeated_twice = [p for p in reversed(per_dim) for _ in (0, 1)]
            self._padding = 0
        if transposed:
            shape = [in_channels, out_channels // groups] + self._kernel_size
            initializer = None
        else:
            shape = [out_channels, in_channels // groups] + self._kernel_size
            std = math.sqrt(2.0 / (math.prod(self._kernel_size) * in_channels))
            initializer = Normal(0.0, std)
        self.weight = self.create_parameter(shape=shape, attr=weight_attr,
                                            default_initializer=initializer)
        self.bias = self.create_parameter(shape=[out_channels], attr=bias_attr, is_bias=True)

    def _padded(self, x):
        if self._padding_mode == "zeros":
            return x
        return F.pad(x, self._reversed_padding_repeated_twice, mode=self._padding_mode,
                     data_format=self._data_format)

    def extra_repr(self):
        s = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * len(self._stride):
            s += f", stride={self._stride}"
        if self._padding != 0:
            s += f", padding={self._padding}"
        if self._padding_mode != "zeros":
            s += f", padding_mode={self._padding_mode}"
        if self.output_padding != 0:
            s += f", output_padding={self.output_padding}"
        if self._dilation != [1] * len(self._dilation):
            s += f", dilation={self._dilation}"
        if self._groups != 1:
            s += f", groups={self._groups}"
        if self._data_format not in ("NCL", "NCHW", "NCDHW"):
            s += f", data_format={self._data_format}"
        return s


class Conv1D(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCL"):
        super().__init__(in_channels, out_channels, kernel_size, False, 1, stride=stride,
                         padding=padding, padding_mode=padding_mode, dilation=dilation,
                         groups=groups, weight_attr=weight_attr, bias_attr=bias_attr,
                         data_format=data_format)

    def forward(self, x):
        return F.conv1d(self._padded(x), self.weight, self.bias, self._stride, self._padding,
                        self._dilation, self._groups, self._data_format)


class Conv2D(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCHW"):
        super().__init__(in_channels, out_channels, kernel_size, False, 2, stride=stride,
                         padding=padding, padding_mode=padding_mode, dilation=dilation,
                         groups=groups, weight_attr=weight_attr, bias_attr=bias_attr,
                         data_format=data_format)

    def forward(self, x):
        return F.conv2d(self._padded(x), self.weight, self.bias, self._stride, self._padding,
                        self._dilation, self._groups, self._data_format)


class Conv3D(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCDHW"):
        super().__init__(in_channels, out_channels, kernel_size, False, 3, stride=stride,
                         padding=padding, padding_mode=padding_mode, dilation=dilation,
                         groups=groups, weight_attr=weight_attr, bias_attr=bias_attr,
                         data_format=data_format)

    def forward(self, x):
        return F.conv3d(self._padded(x), self.weight, self.bias, self._stride, self._padding,
                        self._dilation, self._groups, self._data_format)


class Conv1DTranspose(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, dilation=1, weight_attr=None, bias_attr=None,
                 data_format="NCL"):
        super().__init__(in_channels, out_channels, kernel_size, True, 1, stride=stride,
                         padding=padding, output_padding=output_padding, dilation=dilation,
                         groups=groups, weight_attr=weight_attr, bias_attr=bias_attr,
                         data_format=data_format)

    def forward(self, x, output_size=None):
        return F.conv1d_transpose(x, self.weight, self.bias, self._stride, self._padding,
                                  self.output_padding, self._groups, self._dilation,
                                  output_size, self._data_format)


class Conv2DTranspose(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, dilation=1, groups=1, weight_attr=None, bias_attr=None,
                 data_format="NCHW"):
        super().__init__(in_channels, out_channels, kernel_size, True, 2, stride=stride,
                         padding=padding, output_padding=output_padding, dilation=dilation,
                         groups=groups, weight_attr=weight_attr, bias_attr=bias_attr,
                         data_format=data_format)

    def forward(self, x, output_size=None):
        return F.conv2d_transpose(x, self.weight, self.bias, self._stride, self._padding,
                                  self.output_padding, self._dilation, self._groups,
                                  output_size, self._data_format)


class Conv3DTranspose(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, dilation=1, groups=1, weight_attr=None, bias_attr=None,
                 data_format="NCDHW"):
        super().__init__(in_channels, out_channels, kernel_size, True, 3, stride=stride,
                         padding=padding, output_padding=output_padding, dilation=dilation,
                         groups=groups, weight_attr=weight_attr, bias_attr=bias_attr,
                         data_format=data_format)

    def forward(self, x, output_size=None):
        return F.conv3d_transpose(x, self.weight, self.bias, self._stride, self._padding,
                                  self.output_padding, self._groups, self._dilation,
                                  output_size, self._data_format)
