"""paddle.static.nn's group_norm, instance_norm and spectral_norm: each creates its parameters in
the current main program (initialised by the startup program), named like Paddle's
("group_norm_0.w_0", ...), and appends the op of the same name."""
import math

from ... import _C_ops
from ...base.framework import is_floating
from ...nn import functional as F
from ...nn.initializer import Constant, Normal
from ...nn.param_attr import ParamAttr
from ...nn.parameter import _make_parameter
from ...utils import unique_name
from .common import _activate, _check_variable, _static_only

__all__ = ["group_norm", "instance_norm", "spectral_norm"]


def _check_floating(x, api, arg):
    _check_variable(x, api, arg)
    if not is_floating(x.dtype):
        raise TypeError(f"{api}(): '{arg}' must be floating-point, but received {x.dtype.name}")


def _known_dim(x, axis, api, arg):
    dim = x.shape[axis]
    if dim < 0:
        raise ValueError(f"{api}(): dim {axis} of '{arg}' must be known, but '{arg}' has shape "
                         f"{x.shape}")
    return dim


def group_norm(input, groups, epsilon=1e-05, param_attr=None, bias_attr=None, act=None,
               data_layout="NCHW", name=None):
    """Group normalization of `input` (channels on axis 1 for NCHW, last for NHWC) with a scale
    (param_attr, initially 1) and bias (bias_attr, initially 0) per channel, each left out when
    its attr is False, then `act`."""
    _static_only("group_norm")
    _check_floating(input, "group_norm", "input")
    if data_layout not in ("NCHW", "NHWC"):
        raise ValueError("unsupported data layout:" + str(data_layout))
    channels = _known_dim(input, 1 if data_layout == "NCHW" else -1, "group_norm", "input")
    owner = name or unique_name.generate("group_norm")
    scale = _make_parameter(owner, [channels], param_attr, input.dtype,
                            default_initializer=Constant(1.0))
    bias = _make_parameter(owner, [channels], bias_attr, input.dtype, is_bias=True)
    out = F.group_norm(input, groups, epsilon, scale, bias, data_layout)
    return _activate(out, act, "group_norm")


def instance_norm(input, epsilon=1e-05, param_attr=None, bias_attr=None, name=None):
    """Instance normalization of a channel-first `input` with a scale (param_attr, initially 1)
    and bias (bias_attr, initially 0) per channel; both attrs False leave both out."""
    _static_only("instance_norm")
    _check_floating(input, "instance_norm", "input")
    if (param_attr is False) != (bias_attr is False):
        raise ValueError("instance_norm(): param_attr and bias_attr must be False together")
    channels = _known_dim(input, 1, "instance_norm", "input")
    owner = name or unique_name.generate("instance_norm")
    scale = _make_parameter(owner, [channels], param_attr, input.dtype,
                            default_initializer=Constant(1.0))
    bias = _make_parameter(owner, [channels], bias_attr, input.dtype, is_bias=True)
    return F.instance_norm(input, weight=scale, bias=bias, eps=epsilon)


def spectral_norm(weight, dim=0, power_iters=1, eps=1e-12, name=None):
    """`weight` divided by its largest singular value (the spectral_norm op), estimated from the
    vectors u ([weight.shape[dim]]) and v ([the product of the other dims]): parameters drawn
    from N(0, 1) that no gradient or optimizer changes."""
    _static_only("spectral_norm")
    _check_floating(weight, "spectral_norm", "weight")
    shape = list(weight.shape)
    if not 0 <= dim < len(shape) or any(d < 0 for d in shape):
        raise ValueError(f"spectral_norm(): 'dim' must index a dim of 'weight', and its dims "
                         f"must be known; received dim={dim} for shape {shape}")
    h = shape[dim]
    owner = name or unique_name.generate("spectral_norm")
    vectors = []
    for size in (h, math.prod(shape) // max(h, 1)):
        vector = _make_parameter(owner, [size], ParamAttr(), weight.dtype,
                                 default_initializer=Normal(0.0, 1.0))
        vector.stop_gradient = True
        vectors.append(vector)
    return _C_ops.spectral_norm(weight, vectors[0], vectors[1], int(dim), int(power_iters),
                                float(eps))
