"""paddle.device.cuda: device count and memory statistics of the GPU allocators.

`device` is None (the current GPU, gpu:0 unless set_device chose another), an int, 'gpu:N' or a
CUDAPlace; a GPU that is not visible is a ValueError (see paddle/device/memory.py for the
figures themselves and their CPU spelling).
"""
from ..base import libpaddle
from . import memory as _memory

__all__ = [
    "device_count", "memory_allocated", "max_memory_allocated", "memory_reserved",
    "max_memory_reserved", "reset_max_memory_allocated", "reset_max_memory_reserved",
    "empty_cache",
]


def device_count():
    return libpaddle.get_cuda_device_count()


def _place(device, api):
    if device is None:
        current = libpaddle._default_place()
        device = current.gpu_device_id() if current.is_gpu_place() else 0
    if isinstance(device, libpaddle.Place) and not device.is_gpu_place():
        raise ValueError(f"paddle.device.cuda.{api}: expected a GPU place, but received "
                         f"{device}")
    if isinstance(device, str) and not device.lower().startswith(("gpu", "cuda")):
        raise ValueError(f"paddle.device.cuda.{api}: expected a GPU such as 'gpu:0', but "
                         f"received '{device}'")
    return _memory._stats_place(device, f"paddle.device.cuda.{api}")


def memory_allocated(device=None):
    return libpaddle._memory_allocated(_place(device, "memory_allocated"))


def max_memory_allocated(device=None):
    return libpaddle._max_memory_allocated(_place(device, "max_memory_allocated"))


def memory_reserved(device=None):
    return libpaddle._memory_reserved(_place(device, "memory_reserved"))


def max_memory_reserved(device=None):
    return libpaddle._max_memory_reserved(_place(device, "max_memory_reserved"))


def reset_max_memory_allocated(device=None):
    libpaddle._reset_max_memory_allocated(_place(device, "reset_max_memory_allocated"))


def reset_max_memory_reserved(device=None):
    libpaddle._reset_max_memory_reserved(_place(device, "reset_max_memory_reserved"))


def empty_cache():
    """Gives the cached GPU memory nobody uses back to the driver, on every visible GPU (nothing
    to do without one, as in Paddle)."""
    for index in range(libpaddle.get_cuda_device_count()):
        libpaddle._release_memory(libpaddle.CUDAPlace(index))
