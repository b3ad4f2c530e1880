"""Harness entries (op_db.py) of the spectral ops: fft_c2c, fft_r2c, fft_c2r, the kernels of the
latter two's gradients, frame and overlap_add. The references are numpy.fft's n-dimensional
transforms, whose `norm` is Paddle's `normalization`. Lengths cover the radices KISS FFT has
butterflies for (2, 3, 4, 5), a prime it runs generically (7), odd lengths (no real plan) and 1.
paddle.fft and paddle.signal themselves are tested in ops/test_fft.py and ops/test_signal.py."""
import numpy as np

import paddle
from harness import ErrorSample, OpInfo, Sample
from op_db import LINEAR, program_op, uniform

_ops = paddle._C_ops
_SWAPPED = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def np_c2c(x, axes, normalization, forward):
    transform = np.fft.fftn if forward else np.fft.ifftn
    return transform(x, axes=axes, norm=normalization)


def np_r2c(x, axes, normalization, forward, onesided):
    full = np_c2c(x.astype(np.complex128), axes, normalization, forward)
    if not onesided:
        return full
    last = axes[-1] % x.ndim
    return np.take(full, np.arange(x.shape[last] // 2 + 1), axis=last)


def np_c2r(x, axes, normalization, forward, last_dim_size=0):
    axes = [a % x.ndim for a in axes]
    n = last_dim_size or 2 * (x.shape[axes[-1]] - 1)
    sizes = [x.shape[a] for a in axes[:-1]] + [n]
    if forward:
        # The forward transform of a Hermitian spectrum: the inverse one of its conjugate, scaled
        # as the forward one is.
        return np.fft.irfftn(np.conj(x), s=sizes, axes=axes, norm=_SWAPPED[normalization])
    return np.fft.irfftn(x, s=sizes, axes=axes, norm=normalization)


def np_r2c_grad(x, out_grad, axes, normalization, forward, onesided):
    """The adjoint of np_r2c: out_grad zero-padded to the full spectrum, transformed the other
    way with the same scale, its real part."""
    last = axes[-1] % x.ndim
    full = np.zeros(x.shape, np.complex128)
    index = [slice(None)] * x.ndim
    index[last] = slice(0, out_grad.shape[last])
    full[tuple(index)] = out_grad
    return np.real(np_c2c(full, axes, _SWAPPED[normalization], not forward))


def np_c2r_grad(x, out_grad, axes, normalization, forward, last_dim_size=0):
    """The adjoint of np_c2r, from its matrix: column j of c2r's Jacobian with respect to the real
    and imaginary part of each input element."""
    grad = np.zeros(x.shape, np.complex128)
    flat = grad.reshape(-1)
    for j in range(x.size):
        for part in (1, 1j):
            basis = np.zeros(x.size, np.complex128)
            basis[j] = part
            column = np_c2r(basis.reshape(x.shape), axes, normalization, forward, last_dim_size)
            flat[j] += part * np.sum(column * out_grad)
    return grad


def fft_r2c_grad_op(x, out_grad, axes, normalization, forward, onesided):
    """fft_r2c_grad as a training program holds it. Its samples' out_grad is real (the dtype
    under test); the kernel takes its complex type."""
    out_grad = paddle.complex(out_grad, paddle.flip(out_grad, [0]))
    return program_op("fft_r2c_grad", {"X": x, "Out@GRAD": out_grad}, {"X@GRAD": "X"},
                      {"axes": axes, "normalization": normalization, "forward": forward,
                       "onesided": onesided})[0]


def np_r2c_grad_op(x, out_grad, axes, normalization, forward, onesided):
    return np_r2c_grad(x, out_grad + 1j * np.flip(out_grad, 0), axes, normalization, forward,
                       onesided)


def fft_c2r_grad_op(x, out_grad, axes, normalization, forward, last_dim_size):
    """fft_c2r_grad as a training program holds it: out_grad is the real part of its sample."""
    return program_op("fft_c2r_grad", {"X": x, "Out@GRAD": paddle.real(out_grad)},
                      {"X@GRAD": "X"},
                      {"axes": axes, "normalization": normalization, "forward": forward,
                       "last_dim_size": last_dim_size})[0]


def np_c2r_grad_op(x, out_grad, axes, normalization, forward, last_dim_size):
    return np_c2r_grad(x, np.real(out_grad), axes, normalization, forward, last_dim_size)


def np_frame(x, frame_length, hop_length, axis=-1):
    seq_axis = 0 if axis == 0 else x.ndim - 1
    frames = 1 + (x.shape[seq_axis] - frame_length) // hop_length
    pieces = [np.take(x, np.arange(t * hop_length, t * hop_length + frame_length), axis=seq_axis)
              for t in range(frames)]
    if axis == 0:
        return np.stack(pieces, axis=0)   # [frames, frame_length, ...]
    return np.stack(pieces, axis=-1)      # [..., frame_length, frames]


def np_overlap_add(x, hop_length, axis=-1):
    if axis == 0:
        frames, frame_length = x.shape[0], x.shape[1]
        out = np.zeros(((frames - 1) * hop_length + frame_length,) + x.shape[2:], x.dtype)
        for t in range(frames):
            out[t * hop_length:t * hop_length + frame_length] += x[t]
        return out
    frame_length, frames = x.shape[-2], x.shape[-1]
    out = np.zeros(x.shape[:-2] + ((frames - 1) * hop_length + frame_length,), x.dtype)
    for t in range(frames):
        out[..., t * hop_length:t * hop_length + frame_length] += x[..., t]
    return out


def _c2c_samples(rng):
    return [
        Sample([uniform(rng, (3, 8)), [1], "backward", True]),
        Sample([uniform(rng, (3, 8)), [-1], "backward", False]),
        Sample([uniform(rng, (4, 6)), [0, 1], "ortho", True]),
        Sample([uniform(rng, (2, 5, 3)), [0, 2], "forward", False]),
        Sample([uniform(rng, (7, 2)), [0], "forward", True]),   # a prime length
        Sample([uniform(rng, (2, 1)), [1], "ortho", False]),    # one point
        Sample([uniform(rng, (0, 4)), [1], "backward", True]),  # no lines
    ]


def _r2c_samples(rng):
    return [
        Sample([uniform(rng, (3, 8)), [1], "backward", True, True]),
        Sample([uniform(rng, (3, 7)), [1], "ortho", True, True]),     # odd: a complex plan
        Sample([uniform(rng, (3, 6)), [-1], "backward", True, False]),
        Sample([uniform(rng, (4, 6)), [1], "forward", False, True]),  # ihfft's direction
        Sample([uniform(rng, (4, 3, 6)), [0, 2], "ortho", True, True]),
        Sample([uniform(rng, (6, 5)), [1, 0], "backward", False, True]),  # real along axis 0
        Sample([uniform(rng, (5, 1)), [0], "forward", True, True]),
    ]


def _c2r_samples(rng):
    return [
        Sample([uniform(rng, (3, 5)), [1], "backward", False, 0]),   # 8 points
        Sample([uniform(rng, (3, 5)), [1], "backward", False, 9]),   # odd
        Sample([uniform(rng, (3, 5)), [1], "ortho", True, 6]),       # bins past n / 2 unread
        Sample([uniform(rng, (3, 3)), [-1], "forward", False, 10]),  # missing bins are zero
        Sample([uniform(rng, (4, 3, 4)), [0, 2], "ortho", False, 0]),
        Sample([uniform(rng, (4, 3)), [1, 0], "backward", True, 7]),
    ]


def _fft_errors(op, dtype):
    x = np.zeros((2, 4), dtype)
    call = {"fft_c2c": lambda *a: (a, {}), "fft_r2c": lambda *a: (a + (True,), {}),
            "fft_c2r": lambda *a: (a + (0,), {})}[op]
    return [
        ErrorSample(*call(x, [2], "backward", True), ValueError, f"{op}: axis 2 of 'axes'"),
        ErrorSample(*call(x, [0, -2], "backward", True), ValueError, "twice"),
        ErrorSample(*call(x, [1], "sideways", True), ValueError, "'sideways'"),
        ErrorSample(*call(np.zeros((2, 0), dtype), [1], "backward", True), ValueError,
                    "at least 1"),
    ]


FFT_OPS = [
    # The second-order checks run in float64, which fft_c2c and fft_c2r do not take; their
    # gradients' gradients are checked in ops/test_fft.py.
    OpInfo("fft_c2c", _ops.fft_c2c, np_c2c, _c2c_samples,
           errors=lambda: _fft_errors("fft_c2c", np.complex64) + [
               ErrorSample([np.zeros((2, 4), np.float32), [1], "backward", True], {}, TypeError,
                           "fft_c2c: argument 'x' must be a complex64 or complex128")]),
    OpInfo("fft_r2c", _ops.fft_r2c, np_r2c, _r2c_samples,
           second_order=True, no_second_order_reason=LINEAR,
           errors=lambda: _fft_errors("fft_r2c", np.float32) + [
               ErrorSample([np.zeros((2, 4), np.complex64), [1], "backward", True, True], {},
                           TypeError, "fft_r2c: complex input")]),
    OpInfo("fft_c2r", _ops.fft_c2r, np_c2r, _c2r_samples,
           errors=lambda: _fft_errors("fft_c2r", np.complex64) + [
               ErrorSample([np.zeros((2, 1), np.complex64), [1], "backward", False, 0], {},
                           ValueError, "0 points"),
               ErrorSample([np.zeros((2, 4), np.complex64), [1], "backward", False, -3], {},
                           ValueError, "'last_dim_size'")]),
    OpInfo("fft_r2c_grad", fft_r2c_grad_op, np_r2c_grad_op, lambda rng: [
        Sample([uniform(rng, (3, 8)), uniform(rng, (3, 5)), [1], "backward", True, True]),
        Sample([uniform(rng, (3, 7)), uniform(rng, (3, 4)), [1], "ortho", False, True]),
        Sample([uniform(rng, (4, 6)), uniform(rng, (4, 6)), [0, 1], "forward", True, False])],
        grad=False, no_grad_reason="its gradient, fft_r2c, is the second-order gradient of the "
                                   "fft_r2c entry, and ops/test_fft.py differentiates it"),
    OpInfo("fft_c2r_grad", fft_c2r_grad_op, np_c2r_grad_op, lambda rng: [
        Sample([uniform(rng, (3, 5)), uniform(rng, (3, 8)), [1], "backward", False, 0]),
        Sample([uniform(rng, (3, 5)), uniform(rng, (3, 9)), [1], "ortho", True, 9]),
        Sample([uniform(rng, (3, 3)), uniform(rng, (3, 10)), [1], "forward", False, 10]),
        Sample([uniform(rng, (4, 3)), uniform(rng, (7, 3)), [1, 0], "backward", True, 7])],
        grad=False, no_grad_reason="its gradient, fft_c2r, is the second-order gradient of the "
                                   "fft_c2r entry, and ops/test_fft.py differentiates it"),
    OpInfo("frame", paddle.signal.frame, np_frame, lambda rng: [
        Sample([uniform(rng, (10,)), 4, 2]),
        Sample([uniform(rng, (2, 11)), 4, 3]),          # the last 2 points are in no frame
        Sample([uniform(rng, (9, 3)), 3, 2], {"axis": 0}),
        Sample([uniform(rng, (2, 3, 8)), 8, 1]),        # one frame
        Sample([uniform(rng, (6, 2, 2)), 2, 5], {"axis": 0})],
        second_order=True, no_second_order_reason=LINEAR,
        errors=lambda: [
            ErrorSample([np.zeros((2, 5)), 6, 1], {}, ValueError, "frame: 'frame_length' (6)"),
            ErrorSample([np.zeros((2, 5)), 2, 0], {}, ValueError, "hop_length"),
            ErrorSample([np.zeros((2, 5)), 2, 1], {"axis": 1}, ValueError, "axis"),
            ErrorSample([[1.0, 2.0], 1, 1], {}, TypeError, "must be a Tensor")]),
    OpInfo("overlap_add", paddle.signal.overlap_add, np_overlap_add, lambda rng: [
        Sample([uniform(rng, (4, 3)), 2]),
        Sample([uniform(rng, (2, 4, 3)), 3]),
        Sample([uniform(rng, (3, 4, 2)), 1], {"axis": 0}),
        Sample([uniform(rng, (2, 2, 5)), 4]),           # gaps between frames
        Sample([uniform(rng, (3, 2)), 2], {"axis": 0})],
        second_order=True, no_second_order_reason=LINEAR,
        errors=lambda: [
            ErrorSample([np.zeros((5,)), 1], {}, ValueError, "overlap_add: 'x' must have at least 2"),
            ErrorSample([np.zeros((2, 5)), -1], {}, ValueError, "hop_length"),
            ErrorSample([np.zeros((2, 5)), 1], {"axis": 2}, ValueError, "axis")]),
]
