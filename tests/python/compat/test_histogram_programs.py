"""Programs holding bincount and histogram move between PaddlePaddle and this framework (run
when PADDLE_REFERENCE_PYTHON names an interpreter with PaddlePaddle), both ways, with the same
results."""
import numpy as np
import pytest

import paddle
from paddle_reference import REFERENCE, run_our_model_there, run_their_model_here
from static_testing import static_mode

pytestmark = pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")

# The legacy ops appended to an old-IR block (PaddlePaddle 3.3.1's APIs build PIR programs).
REFERENCE_SAVE = r"""
import sys, numpy as np, paddle
paddle.enable_static()
feed = dict(np.load(sys.argv[2]))
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    ids = paddle.static.data("ids", [None], "int64")
    w = paddle.static.data("w", [None], "float32")
    v = paddle.static.data("v", [None], "float32")
block = main.global_block()
outs = []
def op(type, inputs, dtype, attrs):
    out = block.create_var(name=f"{type}_{len(outs)}", dtype=dtype)
    block.append_op(type=type, inputs=inputs, outputs={"Out": [out]}, attrs=attrs)
    outs.append(out)
op("bincount", {"X": [ids]}, "int64", {"minlength": 9})
op("bincount", {"X": [ids], "Weights": [w]}, "float32", {"minlength": 0})
op("histogram", {"X": [v]}, "int64", {"bins": 5, "min": 0.0, "max": 0.0, "density": False})
op("histogram", {"X": [v], "Weight": [w]}, "float32",
   {"bins": 4, "min": -1.0, "max": 3.0, "density": True})
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
np.savez(sys.argv[1] + ".out.npz", *exe.run(main, feed=feed, fetch_list=outs))
paddle.static.save_inference_model(sys.argv[1], [ids, w, v], outs, exe, program=main)
"""


def feed_arrays():
    rng = np.random.RandomState(0)
    return {"ids": rng.randint(0, 6, 10).astype(np.int64),
            "w": rng.uniform(0, 1, 10).astype(np.float32),
            "v": rng.uniform(-1, 3, 10).astype(np.float32)}


def test_paddlepaddle_histogram_program_runs_here(tmp_path):
    got, theirs = run_their_model_here(REFERENCE_SAVE, feed_arrays(), str(tmp_path))
    assert len(got) == len(theirs) == 4
    for k, (value, expected) in enumerate(zip(got, theirs)):
        assert value.dtype == expected.dtype, k
        np.testing.assert_allclose(value, expected, rtol=1e-6, err_msg=f"fetch {k}")


def test_histogram_program_saved_here_runs_in_paddlepaddle(tmp_path):
    prefix = str(tmp_path / "histogram")
    feed = feed_arrays()
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            ids = paddle.static.data("ids", [None], "int64")
            w = paddle.static.data("w", [None], "float32")
            v = paddle.static.data("v", [None], "float32")
            outs = [paddle.bincount(ids, minlength=9), paddle.bincount(ids, weights=w),
                    paddle.histogram(v, bins=5),
                    paddle.histogram(v, bins=4, min=-1, max=3, weight=w, density=True)]
        exe = paddle.static.Executor()
        ours = exe.run(main, feed=feed, fetch_list=outs)
        paddle.static.save_inference_model(prefix, [ids, w, v], outs, exe, program=main)
    theirs = run_our_model_there(prefix, feed)
    assert len(theirs) == len(ours) == 4
    for k, (value, expected) in enumerate(zip(ours, theirs)):
        np.testing.assert_allclose(expected, value, rtol=1e-6, err_msg=f"fetch {k}")
