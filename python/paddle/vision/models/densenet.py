"""DenseNet 121/161/169/201/264, as paddle.vision.models.densenet*. Built, as in PaddlePaddle,
from the legacy paddle.nn.BatchNorm with a fused activation."""
import math

from ... import concat, flatten
from ... import nn
from ...nn.initializer import Uniform
from ...nn.param_attr import ParamAttr
from ._utils import _with_state, pretrained_weights

_IMAGENET = "https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/"
model_urls = {
    "densenet121": (_IMAGENET + "DenseNet121_pretrained.pdparams",
                    "db1b239ed80a905290fd8b01d3af08e4"),
    "densenet161": (_IMAGENET + "DenseNet161_pretrained.pdparams",
                    "62158869cb315098bd25ddbfd308a853"),
    "densenet169": (_IMAGENET + "DenseNet169_pretrained.pdparams",
                    "82cc7c635c3f19098c748850efb2d796"),
    "densenet201": (_IMAGENET + "DenseNet201_pretrained.pdparams",
                    "16ca29565a7712329cf9e36e02caaf58"),
    "densenet264": (_IMAGENET + "DenseNet264_pretrained.pdparams",
                    "3270ce516b85370bba88cfdd9f60bff4"),
}

# layers -> (stem channels, growth rate, dense layers per block)
_SPECS = {121: (64, 32, [6, 12, 24, 16]), 161: (96, 48, [6, 12, 36, 24]),
          169: (64, 32, [6, 12, 32, 32]), 201: (64, 32, [6, 12, 48, 32]),
          264: (64, 32, [6, 12, 64, 48])}


class BNACConvLayer(nn.Layer):
    """BatchNorm + activation, then a bias-free convolution (pre-activation order)."""

    def __init__(self, num_channels, num_filters, filter_size, stride=1, pad=0, groups=1,
                 act="relu"):
        super().__init__()
        self._batch_norm = nn.BatchNorm(num_channels, act=act)
        self._conv = nn.Conv2D(num_channels, num_filters, filter_size, stride=stride,
                               padding=pad, groups=groups, weight_attr=ParamAttr(),
                               bias_attr=False)

    def forward(self, input):
        return self._conv(self._batch_norm(input))


class DenseLayer(nn.Layer):
    """1x1 bottleneck to bn_size * growth_rate, 3x3 to growth_rate, optional dropout; the
    result is concatenated to the input."""

    def __init__(self, num_channels, growth_rate, bn_size, dropout):
        super().__init__()
        self.dropout = dropout
        self.bn_ac_func1 = BNACConvLayer(num_channels, bn_size * growth_rate, filter_size=1,
                                         pad=0, stride=1)
        self.bn_ac_func2 = BNACConvLayer(bn_size * growth_rate, growth_rate, filter_size=3,
                                         pad=1, stride=1)
        if dropout:
            self.dropout_func = nn.Dropout(p=dropout, mode="downscale_in_infer")

    def forward(self, input):
        conv = self.bn_ac_func2(self.bn_ac_func1(input))
        if self.dropout:
            conv = self.dropout_func(conv)
        return concat([input, conv], axis=1)


class DenseBlock(nn.Layer):
    """num_layers DenseLayers, each adding growth_rate channels; they are registered as
    "<name>_<i>"."""

    def __init__(self, num_channels, num_layers, bn_size, growth_rate, dropout, name=None):
        super().__init__()
        self.dropout = dropout
        self.dense_layer_func = []
        channels = num_channels
        for index in range(1, num_layers + 1):
            layer = DenseLayer(channels, growth_rate=growth_rate, bn_size=bn_size,
                               dropout=dropout)
            self.dense_layer_func.append(self.add_sublayer(f"{name}_{index}", layer))
            channels += growth_rate

    def forward(self, input):
        conv = input
        for layer in self.dense_layer_func:
            conv = layer(conv)
        return conv


class TransitionLayer(nn.Layer):
    """BN + ReLU + 1x1 conv to num_output_features, then a 2x2 average pool."""

    def __init__(self, num_channels, num_output_features):
        super().__init__()
        self.conv_ac_func = BNACConvLayer(num_channels, num_output_features, filter_size=1,
                                          pad=0, stride=1)
        self.pool2d_avg = nn.AvgPool2D(kernel_size=2, stride=2, padding=0)

    def forward(self, input):
        return self.pool2d_avg(self.conv_ac_func(input))


class ConvBNLayer(nn.Layer):
    """A bias-free convolution, then BatchNorm + activation."""

    def __init__(self, num_channels, num_filters, filter_size, stride=1, pad=0, groups=1,
                 act="relu"):
        super().__init__()
        self._conv = nn.Conv2D(num_channels, num_filters, filter_size, stride=stride,
                               padding=pad, groups=groups, weight_attr=ParamAttr(),
                               bias_attr=False)
        self._batch_norm = nn.BatchNorm(num_filters, act=act)

    def forward(self, input):
        return self._batch_norm(self._conv(input))


class DenseNet(nn.Layer):
    """DenseNet with `layers` in (121, 161, 169, 201, 264); bn_size is the bottleneck width
    factor and dropout the rate after each dense layer. The final linear layer is named "out"."""

    def __init__(self, layers=121, bn_size=4, dropout=0.0, num_classes=1000, with_pool=True):
        super().__init__()
        if layers not in _SPECS:
            raise ValueError(f"DenseNet: layers must be one of {sorted(_SPECS)}, got {layers}")
        self.num_classes = num_classes
        self.with_pool = with_pool
        num_init_features, growth_rate, block_config = _SPECS[layers]

        self.conv1_func = ConvBNLayer(3, num_init_features, filter_size=7, stride=2, pad=3,
                                      act="relu")
        self.pool2d_max = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.block_config = block_config
        self.dense_block_func_list = []
        self.transition_func_list = []
        num_features = num_init_features
        for i, num_layers in enumerate(block_config):
            block = DenseBlock(num_features, num_layers, bn_size=bn_size,
                               growth_rate=growth_rate, dropout=dropout, name=f"conv{i + 2}")
            self.dense_block_func_list.append(self.add_sublayer(f"db_conv_{i + 2}", block))
            num_features += num_layers * growth_rate
            if i != len(block_config) - 1:
                transition = TransitionLayer(num_features, num_features // 2)
                self.transition_func_list.append(
                    self.add_sublayer(f"tr_conv{i + 2}_blk", transition))
                num_features //= 2
        self.batch_norm = nn.BatchNorm(num_features, act="relu")
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            bound = 1.0 / math.sqrt(num_features * 1.0)
            self.out = nn.Linear(num_features, num_classes,
                                 weight_attr=ParamAttr(initializer=Uniform(-bound, bound)),
                                 bias_attr=ParamAttr())

    def forward(self, input):
        x = self.pool2d_max(self.conv1_func(input))
        for i, block in enumerate(self.dense_block_func_list):
            x = block(x)
            if i < len(self.transition_func_list):
                x = self.transition_func_list[i](x)
        x = self.batch_norm(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.out(flatten(x, start_axis=1, stop_axis=-1))
        return x


def _densenet(arch, layers, pretrained, **kwargs):
    state = pretrained_weights(arch, model_urls, arch) if pretrained else None
    return _with_state(DenseNet(layers=layers, **kwargs), state)


def densenet121(pretrained=False, **kwargs):
    """DenseNet-121."""
    return _densenet("densenet121", 121, pretrained, **kwargs)


def densenet161(pretrained=False, **kwargs):
    """DenseNet-161 (growth rate 48)."""
    return _densenet("densenet161", 161, pretrained, **kwargs)


def densenet169(pretrained=False, **kwargs):
    """DenseNet-169."""
    return _densenet("densenet169", 169, pretrained, **kwargs)


def densenet201(pretrained=False, **kwargs):
    """DenseNet-201."""
    return _densenet("densenet201", 201, pretrained, **kwargs)


def densenet264(pretrained=False, **kwargs):
    """DenseNet-264."""
    return _densenet("densenet264", 264, pretrained, **kwargs)
