"""The RoI pooling ops and the deformable convolution beyond the harness's samples: second-order
gradients of roi_align and psroi_pool (their gradient ops' own gradients), inputs large enough
for the kernels' parallel paths against the NumPy references (roi_reference.py), boxes that are
not finite or absurdly large, and a gradient program holding a bad arg_max."""
import numpy as np
import pytest

import paddle
from op_db import program_op
from roi_reference import (np_deform_conv2d, np_deformable_conv_grad, np_psroi_pool,
                           np_psroi_pool_grad, np_roi_align, np_roi_align_grad, np_roi_pool,
                           np_roi_pool_grad, np_roi_pool_op)

ops = paddle.vision.ops


def tensor(array, dtype="float64", stop_gradient=True):
    t = paddle.to_tensor(np.asarray(array), dtype=dtype)
    t.stop_gradient = stop_gradient
    return t


def random_boxes(rng, count, height, width):
    x1, y1 = rng.uniform(-2, width - 2, count), rng.uniform(-2, height - 2, count)
    x2 = x1 + rng.uniform(1, width, count)
    y2 = y1 + rng.uniform(1, height, count)
    return np.stack([x1, y1, x2, y2], axis=1)


@pytest.mark.parametrize("pool", [
    lambda x, b, n: ops.roi_align(x, b, n, (3, 2), spatial_scale=0.5, sampling_ratio=2),
    lambda x, b, n: ops.psroi_pool(x, b, n, 2, spatial_scale=0.5),
], ids=["roi_align", "psroi_pool"])
def test_second_order_gradient_is_the_forward_op(pool):
    """d/dx <d(loss)/dx, v> for loss = sum(w * pool(x)^2), against central differences of the
    first-order gradient (which is linear in x, so the differences are exact)."""
    rng = np.random.default_rng(0)
    x0 = rng.standard_normal((2, 8, 6, 7))
    boxes = tensor(random_boxes(rng, 3, 12, 14))
    boxes_num = paddle.to_tensor(np.array([1, 2], "int32"))
    w = rng.standard_normal(pool(tensor(x0), boxes, boxes_num).shape)
    v = rng.standard_normal(x0.shape)

    def first_order(x_values, create_graph=False):
        x = tensor(x_values, stop_gradient=False)
        loss = (tensor(w) * pool(x, boxes, boxes_num) ** 2).sum()
        return x, paddle.grad([loss], [x], create_graph=create_graph)[0]

    x, g = first_order(x0, create_graph=True)
    second = paddle.grad([(g * tensor(v)).sum()], [x])[0].numpy()
    numeric = np.zeros(x0.size)
    for i in rng.choice(x0.size, 40, replace=False):
        step = np.zeros(x0.size)
        step[i] = 1e-3
        plus = (first_order(x0 + step.reshape(x0.shape))[1].numpy() * v).sum()
        minus = (first_order(x0 - step.reshape(x0.shape))[1].numpy() * v).sum()
        numeric[i] = (plus - minus) / 2e-3
        np.testing.assert_allclose(second.reshape(-1)[i], numeric[i], rtol=1e-7, atol=1e-9)


def _roi_grad(api, x, boxes, boxes_num, out_grad):
    xt = tensor(x, stop_gradient=False)
    out = api(xt, tensor(boxes), paddle.to_tensor(boxes_num))
    (out * tensor(out_grad)).sum().backward()
    return out.numpy(), xt.grad.numpy()


@pytest.mark.parametrize("channels, api, ref, ref_grad", [
    (64, lambda a, b, n: ops.roi_align(a, b, n, 7, spatial_scale=0.5),
     lambda a, b, n: np_roi_align(a, b, n, 7, 0.5),
     lambda a, b, n, g: np_roi_align_grad(a, b, n, g, 7, 7, 0.5, -1, True)),
    (80 * 16, lambda a, b, n: ops.psroi_pool(a, b, n, 4, spatial_scale=0.5),
     lambda a, b, n: np_psroi_pool(a, b, n, 4, 0.5),
     lambda a, b, n, g: np_psroi_pool_grad(a, b, n, g, 4, 4, 80, 0.5)),
], ids=["roi_align", "psroi_pool"])
def test_large_roi_pooling_against_numpy(channels, api, ref, ref_grad):
    """Enough channels for the kernels to run in parallel (boxes over 2 images, some reaching
    past the map): forward and x's gradient against the references."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, channels, 20, 24))
    boxes = random_boxes(rng, 9, 40, 48)
    boxes_num = np.array([4, 5], "int64")
    out = api(tensor(x), tensor(boxes), paddle.to_tensor(boxes_num)).numpy()
    np.testing.assert_allclose(out, ref(x, boxes, boxes_num), rtol=1e-10, atol=1e-12)
    out_grad = rng.standard_normal(out.shape)
    _, x_grad = _roi_grad(api, x, boxes, boxes_num, out_grad)
    np.testing.assert_allclose(x_grad, ref_grad(x, boxes, boxes_num, out_grad), rtol=1e-10,
                               atol=1e-12)


def test_large_roi_pool_against_numpy():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 96, 20, 24))
    boxes = np.round(random_boxes(rng, 20, 40, 48) * 8) / 8
    boxes_num = np.array([9, 11], "int32")
    out, arg_max = paddle._C_ops.roi_pool(tensor(x), tensor(boxes), paddle.to_tensor(boxes_num),
                                          5, 6, 0.5)
    expected, expected_arg_max = np_roi_pool_op(x, boxes, boxes_num, 5, 6, 0.5)
    np.testing.assert_array_equal(out.numpy(), expected)
    np.testing.assert_array_equal(arg_max.numpy(), expected_arg_max)
    out_grad = rng.standard_normal(out.shape)
    _, x_grad = _roi_grad(lambda a, b, n: ops.roi_pool(a, b, n, (5, 6), 0.5), x, boxes, boxes_num,
                          out_grad)
    np.testing.assert_allclose(
        x_grad, np_roi_pool_grad(x, boxes, boxes_num, expected_arg_max, out_grad, 5, 6, 0.5),
        rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(ops.roi_pool(tensor(x), tensor(boxes),
                                               paddle.to_tensor(boxes_num), (5, 6), 0.5).numpy(),
                                  np_roi_pool(x, boxes, boxes_num, (5, 6), 0.5))


@pytest.mark.parametrize("with_mask", [True, False])
def test_large_deformable_conv_against_numpy(with_mask):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 16, 20, 20))
    weight = rng.standard_normal((12, 8, 3, 3))
    offset = rng.uniform(-3, 3, (2, 2 * 2 * 9, 20, 20))
    mask = rng.uniform(0, 1, (2, 2 * 9, 20, 20)) if with_mask else None
    attrs = dict(stride=1, padding=1, dilation=1, deformable_groups=2, groups=2)
    tensors = [tensor(a, stop_gradient=False) for a in (x, offset, weight)]
    mask_t = tensor(mask, stop_gradient=False) if with_mask else None
    out = ops.deform_conv2d(*tensors, mask=mask_t, **attrs)
    np.testing.assert_allclose(out.numpy(), np_deform_conv2d(x, offset, weight, mask=mask, **attrs),
                               rtol=1e-10, atol=1e-10)
    out_grad = rng.standard_normal(out.shape)
    (out * tensor(out_grad)).sum().backward()
    expected = np_deformable_conv_grad(x, offset, weight, mask, out_grad, [1, 1], [1, 1], [1, 1],
                                       2, 2)
    got = [t.grad.numpy() for t in tensors] + ([mask_t.grad.numpy()] if with_mask else [])
    for name, g, e in zip(["x", "offset", "weight", "mask"], got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-9, atol=1e-9, err_msg=name)


def test_boxes_that_are_not_finite_give_nan_and_no_gradient():
    x = tensor(np.arange(2 * 4 * 4, dtype="float64").reshape(1, 2, 4, 4), stop_gradient=False)
    boxes = tensor([[0.5, 0.5, 2.5, 2.5], [np.nan, 0, 2, 2], [0, 0, np.inf, 2]])
    boxes_num = paddle.to_tensor(np.array([3], "int32"))
    for api in (lambda b: ops.roi_align(x, b, boxes_num, 2),
                lambda b: ops.roi_pool(x, b, boxes_num, 2),
                lambda b: ops.psroi_pool(paddle.concat([x, x]).reshape([1, 4, 4, 4]), b,
                                         boxes_num, 1)):
        out = api(boxes)
        assert np.isfinite(out.numpy()[0]).all() and np.isnan(out.numpy()[1:]).all()
    _, arg_max = paddle._C_ops.roi_pool(x, boxes, boxes_num, 2, 2, 1.0)
    assert (arg_max.numpy()[1:] == -1).all()
    out = ops.roi_align(x, boxes, boxes_num, 2)
    x_grad = paddle.grad([out[:1].sum()], [x])[0].numpy()
    only_finite = paddle.grad([ops.roi_align(x, boxes[:1], paddle.to_tensor(np.array([1], "int32")),
                                             2).sum()], [x])[0].numpy()
    np.testing.assert_array_equal(x_grad, only_finite)


def test_huge_boxes_finish_and_pool_what_the_map_holds():
    """A box a million pixels wide has ~10^12 samples per bin; only those on the map are
    visited, and the average over all of them is about 0."""
    x = tensor(np.ones((1, 1, 8, 8)))
    boxes = tensor([[-1e6, -1e6, 1e6, 1e6], [0, 0, 8, 8]])
    out = ops.roi_align(x, boxes, paddle.to_tensor(np.array([2], "int32")), 1, aligned=False)
    assert abs(out.numpy()[0, 0, 0, 0]) < 1e-9
    assert out.numpy()[1, 0, 0, 0] == pytest.approx(1.0)
    pooled = ops.roi_pool(x, boxes, paddle.to_tensor(np.array([2], "int32")), 2)
    np.testing.assert_array_equal(pooled.numpy(), 1.0)


def test_roi_pool_grad_program_with_a_bad_arg_max_raises():
    x = tensor(np.zeros((1, 1, 3, 3)))
    with pytest.raises(ValueError, match=r"roi_pool_grad: argument 'arg_max' must hold indices in "
                                         r"\[-1, 9\)"):
        program_op("roi_pool_grad",
                   {"X": x, "ROIs": tensor([[0, 0, 2, 2]]),
                    "Argmax": paddle.to_tensor(np.array([[[[9]]]], "int64")),
                    "Out@GRAD": tensor(np.ones((1, 1, 1, 1)))},
                   {"X@GRAD": "X"}, {"pooled_height": 1, "pooled_width": 1, "spatial_scale": 1.0})
