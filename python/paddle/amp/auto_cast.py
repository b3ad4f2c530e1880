"""paddle.amp.auto_cast and paddle.amp.decorate: automatic mixed precision in dygraph.

auto_cast sets the eager dispatcher's AMP state (paddle/imperative/amp.h, which applies the
rules op by op) for the block and restores the previous state after it. Unlike PaddlePaddle,
which turns AMP off with a warning on the CPU, it runs on the CPU too: bfloat16 is the CPU's
low dtype (oneDNN's bf16 matmul where the CPU has AVX512-BF16), float16 works through float32
arithmetic. Ops appended to a static program inside the block get the same casts, as cast ops
(its gradient ops then follow their forward ops' dtypes).

decorate at O2 casts the models' parameters to the low dtype, except the normalization layers'
and excluded_layers', and lets the optimizers keep float32 master weights (master_weight)."""
import contextlib

from ..base import libpaddle
from . import amp_lists

__all__ = ["auto_cast", "amp_guard", "decorate", "amp_decorate", "is_autocast_enabled",
           "get_autocast_dtype"]

_LEVELS = {"O0": 0, "OD": 1, "O1": 2, "O2": 3}
_LOW_DTYPES = {"float16": libpaddle.DataType.FLOAT16, "bfloat16": libpaddle.DataType.BFLOAT16}


def _level_name(level):
    name = level.upper() if isinstance(level, str) else level
    if name not in _LEVELS:
        raise ValueError(f"level should be O0, OD, O1 or O2, received {level!r}")
    return name


def _dtype_name(dtype):
    """'float16' or 'bfloat16' from a name or a paddle dtype; ValueError naming it otherwise."""
    name = dtype.name if isinstance(dtype, libpaddle.DataType) else dtype
    name = name.lower() if isinstance(name, str) else name
    if name not in _LOW_DTYPES:
        raise ValueError(f"If enable amp, dtype should be 'float16' or 'bfloat16', received "
                         f"{dtype!r}")
    return name


def _update_list(custom_white_list, custom_black_list, level, dtype):
    """Paddle's lists for (level, dtype) with the custom entries moved across."""
    white = set(amp_lists.white_list()[dtype].get(level, set()))
    black = set(amp_lists.black_list()[dtype].get(level, set()))
    custom_white = set(custom_white_list or ())
    custom_black = set(custom_black_list or ())
    overlap = custom_white & custom_black
    if overlap:
        raise ValueError(f"Custom white list overlap custom black list: {sorted(overlap)}")
    white = (white - custom_black) | custom_white
    black = (black - custom_white) | custom_black
    return white, black


@contextlib.contextmanager
def auto_cast(enable=True, custom_white_list=None, custom_black_list=None, level="O1",
              dtype="float16", use_promote=True):
    """Runs the block's ops in mixed precision (dygraph): at O1 the white-list ops (matmul,
    conv2d, ...) in `dtype` and the black-list ones in float32, at O2 every op but the black
    list in `dtype`. Raises ValueError for an unknown level or dtype."""
    level = _level_name(level)
    dtype = _dtype_name(dtype) if enable or dtype is not None else "float16"
    white, black = _update_list(custom_white_list, custom_black_list, level, dtype)
    previous = libpaddle._get_amp_state()
    libpaddle._set_amp_state(_LEVELS[level] if enable else 0, _LOW_DTYPES[dtype], white, black,
                             bool(use_promote))
    try:
        yield
    finally:
        libpaddle._set_amp_state(*previous)


amp_guard = auto_cast


def is_autocast_enabled():
    """Whether an auto_cast block with a level other than O0 is active."""
    return libpaddle._get_amp_state()[0] != 0


def get_autocast_dtype():
    """The low dtype of the active auto_cast block (float32 outside one)."""
    level, dtype = libpaddle._get_amp_state()[:2]
    return dtype if level != 0 else libpaddle.DataType.FLOAT32


def _norm_layer_types():
    from .. import nn
    names = ("BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "SyncBatchNorm",
             "LayerNorm", "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D", "GroupNorm")
    return tuple(getattr(nn, n) for n in names if hasattr(nn, n))


def _excluded_types(excluded_layers):
    if excluded_layers is None:
        return (), ()
    items = excluded_layers if isinstance(excluded_layers, (list, tuple)) else [excluded_layers]
    types = tuple(i for i in items if isinstance(i, type))
    instances = tuple(i for i in items if not isinstance(i, type))
    return types, instances


def _cast_model(model, dtype, excluded_layers):
    """Casts the floating parameters of `model` to dtype, except the normalization layers' and
    the excluded layers' (instances, or Layer subclasses)."""
    keep_types, keep_layers = _excluded_types(excluded_layers)
    keep_types = keep_types + _norm_layer_types()
    kept = set()
    for layer in model.sublayers(include_self=True):
        if isinstance(layer, keep_types) or any(layer is k for k in keep_layers):
            kept.update(id(p) for p in layer.parameters())
    from ..nn.layer.layers import _transform_tensor
    for param in model.parameters():
        if id(param) not in kept and param.dtype == libpaddle.DataType.FLOAT32:
            _transform_tensor(param, None, _LOW_DTYPES[dtype], True)


def decorate(models, optimizers=None, level="O1", dtype="float16", master_weight=None,
             save_dtype=None, master_grad=False, excluded_layers=None):
    """For O2 training: casts the models' parameters to `dtype` (normalization layers and
    excluded_layers stay float32) and makes the optimizers update float32 master weights
    (master_weight None or True). save_dtype casts the parameters state_dict() returns. At O1
    the models and optimizers are returned unchanged. Returns what was given (models, or
    (models, optimizers))."""
    level = _level_name(level)
    dtype = _dtype_name(dtype)
    if save_dtype is not None and save_dtype not in ("float16", "bfloat16", "float32",
                                                     "float64"):
        raise ValueError(f"save_dtype can only be float16, bfloat16, float32 or float64, "
                         f"received {save_dtype!r}")
    from ..nn import Layer
    from ..optimizer import Optimizer
    model_list = models if isinstance(models, (list, tuple)) else [models]
    for model in model_list:
        if not isinstance(model, Layer):
            raise TypeError(f"models must be a Layer or a list of Layers, received "
                            f"{type(model).__name__}")
    optimizer_list = ([] if optimizers is None else
                      optimizers if isinstance(optimizers, (list, tuple)) else [optimizers])
    for opt in optimizer_list:
        if not isinstance(opt, Optimizer):
            raise TypeError(f"optimizers must be an Optimizer or a list of Optimizers, "
                            f"received {type(opt).__name__}")
    if level == "O2":
        for model in model_list:
            _cast_model(model, dtype, excluded_layers)
        if master_weight is not False:
            for opt in optimizer_list:
                opt._multi_precision = True
    if save_dtype is not None:
        for model in model_list:
            model.register_state_dict_hook(_cast_state_dict_hook(save_dtype))
    if optimizers is None:
        return models
    return models, optimizers


amp_decorate = decorate


def _cast_state_dict_hook(save_dtype):
    def hook(state_dict):
        for key, value in state_dict.items():
            if hasattr(value, "astype") and value.dtype in (
                    libpaddle.DataType.FLOAT16, libpaddle.DataType.BFLOAT16,
                    libpaddle.DataType.FLOAT32, libpaddle.DataType.FLOAT64):
                state_dict[key] = value.astype(save_dtype)
    return hook
