"""paddle.vision.ops.ConvNormActivation: the convolution + normalization + activation block that
the MobileNet, ShuffleNetV2 and InceptionV3 models are built from. A Sequential, so its
parameters are named "0.weight" (conv), "1.weight", "1._mean", ... (norm) as in PaddlePaddle."""
from ..nn import BatchNorm2D, Conv2D, ReLU, Sequential


class ConvNormActivation(Sequential):
    """Conv2D, then norm_layer(out_channels) unless it is None, then activation_layer() unless
    it is None. padding=None pads by (kernel_size - 1) // 2 * dilation (size-preserving for odd
    kernels at stride 1); bias=None gives the convolution a bias only when there is no norm."""

    def __init__(self, in_channels, out_channels, kernel_size=3, stride=1, padding=None,
                 groups=1, norm_layer=BatchNorm2D, activation_layer=ReLU, dilation=1,
                 bias=None):
        if padding is None:
            padding = (kernel_size - 1) // 2 * dilation
        if bias is None:
            bias = norm_layer is None
        layers = [Conv2D(in_channels, out_channels, kernel_size, stride, padding,
                         dilation=dilation, groups=groups, bias_attr=bias)]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            layers.append(activation_layer())
        super().__init__(*layers)
