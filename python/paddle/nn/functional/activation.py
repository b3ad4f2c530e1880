"""Activation functions written by hand (relu, elu, hardswish, ... are generated from the op
declarations): softmax, softmax_ and log_softmax cast to their `dtype` argument first, gelu
takes Paddle 3's string forms of `approximate`, mish passes the op's fixed threshold, prelu
picks the op's mode from the weight's shape, rrelu maps `training` to the op's is_test and
returns only its result, and glu composes other ops."""
from ... import _C_ops
from ...base.framework import convert_dtype
from ...tensor._helpers import check_tensor
from ...tensor.manipulation import chunk

__all__ = ["softmax", "softmax_", "log_softmax", "gelu", "mish", "prelu", "rrelu", "glu"]


def _cast_for(x, dtype, api):
    check_tensor(x, api)
    if dtype is not None and x.dtype != convert_dtype(dtype):
        x = _C_ops.cast(x, convert_dtype(dtype))
    return x


def softmax(x, axis=-1, dtype=None, name=None):
    """exp(x) / sum(exp(x)) along `axis`; `dtype` casts x first (to avoid overflow)."""
    return _C_ops.softmax(_cast_for(x, dtype, "softmax"), int(axis))


def softmax_(x, axis=-1, dtype=None, name=None):
    """In-place softmax: writes the result into x (into the cast copy when `dtype` differs from
    x's, as in Paddle) and returns it."""
    return _C_ops.softmax_(_cast_for(x, dtype, "softmax_"), int(axis))


def log_softmax(x, axis=-1, dtype=None, name=None):
    return _C_ops.log_softmax(_cast_for(x, dtype, "log_softmax"), int(axis))


def gelu(x, approximate=False, name=None):
    """0.5 x (1 + erf(x / sqrt(2))), or its tanh approximation when `approximate` is True or
    "tanh" ("none" is False)."""
    if isinstance(approximate, str):
        if approximate not in ("tanh", "none"):
            raise ValueError("gelu(): argument 'approximate' must be True, False, 'tanh' or "
                             f"'none', received {approximate!r}")
        approximate = approximate == "tanh"
    return _C_ops.gelu(x, approximate)


def mish(x, name=None):
    """x * tanh(softplus(x)), softplus taken as x above 20 (Paddle's fixed threshold)."""
    return _C_ops.mish(x, 20.0)


_PRELU_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


def prelu(x, weight, data_format="NCHW", name=None):
    """max(0, x) + weight * min(0, x). A weight of shape [] or [1] is shared by every element;
    one of shape [C] holds a slope per channel, C being the axis `data_format` names."""
    check_tensor(x, "prelu")
    check_tensor(weight, "prelu", "weight")
    if weight.ndim > 1:
        raise ValueError(f"prelu(): argument 'weight' must be 0-D or 1-D, received shape "
                         f"{weight.shape}")
    mode = "all"
    if weight.ndim == 1 and weight.shape[0] > 1:
        if data_format not in _PRELU_FORMATS:
            raise ValueError(f"prelu(): argument 'data_format' must be one of "
                             f"{', '.join(_PRELU_FORMATS)}, received {data_format!r}")
        # The op knows channels-first and channels-last, as Paddle's does.
        data_format = "NCHW" if data_format[1] == "C" else "NHWC"
        mode = "channel"
    return _C_ops.prelu(x, weight, data_format, mode)


def rrelu(x, lower=1.0 / 8.0, upper=1.0 / 3.0, training=True, name=None):
    """x where x >= 0, else a * x with a drawn uniformly from [lower, upper) per element in
    training and (lower + upper) / 2 otherwise."""
    if not isinstance(lower, float) or not isinstance(upper, float):
        raise TypeError(f"rrelu(): arguments 'lower' and 'upper' must be floats, received "
                        f"lower={lower!r}, upper={upper!r}")
    return _C_ops.rrelu(x, lower, upper, not training)[0]


def glu(x, axis=-1, name=None):
    """The gated linear unit a * sigmoid(b), a and b the two halves of x along `axis`."""
    check_tensor(x, "glu")
    rank = x.ndim
    if not -rank <= axis < rank:
        raise ValueError(f"glu(): argument 'axis' must be in [{-rank}, {rank}), received {axis}")
    a, b = chunk(x, 2, axis)
    return _C_ops.multiply(a, _C_ops.sigmoid(b))
