"""The normalization layers: LayerNorm, BatchNorm1D/2D/3D and the older BatchNorm."""
import math
import numbers

from ...base.framework import get_default_dtype
from .. import functional as F
from ..functional.norm import _batch_norm
from ..initializer import Constant
from ..param_attr import ParamAttr
from .layers import Layer

__all__ = ["LayerNorm", "BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D"]


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
