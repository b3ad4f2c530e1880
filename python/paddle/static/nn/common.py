"""paddle.static.nn layers: fc, embedding and batch_norm. Each creates its parameters in the
current main program (initialised by the startup program) and appends its ops, named like
Paddle's ("fc_0.w_0", "batch_norm_0.b_0", ...)."""
import math

from ... import _C_ops
from ...base import libpaddle
from ...base.framework import convert_dtype, is_floating
from ...nn import functional as F
from ...nn.initializer import Constant
from ...nn.param_attr import ParamAttr
from ...nn.parameter import _make_parameter
from ...utils import unique_name
from ..program import Variable

__all__ = ["fc", "embedding", "batch_norm"]


def _static_only(api):
    # Paddle's static_only decorator raises AssertionError with this advice.
    if not libpaddle._in_static_mode():
        raise AssertionError(f"In PaddlePaddle 2.x, we turn on dynamic graph mode by default, "
                             f"and '{api}()' is only supported in static graph mode. So if you "
                             f"want to use this api, please call 'paddle.enable_static()' "
                             f"before this api to enter static graph mode.")


def _check_variable(x, api, arg):
    if not isinstance(x, Variable):
        raise TypeError(f"{api}(): '{arg}' must be a static Variable, but received "
                        f"{type(x).__name__}")


def _activate(out, act, api):
    """`out` through the function of paddle.nn.functional named `act` (Paddle's `act` strings name
    an activation), or as it is."""
    if act is None:
        return out
    if not isinstance(act, str) or act.endswith("_") or act not in F.__all__:
        raise ValueError(f"{api}(): unknown activation {act!r}; expected the name of an activation "
                         f"function of paddle.nn.functional, such as 'relu' or 'tanh'")
    return getattr(F, act)(out)


def fc(x, size, num_flatten_dims=1, weight_attr=None, bias_attr=None, activation=None,
       name=None):
    """A fully connected layer: each input is flattened to a matrix whose rows are its first
    `num_flatten_dims` dims (-1: all but the last), multiplied by its own weight
    [features, size], the products summed, the bias [size] added and `activation` applied. The
    result keeps the first num_flatten_dims dims of the input and ends with `size`."""
    _static_only("fc")
    inputs = list(x) if isinstance(x, (list, tuple)) else [x]
    if not inputs:
        raise ValueError("fc(): 'x' must be a Variable or a non-empty list of Variables")
    for i, v in enumerate(inputs):
        _check_variable(v, "fc", f"x[{i}]" if isinstance(x, (list, tuple)) else "x")
    dtype = inputs[0].dtype
    if not is_floating(dtype) or any(v.dtype != dtype for v in inputs):
        raise TypeError(f"fc(): the inputs must share one floating-point dtype, but received "
                        f"{[v.dtype.name for v in inputs]}")
    attrs = list(weight_attr) if isinstance(weight_attr, (list, tuple)) else \
        [weight_attr] * len(inputs)
    if len(attrs) != len(inputs):
        raise ValueError(f"fc(): {len(attrs)} weight_attr for {len(inputs)} inputs")
    owner = name or unique_name.generate("fc")
    products = []
    for v, attr in zip(inputs, attrs):
        rank = len(v.shape)
        k = rank - 1 if num_flatten_dims == -1 else num_flatten_dims
        if not 0 < k < rank:
            raise ValueError(f"fc(): 'num_flatten_dims' must be in [1, {rank}) or -1 for an "
                             f"input of shape {v.shape}, but received {num_flatten_dims}")
        features = v.shape[k:]
        if any(d < 0 for d in features):
            raise ValueError(f"fc(): the dims of x from num_flatten_dims on give the weight's "
                             f"rows and must be known, but x has shape {v.shape}")
        rows = math.prod(features)
        weight = _make_parameter(owner, [rows, size], attr, dtype)
        # Merging the trailing dims with 0s for the leading ones keeps those (maybe unknown);
        # matmul then broadcasts over them.
        flat = v if len(features) == 1 else _C_ops.reshape(v, [0] * k + [rows])
        products.append(_C_ops.matmul(flat, weight, False, False))
    out = products[0] if len(products) == 1 else _C_ops.add_n(products)
    bias = _make_parameter(owner, [size], bias_attr, dtype, is_bias=True)
    if bias is not None:
        out = _C_ops.add(out, bias)
    return _activate(out, activation, "fc")


def embedding(input, size, is_sparse=False, is_distributed=False, padding_idx=None,
              param_attr=None, dtype="float32"):
    """Looks up the rows of a [vocab, dim] table (size) for the int ids in `input`: the result
    has input's shape plus [dim]. Ids equal to `padding_idx` (negative: from the end) give
    zeros. `is_sparse` and `is_distributed` are accepted for Paddle compatibility; the gradient
    is dense."""
    _static_only("embedding")
    _check_variable(input, "embedding", "input")
    if not isinstance(size, (list, tuple)) or len(size) != 2:
        raise ValueError(f"embedding(): 'size' must be [vocab_size, embedding_dim], but "
                         f"received {size!r}")
    dtype = convert_dtype(dtype)
    if not is_floating(dtype):
        raise TypeError(f"embedding(): 'dtype' must be floating-point, but received {dtype.name}")
    weight = _make_parameter(unique_name.generate("embedding"), list(size), param_attr, dtype)
    return F.embedding(input, weight, padding_idx=padding_idx, sparse=is_sparse)


def batch_norm(input, act=None, is_test=False, momentum=0.9, epsilon=1e-05, param_attr=None,
               bias_attr=None, data_layout="NCHW", in_place=False, name=None,
               moving_mean_name=None, moving_variance_name=None,
               do_model_average_for_mean_and_var=True, use_global_stats=False):
    """Batch normalization over the channel axis (1 for NCHW, the last for NHWC) with a scale
    (param_attr, initially 1) and bias (bias_attr, initially 0), then `act`. Training batches
    are normalized by their own statistics and update the running mean and variance (persistable,
    not trainable, initially 0 and 1) in place: running = momentum * running + (1 - momentum) *
    batch statistic. With is_test or use_global_stats the running statistics normalize and stay.
    Program.clone(for_test=True) turns is_test on. `in_place` (reuse input's buffer for the
    result) is accepted for Paddle compatibility; the executor decides buffer reuse itself."""
    _static_only("batch_norm")
    _check_variable(input, "batch_norm", "input")
    if not is_floating(input.dtype):
        raise TypeError(f"batch_norm(): 'input' must be floating-point, but received "
                        f"{input.dtype.name}")
    if data_layout not in ("NCHW", "NHWC"):
        raise ValueError(f"batch_norm(): unsupported data layout: {data_layout}")
    channels = input.shape[1] if data_layout == "NCHW" else input.shape[-1]
    if channels < 0:
        raise ValueError(f"batch_norm(): the channel dim of 'input' must be known, but input "
                         f"has shape {input.shape} ({data_layout})")
    # Half-precision inputs keep float32 statistics and affine parameters, as in Paddle.
    dtype = input.dtype
    if dtype in (libpaddle.DataType.FLOAT16, libpaddle.DataType.BFLOAT16):
        dtype = libpaddle.DataType.FLOAT32
    owner = name or unique_name.generate("batch_norm")
    shape = [channels]
    scale = _make_parameter(owner, shape, param_attr, dtype, default_initializer=Constant(1.0))
    bias = _make_parameter(owner, shape, bias_attr, dtype, is_bias=True)
    statistics = []
    for stat_name, value in ((moving_mean_name, 0.0), (moving_variance_name, 1.0)):
        attr = ParamAttr(name=stat_name, initializer=Constant(value), trainable=False,
                         do_model_average=do_model_average_for_mean_and_var)
        statistics.append(_make_parameter(owner, shape, attr, dtype))
    mean, variance = statistics
    # The in-place form writes MeanOut and VarianceOut into the running statistics.
    out = _C_ops.batch_norm_(input, mean, variance, scale, bias, bool(is_test), float(momentum),
                             float(epsilon), data_layout, bool(use_global_stats), False)[0]
    return _activate(out, act, "batch_norm")
