"""linear and dropout."""
import numbers

from ... import _C_ops
from ...base.framework import is_floating
from ...base.libpaddle import DataType
from ...tensor._helpers import check_tensor

__all__ = ["linear", "dropout"]


def linear(x, weight, bias=None, name=None):
    """x @ weight + bias, with weight laid out [in_features, out_features] as in Paddle."""
    check_tensor(x, "linear")
    check_tensor(weight, "linear", "weight")
    out = _C_ops.matmul(x, weight, False, False)
    if bias is not None:
        out = _C_ops.add(out, check_tensor(bias, "linear", "bias"))
    return out


def dropout(x, p=0.5, axis=None, training=True, mode="upscale_in_train", name=None):
    """Zeroes each element with probability p (whole slices along the dims not in `axis` when
    `axis` is given). mode 'upscale_in_train' scales the kept ones by 1/(1-p) in training and
    is the identity in eval; 'downscale_in_infer' keeps them as they are in training and
    multiplies by (1-p) in eval."""
    check_tensor(x, "dropout")
    if not isinstance(p, numbers.Real) or isinstance(p, bool):
        raise TypeError(f"dropout(): 'p' must be a float, but received {type(p).__name__}")
    if not 0 <= p <= 1:
        raise ValueError(f"dropout(): 'p' must be in [0, 1], but received {p}")
    if mode not in ("upscale_in_train", "downscale_in_infer"):
        raise ValueError(f"dropout(): 'mode' must be 'upscale_in_train' or "
                         f"'downscale_in_infer', but received {mode!r}")
    if not is_floating(x.dtype):
        raise TypeError(f"dropout(): 'x' must be a floating-point tensor, but it is "
                        f"{x.dtype.name}")
    if not training:
        return x if mode == "upscale_in_train" else _C_ops.scale(x, 1.0 - p, 0.0, True)
    if p == 0:
        return x
    if p == 1:
        return _C_ops.scale(x, 0.0, 0.0, True)
    rank = len(x.shape)
    if axis is None:
        mask_shape = list(x.shape)
    else:
        axes = [axis] if isinstance(axis, numbers.Integral) else list(axis)
        axes = [a % rank for a in axes]
        mask_shape = [d if i in axes else 1 for i, d in enumerate(x.shape)]
    if any(d < 0 for d in mask_shape):
        raise NotImplementedError(
            f"dropout(): the mask is drawn by a uniform op of fixed shape, so in a static "
            f"program the dims of x it covers must be known; received x of shape {x.shape}")
    # Keep an element when its uniform draw is >= p (Paddle's rule), then scale.
    draw_dtype = x.dtype if x.dtype in (DataType.FLOAT32, DataType.FLOAT64) else DataType.FLOAT32
    draw = _C_ops.uniform(mask_shape, draw_dtype, 0.0, 1.0, 0, x.place)
    keep = _C_ops.cast(_C_ops.greater_equal(draw, _C_ops.full_like(draw, p, draw.dtype)), x.dtype)
    if mode == "upscale_in_train":
        keep = _C_ops.scale(keep, 1.0 / (1.0 - p), 0.0, True)
    return _C_ops.multiply(x, keep)
