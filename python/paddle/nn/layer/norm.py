"""The normalization layers: LayerNorm, BatchNorm1D/2D/3D, the older BatchNorm, SyncBatchNorm,
GroupNorm, InstanceNorm1D/2D/3D, LocalResponseNorm and SpectralNorm."""
import math
import numbers

from ... import _C_ops
from ...base.framework import get_default_dtype
from .. import functional as F
from ..functional.norm import _batch_norm
from ..initializer import Constant, Normal
from ..param_attr import ParamAttr
from .layers import Layer

__all__ = ["LayerNorm", "BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "SyncBatchNorm",
           "GroupNorm", "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D", "LocalResponseNorm",
           "SpectralNorm"]


class LayerNorm(Layer):
    """F.layer_norm over the trailing dims `normalized_shape`. The weight starts at 1 and the
    bias at 0, both 1-D of the product of normalized_shape (Paddle's parameter layout);
    weight_attr/bias_attr=False leaves them out."""

    def __init__(self, normalized_shape, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 name=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = [normalized_shape]
        self._normalized_shape = list(normalized_shape)
        self._epsilon = epsilon
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self._dtype = get_default_dtype()
        param_shape = [math.prod(int(d) for d in self._normalized_shape)]  # flat, as in Paddle
        if weight_attr is False:
            self.weight = None
        else:
            self.weight = self.create_parameter(attr=self._weight_attr, shape=param_shape,
                                                dtype=self._dtype,
                                                default_initializer=Constant(1.0))
        if bias_attr is False:
            self.bias = None
        else:
            self.bias = self.create_parameter(attr=self._bias_attr, shape=param_shape,
                                              dtype=self._dtype, is_bias=True)
        self.name = name

    def forward(self, input):
        return F.layer_norm(input, normalized_shape=self._normalized_shape, weight=self.weight,
                            bias=self.bias, epsilon=self._epsilon)

    def extra_repr(self):
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


def _create_batch_norm_parameters(layer, num_features, dtype, weight_attr, bias_attr,
                                  mean_name, variance_name, do_model_average=True):
    """Paddle's BatchNorm parameters: weight (1) and bias (0), absent when their attr is False,
    and the running statistics _mean (0) and _variance (1), which are parameters too but not
    trainable (stop_gradient), so state_dict holds weight, bias, _mean and _variance."""
    shape = [num_features]
    layer.weight = layer.create_parameter(attr=weight_attr, shape=shape, dtype=dtype,
                                          default_initializer=Constant(1.0))
    layer.bias = layer.create_parameter(attr=bias_attr, shape=shape, dtype=dtype, is_bias=True)
    for attr_name, name, value in (("_mean", mean_name, 0.0),
                                   ("_variance", variance_name, 1.0)):
        attr = ParamAttr(name=name, initializer=Constant(value), trainable=False,
                         do_model_average=do_model_average)
        statistic = layer.create_parameter(attr=attr, shape=shape, dtype=dtype)
        statistic.stop_gradient = True
        setattr(layer, attr_name, statistic)


class _BatchNormBase(Layer):
    """F.batch_norm over the channels of `data_format`: the batch's statistics in training
    (which update the running ones), the running statistics in eval, or as use_global_stats
    says when it is not None. Parameters as in _create_batch_norm_parameters; 16-bit default
    dtypes keep them in float32."""

    # The data formats a subclass accepts, the ranks of its input, and the message for others.
    _data_formats = ()
    _input_ranks = ()
    _data_format_error = ""

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", use_global_stats=None, name=None):
        super().__init__()
        self._num_features = num_features
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self._use_global_stats = use_global_stats
        default = get_default_dtype()
        self._dtype = "float32" if default in ("float16", "bfloat16") else default
        _create_batch_norm_parameters(self, num_features, self._dtype, weight_attr, bias_attr,
                                      None if name is None else name + "_mean",
                                      None if name is None else name + "_variance")
        self._data_format = data_format
        self._momentum = momentum
        self._epsilon = epsilon
        self._name = name

    def forward(self, input):
        if self._data_format not in self._data_formats:
            raise ValueError(self._data_format_error)
        if len(input.shape) not in self._input_ranks:
            ranks = " or ".join(f"{r}D" for r in self._input_ranks)
            raise ValueError(f"expected {ranks} input (got {len(input.shape)}D input)")
        return F.batch_norm(input, self._mean, self._variance, weight=self.weight,
                            bias=self.bias, training=self.training, momentum=self._momentum,
                            epsilon=self._epsilon, data_format=self._data_format,
                            use_global_stats=self._use_global_stats)

    def extra_repr(self):
        text = (f"num_features={self._num_features}, momentum={self._momentum}, "
                f"epsilon={self._epsilon}")
        if self._data_format != "NCHW":
            text += f", data_format={self._data_format}"
        if self._name is not None:
            text += f", name={self._name}"
        return text


class BatchNorm1D(_BatchNormBase):
    """Batch normalization of [N, C] or [N, C, L] input (data_format 'NC' or 'NCL'), or of
    [N, L, C] ('NLC')."""

    _data_formats = ("NC", "NCL", "NLC", "NCHW", "NHWC")
    _input_ranks = (2, 3)
    _data_format_error = "expected NC , NCL, NLC or None for data_format input"

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCL", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class BatchNorm2D(_BatchNormBase):
    """Batch normalization of [N, C, H, W] input ('NCHW') or [N, H, W, C] ('NHWC')."""

    _data_formats = ("NCHW", "NHWC")
    _input_ranks = (4,)
    _data_format_error = "expected NCHW or NHWC for data_format input"


class BatchNorm3D(_BatchNormBase):
    """Batch normalization of [N, C, D, H, W] input ('NCDHW') or [N, D, H, W, C] ('NDHWC')."""

    _data_formats = ("NCDHW", "NDHWC", "NCHW", "NHWC")
    _input_ranks = (5,)
    _data_format_error = "expected NCDHW, NDHWC or None for data_format input"

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCDHW", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class BatchNorm(Layer):
    """Paddle's older batch normalization layer: the batch_norm op with its attributes
    (is_test, data_layout, use_global_stats, trainable_statistics) and an optional activation
    applied to the result. Parameters as in _create_batch_norm_parameters; in_place is accepted
    and ignored, as in Paddle's dygraph mode."""

    def __init__(self, num_channels, act=None, is_test=False, momentum=0.9, epsilon=1e-05,
                 param_attr=None, bias_attr=None, dtype="float32", data_layout="NCHW",
                 in_place=False, moving_mean_name=None, moving_variance_name=None,
                 do_model_average_for_mean_and_var=True, use_global_stats=False,
                 trainable_statistics=False):
        super().__init__()
        self._act = act
        self._dtype = "float32" if dtype in ("float16", "bfloat16") else dtype
        _create_batch_norm_parameters(self, num_channels, self._dtype, param_attr, bias_attr,
                                      moving_mean_name, moving_variance_name,
                                      do_model_average_for_mean_and_var)
        self._in_place = in_place
        self._data_layout = data_layout
        self._momentum = momentum
        self._epsilon = epsilon
        self._use_global_stats = use_global_stats
        self._trainable_statistics = trainable_statistics
        self.training = not is_test

    def forward(self, input):
        out = _batch_norm(input, self._mean, self._variance, self.weight, self.bias,
                          not self.training, self._momentum, self._epsilon, self._data_layout,
                          self._use_global_stats, self._trainable_statistics)
        return out if self._act is None else getattr(F, self._act)(out)


def _fixed_parameter(layer, shape, dtype, value, is_bias=False):
    """A parameter that stays at `value`: what Paddle's GroupNorm and SyncBatchNorm create for a
    weight_attr or bias_attr of False (stop_gradient, so no gradient reaches it)."""
    parameter = layer.create_parameter(shape=shape, dtype=dtype, is_bias=is_bias,
                                       default_initializer=Constant(value))
    parameter.stop_gradient = True
    return parameter


class SyncBatchNorm(_BatchNormBase):
    """Batch normalization whose statistics are those of the whole batch across processes; in a
    single process (the only kind this framework runs) it is BatchNorm: the batch's statistics
    in training (updating the running ones), the running statistics in eval. x is 2-D to 5-D,
    channels on axis 1 (NC* data formats) or last (N*C). Parameters as BatchNorm's, except that
    weight_attr or bias_attr False gives a parameter fixed at 1 or 0 (as in Paddle)."""

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         None, name)
        if weight_attr is False:
            self.weight = _fixed_parameter(self, [num_features], self._dtype, 1.0)
        if bias_attr is False:
            self.bias = _fixed_parameter(self, [num_features], self._dtype, 0.0, is_bias=True)

    def forward(self, x):
        if self._data_format in ("NCHW", "NCDHW", "NC", "NCL"):
            data_format = "NCHW"
        elif self._data_format in ("NHWC", "NDHWC", "NLC"):
            data_format = "NHWC"
        else:
            raise ValueError("expected 'NCDHW', 'NDHWC', 'NCL', 'NLC', 'NC', 'NCHW', 'NHWC' for "
                             "data_format")
        return _batch_norm(x, self._mean, self._variance, self.weight, self.bias,
                           not self.training, self._momentum, self._epsilon, data_format, False,
                           False, op="sync_batch_norm")

    @classmethod
    def convert_sync_batchnorm(cls, layer):
        """`layer` with each BatchNorm1D/2D/3D in it (itself included) replaced by a
        SyncBatchNorm holding the same parameters and running statistics. Named weight and bias
        attrs get the suffix '_sync' (the new layer's parameters must be named apart from the
        old ones while both exist), as in Paddle."""
        converted = layer
        if isinstance(layer, _BatchNormBase):
            for attr in (layer._weight_attr, layer._bias_attr):
                if isinstance(attr, ParamAttr) and attr.name is not None:
                    attr.name = attr.name + "_sync"
            converted = SyncBatchNorm(layer._num_features, layer._momentum, layer._epsilon,
                                      layer._weight_attr, layer._bias_attr, layer._data_format,
                                      layer._name)
            if layer._weight_attr is not False and layer._bias_attr is not False:
                converted.weight = layer.weight
                converted.bias = layer.bias
            converted._mean = layer._mean
            converted._variance = layer._variance
        for name, sublayer in layer.named_children():
            converted.add_sublayer(name, cls.convert_sync_batchnorm(sublayer))
        return converted


def _frozen(attr):
    """Whether a parameter of this attr takes no gradient: a learning rate of 0 (Paddle's
    GroupNorm rule)."""
    return attr is not None and getattr(attr, "learning_rate", None) == 0.0


class GroupNorm(Layer):
    """F.group_norm with `num_groups` groups of the `num_channels` channels. The weight starts at
    1 and the bias at 0, both [num_channels]; weight_attr or bias_attr False keeps that
    parameter fixed (it still exists, as in Paddle, so state dicts keep both keys)."""

    def __init__(self, num_groups, num_channels, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format="NCHW", name=None):
        super().__init__()
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self._epsilon = epsilon
        self._num_channels = num_channels
        self._num_groups = num_groups
        if data_format not in ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
            raise ValueError("unsupported data layout:" + str(data_format))
        self._data_format = "NCHW" if data_format[1] == "C" else "NHWC"
        dtype = get_default_dtype()
        shape = [num_channels]
        if weight_attr is False:
            self.weight = _fixed_parameter(self, shape, dtype, 1.0)
        else:
            self.weight = self.create_parameter(shape=shape, attr=weight_attr, dtype=dtype,
                                                default_initializer=Constant(1.0))
            self.weight.stop_gradient = _frozen(weight_attr)
        if bias_attr is False:
            self.bias = _fixed_parameter(self, shape, dtype, 0.0, is_bias=True)
        else:
            self.bias = self.create_parameter(shape=shape, attr=bias_attr, dtype=dtype,
                                              is_bias=True)
            self.bias.stop_gradient = _frozen(bias_attr)

    def forward(self, input):
        return F.group_norm(input, self._num_groups, self._epsilon, self.weight, self.bias,
                            self._data_format)

    def extra_repr(self):
        return (f"num_groups={self._num_groups}, num_channels={self._num_channels}, "
                f"epsilon={self._epsilon}")


class _InstanceNormBase(Layer):
    """F.instance_norm with a per-channel `scale` (starting at 1) and `bias` (at 0), both
    [num_features] and named as Paddle names them; weight_attr and bias_attr False (both or
    neither) leave them out. momentum is accepted and unused, as in Paddle."""

    _input_ranks = ()

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None):
        super().__init__()
        if (weight_attr is False) != (bias_attr is False):
            raise ValueError("weight_attr and bias_attr must be set to False at the same time in "
                             "InstanceNorm")
        self._momentum = momentum
        self._epsilon = epsilon
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self._num_features = num_features
        self._data_format = data_format
        if weight_attr is False:
            self.scale = None
            self.bias = None
        else:
            dtype = get_default_dtype()
            self.scale = self.create_parameter(shape=[num_features], attr=weight_attr,
                                               dtype=dtype, default_initializer=Constant(1.0))
            self.bias = self.create_parameter(shape=[num_features], attr=bias_attr, dtype=dtype,
                                              is_bias=True)

    def forward(self, input):
        if len(input.shape) not in self._input_ranks:
            ranks = " or ".join(f"{r}D" for r in self._input_ranks)
            raise ValueError(f"expected {ranks} input (got {len(input.shape)}D input)")
        return F.instance_norm(input, weight=self.scale, bias=self.bias, momentum=self._momentum,
                               eps=self._epsilon, data_format=self._data_format)

    def extra_repr(self):
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


class InstanceNorm1D(_InstanceNormBase):
    """Instance normalization of [N, C] or [N, C, L] input (data_format 'NC' or 'NCL')."""

    _input_ranks = (2, 3)

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCL", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format,
                         name)


class InstanceNorm2D(_InstanceNormBase):
    """Instance normalization of [N, C, H, W] input ('NCHW')."""

    _input_ranks = (4,)


class InstanceNorm3D(_InstanceNormBase):
    """Instance normalization of [N, C, D, H, W] input ('NCDHW')."""

    _input_ranks = (5,)

    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCDHW", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format,
                         name)


class LocalResponseNorm(Layer):
    """F.local_response_norm over `size` neighbouring channels; no parameters."""

    def __init__(self, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW", name=None):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k
        self.data_format = data_format
        self.name = name

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k,
                                     self.data_format, self.name)

    def extra_repr(self):
        text = f"size={self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
        if self.data_format != "NCHW":
            text += f", data_format={self.data_format}"
        if self.name is not None:
            text += f", name={self.name}"
        return text


class SpectralNorm(Layer):
    """The spectral_norm op on the weight passed to forward: the weight divided by its largest
    singular value, estimated by `power_iters` power-iteration rounds (norm.yaml) from the
    parameters weight_u ([h], h = weight_shape[dim]) and weight_v ([w], the product of the other
    dims), drawn from N(0, 1) and, as in Paddle, never updated (stop_gradient)."""

    def __init__(self, weight_shape, dim=0, power_iters=1, eps=1e-12, dtype="float32"):
        super().__init__()
        self._power_iters = power_iters
        self._eps = eps
        self._dim = dim
        self._dtype = dtype
        self._weight_shape = list(weight_shape)
        if math.prod(self._weight_shape) <= 0:
            raise ValueError("Any dimension of `weight_shape` cannot be equal to 0.")
        if not 0 <= dim < len(self._weight_shape):
            raise ValueError(f"The input `dim` should be less than the length of `weight_shape`, "
                             f"but received dim={dim}")
        h = self._weight_shape[dim]
        w = math.prod(self._weight_shape) // h
        self.weight_u = self.create_parameter(attr=ParamAttr(), shape=[h], dtype=dtype,
                                              default_initializer=Normal(0.0, 1.0))
        self.weight_u.stop_gradient = True
        self.weight_v = self.create_parameter(attr=ParamAttr(), shape=[w], dtype=dtype,
                                              default_initializer=Normal(0.0, 1.0))
        self.weight_v.stop_gradient = True

    def forward(self, x):
        return _C_ops.spectral_norm(x, self.weight_u, self.weight_v, self._dim,
                                    self._power_iters, float(self._eps))
