"""The resampling ops beyond their harness entries (op_db_resample.py): values quoted from
Paddle's documentation, the size and scale inputs Paddle's programs use (OutSize with a scale
attribute, SizeTensor, Scale), programs with Paddle's legacy op descs and a saved inference
model, gradients of the gradient ops (each is the other's backward), mode 'area', and the op-level
errors a program file can reach."""
import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
import op_db  # noqa: F401 (op_db_resample extends op_db, so op_db loads first)
from op_db_resample import _axis_matrix, np_affine_grid, np_interp_grad, np_interpolate
from static_testing import static_mode


def test_affine_grid_matches_paddle_documentation():
    # The example of paddle.nn.functional.affine_grid's documentation, with its printed output.
    theta = paddle.to_tensor([[[-0.7, -0.4, 0.3], [0.6, 0.5, 1.5]]], dtype="float32")
    grid = F.affine_grid(theta, [1, 2, 3, 3], align_corners=False)
    expected = [[[1.03333330, 0.76666665], [0.56666672, 1.16666663], [0.10000002, 1.56666672]],
                [[0.76666665, 1.09999990], [0.30000001, 1.50000000], [-0.16666666, 1.90000010]],
                [[0.50000000, 1.43333328], [0.03333333, 1.83333337], [-0.43333334, 2.23333335]]]
    np.testing.assert_allclose(grid.numpy()[0], expected, rtol=1e-6, atol=1e-6)


def test_interpolate_shapes_match_paddle_documentation():
    x = paddle.randn([2, 3, 6, 10])
    assert F.interpolate(x, size=[12, 12]).shape == [2, 3, 12, 12]
    assert F.interpolate(x, scale_factor=[2, 1]).shape == [2, 3, 12, 10]
    assert F.interpolate(x, scale_factor=[2, 1], mode="bilinear").shape == [2, 3, 12, 10]


def test_coordinate_rules():
    """Hand-worked values of Paddle's rules on a ramp 0..3."""
    x = paddle.to_tensor(np.arange(4, dtype="float64").reshape(1, 1, 4))

    def linear(size, **kwargs):
        return F.interpolate(x, size=[size], mode="linear", **kwargs).numpy().ravel()
    # align_mode 0: source (i + 0.5) * 4 / 8 - 0.5, clamped at 0 below.
    np.testing.assert_allclose(linear(8), [0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3])
    # align_mode 1: source i * 4 / 8.
    np.testing.assert_allclose(linear(8, align_mode=1), [0, 0.5, 1, 1.5, 2, 2.5, 3, 3])
    # align_corners: source i * 3 / 6.
    np.testing.assert_allclose(linear(7, align_corners=True), [0, 0.5, 1, 1.5, 2, 2.5, 3])
    # nearest truncates the source position i * 4 / 3 (1.33 -> 1, 2.67 -> 2).
    x4 = paddle.to_tensor(np.arange(4, dtype="float64").reshape(1, 1, 1, 4))
    np.testing.assert_array_equal(F.interpolate(x4, size=[1, 3]).numpy().ravel(), [0, 1, 2])


def test_scale_factor_sets_the_ratio():
    # floor(5 * 1.1) = 5 keeps the width, but (as the height changes, so that this is no copy)
    # the width's sampling ratio is 1 / 1.1, not 5 / 5: on a ramp along the width the output is
    # the source positions i / 1.1 (in float32, as Paddle computes them).
    x = paddle.to_tensor(np.tile(np.arange(5, dtype="float64"), (1, 1, 2, 1)))
    out = F.interpolate(x, scale_factor=[2, 1.1], mode="bilinear", align_mode=1)
    positions = np.float32(1 / np.float64(np.float32(1.1))) * np.arange(5, dtype=np.float32)
    assert out.shape == [1, 1, 4, 5]
    np.testing.assert_allclose(out.numpy()[0, 0], np.tile(positions, (4, 1)), rtol=1e-7)
    # recompute_scale_factor samples with in / out instead: rows repeat, the width is copied.
    same = F.interpolate(x, scale_factor=[2, 1.1], mode="bilinear", align_mode=1,
                         recompute_scale_factor=True)
    np.testing.assert_array_equal(same.numpy()[0, 0], np.tile(np.arange(5.0), (4, 1)))
    # When no size changes, Paddle copies whatever the factor.
    np.testing.assert_array_equal(F.interpolate(x, scale_factor=[1.2, 1.1]).numpy(), x.numpy())


def test_out_size_overrides_the_size_but_not_the_ratio():
    # Paddle's kernel reads a scale attribute, then lets OutSize replace the size it gives.
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 2, 4, 4))
    out = paddle._C_ops.bilinear_interp(
        paddle.to_tensor(x), paddle.to_tensor(np.array([6, 7], dtype="int32")), [], None, "NCHW",
        -1, -1, -1, [2.0, 2.0], "bilinear", False, 0)
    expected = x
    for axis, size in ((2, 6), (3, 7)):
        m = _axis_matrix("bilinear", 4, size, np.float32(2.0), False, 0)
        expected = np.moveaxis(np.tensordot(m, expected, axes=([1], [axis])), 0, axis)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-12)


def test_size_and_scale_tensors_in_a_static_program():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3, 4, 5)).astype("float32")
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            xv = paddle.static.data("x", [None, 3, 4, 5], "float32")
            h = paddle.static.data("h", [1], "int64")
            size = paddle.static.data("size", [2], "int32")
            scale = paddle.static.data("scale", [2], "float32")
            by_list = F.interpolate(xv, size=[h, 6], mode="bilinear")
            by_tensor = F.interpolate(xv, size=size, mode="nearest")
            by_scale = F.interpolate(xv, scale_factor=scale, mode="bicubic", align_corners=True)
        types = [op.type for op in main.global_block().ops]
        assert {"bilinear_interp_v2", "nearest_interp_v2", "bicubic_interp_v2"} <= set(types)
        assert by_list.shape == [-1, 3, -1, 6]
        feed = {"x": x, "h": np.array([7]), "size": np.array([3, 8], dtype="int32"),
                "scale": np.array([1.5, 0.8], dtype="float32")}
        got = paddle.static.Executor().run(main, feed=feed,
                                           fetch_list=[by_list, by_tensor, by_scale])
    x64 = x.astype(np.float64)
    expected = [np_interpolate(x64, [7, 6], mode="bilinear"),
                np_interpolate(x64, [3, 8], mode="nearest"),
                np_interpolate(x64, None, [1.5, 0.8], mode="bicubic", align_corners=True)]
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5)


def _legacy_program(op_type, inputs, attrs, x_shape):
    """A program holding one op desc as Paddle writes it, x fed."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", x_shape, "float32")
    block = main.global_block()
    out = block.create_var(name="out", dtype="float32")
    block.append_op(op_type, inputs={"X": [x], **inputs}, outputs={"Out": [out]}, attrs=attrs)
    return main, out


def test_legacy_op_descs_run():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((1, 2, 3, 4)).astype("float32")
    attrs = {"data_layout": "NCHW", "out_d": -1, "out_h": 5, "out_w": 7, "scale": [],
             "interp_method": "bilinear", "align_corners": False, "align_mode": 1,
             "op_role": 0}
    with static_mode():
        main, out = _legacy_program("bilinear_interp_v2", {}, attrs, [1, 2, 3, 4])
        got, = paddle.static.Executor().run(main, feed={"x": x}, fetch_list=[out])
    np.testing.assert_allclose(got, np_interpolate(x.astype(np.float64), [5, 7], mode="bilinear",
                                                   align_mode=1), rtol=1e-5, atol=1e-5)
    # Models from older Paddle versions hold nearest_interp_v2 with align_corners: the source
    # position is rounded, int(i * (in - 1) / (out - 1) + 0.5).
    attrs.update(interp_method="nearest", align_corners=True, out_h=3, out_w=3)
    with static_mode():
        main, out = _legacy_program("nearest_interp_v2", {}, attrs, [1, 2, 3, 4])
        got, = paddle.static.Executor().run(main, feed={"x": x}, fetch_list=[out])
    np.testing.assert_array_equal(got, x[:, :, :, [0, 2, 3]])  # 0, 1.5 -> 2, 3


def test_saved_inference_model_round_trip(tmp_path):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 3, 4, 4)).astype("float32")
    prefix = str(tmp_path / "resample")
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            xv = paddle.static.data("x", [None, 3, 4, 4], "float32")
            up = F.interpolate(xv, scale_factor=2, mode="bilinear", align_corners=True)
            theta = paddle.create_parameter([2, 2, 3], "float32", default_initializer=(
                paddle.nn.initializer.Assign(np.array([[[0.8, 0.1, 0.0], [-0.1, 0.9, 0.1]]] * 2))))
            grid = F.affine_grid(theta, [2, 3, 5, 5])
            out = F.grid_sample(up, grid, padding_mode="border")
        exe = paddle.static.Executor()
        exe.run(startup)
        expected, = exe.run(main, feed={"x": x}, fetch_list=[out])
        paddle.static.save_inference_model(prefix, [xv], [out], exe, program=main)
        program, feed_names, fetch_targets = paddle.static.load_inference_model(prefix, exe)
        types = [op.type for op in program.global_block().ops]
        assert {"bilinear_interp_v2", "affine_grid", "grid_sampler"} <= set(types)
        got, = exe.run(program, feed={feed_names[0]: x}, fetch_list=fetch_targets)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("mode,shape,size", [
    ("nearest", (1, 2, 3, 4), [5, 3]), ("bilinear", (1, 2, 3, 4), [5, 3]),
    ("bicubic", (1, 2, 4, 3), [3, 5]), ("trilinear", (1, 1, 2, 3, 2), [3, 2, 4]),
    ("linear", (2, 2, 5), [3])])
def test_gradient_of_the_gradient_is_the_forward(mode, shape, size):
    """d/d(out_grad) <x_grad(out_grad), v> = interpolate(v): the *_interp_grad op's backward."""
    rng = np.random.default_rng(4)
    x = paddle.to_tensor(rng.standard_normal(shape), stop_gradient=False)
    out = F.interpolate(x, size=size, mode=mode)
    out_grad = paddle.to_tensor(rng.standard_normal(out.shape), stop_gradient=False)
    x_grad, = paddle.grad([out], [x], grad_outputs=[out_grad], create_graph=True)
    np.testing.assert_allclose(x_grad.numpy(), np_interp_grad(mode)(
        x.numpy(), out_grad.numpy(), size, data_format="NCHW"), rtol=1e-12, atol=1e-12)
    v = rng.standard_normal(shape)
    second, = paddle.grad([(x_grad * paddle.to_tensor(v)).sum()], [out_grad])
    np.testing.assert_allclose(second.numpy(), np_interpolate(v, size, mode=mode),
                               rtol=1e-12, atol=1e-12)


def test_gradient_of_the_affine_grid_gradient_is_the_forward():
    rng = np.random.default_rng(5)
    theta = paddle.to_tensor(rng.standard_normal((2, 2, 3)), stop_gradient=False)
    grid = F.affine_grid(theta, [2, 1, 3, 4], align_corners=False)
    grid_grad = paddle.to_tensor(rng.standard_normal(grid.shape), stop_gradient=False)
    theta_grad, = paddle.grad([grid], [theta], grad_outputs=[grid_grad], create_graph=True)
    v = rng.standard_normal((2, 2, 3))
    second, = paddle.grad([(theta_grad * paddle.to_tensor(v)).sum()], [grid_grad])
    np.testing.assert_allclose(second.numpy(), np_affine_grid(v, [2, 1, 3, 4], False),
                               rtol=1e-12, atol=1e-12)


def np_adaptive_avg_pool(x, sizes, axes):
    """Each output pixel averages the input box [floor(i * in / out), ceil((i + 1) * in / out))
    along every spatial axis."""
    out_shape = list(x.shape)
    for a, s in zip(axes, sizes):
        out_shape[a] = s
    out = np.zeros(out_shape)
    for index in np.ndindex(*[out_shape[a] for a in axes]):
        box = [slice(None)] * x.ndim
        target = [slice(None)] * x.ndim
        for a, i, s in zip(axes, index, sizes):
            n = x.shape[a]
            box[a] = slice(i * n // s, -(-(i + 1) * n // s))
            target[a] = i
        out[tuple(target)] = x[tuple(box)].mean(axis=tuple(axes))
    return out


@pytest.mark.parametrize("shape,size,data_format", [
    ((2, 3, 7), [3], "NCW"), ((1, 2, 5, 7), [2, 3], "NCHW"), ((1, 5, 7, 2), [3, 4], "NHWC"),
    ((1, 2, 3, 4, 5), [2, 3, 2], "NCDHW")])
def test_area_mode_is_adaptive_average_pooling(shape, size, data_format):
    rng = np.random.default_rng(6)
    x = rng.standard_normal(shape)
    t = paddle.to_tensor(x, stop_gradient=False)
    out = F.interpolate(t, size=size, mode="area", data_format=data_format)
    axes = list(range(1, len(shape) - 1)) if data_format.endswith("C") else \
        list(range(2, len(shape)))
    np.testing.assert_allclose(out.numpy(), np_adaptive_avg_pool(x, size, axes), rtol=1e-12)
    weights = rng.standard_normal(out.shape)
    grad, = paddle.grad([(out * paddle.to_tensor(weights)).sum()], [t])
    # The gradient of a linear map: its transpose applied to the weights, here one entry at a
    # time through the NumPy pooling.
    expected = np.zeros(shape)
    for index in np.ndindex(*shape):
        unit = np.zeros(shape)
        unit[index] = 1
        expected[index] = (np_adaptive_avg_pool(unit, size, axes) * weights).sum()
    np.testing.assert_allclose(grad.numpy(), expected, rtol=1e-10, atol=1e-12)


def test_area_mode_in_a_static_program():
    x = np.random.default_rng(8).standard_normal((2, 3, 5, 7)).astype("float32")
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            out = F.interpolate(paddle.static.data("x", [None, 3, 5, 7], "float32"), size=[2, 3],
                                mode="area")
        assert out.shape == [-1, 3, 2, 3]
        got, = paddle.static.Executor().run(main, feed={"x": x}, fetch_list=[out])
    np.testing.assert_allclose(got, np_adaptive_avg_pool(x.astype(np.float64), [2, 3], [2, 3]),
                               rtol=1e-5, atol=1e-6)


def test_area_mode_errors():
    x = paddle.rand([1, 2, 4, 4])
    with pytest.raises(ValueError, match="mode 'area' needs 'size'"):
        F.interpolate(x, scale_factor=0.5, mode="area")
    with static_mode():
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            unknown = paddle.static.data("x", [1, 2, -1, 4], "float32")
            with pytest.raises(ValueError, match="needs the spatial dims of x to be known"):
                F.interpolate(unknown, size=[2, 2], mode="area")


def test_upsample_is_interpolate():
    x = paddle.rand([1, 2, 3, 4])
    np.testing.assert_array_equal(F.upsample(x, size=[5, 6], mode="bicubic").numpy(),
                                  F.interpolate(x, size=[5, 6], mode="bicubic").numpy())


def test_grid_sample_of_an_identity_grid_is_the_input():
    rng = np.random.default_rng(7)
    x = paddle.to_tensor(rng.standard_normal((2, 3, 4, 5)))
    theta = paddle.to_tensor(np.tile(np.eye(2, 3), (2, 1, 1)))
    for align_corners in (True, False):
        grid = F.affine_grid(theta, [2, 3, 4, 5], align_corners=align_corners)
        for mode in ("bilinear", "nearest"):
            out = F.grid_sample(x, grid, mode=mode, align_corners=align_corners)
            np.testing.assert_allclose(out.numpy(), x.numpy(), rtol=1e-12, atol=1e-12)


def test_grid_sample_non_finite_grid_reads_zero():
    x = paddle.to_tensor(np.ones((1, 1, 3, 3)))
    grid = paddle.to_tensor(np.array([[[[np.nan, 0.0], [np.inf, 0.0], [0.0, -np.inf]]]]))
    for padding in ("zeros", "reflection"):
        out = F.grid_sample(x, grid, padding_mode=padding)
        np.testing.assert_array_equal(out.numpy().ravel(), [0, 0, 0])
    # border clamps an infinite coordinate to the edge pixel; NaN still reads 0.
    out = F.grid_sample(x, grid, padding_mode="border")
    np.testing.assert_array_equal(out.numpy().ravel(), [0, 1, 1])


@pytest.mark.parametrize("call,match", [
    (lambda x: paddle._C_ops.bilinear_interp(x, None, [], None, "NCHW", 0, 0, 0, [], "bilinear",
                                             True, 1), "output size must be positive"),
    (lambda x: paddle._C_ops.bilinear_interp(x, None, [], None, "NCHW", 0, 3, 3, [], "cubic",
                                             True, 1), "'interp_method' must be"),
    (lambda x: paddle._C_ops.bilinear_interp(x, None, [], None, "NCHW", 0, 3, 3, [], "linear",
                                             True, 1), "resamples 3-D tensors"),
    (lambda x: paddle._C_ops.bilinear_interp(x, None, [], None, "NCHW", 0, 3, 3, [], "bilinear",
                                             False, 3), "'align_mode' must be 0 or 1"),
    (lambda x: paddle._C_ops.bilinear_interp(x, None, [], None, "NCHW", 0, 0, 0, [2.0, 1.0, 3.0],
                                             "bilinear", False, 0), "must hold 1 or 2 factors"),
    (lambda x: paddle._C_ops.bilinear_interp(x, None, [], None, "NCHW", 0, 0, 0, [0.1, 1.0],
                                             "bilinear", False, 0), "an output size of 0"),
    (lambda x: paddle._C_ops.bilinear_interp(x, paddle.to_tensor([3, 0], dtype="int32"), [],
                                             None, "NCHW", 0, 0, 0, [], "bilinear", False, 0),
     "output size must be positive"),
    (lambda x: paddle._C_ops.bilinear_interp(x, paddle.to_tensor([3.0, 2.0]), [], None, "NCHW",
                                             0, 0, 0, [], "bilinear", False, 0),
     "'out_size' must be an int32 or int64 tensor"),
    (lambda x: paddle._C_ops.bilinear_interp(x, None, [paddle.to_tensor([3])], None, "NCHW",
                                             0, 0, 0, [], "bilinear", False, 0),
     "'size_tensor' must hold 2 tensors"),
    (lambda x: paddle._C_ops.bilinear_interp(x, None, [], paddle.to_tensor([-1.0]), "NCHW",
                                             0, 0, 0, [], "bilinear", False, 0),
     "must be positive and finite"),
])
def test_op_level_errors(call, match):
    """What a program file can give the op: bad attributes and size inputs raise ValueError or
    TypeError naming the argument."""
    with pytest.raises((ValueError, TypeError), match=match):
        call(paddle.rand([1, 2, 4, 4]))
