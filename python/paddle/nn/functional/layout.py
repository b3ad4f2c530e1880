"""pad, zeropad2d, unfold and fold: the argument handling Paddle does in Python in front of the
ops of paddle/ops/yaml/layout.yaml (the order of a pad list and the choice between the `pad` and
`pad3d` ops; sizes given as an int, a pair or four values)."""
import numbers

from ... import _C_ops
from ...base.framework import in_dynamic_mode
from ...base.generated_api import squeeze, unsqueeze
from ...tensor._helpers import Tensor, as_int_list, check_tensor

__all__ = ["pad", "zeropad2d", "unfold", "fold"]

_PAD_MODES = ("constant", "reflect", "replicate", "circular")
# The data formats of the 3-, 4- and 5-D inputs, channel-first ones first.
_FORMATS = {3: ("NCL", "NLC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}


def pad(x, pad, mode="constant", value=0.0, data_format=None, pad_from_left_axis=True, name=None):
    """Pads x by `pad` in `mode`, as Paddle's F.pad does:

    - 'constant' with a list of any length but 2 * (x.ndim - 2): the `pad` op on any rank. The
      pairs (before, after) apply from the last axis backwards; a list of exactly 2 * x.ndim
      values applies from the first axis forwards when pad_from_left_axis is True. A short list
      is filled with zeros.
    - otherwise (another mode, a Tensor `pad`, or 2 * (x.ndim - 2) values): the `pad3d` op on
      the spatial axes of a 3-, 4- or 5-D x in `data_format`, [left, right, top, bottom, front,
      back] from the last spatial axis; 3-D and 4-D inputs get unit dims around the call."""
    check_tensor(x, "pad")
    if mode not in _PAD_MODES:
        raise ValueError(f"pad(): argument 'mode' must be one of {', '.join(_PAD_MODES)}, "
                         f"received {mode!r}")
    if not isinstance(value, numbers.Real):
        raise TypeError(f"pad(): argument 'value' must be a number, not {type(value).__name__}")
    rank = len(x.shape)
    pad_is_tensor = isinstance(pad, Tensor)
    if not pad_is_tensor and not isinstance(pad, (list, tuple)):
        raise TypeError(f"pad(): argument 'pad' must be a list, tuple or Tensor of ints, not "
                        f"{type(pad).__name__}")
    if pad_is_tensor and not in_dynamic_mode():
        raise NotImplementedError("pad(): a Tensor 'pad' is read when the call runs; in a static "
                                  "program give a list or tuple of ints")
    paddings = as_int_list(pad, "pad", "pad")
    if pad_is_tensor and not paddings:
        return x.clone()  # as Paddle does for an empty Tensor
    spatial = 2 * (rank - 2)
    if mode == "constant" and not pad_is_tensor and (len(paddings) != spatial or rank not in _FORMATS):
        return _C_ops.pad(x, _pad_op_paddings(paddings, rank, pad_from_left_axis), float(value))

    if rank not in _FORMATS:
        raise ValueError(f"pad(): in {mode!r} mode, or with a Tensor 'pad', 'x' must be 3-, 4- or "
                         f"5-D, received shape {x.shape}")
    if len(paddings) != spatial:
        raise ValueError(f"pad(): argument 'pad' must hold 2 * (x.ndim - 2) = {spatial} values "
                         f"for a {rank}-D 'x' in {mode!r} mode, received {paddings}")
    if data_format is None:
        data_format = _FORMATS[rank][0]
    if not isinstance(data_format, str) or data_format.upper() not in _FORMATS[rank]:
        raise ValueError(f"pad(): argument 'data_format' for a {rank}-D 'x' must be one of "
                         f"{', '.join(_FORMATS[rank])}, received {data_format!r}")
    channel_last = data_format.upper() == _FORMATS[rank][1]
    # pad3d pads [W, H, D]; a 3-D input's L becomes D and a 4-D input gets a unit D.
    if rank == 3:
        paddings = [0, 0, 0, 0] + paddings
        unit_axes = [2, 3] if channel_last else [3, 4]
    elif rank == 4:
        paddings = paddings + [0, 0]
        unit_axes = [1] if channel_last else [2]
    else:
        unit_axes = []
    if unit_axes:
        x = unsqueeze(x, unit_axes)
    out = _C_ops.pad3d(x, paddings, mode, float(value), "NDHWC" if channel_last else "NCDHW")
    return squeeze(out, unit_axes) if unit_axes else out


def _pad_op_paddings(paddings, rank, pad_from_left_axis):
    """The `pad` op's [before_0, after_0, before_1, ...] (from the first axis) for F.pad's list."""
    if len(paddings) > 2 * rank:
        raise ValueError(f"pad(): argument 'pad' holds {len(paddings)} values, more than 2 * "
                         f"x.ndim = {2 * rank}")
    from_first_axis = len(paddings) == 2 * rank and pad_from_left_axis
    padded = paddings + [0] * (2 * rank - len(paddings))
    if from_first_axis:
        return padded
    pairs = [padded[i:i + 2] for i in range(0, 2 * rank, 2)]
    return [p for pair in reversed(pairs) for p in pair]


def zeropad2d(x, padding, data_format="NCHW", name=None):
    return pad(x, pad=padding, mode="constant", value=0, data_format=data_format)


def _pair(value, api, arg):
    """An int k as [k, k]; a list or tuple of two ints as is."""
    values = as_int_list(value, api, arg)
    if isinstance(value, (numbers.Integral, Tensor)) and len(values) == 1:
        return values * 2
    if len(values) != 2:
        raise ValueError(f"{api}(): argument '{arg}' must be an int or 2 ints, received {value}")
    return values


def _paddings(value, api):
    """[top, left, bottom, right] from an int, [pad_h, pad_w] or four values."""
    values = as_int_list(value, api, "paddings")
    if len(values) == 1 and isinstance(value, (numbers.Integral, Tensor)):
        return values * 4
    if len(values) == 2:
        return values * 2
    if len(values) != 4:
        raise ValueError(f"{api}(): argument 'paddings' must be an int, 2 ints or 4 ints, "
                         f"received {value}")
    return values


def unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """im2col: [N, C, H, W] -> [N, C * kh * kw, L], one column per kernel position."""
    check_tensor(x, "unfold")
    return _C_ops.unfold(x, _pair(kernel_sizes, "unfold", "kernel_sizes"),
                         _pair(strides, "unfold", "strides"), _paddings(paddings, "unfold"),
                         _pair(dilations, "unfold", "dilations"))


def fold(x, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """col2im: [N, C * kh * kw, L] -> [N, C, H, W], summing the values that meet."""
    check_tensor(x, "fold")
    return _C_ops.fold(x, _pair(output_sizes, "fold", "output_sizes"),
                       _pair(kernel_sizes, "fold", "kernel_sizes"), _pair(strides, "fold", "strides"),
                       _paddings(paddings, "fold"), _pair(dilations, "fold", "dilations"))
