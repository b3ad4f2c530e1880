"""paddle.signal: the short-time Fourier transform and its inverse, as PaddlePaddle's.

Written by hand because stft and istft are compositions: frame (or overlap_add), a window, and
the FFT ops of paddle.fft. frame and overlap_add are the ops of paddle/ops/yaml/signal.yaml with
Paddle's argument checks in front.
"""
import numbers

import numpy as np

from . import _C_ops
from .base.framework import in_dynamic_mode, is_complex
from .tensor._helpers import check_tensor

__all__ = ["stft", "istft"]


def _check_int(api, name, value, positive=True):
    if not isinstance(value, (numbers.Integral, np.integer)) or isinstance(value, bool) or (
            positive and value <= 0):
        raise ValueError(f"paddle.signal.{api}(): argument {name} ({value!r}) must be a positive "
                         f"int")
    return int(value)


def _check_signal_axis(api, axis):
    if axis not in (0, -1):
        raise ValueError(f"paddle.signal.{api}(): argument axis ({axis!r}) must be 0 or -1")


def frame(x, frame_length, hop_length, axis=-1, name=None):
    """Frames of frame_length points, hop_length apart, cut from the last axis of x (axis=-1:
    [..., seq_len] -> [..., frame_length, num_frames]) or its first (axis=0: [seq_len, ...] ->
    [num_frames, frame_length, ...]), num_frames = 1 + (seq_len - frame_length) // hop_length."""
    check_tensor(x, "paddle.signal.frame")
    _check_signal_axis("frame", axis)
    frame_length = _check_int("frame", "frame_length", frame_length)
    hop_length = _check_int("frame", "hop_length", hop_length)
    return _C_ops.frame(x, frame_length, hop_length, axis)


def overlap_add(x, hop_length, axis=-1, name=None):
    """The signal whose frames, hop_length apart, are x ([..., frame_length, num_frames] for
    axis=-1, [num_frames, frame_length, ...] for axis=0), overlapping points summed."""
    check_tensor(x, "paddle.signal.overlap_add")
    _check_signal_axis("overlap_add", axis)
    hop_length = _check_int("overlap_add", "hop_length", hop_length)
    return _C_ops.overlap_add(x, hop_length, axis)


def _centre_pad(x, pad_length, pad_mode):
    """x ([batch, seq_len]) padded by pad_length on each side of its last axis. Reflection is
    two flipped slices concatenated around x: F.pad(mode='reflect'), which PaddlePaddle's stft
    calls, runs pad3d, about 40 times as long on a minute of 16 kHz audio (6.8 ms against 0.16
    ms, one thread)."""
    from .base.generated_api import flip
    from .nn.functional import pad
    from .tensor.manipulation import concat
    if pad_length == 0:
        return x
    if pad_mode == "constant":
        return pad(x, [0, 0, pad_length, pad_length])
    length = x.shape[-1]
    if length >= 0 and length <= pad_length:
        raise ValueError(f"paddle.signal.stft(): reflect padding by n_fft // 2 ({pad_length}) "
                         f"needs a signal longer than that, got {length} points")
    left = flip(x[:, 1:pad_length + 1], [1])
    right = flip(x[:, -pad_length - 1:-1], [1])
    return concat([left, x, right], axis=1)


def _padded_window(api, window, win_length, n_fft, dtype):
    from .nn.functional import pad
    from .tensor.creation import ones
    if window is None:
        window = ones([win_length], dtype=dtype)
    else:
        check_tensor(window, f"paddle.signal.{api}", "window")
        if len(window.shape) != 1 or window.shape[0] != win_length:
            raise ValueError(f"paddle.signal.{api}(): window must be 1-D of win_length "
                             f"({win_length}) points, got shape {list(window.shape)}")
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        window = pad(window, [left, n_fft - win_length - left], mode="constant")
    return window


def stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="reflect", normalized=False, onesided=None, name=None):
    """The short-time Fourier transform of x ([seq_len] or [batch, seq_len], real or complex):
    [batch, n_fft // 2 + 1 (onesided) or n_fft, num_frames]."""
    from .tensor.math import multiply
    check_tensor(x, "paddle.signal.stft")
    rank = len(x.shape)
    if rank not in (1, 2):
        raise ValueError(f"paddle.signal.stft(): x must be 1-D or 2-D, got shape {list(x.shape)}")
    if rank == 1:
        x = x.unsqueeze(0)
    n_fft = _check_int("stft", "n_fft", n_fft)
    hop_length = n_fft // 4 if hop_length is None else hop_length
    hop_length = _check_int("stft", "hop_length", hop_length)
    win_length = n_fft if win_length is None else _check_int("stft", "win_length", win_length)
    if win_length > n_fft:
        raise ValueError(f"paddle.signal.stft(): win_length ({win_length}) must be in (0, n_fft "
                         f"({n_fft})]")
    window = _padded_window("stft", window, win_length, n_fft,
                            "float64" if x.dtype.name in ("FLOAT64", "COMPLEX128") else "float32")
    if center:
        if pad_mode not in ("reflect", "constant"):
            raise ValueError(f"paddle.signal.stft(): pad_mode must be 'reflect' or 'constant', "
                             f"got {pad_mode!r}")
        x = _centre_pad(x, n_fft // 2, pad_mode)
    if x.shape[-1] < n_fft:
        raise ValueError(f"paddle.signal.stft(): n_fft ({n_fft}) must not exceed the "
                         f"{'padded ' if center else ''}signal length ({x.shape[-1]})")
    # [batch, n_fft, frames], transformed along axis 1 as it lies: Paddle moves n_fft last and
    # back, which costs two copies of the frames and changes nothing.
    frames = multiply(frame(x, n_fft, hop_length, axis=-1), window.unsqueeze(-1))
    norm = "ortho" if normalized else "backward"
    complex_frames = is_complex(frames.dtype)
    if onesided is None:
        onesided = not complex_frames
    if complex_frames and onesided:
        raise ValueError("paddle.signal.stft(): onesided must be False for a complex input or "
                         "window")
    if complex_frames:
        out = _C_ops.fft_c2c(frames, [1], norm, True)
    else:
        out = _C_ops.fft_r2c(frames, [1], norm, True, onesided)
    return out.squeeze(0) if rank == 1 else out


def istft(x, n_fft, hop_length=None, win_length=None, window=None, center=True,
          normalized=False, onesided=True, length=None, return_complex=False, name=None):
    """The inverse of stft: the signal ([seq_len] or [batch, seq_len]) whose stft is x ([bins,
    num_frames] or [batch, bins, num_frames]), by the windowed overlap-add method."""
    from .tensor.creation import ones
    from .tensor.math import divide, multiply
    check_tensor(x, "paddle.signal.istft")
    if not is_complex(x.dtype):
        raise TypeError(f"paddle.signal.istft(): x must be complex64 or complex128, got "
                        f"{x.dtype.name.lower()}")
    rank = len(x.shape)
    if rank not in (2, 3):
        raise ValueError(f"paddle.signal.istft(): x must be 2-D or 3-D, got shape "
                         f"{list(x.shape)}")
    if rank == 2:
        x = x.unsqueeze(0)
    n_fft = _check_int("istft", "n_fft", n_fft)
    hop_length = n_fft // 4 if hop_length is None else hop_length
    hop_length = _check_int("istft", "hop_length", hop_length)
    win_length = n_fft if win_length is None else _check_int("istft", "win_length", win_length)
    if win_length > n_fft:
        raise ValueError(f"paddle.signal.istft(): win_length ({win_length}) must be in (0, n_fft "
                         f"({n_fft})]")
    if hop_length > win_length:
        raise ValueError(f"paddle.signal.istft(): hop_length ({hop_length}) must be in (0, "
                         f"win_length ({win_length})] so that no point is in no frame")
    bins, num_frames = x.shape[-2], x.shape[-1]
    if x.size == 0:
        raise ValueError("paddle.signal.istft(): x must not be empty")
    expected_bins = n_fft // 2 + 1 if onesided else n_fft
    if bins != expected_bins:
        raise ValueError(f"paddle.signal.istft(): x must have {expected_bins} frequency bins "
                         f"for n_fft {n_fft} with onesided={onesided}, got {bins}")
    real_dtype = "float64" if x.dtype.name == "COMPLEX128" else "float32"
    window = _padded_window("istft", window, win_length, n_fft, real_dtype)
    norm = "ortho" if normalized else "backward"
    # Each frame's spectrum is a column of x ([batch, bins, frames]): transformed along axis 1.
    if return_complex:
        if onesided:
            raise ValueError("paddle.signal.istft(): onesided must be False when return_complex "
                             "is True")
        frames = _C_ops.fft_c2c(x, [1], norm, False)
    else:
        if is_complex(window.dtype):
            raise ValueError("paddle.signal.istft(): window must be real when return_complex is "
                             "False")
        if not onesided:
            x = x[:, :n_fft // 2 + 1, :]
        frames = _C_ops.fft_c2r(x, [1], norm, False, n_fft)
    frames = multiply(frames, window.unsqueeze(-1))  # [batch, n_fft, frames]
    out = overlap_add(frames, hop_length, axis=-1)  # [batch, seq_len]
    squared = multiply(window, window).unsqueeze(1)
    envelope = overlap_add(multiply(squared, ones([n_fft, num_frames], dtype=squared.dtype)),
                           hop_length, axis=-1)  # [seq_len]
    start = n_fft // 2 if center else 0
    if length is None:
        stop = out.shape[-1] - start
    else:
        stop = start + _check_int("istft", "length", length)
    out = out[:, start:stop]
    envelope = envelope[start:stop]
    # The overlap-add's divisor must be nonzero everywhere (scipy.signal.check_NOLA); a static
    # program learns the window only when it runs.
    if in_dynamic_mode() and float(envelope.abs().min().numpy()) < 1e-11:
        raise ValueError("paddle.signal.istft(): the window's squares overlap-added are zero "
                         "somewhere (the NOLA condition fails), so the signal cannot be "
                         "recovered")
    out = divide(out, envelope)
    return out.squeeze(0) if rank == 2 else out
