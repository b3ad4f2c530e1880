"""SqueezeNet 1.0 and 1.1 (fire modules; the classifier is a 1x1 convolution), as
paddle.vision.models.squeezenet1_0 / squeezenet1_1."""
from ... import concat, squeeze
from ... import nn
from ...nn import functional as F
from ...nn.param_attr import ParamAttr
from ._utils import _with_state, pretrained_weights

model_urls = {
    "squeezenet1_0": ("https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/"
                      "SqueezeNet1_0_pretrained.pdparams", "30b95af60a2178f03cf9b66cd77e1db1"),
    "squeezenet1_1": ("https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/"
                      "SqueezeNet1_1_pretrained.pdparams", "a11250d3a1f91d7131fd095ebbf09eee"),
}


class MakeFireConv(nn.Layer):
    """Conv2D + ReLU."""

    def __init__(self, input_channels, output_channels, filter_size, padding=0):
        super().__init__()
        self._conv = nn.Conv2D(input_channels, output_channels, filter_size, padding=padding,
                               weight_attr=ParamAttr(), bias_attr=ParamAttr())

    def forward(self, x):
        return F.relu(self._conv(x))


class MakeFire(nn.Layer):
    """A fire module: a 1x1 squeeze, then 1x1 and 3x3 expansions concatenated."""

    def __init__(self, input_channels, squeeze_channels, expand1x1_channels,
                 expand3x3_channels):
        super().__init__()
        self._conv = MakeFireConv(input_channels, squeeze_channels, 1)
        self._conv_path1 = MakeFireConv(squeeze_channels, expand1x1_channels, 1)
        self._conv_path2 = MakeFireConv(squeeze_channels, expand3x3_channels, 3, padding=1)

    def forward(self, inputs):
        x = self._conv(inputs)
        return concat([self._conv_path1(x), self._conv_path2(x)], axis=1)


# (input, squeeze, expand 1x1, expand 3x3) channels of the eight fire modules, the first one's
# input (None) being the stem's output; the versions differ in the stem and in where the max
# pools sit.
_FIRES = [(None, 16, 64, 64), (128, 16, 64, 64), (128, 32, 128, 128), (256, 32, 128, 128),
          (256, 48, 192, 192), (384, 48, 192, 192), (384, 64, 256, 256), (512, 64, 256, 256)]
# The fire modules each version runs a max pool before (1-based).
_POOL_BEFORE = {"1.0": (4, 8), "1.1": (3, 5)}


class SqueezeNet(nn.Layer):
    """SqueezeNet `version` '1.0' or '1.1'. The classifier (dropout + 1x1 conv to num_classes)
    is left out when num_classes <= 0; with_pool applies ReLU + global average pool and squeezes
    to [N, C]."""

    def __init__(self, version, num_classes=1000, with_pool=True):
        super().__init__()
        if version not in _POOL_BEFORE:
            raise ValueError(f"SqueezeNet: version must be one of {sorted(_POOL_BEFORE)}, "
                             f"got {version!r}")
        self.version = version
        self.num_classes = num_classes
        self.with_pool = with_pool
        if version == "1.0":
            stem_channels = 96
            self._conv = nn.Conv2D(3, 96, 7, stride=2, weight_attr=ParamAttr(),
                                   bias_attr=ParamAttr())
        else:
            stem_channels = 64
            self._conv = nn.Conv2D(3, 64, 3, stride=2, padding=1, weight_attr=ParamAttr(),
                                   bias_attr=ParamAttr())
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        for index, (inputs, squeeze_ch, expand1, expand3) in enumerate(_FIRES, start=1):
            fire = MakeFire(inputs or stem_channels, squeeze_ch, expand1, expand3)
            setattr(self, f"_conv{index}", fire)
        self._drop = nn.Dropout(p=0.5, mode="downscale_in_infer")
        self._conv9 = nn.Conv2D(512, num_classes, 1, weight_attr=ParamAttr(),
                                bias_attr=ParamAttr())
        self._avg_pool = nn.AdaptiveAvgPool2D(1)

    def forward(self, inputs):
        x = self._pool(F.relu(self._conv(inputs)))
        pool_before = _POOL_BEFORE[self.version]
        for index in range(1, len(_FIRES) + 1):
            if index in pool_before:
                x = self._pool(x)
            x = getattr(self, f"_conv{index}")(x)
        if self.num_classes > 0:
            x = self._conv9(self._drop(x))
        if self.with_pool:
            x = squeeze(self._avg_pool(F.relu(x)), axis=[2, 3])
        return x


def _squeezenet(arch, version, pretrained, **kwargs):
    state = pretrained_weights(arch, model_urls, arch) if pretrained else None
    return _with_state(SqueezeNet(version, **kwargs), state)


def squeezenet1_0(pretrained=False, **kwargs):
    """SqueezeNet 1.0."""
    return _squeezenet("squeezenet1_0", "1.0", pretrained, **kwargs)


def squeezenet1_1(pretrained=False, **kwargs):
    """SqueezeNet 1.1 (2.4x less computation than 1.0 at the same accuracy)."""
    return _squeezenet("squeezenet1_1", "1.1", pretrained, **kwargs)
