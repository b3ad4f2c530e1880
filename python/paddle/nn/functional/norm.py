"""batch_norm, layer_norm, group_norm, instance_norm, local_response_norm and normalize: Paddle's
argument checks and data-format names in front of the ops."""
import math
import numbers

from ... import _C_ops
from ...base import generated_api, libpaddle
from ...tensor import math as _math
from ...tensor._helpers import check_tensor

__all__ = ["batch_norm", "group_norm", "instance_norm", "layer_norm", "local_response_norm",
           "normalize"]


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05, name=None):
    """Normalizes over the trailing dims `normalized_shape` (an int or a list of ints) to zero
    mean and unit variance, then scales by `weight` and shifts by `bias` (both of shape
    normalized_shape, optional)."""
    check_tensor(x, "layer_norm")
    input_shape = list(x.shape)
    if isinstance(normalized_shape, numbers.Integral) and not isinstance(normalized_shape, bool):
        normalized_shape = [normalized_shape]
    elif isinstance(normalized_shape, tuple):
        normalized_shape = list(normalized_shape)
    elif not isinstance(normalized_shape, list):
        raise ValueError("`normalized_shape` should be int, list of ints or tuple of ints.")
    begin_norm_axis = len(input_shape) - len(normalized_shape)
    if begin_norm_axis < 0 or [int(d) for d in normalized_shape] != input_shape[begin_norm_axis:]:
        raise ValueError(f"Given normalized_shape is {normalized_shape}, expected input with "
                         f"shape [*, {str(normalized_shape)[1:]}, but got input shape "
                         f"{input_shape}")
    if weight is not None:
        weight = _C_ops.reshape(check_tensor(weight, "layer_norm", "weight"), [-1])
    if bias is not None:
        bias = _C_ops.reshape(check_tensor(bias, "layer_norm", "bias"), [-1])
    out, _, _ = _C_ops.layer_norm(x, weight, bias, float(epsilon), begin_norm_axis)
    return out


def normalize(x, p=2, axis=1, epsilon=1e-12, name=None):
    """x / max(||x||_p, epsilon), the p-norm taken along `axis`."""
    check_tensor(x, "normalize")
    if len(x.shape) == 1 and axis not in (0, -1):
        raise ValueError("Axis must be 0 or -1 when x is a 1-D tensor")
    p = float(p)
    magnitude = generated_api.abs(x)
    if p == math.inf:
        norm = generated_api.max(magnitude, axis, keepdim=True)
    elif p == -math.inf:
        norm = generated_api.min(magnitude, axis, keepdim=True)
    elif p == 2.0:
        norm = generated_api.sqrt(_math.sum(generated_api.square(x), axis, keepdim=True))
    elif p == 0.0:
        raise ValueError("normalize(): 'p' must not be 0")
    else:
        norm = _math.pow(_math.sum(_math.pow(magnitude, p), axis, keepdim=True), 1.0 / p)
    return _math.divide(x, _math.maximum(norm, epsilon))


_BATCH_NORM_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


def _batch_norm(x, running_mean, running_var, weight, bias, is_test, momentum, epsilon,
                data_format, use_global_stats, trainable_statistics, op="batch_norm"):
    """The batch_norm op (or `op`, sync_batch_norm) with Paddle's attributes; writes the updated
    statistics into running_mean and running_var. In dygraph the op returns them as new tensors,
    copied in afterwards, so the buffers keep stop_gradient and stay out of the autograd graph; a
    static program has no buffers to copy into, so there the op writes them in place, as in
    Paddle."""
    if libpaddle._in_static_mode():
        return getattr(_C_ops, op + "_")(
            x, running_mean, running_var, weight, bias, bool(is_test), float(momentum),
            float(epsilon), data_format, bool(use_global_stats), bool(trainable_statistics))[0]
    out, mean_out, variance_out, _, _, _ = getattr(_C_ops, op)(
        x, running_mean, running_var, weight, bias, bool(is_test), float(momentum),
        float(epsilon), data_format, bool(use_global_stats), bool(trainable_statistics))
    if not ((is_test and not trainable_statistics) or use_global_stats):
        running_mean._set_value(mean_out)
        running_var._set_value(variance_out)
    return out


def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.9, epsilon=1e-05, data_format="NCHW", use_global_stats=None,
               name=None):
    """Normalizes each channel of x (axis 1 for the NC* data formats, the last axis for N*C)
    over the other axes, then scales by `weight` and shifts by `bias`. The statistics are the
    batch's when training (use_global_stats=None) or use_global_stats=False, and then update
    running_mean and running_var in place: running = momentum * running + (1 - momentum) *
    batch statistic (the biased variance, as in Paddle); otherwise running_mean and running_var
    themselves."""
    check_tensor(x, "batch_norm")
    check_tensor(running_mean, "batch_norm", "running_mean")
    check_tensor(running_var, "batch_norm", "running_var")
    if data_format not in _BATCH_NORM_FORMATS:
        raise ValueError("data_format must be one of 'NC', 'NCL', 'NCHW', 'NCDHW', 'NLC', "
                         f"'NHWC', 'NDHWC' but receive {data_format}")
    # Paddle hands the op only the position of the channel axis.
    data_format = "NCHW" if data_format[1] == "C" else "NHWC"
    if use_global_stats is None:
        use_global_stats = not training
        trainable_statistics = False
    else:
        trainable_statistics = not use_global_stats
    return _batch_norm(x, running_mean, running_var, weight, bias, not training, momentum,
                       epsilon, data_format, use_global_stats, trainable_statistics)


_GROUP_NORM_FORMATS = ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


def group_norm(x, num_groups, epsilon=1e-05, weight=None, bias=None, data_format="NCHW",
               name=None):
    """Normalizes each of `num_groups` groups of adjacent channels of each sample over the
    group's channels and spatial elements, then scales each channel by `weight` and shifts it by
    `bias` ([C], optional). Channels are axis 1 for the NC* data formats, the last axis for N*C."""
    check_tensor(x, "group_norm")
    if data_format not in _GROUP_NORM_FORMATS:
        raise ValueError("group_norm: unsupported data layout: " + str(data_format))
    # Paddle hands the op only the position of the channel axis.
    data_format = "NCHW" if data_format[1] == "C" else "NHWC"
    return _C_ops.group_norm(x, weight, bias, float(epsilon), int(num_groups), data_format)[0]


_INSTANCE_NORM_FORMATS = ("NC", "NCL", "NCHW", "NCDHW")


def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.9, eps=1e-05, data_format="NCHW", name=None):
    """Normalizes each channel of each sample over its spatial elements, then scales it by
    `weight` and shifts it by `bias` ([C], optional). x is channel first (data_format 'NC',
    'NCL', 'NCHW' or 'NCDHW'). As in Paddle, running_mean, running_var, use_input_stats and
    momentum are accepted and unused: the statistics are always the instance's own."""
    check_tensor(x, "instance_norm")
    if data_format not in _INSTANCE_NORM_FORMATS:
        raise ValueError("instance_norm: data_format must be one of 'NC', 'NCL', 'NCHW', "
                         f"'NCDHW' (channels first), received {data_format!r}")
    return _C_ops.instance_norm(x, weight, bias, float(eps))[0]


_LRN_FORMATS = ("NCL", "NLC", "NCHW", "NHWC", "NCDHW", "NDHWC")


def local_response_norm(x, size, alpha=1e-4, beta=0.75, k=1.0, data_format="NCHW", name=None):
    """x / (k + alpha / size * sum(x^2 over `size` neighbouring channels)) ^ beta at each
    position: the window of channel c is [c - size // 2, c + (size - 1) // 2]. x is 3-D to 5-D,
    channels on axis 1 (NC* formats) or last (N*C). It is the lrn op with alpha / size."""
    check_tensor(x, "local_response_norm")
    if data_format not in _LRN_FORMATS:
        raise ValueError("data_format should be in one of [NCL, NCHW, NCDHW, NLC, NHWC, NDHWC], "
                         f"but got {data_format}")
    if isinstance(size, bool) or not isinstance(size, numbers.Integral) or size < 1:
        raise ValueError(f"local_response_norm: 'size' must be a positive int, received {size!r}")
    sizes = list(x.shape)
    if len(sizes) < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input, but got {len(sizes)} "
                         f"dimensions")
    for i, dim in enumerate(sizes[1:], start=1):
        if dim == 0:
            raise ValueError(f"Expected every dim's size to be larger than 0, but the size of "
                             f"the {i}-th dim is {dim}")
    data_format = "NHWC" if data_format[-1] == "C" else "NCHW"
    return _C_ops.lrn(x, int(size), float(k), float(alpha) / int(size), float(beta),
                      data_format)[0]
