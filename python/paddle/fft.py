"""paddle.fft: discrete Fourier transforms over one, two or any number of axes, as PaddlePaddle's.

Written by hand because each function does Paddle's argument work before its op: it checks n/s,
axes and norm, casts integer (and, for the complex transforms, real) input, and crops or
zero-pads the input to the requested sizes. The transforms are the ops fft_c2c, fft_r2c and
fft_c2r (paddle/ops/yaml/signal.yaml); fftfreq/rfftfreq and the shifts are arange and roll.
"""
from collections.abc import Sequence
import numbers

import numpy as np

from . import _C_ops
from .base.framework import convert_dtype, default_float_dtype, is_complex, is_floating, is_integer
from .tensor._helpers import check_tensor

__all__ = [
    "fft", "ifft", "rfft", "irfft", "hfft", "ihfft",
    "fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2",
    "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn",
    "fftfreq", "rfftfreq", "fftshift", "ifftshift",
]

_NORMS = ("backward", "forward", "ortho")


def _is_int(value):
    return isinstance(value, (numbers.Integral, np.integer)) and not isinstance(value, bool)


def _check_norm(api, norm):
    if norm not in _NORMS:
        raise ValueError(f"paddle.fft.{api}(): unexpected norm {norm!r}; it must be 'backward', "
                         f"'forward' or 'ortho'")


def _check_n(api, n):
    if not _is_int(n):
        raise ValueError(f"paddle.fft.{api}(): argument n ({n!r}) must be an int")
    if n <= 0:
        raise ValueError(f"paddle.fft.{api}(): argument n ({n}) must be positive")


def _check_axis(api, x, axis, arg="axis"):
    ndim = len(x.shape)
    if not _is_int(axis):
        raise ValueError(f"paddle.fft.{api}(): argument {arg} ({axis!r}) must be an int")
    if axis < -ndim or axis >= ndim:
        raise ValueError(f"paddle.fft.{api}(): {arg} {axis} is out of range for a tensor of "
                         f"rank {ndim} (expected [{-ndim}, {ndim}))")
    return int(axis) % ndim


def _is_complex_tensor(api, x):
    """fft, ifft, fftn and ifftn run the complex transform on complex input and the real one
    (with the full spectrum) on real input."""
    return is_complex(check_tensor(x, f"paddle.fft.{api}").dtype)


def _as_complex_input(x):
    """Integer input becomes the complex type of the default float dtype, real input the
    complex type of its own: Paddle's casts before a complex transform."""
    if is_integer(x.dtype):
        x = x.astype(_complex_of(default_float_dtype()))
    elif is_floating(x.dtype):
        x = x.astype(_complex_of(x.dtype))
    return x


def _as_real_input(x):
    return x.astype(default_float_dtype()) if is_integer(x.dtype) else x


def _complex_of(dtype):
    return "complex128" if convert_dtype(dtype).name == "FLOAT64" else "complex64"


def _resize(x, sizes, axes):
    """x cropped or zero-padded (at the end) along each of axes to its size in sizes."""
    from .tensor.manipulation import slice as slice_
    shape = list(x.shape)
    crop = [(a, s) for a, s in zip(axes, sizes) if shape[a] > s]
    if crop:
        x = slice_(x, [a for a, _ in crop], [0] * len(crop), [s for _, s in crop])
    grow = [(a, s - shape[a]) for a, s in zip(axes, sizes) if shape[a] < s]
    if grow:
        widths = [0] * (2 * len(shape))  # [before_0, after_0, before_1, ...]
        for a, extra in grow:
            widths[2 * a + 1] = extra
        x = _C_ops.pad(x, widths, 0.0)
    return x


def _one_axis(api, x, n, axis, norm):
    check_tensor(x, f"paddle.fft.{api}")
    _check_norm(api, norm)
    axis = _check_axis(api, x, -1 if axis is None else axis)
    if n is not None:
        _check_n(api, n)
    return axis


def _c2c(api, x, n, axis, norm, forward):
    axis = _one_axis(api, x, n, axis, norm)
    x = _as_complex_input(x)
    if n is not None:
        x = _resize(x, [n], [axis])
    return _C_ops.fft_c2c(x, [axis], norm, forward)


def _r2c(api, x, n, axis, norm, forward, onesided):
    axis = _one_axis(api, x, n, axis, norm)
    x = _as_real_input(x)
    if n is not None:
        x = _resize(x, [n], [axis])
    return _C_ops.fft_r2c(x, [axis], norm, forward, onesided)


def _c2r(api, x, n, axis, norm, forward):
    axis = _one_axis(api, x, n, axis, norm)
    x = _as_complex_input(x)
    if n is not None:
        x = _resize(x, [n // 2 + 1], [axis])
    return _C_ops.fft_c2r(x, [axis], norm, forward, 0 if n is None else n)


def _nd_axes(api, x, s, axes, norm, sort_all):
    """Paddle's s/axes rules: axes default to all (or the last len(s)); they are sorted (all of
    them for complex transforms, all but the last, which the real transform runs along, for the
    real ones) and s follows them."""
    check_tensor(x, f"paddle.fft.{api}")
    _check_norm(api, norm)
    ndim = len(x.shape)
    if s is not None:
        if not isinstance(s, Sequence) or isinstance(s, str):
            raise ValueError(f"paddle.fft.{api}(): argument s ({s!r}) must be a sequence of ints")
        if len(s) > ndim:
            raise ValueError(f"paddle.fft.{api}(): argument s ({list(s)}) has more sizes than "
                             f"the input has dimensions ({ndim})")
        for size in s:
            if not _is_int(size) or size <= 0:
                raise ValueError(f"paddle.fft.{api}(): argument s ({list(s)}) holds an invalid "
                                 f"size {size!r}; sizes must be positive ints")
        s = [int(v) for v in s]
    if axes is None:
        axes = list(range(ndim)) if s is None else list(range(ndim - len(s), ndim))
    else:
        if not isinstance(axes, Sequence) or isinstance(axes, str):
            raise ValueError(f"paddle.fft.{api}(): argument axes ({axes!r}) must be a sequence "
                             f"of ints")
        if len(axes) > ndim:
            raise ValueError(f"paddle.fft.{api}(): argument axes ({list(axes)}) has more axes "
                             f"than the input has dimensions ({ndim})")
        axes = [_check_axis(api, x, a, "axes") for a in axes]
        if len(set(axes)) != len(axes):
            raise ValueError(f"paddle.fft.{api}(): argument axes ({list(axes)}) repeats an axis")
        if s is not None and len(s) != len(axes):
            raise ValueError(f"paddle.fft.{api}(): s ({s}) and axes ({axes}) must have the same "
                             f"length")
        order = list(np.argsort(axes if sort_all else axes[:-1], kind="stable"))
        if not sort_all:
            order.append(len(axes) - 1)
        axes = [axes[i] for i in order]
        if s is not None:
            s = [s[i] for i in order]
    if not axes:
        raise ValueError(f"paddle.fft.{api}(): there is no axis to transform")
    return s, axes


def _c2c_nd(api, x, s, axes, norm, forward):
    s, axes = _nd_axes(api, x, s, axes, norm, sort_all=True)
    x = _as_complex_input(x)
    if s is not None:
        x = _resize(x, s, axes)
    return _C_ops.fft_c2c(x, axes, norm, forward)


def _r2c_nd(api, x, s, axes, norm, forward, onesided):
    s, axes = _nd_axes(api, x, s, axes, norm, sort_all=False)
    x = _as_real_input(x)
    if s is not None:
        x = _resize(x, s, axes)
    return _C_ops.fft_r2c(x, axes, norm, forward, onesided)


def _c2r_nd(api, x, s, axes, norm, forward):
    s, axes = _nd_axes(api, x, s, axes, norm, sort_all=False)
    x = _as_complex_input(x)
    if s is not None:
        x = _resize(x, s[:-1] + [s[-1] // 2 + 1], axes)
    return _C_ops.fft_c2r(x, axes, norm, forward, 0 if s is None else s[-1])


# One axis ------------------------------------------------------------------------------------

def fft(x, n=None, axis=-1, norm="backward", name=None):
    """The discrete Fourier transform of x along axis (n points: cropped or zero-padded)."""
    if _is_complex_tensor("fft", x):
        return _c2c("fft", x, n, axis, norm, True)
    return _r2c("fft", x, n, axis, norm, True, False)


def ifft(x, n=None, axis=-1, norm="backward", name=None):
    """The inverse discrete Fourier transform of x along axis."""
    if _is_complex_tensor("ifft", x):
        return _c2c("ifft", x, n, axis, norm, False)
    return _r2c("ifft", x, n, axis, norm, False, False)


def rfft(x, n=None, axis=-1, norm="backward", name=None):
    """The transform of a real x along axis: bins 0 .. n // 2."""
    return _r2c("rfft", x, n, axis, norm, True, True)


def irfft(x, n=None, axis=-1, norm="backward", name=None):
    """The real signal of n points (2 * (m - 1) by default) whose rfft is x."""
    return _c2r("irfft", x, n, axis, norm, False)


def hfft(x, n=None, axis=-1, norm="backward", name=None):
    """The (real) transform of a signal with Hermitian symmetry, given by its first half x."""
    return _c2r("hfft", x, n, axis, norm, True)


def ihfft(x, n=None, axis=-1, norm="backward", name=None):
    """The inverse of hfft: bins 0 .. n // 2 of the inverse transform of a real x."""
    return _r2c("ihfft", x, n, axis, norm, False, True)


# Any number of axes --------------------------------------------------------------------------

def _transform_nd(api, kind, x, s, axes, norm):
    """The n-dimensional transform `kind` (fft, ifft, rfft, irfft, hfft or ihfft), with errors
    naming `api`."""
    forward = kind in ("fft", "rfft", "hfft")
    if kind in ("fft", "ifft"):
        if _is_complex_tensor(api, x):
            return _c2c_nd(api, x, s, axes, norm, forward)
        return _r2c_nd(api, x, s, axes, norm, forward, False)
    if kind in ("rfft", "ihfft"):
        return _r2c_nd(api, x, s, axes, norm, forward, True)
    return _c2r_nd(api, x, s, axes, norm, forward)


def fftn(x, s=None, axes=None, norm="backward", name=None):
    """The N-dimensional discrete Fourier transform over axes (all by default)."""
    return _transform_nd("fftn", "fft", x, s, axes, norm)


def ifftn(x, s=None, axes=None, norm="backward", name=None):
    """The N-dimensional inverse discrete Fourier transform."""
    return _transform_nd("ifftn", "ifft", x, s, axes, norm)


def rfftn(x, s=None, axes=None, norm="backward", name=None):
    """The N-dimensional transform of a real x, halved along the last axis."""
    return _transform_nd("rfftn", "rfft", x, s, axes, norm)


def irfftn(x, s=None, axes=None, norm="backward", name=None):
    """The inverse of rfftn."""
    return _transform_nd("irfftn", "irfft", x, s, axes, norm)


def hfftn(x, s=None, axes=None, norm="backward", name=None):
    """The N-dimensional transform of a Hermitian-symmetric signal given by its half x."""
    return _transform_nd("hfftn", "hfft", x, s, axes, norm)


def ihfftn(x, s=None, axes=None, norm="backward", name=None):
    """The inverse of hfftn."""
    return _transform_nd("ihfftn", "ihfft", x, s, axes, norm)


# Two axes ------------------------------------------------------------------------------------

def _transform_2d(api, kind, x, s, axes, norm):
    check_tensor(x, f"paddle.fft.{api}")
    if len(x.shape) < 2:
        raise ValueError(f"paddle.fft.{api}(): the input must have at least 2 dimensions, "
                         f"got {len(x.shape)}")
    if s is not None and (not isinstance(s, Sequence) or len(s) != 2):
        raise ValueError(f"paddle.fft.{api}(): argument s ({s!r}) must be a sequence of 2 ints")
    if axes is not None and (not isinstance(axes, Sequence) or len(axes) != 2):
        raise ValueError(f"paddle.fft.{api}(): argument axes ({axes!r}) must be a sequence of "
                         f"2 ints")
    return _transform_nd(api, kind, x, s, axes, norm)


def fft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    """The 2-dimensional discrete Fourier transform over axes."""
    return _transform_2d("fft2", "fft", x, s, axes, norm)


def ifft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    """The 2-dimensional inverse discrete Fourier transform."""
    return _transform_2d("ifft2", "ifft", x, s, axes, norm)


def rfft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    """The 2-dimensional transform of a real x, halved along the last axis."""
    return _transform_2d("rfft2", "rfft", x, s, axes, norm)


def irfft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    """The inverse of rfft2."""
    return _transform_2d("irfft2", "irfft", x, s, axes, norm)


def hfft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    """The 2-dimensional transform of a Hermitian-symmetric signal given by its half x."""
    return _transform_2d("hfft2", "hfft", x, s, axes, norm)


def ihfft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    """The inverse of hfft2."""
    return _transform_2d("ihfft2", "ihfft", x, s, axes, norm)


# Frequencies and shifts ----------------------------------------------------------------------

def fftfreq(n, d=1.0, dtype=None, name=None):
    """The sample frequencies of an n-point transform with sample spacing d:
    [0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (n * d)."""
    from .tensor.creation import arange
    from .tensor.manipulation import roll
    if d * n == 0:
        raise ValueError(f"paddle.fft.fftfreq(): n ({n}) and d ({d}) must not be 0")
    dtype = default_float_dtype() if dtype is None else dtype
    negatives = n // 2
    indices = roll(arange(-negatives, (n + 1) // 2, dtype=dtype), -negatives)
    return indices * (1.0 / (n * d))


def rfftfreq(n, d=1.0, dtype=None, name=None):
    """The sample frequencies of rfft's bins: [0, 1, ..., n // 2] / (n * d)."""
    from .tensor.creation import arange
    if d * n == 0:
        raise ValueError(f"paddle.fft.rfftfreq(): n ({n}) and d ({d}) must not be 0")
    dtype = default_float_dtype() if dtype is None else dtype
    return arange(0, 1 + n // 2, dtype=dtype) * (1.0 / (n * d))


def _shift(api, x, axes, amount):
    from .tensor.manipulation import roll
    check_tensor(x, f"paddle.fft.{api}")
    ndim = len(x.shape)
    if axes is None:
        axes = list(range(ndim))
    elif _is_int(axes):
        axes = [axes]
    axes = [_check_axis(api, x, a, "axes") for a in axes]
    return roll(x, [amount(x.shape[a]) for a in axes], axes)


def fftshift(x, axes=None, name=None):
    """x rolled so that the zero frequency is in the middle of each of axes (all by default)."""
    return _shift("fftshift", x, axes, lambda size: size // 2)


def ifftshift(x, axes=None, name=None):
    """The inverse of fftshift."""
    return _shift("ifftshift", x, axes, lambda size: (size + 1) // 2)
