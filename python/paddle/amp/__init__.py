"""paddle.amp: automatic mixed precision in dygraph (auto_cast, decorate) and dynamic loss
scaling (GradScaler), on the CPU as on the GPU."""
from ..base import libpaddle
from . import amp_lists  # noqa: F401
from .amp_lists import black_list, white_list  # noqa: F401
from .auto_cast import (amp_decorate, amp_guard, auto_cast, decorate,  # noqa: F401
                        get_autocast_dtype, is_autocast_enabled)
from .grad_scaler import AmpScaler, GradScaler, OptimizerState  # noqa: F401

__all__ = ["auto_cast", "GradScaler", "decorate", "is_float16_supported",
           "is_bfloat16_supported", "is_autocast_enabled", "get_autocast_dtype",
           "get_autocast_cpu_dtype", "get_autocast_gpu_dtype"]

get_autocast_cpu_dtype = get_autocast_dtype
get_autocast_gpu_dtype = get_autocast_dtype


def _place(device):
    if device is None:
        from ..device import get_device
        device = get_device()
    name = device if isinstance(device, str) else str(device)
    return name.lower()


def is_float16_supported(device=None):
    """Whether AMP in float16 is worthwhile on `device` ('cpu', 'gpu', 'gpu:0'; default the
    current one): True on a GPU, False on the CPU, as in Paddle (auto_cast works there in
    float16, but through float32 arithmetic)."""
    return _place(device).startswith("gpu")


def is_bfloat16_supported(device=None):
    """Whether AMP in bfloat16 is supported on `device`: True on every device, as Paddle answers
    on the CPU (the CPU kernels of the white-list ops take bfloat16: oneDNN's bf16 matmul and
    convolution where the CPU has AVX512-BF16 or AMX, float32 arithmetic elsewhere; the GPU
    kernels register it too)."""
    return True
