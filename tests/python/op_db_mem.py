"""Harness entries of fused_batch_norm_act (BuildStrategy.fuse_bn_act_ops) and its gradient op,
against batch_norm's NumPy references with the channels last, then relu."""
import numpy as np

import paddle
from harness import ErrorSample, OpInfo, Sample
from op_db import bn_np, bn_np_grad, program_op, uniform


def fused_bn_act_np(x, scale, bias, mean, variance, momentum=0.9, epsilon=1e-5, act_type="relu"):
    outs = bn_np(x, mean, variance, scale, bias, False, momentum, epsilon, "NHWC")
    return [np.maximum(outs[0], 0)] + outs[1:]


def fused_bn_act_op(x, scale, bias, mean, variance, momentum=0.9, epsilon=1e-5, act_type="relu"):
    return list(paddle._C_ops.fused_batch_norm_act(x, scale, bias, mean, variance, momentum,
                                                   epsilon, act_type))


def fused_bn_act_sample(rng, shape, **attrs):
    """x (kept away from the relu's kink after normalization by the gradient check's step),
    scale, bias and the running statistics; gradients for x, scale and bias."""
    channels = shape[-1]
    args = [uniform(rng, shape, -2, 2), uniform(rng, (channels,), 0.5, 1.5),
            uniform(rng, (channels,), -0.5, 0.5), uniform(rng, (channels,)),
            uniform(rng, (channels,), 0.5, 2)]
    return Sample(args, attrs, grad_args=[0, 1, 2])


def fused_bn_act_grad_op(x, scale, bias, out, saved_mean, saved_variance, reserve_space,
                         out_grad, momentum=0.9, epsilon=1e-5, act_type="relu"):
    return program_op("fused_batch_norm_act_grad",
                      {"X": x, "Scale": scale, "Bias": bias, "Y": out, "SavedMean": saved_mean,
                       "SavedVariance": saved_variance,
                       "ReserveSpace": reserve_space, "Y@GRAD": out_grad},
                      {"X@GRAD": "X", "Scale@GRAD": "Scale", "Bias@GRAD": "Scale"},
                      {"momentum": momentum, "epsilon": epsilon, "act_type": act_type})


def fused_bn_act_grad_np(x, scale, bias, out, saved_mean, saved_variance, reserve_space, out_grad,
                         **attrs):
    return bn_np_grad(x, scale, saved_mean, saved_variance, np.where(out > 0, out_grad, 0),
                      "NHWC")


def fused_bn_act_grad_sample(rng, shape):
    """x, scale, bias, the forward's relu output (zero in places), its saved statistics, its empty
    reserve_space and the output's gradient."""
    channels = shape[-1]
    x = uniform(rng, shape, -2, 2)
    scale, bias = uniform(rng, (channels,), 0.5, 1.5), uniform(rng, (channels,), -0.5, 0.5)
    out, _, _, saved_mean, inv_std, reserve_space = fused_bn_act_np(
        x, scale, bias, np.zeros(channels), np.ones(channels))
    return Sample([x, scale, bias, out, saved_mean, inv_std, reserve_space, uniform(rng, shape)])


def _errors():
    c3 = [np.ones(3), np.zeros(3), np.zeros(3), np.ones(3)]
    return [
        ErrorSample([np.zeros((2, 3))] + c3, {"act_type": "tanh"}, ValueError,
                    "fused_batch_norm_act: argument 'act_type'"),
        ErrorSample([np.zeros(3)] + c3, {}, ValueError, "fused_batch_norm_act: argument 'x'"),
        ErrorSample([np.zeros((2, 3, 4))] + c3, {}, ValueError,
                    "fused_batch_norm_act: argument 'scale'"),
        ErrorSample([np.zeros((2, 3)), np.ones(3), np.zeros(3), np.zeros(4), np.ones(3)], {},
                    ValueError, "fused_batch_norm_act: argument 'mean'"),
        ErrorSample([np.zeros((2, 3), dtype=np.int64)] + c3, {}, ValueError, "floating-point"),
    ]


MEM_OPS = [
    OpInfo("fused_batch_norm_act", fused_bn_act_op, fused_bn_act_np, lambda rng: [
        fused_bn_act_sample(rng, (2, 3, 2, 4)),                       # NHWC
        fused_bn_act_sample(rng, (6, 3), momentum=0.5, epsilon=1e-3),  # NC
        fused_bn_act_sample(rng, (2, 3, 5)),                           # NLC
        fused_bn_act_sample(rng, (2, 1, 2, 2, 3))],                    # NDHWC
        grad_outputs=[0], errors=_errors),
    OpInfo("fused_batch_norm_act_grad", fused_bn_act_grad_op, fused_bn_act_grad_np, lambda rng: [
        fused_bn_act_grad_sample(rng, (2, 3, 2, 4)),
        fused_bn_act_grad_sample(rng, (5, 3))],
        grad=False, no_grad_reason="a gradient kernel; its own gradient is not defined"),
]
