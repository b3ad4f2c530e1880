"""Programs holding the spectral ops move between PaddlePaddle and this framework (run when
PADDLE_REFERENCE_PYTHON names an interpreter with PaddlePaddle): an inference model that
PaddlePaddle saves with fft_r2c, fft_c2c, fft_c2r, frame and overlap_add runs here with
PaddlePaddle's results, and one saved here from paddle.fft / paddle.signal runs in PaddlePaddle
with ours."""

import numpy as np
import pytest

import paddle
from static_testing import static_mode
from paddle_reference import REFERENCE, run_reference

pytestmark = pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")

# PaddlePaddle 3.3.1's paddle.fft does not build old-IR programs (its static branches return an
# unset variable), so the reference appends the legacy ops to the block itself.
REFERENCE_SAVE = r"""
import sys, numpy as np, paddle
paddle.enable_static()
x_value = np.load(sys.argv[2])
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data("x", list(x_value.shape), "float32")
block = main.global_block()
def op(type, source, dtype, attrs):
    out = block.create_var(name=f"{type}_out", dtype=dtype)
    block.append_op(type=type, inputs={"X": [source]}, outputs={"Out": [out]}, attrs=attrs)
    return out
spectrum = op("fft_r2c", x, "complex64",
              {"axes": [1], "normalization": "ortho", "forward": True, "onesided": True})
full = op("fft_c2c", spectrum, "complex64",
          {"axes": [0, 1], "normalization": "backward", "forward": False})
signal = op("fft_c2r", spectrum, "float32",
            {"axes": [1], "normalization": "ortho", "forward": False, "last_dim_size": 16})
frames = op("frame", x, "float32", {"frame_length": 6, "hop_length": 3, "axis": -1})
summed = op("overlap_add", frames, "float32", {"hop_length": 3, "axis": -1})
outs = [spectrum, full, signal, frames, summed]
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
np.savez(sys.argv[1] + ".out.npz", *exe.run(main, feed={"x": x_value}, fetch_list=outs))
paddle.static.save_inference_model(sys.argv[1], [x], outs, exe, program=main)
"""

REFERENCE_LOAD = r"""
import sys, numpy as np, paddle
paddle.enable_static()
exe = paddle.static.Executor(paddle.CPUPlace())
program, feeds, fetches = paddle.static.load_inference_model(sys.argv[1], exe)
np.savez(sys.argv[1] + ".theirs.npz", *exe.run(program, feed={feeds[0]: np.load(sys.argv[2])},
                                               fetch_list=fetches))
"""


def _signal():
    return np.random.default_rng(0).standard_normal((3, 16)).astype(np.float32)


def _assert_same(ours, theirs):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_paddlepaddle_fft_program_runs_here(tmp_path):
    prefix, x_file = str(tmp_path / "fft"), str(tmp_path / "x.npy")
    np.save(x_file, _signal())
    run_reference(REFERENCE_SAVE, prefix, x_file)
    theirs = np.load(prefix + ".out.npz")
    with static_mode():
        exe = paddle.static.Executor(paddle.CPUPlace())
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        ours = exe.run(program, feed={feeds[0]: _signal()}, fetch_list=fetches)
    _assert_same(ours, [theirs[f"arr_{i}"] for i in range(len(theirs.files))])


def test_fft_program_saved_here_runs_in_paddlepaddle(tmp_path):
    prefix, x_file = str(tmp_path / "fft"), str(tmp_path / "x.npy")
    np.save(x_file, _signal())
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [3, 16], "float32")
            spectrum = paddle.fft.rfft(x, norm="ortho")
            outs = [spectrum, paddle.fft.ifft2(spectrum), paddle.fft.hfft(spectrum, n=16),
                    paddle.signal.overlap_add(paddle.signal.frame(x, 6, 3), 3)]
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        ours = exe.run(main, feed={"x": _signal()}, fetch_list=outs)
        paddle.static.save_inference_model(prefix, [x], outs, exe, program=main)
    run_reference(REFERENCE_LOAD, prefix, x_file)
    theirs = np.load(prefix + ".theirs.npz")
    _assert_same(ours, [theirs[f"arr_{i}"] for i in range(len(theirs.files))])
