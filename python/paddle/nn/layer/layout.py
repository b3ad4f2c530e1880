"""The layout layers: Pad1D/2D/3D and ZeroPad1D/2D/3D, PixelShuffle, PixelUnshuffle,
ChannelShuffle, Unfold, Fold and Unflatten. None has parameters; each holds its arguments and
calls its function."""
import numbers

from ...tensor.manipulation import unflatten
from .. import functional as F
from .layers import Layer

__all__ = ["Pad1D", "Pad2D", "Pad3D", "ZeroPad1D", "ZeroPad2D", "ZeroPad3D", "PixelShuffle",
           "PixelUnshuffle", "ChannelShuffle", "Unfold", "Fold", "Unflatten"]


def _name_str(name):
    return f", name={name}" if name else ""


class _PadND(Layer):
    """F.pad over the spatial dims; an int padding pads every side by it."""
    _SIDES = 0  # 2 * the number of spatial dims

    def __init__(self, padding, mode, value, data_format, name):
        super().__init__()
        if isinstance(padding, numbers.Integral) and not isinstance(padding, bool):
            padding = [int(padding)] * self._SIDES
        self._pad = padding
        self._mode = mode
        self._value = value
        self._data_format = data_format
        self._name = name

    def forward(self, x):
        return F.pad(x, pad=self._pad, mode=self._mode, value=self._value,
                     data_format=self._data_format)

    def extra_repr(self):
        return (f"padding={self._pad}, mode={self._mode}, value={self._value}, "
                f"data_format={self._data_format}{_name_str(self._name)}")


class Pad1D(_PadND):
    """Pads the L dim of a 3-D input: padding = [left, right] (or an int for both)."""
    _SIDES = 2

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCL", name=None):
        super().__init__(padding, mode, value, data_format, name)


class Pad2D(_PadND):
    """Pads H and W of a 4-D input: padding = [left, right, top, bottom] (or an int for all)."""
    _SIDES = 4

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCHW", name=None):
        super().__init__(padding, mode, value, data_format, name)


class Pad3D(_PadND):
    """Pads D, H and W of a 5-D input: padding = [left, right, top, bottom, front, back] (or an
    int for all)."""
    _SIDES = 6

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCDHW", name=None):
        super().__init__(padding, mode, value, data_format, name)


class ZeroPad1D(Pad1D):
    def __init__(self, padding, data_format="NCL", name=None):
        super().__init__(padding, "constant", 0.0, data_format, name)

    def extra_repr(self):
        return f"padding={self._pad}, data_format={self._data_format}{_name_str(self._name)}"


class ZeroPad2D(Pad2D):
    def __init__(self, padding, data_format="NCHW", name=None):
        super().__init__(padding, "constant", 0.0, data_format, name)

    def extra_repr(self):
        return f"padding={self._pad}, data_format={self._data_format}{_name_str(self._name)}"


class ZeroPad3D(Pad3D):
    def __init__(self, padding, data_format="NCDHW", name=None):
        super().__init__(padding, "constant", 0.0, data_format, name)

    def extra_repr(self):
        return f"padding={self._pad}, data_format={self._data_format}{_name_str(self._name)}"


def _check_factor(layer, value, arg):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise TypeError(f"{layer}: argument '{arg}' must be an int, not {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{layer}: argument '{arg}' must be positive, received {value}")


def _check_format(layer, data_format):
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"{layer}: argument 'data_format' must be 'NCHW' or 'NHWC', received "
                         f"{data_format!r}")


class PixelShuffle(Layer):
    """[N, C*r*r, H, W] -> [N, C, H*r, W*r] (F.pixel_shuffle)."""

    def __init__(self, upscale_factor, data_format="NCHW", name=None):
        super().__init__()
        _check_factor("PixelShuffle", upscale_factor, "upscale_factor")
        _check_format("PixelShuffle", data_format)
        self._upscale_factor = upscale_factor
        self._data_format = data_format
        self._name = name

    def forward(self, x):
        return F.pixel_shuffle(x, self._upscale_factor, self._data_format)

    def extra_repr(self):
        fmt = f", data_format={self._data_format}" if self._data_format != "NCHW" else ""
        return f"upscale_factor={self._upscale_factor}{fmt}{_name_str(self._name)}"


class PixelUnshuffle(Layer):
    """[N, C, H*r, W*r] -> [N, C*r*r, H, W] (F.pixel_unshuffle)."""

    def __init__(self, downscale_factor, data_format="NCHW", name=None):
        super().__init__()
        _check_factor("PixelUnshuffle", downscale_factor, "downscale_factor")
        _check_format("PixelUnshuffle", data_format)
        self._downscale_factor = downscale_factor
        self._data_format = data_format
        self._name = name

    def forward(self, x):
        return F.pixel_unshuffle(x, self._downscale_factor, self._data_format)

    def extra_repr(self):
        fmt = f", data_format={self._data_format}" if self._data_format != "NCHW" else ""
        return f"downscale_factor={self._downscale_factor}{fmt}{_name_str(self._name)}"


class ChannelShuffle(Layer):
    """Interleaves `groups` groups of channels (F.channel_shuffle)."""

    def __init__(self, groups, data_format="NCHW", name=None):
        super().__init__()
        _check_factor("ChannelShuffle", groups, "groups")
        _check_format("ChannelShuffle", data_format)
        self._groups = groups
        self._data_format = data_format
        self._name = name

    def forward(self, x):
        return F.channel_shuffle(x, self._groups, self._data_format)

    def extra_repr(self):
        fmt = f", data_format={self._data_format}" if self._data_format != "NCHW" else ""
        return f"groups={self._groups}{fmt}{_name_str(self._name)}"


class Unfold(Layer):
    """F.unfold (im2col). Note Paddle's argument order: dilations before paddings and strides."""

    def __init__(self, kernel_sizes, dilations=1, paddings=0, strides=1, name=None):
        super().__init__()
        self.kernel_sizes = kernel_sizes
        self.dilations = dilations
        self.paddings = paddings
        self.strides = strides
        self.name = name

    def forward(self, input):
        return F.unfold(input, kernel_sizes=self.kernel_sizes, strides=self.strides,
                        paddings=self.paddings, dilations=self.dilations)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, "
                f"padding={self.paddings}, stride={self.strides}{_name_str(self.name)}")


class Fold(Layer):
    """F.fold (col2im), with Unfold's argument order."""

    def __init__(self, output_sizes, kernel_sizes, dilations=1, paddings=0, strides=1, name=None):
        super().__init__()
        self.output_sizes = output_sizes
        self.kernel_sizes = kernel_sizes
        self.dilations = dilations
        self.paddings = paddings
        self.strides = strides
        self.name = name

    def forward(self, input):
        return F.fold(input, self.output_sizes, self.kernel_sizes, strides=self.strides,
                      paddings=self.paddings, dilations=self.dilations)

    def extra_repr(self):
        return (f"output_sizes={self.output_sizes}, kernel_size={self.kernel_sizes}, "
                f"dilation={self.dilations}, padding={self.paddings}, "
                f"stride={self.strides}{_name_str(self.name)}")


class Unflatten(Layer):
    """paddle.unflatten: splits dimension `axis` into `shape`."""

    def __init__(self, axis, shape, name=None):
        super().__init__()
        self.axis = axis
        self.shape = shape
        self.name = name

    def forward(self, input):
        return unflatten(input, axis=self.axis, shape=self.shape)

    def extra_repr(self):
        return f"axis={self.axis}, shape={self.shape}{_name_str(self.name)}"
