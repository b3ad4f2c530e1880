"""AlexNet (the one-tower variant of "One weird trick", 64-192-384-256-256 channels), as
paddle.vision.models.alexnet. Weights start Uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)), as in
PaddlePaddle."""
import math

from ... import flatten
from ... import nn
from ...nn import functional as F
from ...nn.initializer import Uniform
from ...nn.param_attr import ParamAttr
from ._utils import _with_state, pretrained_weights

model_urls = {
    "alexnet": ("https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/"
                "AlexNet_pretrained.pdparams", "7f0f9f737132e02732d75a1459d98a43"),
}


def _uniform_attr(fan_in):
    bound = 1.0 / math.sqrt(fan_in)
    return ParamAttr(initializer=Uniform(-bound, bound))


class ConvPoolLayer(nn.Layer):
    """Conv2D (+ ReLU when act == 'relu') + 3x3 stride-2 max pool."""

    def __init__(self, input_channels, output_channels, filter_size, stride, padding, stdv,
                 groups=1, act=None):
        super().__init__()
        self.relu = nn.ReLU() if act == "relu" else None
        bound = ParamAttr(initializer=Uniform(-stdv, stdv))
        self._conv = nn.Conv2D(input_channels, output_channels, filter_size, stride=stride,
                               padding=padding, groups=groups, weight_attr=bound,
                               bias_attr=ParamAttr(initializer=Uniform(-stdv, stdv)))
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)

    def forward(self, inputs):
        x = self._conv(inputs)
        if self.relu is not None:
            x = self.relu(x)
        return self._pool(x)


class AlexNet(nn.Layer):
    """Expects 3x224x224 inputs (the classifier reads the 256x6x6 map that size gives);
    num_classes <= 0 returns that map."""

    def __init__(self, num_classes=1000):
        super().__init__()
        self.num_classes = num_classes
        self._conv1 = ConvPoolLayer(3, 64, 11, 4, 2, 1.0 / math.sqrt(3 * 11 * 11), act="relu")
        self._conv2 = ConvPoolLayer(64, 192, 5, 1, 2, 1.0 / math.sqrt(64 * 5 * 5), act="relu")
        self._conv3 = nn.Conv2D(192, 384, 3, stride=1, padding=1,
                                weight_attr=_uniform_attr(192 * 3 * 3),
                                bias_attr=_uniform_attr(192 * 3 * 3))
        self._conv4 = nn.Conv2D(384, 256, 3, stride=1, padding=1,
                                weight_attr=_uniform_attr(384 * 3 * 3),
                                bias_attr=_uniform_attr(384 * 3 * 3))
        self._conv5 = ConvPoolLayer(256, 256, 3, 1, 1, 1.0 / math.sqrt(256 * 3 * 3), act="relu")
        if num_classes > 0:
            # PaddlePaddle initializes all three linear layers from the first one's fan-in.
            fan_in = 256 * 6 * 6
            self._drop1 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc6 = nn.Linear(fan_in, 4096, weight_attr=_uniform_attr(fan_in),
                                  bias_attr=_uniform_attr(fan_in))
            self._drop2 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc7 = nn.Linear(4096, 4096, weight_attr=_uniform_attr(fan_in),
                                  bias_attr=_uniform_attr(fan_in))
            self._fc8 = nn.Linear(4096, num_classes, weight_attr=_uniform_attr(fan_in),
                                  bias_attr=_uniform_attr(fan_in))

    def forward(self, inputs):
        x = self._conv1(inputs)
        x = self._conv2(x)
        x = F.relu(self._conv3(x))
        x = F.relu(self._conv4(x))
        x = self._conv5(x)
        if self.num_classes > 0:
            x = flatten(x, start_axis=1, stop_axis=-1)
            x = F.relu(self._fc6(self._drop1(x)))
            x = F.relu(self._fc7(self._drop2(x)))
            x = self._fc8(x)
        return x


def alexnet(pretrained=False, **kwargs):
    """AlexNet(**kwargs); pretrained=True loads PaddlePaddle's ImageNet weights (see _utils)."""
    state = pretrained_weights("alexnet", model_urls, "alexnet") if pretrained else None
    return _with_state(AlexNet(**kwargs), state)
