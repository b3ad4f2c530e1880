"""VGG 11/13/16/19 (configurations A, B, D, E of Simonyan & Zisserman), with or without batch
norm, as paddle.vision.models.vgg*."""
from ... import flatten
from ... import nn
from ._utils import _with_state, pretrained_weights

model_urls = {
    "vgg16": ("https://paddle-hapi.bj.bcebos.com/models/vgg16.pdparams",
              "89bbffc0f87d260be9b8cdc169c991c4"),
    "vgg19": ("https://paddle-hapi.bj.bcebos.com/models/vgg19.pdparams",
              "23b18bb13d8894f60f54e642be79a0dd"),
}

# Output channels of each 3x3 convolution; "M" is a 2x2 max pool.
cfgs = {
    "A": [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "B": [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "D": [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M",
          512, 512, 512, "M"],
    "E": [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M",
          512, 512, 512, 512, "M"],
}


class VGG(nn.Layer):
    """`features` (from make_layers) + adaptive 7x7 average pool (with_pool) + the three-layer
    classifier (num_classes > 0). Without the pool the features must already be 512x7x7."""

    def __init__(self, features, num_classes=1000, with_pool=True):
        super().__init__()
        self.features = features
        self.num_classes = num_classes
        self.with_pool = with_pool
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((7, 7))
        if num_classes > 0:
            self.classifier = nn.Sequential(
                nn.Linear(512 * 7 * 7, 4096), nn.ReLU(), nn.Dropout(),
                nn.Linear(4096, 4096), nn.ReLU(), nn.Dropout(),
                nn.Linear(4096, num_classes))

    def forward(self, x):
        x = self.features(x)
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = self.classifier(flatten(x, 1))
        return x


def make_layers(cfg, batch_norm=False):
    """The convolution stack of one entry of `cfgs`, on 3-channel input."""
    layers = []
    in_channels = 3
    for v in cfg:
        if v == "M":
            layers.append(nn.MaxPool2D(kernel_size=2, stride=2))
            continue
        layers.append(nn.Conv2D(in_channels, v, kernel_size=3, padding=1))
        if batch_norm:
            layers.append(nn.BatchNorm2D(v))
        layers.append(nn.ReLU())
        in_channels = v
    return nn.Sequential(*layers)


def _vgg(arch, cfg, batch_norm, pretrained, **kwargs):
    state = None
    if pretrained:
        factory = arch.replace("_bn", "") + ("(batch_norm=True)" if batch_norm else "")
        state = pretrained_weights(arch, model_urls, factory)
    return _with_state(VGG(make_layers(cfgs[cfg], batch_norm=batch_norm), **kwargs), state)


def vgg11(pretrained=False, batch_norm=False, **kwargs):
    """VGG-11 (configuration A)."""
    return _vgg("vgg11_bn" if batch_norm else "vgg11", "A", batch_norm, pretrained, **kwargs)


def vgg13(pretrained=False, batch_norm=False, **kwargs):
    """VGG-13 (configuration B)."""
    return _vgg("vgg13_bn" if batch_norm else "vgg13", "B", batch_norm, pretrained, **kwargs)


def vgg16(pretrained=False, batch_norm=False, **kwargs):
    """VGG-16 (configuration D)."""
    return _vgg("vgg16_bn" if batch_norm else "vgg16", "D", batch_norm, pretrained, **kwargs)


def vgg19(pretrained=False, batch_norm=False, **kwargs):
    """VGG-19 (configuration E)."""
    return _vgg("vgg19_bn" if batch_norm else "vgg19", "E", batch_norm, pretrained, **kwargs)
