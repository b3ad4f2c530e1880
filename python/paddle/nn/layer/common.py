"""Linear, Identity, Flatten, Dropout and the upsampling layers."""
from ...base.framework import get_default_dtype
from ...base.generated_api import flatten
from .. import functional as F
from .layers import Layer

__all__ = ["Linear", "Identity", "Flatten", "Dropout", "Upsample", "UpsamplingNearest2D",
           "UpsamplingBilinear2D"]


class Linear(Layer):
    """y = x @ weight + bias with weight of shape [in_features, out_features] (Paddle's layout,
    the transpose of PyTorch's). The weight starts XavierUniform, the bias zero; bias_attr=False
    leaves the bias out."""

    def __init__(self, in_features, out_features, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        self._dtype = get_default_dtype()
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self.weight = self.create_parameter(shape=[in_features, out_features],
                                            attr=self._weight_attr, dtype=self._dtype,
                                            is_bias=False)
        self.bias = self.create_parameter(shape=[out_features], attr=self._bias_attr,
                                          dtype=self._dtype, is_bias=True)
        self.name = name

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        name_str = f", name={self.name}" if self.name else ""
        return (f"in_features={self.weight.shape[0]}, out_features={self.weight.shape[1]}, "
                f"dtype={self._dtype}{name_str}")


class Identity(Layer):
    """Returns its input; accepts and ignores any constructor arguments."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Flatten(Layer):
    """Flattens the dims start_axis..stop_axis into one."""

    def __init__(self, start_axis=1, stop_axis=-1):
        super().__init__()
        self.start_axis = start_axis
        self.stop_axis = stop_axis

    def forward(self, input):
        return flatten(input, self.start_axis, self.stop_axis)


class Dropout(Layer):
    """F.dropout in training mode, the identity (or the (1-p) scaling of
    'downscale_in_infer') in eval mode."""

    def __init__(self, p=0.5, axis=None, mode="upscale_in_train", name=None):
        super().__init__()
        self.p = p
        self.axis = axis
        self.mode = mode
        self.name = name

    def forward(self, input):
        return F.dropout(input, p=self.p, axis=self.axis, training=self.training,
                         mode=self.mode)

    def extra_repr(self):
        name_str = f", name={self.name}" if self.name else ""
        return f"p={self.p}, axis={self.axis}, mode={self.mode}{name_str}"


class Upsample(Layer):
    """F.interpolate with the layer's arguments: resizes the spatial dims of its input to `size`
    or by `scale_factor`."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=False,
                 align_mode=0, data_format=None, recompute_scale_factor=None, name=None):
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.mode = mode.lower() if isinstance(mode, str) else mode
        self.align_corners = align_corners
        self.align_mode = align_mode
        self.data_format = data_format
        self.recompute_scale_factor = recompute_scale_factor
        self.name = name

    def forward(self, x):
        return F.interpolate(x, size=self.size, scale_factor=self.scale_factor, mode=self.mode,
                             align_corners=self.align_corners, align_mode=self.align_mode,
                             data_format=self.data_format,
                             recompute_scale_factor=self.recompute_scale_factor, name=self.name)

    def extra_repr(self):
        main = (f"scale_factor={self.scale_factor}" if self.scale_factor is not None
                else f"size={self.size}")
        name_str = f", name={self.name}" if self.name else ""
        return (f"{main}, mode={self.mode}, align_corners={self.align_corners}, "
                f"align_mode={self.align_mode}, data_format={self.data_format}{name_str}")


class UpsamplingNearest2D(Layer):
    """Nearest-neighbour resizing of a 4-D input to `size` or by `scale_factor`."""

    def __init__(self, size=None, scale_factor=None, data_format="NCHW", name=None):
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.data_format = data_format
        self.name = name

    def forward(self, x):
        return F.interpolate(x, size=self.size, scale_factor=self.scale_factor, mode="nearest",
                             align_corners=False, align_mode=0, data_format=self.data_format,
                             name=self.name)

    def extra_repr(self):
        main = (f"scale_factor={self.scale_factor}" if self.scale_factor is not None
                else f"size={self.size}")
        name_str = f", name={self.name}" if self.name else ""
        return f"{main}, data_format={self.data_format}{name_str}"


class UpsamplingBilinear2D(Layer):
    """Bilinear resizing of a 4-D input to `size` or by `scale_factor`, the corner pixels'
    centres aligned (align_corners=True)."""

    def __init__(self, size=None, scale_factor=None, data_format="NCHW", name=None):
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.data_format = data_format
        self.name = name

    def forward(self, x):
        return F.interpolate(x, size=self.size, scale_factor=self.scale_factor, mode="bilinear",
                             align_corners=True, align_mode=0, data_format=self.data_format,
                             name=self.name)

    def extra_repr(self):
        main = (f"scale_factor={self.scale_factor}" if self.scale_factor is not None
                else f"size={self.size}")
        name_str = f", name={self.name}" if self.name else ""
        return f"{main}, data_format={self.data_format}{name_str}"
