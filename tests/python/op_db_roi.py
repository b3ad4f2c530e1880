"""Harness entries (op_db.py) of the RoI pooling ops (roi_align, roi_pool, psroi_pool), the
deformable convolutions (deformable_conv, deformable_conv_v1) and their gradient kernels, against
the NumPy references of roi_reference.py.

Boxes and scales are multiples of 1/8 where bins have integer bounds (roi_pool, psroi_pool), so
the bounds are exact in float32 and float64 alike; roi_align's bins are never near a whole number
of samples. Only x (and for the deformable convolutions the offsets, filter, mask and bias) is
differentiated: the ops have no gradient for the boxes. Offsets keep every sample position off
whole pixels, where bilinear interpolation has kinks."""
import numpy as np

import paddle
from harness import ErrorSample, OpInfo, Sample
from op_db import program_op, uniform
from roi_reference import (np_deform_conv2d, np_deformable_conv_grad, np_psroi_pool,
                           np_psroi_pool_grad, np_roi_align, np_roi_align_grad, np_roi_pool,
                           np_roi_pool_grad, np_roi_pool_op)

F = paddle.vision.ops

LINEAR_GRAD = ("a gradient kernel, linear in out_grad; it is checked as the first-order gradient "
               "of the {} entry, and its own gradient (the forward op) by "
               "ops/test_roi_ops.py")
KERNEL_GRAD = ("a gradient kernel without a gradient of its own; it is checked as the first-order "
               "gradient of the {} entry")


def counts(*values, dtype="int32"):
    return np.asarray(values, dtype=dtype)


def boxes_in(rng, count, height, width, min_size=1.0):
    """Random boxes (x1, y1, x2, y2) reaching up to a pixel past each side of an H x W map."""
    x1 = rng.uniform(-1, width - min_size, count)
    y1 = rng.uniform(-1, height - min_size, count)
    x2 = np.minimum(x1 + rng.uniform(min_size, width, count), width + 1)
    y2 = np.minimum(y1 + rng.uniform(min_size, height, count), height + 1)
    return np.stack([x1, y1, x2, y2], axis=1)


def eighths(boxes):
    """Boxes rounded to multiples of 1/8 (halves included: the ops round them away from 0)."""
    return np.round(boxes * 8) / 8


def program_inputs(slots, boxes_num):
    """Paddle's input slots of a RoI gradient op, without RoisNum when there is none."""
    if boxes_num is not None:
        slots["RoisNum"] = boxes_num
    return slots


# ---------------------------------------------------------------- roi_align

def roi_align_samples(rng):
    return [
        Sample([uniform(rng, (2, 3, 6, 5)),
                np.array([[0.3, 0.6, 4.1, 3.9], [1.2, 0.4, 3.3, 5.1], [-0.7, 2.2, 4.6, 6.4]]),
                counts(1, 2), 2], grad_args=[0]),
        Sample([uniform(rng, (1, 2, 7, 7)), np.array([[2.3, 1.1, 11.7, 9.3], [0.4, 0.2, 2.6, 1.9]]),
                counts(2, dtype="int64"), (3, 2)],
               {"spatial_scale": 0.5, "sampling_ratio": 2, "aligned": False}, grad_args=[0]),
        # Boxes reaching past the map on every side (samples there read the edge, or nothing).
        Sample([uniform(rng, (1, 2, 4, 4)), np.array([[-2.2, -1.6, 5.3, 6.1], [2.6, 2.9, 5.8, 5.2]]),
                None, 3], {"sampling_ratio": 3}, grad_args=[0]),
        # A box smaller than a pixel: unaligned it is 1 x 1, aligned it gets a single sample.
        Sample([uniform(rng, (1, 3, 5, 5)), np.array([[1.3, 2.1, 1.7, 2.4]]), counts(1), (2, 3)],
               {"aligned": False}, grad_args=[0]),
        Sample([uniform(rng, (1, 3, 5, 5)), np.array([[1.3, 2.1, 1.7, 2.4]]), counts(1), 1],
               grad_args=[0]),
        Sample([uniform(rng, (2, 2, 3, 3)), np.zeros((0, 4)), counts(0, 0), 2], grad_args=[0]),
    ]


def roi_errors(api, op, extra=()):
    x, boxes = np.zeros((2, 4, 5, 5), np.float32), np.zeros((3, 4), np.float32)
    return lambda: [
        ErrorSample([x, np.zeros((3, 5), np.float32), counts(1, 2), 2], {}, ValueError,
                    f"{op}: argument 'boxes'"),
        ErrorSample([x, np.zeros(4, np.float32), counts(1, 2), 2], {}, ValueError,
                    f"{op}: argument 'boxes'"),
        ErrorSample([x, boxes, counts(1, 1), 2], {}, ValueError, "'boxes_num' must add up"),
        ErrorSample([x, boxes, counts(2, -1, 2), 2], {}, ValueError,
                    f"{op}: argument 'boxes_num'"),
        ErrorSample([x, boxes, counts(4, -1), 2], {}, ValueError, "'boxes_num' must not be"),
        ErrorSample([x, boxes, None, 2], {}, ValueError, f"{op}: argument 'boxes_num' is required"),
        ErrorSample([x, boxes, counts(1, 2), 0], {}, ValueError, "'output_size' must be positive"),
        ErrorSample([x, boxes, counts(1, 2), (2, -1)], {}, ValueError, "'output_size'"),
        ErrorSample([x, boxes, counts(1, 2), (2, 2, 2)], {}, ValueError, "'output_size'"),
        ErrorSample([x, boxes, counts(1, 2), "2"], {}, TypeError, "'output_size'"),
        ErrorSample([x, boxes, counts(1, 2), 2], {"spatial_scale": 0.0}, ValueError,
                    f"{op}: 'spatial_scale' must be positive"),
        ErrorSample([x, boxes, counts(1, 2), 2], {"spatial_scale": float("nan")}, ValueError,
                    "'spatial_scale'"),
        ErrorSample([x[0], boxes, counts(1, 2), 2], {}, ValueError, "argument 'x' must be a 4-D"),
        ErrorSample([x, boxes.astype(np.float64), counts(1, 2), 2], {}, ValueError,
                    "'boxes' must have the dtype of 'x'"),
        ErrorSample([x, boxes, counts(1, 2).astype(np.float32), 2], {}, ValueError,
                    "'boxes_num' must be int32 or int64"),
        ErrorSample([[[1.0]], boxes, counts(1, 2), 2], {}, TypeError, f"{api}(): argument 'x'"),
    ] + [e for e in extra]


# ---------------------------------------------------------------- roi_pool

def roi_pool_op(x, boxes, boxes_num=None, pooled_height=1, pooled_width=1, spatial_scale=1.0):
    return list(paddle._C_ops.roi_pool(x, boxes, boxes_num, pooled_height, pooled_width,
                                       spatial_scale))


def roi_pool_samples(rng):
    return [
        Sample([uniform(rng, (2, 3, 6, 5)), eighths(boxes_in(rng, 3, 6, 5)), counts(2, 1)],
               {"pooled_height": 2, "pooled_width": 2}, grad_args=[0]),
        Sample([uniform(rng, (1, 2, 8, 8)), eighths(boxes_in(rng, 2, 16, 16, 2)), None],
               {"pooled_height": 3, "pooled_width": 2, "spatial_scale": 0.5}, grad_args=[0]),
        # Bins past the map's edge are empty: 0, arg_max -1.
        Sample([uniform(rng, (1, 2, 4, 4)), np.array([[2.125, 1.25, 6.75, 7.375]]),
                counts(1, dtype="int64")], {"pooled_height": 4, "pooled_width": 3},
               grad_args=[0]),
        Sample([uniform(rng, (2, 2, 3, 3)), np.zeros((0, 4)), counts(0, 0)], {}, grad_args=[0]),
    ]


def roi_pool_functional_samples(rng):
    return [
        Sample([uniform(rng, (2, 3, 6, 5)), eighths(boxes_in(rng, 3, 6, 5)), counts(1, 2),
                (2, 3)], grad_args=[0]),
        Sample([uniform(rng, (1, 2, 8, 8)), eighths(boxes_in(rng, 2, 16, 16, 2)), None, 2],
               {"spatial_scale": 0.5}, grad_args=[0]),
    ]


def roi_pool_grad_op(x, boxes, boxes_num, arg_max, out_grad, pooled_height, pooled_width,
                     spatial_scale):
    return program_op("roi_pool_grad",
                      program_inputs({"X": x, "ROIs": boxes, "Argmax": arg_max,
                                      "Out@GRAD": out_grad}, boxes_num),
                      {"X@GRAD": "X"}, {"pooled_height": pooled_height,
                                        "pooled_width": pooled_width,
                                        "spatial_scale": spatial_scale})[0]


def roi_pool_grad_samples(rng):
    """x, boxes, boxes_num, an arg_max of indices in [-1, H * W) and out's gradient."""
    def sample(x_shape, num_boxes, boxes_num, pooled):
        out_shape = (num_boxes, x_shape[1]) + pooled
        arg_max = rng.integers(-1, x_shape[2] * x_shape[3], out_shape)
        return Sample([uniform(rng, x_shape), boxes_in(rng, num_boxes, 4, 4), boxes_num, arg_max,
                       uniform(rng, out_shape), pooled[0], pooled[1], 1.0])
    return [sample((2, 3, 4, 5), 3, counts(1, 2), (2, 2)), sample((1, 2, 3, 3), 2, None, (3, 2))]


# ---------------------------------------------------------------- psroi_pool

def psroi_pool_samples(rng):
    return [
        Sample([uniform(rng, (2, 8, 6, 5)), eighths(boxes_in(rng, 3, 6, 5)), counts(1, 2), 2],
               grad_args=[0]),
        Sample([uniform(rng, (1, 16, 8, 8)), eighths(boxes_in(rng, 2, 16, 16, 2)), None,
                (4, 2)], {"spatial_scale": 0.5}, grad_args=[0]),
        # A box past the map's edge, and one collapsed to 0.1 x 0.1 (its bins hold one pixel).
        Sample([uniform(rng, (1, 4, 4, 4)), np.array([[2.0, 1.0, 7.0, 6.0], [1.25, 1.0, 0.0, 0.0]]),
                counts(2, dtype="int64"), (2, 2)], {"spatial_scale": 0.75}, grad_args=[0]),
        Sample([uniform(rng, (2, 4, 3, 3)), np.zeros((0, 4)), counts(0, 0), 2], grad_args=[0]),
    ]


def psroi_pool_grad_op(x, boxes, boxes_num, out_grad, pooled_height, pooled_width,
                       output_channels, spatial_scale):
    return program_op("psroi_pool_grad",
                      program_inputs({"X": x, "ROIs": boxes, "Out@GRAD": out_grad}, boxes_num),
                      {"X@GRAD": "X"}, {"pooled_height": pooled_height,
                                        "pooled_width": pooled_width,
                                        "output_channels": output_channels,
                                        "spatial_scale": spatial_scale})[0]


def roi_align_grad_op(x, boxes, boxes_num, out_grad, pooled_height, pooled_width, spatial_scale,
                      sampling_ratio, aligned):
    return program_op("roi_align_grad",
                      program_inputs({"X": x, "ROIs": boxes, "Out@GRAD": out_grad}, boxes_num),
                      {"X@GRAD": "X"}, {"pooled_height": pooled_height,
                                        "pooled_width": pooled_width,
                                        "spatial_scale": spatial_scale,
                                        "sampling_ratio": sampling_ratio, "aligned": aligned})[0]


def roi_grad_samples(pooled_channels=None):
    """x, boxes, boxes_num, out's gradient and the pooling attributes of roi_align_grad (or of
    psroi_pool_grad with `pooled_channels` output channels)."""
    def samples(rng):
        out = []
        for x_shape, boxes, boxes_num, pooled in [
                ((2, 4, 5, 6), eighths(boxes_in(rng, 3, 5, 6)), counts(2, 1), (2, 2)),
                ((1, 4, 4, 4), eighths(boxes_in(rng, 2, 4, 4)), None, (1, 2))]:
            channels = x_shape[1] // (pooled[0] * pooled[1]) if pooled_channels else x_shape[1]
            out_grad = uniform(rng, (len(boxes), channels) + pooled)
            attrs = [channels, 0.75] if pooled_channels else [0.75, -1, True]
            out.append(Sample([uniform(rng, x_shape), boxes, boxes_num, out_grad, *pooled, *attrs]))
        return out
    return samples


# ---------------------------------------------------------------- deformable convolution

def offsets(rng, shape):
    """Offsets whose fractional parts stay in [0.15, 0.85]: sample positions off whole pixels."""
    return rng.integers(-2, 2, shape) + rng.uniform(0.15, 0.85, shape) * rng.choice([1, -1], shape)


def deform_sample(rng, x_shape, w_shape, out_hw, deformable_groups=1, with_mask=True,
                  bias=True, **attrs):
    taps = w_shape[2] * w_shape[3]
    n = x_shape[0]
    args = [uniform(rng, x_shape), offsets(rng, (n, deformable_groups * 2 * taps) + out_hw),
            uniform(rng, w_shape)]
    if with_mask:
        args.append(uniform(rng, (n, deformable_groups * taps) + out_hw, 0.2, 1.0))
    args.append(uniform(rng, (w_shape[0],)) if bias else None)
    return Sample(args, dict(attrs, deformable_groups=deformable_groups))


def deform_conv_v2(x, offset, weight, mask, bias=None, **attrs):
    return F.deform_conv2d(x, offset, weight, bias, mask=mask, **attrs)


def np_deform_conv_v2(x, offset, weight, mask, bias=None, **attrs):
    return np_deform_conv2d(x, offset, weight, bias, mask=mask, **attrs)


def deform_conv_samples(with_mask):
    def samples(rng):
        return [
            deform_sample(rng, (2, 2, 4, 4), (3, 2, 2, 2), (3, 3), with_mask=with_mask),
            deform_sample(rng, (1, 4, 5, 4), (2, 2, 3, 2), (3, 2), deformable_groups=2,
                          with_mask=with_mask, groups=2, stride=[2, 1], padding=[1, 0],
                          dilation=[1, 2]),
            deform_sample(rng, (1, 2, 3, 3), (2, 1, 3, 3), (3, 3), deformable_groups=2,
                          with_mask=with_mask, bias=False, padding=1, groups=2),
            deform_sample(rng, (0, 2, 4, 4), (3, 2, 2, 2), (3, 3), with_mask=with_mask),
        ]
    return samples


def deform_errors(with_mask):
    x, w = np.zeros((1, 4, 5, 5), np.float32), np.zeros((2, 4, 3, 3), np.float32)
    offset = np.zeros((1, 18, 3, 3), np.float32)
    mask = np.zeros((1, 9, 3, 3), np.float32)
    args = [x, offset, w, mask] if with_mask else [x, offset, w]
    op = "deformable_conv" if with_mask else "deformable_conv_v1"

    def replaced(i, value):
        return args[:i] + [value] + args[i + 1:]
    errors = [
        ErrorSample(replaced(1, np.zeros((1, 9, 3, 3), np.float32)), {}, ValueError,
                    f"{op}: argument 'offset' must have the shape [1, 18, 3, 3]"),
        ErrorSample(args, {"deformable_groups": 2}, ValueError,
                    "argument 'offset' must have the shape [1, 36, 3, 3]"),
        ErrorSample(replaced(1, np.zeros((1, 18, 4, 3), np.float32)), {}, ValueError,
                    "argument 'offset'"),
        ErrorSample(args, {"groups": 3}, ValueError, "must be divisible by 'groups'"),
        ErrorSample(replaced(0, np.zeros((1, 6, 5, 5), np.float32)), {"deformable_groups": 4},
                    ValueError, "divisible by 'deformable_groups'"),
        ErrorSample(args, {"deformable_groups": 0}, ValueError, "'deformable_groups'"),
        ErrorSample(replaced(2, np.zeros((2, 3, 3, 3), np.float32)), {}, ValueError,
                    "filter's dim 1"),
        ErrorSample(args, {"stride": 0}, ValueError, f"{op}: every value of 'strides'"),
        ErrorSample(args, {"padding": -1}, ValueError, "'paddings' must be non-negative"),
        ErrorSample(args, {"padding": [1, 1, 1]}, ValueError, "deform_conv2d(): argument 'padding'"),
        ErrorSample(replaced(0, np.zeros((1, 4, 1, 1), np.float32)), {}, ValueError,
                    "dilated kernel"),
        ErrorSample(replaced(0, np.zeros((4, 5, 5), np.float32)), {}, ValueError,
                    f"{op}: argument 'x' must be a 4-D"),
        ErrorSample(replaced(2, np.zeros((2, 4, 3, 3))), {}, ValueError,
                    "argument 'filter' must have the dtype of 'x'"),
        ErrorSample(replaced(0, [[1.0]]), {}, TypeError, "deform_conv2d(): argument 'x'"),
    ]
    if with_mask:
        errors.append(ErrorSample(replaced(3, np.zeros((1, 18, 3, 3), np.float32)), {},
                                  ValueError, "deformable_conv: argument 'mask' must have the "
                                              "shape [1, 9, 3, 3]"))
    else:
        errors.append(ErrorSample(args + [np.zeros((2, 1), np.float32)], {}, ValueError,
                                  "'bias' must be 1-D"))
    return lambda: errors


def deformable_conv_grad_op(x, offset, weight, mask, out_grad, strides, paddings, dilations,
                            deformable_groups, groups):
    """deformable_conv_grad, or deformable_conv_v1_grad without a mask, as a program holds it."""
    inputs = {"Input": x, "Offset": offset, "Filter": weight, "Output@GRAD": out_grad}
    outputs = {"Input@GRAD": "Input", "Offset@GRAD": "Offset", "Filter@GRAD": "Filter"}
    if mask is not None:
        inputs["Mask"] = mask
        outputs["Mask@GRAD"] = "Mask"
    return program_op("deformable_conv_grad" if mask is not None else "deformable_conv_v1_grad",
                      inputs, outputs,
                      {"strides": strides, "paddings": paddings, "dilations": dilations,
                       "deformable_groups": deformable_groups, "groups": groups,
                       "im2col_step": 64})


def np_deformable_conv_grad_op(x, offset, weight, mask, out_grad, *attrs):
    grads = np_deformable_conv_grad(x, offset, weight, mask, out_grad, *attrs)
    return grads if mask is not None else grads[:3]


def deformable_conv_grad_samples(rng):
    def sample(x_shape, w_shape, out_hw, strides, paddings, dilations, deformable_groups, groups,
               with_mask=True):
        taps = w_shape[2] * w_shape[3]
        n = x_shape[0]
        mask = uniform(rng, (n, deformable_groups * taps) + out_hw, 0.2, 1) if with_mask else None
        return Sample([uniform(rng, x_shape),
                       offsets(rng, (n, deformable_groups * 2 * taps) + out_hw),
                       uniform(rng, w_shape), mask, uniform(rng, (n, w_shape[0]) + out_hw),
                       strides, paddings, dilations, deformable_groups, groups])
    return [sample((2, 2, 4, 4), (3, 2, 2, 2), (3, 3), [1, 1], [0, 0], [1, 1], 1, 1),
            sample((1, 4, 5, 4), (4, 2, 3, 2), (3, 2), [2, 1], [1, 0], [1, 2], 2, 2),
            sample((1, 2, 3, 3), (2, 2, 2, 2), (2, 2), [1, 1], [0, 0], [1, 1], 2, 1,
                   with_mask=False)]


ROI_OPS = [
    OpInfo("roi_align", F.roi_align, np_roi_align, roi_align_samples,
           errors=roi_errors("roi_align", "roi_align")),
    OpInfo("roi_align_grad", roi_align_grad_op, np_roi_align_grad, roi_grad_samples(),
           grad=False, no_grad_reason=LINEAR_GRAD.format("roi_align")),
    OpInfo("roi_pool", roi_pool_op, np_roi_pool_op, roi_pool_samples, grad_outputs=[0],
           errors=lambda: [
               ErrorSample([np.zeros((1, 2, 4, 4), np.float32), np.zeros((2, 4), np.float32),
                            counts(2), 0, 2], {}, ValueError, "roi_pool: 'pooled_height'"),
               ErrorSample([np.zeros((1, 2, 4, 4), np.float32), np.zeros((2, 4), np.float32),
                            counts(3)], {}, ValueError, "roi_pool: the counts of 'boxes_num'")]),
    OpInfo("roi_pool_functional", F.roi_pool, np_roi_pool, roi_pool_functional_samples,
           covers=["roi_pool"], errors=roi_errors("roi_pool", "roi_pool")),
    OpInfo("roi_pool_grad", roi_pool_grad_op, np_roi_pool_grad, roi_pool_grad_samples,
           grad=False, no_grad_reason=KERNEL_GRAD.format("roi_pool")),
    OpInfo("psroi_pool", F.psroi_pool, np_psroi_pool, psroi_pool_samples,
           errors=roi_errors("psroi_pool", "psroi_pool", [
               ErrorSample([np.zeros((1, 6, 4, 4), np.float32), np.zeros((1, 4), np.float32),
                            counts(1), 2], {}, ValueError, "must be divisible by output_size")])),
    OpInfo("psroi_pool_grad", psroi_pool_grad_op, np_psroi_pool_grad, roi_grad_samples(True),
           grad=False, no_grad_reason=LINEAR_GRAD.format("psroi_pool")),
    OpInfo("deformable_conv", deform_conv_v2, np_deform_conv_v2, deform_conv_samples(True),
           atol=1e-4, rtol=1e-4, errors=deform_errors(True)),
    OpInfo("deformable_conv_v1", F.deform_conv2d, np_deform_conv2d, deform_conv_samples(False),
           atol=1e-4, rtol=1e-4, errors=deform_errors(False)),
    OpInfo("deformable_conv_grad", deformable_conv_grad_op, np_deformable_conv_grad_op,
           deformable_conv_grad_samples, atol=1e-4, rtol=1e-4, grad=False,
           no_grad_reason=KERNEL_GRAD.format("deformable_conv and deformable_conv_v1")),
]
