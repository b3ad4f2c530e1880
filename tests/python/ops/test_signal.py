"""paddle.signal.stft and istft against a NumPy short-time Fourier transform, their round trip,
gradients, and argument errors. frame and overlap_add are harness entries (op_db_fft.py)."""
import numpy as np
import pytest

import paddle
from harness import numeric_gradient

RNG = np.random.default_rng(11)


def np_stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True,
            pad_mode="reflect", normalized=False, onesided=True):
    """Frames of n_fft points hop_length apart (after centring by n_fft // 2 on each side),
    times the window (centred in n_fft points), each transformed: [batch, bins, frames]."""
    hop_length = hop_length or n_fft // 4
    win_length = win_length or n_fft
    window = np.ones(win_length) if window is None else window
    left = (n_fft - win_length) // 2
    window = np.pad(window, (left, n_fft - win_length - left))
    x = np.atleast_2d(x)
    if center:
        x = np.pad(x, [(0, 0), (n_fft // 2, n_fft // 2)], mode=pad_mode)
    count = 1 + (x.shape[-1] - n_fft) // hop_length
    frames = np.stack([x[:, t * hop_length:t * hop_length + n_fft] for t in range(count)], 1)
    transform = np.fft.rfft if onesided else np.fft.fft
    spectrum = transform(frames * window, axis=-1, norm="ortho" if normalized else "backward")
    return spectrum.transpose(0, 2, 1)


@pytest.mark.parametrize("kwargs", [
    {"n_fft": 16},
    {"n_fft": 16, "hop_length": 5, "win_length": 12, "window": "hann"},
    {"n_fft": 15, "hop_length": 4, "center": False},
    {"n_fft": 8, "pad_mode": "constant", "normalized": True},
    {"n_fft": 16, "onesided": False, "window": "hann"},
])
@pytest.mark.parametrize("batch", [None, 3])
def test_stft_matches_numpy(kwargs, batch):
    x = RNG.standard_normal((64,) if batch is None else (batch, 64))
    kwargs = dict(kwargs)
    win_length = kwargs.get("win_length", kwargs["n_fft"])
    window = np.hanning(win_length) if kwargs.pop("window", None) == "hann" else None
    expected = np_stft(x, window=window, **kwargs)
    if batch is None:
        expected = expected[0]
    out = paddle.signal.stft(paddle.to_tensor(x),
                             window=None if window is None else paddle.to_tensor(window),
                             **kwargs)
    np.testing.assert_allclose(out.numpy(), expected, atol=1e-10)


def test_stft_of_complex_input_is_two_sided():
    x = RNG.standard_normal((2, 40)) + 1j * RNG.standard_normal((2, 40))
    out = paddle.signal.stft(paddle.to_tensor(x), 8)
    expected = np_stft(x.real, 8, onesided=False) + 1j * np_stft(x.imag, 8, onesided=False)
    np.testing.assert_allclose(out.numpy(), expected, atol=1e-10)


@pytest.mark.parametrize("dtype,tol", [("float64", 1e-10), ("float32", 1e-5)])
@pytest.mark.parametrize("kwargs", [
    {"n_fft": 32, "hop_length": 8, "window": "hann"},
    {"n_fft": 31, "hop_length": 10, "win_length": 20, "window": "hann"},
    {"n_fft": 16, "hop_length": 4, "normalized": True},
    {"n_fft": 16, "hop_length": 16, "center": False},
])
def test_istft_inverts_stft(dtype, tol, kwargs):
    x = RNG.standard_normal((2, 160)).astype(dtype)
    kwargs = dict(kwargs)
    if kwargs.pop("window", None) == "hann":
        # A periodic Hann window overlap-adds to a constant with these hops.
        length = kwargs.get("win_length", kwargs["n_fft"])
        kwargs["window"] = paddle.to_tensor(
            (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(length) / length) + 0.1).astype(dtype))
    spectrum = paddle.signal.stft(paddle.to_tensor(x), **kwargs)
    back = paddle.signal.istft(spectrum, length=160, **kwargs)
    assert back.dtype == paddle.to_tensor(x).dtype
    np.testing.assert_allclose(back.numpy(), x, atol=tol, rtol=tol)


def test_istft_two_sided_and_complex_output():
    x = RNG.standard_normal((1, 96))
    spectrum = paddle.signal.stft(paddle.to_tensor(x), 16, onesided=False)
    back = paddle.signal.istft(spectrum, 16, onesided=False)
    np.testing.assert_allclose(back.numpy(), x, atol=1e-10)
    z = RNG.standard_normal((96,)) + 1j * RNG.standard_normal((96,))
    spectrum = paddle.signal.stft(paddle.to_tensor(z), 16)
    back = paddle.signal.istft(spectrum, 16, onesided=False, return_complex=True)
    np.testing.assert_allclose(back.numpy(), z, atol=1e-10)


def test_stft_gradient_matches_central_differences():
    x = RNG.standard_normal((1, 24))
    window = np.hanning(8)
    weights = RNG.standard_normal((1, 5, 7)) + 1j * RNG.standard_normal((1, 5, 7))

    def loss(arrays):
        out = paddle.signal.stft(paddle.to_tensor(arrays[0]), 8, 4,
                                 window=paddle.to_tensor(window))
        return float(paddle.real((out * paddle.to_tensor(weights)).sum()).numpy())

    t = paddle.to_tensor(x, stop_gradient=False)
    out = paddle.signal.stft(t, 8, 4, window=paddle.to_tensor(window))
    (grad,) = paddle.grad([paddle.real((out * paddle.to_tensor(weights)).sum())], [t])
    np.testing.assert_allclose(grad.numpy(), numeric_gradient(loss, [x.copy()], 0), atol=1e-7)


def test_istft_gradient_matches_central_differences():
    spectrum = paddle.signal.stft(paddle.to_tensor(RNG.standard_normal((1, 32))), 8, 2)
    z = spectrum.numpy()
    weights = RNG.standard_normal((1, 32))

    def loss(arrays):
        return float((paddle.signal.istft(paddle.to_tensor(arrays[0]), 8, 2)
                      * paddle.to_tensor(weights)).sum().numpy())

    t = paddle.to_tensor(z, stop_gradient=False)
    (grad,) = paddle.grad([(paddle.signal.istft(t, 8, 2) * paddle.to_tensor(weights)).sum()],
                          [t])
    np.testing.assert_allclose(grad.numpy(), numeric_gradient(loss, [z.copy()], 0), atol=1e-7)


@pytest.mark.parametrize("call,error,match", [
    (lambda x: paddle.signal.stft(x, 0), ValueError, r"stft\(\): argument n_fft \(0\)"),
    (lambda x: paddle.signal.stft(x, 8, hop_length=0), ValueError, "hop_length"),
    (lambda x: paddle.signal.stft(x, 8, win_length=9), ValueError, r"win_length \(9\)"),
    (lambda x: paddle.signal.stft(x, 8, pad_mode="edge"), ValueError, "'edge'"),
    (lambda x: paddle.signal.stft(x, 128, center=False), ValueError, r"n_fft \(128\)"),
    (lambda x: paddle.signal.stft(x[:8], 16), ValueError, r"reflect padding by n_fft // 2 \(8\)"),
    (lambda x: paddle.signal.stft(x.unsqueeze(0).unsqueeze(0), 8), ValueError, "1-D or 2-D"),
    (lambda x: paddle.signal.stft(x, 8, window=paddle.ones([4])), ValueError, "window"),
    (lambda x: paddle.signal.istft(x, 8), TypeError, "complex64 or complex128"),
    (lambda x: paddle.signal.istft(paddle.signal.stft(x, 8), 16), ValueError, "9 frequency bins"),
    (lambda x: paddle.signal.istft(paddle.signal.stft(x, 8, 2), 8, 4, win_length=2),
     ValueError, r"hop_length \(4\)"),
    (lambda x: paddle.signal.istft(paddle.signal.stft(x, 8, 8), 8, 8,
                                   window=paddle.to_tensor([0.0, 0, 0, 0, 1, 1, 1, 1])),
     ValueError, "NOLA"),
])
def test_bad_arguments_raise_typed_errors(call, error, match):
    with pytest.raises(error, match=match):
        call(paddle.to_tensor(RNG.standard_normal((64,))))
