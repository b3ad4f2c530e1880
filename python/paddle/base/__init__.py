"""The compiled core (``libpaddle``) and the framework state shared by the Python modules."""
import os


def _select_openblas_kernels():
    """Debian's OpenBLAS 0.3.21 does not recognise recent Xeons and falls back to its slowest
    (SSE3 "Prescott") kernels, 5x slower on GEMM. It reads OPENBLAS_CORETYPE when it is loaded,
    so pick the kernel set from the CPU's feature flags before the core library loads it."""
    if "OPENBLAS_CORETYPE" in os.environ:
        return
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line.split(":", 1)[1].split() for line in f
                          if line.startswith("flags")), [])
    except OSError:
        return
    if {"avx512f", "avx512bw", "avx512dq", "avx512vl"} <= set(flags):
        os.environ["OPENBLAS_CORETYPE"] = "SkylakeX"
    elif {"avx2", "fma"} <= set(flags):
        os.environ["OPENBLAS_CORETYPE"] = "Haswell"


def _bound_openmp_spin_wait():
    """libgomp's threads spin about 300000 times at each barrier before sleeping. When other
    processes (DataLoader workers, a parallel build) compete for the cores, a spinning thread
    burns the time slice its descheduled partner needs: a LeNet step on 2 threads takes about
    5 ms alone and 260-310 ms beside four busy processes. With 5000 spins it takes 44-52 ms
    there, and the idle time stays within run-to-run noise
    (benchmarks/openmp_contention_bench.py). libgomp reads the variable when it is loaded, so it
    is set before the core library loads; a user's own setting wins."""
    if "GOMP_SPINCOUNT" not in os.environ and "OMP_WAIT_POLICY" not in os.environ:
        os.environ["GOMP_SPINCOUNT"] = "5000"


_select_openblas_kernels()
_bound_openmp_spin_wait()

from . import libpaddle  # noqa: E402,F401
from . import libpaddle as core  # noqa: E402,F401

# Paddle prints dtypes as `paddle.float32`.
libpaddle.DataType.__repr__ = lambda self: f"paddle.{self.name}"
libpaddle.DataType.__str__ = lambda self: f"paddle.{self.name}"
