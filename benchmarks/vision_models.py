"""The CNNs the vision workloads time, written once over a small layer vocabulary so that the same
architecture runs on this framework, on PaddlePaddle and on PyTorch: LeNet (as
paddle.vision.models.LeNet) and ResNet-18/50 (v1.5: the stride on the 3x3 convolution).

`flops(kind, batch, size)` counts the multiply-adds of convolutions and linear layers (2 FLOP
each) of one forward pass; a training step is counted as three passes."""


class _Layers:
    """The layer vocabulary over a framework's `nn` module. Paddle and PyTorch name these layers
    alike but for the "2D"/"2d" suffix and the argument that drops a convolution's bias, which
    the subclasses give."""

    def __init__(self, nn, module, suffix, no_bias):
        self.nn = nn
        self.Module = module
        self._suffix = suffix
        self._no_bias = no_bias

    def _2d(self, name):
        return getattr(self.nn, name + self._suffix)

    def conv(self, cin, cout, k, stride=1, padding=0):
        return self._2d("Conv")(cin, cout, k, stride=stride, padding=padding, **self._no_bias)

    def conv_bias(self, cin, cout, k, stride=1, padding=0):
        return self._2d("Conv")(cin, cout, k, stride=stride, padding=padding)

    def bn(self, c):
        return self._2d("BatchNorm")(c)

    def relu(self):
        return self.nn.ReLU()

    def maxpool(self, k, stride, padding=0):
        return self._2d("MaxPool")(k, stride, padding)

    def global_avgpool(self):
        return self._2d("AdaptiveAvgPool")(1)

    def flatten(self):
        return self.nn.Flatten()

    def linear(self, i, o):
        return self.nn.Linear(i, o)

    def sequential(self, *layers):
        return self.nn.Sequential(*layers)


class PaddleLayers(_Layers):
    def __init__(self):
        import paddle
        super().__init__(paddle.nn, paddle.nn.Layer, "2D", {"bias_attr": False})


class TorchLayers(_Layers):
    def __init__(self):
        import torch
        super().__init__(torch.nn, torch.nn.Module, "2d", {"bias": False})


def lenet(L, num_classes=10):
    return L.sequential(
        L.conv_bias(1, 6, 3, 1, 1), L.relu(), L.maxpool(2, 2),
        L.conv_bias(6, 16, 5, 1, 0), L.relu(), L.maxpool(2, 2),
        L.flatten(), L.linear(400, 120), L.linear(120, 84), L.linear(84, num_classes))


def _block_class(L, bottleneck):
    class Block(L.Module):
        def __init__(self, cin, width, stride):
            super().__init__()
            expansion = 4 if bottleneck else 1
            cout = width * expansion
            if bottleneck:
                self.body = L.sequential(
                    L.conv(cin, width, 1), L.bn(width), L.relu(),
                    L.conv(width, width, 3, stride, 1), L.bn(width), L.relu(),
                    L.conv(width, cout, 1), L.bn(cout))
            else:
                self.body = L.sequential(
                    L.conv(cin, width, 3, stride, 1), L.bn(width), L.relu(),
                    L.conv(width, width, 3, 1, 1), L.bn(width))
            self.shortcut = (L.sequential(L.conv(cin, cout, 1, stride), L.bn(cout))
                             if stride != 1 or cin != cout else None)
            self.relu = L.relu()

        def forward(self, x):
            identity = x if self.shortcut is None else self.shortcut(x)
            return self.relu(self.body(x) + identity)
    return Block


def resnet(L, depth, num_classes=1000):
    bottleneck = depth == 50
    blocks = {18: [2, 2, 2, 2], 50: [3, 4, 6, 3]}[depth]
    Block = _block_class(L, bottleneck)
    expansion = 4 if bottleneck else 1
    layers = [L.conv(3, 64, 7, 2, 3), L.bn(64), L.relu(), L.maxpool(3, 2, 1)]
    cin = 64
    for stage, count in enumerate(blocks):
        width = 64 * 2 ** stage
        for i in range(count):
            layers.append(Block(cin, width, 2 if i == 0 and stage > 0 else 1))
            cin = width * expansion
    layers += [L.global_avgpool(), L.flatten(), L.linear(cin, num_classes)]
    return L.sequential(*layers)


def _conv_out(size, k, stride, padding):
    return (size + 2 * padding - k) // stride + 1


def flops(kind, batch, size):
    """2 x the multiply-adds of the convolutions and linear layers of one forward pass."""
    macs = 0

    def conv(cin, cout, k, stride, padding, s):
        nonlocal macs
        out = _conv_out(s, k, stride, padding)
        macs += cin * cout * k * k * out * out
        return out

    if kind == "lenet":
        s = conv(1, 6, 3, 1, 1, size) // 2
        s = conv(6, 16, 5, 1, 0, s) // 2
        macs += 400 * 120 + 120 * 84 + 84 * 10
        return 2.0 * batch * macs
    depth = {"resnet18": 18, "resnet50": 50}[kind]
    bottleneck = depth == 50
    expansion = 4 if bottleneck else 1
    s = conv(3, 64, 7, 2, 3, size)
    s = _conv_out(s, 3, 2, 1)
    cin = 64
    for stage, count in enumerate({18: [2, 2, 2, 2], 50: [3, 4, 6, 3]}[depth]):
        width = 64 * 2 ** stage
        for i in range(count):
            stride = 2 if i == 0 and stage > 0 else 1
            cout = width * expansion
            if bottleneck:
                conv(cin, width, 1, 1, 0, s)
                out = conv(width, width, 3, stride, 1, s)
                conv(width, cout, 1, 1, 0, out)
            else:
                out = conv(cin, width, 3, stride, 1, s)
                conv(width, width, 3, 1, 1, out)
            if stride != 1 or cin != cout:
                conv(cin, cout, 1, stride, 0, s)
            s, cin = out, cout
    macs += cin * 1000
    return 2.0 * batch * macs
