"""Harness entries of the pooling ops: pool2d/pool3d through every paddle.nn.functional form that
runs them (max, average, adaptive, 1-D over a unit height), max_pool*_with_index through
return_mask and adaptive max pooling, lp_pool2d, unpool/unpool3d through max_unpool*, and the
gradient ops as Paddle programs hold them, against the NumPy references of pool_reference.py.
Second and third order gradients of pool2d/pool3d are checked numerically in
ops/test_pool_gradients.py (the harness's second-order check differentiates a loss linear in the
outputs, which never reaches pool2d_double_grad)."""
import numpy as np

import paddle.nn.functional as F
from harness import ErrorSample, OpInfo, Sample
from op_db import program_op, uniform
from pool_reference import (np_adaptive_avg_pool, np_adaptive_max_pool, np_avg_pool,
                            np_avg_pool_grad, np_lp_pool, np_max_pool, np_max_pool_grad,
                            np_max_pool_select, np_max_unpool, pool_bounds)

# ---------------------------------------------------------------- max and average pooling


def _max_pool2d_samples(rng):
    return [
        Sample([uniform(rng, (2, 3, 6, 5))], {"kernel_size": 3, "stride": 2, "padding": 1}),
        Sample([uniform(rng, (1, 2, 7, 6))],
               {"kernel_size": [3, 2], "stride": [2, 1], "padding": [1, 0, 1, 1]}),
        Sample([uniform(rng, (1, 5, 5, 3))],
               {"kernel_size": 2, "stride": 2, "padding": "SAME", "data_format": "NHWC"}),
        Sample([uniform(rng, (1, 2, 5, 5))], {"kernel_size": 2, "ceil_mode": True}),
        Sample([uniform(rng, (1, 1, 5, 4))], {"kernel_size": 3, "stride": 1, "padding": "VALID"}),
        Sample([uniform(rng, (0, 2, 4, 4))], {"kernel_size": 2}),
    ]


def _avg_pool2d_samples(rng):
    return [
        Sample([uniform(rng, (2, 3, 6, 5))], {"kernel_size": 3, "stride": 2, "padding": 1}),
        Sample([uniform(rng, (1, 2, 6, 6))],
               {"kernel_size": 3, "stride": 2, "padding": 1, "exclusive": False,
                "ceil_mode": True}),
        Sample([uniform(rng, (1, 5, 4, 3))],
               {"kernel_size": [2, 3], "padding": "SAME", "data_format": "NHWC", "stride": 1}),
        Sample([uniform(rng, (1, 2, 5, 5))],
               {"kernel_size": 2, "padding": [[0, 0], [0, 0], [1, 0], [0, 1]],
                "divisor_override": 3}),
        Sample([uniform(rng, (1, 2, 7, 7))], {"kernel_size": 7}),
    ]


def _pool_errors(api, dims, mode):
    x = np.zeros((1, 2) + (5,) * dims)
    return lambda: [
        ErrorSample([x], {"kernel_size": 0}, ValueError, "kernel_size"),
        ErrorSample([x], {"kernel_size": 2, "stride": 0}, ValueError, "stride"),
        ErrorSample([x], {"kernel_size": 2, "padding": [1] * (dims + 1)}, ValueError,
                    "invalid padding"),
        ErrorSample([x], {"kernel_size": 2, "padding": "FULL"}, ValueError, "'SAME' or 'VALID'"),
        ErrorSample([x], {"kernel_size": 2, "padding": 2}, ValueError, "entirely in the padding"),
        ErrorSample([x], {"kernel_size": 2, "padding": "VALID", "ceil_mode": True}, ValueError,
                    "ceil_mode"),
        ErrorSample([x], {"kernel_size": 7}, ValueError, "smaller than the kernel"),
        ErrorSample([np.zeros((2,) + (5,) * dims)], {"kernel_size": 2}, ValueError,
                    f"must be {dims + 2}-D"),
        ErrorSample([x], {"kernel_size": 2, "data_format": "NWHC"}, ValueError, "data_format"),
        ErrorSample([[1.0]], {"kernel_size": 2}, TypeError, api.__name__),
    ] + ([ErrorSample([x], {"kernel_size": 2, "divisor_override": 0}, ValueError,
                      "divisor_override")] if mode == "avg" else [])


def _max_pool3d_samples(rng):
    return [
        Sample([uniform(rng, (1, 2, 4, 5, 4))], {"kernel_size": 2, "stride": 2, "padding": 1}),
        Sample([uniform(rng, (1, 3, 4, 4, 2))],
               {"kernel_size": [2, 3, 1], "stride": 1, "padding": "SAME",
                "data_format": "NDHWC"}),
        Sample([uniform(rng, (1, 1, 5, 4, 5))],
               {"kernel_size": 2, "stride": [2, 1, 2], "ceil_mode": True}),
    ]


def _avg_pool3d_samples(rng):
    return [
        Sample([uniform(rng, (1, 2, 4, 5, 4))],
               {"kernel_size": 3, "stride": 2, "padding": 1, "exclusive": False}),
        Sample([uniform(rng, (1, 2, 5, 4, 3))],
               {"kernel_size": 2, "padding": [0, 1, 1, 0, 0, 1], "ceil_mode": True}),
        Sample([uniform(rng, (1, 3, 3, 4, 2))],
               {"kernel_size": 2, "stride": 1, "data_format": "NDHWC", "divisor_override": 5}),
    ]


def _pool1d_samples(mode):
    def samples(rng):
        out = [
            Sample([uniform(rng, (2, 3, 9))], {"kernel_size": 3, "stride": 2, "padding": 1}),
            Sample([uniform(rng, (1, 2, 7))], {"kernel_size": 2, "padding": [1, 0],
                                               "ceil_mode": True}),
            Sample([uniform(rng, (1, 2, 6))], {"kernel_size": [4], "stride": [1],
                                               "padding": "SAME"}),
        ]
        if mode == "avg":
            out.append(Sample([uniform(rng, (1, 2, 6))],
                              {"kernel_size": 3, "padding": 1, "exclusive": False}))
        return out
    return samples


# ---------------------------------------------------------------- adaptive pooling

def _adaptive_avg_samples(dims):
    def samples(rng):
        if dims == 1:
            return [Sample([uniform(rng, (2, 3, 7))], {"output_size": 3}),
                    Sample([uniform(rng, (1, 2, 4))], {"output_size": 4})]
        if dims == 2:
            return [Sample([uniform(rng, (2, 3, 7, 6))], {"output_size": [3, 4]}),
                    Sample([uniform(rng, (1, 5, 4, 2))], {"output_size": [2, 3],
                                                          "data_format": "NHWC"}),
                    Sample([uniform(rng, (1, 2, 3, 3))], {"output_size": 1}),
                    Sample([uniform(rng, (1, 2, 3, 2))], {"output_size": 5})]
        return [Sample([uniform(rng, (1, 2, 5, 4, 3))], {"output_size": [2, 3, 2]}),
                Sample([uniform(rng, (1, 3, 3, 4, 2))], {"output_size": 2,
                                                         "data_format": "NDHWC"})]
    return samples


def _adaptive_max_samples(dims):
    def samples(rng):
        spatial = {1: (7,), 2: (7, 6), 3: (5, 4, 3)}[dims]
        sizes = {1: 3, 2: [3, 4], 3: [2, 3, 2]}[dims]
        return [Sample([uniform(rng, (2, 3) + spatial)], {"output_size": sizes,
                                                          "return_mask": True}),
                Sample([uniform(rng, (1, 2) + spatial)], {"output_size": 2})]
    return samples


def _adaptive_errors(api, dims):
    x = np.zeros((1, 2) + (4,) * dims)
    return lambda: [
        ErrorSample([x], {"output_size": 0}, ValueError, "output_size"),
        ErrorSample([x], {"output_size": [2] * (dims + 1)}, ValueError, "output_size"),
        ErrorSample([np.zeros((2,) + (4,) * dims)], {"output_size": 2}, ValueError,
                    f"must be {dims + 2}-D"),
    ]


# ---------------------------------------------------------------- with index and unpooling

def _with_index_samples(dims):
    def samples(rng):
        if dims == 2:
            return [
                Sample([uniform(rng, (2, 3, 6, 5))], {"kernel_size": 3, "stride": 2,
                                                      "padding": 1, "return_mask": True}),
                Sample([uniform(rng, (1, 2, 5, 5))], {"kernel_size": 2, "ceil_mode": True,
                                                      "return_mask": True}),
                Sample([uniform(rng, (1, 1, 5, 4))], {"kernel_size": 2, "stride": 1,
                                                      "padding": [0, 1, 1, 0],
                                                      "return_mask": True}),
            ]
        return [
            Sample([uniform(rng, (1, 2, 4, 5, 4))], {"kernel_size": 2, "stride": 2,
                                                     "padding": 1, "return_mask": True}),
            Sample([uniform(rng, (1, 1, 5, 3, 4))], {"kernel_size": [3, 2, 2], "stride": 1,
                                                     "ceil_mode": True, "return_mask": True}),
        ]
    return samples


def _unpool_sample(rng, shape, kernel, stride=None, padding=0, **kwargs):
    """max_pool's outputs and mask as the inputs of max_unpool."""
    x = uniform(rng, shape)
    pooled, mask = np_max_pool(x, kernel, stride, padding, return_mask=True)
    return Sample([pooled, mask], dict(kernel_size=kernel, stride=stride, padding=padding,
                                       **kwargs))


def _unpool_samples(dims):
    def samples(rng):
        if dims == 1:
            return [_unpool_sample(rng, (2, 3, 8), 2),
                    _unpool_sample(rng, (1, 2, 9), 3, 3, 1, output_size=[9])]
        if dims == 2:
            return [_unpool_sample(rng, (2, 3, 6, 6), 2),
                    _unpool_sample(rng, (1, 2, 7, 5), [3, 2], [3, 2], [1, 0], output_size=[7, 5]),
                    _unpool_sample(rng, (1, 2, 5, 5), 2, output_size=[5, 5]),
                    _unpool_sample(rng, (1, 1, 4, 4), 2, output_size=[1, 1, 5, 4])]
        return [_unpool_sample(rng, (1, 2, 4, 6, 4), 2),
                _unpool_sample(rng, (1, 2, 5, 4, 4), [2, 2, 1], output_size=[5, 4, 4])]
    return samples


def _unpool_errors(api, dims):
    x = np.zeros((1, 2) + (2,) * dims)
    indices = np.zeros((1, 2) + (2,) * dims, dtype=np.int32)
    fmt = {1: "NCL", 2: "NCHW", 3: "NCDHW"}[dims]
    return lambda: [
        ErrorSample([x, indices], {"kernel_size": 2, "output_size": [9] * dims}, ValueError,
                    "output_size"),
        ErrorSample([x, np.zeros((1, 2) + (3,) * dims, dtype=np.int32)], {"kernel_size": 2},
                    ValueError, "'indices' must have the shape"),
        # The output plane holds 4 ** dims elements.
        ErrorSample([x, indices + 4 ** dims], {"kernel_size": 2}, IndexError, "'indices'"),
        ErrorSample([x, indices], {"kernel_size": 2, "data_format": fmt[0] + fmt[:0:-1]},
                    ValueError, "data_format"),
        ErrorSample([x, indices], {"kernel_size": 0}, ValueError, "kernel_size"),
        ErrorSample([np.zeros((2,) + (2,) * dims), indices], {"kernel_size": 2}, ValueError,
                    f"must be {dims + 2}-D"),
    ]


# ---------------------------------------------------------------- power-average pooling

def _lp_samples(dims):
    def positive(rng, shape):
        return uniform(rng, shape, 0.5, 2.0)

    def samples(rng):
        if dims == 1:
            return [Sample([positive(rng, (2, 3, 8)), 2.0], {"kernel_size": 3, "stride": 2}),
                    Sample([positive(rng, (1, 5, 3)), 3], {"kernel_size": 2, "padding": 1,
                                                           "data_format": "NLC"})]
        return [
            Sample([positive(rng, (2, 3, 6, 5)), 2.0], {"kernel_size": 3, "stride": 2,
                                                        "padding": 1}),
            Sample([positive(rng, (1, 2, 5, 5)), 1.5], {"kernel_size": 2, "ceil_mode": True}),
            Sample([positive(rng, (1, 4, 4, 3)), 1], {"kernel_size": [2, 3], "stride": 1,
                                                      "padding": "SAME", "data_format": "NHWC"}),
        ]
    return samples


def _lp_errors(api, dims):
    x = np.ones((1, 2) + (4,) * dims)
    return lambda: [
        ErrorSample([x, 0.0], {"kernel_size": 2}, ValueError, "norm_type"),
        ErrorSample([x, float("inf")], {"kernel_size": 2}, ValueError, "norm_type"),
        ErrorSample([x, "2"], {"kernel_size": 2}, TypeError, "norm_type"),
        ErrorSample([x, 2.0], {"kernel_size": 2, "stride": -1}, ValueError, "stride"),
    ]


# ---------------------------------------------------------------- the gradient ops

def _pool_attrs(kernel, strides, paddings, pooling_type, ceil_mode=False, exclusive=True,
                adaptive=False):
    """Every attribute of pool2d/pool3d but the kernel size, channels first."""
    return {"strides": strides, "paddings": paddings, "ceil_mode": ceil_mode,
            "exclusive": exclusive, "data_format": "NCHW" if len(kernel) == 2 else "NCDHW",
            "pooling_type": pooling_type, "global_pooling": False, "adaptive": adaptive,
            "padding_algorithm": "EXPLICIT"}


def pool_grad_api(op):
    """The x gradient as a Paddle program's <op>_grad holds it (X, Out, Out@GRAD; ksize)."""
    def api(x, out, dy, kernel, **attrs):
        attrs = dict(_pool_attrs(kernel, **attrs), ksize=kernel)
        return program_op(op, {"X": x, "Out": out, "Out@GRAD": dy}, {"X@GRAD": "X"}, attrs)[0]
    return api


def np_pool_grad(x, out, dy, kernel, strides, paddings, pooling_type, ceil_mode=False,
                 exclusive=True, adaptive=False):
    bounds_of = pool_bounds(kernel, strides, paddings, ceil_mode, adaptive)
    if pooling_type == "max":
        return np_max_pool_grad(x, dy, bounds_of)
    return np_avg_pool_grad(x, dy, bounds_of, None if exclusive or adaptive else np.prod(kernel))


def pool_double_grad_api(op):
    """pool*_double_grad as a program runs it: grad_x_grad to the output's shape (declared
    unknown; the op infers it)."""
    def api(x, ggx, kernel, **attrs):
        attrs = dict(_pool_attrs(kernel, **attrs), kernel_size=kernel)
        return program_op(op, {"x": x, "grad_x_grad": ggx},
                          {"grad_out_grad": ([-1] * len(x.shape), "x")}, attrs)[0]
    return api


def np_pool_double_grad(x, ggx, kernel, strides, paddings, pooling_type, ceil_mode=False,
                        exclusive=True, adaptive=False):
    bounds_of = pool_bounds(kernel, strides, paddings, ceil_mode, adaptive)
    if pooling_type == "max":
        return np_max_pool_select(x, ggx, bounds_of)
    if adaptive:
        return np_adaptive_avg_pool(ggx, kernel)
    pads = [(p, p) for p in paddings] if len(paddings) == len(kernel) else paddings
    return np_avg_pool(ggx, kernel, strides, [v for pair in pads for v in pair], ceil_mode,
                       exclusive)


def _grad_samples(dims, double):
    def samples(rng):
        spatial = (5,) * dims
        x = uniform(rng, (1, 2) + spatial)
        out = []
        for pooling_type, attrs in [
                ("max", {"strides": [2] * dims, "paddings": [1] * dims}),
                ("avg", {"strides": [2] * dims, "paddings": [1] * dims, "exclusive": False,
                         "ceil_mode": True}),
                ("avg", {"strides": [1] * dims, "paddings": [0] * dims, "adaptive": True}),
                ("max", {"strides": [1] * dims, "paddings": [0, 1] * dims, "ceil_mode": True})]:
            kernel = [3] * dims
            y = np_pool_double_grad(x, x, kernel, pooling_type=pooling_type, **attrs)
            attrs = dict(attrs, pooling_type=pooling_type)
            if double:
                out.append(Sample([x, uniform(rng, x.shape), kernel], attrs))
            else:
                out.append(Sample([x, y, uniform(rng, y.shape), kernel], attrs))
        return out
    return samples


GRAD_REASON = ("second and third order gradients of pooling are checked numerically in "
               "ops/test_pool_gradients.py; a program's gradient op has no gradient of its own "
               "here (static double backward)")

POOL_OPS = [
    OpInfo("max_pool2d", F.max_pool2d, np_max_pool, _max_pool2d_samples, covers=["pool2d"],
           errors=_pool_errors(F.max_pool2d, 2, "max")),
    OpInfo("avg_pool2d", F.avg_pool2d, np_avg_pool, _avg_pool2d_samples, covers=["pool2d"],
           errors=_pool_errors(F.avg_pool2d, 2, "avg")),
    OpInfo("max_pool1d", F.max_pool1d, np_max_pool, _pool1d_samples("max"), covers=["pool2d"]),
    OpInfo("avg_pool1d", F.avg_pool1d, np_avg_pool, _pool1d_samples("avg"), covers=["pool2d"]),
    OpInfo("adaptive_avg_pool1d", F.adaptive_avg_pool1d, np_adaptive_avg_pool,
           _adaptive_avg_samples(1), covers=["pool2d"],
           errors=_adaptive_errors(F.adaptive_avg_pool1d, 1)),
    OpInfo("adaptive_avg_pool2d", F.adaptive_avg_pool2d, np_adaptive_avg_pool,
           _adaptive_avg_samples(2), covers=["pool2d"],
           errors=_adaptive_errors(F.adaptive_avg_pool2d, 2)),
    OpInfo("max_pool3d", F.max_pool3d, np_max_pool, _max_pool3d_samples, covers=["pool3d"],
           errors=_pool_errors(F.max_pool3d, 3, "max")),
    OpInfo("avg_pool3d", F.avg_pool3d, np_avg_pool, _avg_pool3d_samples, covers=["pool3d"],
           errors=_pool_errors(F.avg_pool3d, 3, "avg")),
    OpInfo("adaptive_avg_pool3d", F.adaptive_avg_pool3d, np_adaptive_avg_pool,
           _adaptive_avg_samples(3), covers=["pool3d"],
           errors=_adaptive_errors(F.adaptive_avg_pool3d, 3)),
    OpInfo("max_pool2d_with_index", F.max_pool2d, np_max_pool, _with_index_samples(2)),
    OpInfo("max_pool3d_with_index", F.max_pool3d, np_max_pool, _with_index_samples(3)),
    OpInfo("adaptive_max_pool1d", F.adaptive_max_pool1d, np_adaptive_max_pool,
           _adaptive_max_samples(1), covers=["max_pool2d_with_index"],
           errors=_adaptive_errors(F.adaptive_max_pool1d, 1)),
    OpInfo("adaptive_max_pool2d", F.adaptive_max_pool2d, np_adaptive_max_pool,
           _adaptive_max_samples(2), covers=["max_pool2d_with_index"],
           errors=_adaptive_errors(F.adaptive_max_pool2d, 2)),
    OpInfo("adaptive_max_pool3d", F.adaptive_max_pool3d, np_adaptive_max_pool,
           _adaptive_max_samples(3), covers=["max_pool3d_with_index"],
           errors=_adaptive_errors(F.adaptive_max_pool3d, 3)),
    OpInfo("lp_pool2d", F.lp_pool2d, np_lp_pool, _lp_samples(2), second_order=True,
           errors=_lp_errors(F.lp_pool2d, 2)),
    OpInfo("lp_pool1d", F.lp_pool1d, np_lp_pool, _lp_samples(1), covers=["lp_pool2d"],
           errors=_lp_errors(F.lp_pool1d, 1)),
    OpInfo("unpool", F.max_unpool2d, np_max_unpool, _unpool_samples(2),
           second_order=True, no_second_order_reason="unpool is linear in x",
           errors=_unpool_errors(F.max_unpool2d, 2)),
    OpInfo("max_unpool1d", F.max_unpool1d, np_max_unpool, _unpool_samples(1), covers=["unpool"],
           errors=_unpool_errors(F.max_unpool1d, 1)),
    OpInfo("unpool3d", F.max_unpool3d, np_max_unpool, _unpool_samples(3),
           errors=_unpool_errors(F.max_unpool3d, 3)),
]

for _dims in (2, 3):
    POOL_OPS.append(OpInfo(f"pool{_dims}d_grad", pool_grad_api(f"pool{_dims}d_grad"),
                           np_pool_grad, _grad_samples(_dims, False), grad=False,
                           no_grad_reason=GRAD_REASON))
    POOL_OPS.append(OpInfo(f"pool{_dims}d_double_grad",
                           pool_double_grad_api(f"pool{_dims}d_double_grad"),
                           np_pool_double_grad, _grad_samples(_dims, True), grad=False,
                           no_grad_reason=GRAD_REASON))
