"""complex64 and complex128 tensors: dtype names and promotion, creation from NumPy and Python
complex numbers, arithmetic with Python scalars, casts, matmul, reductions, gradients by Paddle's
convention (values recorded from PaddlePaddle 3.3.1), the typed error of ops without complex
kernels, and complex parameters in model files. Per-op forward and gradient checks are the
harness's (op_db_complex.py)."""
import os
import subprocess
import textwrap

import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
from static_testing import static_mode

REFERENCE = os.environ.get("PADDLE_REFERENCE_PYTHON")
Z = np.array([1 + 2j, 3 - 1j], dtype=np.complex128)
W = np.array([0.5 - 1j, 2 + 0.5j], dtype=np.complex128)


def leaf(array):
    t = paddle.to_tensor(array)
    t.stop_gradient = False
    return t


def test_dtype_names_and_sizes():
    assert paddle.complex64.name == "complex64" and str(paddle.complex128) == "paddle.complex128"
    assert paddle.to_tensor(Z.astype(np.complex64)).element_size() == 8
    assert paddle.to_tensor(Z).element_size() == 16
    x = paddle.to_tensor([1.0]).astype("complex64")
    assert x.dtype == paddle.complex64 and x.astype(paddle.complex128).dtype == paddle.complex128


@pytest.mark.parametrize("a,b,expected", [
    ("float32", "complex64", "complex64"), ("float64", "complex64", "complex128"),
    ("int64", "complex64", "complex64"), ("bool", "complex128", "complex128"),
    ("float16", "complex64", "complex64"), ("complex64", "complex128", "complex128")])
def test_promotion_follows_paddle(a, b, expected):
    x = paddle.ones([2], dtype=a) if "complex" not in a else paddle.to_tensor(Z.astype(a))
    y = paddle.to_tensor(Z.astype(b))
    assert (x + y).dtype == getattr(paddle, expected)
    assert (y * x).dtype == getattr(paddle, expected)


def test_to_tensor_and_numpy_round_trip():
    for dtype in (np.complex64, np.complex128):
        array = (Z * np.array([[1], [-2j]])).astype(dtype)
        t = paddle.to_tensor(array)
        np.testing.assert_array_equal(t.numpy(), array, strict=True)
    assert paddle.to_tensor(1 + 2j).dtype == paddle.complex64
    assert paddle.to_tensor([1 + 2j, 3]).dtype == paddle.complex64
    assert paddle.to_tensor([1 + 2j], dtype="complex128").numpy()[0] == 1 + 2j
    assert paddle.to_tensor(np.complex64(2j)).dtype == paddle.complex64
    paddle.set_default_dtype("float64")
    try:
        assert paddle.to_tensor(1j).dtype == paddle.complex128
    finally:
        paddle.set_default_dtype("float32")


def test_python_scalars_keep_the_complex_dtype():
    z = paddle.to_tensor(Z.astype(np.complex64))
    np.testing.assert_allclose((z * 2.5).numpy(), Z * 2.5, rtol=1e-6)
    assert (z * 2.5).dtype == paddle.complex64 and (z + 1).dtype == paddle.complex64
    np.testing.assert_allclose((z * (1 + 1j)).numpy(), [-1 + 3j, 4 + 2j], rtol=1e-6)
    real = paddle.to_tensor([1.0, 2.0], dtype="float64")
    assert (real * 1j).dtype == paddle.complex128
    assert (paddle.to_tensor([1.0, 2.0]) * 1j).dtype == paddle.complex64
    np.testing.assert_allclose((-z).numpy(), -Z, rtol=1e-6)


def test_complex_from_parts_and_back():
    re, im = paddle.to_tensor([1.0, 3.0]), paddle.to_tensor([2.0, -1.0])
    z = paddle.complex(re, im)
    assert z.dtype == paddle.complex64
    np.testing.assert_array_equal(z.numpy(), Z.astype(np.complex64))
    np.testing.assert_array_equal(z.real().numpy(), [1.0, 3.0])
    np.testing.assert_array_equal(paddle.imag(z).numpy(), [2.0, -1.0])
    np.testing.assert_array_equal(paddle.as_real(z).numpy(), [[1.0, 2.0], [3.0, -1.0]])
    np.testing.assert_array_equal(paddle.as_complex(paddle.as_real(z)).numpy(), z.numpy())
    assert paddle.abs(z).dtype == paddle.float32 and paddle.angle(z).dtype == paddle.float32


def test_sgn_is_z_over_modulus_and_sign_for_reals():
    z = paddle.to_tensor(np.array([3 + 4j, 0, -2j]))
    np.testing.assert_allclose(paddle.sgn(z).numpy(), [0.6 + 0.8j, 0, -1j])
    np.testing.assert_array_equal(paddle.to_tensor([-2.0, 0.0, 5.0]).sgn().numpy(), [-1, 0, 1])
    assert paddle.is_complex(z) and not paddle.is_complex(paddle.to_tensor([1.0]))


def test_casts_between_real_and_complex_keep_the_real_part():
    z = paddle.to_tensor(Z)
    np.testing.assert_array_equal(paddle.cast(z, "float32").numpy(), [1.0, 3.0])
    np.testing.assert_array_equal(paddle.cast(z, "int32").numpy(), [1, 3])
    np.testing.assert_array_equal(paddle.cast(z, "bool").numpy(), [True, True])
    np.testing.assert_array_equal(paddle.cast(paddle.to_tensor([1.5, -2.0]), "complex64").numpy(),
                                  np.array([1.5, -2.0], dtype=np.complex64))


def test_matmul_and_reductions_match_numpy():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 5, 4)) + 1j * rng.standard_normal((3, 5, 4))
    b = rng.standard_normal((4, 2)) + 1j * rng.standard_normal((4, 2))
    for dtype, rtol in ((np.complex64, 1e-5), (np.complex128, 1e-12)):
        ta, tb = paddle.to_tensor(a.astype(dtype)), paddle.to_tensor(b.astype(dtype))
        out = paddle.matmul(ta, tb)
        assert out.dtype == ta.dtype
        np.testing.assert_allclose(out.numpy(), a.astype(dtype) @ b.astype(dtype), rtol=rtol,
                                   atol=rtol)
        np.testing.assert_allclose(paddle.matmul(ta, ta, transpose_y=True).numpy(),
                                   a @ np.swapaxes(a, -1, -2), rtol=1e-4)
        np.testing.assert_allclose(paddle.sum(ta, axis=1).numpy(), a.sum(axis=1), rtol=1e-5)
        np.testing.assert_allclose(paddle.mean(ta).numpy(), a.mean(), rtol=1e-5)
        np.testing.assert_allclose(paddle.prod(ta[0, 0]).numpy(), a[0, 0].prod(), rtol=1e-5)


# The gradients PaddlePaddle 3.3.1 gives for these losses (dL/dRe + i dL/dIm).
def test_gradient_of_abs_is_z_over_modulus():
    z = leaf(Z)
    paddle.abs(z).sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), [0.4472136 + 0.89442719j, 0.9486833 - 0.31622777j],
                               rtol=1e-7)


def test_gradients_of_real_and_imag():
    z = leaf(Z)
    paddle.real(z).sum().backward()
    np.testing.assert_array_equal(z.grad.numpy(), [1, 1])
    z = leaf(Z)
    paddle.imag(z).sum().backward()
    np.testing.assert_array_equal(z.grad.numpy(), [1j, 1j])


def test_gradient_of_multiply_is_conjugated():
    z, w = leaf(Z), leaf(W)
    paddle.real(z * w).sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), [0.5 + 1j, 2 - 0.5j])
    np.testing.assert_allclose(w.grad.numpy(), [1 - 2j, 3 + 1j])
    z, w = leaf(Z), leaf(W)
    paddle.imag(z * w).sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), [-1 + 0.5j, 0.5 + 2j])


def test_gradient_of_matmul():
    a = leaf(np.array([[1 + 1j, 2], [0.5j, 1 - 1j]]))
    b = leaf(np.array([[2 - 1j, 1j], [1, 1 + 2j]]))
    paddle.real(paddle.matmul(a, b)).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [[2, 2 - 2j], [2, 2 - 2j]])
    np.testing.assert_allclose(b.grad.numpy(), [[1 - 1.5j, 1 - 1.5j], [3 + 1j, 3 + 1j]])


def test_gradient_of_divide_and_exp():
    z, w = leaf(Z), leaf(W)
    paddle.real(z / w).sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), np.conj(1 / W))
    np.testing.assert_allclose(w.grad.numpy(), np.conj(-Z / W ** 2))
    z = leaf(Z)
    paddle.real(paddle.exp(z)).sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), np.conj(np.exp(Z)))


def test_gradient_through_complex_and_cast_to_real_parts():
    re, im = leaf(np.array([1.0, 3.0])), leaf(np.array([2.0, -1.0]))
    paddle.abs(paddle.complex(re, im)).sum().backward()
    np.testing.assert_allclose(re.grad.numpy(), [0.4472136, 0.9486833], rtol=1e-7)
    np.testing.assert_allclose(im.grad.numpy(), [0.89442719, -0.31622777], rtol=1e-7)
    x = leaf(np.array([1.0, -2.0]))
    paddle.abs(paddle.cast(x, "complex128")).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, -1.0])
    assert x.grad.dtype == paddle.float64


@pytest.mark.parametrize("call,op", [
    (F.relu, "relu"), (lambda z: paddle.maximum(z, z), "maximum"),
    (lambda z: paddle.floor(z), "floor"), (lambda z: paddle.argmax(z), "argmax"),
    (F.softmax, "softmax"), (lambda z: F.layer_norm(z, 2), "layer_norm"),
    (lambda z: paddle.clip(z, 0, 1), "clip")])
def test_ops_without_complex_kernels_raise_type_error(call, op):
    with pytest.raises(TypeError) as raised:
        call(paddle.to_tensor(Z.astype(np.complex64)))
    assert op in str(raised.value) and "complex64" in str(raised.value)


def test_static_program_runs_complex_and_saves_it(tmp_path):
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            z = paddle.static.data("z", [None, 2], "complex64")
            w = paddle.static.data("w", [2, 2], "complex64")
            out = paddle.abs(paddle.matmul(z, w) + z)
        exe = paddle.static.Executor()
        exe.run(startup)
        zs = np.array([[1 + 1j, 2], [0, -1j]], dtype=np.complex64)
        ws = np.array([[1, 1j], [2 - 1j, 0.5]], dtype=np.complex64)
        result, = exe.run(main, feed={"z": zs, "w": ws}, fetch_list=[out])
        np.testing.assert_allclose(result, np.abs(zs @ ws + zs), rtol=1e-6)
        prefix = str(tmp_path / "model")
        paddle.static.save_inference_model(prefix, [z, w], [out], exe, program=main)
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        loaded, = exe.run(program, feed={"z": zs, "w": ws}, fetch_list=fetches)
        np.testing.assert_allclose(loaded, result)


def test_save_and_load_complex_state(tmp_path):
    state = {"z": paddle.to_tensor(Z), "z64": paddle.to_tensor(Z.astype(np.complex64))}
    paddle.save(state, str(tmp_path / "state.pdparams"))
    loaded = paddle.load(str(tmp_path / "state.pdparams"))
    np.testing.assert_array_equal(loaded["z"].numpy(), Z, strict=True)
    np.testing.assert_array_equal(loaded["z64"].numpy(), Z.astype(np.complex64), strict=True)


@pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")
def test_complex_model_runs_in_paddlepaddle(tmp_path):
    """A .pdmodel/.pdiparams pair with a float parameter made complex, complex matmul, conj,
    abs, exp and angle, saved here, loads and gives the same results in PaddlePaddle."""
    zs = np.array([[1 + 1j, 2], [0, -1j]], dtype=np.complex64)
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            z = paddle.static.data("z", [None, 2], "complex64")
            w = paddle.create_parameter([2, 2], "float32")
            out = paddle.abs(paddle.matmul(z, paddle.complex(w, w * 2.0)) + paddle.conj(z))
            angle = paddle.angle(paddle.exp(z))
        exe = paddle.static.Executor()
        exe.run(startup)
        expected = np.stack(exe.run(main, feed={"z": zs}, fetch_list=[out, angle]))
        paddle.static.save_inference_model(str(tmp_path / "model"), [z], [out, angle], exe,
                                           program=main)
    np.save(tmp_path / "z.npy", zs)
    script = textwrap.dedent("""
        import sys
        import numpy as np
        import paddle
        paddle.enable_static()
        exe = paddle.static.Executor(paddle.CPUPlace())
        program, feeds, fetches = paddle.static.load_inference_model(sys.argv[1] + "/model", exe)
        results = exe.run(program, feed={feeds[0]: np.load(sys.argv[1] + "/z.npy")},
                          fetch_list=fetches)
        np.save(sys.argv[1] + "/theirs.npy", np.stack(results))
    """)
    env = dict(os.environ, FLAGS_enable_pir_api="0", GLOG_minloglevel="2")
    env.pop("PYTHONPATH", None)
    result = subprocess.run([REFERENCE, "-c", script, str(tmp_path)], env=env, cwd="/",
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    np.testing.assert_allclose(np.load(tmp_path / "theirs.npy"), expected, rtol=1e-6)
