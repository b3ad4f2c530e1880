"""The RoI pooling functions of paddle.vision.ops (roi_align, roi_pool, psroi_pool), the
deformable convolution (deform_conv2d) and their layers (RoIAlign, RoIPool, PSRoIPool,
DeformConv2D). Hand-written because Paddle normalises the arguments here before calling the op:
output_size as an int or an (h, w) pair, psroi_pool's output channels from x's channels,
roi_pool's arg_max left out, the op type deformable_conv_v1 when there is no mask (as Paddle's
static programs hold it) and the bias added along the channel dim. The ops are declared in
paddle/ops/yaml/roi.yaml."""
import math
import numbers

from .. import _C_ops
from ..base import generated_api as _api
from ..nn.initializer import Normal
from ..nn.layer.layers import Layer
from ..tensor import math as _math
from ..tensor._helpers import as_int_list, check_tensor

__all__ = ["roi_align", "RoIAlign", "roi_pool", "RoIPool", "psroi_pool", "PSRoIPool",
           "deform_conv2d", "DeformConv2D"]


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _output_size(output_size, api):
    """(pooled_height, pooled_width) from an int or a pair of ints."""
    if _is_int(output_size):
        size = [int(output_size)] * 2
    elif isinstance(output_size, (list, tuple)):
        size = as_int_list(output_size, api, "output_size")
        if len(size) != 2:
            raise ValueError(f"{api}(): argument 'output_size' must be an int or 2 ints (h, w), "
                             f"received {output_size}")
    else:
        raise TypeError(f"{api}(): argument 'output_size' must be an int or a tuple of 2 ints, "
                        f"not {type(output_size).__name__}")
    if min(size) <= 0:
        raise ValueError(f"{api}(): argument 'output_size' must be positive, received "
                         f"{output_size}")
    return size


def _check_rois(x, boxes, boxes_num, api):
    check_tensor(x, api)
    check_tensor(boxes, api, "boxes")
    if boxes_num is not None:
        check_tensor(boxes_num, api, "boxes_num")


def roi_align(x, boxes, boxes_num, output_size, spatial_scale=1.0, sampling_ratio=-1,
              aligned=True, name=None):
    """RoI Align (Mask R-CNN): the average of bilinear samples in each of the output_size bins
    of each box of `boxes` [num_boxes, 4] (x1, y1, x2, y2) over the image of x [N, C, H, W] that
    `boxes_num` [N] assigns it to; returns [num_boxes, C, h, w]. sampling_ratio samples per bin
    side (adaptive when <= 0); aligned shifts the boxes by -0.5 pixel (Detectron2)."""
    _check_rois(x, boxes, boxes_num, "roi_align")
    pooled_height, pooled_width = _output_size(output_size, "roi_align")
    return _C_ops.roi_align(x, boxes, boxes_num, pooled_height, pooled_width, spatial_scale,
                            sampling_ratio, aligned)


def roi_pool(x, boxes, boxes_num, output_size, spatial_scale=1.0, name=None):
    """RoI pooling (Fast R-CNN): the maximum of each of the output_size bins of each box over
    the image of x it belongs to; returns [num_boxes, C, h, w]."""
    _check_rois(x, boxes, boxes_num, "roi_pool")
    pooled_height, pooled_width = _output_size(output_size, "roi_pool")
    out, _ = _C_ops.roi_pool(x, boxes, boxes_num, pooled_height, pooled_width, spatial_scale)
    return out


def psroi_pool(x, boxes, boxes_num, output_size, spatial_scale=1.0, name=None):
    """Position-sensitive RoI pooling (R-FCN): bin (i, j) of output channel c averages input
    channel (c * h + i) * w + j over the bin; returns [num_boxes, C / (h * w), h, w]."""
    _check_rois(x, boxes, boxes_num, "psroi_pool")
    pooled_height, pooled_width = _output_size(output_size, "psroi_pool")
    if len(x.shape) != 4:
        raise ValueError(f"psroi_pool(): argument 'x' must be a 4-D tensor [N, C, H, W], received "
                         f"shape {x.shape}")
    channels, bins = x.shape[1], pooled_height * pooled_width
    if channels < 0:
        raise ValueError("psroi_pool(): the channels of 'x' must be known: the output has "
                         "channels / (h * w) of them")
    if channels % bins != 0:
        raise ValueError(f"psroi_pool(): the channels of 'x' ({channels}) must be divisible by "
                         f"output_size h * w ({bins})")
    return _C_ops.psroi_pool(x, boxes, boxes_num, pooled_height, pooled_width, channels // bins,
                             spatial_scale)


def _pair(value, api, arg):
    """An int repeated for (H, W), or a list/tuple of exactly 2 ints."""
    if _is_int(value):
        return [int(value)] * 2
    values = as_int_list(value, api, arg)
    if len(values) != 2:
        raise ValueError(f"{api}(): argument '{arg}' must be an int or 2 ints, received {value}")
    return values


def deform_conv2d(x, offset, weight, bias=None, stride=1, padding=0, dilation=1,
                  deformable_groups=1, groups=1, mask=None, name=None):
    """Deformable convolution: each kernel tap of the convolution of x [N, C, H, W] with weight
    [C_out, C / groups, kh, kw] reads x, by bilinear interpolation, at its position moved by
    offset [N, deformable_groups * 2 * kh * kw, H_out, W_out] ((dy, dx) per tap), times mask
    [N, deformable_groups * kh * kw, H_out, W_out] when given (DCN v2; v1 without)."""
    api = "deform_conv2d"
    check_tensor(x, api)
    check_tensor(offset, api, "offset")
    check_tensor(weight, api, "weight")
    strides = _pair(stride, api, "stride")
    paddings = _pair(padding, api, "padding")
    dilations = _pair(dilation, api, "dilation")
    if mask is None:
        out = _C_ops.deformable_conv_v1(x, offset, weight, strides, paddings, dilations,
                                        deformable_groups, groups, 1)
    else:
        check_tensor(mask, api, "mask")
        out = _C_ops.deformable_conv(x, offset, weight, mask, strides, paddings, dilations,
                                     deformable_groups, groups, 1)
    if bias is None:
        return out
    check_tensor(bias, api, "bias")
    if len(bias.shape) != 1:
        raise ValueError(f"{api}(): 'bias' must be 1-D, received shape {bias.shape}")
    return _math.add(out, _api.reshape(bias, [1, -1, 1, 1]))


# ---------------------------------------------------------------- layers

class RoIAlign(Layer):
    """roi_align with a fixed output_size and spatial_scale."""

    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num, aligned=True):
        return roi_align(x, boxes, boxes_num, self._output_size, self._spatial_scale,
                         aligned=aligned)

    def extra_repr(self):
        return f"output_size={self._output_size}, spatial_scale={self._spatial_scale}"


class RoIPool(Layer):
    """roi_pool with a fixed output_size and spatial_scale."""

    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num):
        return roi_pool(x, boxes, boxes_num, self._output_size, self._spatial_scale)

    def extra_repr(self):
        return f"output_size={self._output_size}, spatial_scale={self._spatial_scale}"


class PSRoIPool(Layer):
    """psroi_pool with a fixed output_size and spatial_scale."""

    def __init__(self, output_size, spatial_scale=1.0):
        super().__init__()
        self.output_size = output_size
        self.spatial_scale = spatial_scale

    def forward(self, x, boxes, boxes_num):
        return psroi_pool(x, boxes, boxes_num, self.output_size, self.spatial_scale)

    def extra_repr(self):
        return f"output_size={self.output_size}, spatial_scale={self.spatial_scale}"


class DeformConv2D(Layer):
    """deform_conv2d with Paddle's parameters: weight [out_channels, in_channels / groups, kh,
    kw], normal with std sqrt(2 / (kh * kw * in_channels)), and bias [out_channels], zero
    (bias_attr=False leaves it out). forward(x, offset, mask=None)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 deformable_groups=1, groups=1, weight_attr=None, bias_attr=None):
        super().__init__()
        layer = "DeformConv2D"
        if weight_attr is False:
            raise ValueError(f"{layer}: weight_attr must not be False; a convolution has a weight")
        if not _is_int(groups) or groups <= 0:
            raise ValueError(f"{layer}: 'groups' must be a positive int, received {groups}")
        if in_channels % groups != 0:
            raise ValueError(f"{layer}: in_channels ({in_channels}) must be divisible by groups "
                             f"({groups})")
        self._in_channels = in_channels
        self._out_channels = out_channels
        self._deformable_groups = deformable_groups
        self._groups = groups
        self._kernel_size = _pair(kernel_size, layer, "kernel_size")
        self._stride = _pair(stride, layer, "stride")
        self._padding = _pair(padding, layer, "padding")
        self._dilation = _pair(dilation, layer, "dilation")
        std = math.sqrt(2.0 / (math.prod(self._kernel_size) * in_channels))
        self.weight = self.create_parameter(
            shape=[out_channels, in_channels // groups] + self._kernel_size, attr=weight_attr,
            default_initializer=Normal(0.0, std))
        self.bias = self.create_parameter(shape=[out_channels], attr=bias_attr, is_bias=True)

    def forward(self, x, offset, mask=None):
        return deform_conv2d(x, offset, self.weight, self.bias, self._stride, self._padding,
                             self._dilation, self._deformable_groups, self._groups, mask)

    def extra_repr(self):
        s = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1, 1]:
            s += f", stride={self._stride}"
        if self._padding != [0, 0]:
            s += f", padding={self._padding}"
        if self._dilation != [1, 1]:
            s += f", dilation={self._dilation}"
        if self._deformable_groups != 1:
            s += f", deformable_groups={self._deformable_groups}"
        if self._groups != 1:
            s += f", groups={self._groups}"
        return s
