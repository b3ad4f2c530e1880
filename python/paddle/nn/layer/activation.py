"""Activation layers: thin Layer wrappers over paddle.nn.functional, with Paddle's constructor
arguments, defaults and reprs. PReLU holds its slope as the parameter `_weight` (Paddle's name,
so state dicts interchange); RReLU samples its slopes in training mode only."""
from ...base.framework import get_default_dtype
from .. import functional as F
from ..initializer import Constant
from .layers import Layer

__all__ = ["CELU", "ELU", "GELU", "GLU", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh",
           "LeakyReLU", "LogSigmoid", "LogSoftmax", "Maxout", "Mish", "PReLU", "ReLU", "ReLU6",
           "RReLU", "SELU", "Sigmoid", "Silu", "Softmax", "Softmax2D", "Softplus", "Softshrink",
           "Softsign", "Swish", "Tanh", "Tanhshrink", "ThresholdedReLU"]


def _with_name(text, name):
    """`text` followed by the layer's name where it has one, as Paddle's reprs show it."""
    if not name:
        return text
    return f"{text}, name={name}" if text else f"name={name}"


class _Activation(Layer):
    """A layer of a functional that takes no arguments besides x."""

    _function = None

    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return type(self)._function(x)

    def extra_repr(self):
        return _with_name("", self._name)


class ReLU(_Activation):
    _function = F.relu


class ReLU6(_Activation):
    _function = F.relu6


class Sigmoid(_Activation):
    _function = F.sigmoid


class Tanh(_Activation):
    _function = F.tanh


class Silu(_Activation):
    _function = F.silu


class Swish(_Activation):
    _function = F.swish


class Mish(_Activation):
    _function = F.mish


class Hardswish(_Activation):
    _function = F.hardswish


class Hardsigmoid(_Activation):
    """F.hardsigmoid with its defaults (slope 1/6, offset 0.5)."""
    _function = F.hardsigmoid


class Softsign(_Activation):
    _function = F.softsign


class Tanhshrink(_Activation):
    _function = F.tanhshrink


class LogSigmoid(_Activation):
    _function = F.log_sigmoid


class GELU(Layer):
    def __init__(self, approximate=False, name=None):
        super().__init__()
        self._approximate = approximate
        self._name = name

    def forward(self, x):
        return F.gelu(x, self._approximate)

    def extra_repr(self):
        return _with_name(f"approximate={self._approximate}", self._name)


class ELU(Layer):
    def __init__(self, alpha=1.0, name=None):
        super().__init__()
        self._alpha = alpha
        self._name = name

    def forward(self, x):
        return F.elu(x, self._alpha)

    def extra_repr(self):
        return _with_name(f"alpha={self._alpha}", self._name)


class CELU(ELU):
    def forward(self, x):
        return F.celu(x, self._alpha)


class SELU(Layer):
    def __init__(self, scale=1.0507009873554804934193349852946,
                 alpha=1.6732632423543772848170429916717, name=None):
        super().__init__()
        self._scale = scale
        self._alpha = alpha
        self._name = name

    def forward(self, x):
        return F.selu(x, self._scale, self._alpha)

    def extra_repr(self):
        return _with_name(f"scale={self._scale:.16f}, alpha={self._alpha:.16f}", self._name)


class LeakyReLU(Layer):
    def __init__(self, negative_slope=0.01, name=None):
        super().__init__()
        self._negative_slope = negative_slope
        self._name = name

    def forward(self, x):
        return F.leaky_relu(x, self._negative_slope)

    def extra_repr(self):
        return _with_name(f"negative_slope={self._negative_slope}", self._name)


class Hardtanh(Layer):
    def __init__(self, min=-1.0, max=1.0, name=None):
        super().__init__()
        self._min = min
        self._max = max
        self._name = name

    def forward(self, x):
        return F.hardtanh(x, self._min, self._max)

    def extra_repr(self):
        return _with_name(f"min={self._min}, max={self._max}", self._name)


class Softplus(Layer):
    def __init__(self, beta=1, threshold=20, name=None):
        super().__init__()
        self._beta = beta
        self._threshold = threshold
        self._name = name

    def forward(self, x):
        return F.softplus(x, self._beta, self._threshold)

    def extra_repr(self):
        return _with_name(f"beta={self._beta}, threshold={self._threshold}", self._name)


class Hardshrink(Layer):
    _function = F.hardshrink

    def __init__(self, threshold=0.5, name=None):
        super().__init__()
        self._threshold = threshold
        self._name = name

    def forward(self, x):
        return type(self)._function(x, self._threshold)

    def extra_repr(self):
        return _with_name(f"threshold={self._threshold}", self._name)


class Softshrink(Hardshrink):
    _function = F.softshrink


class ThresholdedReLU(Layer):
    def __init__(self, threshold=1.0, value=0.0, name=None):
        super().__init__()
        self._threshold = threshold
        self._value = value
        self._name = name

    def forward(self, x):
        return F.thresholded_relu(x, self._threshold, self._value)

    def extra_repr(self):
        return _with_name(f"threshold={self._threshold}, value={self._value}", self._name)


class PReLU(Layer):
    """max(0, x) + weight * min(0, x) with a learnt weight of shape [num_parameters]: 1 shares one
    slope, the channel count learns one per channel (at the axis data_format names)."""

    def __init__(self, num_parameters=1, init=0.25, weight_attr=None, data_format="NCHW",
                 name=None):
        super().__init__()
        self._num_parameters = num_parameters
        self._init = init
        self._weight_attr = weight_attr
        self._data_format = data_format
        self._name = name
        self._weight = self.create_parameter(shape=[num_parameters], attr=weight_attr,
                                             dtype=get_default_dtype(), is_bias=False,
                                             default_initializer=Constant(init))

    def forward(self, x):
        return F.prelu(x, self._weight, data_format=self._data_format)

    def extra_repr(self):
        return _with_name(f"num_parameters={self._num_parameters}, "
                          f"data_format={self._data_format}, init={self._init}, "
                          f"dtype={self._dtype}", self._name)


class RReLU(Layer):
    """F.rrelu: random slopes in [lower, upper) in training mode, their mean in eval mode."""

    def __init__(self, lower=1.0 / 8.0, upper=1.0 / 3.0, name=None):
        super().__init__()
        self._lower = lower
        self._upper = upper
        self._name = name

    def forward(self, x):
        return F.rrelu(x, lower=self._lower, upper=self._upper, training=self.training)

    def extra_repr(self):
        return _with_name(f"lower={self._lower}, upper={self._upper}, "
                          f"training={self.training}, dtype={self._dtype}", self._name)


class Softmax(Layer):
    def __init__(self, axis=-1, name=None):
        super().__init__()
        self._axis = axis
        self._name = name

    def forward(self, x):
        return F.softmax(x, self._axis)

    def extra_repr(self):
        return _with_name(f"axis={self._axis}", self._name)


class LogSoftmax(Softmax):
    def forward(self, x):
        return F.log_softmax(x, self._axis)


class Softmax2D(_Activation):
    """Softmax over the channels (axis -3) of a [C, H, W] or [N, C, H, W] input."""

    def forward(self, x):
        if x.ndim not in (3, 4):
            raise ValueError(f"Softmax2D: the input must be 3-D or 4-D, received {x.ndim}-D "
                             f"(shape {x.shape})")
        return F.softmax(x, axis=-3)


class Maxout(Layer):
    def __init__(self, groups, axis=1, name=None):
        super().__init__()
        self._groups = groups
        self._axis = axis
        self._name = name

    def forward(self, x):
        return F.maxout(x, self._groups, self._axis)

    def extra_repr(self):
        return _with_name(f"groups={self._groups}, axis={self._axis}", self._name)


class GLU(Layer):
    def __init__(self, axis=-1, name=None):
        super().__init__()
        self._axis = axis
        self._name = name

    def forward(self, x):
        return F.glu(x, self._axis)

    def extra_repr(self):
        return _with_name(f"axis={self._axis}", self._name)
