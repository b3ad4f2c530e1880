"""linear and dropout."""
import numbers

from ... import _C_ops
from ...base.framework import in_dynamic_mode, is_floating
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


def _program_seed():
    """The current main program's random_seed (0: unset), which Paddle's dropout uses as a fixed
    seed when it is set."""
    from ...static.program import default_main_program
    return getattr(default_main_program(), "random_seed", 0) or 0


def dropout(x, p=0.5, axis=None, training=True, mode="upscale_in_train", name=None):
    """Zeroes each element with probability p (whole slices along the dims not in `axis` when
    `axis` is given). mode 'upscale_in_train' scales the kept ones by 1/(1-p) in training and
    is the identity in eval; 'downscale_in_infer' keeps them as they are in training and
    multiplies by (1-p) in eval.

    Without `axis` this is Paddle's `dropout` op (any batch size in a static program; an eval
    program from clone(for_test=True) runs it with is_test). With `axis` the mask is drawn by a
    uniform op over the dims in `axis`, which must then be known."""
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
    if p == 0:
        return x
    if axis is None:
        if not training and in_dynamic_mode():
            # The op's is_test result without a copy (and on any device).
            return x if mode == "upscale_in_train" else _C_ops.scale(x, 1.0 - p, 0.0, True)
        seed = _program_seed()
        op_mode = "downgrade_in_infer" if mode == "downscale_in_infer" else mode
        out, _ = _C_ops.dropout(x, None, float(p), not training, op_mode, int(seed), seed != 0)
        return out
    if not training:
        return x if mode == "upscale_in_train" else _C_ops.scale(x, 1.0 - p, 0.0, True)
    if p == 1:
        return _C_ops.scale(x, 0.0, 0.0, True)
    rank = len(x.shape)
    axes = [axis] if isinstance(axis, numbers.Integral) else list(axis)
    axes = [a % rank for a in axes]
    mask_shape = [d if i in axes else 1 for i, d in enumerate(x.shape)]
    if any(d < 0 for d in mask_shape):
        raise NotImplementedError(
            f"dropout(): with 'axis' the mask is drawn by a uniform op of fixed shape, so in a "
            f"static program the dims of x in 'axis' must be known; received x of shape "
            f"{x.shape} and axis {axis}")
    # Keep an element when its uniform draw is >= p (Paddle's rule), then scale.
    draw_dtype = x.dtype if x.dtype in (DataType.FLOAT32, DataType.FLOAT64) else DataType.FLOAT32
    draw = _C_ops.uniform(mask_shape, draw_dtype, 0.0, 1.0, 0, x.place)
    keep = _C_ops.cast(_C_ops.greater_equal(draw, _C_ops.full_like(draw, p, draw.dtype)), x.dtype)
    if mode == "upscale_in_train":
        keep = _C_ops.scale(keep, 1.0 / (1.0 - p), 0.0, True)
    return _C_ops.multiply(x, keep)
