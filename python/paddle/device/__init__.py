"""Device selection: paddle.set_device / get_device and CUDA queries."""
from ..base import libpaddle
from . import memory as _memory
from .memory import (empty_cache, max_memory_allocated, max_memory_reserved,  # noqa: F401
                     memory_allocated, memory_reserved, reset_max_memory_allocated,
                     reset_max_memory_reserved, reset_peak_memory_stats)

__all__ = ["set_device", "get_device", "is_compiled_with_cuda", "cuda"] + _memory.__all__


def is_compiled_with_cuda():
    return libpaddle.is_compiled_with_cuda()


def _resolve_place(place):
    """The place for `place` (a Place, 'cpu', 'gpu:N' or None for the current device)."""
    if place is None:
        return libpaddle._default_place()
    if isinstance(place, libpaddle.Place):
        return place
    return _place_from_str(place)


def _place_from_str(device):
    if not isinstance(device, str):
        raise TypeError(f"device must be a str such as 'cpu' or 'gpu:0', not "
                        f"{type(device).__name__}")
    name = device.lower()
    if name == "cpu":
        return libpaddle.CPUPlace()
    if name in ("gpu", "cuda") or name.startswith(("gpu:", "cuda:")):
        index = 0 if ":" not in name else int(name.split(":", 1)[1])
        count = libpaddle.get_cuda_device_count()
        if index >= count:
            raise ValueError(f"device '{device}' is not available: {count} GPU(s) visible")
        return libpaddle.CUDAPlace(index)
    raise ValueError(f"unknown device '{device}', expected 'cpu', 'gpu' or 'gpu:N'")


def set_device(device):
    """Sets the device new tensors are created on; returns its Place."""
    place = _place_from_str(device)
    libpaddle._set_default_place(place)
    return place


def get_device():
    place = libpaddle._default_place()
    if place.is_gpu_place():
        return f"gpu:{place.gpu_device_id()}"
    return "cpu"


from . import cuda  # noqa: E402,F401
