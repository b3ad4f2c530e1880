"""The layout ops beyond their op_db_layout.py entries: F.pad's choice between the `pad` and
`pad3d` ops and its Tensor `pad`, the Python composites rot90 and unflatten, the Tensor methods,
programs with Paddle's legacy op types, slots and attributes (built by hand, saved and loaded
as an inference model, and, with PADDLE_REFERENCE_PYTHON set, saved by real PaddlePaddle)."""
import os
import subprocess

import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
import op_db  # noqa: F401  (op_db_layout extends op_db, so op_db is imported first)
from op_db_layout import np_fold, np_pad, np_pixel_unshuffle, np_unfold
from static_testing import static_mode

REFERENCE = os.environ.get("PADDLE_REFERENCE_PYTHON")


def _ops_of(fn, *shapes):
    """The op types of the static program fn builds from float32 inputs of `shapes`."""
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            fn(*[paddle.static.data(f"x{i}", s, "float32") for i, s in enumerate(shapes)])
        return [op for op in main.global_block().ops]


# ---------------------------------------------------------------- F.pad


def test_pad_chooses_pad3d_for_spatial_pads_and_pad_otherwise():
    ops = _ops_of(lambda x: F.pad(x, [1, 2, 0, 1], mode="reflect", data_format="NHWC"),
                  [2, 3, 4, 5])
    assert [op.type for op in ops] == ["unsqueeze2", "pad3d", "squeeze2"]
    pad3d = ops[1]
    assert pad3d.attr("paddings") == [1, 2, 0, 1, 0, 0]
    assert pad3d.attr("mode") == "reflect" and pad3d.attr("data_format") == "NDHWC"
    assert pad3d.input("X") and pad3d.output("Out")
    assert pad3d.attr("value") == 0.0

    ops = _ops_of(lambda x: F.pad(x, [1, 2], value=3.0), [2, 3])
    assert [op.type for op in ops] == ["pad"]
    # Paddle's pad op lists the paddings from the first axis.
    assert ops[0].attr("paddings") == [0, 0, 1, 2] and ops[0].attr("pad_value") == 3.0

    ops = _ops_of(lambda x: F.pad(x, [1, 1, 1, 1, 1, 1]), [2, 3, 4, 5, 6])
    assert [op.type for op in ops] == ["pad3d"]


@pytest.mark.parametrize("shape,pad,kwargs", [
    ((1, 2, 5), [2, 1], {"mode": "reflect"}),
    ((1, 3, 4, 2), [1, 0, 2, 1], {"mode": "circular", "data_format": "nhwc"}),
    ((1, 2, 2, 3, 4), [1, 1, 0, 2, 1, 0], {"value": 0.5}),
])
def test_pad_takes_a_tensor_pad_in_dygraph(shape, pad, kwargs):
    x = np.random.default_rng(0).standard_normal(shape)
    got = F.pad(paddle.to_tensor(x), paddle.to_tensor(pad), **kwargs).numpy()
    kwargs = dict(kwargs, data_format=kwargs.get("data_format", "").upper() or None)
    np.testing.assert_allclose(got, np_pad(x, pad, **kwargs))


def test_pad_with_an_empty_tensor_pad_copies_x():
    x = paddle.to_tensor([[1.0, 2.0]])
    out = F.pad(x, paddle.to_tensor(np.zeros(0, np.int64)))
    np.testing.assert_array_equal(out.numpy(), x.numpy())
    out[0, 0] = 5.0
    assert float(x[0, 0]) == 1.0


def test_pad_with_a_tensor_pad_in_a_static_program_says_what_to_give():
    with static_mode():
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            x = paddle.static.data("x", [1, 2, 3], "float32")
            p = paddle.static.data("p", [2], "int32")
            with pytest.raises(NotImplementedError, match="list or tuple"):
                F.pad(x, p)


def test_pad_gradient_accumulates_at_the_edges():
    # Replicate padding copies the edge element: its gradient is the sum over its copies.
    x = paddle.to_tensor(np.arange(3.0).reshape(1, 1, 3), stop_gradient=False)
    F.pad(x, [2, 1], mode="replicate").sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[[3.0, 1.0, 2.0]]])
    x.clear_grad()
    F.pad(x, [2, 2], mode="reflect").sum().backward()  # x2 x1 | x0 x1 x2 | x1 x0
    np.testing.assert_array_equal(x.grad.numpy(), [[[2.0, 3.0, 2.0]]])
    x.clear_grad()
    F.pad(x, [4, 0], mode="circular").sum().backward()  # x2 x0 x1 x2 | x0 x1 x2
    np.testing.assert_array_equal(x.grad.numpy(), [[[2.0, 2.0, 3.0]]])


def test_zeropad2d_pads_with_zeros():
    x = np.ones((1, 1, 2, 2))
    got = F.zeropad2d(paddle.to_tensor(x), [1, 0, 0, 1]).numpy()
    np.testing.assert_array_equal(got, np.pad(x, [(0, 0), (0, 0), (0, 1), (1, 0)]))


# ---------------------------------------------------------------- rot90, unflatten, methods


@pytest.mark.parametrize("k", [-3, -1, 0, 1, 2, 3, 5])
@pytest.mark.parametrize("axes", [[0, 1], [1, 0], [2, 0], [-1, -2]])
def test_rot90_matches_numpy(k, axes):
    x = np.random.default_rng(1).standard_normal((2, 3, 4))
    np.testing.assert_array_equal(paddle.rot90(paddle.to_tensor(x), k, axes).numpy(),
                                  np.rot90(x, k, axes))


def test_rot90_gradient_is_the_inverse_rotation():
    x = paddle.to_tensor(np.arange(6.0).reshape(2, 3), stop_gradient=False)
    weights = np.random.default_rng(2).standard_normal((3, 2))
    (paddle.rot90(x) * paddle.to_tensor(weights)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.rot90(weights, -1))


@pytest.mark.parametrize("kwargs,error,match", [
    ({"axes": [0]}, ValueError, "2 axes"),
    ({"axes": [1, 1]}, ValueError, "different"),
    ({"axes": [0, 3]}, IndexError, "out of range"),
])
def test_rot90_rejects_bad_axes(kwargs, error, match):
    with pytest.raises(error, match=match):
        paddle.rot90(paddle.zeros([2, 3]), **kwargs)


def test_rot90_needs_two_dimensions():
    with pytest.raises(ValueError, match="at least 2"):
        paddle.rot90(paddle.zeros([3]))


def test_unflatten_splits_a_dimension():
    x = np.arange(24.0).reshape(2, 12)
    t = paddle.to_tensor(x)
    assert paddle.unflatten(t, 1, [3, 4]).shape == [2, 3, 4]
    np.testing.assert_array_equal(paddle.unflatten(t, -1, (2, -1, 3)).numpy(),
                                  x.reshape(2, 2, 2, 3))
    np.testing.assert_array_equal(t.unflatten(0, paddle.to_tensor([1, 2])).numpy(),
                                  x.reshape(1, 2, 12))


@pytest.mark.parametrize("axis,shape,error,match", [
    (1, [5, 2], ValueError, "does not split"),
    (1, [-1, -1], ValueError, "at most one -1"),
    (1, [], ValueError, "cannot be empty"),
    (2, [3, 4], IndexError, "out of range"),
    (1, 12, TypeError, "list, tuple or Tensor"),
])
def test_unflatten_rejects_bad_arguments(axis, shape, error, match):
    with pytest.raises(error, match=match):
        paddle.unflatten(paddle.zeros([2, 12]), axis, shape)


def test_unflatten_in_a_program_with_unknown_dims():
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [None, 12, None], "float32")
            out = paddle.unflatten(x, 1, [3, -1])
            assert out.shape == [-1, 3, 4, -1]
        xv = np.random.default_rng(3).standard_normal((2, 12, 5)).astype("float32")
        got, = paddle.static.Executor().run(main, feed={"x": xv}, fetch_list=[out])
    np.testing.assert_array_equal(got, xv.reshape(2, 3, 4, 5))


def test_tensor_methods():
    x = paddle.to_tensor(np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(x.flip(0).numpy(), np.flip(x.numpy(), 0))
    np.testing.assert_array_equal(x.roll(1).numpy(), np.roll(x.numpy(), 1))
    np.testing.assert_array_equal(x.rot90().numpy(), np.rot90(x.numpy()))
    np.testing.assert_array_equal(x.tile([2]).numpy(), np.tile(x.numpy(), 2))
    np.testing.assert_array_equal(x[:1].expand_as(x).numpy(), np.repeat(x.numpy()[:1], 2, 0))
    assert x.unflatten(1, [3, 1]).shape == [2, 3, 1]


def test_sizes_given_as_tensors_in_dygraph():
    xv = np.arange(6.0).reshape(2, 3)
    x = paddle.to_tensor(xv)
    np.testing.assert_array_equal(paddle.tile(x, paddle.to_tensor([2, 1])).numpy(),
                                  np.tile(xv, (2, 1)))
    np.testing.assert_array_equal(paddle.tile(x, [paddle.to_tensor(1), 2]).numpy(),
                                  np.tile(xv, (1, 2)))
    np.testing.assert_array_equal(paddle.roll(x, paddle.to_tensor([1]), 1).numpy(),
                                  np.roll(xv, 1, 1))
    np.testing.assert_array_equal(paddle.flip(x, paddle.to_tensor([0, 1])).numpy(),
                                  np.flip(xv, (0, 1)))


def test_tile_and_expand_as_write_one_op_each():
    assert [op.type for op in _ops_of(lambda x: paddle.tile(x, [2, 1]), [-1, 3])] == ["tile"]
    ops = _ops_of(paddle.expand_as, [1, 3], [-1, 3])
    assert [op.type for op in ops] == ["expand_as_v2"]
    assert ops[0].input("Y") and ops[0].attr("target_shape") == [-1, 3]


def test_expand_as_takes_unknown_dims_from_y_when_the_program_runs():
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [1, 3], "float32")
            y = paddle.static.data("y", [None, 3], "float32")
            out = paddle.expand_as(x, y)
        xv = np.arange(3.0, dtype="float32").reshape(1, 3)
        got, = paddle.static.Executor().run(main, feed={"x": xv, "y": np.zeros((4, 3), "float32")},
                                            fetch_list=[out])
    np.testing.assert_array_equal(got, np.broadcast_to(xv, (4, 3)))


# ---------------------------------------------------------------- legacy programs


def _run_legacy_op(op_type, inputs, out_slot, attrs):
    """Runs one op appended by its legacy type, slots and attribute names (as a .pdmodel holds
    it); `inputs` maps slot names to arrays."""
    with static_mode():
        main = paddle.static.Program()
        block = main.global_block()
        feeds = {}
        for slot, array in inputs.items():
            feeds[slot] = block.create_var(name=slot.lower(), shape=list(array.shape),
                                           dtype=str(array.dtype), need_check_feed=True)
        out = block.create_var(name="out", dtype=str(next(iter(inputs.values())).dtype))
        block.append_op(op_type, inputs={slot: [v] for slot, v in feeds.items()},
                        outputs={out_slot: [out]}, attrs=attrs)
        got, = paddle.static.Executor().run(
            main, feed={v.name: inputs[slot] for slot, v in feeds.items()}, fetch_list=[out])
    return got


def test_legacy_op_descs_run():
    rng = np.random.default_rng(4)
    x4 = rng.standard_normal((1, 2, 4, 6)).astype("float32")
    x5 = x4.reshape(1, 2, 1, 4, 6)
    got = _run_legacy_op("pad3d", {"X": x5}, "Out",
                         {"paddings": [1, 2, 0, 1, 0, 0], "mode": "replicate", "value": 0.0,
                          "data_format": "NCDHW"})
    np.testing.assert_array_equal(got, np_pad(x5, [1, 2, 0, 1, 0, 0], "replicate"))
    got = _run_legacy_op("pad", {"X": x4}, "Out",
                         {"paddings": [0, 0, 1, 0, 0, 1, 2, 0], "pad_value": 1.5})
    np.testing.assert_array_equal(got, np.pad(x4, [(0, 0), (1, 0), (0, 1), (2, 0)],
                                              constant_values=1.5))
    got = _run_legacy_op("flip", {"X": x4}, "Out", {"axis": [1, 3]})
    np.testing.assert_array_equal(got, np.flip(x4, (1, 3)))
    got = _run_legacy_op("roll", {"X": x4}, "Out", {"shifts": [1, -2], "axis": [2, 3]})
    np.testing.assert_array_equal(got, np.roll(x4, (1, -2), (2, 3)))
    got = _run_legacy_op("tile", {"X": x4}, "Out", {"repeat_times": [2, 1, 1, 1]})
    np.testing.assert_array_equal(got, np.tile(x4, (2, 1, 1, 1)))
    got = _run_legacy_op("expand_as_v2", {"X": x4[:, :1], "Y": x4}, "Out",
                         {"target_shape": [1, 2, 4, 6]})
    np.testing.assert_array_equal(got, np.broadcast_to(x4[:, :1], x4.shape))
    got = _run_legacy_op("pixel_unshuffle", {"X": x4}, "Out",
                         {"downscale_factor": 2, "data_format": "NCHW"})
    np.testing.assert_array_equal(got, np_pixel_unshuffle(x4, 2))
    x4c = rng.standard_normal((1, 4, 2, 3)).astype("float32")
    got = _run_legacy_op("channel_shuffle", {"X": x4c}, "Out", {"groups": 2, "data_format": "NCHW"})
    np.testing.assert_array_equal(got, x4c[:, [0, 2, 1, 3]])
    block_attrs = {"kernel_sizes": [2, 3], "strides": [1, 2], "paddings": [1, 0, 0, 1],
                   "dilations": [1, 1]}
    cols = _run_legacy_op("unfold", {"X": x4}, "Y", block_attrs)
    np.testing.assert_allclose(cols, np_unfold(x4, [2, 3], [1, 2], [1, 0, 0, 1]), rtol=1e-6)
    got = _run_legacy_op("fold", {"X": cols}, "Y", dict(block_attrs, output_sizes=[4, 6]))
    np.testing.assert_allclose(got, np_fold(cols, [4, 6], [2, 3], [1, 2], [1, 0, 0, 1]),
                               rtol=1e-5)


def _layout_model(x):
    y = F.pad(x, [1, 1, 2, 0], mode="reflect")
    y = paddle.flip(paddle.roll(y, [1], [3]), [2])
    y = F.pixel_unshuffle(paddle.tile(y, [1, 1, 1, 2]), 2)
    y = F.channel_shuffle(y, 4)
    cols = F.unfold(y, 2, paddings=1)
    y = F.fold(cols, [y.shape[2], y.shape[3]], 2, paddings=1)
    return F.pad(y, [1, 0, 0, 1, 0, 0, 0, 0], value=-1.0)


@pytest.mark.filterwarnings("ignore:no variable in your model")  # the model has no parameters
def test_inference_model_with_layout_ops_round_trips(tmp_path):
    prefix = str(tmp_path / "layout")
    xv = np.random.default_rng(5).standard_normal((2, 2, 4, 3)).astype("float32")
    expected = _layout_model(paddle.to_tensor(xv)).numpy()
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 2, 4, 3], "float32")
            out = _layout_model(x)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        types = {op.type for op in program.global_block().ops}
        assert {"pad3d", "pad", "flip", "roll", "tile", "pixel_unshuffle", "channel_shuffle",
                "unfold", "fold"} <= types, types
        got, = exe.run(program, feed={feeds[0]: xv}, fetch_list=fetches)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


# Builds _layout_model's program with real PaddlePaddle (old IR) and saves it with its output.
REFERENCE_MODEL = r"""
import sys, numpy as np, paddle
import paddle.nn.functional as F
paddle.enable_static()
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data("x", [None, 2, 4, 3], "float32")
    y = F.pad(x, [1, 1, 2, 0], mode="reflect")
    y = paddle.flip(paddle.roll(y, [1], [3]), [2])
    y = F.pixel_unshuffle(paddle.tile(y, [1, 1, 1, 2]), 2)
    y = F.channel_shuffle(y, 4)
    cols = F.unfold(y, 2, paddings=1)
    y = F.fold(cols, [3, 5], 2, paddings=1)
    out = F.pad(y, [1, 0, 0, 1, 0, 0, 0, 0], value=-1.0)
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
paddle.static.save_inference_model(sys.argv[1], [x], [out], exe, program=main)
np.save(sys.argv[1] + ".out.npy", exe.run(main, feed={"x": np.load(sys.argv[2])},
                                          fetch_list=[out])[0])
"""


@pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")
def test_paddlepaddle_model_with_layout_ops_runs_here(tmp_path):
    prefix = str(tmp_path / "layout")
    xv = np.random.default_rng(6).standard_normal((2, 2, 4, 3)).astype("float32")
    np.save(str(tmp_path / "x.npy"), xv)
    env = dict(os.environ, FLAGS_enable_pir_api="0", GLOG_minloglevel="2")
    env.pop("PYTHONPATH", None)
    result = subprocess.run([REFERENCE, "-c", REFERENCE_MODEL, prefix, str(tmp_path / "x.npy")],
                            env=env, cwd="/", capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-4000:]
    with static_mode():
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        got, = exe.run(program, feed={feeds[0]: xv}, fetch_list=fetches)
    np.testing.assert_allclose(got, np.load(prefix + ".out.npy"), rtol=1e-5, atol=1e-6)
