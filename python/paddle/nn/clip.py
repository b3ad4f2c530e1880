"""Gradient clipping strategies, passed to an optimizer as grad_clip=.

Each is called with the list of (param, grad) pairs of one step and returns new pairs. A
parameter whose need_clip is False (ParamAttr(need_clip=False)) passes through unchanged and,
for the global norm, does not count towards it. A sparse gradient (SelectedRows, from
Embedding(sparse=True)) is clipped through its merged rows, which hold every nonzero element
of its dense form, and stays sparse.
"""
from .. import _C_ops
from ..base import libpaddle
from ..base.libpaddle import DataType

__all__ = ["ClipGradByGlobalNorm", "ClipGradByNorm", "ClipGradByValue"]


def _needs_clip(param):
    return getattr(param, "need_clip", True)


def _squared_l2_norm(x):
    return _C_ops.sum(_C_ops.square(x), [], x.dtype, False)


def _merged(g):
    """A SelectedRows gradient with its repeated rows summed (the values then are its dense
    form's nonzero rows); a dense gradient as it is."""
    if not g.is_selected_rows():
        return g
    if libpaddle._in_static_mode():
        raise NotImplementedError(f"gradient clipping of the sparse (SelectedRows) gradient "
                                  f"'{g.name}' is not supported in static graph mode; clip in "
                                  f"dygraph mode or use a dense embedding (sparse=False)")
    return libpaddle._merge_selected_rows(g)


def _values(g):
    """The elements of a merged gradient: a SelectedRows gradient's value tensor."""
    return libpaddle._selected_rows_value(g) if g.is_selected_rows() else g


def _map_values(g, fn):
    """fn applied to the elements of a merged gradient; a SelectedRows stays one."""
    if not g.is_selected_rows():
        return fn(g)
    return libpaddle._make_selected_rows(g.rows(), fn(_values(g)),
                                         libpaddle._selected_rows_height(g))


class ClipGradBase:
    def __call__(self, params_grads):
        return self._dygraph_clip(params_grads)

    def _dygraph_clip(self, params_grads):
        raise NotImplementedError


class ClipGradByValue(ClipGradBase):
    """Clamps every gradient element into [min, max] (min defaults to -max)."""

    def __init__(self, max, min=None):
        if min is None:
            if max <= 0:
                raise ValueError("max should be greater than 0 when min is None")
            min = -max
        if min > max:
            raise ValueError(f"min ({min}) should not be greater than max ({max})")
        self.max = float(max)
        self.min = float(min)

    def __str__(self):
        return f"Clip Gradient By Value, min = {self.min:f}, max={self.max:f}"

    def _dygraph_clip(self, params_grads):
        out = []
        for p, g in params_grads:
            if g is None:
                continue
            if _needs_clip(p):
                g = _map_values(_merged(g), lambda v: _C_ops.clip(v, self.min, self.max))
            out.append((p, g))
        return out


class ClipGradByNorm(ClipGradBase):
    """Rescales each gradient on its own so its L2 norm is at most clip_norm."""

    def __init__(self, clip_norm):
        self.clip_norm = float(clip_norm)

    def __str__(self):
        return f"Gradient Clip By Norm, clip_norm={self.clip_norm:f}"

    def _dygraph_clip(self, params_grads):
        out = []
        for p, g in params_grads:
            if g is None:
                continue
            if not _needs_clip(p):
                out.append((p, g))
                continue
            g = _merged(g)
            norm = _C_ops.sqrt(_squared_l2_norm(_values(g)))
            bound = _C_ops.full_like(norm, self.clip_norm, norm.dtype)
            # g * clip_norm / max(norm, clip_norm): unchanged when the norm is within bounds.
            scale = _C_ops.divide(bound, _C_ops.maximum(norm, bound))
            out.append((p, _map_values(g, lambda v: _C_ops.multiply(v, scale))))
        return out


class ClipGradByGlobalNorm(ClipGradBase):
    """Rescales all gradients together so that the L2 norm of their concatenation is at most
    clip_norm: g * clip_norm / max(global_norm, clip_norm). With auto_skip_clip=True the
    gradients are left untouched when the global norm is within bounds."""

    def __init__(self, clip_norm, group_name="default_group", auto_skip_clip=False):
        if not isinstance(group_name, str):
            raise TypeError("'group_name' must be a str")
        self.clip_norm = float(clip_norm)
        self.group_name = group_name
        self.auto_skip_clip = auto_skip_clip

    def __str__(self):
        return f"Gradient Clip By GlobalNorm, global_norm={self.clip_norm:f}"

    def _dygraph_clip(self, params_grads):
        params_grads = [(p, g if g is None else _merged(g)) for p, g in params_grads]
        grads = [_values(g) for p, g in params_grads if g is not None and _needs_clip(p)]
        if not grads:
            return params_grads
        # Accumulate in float32 at least, so half-precision gradients do not overflow.
        acc_dtype = (DataType.FLOAT64 if any(g.dtype == DataType.FLOAT64 for g in grads)
                     else DataType.FLOAT32)
        total = None
        for g in grads:
            square = _squared_l2_norm(g if g.dtype == acc_dtype else _C_ops.cast(g, acc_dtype))
            total = square if total is None else _C_ops.add(total, square)
        global_norm = _C_ops.sqrt(total)
        max_norm = _C_ops.full_like(global_norm, self.clip_norm, global_norm.dtype)
        if self.auto_skip_clip and not float(global_norm.numpy()) > self.clip_norm:
            return params_grads
        scale = _C_ops.divide(max_norm, _C_ops.maximum(global_norm, max_norm))
        out = []
        for p, g in params_grads:
            if g is None:
                continue
            if not _needs_clip(p):
                out.append((p, g))
                continue
            factor = scale if scale.dtype == g.dtype else _C_ops.cast(scale, g.dtype)
            out.append((p, _map_values(g, lambda v: _C_ops.multiply(v, factor))))
        return out
