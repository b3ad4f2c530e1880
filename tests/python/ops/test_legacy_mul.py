"""Paddle's legacy `mul` op (what paddle.static.nn.fc writes) in static programs: hand-built
programs, shape inference with unknown batch dims, training through `mul_grad`, and (with
PADDLE_REFERENCE_PYTHON set) models saved by real PaddlePaddle with paddle.static.nn.fc.
The op itself (values, gradients, errors) is covered by its op_db.py entry."""

import numpy as np
import pytest

import paddle
from paddle.base import libpaddle
from static_testing import static_mode
from paddle_reference import REFERENCE, run_reference


def np_mul(x, y, x_num_col_dims=1, y_num_col_dims=1):
    x2 = x.reshape(int(np.prod(x.shape[:x_num_col_dims])), -1)
    y2 = y.reshape(int(np.prod(y.shape[:y_num_col_dims])), -1)
    return (x2 @ y2).reshape(x.shape[:x_num_col_dims] + y.shape[y_num_col_dims:])


def set_scope_array(name, array):
    """Puts `array` into the current scope as `name`; the tensor is made in dygraph mode."""
    paddle.disable_static()
    try:
        tensor = paddle.to_tensor(array)
    finally:
        paddle.enable_static()
    libpaddle._set_scope_tensor(paddle.static.global_scope().var(name), tensor)


@pytest.mark.parametrize("x_shape,w_shape,x_num_col_dims,y_num_col_dims", [
    ([None, 6], [6, 4], 1, 1),         # fc on 2-D input
    ([None, 3, 4], [4, 5], 2, 1),      # fc with num_flatten_dims=2
    ([None, 3, 4], [12, 5], 1, 1),     # x flattened past the batch dim
    ([None, 6], [3, 2, 4], 1, 2),      # y flattened
])
def test_hand_built_program_matches_numpy(x_shape, w_shape, x_num_col_dims, y_num_col_dims):
    rng = np.random.RandomState(0)
    xv = rng.randn(*([5] + x_shape[1:])).astype("float32")
    wv = rng.randn(*w_shape).astype("float32")
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", x_shape, "float32")
        block = main.global_block()
        w = block.create_var(name="w", shape=w_shape, dtype="float32", persistable=True)
        out = block.create_var(name="out", dtype="float32")
        block.append_op("mul", inputs={"X": [x], "Y": [w]}, outputs={"Out": [out]},
                        attrs={"x_num_col_dims": x_num_col_dims, "y_num_col_dims": y_num_col_dims})
        set_scope_array("w", wv)
        got, = paddle.static.Executor().run(main, feed={"x": xv}, fetch_list=[out])
    expected = np_mul(xv, wv, x_num_col_dims, y_num_col_dims)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_attributes_default_to_one():
    rng = np.random.RandomState(1)
    xv, wv = rng.randn(2, 3, 4).astype("float32"), rng.randn(12, 2).astype("float32")
    with static_mode():
        main = paddle.static.Program()
        block = main.global_block()
        x = block.create_var(name="x", shape=[2, 3, 4], dtype="float32", need_check_feed=True)
        w = block.create_var(name="w", shape=[12, 2], dtype="float32", persistable=True)
        out = block.create_var(name="out", dtype="float32")
        block.append_op("mul", inputs={"X": [x], "Y": [w]}, outputs={"Out": [out]})
        set_scope_array("w", wv)
        got, = paddle.static.Executor().run(main, feed={"x": xv}, fetch_list=[out])
    np.testing.assert_allclose(got, np_mul(xv, wv), rtol=1e-5, atol=1e-5)


def test_shape_inference_keeps_unknown_dims():
    with static_mode():
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            x = paddle.static.data("x", [None, 784], "float32")
            w = paddle.static.data("w", [784, 10], "float32")
            assert paddle._C_ops.mul(x, w, 1, 1).shape == [-1, 10]
            x3 = paddle.static.data("x3", [None, 3, 4], "float32")
            assert paddle._C_ops.mul(x3, paddle.static.data("w3", [4, 5]), 2, 1).shape == [-1, 3, 5]
            assert paddle._C_ops.mul(x3, paddle.static.data("w12", [12, 5]), 1, 1).shape == [-1, 5]
            # The inner size depends on the unknown dim: checked when the program runs.
            xt = paddle.static.data("xt", [3, None], "float32")
            assert paddle._C_ops.mul(xt, paddle.static.data("w6", [6, 2]), 1, 1).shape == [3, 2]
            with pytest.raises(ValueError, match="mul: argument 'y'"):
                paddle._C_ops.mul(x3, w, 1, 1)
            with pytest.raises(ValueError, match="mul: argument 'x_num_col_dims'"):
                paddle._C_ops.mul(x, w, 2, 1)


def test_bad_shapes_in_a_hand_built_program_raise_when_run():
    with static_mode():
        main = paddle.static.Program()
        block = main.global_block()
        x = block.create_var(name="x", shape=[-1, 4], dtype="float32", need_check_feed=True)
        w = block.create_var(name="w", shape=[5, 2], dtype="float32", persistable=True)
        out = block.create_var(name="out", dtype="float32")
        block.append_op("mul", inputs={"X": [x], "Y": [w]}, outputs={"Out": [out]},
                        attrs={"x_num_col_dims": 1, "y_num_col_dims": 1})
        set_scope_array("w", np.zeros((5, 2), "float32"))
        with pytest.raises(ValueError, match="mul"):
            paddle.static.Executor().run(main, feed={"x": np.zeros((3, 4), "float32")},
                                         fetch_list=[out])


def test_static_program_with_mul_trains():
    """The static backward appends mul_grad ops; SGD steps match NumPy's."""
    rng = np.random.RandomState(2)
    xv = rng.randn(6, 2, 3).astype("float64")
    yv = rng.randn(6, 2, 4).astype("float64")
    w0 = rng.randn(3, 4).astype("float64")
    lr = 0.125  # exact in float32, the learning rate variable's dtype
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 2, 3], "float64")
            y = paddle.static.data("y", [None, 2, 4], "float64")
            w = paddle.static.create_parameter([3, 4], "float64", name="w")
            out = paddle._C_ops.mul(x, w, 2, 1)
            loss = paddle.mean((out - y) * (out - y))
            paddle.optimizer.SGD(lr).minimize(loss)
        types = [op.type for op in main.global_block().ops]
        assert "mul" in types and "mul_grad" in types
        exe = paddle.static.Executor()
        exe.run(startup)
        set_scope_array("w", w0)
        w_np = w0.copy()
        for _ in range(3):
            got, = exe.run(main, feed={"x": xv, "y": yv}, fetch_list=[loss])
            diff = np_mul(xv, w_np, 2) - yv
            np.testing.assert_allclose(got, np.mean(diff * diff), rtol=1e-10)
            grad = xv.reshape(-1, 3).T @ (2 * diff.reshape(-1, 4) / diff.size)
            w_np = w_np - lr * grad
        w_now = paddle.static.global_scope().find_var("w").get_tensor().numpy()
    np.testing.assert_allclose(w_now, w_np, rtol=1e-10)


def test_gradients_of_both_inputs():
    rng = np.random.RandomState(3)
    xv, wv = rng.randn(4, 6), rng.randn(3, 2, 5)
    gv = rng.randn(4, 5)
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [None, 6], "float64")
            w = paddle.static.data("w", [3, 2, 5], "float64")
            seed = paddle.static.data("seed", [None, 5], "float64")
            x.stop_gradient = w.stop_gradient = False
            out = paddle._C_ops.mul(x, w, 1, 2)
            gx, gw = paddle.static.gradients([out], [x, w], target_gradients=[seed])
        got = paddle.static.Executor().run(main, feed={"x": xv, "w": wv, "seed": gv},
                                           fetch_list=[gx, gw])
    np.testing.assert_allclose(got[0], gv @ wv.reshape(6, 5).T, rtol=1e-10)
    np.testing.assert_allclose(got[1], (xv.T @ gv).reshape(3, 2, 5), rtol=1e-10)


# ---- against real PaddlePaddle ----------------------------------------------------------------

REFERENCE_FC = r"""
import sys, numpy as np, paddle
paddle.enable_static()
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data("x", [None, 3, 4], "float32")
    hidden = paddle.static.nn.fc(x, 6, num_flatten_dims=2, activation="relu")
    out = paddle.static.nn.fc(hidden, 5, activation="softmax")
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
paddle.static.save_inference_model(sys.argv[1], [x], [out], exe, program=main)
np.save(sys.argv[1] + ".out.npy", exe.run(main, feed={"x": np.load(sys.argv[2])},
                                          fetch_list=[out])[0])
"""


@pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")
def test_paddlepaddle_fc_model_runs_here(tmp_path):
    prefix = str(tmp_path / "fc")
    xv = np.random.RandomState(4).randn(7, 3, 4).astype("float32")
    np.save(str(tmp_path / "x.npy"), xv)
    run_reference(REFERENCE_FC, prefix, str(tmp_path / "x.npy"))
    with static_mode():
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        types = [op.type for op in program.global_block().ops]
        assert types.count("mul") == 2, types
        got, = exe.run(program, feed={feeds[0]: xv}, fetch_list=fetches)
    np.testing.assert_allclose(got, np.load(prefix + ".out.npy"), rtol=1e-5, atol=1e-6)


REFERENCE_FC_TRAINING = r"""
import sys, numpy as np, paddle
paddle.enable_static()
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data("x", [None, 3, 4], "float32")
    y = paddle.static.data("y", [None, 3, 2], "float32")
    out = paddle.static.nn.fc(x, 2, num_flatten_dims=2)
    loss = paddle.mean(paddle.square(out - y))
    paddle.optimizer.SGD(0.5).minimize(loss)
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
scope = paddle.static.global_scope()
params = {v.name: np.array(scope.find_var(v.name).get_tensor())
          for v in main.list_vars() if v.persistable}
np.savez(sys.argv[1] + ".params.npz", **params)
open(sys.argv[1] + ".program", "wb").write(main.desc.serialize_to_string())
feed = {"x": np.load(sys.argv[2]), "y": np.load(sys.argv[3])}
np.save(sys.argv[1] + ".losses.npy",
        np.array([exe.run(main, feed=feed, fetch_list=[loss])[0] for _ in range(3)]))
"""


@pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")
def test_paddlepaddle_fc_training_program_runs_here(tmp_path):
    """PaddlePaddle's own mul_grad ops (which list X, Y and Out@GRAD, not Out) train here as
    they do there."""
    prefix = str(tmp_path / "train")
    rng = np.random.RandomState(5)
    xv, yv = rng.randn(5, 3, 4).astype("float32"), rng.randn(5, 3, 2).astype("float32")
    np.save(str(tmp_path / "x.npy"), xv)
    np.save(str(tmp_path / "y.npy"), yv)
    run_reference(REFERENCE_FC_TRAINING, prefix, str(tmp_path / "x.npy"), str(tmp_path / "y.npy"))
    params = np.load(prefix + ".params.npz")
    with static_mode():
        program = paddle.static.deserialize_program(open(prefix + ".program", "rb").read())
        types = [op.type for op in program.global_block().ops]
        assert "mul" in types and "mul_grad" in types, types
        for name in params.files:
            set_scope_array(name, params[name])
        loss = [op for op in program.global_block().ops if op.type == "reduce_mean"][0].output("Out")[0]
        exe = paddle.static.Executor()
        losses = [exe.run(program, feed={"x": xv, "y": yv}, fetch_list=[loss])[0]
                  for _ in range(3)]
    np.testing.assert_allclose(np.array(losses), np.load(prefix + ".losses.npy"), rtol=1e-5)
