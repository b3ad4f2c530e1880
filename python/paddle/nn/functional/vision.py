"""affine_grid, hand-written because out_shape may be a tensor: in dygraph its values become
the op's output_shape attribute, in a static program it is the op's OutputShape input.
grid_sample is generated from its op declaration (paddle/ops/yaml/interpolate.yaml)."""
from ... import _C_ops
from ...base.framework import in_dynamic_mode
from ...base.libpaddle import DataType
from ...tensor._helpers import Tensor, as_int_list, check_tensor

__all__ = ["affine_grid"]


def affine_grid(theta, out_shape, align_corners=True, name=None):
    """The sampling grid of a batch of affine maps for grid_sample: theta [N, 2, 3] with
    out_shape [N, C, H, W] gives [N, H, W, 2], theta [N, 3, 4] with [N, C, D, H, W] gives
    [N, D, H, W, 3]; out[n, ..., :] = theta[n] @ (x, y[, z], 1) at each output pixel's
    coordinates in [-1, 1] (pixel centres; with align_corners the corner pixels' centres are
    at -1 and 1)."""
    check_tensor(theta, "affine_grid", "theta")
    if not isinstance(align_corners, bool):
        raise TypeError(f"affine_grid(): 'align_corners' must be a bool, received "
                        f"{type(align_corners).__name__}")
    if isinstance(out_shape, Tensor) and not in_dynamic_mode():
        if out_shape.dtype not in (DataType.INT32, DataType.INT64):
            out_shape = _C_ops.cast(out_shape, DataType.INT32)
        return _C_ops.affine_grid(theta, out_shape, [], align_corners)
    shape = as_int_list(out_shape, "affine_grid", "out_shape")
    if isinstance(out_shape, Tensor) and not shape:
        raise ValueError("affine_grid(): 'out_shape' must not be empty")
    return _C_ops.affine_grid(theta, None, shape, align_corners)
