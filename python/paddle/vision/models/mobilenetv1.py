"""MobileNetV1 (depthwise-separable convolutions, width multiplier `scale`), as
paddle.vision.models.mobilenet_v1."""
from ... import flatten
from ... import nn
from ..ops import ConvNormActivation
from ._utils import _with_state, pretrained_weights

model_urls = {
    "mobilenetv1_1.0": ("https://paddle-hapi.bj.bcebos.com/models/mobilenetv1_1.0.pdparams",
                        "3033ab1975b1670bef51545feb65fc45"),
}


class DepthwiseSeparable(nn.Layer):
    """A 3x3 depthwise ConvNormActivation, then a 1x1 pointwise one; the channel counts are
    given unscaled and multiplied by `scale` here."""

    def __init__(self, in_channels, out_channels1, out_channels2, num_groups, stride, scale):
        super().__init__()
        self._depthwise_conv = ConvNormActivation(
            in_channels, int(out_channels1 * scale), kernel_size=3, stride=stride, padding=1,
            groups=int(num_groups * scale))
        self._pointwise_conv = ConvNormActivation(
            int(out_channels1 * scale), int(out_channels2 * scale), kernel_size=1, stride=1,
            padding=0)

    def forward(self, x):
        return self._pointwise_conv(self._depthwise_conv(x))


# (sublayer name, input channels, depthwise channels, pointwise channels, stride) of the 13
# depthwise-separable blocks, unscaled; the names are PaddlePaddle's parameter prefixes.
_BLOCKS = [("conv2_1", 32, 32, 64, 1), ("conv2_2", 64, 64, 128, 2),
           ("conv3_1", 128, 128, 128, 1), ("conv3_2", 128, 128, 256, 2),
           ("conv4_1", 256, 256, 256, 1), ("conv4_2", 256, 256, 512, 2)] + \
          [(f"conv5_{i}", 512, 512, 512, 1) for i in range(1, 6)] + \
          [("conv5_6", 512, 512, 1024, 2), ("conv6", 1024, 1024, 1024, 1)]


class MobileNetV1(nn.Layer):
    """MobileNetV1 with every channel count multiplied by `scale`."""

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.scale = scale
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.conv1 = ConvNormActivation(3, int(32 * scale), kernel_size=3, stride=2, padding=1)
        self.dwsl = []
        for name, in_channels, depthwise, pointwise, stride in _BLOCKS:
            block = DepthwiseSeparable(int(in_channels * scale), depthwise, pointwise,
                                       num_groups=depthwise, stride=stride, scale=scale)
            self.dwsl.append(self.add_sublayer(name, block))
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.fc = nn.Linear(int(1024 * scale), num_classes)

    def forward(self, x):
        x = self.conv1(x)
        for block in self.dwsl:
            x = block(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.fc(flatten(x, 1))
        return x


def mobilenet_v1(pretrained=False, scale=1.0, **kwargs):
    """MobileNetV1(scale, **kwargs); PaddlePaddle has pretrained weights for scale 1.0."""
    state = (pretrained_weights(f"mobilenetv1_{scale}", model_urls,
                                f"mobilenet_v1(scale={scale})") if pretrained else None)
    return _with_state(MobileNetV1(scale=scale, **kwargs), state)
