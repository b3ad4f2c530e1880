"""ShuffleNetV2 at widths 0.25x to 2.0x, with ReLU or swish, as
paddle.vision.models.shufflenet_v2_*."""
from ... import concat, flatten, split
from ... import nn
from ...nn import functional as F
from ..ops import ConvNormActivation
from ._utils import _with_state, pretrained_weights

_HAPI = "https://paddle-hapi.bj.bcebos.com/models/"
model_urls = {
    "shufflenet_v2_x0_25": (_HAPI + "shufflenet_v2_x0_25.pdparams",
                            "1e509b4c140eeb096bb16e214796d03b"),
    "shufflenet_v2_x0_33": (_HAPI + "shufflenet_v2_x0_33.pdparams",
                            "3d7b3ab0eaa5c0927ff1026d31b729bd"),
    "shufflenet_v2_x0_5": (_HAPI + "shufflenet_v2_x0_5.pdparams",
                           "5e5cee182a7793c4e4c73949b1a71bd4"),
    "shufflenet_v2_x1_0": (_HAPI + "shufflenet_v2_x1_0.pdparams",
                           "122d42478b9e81eb49f8a9ede327b1a4"),
    "shufflenet_v2_x1_5": (_HAPI + "shufflenet_v2_x1_5.pdparams",
                           "faced5827380d73531d0ee027c67826d"),
    "shufflenet_v2_x2_0": (_HAPI + "shufflenet_v2_x2_0.pdparams",
                           "cd3dddcd8305e7bcd8ad14d1c69a5784"),
    "shufflenet_v2_swish": (_HAPI + "shufflenet_v2_swish.pdparams",
                            "adde0aa3b023e5b0c94a68be1c394b84"),
}

# The output channels of conv1 and of the three stages, then of the last 1x1 conv, per scale.
_STAGE_OUT_CHANNELS = {
    0.25: [24, 24, 48, 96, 512],
    0.33: [24, 32, 64, 128, 512],
    0.5: [24, 48, 96, 192, 1024],
    1.0: [24, 116, 232, 464, 1024],
    1.5: [24, 176, 352, 704, 1024],
    2.0: [24, 224, 488, 976, 2048],
}


def create_activation_layer(act):
    """The layer class of `act` ('relu', 'swish' or None for none)."""
    activations = {"relu": nn.ReLU, "swish": nn.Swish, None: None}
    if act not in activations:
        raise ValueError(f"ShuffleNetV2: act must be 'relu', 'swish' or None, got {act!r}")
    return activations[act]


def channel_shuffle(x, groups):
    """Interleaves the channels of `groups` equal groups (paddle.nn.functional.channel_shuffle
    on NCHW)."""
    return F.channel_shuffle(x, groups)


class InvertedResidual(nn.Layer):
    """The stride-1 unit: half the channels pass through, the other half go through 1x1,
    3x3 depthwise, 1x1; the halves are concatenated and shuffled."""

    def __init__(self, in_channels, out_channels, stride, activation_layer=nn.ReLU):
        super().__init__()
        half = out_channels // 2
        self._conv_pw = ConvNormActivation(in_channels // 2, half, kernel_size=1, stride=1,
                                           padding=0, groups=1,
                                           activation_layer=activation_layer)
        self._conv_dw = ConvNormActivation(half, half, kernel_size=3, stride=stride, padding=1,
                                           groups=half, activation_layer=None)
        self._conv_linear = ConvNormActivation(half, half, kernel_size=1, stride=1, padding=0,
                                               groups=1, activation_layer=activation_layer)

    def forward(self, inputs):
        half = inputs.shape[1] // 2
        x1, x2 = split(inputs, num_or_sections=[half, half], axis=1)
        x2 = self._conv_linear(self._conv_dw(self._conv_pw(x2)))
        return channel_shuffle(concat([x1, x2], axis=1), 2)


class InvertedResidualDS(nn.Layer):
    """The downsampling unit: two strided branches over the whole input (3x3 depthwise + 1x1,
    and 1x1 + 3x3 depthwise + 1x1), concatenated and shuffled."""

    def __init__(self, in_channels, out_channels, stride, activation_layer=nn.ReLU):
        super().__init__()
        half = out_channels // 2
        self._conv_dw_1 = ConvNormActivation(in_channels, in_channels, kernel_size=3,
                                             stride=stride, padding=1, groups=in_channels,
                                             activation_layer=None)
        self._conv_linear_1 = ConvNormActivation(in_channels, half, kernel_size=1, stride=1,
                                                 padding=0, groups=1,
                                                 activation_layer=activation_layer)
        self._conv_pw_2 = ConvNormActivation(in_channels, half, kernel_size=1, stride=1,
                                             padding=0, groups=1,
                                             activation_layer=activation_layer)
        self._conv_dw_2 = ConvNormActivation(half, half, kernel_size=3, stride=stride,
                                             padding=1, groups=half, activation_layer=None)
        self._conv_linear_2 = ConvNormActivation(half, half, kernel_size=1, stride=1,
                                                 padding=0, groups=1,
                                                 activation_layer=activation_layer)

    def forward(self, inputs):
        x1 = self._conv_linear_1(self._conv_dw_1(inputs))
        x2 = self._conv_linear_2(self._conv_dw_2(self._conv_pw_2(inputs)))
        return channel_shuffle(concat([x1, x2], axis=1), 2)


class ShuffleNetV2(nn.Layer):
    """ShuffleNetV2 of width `scale` (0.25, 0.33, 0.5, 1.0, 1.5 or 2.0) with activation `act`
    ('relu' or 'swish')."""

    def __init__(self, scale=1.0, act="relu", num_classes=1000, with_pool=True):
        super().__init__()
        if scale not in _STAGE_OUT_CHANNELS:
            raise NotImplementedError(
                f"ShuffleNetV2: scale must be one of {sorted(_STAGE_OUT_CHANNELS)}, got {scale}")
        self.scale = scale
        self.num_classes = num_classes
        self.with_pool = with_pool
        stage_repeats = [4, 8, 4]
        activation_layer = create_activation_layer(act)
        channels = _STAGE_OUT_CHANNELS[scale]

        self._conv1 = ConvNormActivation(3, channels[0], kernel_size=3, stride=2, padding=1,
                                         activation_layer=activation_layer)
        self._max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self._block_list = []
        for stage, repeats in enumerate(stage_repeats):
            for i in range(repeats):
                if i == 0:
                    block = InvertedResidualDS(channels[stage], channels[stage + 1], stride=2,
                                               activation_layer=activation_layer)
                else:
                    block = InvertedResidual(channels[stage + 1], channels[stage + 1],
                                             stride=1, activation_layer=activation_layer)
                # PaddlePaddle names the blocks "<stage + 2>_<index + 1>".
                self._block_list.append(self.add_sublayer(f"{stage + 2}_{i + 1}", block))
        self._last_conv = ConvNormActivation(channels[-2], channels[-1], kernel_size=1,
                                             stride=1, padding=0,
                                             activation_layer=activation_layer)
        if with_pool:
            self._pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self._out_c = channels[-1]
            self._fc = nn.Linear(channels[-1], num_classes)

    def forward(self, inputs):
        x = self._max_pool(self._conv1(inputs))
        for block in self._block_list:
            x = block(x)
        x = self._last_conv(x)
        if self.with_pool:
            x = self._pool2d_avg(x)
        if self.num_classes > 0:
            x = self._fc(flatten(x, start_axis=1, stop_axis=-1))
        return x


def _shufflenet_v2(arch, pretrained, scale, kwargs):
    state = pretrained_weights(arch, model_urls, arch) if pretrained else None
    return _with_state(ShuffleNetV2(scale=scale, **kwargs), state)


def shufflenet_v2_x0_25(pretrained=False, **kwargs):
    """ShuffleNetV2 at 0.25x width."""
    return _shufflenet_v2("shufflenet_v2_x0_25", pretrained, 0.25, kwargs)


def shufflenet_v2_x0_33(pretrained=False, **kwargs):
    """ShuffleNetV2 at 0.33x width."""
    return _shufflenet_v2("shufflenet_v2_x0_33", pretrained, 0.33, kwargs)


def shufflenet_v2_x0_5(pretrained=False, **kwargs):
    """ShuffleNetV2 at 0.5x width."""
    return _shufflenet_v2("shufflenet_v2_x0_5", pretrained, 0.5, kwargs)


def shufflenet_v2_x1_0(pretrained=False, **kwargs):
    """ShuffleNetV2 at 1.0x width."""
    return _shufflenet_v2("shufflenet_v2_x1_0", pretrained, 1.0, kwargs)


def shufflenet_v2_x1_5(pretrained=False, **kwargs):
    """ShuffleNetV2 at 1.5x width."""
    return _shufflenet_v2("shufflenet_v2_x1_5", pretrained, 1.5, kwargs)


def shufflenet_v2_x2_0(pretrained=False, **kwargs):
    """ShuffleNetV2 at 2.0x width."""
    return _shufflenet_v2("shufflenet_v2_x2_0", pretrained, 2.0, kwargs)


def shufflenet_v2_swish(pretrained=False, **kwargs):
    """ShuffleNetV2 at 1.0x width with swish activations."""
    return _shufflenet_v2("shufflenet_v2_swish", pretrained, 1.0, dict(kwargs, act="swish"))
