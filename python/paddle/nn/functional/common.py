"""linear, dropout, interpolate and upsample."""
import math
import numbers

import numpy as np

from ... import _C_ops
from ...base.framework import in_dynamic_mode, is_floating
from ...base import libpaddle
from ...base.libpaddle import DataType
from ...tensor._helpers import Tensor, check_tensor
from ...tensor.creation import to_tensor

__all__ = ["linear", "dropout", "interpolate", "upsample"]


def linear(x, weight, bias=None, name=None):
    """x @ weight + bias, with weight laid out [in_features, out_features] as in Paddle."""
    check_tensor(x, "linear")
    check_tensor(weight, "linear", "weight")
    out = _C_ops.matmul(x, weight, False, False)
    if bias is not None:
        bias = check_tensor(bias, "linear", "bias")
        if out.dtype != bias.dtype and libpaddle._get_amp_state()[0]:
            # Under auto_cast linear is one white-list op in Paddle (linear_v2): the bias joins
            # the low-precision matmul's dtype instead of promoting its result back to float32.
            bias = _C_ops.cast(bias, out.dtype)
        out = _C_ops.add(out, bias)
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
    # Keep an element when its float32 uniform draw is >= p (Paddle's rule), then scale.
    draw = _C_ops.uniform(mask_shape, DataType.FLOAT32, 0.0, 1.0, 0, x.place)
    keep = _C_ops.cast(_C_ops.greater_equal(draw, _C_ops.full_like(draw, p, draw.dtype)), x.dtype)
    if mode == "upscale_in_train":
        keep = _C_ops.scale(keep, 1.0 / (1.0 - p), 0.0, True)
    return _C_ops.multiply(x, keep)


# ---------------------------------------------------------------- interpolate
# Paddle normalises size and scale_factor in Python: in dygraph a size or factor given as a
# tensor becomes numbers (the op reads attributes); in a static program a size tensor becomes
# the op's OutSize input, a list holding tensors its SizeTensor inputs (one [1] int32 tensor per
# spatial dim), a factor tensor its Scale input. Mode 'area' is adaptive average pooling, done
# here as one averaging matrix per spatial axis (each output pixel averages the input box
# [floor(i * in / out), ceil((i + 1) * in / out)) along every axis).
_INTERPOLATE_MODES = {"linear": (3,), "bilinear": (4,), "bicubic": (4,), "trilinear": (5,),
                      "nearest": (4, 5), "area": (3, 4, 5)}
_CHANNEL_FIRST = {3: "NCW", 4: "NCHW", 5: "NCDHW"}
_CHANNEL_LAST = {3: "NWC", 4: "NHWC", 5: "NDHWC"}


def _is_static_tensor(value):
    return isinstance(value, Tensor) and not in_dynamic_mode()


def _tensor_numbers(value):
    """The elements of a dygraph tensor as Python numbers (16-bit floats read through float64,
    as NumPy has no bfloat16)."""
    if is_floating(value.dtype) and value.dtype != DataType.FLOAT64:
        value = _C_ops.cast(value, DataType.FLOAT64)
    return [v.item() for v in value.numpy().reshape(-1)]


def _positive_number(value, api, arg, kind):
    """A Python number (or a one-element tensor, in dygraph) that must be positive."""
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"{api}(): each entry of '{arg}' must hold one value, received a "
                             f"tensor of shape {value.shape}")
        value = _tensor_numbers(value)[0]
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.number)):
        raise TypeError(f"{api}(): the entries of '{arg}' must be numbers, received "
                        f"{type(value).__name__}")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{api}(): the entries of '{arg}' must be positive and finite, "
                         f"received {value}")
    return kind(value)


def _interpolate_size(size, spatial, api):
    """size -> (out_size tensor or None, size_tensor list, [out_d, out_h, out_w])."""
    attrs = [-1] * spatial
    if _is_static_tensor(size):
        if len(size.shape) != 1 or size.shape[0] not in (-1, spatial):
            raise ValueError(f"{api}(): a 'size' tensor must be 1-D with {spatial} values, "
                             f"received shape {size.shape}")
        if size.dtype not in (DataType.INT32, DataType.INT64):
            size = _C_ops.cast(size, DataType.INT32)
        size.stop_gradient = True
        return size, [], attrs
    if isinstance(size, Tensor):
        size = _tensor_numbers(size)
    if not isinstance(size, (list, tuple)):
        raise TypeError(f"{api}(): 'size' must be a list, tuple or Tensor, received "
                        f"{type(size).__name__}")
    if len(size) != spatial:
        raise ValueError(f"{api}(): 'size' must hold {spatial} values (one per spatial dim of "
                         f"x), received {len(size)}")
    if any(_is_static_tensor(v) for v in size):
        size_tensor = []
        for i, v in enumerate(size):
            if _is_static_tensor(v):
                v = _C_ops.reshape(_C_ops.cast(v, DataType.INT32), [1])
                v.stop_gradient = True
            else:
                attrs[i] = _positive_number(v, api, "size", int)
                v = to_tensor([attrs[i]], dtype="int32")
            size_tensor.append(v)
        return None, size_tensor, attrs
    return None, [], [_positive_number(v, api, "size", int) for v in size]


def _interpolate_scale(scale_factor, spatial, api):
    """scale_factor -> (scale tensor or None, one factor per spatial dim)."""
    if _is_static_tensor(scale_factor):
        if scale_factor.dtype not in (DataType.FLOAT32, DataType.FLOAT64):
            scale_factor = _C_ops.cast(scale_factor, DataType.FLOAT32)
        scale_factor.stop_gradient = True
        return scale_factor, []
    if isinstance(scale_factor, Tensor):
        scale_factor = _tensor_numbers(scale_factor)
        if len(scale_factor) == 1:
            scale_factor = scale_factor[0]
    if isinstance(scale_factor, (list, tuple)):
        if len(scale_factor) != spatial:
            raise ValueError(f"{api}(): 'scale_factor' must hold {spatial} values (one per "
                             f"spatial dim of x), received {len(scale_factor)}")
        return None, [_positive_number(v, api, "scale_factor", float) for v in scale_factor]
    return None, [_positive_number(scale_factor, api, "scale_factor", float)] * spatial


def _area_matrix(in_size, out_size, dtype):
    """The [out_size, in_size] matrix of adaptive average pooling along one axis."""
    matrix = np.zeros((out_size, in_size))
    for i in range(out_size):
        start, end = (i * in_size) // out_size, -((-(i + 1) * in_size) // out_size)
        matrix[i, start:end] = 1.0 / (end - start)
    return to_tensor(matrix, dtype=dtype)


def _area_interpolate(x, sizes, channel_last, api):
    """Adaptive average pooling of x's spatial dims to `sizes`: the averaging matrix of each axis
    applied along it."""
    rank = len(x.shape)
    spatial = rank - 2
    first = 1 if channel_last else 2
    for i in range(spatial):
        in_size = x.shape[first + i]
        if in_size < 0:
            raise ValueError(f"{api}(): mode 'area' needs the spatial dims of x to be known, "
                             f"received shape {x.shape}")
        axis = first + i
        # Move the axis last, multiply by the transposed matrix, move it back.
        perm = [d for d in range(rank) if d != axis] + [axis]
        inverse = sorted(range(rank), key=lambda d: perm[d])
        moved = _C_ops.transpose(x, perm)
        moved = _C_ops.matmul(moved, _area_matrix(in_size, sizes[i], x.dtype), False, True)
        x = _C_ops.transpose(moved, inverse)
    return x


def interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=False,
                align_mode=0, data_format=None, recompute_scale_factor=None, name=None):
    """Resizes the spatial dims of x (3-D, 4-D or 5-D; data_format None: NCW, NCHW or NCDHW by
    rank) to `size`, or by `scale_factor` (output = floor(input * factor); the factor also sets
    the sampling ratio unless recompute_scale_factor). mode: 'nearest' (4-D, 5-D), 'linear'
    (3-D), 'bilinear', 'bicubic' (4-D), 'trilinear' (5-D) or 'area' (adaptive average pooling,
    `size` only). align_corners aligns the corner pixels' centres (not with 'nearest');
    align_mode 0 samples at (i + 0.5) * ratio - 0.5, 1 at i * ratio (linear modes without
    align_corners). Runs Paddle's <mode>_interp_v2 op."""
    api = "interpolate"
    check_tensor(x, api)
    rank = len(x.shape)
    if rank not in (3, 4, 5):
        raise ValueError(f"{api}(): 'x' must be a 3-D, 4-D or 5-D tensor, received shape "
                         f"{x.shape}")
    if not isinstance(mode, str) or mode.lower() not in _INTERPOLATE_MODES:
        raise ValueError(f"{api}(): 'mode' must be one of {sorted(_INTERPOLATE_MODES)}, received "
                         f"{mode!r}")
    mode = mode.lower()
    if rank not in _INTERPOLATE_MODES[mode]:
        ranks = " or ".join(f"{r}-D" for r in _INTERPOLATE_MODES[mode])
        raise ValueError(f"{api}(): mode '{mode}' resamples {ranks} tensors, received x of "
                         f"shape {x.shape}")
    data_format = _CHANNEL_FIRST[rank] if data_format is None else data_format
    if not isinstance(data_format, str) or data_format.upper() not in (
            _CHANNEL_FIRST[rank], _CHANNEL_LAST[rank]):
        raise ValueError(f"{api}(): 'data_format' must be '{_CHANNEL_FIRST[rank]}' or "
                         f"'{_CHANNEL_LAST[rank]}' for a {rank}-D x, received {data_format!r}")
    channel_last = data_format.upper() == _CHANNEL_LAST[rank]
    if size is None and scale_factor is None:
        raise ValueError(f"{api}(): one of 'size' and 'scale_factor' must be given")
    if size is not None and scale_factor is not None:
        raise ValueError(f"{api}(): only one of 'size' and 'scale_factor' may be given")
    if not isinstance(align_corners, bool):
        raise TypeError(f"{api}(): 'align_corners' must be a bool, received "
                        f"{type(align_corners).__name__}")
    if align_mode not in (0, 1) or isinstance(align_mode, bool):
        raise ValueError(f"{api}(): 'align_mode' must be 0 or 1, received {align_mode!r}")
    if align_corners and mode == "nearest":
        raise ValueError(f"{api}(): 'align_corners' applies to the modes linear, bilinear, "
                         f"bicubic and trilinear, not 'nearest'")
    spatial = rank - 2
    if mode == "area":
        if size is None:
            raise ValueError(f"{api}(): mode 'area' needs 'size'")
        out_size, size_tensor, sizes = _interpolate_size(size, spatial, api)
        if out_size is not None or size_tensor:
            raise ValueError(f"{api}(): mode 'area' needs 'size' as ints in a static program")
        return _area_interpolate(x, sizes, channel_last, api)
    out_size, size_tensor, scale_tensor, factors = None, [], None, []
    if size is not None:
        if recompute_scale_factor:
            raise ValueError(f"{api}(): 'recompute_scale_factor' needs 'scale_factor', not "
                             f"'size'")
        out_size, size_tensor, sizes = _interpolate_size(size, spatial, api)
    else:
        scale_tensor, factors = _interpolate_scale(scale_factor, spatial, api)
        sizes = [-1] * spatial
        if recompute_scale_factor:
            in_sizes = x.shape[1:-1] if channel_last else x.shape[2:]
            if scale_tensor is not None or any(d < 0 for d in in_sizes):
                raise ValueError(f"{api}(): 'recompute_scale_factor' needs the spatial dims of "
                                 f"x and the scale factors to be known")
            sizes = [int(math.floor(d * f)) for d, f in zip(in_sizes, factors)]
            factors = []
    out_d, out_h, out_w = [-1] * (3 - spatial) + list(sizes)
    op = getattr(_C_ops, f"{mode}_interp")
    return op(x, out_size, size_tensor, scale_tensor, "NHWC" if channel_last else "NCHW",
              out_d, out_h, out_w, [float(f) for f in factors], mode, align_corners, align_mode)


def upsample(x, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0,
             data_format=None, name=None):
    """interpolate under its other name."""
    return interpolate(x, size, scale_factor, mode, align_corners, align_mode, data_format,
                       name=name)
