"""dropout: F.dropout and nn.Dropout in dygraph (statistics, scaling, modes, p = 0 and 1, eval),
the training gradient against out_grad * mask / (1 - p) with the mask the op returns, seeds
(paddle.seed, fix_seed, seed_tensor, a program's random_seed), inference programs saved and
loaded, and, when PADDLE_REFERENCE_PYTHON names an interpreter with PaddlePaddle, the same
script run in both and a model saved by PaddlePaddle run here. The op's harness entry is in
op_db.py; the static-graph programs are in test_static_ops.py."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from static_testing import new_programs, static_mode

REFERENCE = os.environ.get("PADDLE_REFERENCE_PYTHON")


def _x(shape, seed=0, low=1.0, high=2.0, dtype="float32"):
    return paddle.to_tensor(np.random.default_rng(seed).uniform(low, high, shape).astype(dtype))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("mode", ["upscale_in_train", "downscale_in_infer"])
def test_training_drops_and_scales(dtype, mode):
    p = 0.3
    x = _x([200, 100], dtype="float32")
    out = F.dropout(x.astype(dtype), p, mode=mode).astype("float32").numpy()
    kept = out != 0
    assert abs(kept.mean() - (1 - p)) < 0.02
    scale = 1 / (1 - p) if mode == "upscale_in_train" else 1.0
    rtol = 1e-2 if dtype in ("float16", "bfloat16") else 1e-6
    xv = x.astype(dtype).astype("float32").numpy()
    np.testing.assert_allclose(out[kept], xv[kept] * scale, rtol=rtol)


def test_eval_p0_p1_and_layer():
    x = _x([30, 40])
    np.testing.assert_array_equal(F.dropout(x, 0.4, training=False).numpy(), x.numpy())
    np.testing.assert_allclose(F.dropout(x, 0.4, training=False, mode="downscale_in_infer").numpy(),
                               x.numpy() * 0.6, rtol=1e-6)
    assert F.dropout(x, 0.0) is x  # Paddle's fast return
    for mode in ("upscale_in_train", "downscale_in_infer"):
        np.testing.assert_array_equal(F.dropout(x, 1.0, mode=mode).numpy(), np.zeros([30, 40]))
        np.testing.assert_array_equal(F.dropout(x, 1, mode=mode).numpy(), np.zeros([30, 40]))
    layer = nn.Dropout(0.5)
    assert (layer(x).numpy() == 0).any()
    layer.eval()
    np.testing.assert_array_equal(layer(x).numpy(), x.numpy())
    layer = nn.Dropout(0.5, mode="downscale_in_infer")
    layer.eval()
    np.testing.assert_allclose(layer(x).numpy(), x.numpy() * 0.5, rtol=1e-6)
    for bad, error in (({"p": -0.1}, ValueError), ({"p": "0.5"}, TypeError),
                       ({"mode": "downgrade_in_infer"}, ValueError)):
        with pytest.raises(error):
            F.dropout(x, **bad)
    with pytest.raises(TypeError):
        F.dropout(paddle.to_tensor([1, 2, 3]), 0.5)


@pytest.mark.parametrize("mode", ["upscale_in_train", "downgrade_in_infer"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_training_gradient_is_out_grad_times_mask(mode, dtype):
    p = 0.35
    x = _x([50, 60], dtype=dtype)
    x.stop_gradient = False
    out, mask = paddle._C_ops.dropout(x, None, p, False, mode, 0, False)
    assert mask.dtype == paddle.uint8 and mask.stop_gradient
    w = _x([50, 60], seed=1, low=-1.0, dtype=dtype)
    grad, = paddle.grad([(out * w).sum()], [x])
    m = mask.numpy().astype(dtype)
    scale = np.array(1 - p, dtype=np.float32).astype(dtype) if mode == "upscale_in_train" else 1
    np.testing.assert_allclose(grad.numpy(), w.numpy() * m / scale, rtol=1e-6)
    np.testing.assert_allclose(out.numpy(), x.numpy() * m / scale, rtol=1e-6)
    # is_test: out_grad, or out_grad * (1 - p).
    out, _ = paddle._C_ops.dropout(x, None, p, True, mode, 0, False)
    grad, = paddle.grad([(out * w).sum()], [x])
    expected = w.numpy() if mode == "upscale_in_train" else w.numpy() * np.float32(1 - p)
    np.testing.assert_allclose(grad.numpy(), expected, rtol=1e-6)


def test_p1_gradient_is_zero():
    x = _x([4, 5])
    x.stop_gradient = False
    grad, = paddle.grad([F.dropout(x, 1.0).sum()], [x])
    np.testing.assert_array_equal(grad.numpy(), np.zeros([4, 5]))


def test_seeds():
    x = _x([100, 100])
    paddle.seed(123)
    first = [F.dropout(x, 0.5).numpy() for _ in range(2)]
    assert not np.array_equal(first[0], first[1])  # successive draws differ
    paddle.seed(123)
    again = [F.dropout(x, 0.5).numpy() for _ in range(2)]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    fixed = [paddle._C_ops.dropout(x, None, 0.5, False, "upscale_in_train", 9, True)[1].numpy()
             for _ in range(2)]
    np.testing.assert_array_equal(fixed[0], fixed[1])
    for dtype in ("int32", "int64"):
        seeded = paddle._C_ops.dropout(x, paddle.to_tensor([9], dtype=dtype), 0.5, False,
                                       "upscale_in_train", 0, False)[1]
        np.testing.assert_array_equal(seeded.numpy(), fixed[0])
    with pytest.raises(ValueError, match="seed_tensor"):
        paddle._C_ops.dropout(x, paddle.to_tensor([1, 2]), 0.5, False, "upscale_in_train", 0, False)
    # A program's random_seed fixes dropout's seed, as in Paddle.
    program = paddle.static.default_main_program()
    program.random_seed = 77
    try:
        masks = [F.dropout(x, 0.5).numpy() != 0 for _ in range(2)]
    finally:
        program.random_seed = 0
    np.testing.assert_array_equal(masks[0], masks[1])


@pytest.mark.filterwarnings("ignore:no variable in your model")
def test_saved_inference_program_runs_dropout_in_test_mode(tmp_path):
    xv = np.random.default_rng(2).uniform(1.0, 2.0, (6, 8)).astype("float32")
    prefix = str(tmp_path / "model")
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 8], "float32")
            out = F.dropout(F.dropout(x, 0.5), 0.25, mode="downscale_in_infer")
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        types = [op.type for op in program.global_block().ops]
        assert types.count("dropout") == 2, types
        got, = exe.run(program, feed={feeds[0]: xv}, fetch_list=fetches)
    np.testing.assert_allclose(got, xv * np.float32(0.75), rtol=1e-6)


# ---------------------------------------------------------------- against real PaddlePaddle
# Prints a JSON object of deterministic results (eval, p = 0 and 1, the gradient's relation to
# the mask, kept fractions rounded to a tenth) of the same calls in both frameworks.
SCRIPT = r"""
import json, numpy as np, paddle
import paddle.nn.functional as F
results = {}
x = paddle.to_tensor(np.random.RandomState(0).uniform(1, 2, (200, 50)).astype("float32"))
for mode in ("upscale_in_train", "downscale_in_infer"):
    for p in (0.0, 0.3, 1.0):
        ev = F.dropout(x, p, training=False, mode=mode)
        results[f"{mode}/{p}/eval"] = ev.numpy().astype("float64").ravel()[:50].tolist()
        xt = x.clone()
        xt.stop_gradient = False
        out = F.dropout(xt, p, mode=mode)
        grad, = paddle.grad([out.sum()], [xt])
        kept = out.numpy() != 0
        scale = 1 / np.float32(1 - p) if mode == "upscale_in_train" and p < 1 else 1
        results[f"{mode}/{p}/kept"] = round(float(kept.mean()), 1)
        results[f"{mode}/{p}/out_is_x_scaled"] = bool(np.allclose(
            out.numpy(), np.where(kept, x.numpy() * scale, 0), rtol=1e-6))
        results[f"{mode}/{p}/grad_is_mask_scaled"] = bool(np.allclose(
            grad.numpy(), kept * scale, rtol=1e-6))
        results[f"{mode}/{p}/dtype"] = str(out.dtype)
layer = paddle.nn.Dropout(0.4, mode="downscale_in_infer")
layer.eval()
results["layer/eval"] = layer(x).numpy().astype("float64").ravel()[:50].tolist()
print("RESULTS" + json.dumps(results))
"""


def _run(python, env):
    result = subprocess.run([python, "-c", SCRIPT], check=True, capture_output=True, text=True,
                            env=env, cwd="/", timeout=300)
    line = [ln for ln in result.stdout.splitlines() if ln.startswith("RESULTS")][-1]
    return json.loads(line[len("RESULTS"):])


@pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")
def test_results_match_paddlepaddle():
    ours = _run(sys.executable, dict(os.environ))
    reference_env = dict(os.environ)
    reference_env.pop("PYTHONPATH", None)
    theirs = _run(REFERENCE, reference_env)
    assert sorted(ours) == sorted(theirs)
    for name, expected in theirs.items():
        if isinstance(expected, list):
            np.testing.assert_allclose(ours[name], expected, rtol=1e-6, err_msg=name)
        else:
            assert ours[name] == expected, name


REFERENCE_MODEL = r"""
import sys, numpy as np, paddle
import paddle.nn.functional as F
paddle.enable_static()
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data("x", [None, 8], "float32")
    hidden = F.dropout(paddle.static.nn.fc(x, 6), 0.3)
    out = F.dropout(hidden, 0.25, mode="downscale_in_infer")
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
paddle.static.save_inference_model(sys.argv[1], [x], [out], exe, program=main)
test = main.clone(for_test=True)
np.save(sys.argv[1] + ".out.npy", exe.run(test, feed={"x": np.load(sys.argv[2])},
                                          fetch_list=[out])[0])
"""


@pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")
def test_paddlepaddle_model_with_dropout_runs_here(tmp_path):
    prefix = str(tmp_path / "dropout")
    xv = np.random.RandomState(4).randn(7, 8).astype("float32")
    np.save(str(tmp_path / "x.npy"), xv)
    # FLAGS_enable_pir_api=0: the old-IR program (.pdmodel) with Paddle's dropout OpDescs.
    env = dict(os.environ, FLAGS_enable_pir_api="0", GLOG_minloglevel="2")
    env.pop("PYTHONPATH", None)
    result = subprocess.run([REFERENCE, "-c", REFERENCE_MODEL, prefix, str(tmp_path / "x.npy")],
                            env=env, cwd="/", capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-4000:]
    with static_mode():
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        ops = [op for op in program.global_block().ops if op.type == "dropout"]
        assert len(ops) == 2 and all(op.attr("is_test") for op in ops)
        got, = exe.run(program, feed={feeds[0]: xv}, fetch_list=fetches)
    np.testing.assert_allclose(got, np.load(prefix + ".out.npy"), rtol=1e-5, atol=1e-6)
