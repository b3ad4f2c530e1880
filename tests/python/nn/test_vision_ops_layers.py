"""The layers of paddle.vision.ops (RoIAlign, RoIPool, PSRoIPool, DeformConv2D): Paddle's
constructor arguments, defaults, parameter names, shapes and initialisation, agreement with the
functional forms and the NumPy references; static programs holding Paddle's legacy op types,
slots and attributes (roi_align, roi_pool, psroi_pool, deformable_conv, deformable_conv_v1 and
their gradients), saved and loaded as inference models and written by hand as a PaddlePaddle
program file holds them; and a deformable convolution that learns."""
import numpy as np
import pytest

import paddle
from roi_reference import np_deform_conv2d, np_psroi_pool, np_roi_align, np_roi_pool
from static_testing import static_mode

ops = paddle.vision.ops


def tensor(array, dtype="float32", stop_gradient=True):
    t = paddle.to_tensor(np.asarray(array), dtype=dtype)
    t.stop_gradient = stop_gradient
    return t


def roi_inputs(channels=8, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((2, channels, 10, 12)).astype("float32")
    boxes = np.array([[1.0, 1.5, 7.25, 8.0], [0.5, 2.0, 9.75, 6.5], [3.0, 0.25, 11.5, 9.5]],
                     "float32")
    return x, boxes, np.array([1, 2], "int32")


def test_vision_ops_exports_the_functions_and_layers():
    for name in ["roi_align", "RoIAlign", "roi_pool", "RoIPool", "psroi_pool", "PSRoIPool",
                 "deform_conv2d", "DeformConv2D"]:
        assert getattr(ops, name).__module__ == "paddle.vision.roi"


@pytest.mark.parametrize("layer, functional, reference", [
    (lambda: ops.RoIAlign((3, 2), 0.5), lambda x, b, n: ops.roi_align(x, b, n, (3, 2), 0.5),
     lambda x, b, n: np_roi_align(x, b, n, (3, 2), 0.5)),
    (lambda: ops.RoIPool(2, 0.5), lambda x, b, n: ops.roi_pool(x, b, n, 2, 0.5),
     lambda x, b, n: np_roi_pool(x, b, n, 2, 0.5)),
    (lambda: ops.PSRoIPool(2, 0.5), lambda x, b, n: ops.psroi_pool(x, b, n, 2, 0.5),
     lambda x, b, n: np_psroi_pool(x, b, n, 2, 0.5)),
], ids=["RoIAlign", "RoIPool", "PSRoIPool"])
def test_roi_layers_equal_their_functions(layer, functional, reference):
    x, boxes, boxes_num = roi_inputs()
    pool = layer()
    assert list(pool.parameters()) == []
    args = (tensor(x), tensor(boxes), paddle.to_tensor(boxes_num))
    got = pool(*args).numpy()
    np.testing.assert_array_equal(got, functional(*args).numpy())
    np.testing.assert_allclose(got, reference(x, boxes, boxes_num), rtol=1e-5, atol=1e-5)


def test_roi_layer_defaults_and_reprs():
    align = ops.RoIAlign(7)
    assert align._output_size == 7 and align._spatial_scale == 1.0
    assert repr(align) == "RoIAlign(output_size=7, spatial_scale=1.0)"
    assert repr(ops.RoIPool((4, 3), 0.25)) == "RoIPool(output_size=(4, 3), spatial_scale=0.25)"
    psroi = ops.PSRoIPool(7)
    assert psroi.output_size == 7 and psroi.spatial_scale == 1.0


def test_roi_align_layer_takes_aligned_in_forward():
    x, boxes, boxes_num = roi_inputs()
    args = (tensor(x), tensor(boxes), paddle.to_tensor(boxes_num))
    align = ops.RoIAlign(2)
    np.testing.assert_allclose(align(*args, aligned=False).numpy(),
                               np_roi_align(x, boxes, boxes_num, 2, aligned=False),
                               rtol=1e-5, atol=1e-5)
    # Paddle's functional default is aligned=True; the op's attribute defaults to false.
    np.testing.assert_array_equal(align(*args).numpy(),
                                  paddle._C_ops.roi_align(*args, 2, 2, 1.0, -1, True).numpy())


def test_psroi_pool_output_channels_come_from_x():
    x, boxes, boxes_num = roi_inputs(channels=18)
    out = ops.psroi_pool(tensor(x), tensor(boxes), paddle.to_tensor(boxes_num), (3, 3))
    assert out.shape == [3, 2, 3, 3]
    with pytest.raises(ValueError, match="divisible by output_size"):
        ops.psroi_pool(tensor(x), tensor(boxes), paddle.to_tensor(boxes_num), 2)


# ---------------------------------------------------------------- DeformConv2D

def test_deform_conv_parameters():
    conv = ops.DeformConv2D(4, 6, (3, 2), groups=2)
    assert list(conv.state_dict()) == ["weight", "bias"]
    assert conv.weight.shape == [6, 2, 3, 2] and conv.bias.shape == [6]
    np.testing.assert_array_equal(conv.bias.numpy(), 0)
    assert ops.DeformConv2D(2, 3, 3, bias_attr=False).bias is None
    assert repr(ops.DeformConv2D(4, 8, 3, padding=1, deformable_groups=2)) == (
        "DeformConv2D(4, 8, kernel_size=[3, 3], padding=[1, 1], deformable_groups=2)")


def test_deform_conv_weight_starts_normal_with_kaiming_std():
    paddle.seed(0)
    conv = ops.DeformConv2D(32, 64, 3)
    std = np.sqrt(2.0 / (9 * 32))
    values = conv.weight.numpy()
    assert abs(values.mean()) < 0.05 * std
    assert abs(values.std() / std - 1) < 0.03


def test_deform_conv_constructor_errors_name_the_argument():
    with pytest.raises(ValueError, match="divisible by groups"):
        ops.DeformConv2D(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="kernel_size"):
        ops.DeformConv2D(3, 4, [3, 3, 3])
    with pytest.raises(ValueError, match="weight_attr"):
        ops.DeformConv2D(3, 4, 3, weight_attr=False)


@pytest.mark.parametrize("with_mask", [False, True], ids=["v1", "v2"])
def test_deform_conv_layer_equals_functional_and_numpy(with_mask):
    rng = np.random.default_rng(1)
    conv = ops.DeformConv2D(4, 6, 3, stride=2, padding=1, dilation=1, deformable_groups=2,
                            groups=2)
    conv.bias.set_value(rng.standard_normal(6).astype("float32"))
    x = rng.standard_normal((2, 4, 7, 6)).astype("float32")
    offset = rng.uniform(-2, 2, (2, 2 * 2 * 9, 4, 3)).astype("float32")
    mask = rng.uniform(0, 1, (2, 2 * 9, 4, 3)).astype("float32") if with_mask else None
    mask_t = tensor(mask) if with_mask else None
    got = conv(tensor(x), tensor(offset), mask_t).numpy()
    functional = ops.deform_conv2d(tensor(x), tensor(offset), conv.weight, conv.bias, stride=2,
                                   padding=1, deformable_groups=2, groups=2, mask=mask_t)
    np.testing.assert_array_equal(got, functional.numpy())
    expected = np_deform_conv2d(x, offset, conv.weight.numpy(), conv.bias.numpy(), 2, 1, 1, 2, 2,
                                mask)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)


def test_deform_conv_with_zero_offsets_and_unit_mask_is_a_convolution():
    rng = np.random.default_rng(2)
    x = tensor(rng.standard_normal((2, 4, 6, 6)))
    w = tensor(rng.standard_normal((6, 2, 3, 3)))
    offset = tensor(np.zeros((2, 18, 6, 6)))
    mask = tensor(np.ones((2, 9, 6, 6)))
    expected = paddle.nn.functional.conv2d(x, w, padding=1, groups=2).numpy()
    for m in (None, mask):
        got = ops.deform_conv2d(x, offset, w, padding=1, groups=2, mask=m).numpy()
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_deform_conv_learns_a_shift():
    """Offsets are learned with the filter: a 1x1 deformable convolution learns to read x one
    pixel to the right (target: x shifted left by one column)."""
    paddle.seed(0)
    rng = np.random.default_rng(3)
    x = tensor(rng.standard_normal((4, 1, 8, 8)))
    target = paddle.concat([x[:, :, :, 1:], paddle.zeros([4, 1, 8, 1])], axis=3)
    conv = ops.DeformConv2D(1, 1, 1, bias_attr=False)
    conv.weight.set_value(np.ones((1, 1, 1, 1), "float32"))
    offset = paddle.create_parameter([1, 2, 1, 1], "float32",
                                     default_initializer=paddle.nn.initializer.Constant(0.3))
    opt = paddle.optimizer.Adam(0.05, parameters=conv.parameters() + [offset])
    for _ in range(80):
        loss = ((conv(x, offset.expand([4, 2, 8, 8])) - target) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
    assert float(loss) < 1e-3
    np.testing.assert_allclose(offset.numpy().reshape(-1), [0, 1], atol=0.05)


# ---------------------------------------------------------------- static programs

def _ops_of(program, op_type):
    return [op for op in program.global_block().ops if op.type == op_type]


def test_static_program_trains_and_serves_roi_and_deformable_ops(tmp_path):
    """A program with DeformConv2D (v2), RoIAlign, RoIPool and PSRoIPool, its gradient ops and
    Adam; the inference model it saves holds Paddle's op types, slots and attributes."""
    rng = np.random.default_rng(4)
    xs = rng.standard_normal((2, 4, 8, 8)).astype("float32")
    offsets = rng.uniform(-1, 1, (2, 18, 8, 8)).astype("float32")
    masks = rng.uniform(0, 1, (2, 9, 8, 8)).astype("float32")
    boxes = np.array([[0.5, 1.0, 6.5, 7.0], [2.0, 0.5, 7.5, 5.5], [1.0, 1.0, 4.0, 7.5]],
                     "float32")
    counts = np.array([1, 2], "int32")
    feed = {"x": xs, "offset": offsets, "mask": masks, "boxes": boxes, "boxes_num": counts}
    prefix = str(tmp_path / "roi")
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 4, 8, 8], "float32")
            offset = paddle.static.data("offset", [None, 18, 8, 8], "float32")
            mask = paddle.static.data("mask", [None, 9, 8, 8], "float32")
            b = paddle.static.data("boxes", [None, 4], "float32")
            n = paddle.static.data("boxes_num", [None], "int32")
            features = ops.DeformConv2D(4, 8, 3, padding=1)(x, offset, mask)
            aligned = ops.RoIAlign(2, 1.0)(features, b, n)
            pooled = ops.RoIPool(2, 1.0)(features, b, n)
            positioned = ops.PSRoIPool(2, 1.0)(features, b, n)
            out = paddle.concat([aligned, pooled, positioned.tile([1, 4, 1, 1])], axis=1)
            loss = (out ** 2).mean()
            paddle.optimizer.Adam(0.01).minimize(loss)
        exe = paddle.static.Executor()
        exe.run(startup)
        losses = [float(exe.run(main, feed=feed, fetch_list=[loss])[0]) for _ in range(10)]
        assert losses[-1] < losses[0]
        types = [op.type for op in main.global_block().ops]
        for t in ["deformable_conv", "roi_align", "roi_pool", "psroi_pool", "deformable_conv_grad",
                  "roi_align_grad", "roi_pool_grad", "psroi_pool_grad"]:
            assert t in types, t
        expected, = exe.run(main.clone(for_test=True), feed=feed, fetch_list=[out])
        paddle.static.save_inference_model(prefix, [x, offset, mask, b, n], [out], exe,
                                           program=main)
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
            align, = _ops_of(program, "roi_align")
            assert align.input("X") and align.input("ROIs") and align.input("RoisNum")
            assert align.output("Out")
            names = ["pooled_height", "pooled_width", "sampling_ratio", "aligned"]
            assert [align.attr(a) for a in names] == [2, 2, -1, True]
            assert align.attr("spatial_scale") == 1.0
            pool, = _ops_of(program, "roi_pool")
            assert pool.output("Out") and pool.output("Argmax")
            psroi, = _ops_of(program, "psroi_pool")
            assert psroi.attr("output_channels") == 2
            deform, = _ops_of(program, "deformable_conv")
            for slot in ["Input", "Offset", "Filter", "Mask"]:
                assert deform.input(slot), slot
            assert deform.attr("strides") == [1, 1] and deform.attr("paddings") == [1, 1]
            assert deform.attr("deformable_groups") == 1 and deform.attr("im2col_step") == 1
            got, = exe.run(program, feed={name: feed[name] for name in feeds},
                           fetch_list=fetches)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)


def test_deform_conv_without_mask_writes_deformable_conv_v1():
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [1, 2, 5, 5], "float32")
            offset = paddle.static.data("offset", [1, 8, 4, 4], "float32")
            w = paddle.static.data("w", [3, 2, 2, 2], "float32")
            ops.deform_conv2d(x, offset, w)
        v1, = _ops_of(main, "deformable_conv_v1")
        assert v1.input("Input") and v1.input("Offset") and v1.input("Filter")
        assert "Mask" not in v1.input_names
        assert not _ops_of(main, "deformable_conv")


def test_programs_written_as_paddlepaddle_writes_them_run():
    """Ops appended with Paddle's op types, slots and attribute names, as a .pdmodel holds them
    (roi_align without RoisNum for a single image, deformable_conv_v1, psroi_pool, roi_pool)."""
    rng = np.random.default_rng(5)
    xs = rng.standard_normal((1, 8, 6, 6)).astype("float32")
    boxes = np.array([[0.5, 0.5, 4.5, 5.0], [1.0, 2.0, 5.5, 5.5]], "float32")
    offsets = rng.uniform(-1, 1, (1, 8, 5, 5)).astype("float32")
    weights = rng.standard_normal((4, 8, 2, 2)).astype("float32")
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            block = main.global_block()
            x = paddle.static.data("x", [1, 8, 6, 6], "float32")
            rois = paddle.static.data("rois", [2, 4], "float32")
            offset = paddle.static.data("offset", [1, 8, 5, 5], "float32")
            w = paddle.static.data("w", [4, 8, 2, 2], "float32")

            def var(name, dtype="float32"):
                return block.create_var(name=name, shape=[-1], dtype=dtype)
            outs = {name: var(name) for name in ["align", "pool", "psroi", "deform"]}
            argmax = var("argmax", "int64")
            block.append_op("roi_align", inputs={"X": [x], "ROIs": [rois]},
                            outputs={"Out": [outs["align"]]},
                            attrs={"pooled_height": 2, "pooled_width": 3, "spatial_scale": 1.0,
                                   "sampling_ratio": 2, "aligned": False})
            block.append_op("roi_pool", inputs={"X": [x], "ROIs": [rois]},
                            outputs={"Out": [outs["pool"]], "Argmax": [argmax]},
                            attrs={"pooled_height": 2, "pooled_width": 2, "spatial_scale": 1.0})
            block.append_op("psroi_pool", inputs={"X": [x], "ROIs": [rois]},
                            outputs={"Out": [outs["psroi"]]},
                            attrs={"output_channels": 2, "spatial_scale": 1.0,
                                   "pooled_height": 2, "pooled_width": 2})
            block.append_op("deformable_conv_v1",
                            inputs={"Input": [x], "Offset": [offset], "Filter": [w]},
                            outputs={"Output": [outs["deform"]]},
                            attrs={"strides": [1, 1], "paddings": [0, 0], "dilations": [1, 1],
                                   "groups": 1, "deformable_groups": 1, "im2col_step": 64})
        got = paddle.static.Executor().run(
            main, feed={"x": xs, "rois": boxes, "offset": offsets, "w": weights},
            fetch_list=[outs[k] for k in ["align", "pool", "psroi", "deform"]])
    np.testing.assert_allclose(got[0], np_roi_align(xs, boxes, None, (2, 3), 1.0, 2, False),
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got[1], np_roi_pool(xs, boxes, None, 2), rtol=1e-6)
    np.testing.assert_allclose(got[2], np_psroi_pool(xs, boxes, None, 2), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[3], np_deform_conv2d(xs, offsets, weights), rtol=1e-4,
                               atol=1e-4)
