"""Allocator statistics, the out-of-memory error and the allocator flags, from Python."""
import numpy as np
import paddle
import pytest

MiB = 1 << 20


def _fresh_cpu_cache():
    """Drops the idle cached chunks, so that a large request gets a chunk of its own."""
    paddle.device.empty_cache("cpu")


def test_allocated_and_reserved_are_exact_on_the_cpu():
    _fresh_cpu_cache()
    allocated = paddle.device.memory_allocated("cpu")
    reserved = paddle.device.memory_reserved("cpu")
    paddle.device.reset_peak_memory_stats("cpu")
    assert paddle.device.max_memory_allocated("cpu") == allocated
    assert paddle.device.max_memory_reserved("cpu") == reserved

    n = 3 * MiB // 4 + 7  # 3 MiB + 28 bytes of float32: rounded up to 64 bytes
    size = 3 * MiB + 64
    x = paddle.zeros([n], dtype="float32")
    assert paddle.device.memory_allocated("cpu") == allocated + size
    assert paddle.device.memory_reserved("cpu") == reserved + size, "a chunk of its own"
    del x
    assert paddle.device.memory_allocated("cpu") == allocated
    assert paddle.device.memory_reserved("cpu") == reserved + size, "the chunk stays cached"
    assert paddle.device.max_memory_allocated("cpu") == allocated + size
    assert paddle.device.max_memory_reserved("cpu") == reserved + size

    assert paddle.device.empty_cache("cpu") == size
    assert paddle.device.memory_reserved("cpu") == reserved
    paddle.device.reset_max_memory_allocated("cpu")
    paddle.device.reset_max_memory_reserved(paddle.CPUPlace())
    assert paddle.device.max_memory_allocated(paddle.CPUPlace()) == allocated
    assert paddle.device.max_memory_reserved("cpu") == reserved


def test_default_device_is_the_current_one():
    paddle.set_device("cpu")
    x = paddle.ones([1000])  # keeps the CPU figures non-zero
    assert paddle.device.memory_allocated() == paddle.device.memory_allocated("cpu") > 0
    assert paddle.device.memory_reserved() == paddle.device.memory_reserved("cpu")
    del x


def test_out_of_memory_is_a_memory_error_with_the_figures():
    _fresh_cpu_cache()
    keep = paddle.ones([256])  # 1 KiB in a 1 MiB host chunk
    allocated = paddle.device.memory_allocated("cpu")
    reserved = paddle.device.memory_reserved("cpu")
    with pytest.raises(MemoryError) as info:
        paddle.empty([1 << 40], dtype="float32")
    message = str(info.value)
    assert f"cannot allocate {4 << 40} bytes" in message
    assert f"{allocated} bytes are allocated" in message
    assert f"{reserved} bytes reserved" in message
    assert "largest free block in its cache is" in message
    assert "bytes free" in message
    assert paddle.device.memory_allocated("cpu") == allocated, "the failure left nothing behind"
    assert float(keep.sum()) == 256.0


@pytest.mark.parametrize("flag, value, hint", [
    ("FLAGS_allocator_strategy", "buddy", "naive_best_fit"),
    ("FLAGS_fraction_of_gpu_memory_to_use", 0, "(0, 1]"),
    ("FLAGS_fraction_of_gpu_memory_to_use", -0.5, "(0, 1]"),
    ("FLAGS_fraction_of_gpu_memory_to_use", 2.0, "(0, 1]"),
    ("FLAGS_initial_cpu_memory_in_mb", 0, "positive"),
    ("FLAGS_initial_gpu_memory_in_mb", -1, "uint64"),
    ("FLAGS_gpu_allocator_retry_time", "soon", "int64"),
])
def test_impossible_flag_values_are_value_errors(flag, value, hint):
    before = paddle.get_flags(flag)
    with pytest.raises(ValueError) as info:
        paddle.set_flags({flag: value})
    assert flag in str(info.value) and hint in str(info.value)
    assert paddle.get_flags(flag) == before


def test_possible_flag_values_are_kept():
    flag = "FLAGS_fraction_of_gpu_memory_to_use"
    before = paddle.get_flags(flag)[flag]
    try:
        paddle.set_flags({flag: 0.5})
        assert paddle.get_flags(flag)[flag] == 0.5
    finally:
        paddle.set_flags({flag: before})
    assert paddle.get_flags("FLAGS_gpu_allocator_retry_time")["FLAGS_gpu_allocator_retry_time"] \
        == 10000


@pytest.mark.parametrize("device, error", [
    ("tpu", ValueError), ("gpu:x", ValueError), (1.5, TypeError), (True, TypeError),
])
def test_bad_devices_are_clear_errors(device, error):
    with pytest.raises(error, match="memory_allocated"):
        paddle.device.memory_allocated(device)


@pytest.mark.skipif(paddle.device.cuda.device_count() > 0, reason="a GPU is present")
def test_missing_gpus_are_value_errors():
    for api in (paddle.device.cuda.memory_allocated, paddle.device.cuda.max_memory_allocated,
                paddle.device.cuda.memory_reserved, paddle.device.cuda.max_memory_reserved,
                paddle.device.cuda.reset_max_memory_allocated,
                paddle.device.cuda.reset_max_memory_reserved):
        with pytest.raises(ValueError, match="gpu:0 is not available: 0 GPU"):
            api()
    with pytest.raises(ValueError, match="gpu:3"):
        paddle.device.memory_reserved("gpu:3")
    with pytest.raises(ValueError, match="expected a GPU"):
        paddle.device.cuda.memory_allocated("cpu")
    paddle.device.cuda.empty_cache()  # nothing to release, as in Paddle without a GPU


@pytest.mark.skipif(paddle.device.cuda.device_count() == 0, reason="needs a GPU")
def test_gpu_figures_are_exact():
    paddle.device.cuda.empty_cache()
    paddle.set_device("gpu:0")
    try:
        x = paddle.zeros([1000], dtype="float32")  # 4000 bytes, rounded up to 256
        allocated = paddle.device.cuda.memory_allocated(0)
        y = paddle.zeros([1000], dtype="float32")
        assert paddle.device.cuda.memory_allocated(0) == allocated + 4096
        assert paddle.device.cuda.memory_reserved(0) >= paddle.device.cuda.memory_allocated(0)
        assert paddle.device.cuda.max_memory_reserved("gpu:0") >= \
            paddle.device.cuda.memory_reserved(0)
        del y
        assert paddle.device.cuda.memory_allocated(0) == allocated
        with pytest.raises(MemoryError, match="Out of memory on Place\\(gpu:0\\)"):
            paddle.empty([1 << 42], dtype="float32")
        del x
    finally:
        paddle.set_device("cpu")


def test_allocation_after_an_out_of_memory_error_works():
    with pytest.raises(MemoryError):
        paddle.empty([1 << 40], dtype="float32")
    x = paddle.to_tensor(np.arange(6, dtype="float32"))
    np.testing.assert_array_equal((x * 2).numpy(), np.arange(6) * 2)
