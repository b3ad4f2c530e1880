"""paddle.fft against numpy.fft: every transform in each norm, with n/s and axis/axes, the
frequency helpers and shifts, gradients of the public functions (float64 central differences),
and the argument errors. The ops underneath are checked by the harness (op_db_fft.py)."""
import numpy as np
import pytest

import paddle
from harness import numeric_gradient

NORMS = ["backward", "forward", "ortho"]
RNG = np.random.default_rng(7)


def _real(shape):
    return RNG.standard_normal(shape)


def _complex(shape):
    return RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)


def _close(actual, expected, tol=1e-9):
    actual = actual.numpy()
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    np.testing.assert_allclose(actual, expected, rtol=tol, atol=tol)


ONE_AXIS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
# The input each transform takes: real for rfft/ihfft, complex for the rest (fft/ifft take both).
REAL_INPUT = {"rfft", "ihfft", "rfft2", "ihfft2", "rfftn", "ihfftn"}


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("api", ONE_AXIS)
@pytest.mark.parametrize("n,axis", [(None, -1), (None, 0), (5, -1), (12, 1), (7, 0)])
def test_one_axis_transforms_match_numpy(api, norm, n, axis):
    x = _real((6, 8)) if api in REAL_INPUT else _complex((6, 8))
    expected = getattr(np.fft, api)(x, n=n, axis=axis, norm=norm)
    _close(getattr(paddle.fft, api)(paddle.to_tensor(x), n=n, axis=axis, norm=norm), expected)


@pytest.mark.parametrize("api", ["fft", "ifft"])
def test_fft_of_real_and_integer_input_is_the_full_spectrum(api):
    x = _real((3, 10))
    _close(getattr(paddle.fft, api)(paddle.to_tensor(x)), getattr(np.fft, api)(x))
    ints = np.arange(12).reshape(3, 4)
    out = getattr(paddle.fft, api)(paddle.to_tensor(ints))
    assert out.dtype == paddle.complex64
    _close(out, getattr(np.fft, api)(ints), tol=1e-5)


N_AXES = ["fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"]


def _numpy_nd(api, x, s, axes, norm):
    if axes is None and s is not None:
        axes = tuple(range(x.ndim - len(s), x.ndim))
    if api in ("hfftn", "ihfftn"):
        # numpy has no n-dimensional hfft: hfftn is irfftn of the conjugate scaled as a forward
        # transform, ihfftn the conjugate of rfftn scaled as an inverse one.
        swapped = {"backward": "forward", "forward": "backward", "ortho": "ortho"}[norm]
        if api == "hfftn":
            return np.fft.irfftn(np.conj(x), s=s, axes=axes, norm=swapped)
        return np.conj(np.fft.rfftn(x, s=s, axes=axes, norm=swapped))
    return getattr(np.fft, api)(x, s=s, axes=axes, norm=norm)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("api", N_AXES)
@pytest.mark.parametrize("s,axes", [(None, None), (None, (0, 2)), ((4, 6), (1, 2)),
                                    ((3, 5), (2, 0)), ((7,), None)])
def test_n_axis_transforms_match_numpy(api, norm, s, axes):
    x = _real((4, 5, 6)) if api in REAL_INPUT else _complex((4, 5, 6))
    expected = _numpy_nd(api, x, s, axes, norm)
    _close(getattr(paddle.fft, api)(paddle.to_tensor(x), s=s, axes=axes, norm=norm), expected)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("api", ["fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2"])
@pytest.mark.parametrize("s,axes", [(None, (-2, -1)), ((4, 6), (0, 2)), (None, (2, 1))])
def test_two_axis_transforms_match_numpy(api, norm, s, axes):
    x = _real((4, 5, 6)) if api in REAL_INPUT else _complex((4, 5, 6))
    expected = _numpy_nd(api.replace("2", "n"), x, s, axes, norm)
    _close(getattr(paddle.fft, api)(paddle.to_tensor(x), s=s, axes=axes, norm=norm), expected)


def test_float32_and_complex64_keep_their_precision():
    x = _real((4, 512)).astype(np.float32)
    out = paddle.fft.rfft(paddle.to_tensor(x))
    assert out.dtype == paddle.complex64
    np.testing.assert_allclose(out.numpy(), np.fft.rfft(x), rtol=1e-4, atol=1e-4)
    z = _complex((3, 1000)).astype(np.complex64)
    back = paddle.fft.ifft(paddle.fft.fft(paddle.to_tensor(z)))
    np.testing.assert_allclose(back.numpy(), z, rtol=1e-5, atol=1e-5)
    assert paddle.fft.irfft(paddle.to_tensor(z)).dtype == paddle.float32


@pytest.mark.parametrize("n,batch", [(1 << 15, 3), (1 << 16, 1), (3 << 16, 2), (1 << 20, 1)])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_long_lines_on_the_four_step_path_match_numpy(n, batch, dtype):
    # Lines of 2^16 points and more that split into two factors of at least 64 run as the
    # four-step FFT (funcs/fft.cc); 2^15 points are below that and take the direct path.
    x = _complex((batch, n)).astype(dtype)
    tol = 2e-6 if dtype == "complex64" else 1e-12
    for api, norm in (("fft", "backward"), ("ifft", "ortho"), ("fft", "forward")):
        expected = getattr(np.fft, api)(x.astype("complex128"), norm=norm)
        actual = getattr(paddle.fft, api)(paddle.to_tensor(x), norm=norm).numpy()
        assert actual.dtype == np.dtype(dtype)
        scale = np.abs(expected).max()
        assert np.abs(actual - expected).max() / scale < tol, (api, norm)


@pytest.mark.parametrize("n,batch", [(1 << 16, 3), (1 << 17, 1), (3 << 17, 2), (1 << 21, 1)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_long_real_lines_on_the_four_step_path_match_numpy(n, batch, dtype):
    # Real lines whose n / 2 pairs split for the four-step FFT (2^17 points and more) take it
    # too, for rfft, ihfft and fft of a real input; 2^16 points take kiss_fftr.
    x = _real((batch, n)).astype(dtype)
    tol = 2e-6 if dtype == "float32" else 1e-12
    for api, norm in (("rfft", "backward"), ("ihfft", "ortho"), ("fft", "forward")):
        expected = getattr(np.fft, api)(x.astype("float64"), norm=norm)
        actual = getattr(paddle.fft, api)(paddle.to_tensor(x), norm=norm).numpy()
        assert actual.shape == expected.shape
        assert np.abs(actual - expected).max() / np.abs(expected).max() < tol, (api, norm)


@pytest.mark.parametrize("n,batch", [(1 << 16, 3), (1 << 17, 1), (3 << 17, 2), (1 << 21, 1)])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_long_complex_to_real_lines_on_the_four_step_path_match_numpy(n, batch, dtype):
    # irfft and hfft to an even n whose n / 2 points split for the four-step FFT (2^17 and more)
    # invert through it; 2^16 points take kiss_fftri. Half spectra shorter than n / 2 + 1 are
    # zero-padded, longer ones cut, and the imaginary parts of bins 0 and n / 2 ignored, as in
    # NumPy.
    tol = 2e-6 if dtype == "complex64" else 1e-12
    for m, api, norm in ((n // 2 + 1, "irfft", "backward"), (n // 2 - 5, "hfft", "ortho"),
                         (n // 2 + 9, "irfft", "forward")):
        x = _complex((batch, m)).astype(dtype)
        expected = getattr(np.fft, api)(x.astype("complex128"), n=n, norm=norm)
        actual = getattr(paddle.fft, api)(paddle.to_tensor(x), n=n, norm=norm).numpy()
        assert actual.shape == expected.shape
        assert np.abs(actual - expected).max() / np.abs(expected).max() < tol, (api, m, norm)


def test_a_large_power_of_two_round_trips():
    z = _complex((1 << 16,))
    _close(paddle.fft.fft(paddle.to_tensor(z)), np.fft.fft(z), tol=1e-7)


@pytest.mark.parametrize("n", [1, 2, 9, 10])
@pytest.mark.parametrize("d", [1.0, 0.25])
def test_frequencies_match_numpy(n, d):
    _close(paddle.fft.fftfreq(n, d, dtype="float64"), np.fft.fftfreq(n, d))
    _close(paddle.fft.rfftfreq(n, d, dtype="float64"), np.fft.rfftfreq(n, d))
    assert paddle.fft.fftfreq(n, d).dtype == paddle.float32


@pytest.mark.parametrize("axes", [None, 0, (1,), (0, 1)])
def test_shifts_match_numpy(axes):
    for x in (_real((5, 6)), _complex((4, 7))):
        _close(paddle.fft.fftshift(paddle.to_tensor(x), axes=axes), np.fft.fftshift(x, axes=axes))
        _close(paddle.fft.ifftshift(paddle.to_tensor(x), axes=axes),
               np.fft.ifftshift(x, axes=axes))


def _check_gradient(fn, x, loss_weights):
    """autograd's gradient of Re(sum(fn(x) * w)) against central differences (in the real and
    the imaginary part of a complex x)."""
    def loss(arrays):
        out = fn(paddle.to_tensor(arrays[0]))
        total = (out * paddle.to_tensor(loss_weights.astype(
            np.complex128 if out.dtype == paddle.complex128 else np.float64))).sum()
        return float(paddle.real(total).numpy()) if total.dtype == paddle.complex128 else float(
            total.numpy())

    t = paddle.to_tensor(x, stop_gradient=False)
    out = fn(t)
    weights = paddle.to_tensor(loss_weights.astype(
        np.complex128 if out.dtype == paddle.complex128 else np.float64))
    total = (out * weights).sum()
    if total.dtype == paddle.complex128:
        total = paddle.real(total)
    (grad,) = paddle.grad([total], [t])
    np.testing.assert_allclose(grad.numpy(), numeric_gradient(loss, [x.copy()], 0), atol=1e-6,
                               rtol=1e-6)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("api,kwargs", [
    ("fft", {"n": 6}), ("ifft", {}), ("rfft", {"n": 9}), ("irfft", {"n": 7}), ("hfft", {}),
    ("ihfft", {}), ("fft2", {"s": (3, 5)}), ("rfftn", {}), ("irfftn", {"s": (4, 6)}),
    ("hfft2", {}), ("ihfftn", {"axes": (1, 0)}), ("ifftn", {})])
def test_gradients_match_central_differences(api, norm, kwargs):
    x = _real((4, 5)) if api in REAL_INPUT else _complex((4, 5))
    fn = lambda t: getattr(paddle.fft, api)(t, norm=norm, **kwargs)  # noqa: E731
    shape = fn(paddle.to_tensor(x)).shape
    weights = RNG.standard_normal(shape) + (0 if api in ("irfft", "hfft", "irfftn", "hfft2")
                                            else 1j * RNG.standard_normal(shape))
    _check_gradient(fn, x, np.asarray(weights))


def test_gradient_of_the_gradient_kernels():
    """The second-order gradients run fft_r2c_grad's and fft_c2r_grad's own gradients: the
    gradient of <d loss / dx, v> with respect to the loss weights is the forward op of v."""
    x = paddle.to_tensor(_real((3, 8)), stop_gradient=False)
    w = paddle.to_tensor(_complex((3, 5)), stop_gradient=False)
    v = _real((3, 8))
    (gx,) = paddle.grad([paddle.real((paddle.fft.rfft(x) * w).sum())], [x], create_graph=True)
    (gw,) = paddle.grad([(gx * paddle.to_tensor(v)).sum()], [w])
    # d/dw of Re(sum(rfft(x) * w)) . v is rfft(v), conjugated by Paddle's convention.
    np.testing.assert_allclose(gw.numpy(), np.conj(np.fft.rfft(v)), atol=1e-9)

    z = paddle.to_tensor(_complex((3, 5)), stop_gradient=False)
    u = paddle.to_tensor(_real((3, 8)), stop_gradient=False)
    c = _complex((3, 5))
    (gz,) = paddle.grad([(paddle.fft.irfft(z) * u).sum()], [z], create_graph=True)
    loss = paddle.real((gz * paddle.to_tensor(np.conj(c))).sum())
    (gu,) = paddle.grad([loss], [u])
    np.testing.assert_allclose(gu.numpy(), np.fft.irfft(c, n=8), atol=1e-9)


@pytest.mark.parametrize("call,match", [
    (lambda x: paddle.fft.fft(x, n=0), r"fft\(\): argument n \(0\) must be positive"),
    (lambda x: paddle.fft.rfft(x, n=-4), r"rfft\(\): argument n \(-4\)"),
    (lambda x: paddle.fft.ifft(x, norm="sideways"), r"ifft\(\): unexpected norm 'sideways'"),
    (lambda x: paddle.fft.fftn(x, norm="none"), r"fftn\(\): unexpected norm 'none'"),
    (lambda x: paddle.fft.hfft(x, axis=2), r"hfft\(\): axis 2 is out of range"),
    (lambda x: paddle.fft.fft2(x, axes=(0, -3)), r"fft2\(\): axes -3 is out of range"),
    (lambda x: paddle.fft.rfftn(x, s=(4, 0)), r"rfftn\(\): argument s \(\[4, 0\]\)"),
    (lambda x: paddle.fft.ifftn(x, s=(4, 4), axes=(0,)), r"ifftn\(\): s \(\[4, 4\]\) and axes"),
    (lambda x: paddle.fft.fftn(x, axes=(1, 1)), r"fftn\(\): argument axes \(\[1, 1\]\) repeats"),
    (lambda x: paddle.fft.fft2(x[0]), r"fft2\(\): the input must have at least 2 dimensions"),
    (lambda x: paddle.fft.fftfreq(0), r"fftfreq\(\): n \(0\)"),
    (lambda x: paddle.fft.fftshift(x, axes=5), r"fftshift\(\): axes 5 is out of range"),
])
def test_bad_arguments_raise_value_errors_naming_the_function_and_value(call, match):
    with pytest.raises(ValueError, match=match):
        call(paddle.to_tensor(_real((4, 6))))


def test_a_non_tensor_is_a_type_error():
    with pytest.raises(TypeError, match="paddle.fft.fft"):
        paddle.fft.fft([1.0, 2.0])


def test_static_program_runs_the_legacy_ops():
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [3, 8], "float64")
            y = paddle.fft.irfft(paddle.fft.rfft(x, norm="ortho"), n=8, norm="ortho")
        types = [op.type for op in main.global_block().ops]
        assert "fft_r2c" in types and "fft_c2r" in types
        r2c = next(op for op in main.global_block().ops if op.type == "fft_r2c")
        assert r2c.attr("normalization") == "ortho" and r2c.attr("onesided") is True
        value = _real((3, 8))
        (out,) = paddle.static.Executor(paddle.CPUPlace()).run(main, feed={"x": value},
                                                               fetch_list=[y])
        np.testing.assert_allclose(out, value, atol=1e-12)
    finally:
        paddle.disable_static()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_strided_axes_in_blocks_of_lines(dtype):
    """Along an axis with many lines beside each other (inner size 111, not a multiple of the
    kernels' blocks of 16 lines) every line is transformed."""
    tol = 1e-4 if dtype == "float32" else 1e-10
    x = _real((40, 3, 37)).astype(dtype)
    z = _complex((40, 3, 37)).astype("complex64" if dtype == "float32" else "complex128")
    for api, value in (("fft", z), ("rfft", x), ("irfft", z), ("ihfft", x), ("hfft", z)):
        for n in (None, 31):
            out = getattr(paddle.fft, api)(paddle.to_tensor(value), n=n, axis=0)
            np.testing.assert_allclose(out.numpy(), getattr(np.fft, api)(value, n=n, axis=0),
                                       rtol=tol, atol=tol)


def test_second_order_gradient_of_fft_c2c():
    z = paddle.to_tensor(_complex((3, 6)), stop_gradient=False)
    w = paddle.to_tensor(_complex((3, 6)), stop_gradient=False)
    v = _complex((3, 6))
    (gz,) = paddle.grad([paddle.real((paddle.fft.fft2(z, norm="ortho") * w).sum())], [z],
                        create_graph=True)
    (gw,) = paddle.grad([paddle.real((gz * paddle.to_tensor(np.conj(v))).sum())], [w])
    np.testing.assert_allclose(gw.numpy(), np.conj(np.fft.fft2(v, norm="ortho")), atol=1e-9)
