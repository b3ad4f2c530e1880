"""Memory statistics of the allocator chains, for every place.

Each place (the CPU, each GPU, pinned host memory) has one allocator chain. Two figures are
kept for it, each with its high-water mark: *allocated*, the bytes handed out to tensors (each
request rounded up to the allocator's alignment: 64 bytes on the CPU, 256 on a GPU), and
*reserved*, the bytes the chain holds from the system (the cached chunks, used or not).

Paddle 3.3 spells these `paddle.device.cuda.memory_allocated(device)` etc. for GPUs and has no
CPU figures; here `paddle.device.memory_allocated('cpu')` (or a CPUPlace) gives them for the CPU,
and `device=None` means the current device (`paddle.device.get_device()`).
"""
from ..base import libpaddle

__all__ = [
    "memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved",
    "reset_max_memory_allocated", "reset_max_memory_reserved", "reset_peak_memory_stats",
    "empty_cache",
]


def _check_gpu(index, api):
    count = libpaddle.get_cuda_device_count()
    if not 0 <= index < count:
        raise ValueError(f"{api}: device gpu:{index} is not available: {count} GPU(s) are "
                         f"visible")
    return libpaddle.CUDAPlace(index)


def _stats_place(device, api):
    """The Place whose statistics `api` reads: None (the current device), an int (a GPU index),
    a str ('cpu', 'gpu', 'gpu:N', 'gpu_pinned') or a Place."""
    if device is None:
        return libpaddle._default_place()
    if isinstance(device, libpaddle.Place):
        if device.is_gpu_place():
            return _check_gpu(device.gpu_device_id(), api)
        return device
    if isinstance(device, bool) or not isinstance(device, (int, str)):
        raise TypeError(f"{api}: device must be None, an int, a str such as 'cpu' or 'gpu:0', "
                        f"or a Place, but received {type(device).__name__}")
    if isinstance(device, int):
        return _check_gpu(device, api)
    name = device.lower()
    if name == "cpu":
        return libpaddle.CPUPlace()
    if name in ("gpu_pinned", "gpupinned"):
        return libpaddle.CUDAPinnedPlace()
    if name in ("gpu", "cuda") or name.startswith(("gpu:", "cuda:")):
        index = name.split(":", 1)[1] if ":" in name else "0"
        if not index.isdigit():
            raise ValueError(f"{api}: cannot parse the device index of '{device}'")
        return _check_gpu(int(index), api)
    raise ValueError(f"{api}: unknown device '{device}', expected 'cpu', 'gpu', 'gpu:N' or "
                     f"'gpu_pinned'")


def memory_allocated(device=None):
    """Bytes currently allocated to tensors on `device`."""
    return libpaddle._memory_allocated(_stats_place(device, "memory_allocated"))


def max_memory_allocated(device=None):
    """The peak of memory_allocated(device) since start-up or the last reset."""
    return libpaddle._max_memory_allocated(_stats_place(device, "max_memory_allocated"))


def memory_reserved(device=None):
    """Bytes the allocator of `device` holds from the system, used or cached."""
    return libpaddle._memory_reserved(_stats_place(device, "memory_reserved"))


def max_memory_reserved(device=None):
    """The peak of memory_reserved(device) since start-up or the last reset."""
    return libpaddle._max_memory_reserved(_stats_place(device, "max_memory_reserved"))


def reset_max_memory_allocated(device=None):
    """Restarts max_memory_allocated(device) from the current figure."""
    libpaddle._reset_max_memory_allocated(_stats_place(device, "reset_max_memory_allocated"))


def reset_max_memory_reserved(device=None):
    """Restarts max_memory_reserved(device) from the current figure."""
    libpaddle._reset_max_memory_reserved(_stats_place(device, "reset_max_memory_reserved"))


def reset_peak_memory_stats(device=None):
    """Restarts both peaks of `device`."""
    place = _stats_place(device, "reset_peak_memory_stats")
    libpaddle._reset_max_memory_allocated(place)
    libpaddle._reset_max_memory_reserved(place)


def empty_cache(device=None):
    """Gives the cached memory nobody uses back to the system; returns the bytes released."""
    return libpaddle._release_memory(_stats_place(device, "empty_cache"))
