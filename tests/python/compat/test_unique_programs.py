"""Programs holding unique and unique_consecutive move between PaddlePaddle and this framework
(run when PADDLE_REFERENCE_PYTHON names an interpreter with PaddlePaddle): an inference model
PaddlePaddle saves with both ops (flat and along an axis, int32 and int64 indices) runs here with
PaddlePaddle's results, and one saved here from paddle.unique / paddle.unique_consecutive runs in
PaddlePaddle with ours."""

import numpy as np
import pytest

import paddle
from paddle_reference import REFERENCE, run_our_model_there, run_their_model_here
from static_testing import static_mode

pytestmark = pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")

# PaddlePaddle 3.3.1's paddle.unique builds PIR programs only, so the reference appends the
# legacy ops to an old-IR block itself.
REFERENCE_SAVE = r"""
import sys, numpy as np, paddle
paddle.enable_static()
feed = dict(np.load(sys.argv[2]))
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data("x", [None, 3], "int64")
    y = paddle.static.data("y", [None], "float32")
block = main.global_block()
outs = []
def op(type, source, slots, attrs):
    made = {slot: block.create_var(name=f"{type}_{len(outs)}_{slot}", dtype=dtype)
            for slot, dtype in slots.items()}
    block.append_op(type=type, inputs={"X": [source]}, outputs={k: [v] for k, v in made.items()},
                    attrs=attrs)
    outs.extend(made.values())
op("unique", x, {"Out": "int64", "Indices": "int64", "Index": "int64", "Counts": "int64"},
   {"dtype": paddle.base.core.VarDesc.VarType.INT64, "return_index": True,
    "return_inverse": True, "return_counts": True, "axis": [0], "is_sorted": True})
op("unique", y, {"Out": "float32", "Indices": "int32", "Index": "int32", "Counts": "int32"},
   {"dtype": paddle.base.core.VarDesc.VarType.INT32, "return_index": True,
    "return_inverse": True, "return_counts": True, "axis": [], "is_sorted": True})
op("unique_consecutive", y, {"Out": "float32", "Index": "int64", "Counts": "int64"},
   {"dtype": paddle.base.core.VarDesc.VarType.INT64, "return_inverse": True,
    "return_counts": True, "axis": []})
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
np.savez(sys.argv[1] + ".out.npz", *exe.run(main, feed=feed, fetch_list=outs))
paddle.static.save_inference_model(sys.argv[1], [x, y], outs, exe, program=main)
"""


def feed_arrays():
    rng = np.random.RandomState(0)
    x = rng.randint(0, 2, (6, 3)).astype(np.int64)
    x[4] = x[1]
    y = np.repeat(rng.randint(0, 4, 7), rng.randint(1, 3, 7)).astype(np.float32)
    return {"x": x, "y": y}


def test_paddlepaddle_unique_program_runs_here(tmp_path):
    got, theirs = run_their_model_here(REFERENCE_SAVE, feed_arrays(), str(tmp_path))
    assert len(got) == len(theirs) == 11
    for k, (value, expected) in enumerate(zip(got, theirs)):
        assert value.dtype == expected.dtype, k
        np.testing.assert_array_equal(value, expected, err_msg=f"fetch {k}")


def test_unique_program_saved_here_runs_in_paddlepaddle(tmp_path):
    prefix = str(tmp_path / "unique")
    feed = feed_arrays()
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [None, 3], "int64")
            y = paddle.static.data("y", [None], "float32")
            outs = [*paddle.unique(x, return_index=True, return_inverse=True,
                                   return_counts=True, axis=0),
                    *paddle.unique(y, return_index=True, return_inverse=True,
                                   return_counts=True, dtype="int32"),
                    *paddle.unique_consecutive(y, return_inverse=True, return_counts=True)]
        exe = paddle.static.Executor()
        ours = exe.run(main, feed=feed, fetch_list=outs)
        paddle.static.save_inference_model(prefix, [x, y], outs, exe, program=main)
    theirs = run_our_model_there(prefix, feed)
    assert len(theirs) == len(ours) == 11
    for k, (value, expected) in enumerate(zip(ours, theirs)):
        np.testing.assert_array_equal(expected, value, err_msg=f"fetch {k}")
