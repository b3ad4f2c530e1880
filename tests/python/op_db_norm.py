"""Harness entries (op_db.py) of group_norm, instance_norm, lrn, spectral_norm and
sync_batch_norm, their gradient kernels and their functional APIs, with NumPy references. No entry
checks a second order: each op's gradient is a kernel without a gradient of its own
(paddle/ops/backward/norm_grad.cc says why)."""
import numpy as np

import paddle
import paddle.nn.functional as F
from harness import ErrorSample, OpInfo, Sample
from op_db import bn_np, bn_sample, program_op, uniform


def checked_as_gradient_of(op):
    return (f"a gradient kernel without a gradient of its own; it is checked as the first-order "
            f"gradient of the {op} entry")


def channel_last(data_format):
    return data_format[-1] == "C" and data_format != "NC"


def to_channel_first(x, data_format):
    return np.moveaxis(x, -1, 1) if channel_last(data_format) else x


def to_layout(x, data_format):
    return np.moveaxis(x, 1, -1) if channel_last(data_format) else x


def channel_shape(x):
    """The shape that broadcasts a per-channel vector against a channel-first x."""
    return [1, x.shape[1]] + [1] * (x.ndim - 2)


def grouped(x, groups):
    """Channel-first x as [N, groups, elements of a group]."""
    spatial = int(np.prod(x.shape[2:]))
    return x.reshape(x.shape[0], groups, (x.shape[1] // groups) * spatial)


# ---------------------------------------------------------------- group_norm, instance_norm
def gn_np(x, scale=None, bias=None, epsilon=1e-5, groups=-1, data_format="NCHW"):
    """[y, mean, variance] of Paddle's group_norm: the biased variance; an empty group has mean
    and variance 0."""
    xc = to_channel_first(x, data_format)
    parts = grouped(xc, groups)
    count = max(parts.shape[2], 1)
    mean = parts.sum(axis=2) / count
    variance = ((parts - mean[..., None]) ** 2).sum(axis=2) / count
    y = ((parts - mean[..., None]) / np.sqrt(variance[..., None] + epsilon)).reshape(xc.shape)
    if scale is not None:
        y = y * scale.reshape(channel_shape(xc))
    if bias is not None:
        y = y + bias.reshape(channel_shape(xc))
    return [to_layout(y, data_format), mean, variance]


def gn_op(x, scale=None, bias=None, epsilon=1e-5, groups=-1, data_format="NCHW"):
    return list(paddle._C_ops.group_norm(x, scale, bias, epsilon, groups, data_format))


def gn_np_functional(x, num_groups, epsilon=1e-5, weight=None, bias=None, data_format="NCHW"):
    return gn_np(x, weight, bias, epsilon, num_groups, data_format)[0]


def gn_np_grad(x, scale, mean, variance, y_grad, epsilon=1e-5, groups=-1, data_format="NCHW"):
    """[x_grad, scale_grad, bias_grad] of group_norm from its saved mean and variance."""
    xc, dy = to_channel_first(x, data_format), to_channel_first(y_grad, data_format)
    rstd = 1 / np.sqrt(variance + epsilon)
    xhat = (grouped(xc, groups) - mean[..., None]) * rstd[..., None]
    g = grouped(dy * scale.reshape(channel_shape(xc)), groups)
    count = max(g.shape[2], 1)
    mean_g = g.sum(axis=2, keepdims=True) / count
    mean_g_xhat = (g * xhat).sum(axis=2, keepdims=True) / count
    x_grad = (rstd[..., None] * (g - mean_g - xhat * mean_g_xhat)).reshape(xc.shape)
    axes = tuple(i for i in range(xc.ndim) if i != 1)
    scale_grad = (dy * xhat.reshape(xc.shape)).sum(axis=axes)
    return [to_layout(x_grad, data_format), scale_grad, dy.sum(axis=axes)]


def statistics_of(statistic, x):
    """A saved statistic as the op holds it: float32 beside a 16-bit x."""
    return statistic.astype("float32") if x.dtype in (paddle.float16, paddle.bfloat16) else statistic


def gn_grad_op(x, scale, mean, variance, y_grad, epsilon=1e-5, groups=-1, data_format="NCHW"):
    mean, variance = statistics_of(mean, x), statistics_of(variance, x)
    return program_op("group_norm_grad",
                      {"X": x, "Scale": scale, "Mean": mean, "Variance": variance, "Y@GRAD": y_grad},
                      {"X@GRAD": "X", "Scale@GRAD": "Scale", "Bias@GRAD": "Scale"},
                      {"epsilon": epsilon, "groups": groups, "data_layout": data_format})


def gn_sample(rng, shape, groups, data_format="NCHW", affine=(True, True), **attrs):
    channels = shape[-1] if channel_last(data_format) else shape[1]
    scale = uniform(rng, (channels,), 0.5, 1.5) if affine[0] else None
    bias = uniform(rng, (channels,)) if affine[1] else None
    return Sample([uniform(rng, shape, -2, 2), scale, bias],
                  dict(attrs, groups=groups, data_format=data_format))


def gn_grad_sample(rng, shape, groups, data_format="NCHW"):
    """x, scale, the saved mean and variance ([N, groups]) and y's gradient."""
    channels = shape[-1] if channel_last(data_format) else shape[1]
    return Sample([uniform(rng, shape, -2, 2), uniform(rng, (channels,), 0.5, 1.5),
                   uniform(rng, (shape[0], groups), -0.5, 0.5), uniform(rng, (shape[0], groups), 0.5, 2),
                   uniform(rng, shape)], {"groups": groups, "data_format": data_format})


def in_np(x, scale=None, bias=None, epsilon=1e-5):
    """[y, saved_mean, saved_variance] of Paddle's instance_norm: the saved variance is
    1 / sqrt(variance + epsilon), both [N * C]."""
    y, mean, variance = gn_np(x, scale, bias, epsilon, x.shape[1])
    return [y, mean.reshape(-1), (1 / np.sqrt(variance + epsilon)).reshape(-1)]


def in_op(x, scale=None, bias=None, epsilon=1e-5):
    return list(paddle._C_ops.instance_norm(x, scale, bias, epsilon))


def in_np_functional(x, running_mean=None, running_var=None, weight=None, bias=None,
                     use_input_stats=True, momentum=0.9, eps=1e-5, data_format="NCHW"):
    return in_np(x, weight, bias, eps)[0]


def in_np_grad(x, scale, saved_mean, saved_variance, y_grad, epsilon=1e-5):
    groups = x.shape[1]
    shape = (x.shape[0], groups)
    variance = saved_variance.reshape(shape) ** -2 - epsilon  # back from 1 / sqrt(var + eps)
    return gn_np_grad(x, scale, saved_mean.reshape(shape), variance, y_grad, epsilon, groups)


def in_grad_op(x, scale, saved_mean, saved_variance, y_grad, epsilon=1e-5):
    saved_mean, saved_variance = statistics_of(saved_mean, x), statistics_of(saved_variance, x)
    return program_op("instance_norm_grad",
                      {"X": x, "Scale": scale, "SavedMean": saved_mean, "SavedVariance": saved_variance,
                       "Y@GRAD": y_grad},
                      {"X@GRAD": "X", "Scale@GRAD": "Scale", "Bias@GRAD": "Scale"}, {"epsilon": epsilon})


def in_sample(rng, shape, affine=(True, True), **attrs):
    scale = uniform(rng, (shape[1],), 0.5, 1.5) if affine[0] else None
    bias = uniform(rng, (shape[1],)) if affine[1] else None
    return Sample([uniform(rng, shape, -2, 2), scale, bias], attrs)


def in_functional_samples(rng):
    affine = {"weight": uniform(rng, (3,), 0.5, 1.5), "bias": uniform(rng, (3,)), "eps": 1e-3,
              "data_format": "NCL"}
    # running_mean, running_var, use_input_stats and momentum are unused, as in Paddle.
    running = [uniform(rng, (2,)), uniform(rng, (2,), 0.5, 1)]
    unused = {"use_input_stats": False, "momentum": 0.5}
    return [Sample([uniform(rng, (2, 3, 4, 4), -2, 2)]),
            Sample([uniform(rng, (2, 3, 5), -2, 2)], affine),
            Sample([uniform(rng, (2, 2, 3), -2, 2)] + running, unused, grad_args=[0])]


def in_grad_sample(rng, shape):
    rows = shape[0] * shape[1]
    return Sample([uniform(rng, shape, -2, 2), uniform(rng, (shape[1],), 0.5, 1.5),
                   uniform(rng, (rows,), -0.5, 0.5), uniform(rng, (rows,), 0.5, 2), uniform(rng, shape)])


GROUP_NORM_OPS = [
    OpInfo("group_norm", gn_op, gn_np, lambda rng: [
        gn_sample(rng, (2, 6, 3, 2), 3),
        gn_sample(rng, (2, 3, 2, 4), 2, "NHWC", epsilon=1e-3),
        gn_sample(rng, (3, 4, 5), 4, "NCL", affine=(False, True)),
        gn_sample(rng, (2, 5, 4), 1, "NLC", affine=(True, False)),
        gn_sample(rng, (4, 6), 2, affine=(False, False)),                     # [N, C]
        gn_sample(rng, (1, 2, 2, 3, 4), 2, "NDHWC"),
        gn_sample(rng, (2, 4, 1, 3, 2), 4, "NCDHW"),                          # one channel per group
        gn_sample(rng, (0, 4, 3), 2)],
        grad_outputs=[0],
        errors=lambda: [
            ErrorSample([np.zeros((2, 6, 3)), None, None], {"groups": 4}, ValueError,
                        "divisible by 'groups'"),
            ErrorSample([np.zeros((2, 6, 3)), None, None], {"groups": 0}, ValueError, "'groups' must be"),
            ErrorSample([np.zeros((2, 6, 3)), np.ones(5), None], {"groups": 2}, ValueError,
                        "group_norm: argument 'scale'"),
            ErrorSample([np.zeros((2, 3, 6)), None, np.ones((6, 1))], {"groups": 2, "data_format": "NLC"},
                        ValueError, "group_norm: argument 'bias'"),
            ErrorSample([np.zeros((2, 6, 3)), None, None], {"groups": 2, "data_format": "CHWN"}, ValueError,
                        "'data_format'"),
            ErrorSample([np.zeros(6), None, None], {"groups": 2}, ValueError, "at least 2 dims"),
            ErrorSample([np.zeros((2, 6), dtype=np.int64), None, None], {"groups": 2}, ValueError,
                        "floating-point")]),
    OpInfo("group_norm_functional", F.group_norm, gn_np_functional, lambda rng: [
        Sample([uniform(rng, (2, 4, 3, 3), -2, 2), 2, 1e-5, uniform(rng, (4,), 0.5, 1.5),
                uniform(rng, (4,))]),
        Sample([uniform(rng, (2, 3, 6), -2, 2), 3], {"data_format": "NLC", "weight": uniform(rng, (6,))}),
        Sample([uniform(rng, (1, 4, 2, 2, 2), -2, 2), 2], {"data_format": "NCDHW", "epsilon": 1e-2})],
        covers=["group_norm"],
        errors=lambda: [
            ErrorSample([np.zeros((2, 4, 3)), 2], {"data_format": "NCWH"}, ValueError,
                        "unsupported data layout"),
            ErrorSample([np.zeros((2, 4, 3)), 3], {}, ValueError, "divisible by 'groups'"),
            ErrorSample([[1.0, 2.0], 1], {}, TypeError, "group_norm(): argument 'x' must be a Tensor")]),
    OpInfo("group_norm_grad", gn_grad_op, gn_np_grad, lambda rng: [
        gn_grad_sample(rng, (2, 6, 3, 2), 3),
        gn_grad_sample(rng, (2, 3, 2, 4), 2, "NHWC"),
        gn_grad_sample(rng, (3, 4), 4),
        gn_grad_sample(rng, (1, 2, 2, 1, 6), 3, "NDHWC")],
        grad=False, no_grad_reason=checked_as_gradient_of("group_norm")),
    OpInfo("instance_norm", in_op, in_np, lambda rng: [
        in_sample(rng, (2, 3, 4, 2)),
        in_sample(rng, (3, 2, 5), affine=(False, True), epsilon=1e-3),
        in_sample(rng, (2, 4), affine=(True, False)),                           # one element each
        in_sample(rng, (1, 2, 2, 3, 2), affine=(False, False)),
        in_sample(rng, (0, 3, 2))],
        grad_outputs=[0],
        errors=lambda: [
            ErrorSample([np.zeros(4), None, None], {}, ValueError, "2-D to 5-D"),
            ErrorSample([np.zeros((1, 2, 1, 1, 1, 2)), None, None], {}, ValueError, "2-D to 5-D"),
            ErrorSample([np.zeros((2, 3, 4)), np.ones(4), None], {}, ValueError,
                        "instance_norm: argument 'scale'"),
            ErrorSample([np.zeros((2, 3, 4)), None, np.ones(2)], {}, ValueError,
                        "instance_norm: argument 'bias'"),
            ErrorSample([np.zeros((2, 3), dtype=np.int32), None, None], {}, ValueError, "floating-point")]),
    OpInfo("instance_norm_functional", F.instance_norm, in_np_functional, in_functional_samples,
           covers=["instance_norm"], errors=lambda: [
               ErrorSample([np.zeros((2, 4, 3, 3))], {"data_format": "NHWC"}, ValueError, "channels first"),
               ErrorSample([[1.0, 2.0]], {}, TypeError, "instance_norm(): argument 'x' must be a Tensor")]),
    OpInfo("instance_norm_grad", in_grad_op, in_np_grad, lambda rng: [
        in_grad_sample(rng, (2, 3, 4, 2)),
        in_grad_sample(rng, (3, 2, 5)),
        in_grad_sample(rng, (2, 2, 1, 3, 2))],
        grad=False, no_grad_reason=checked_as_gradient_of("instance_norm")),
]


# ---------------------------------------------------------------- lrn, local_response_norm
def lrn_window_sums(values, before, after):
    """Per channel c (axis 1), the sum of values over channels [c - before, c + after]."""
    channels = values.shape[1]
    sums = np.zeros_like(values)
    for c in range(channels):
        sums[:, c] = values[:, max(0, c - before):min(channels, c + after + 1)].sum(axis=1)
    return sums


def lrn_np(x, n=5, k=2.0, alpha=1e-4, beta=0.75, data_format="NCHW"):
    """[out, mid_out] of Paddle's lrn (the window of norm.yaml)."""
    xc = to_channel_first(x, data_format)
    # The op holds k, alpha and beta as float32 attributes.
    k, alpha, beta = (float(np.float32(a)) for a in (k, alpha, beta))
    mid = k + alpha * lrn_window_sums(xc * xc, n // 2, (n - 1) // 2)
    return [to_layout(xc * mid ** -beta, data_format), to_layout(mid, data_format)]


def lrn_op(x, n=5, k=2.0, alpha=1e-4, beta=0.75, data_format="NCHW"):
    return list(paddle._C_ops.lrn(x, n, k, alpha, beta, data_format))


def lrn_np_functional(x, size, alpha=1e-4, beta=0.75, k=1.0, data_format="NCHW"):
    return lrn_np(x, size, k, alpha / size, beta, data_format)[0]


def lrn_np_grad(x, out, mid_out, out_grad, n=5, alpha=1e-4, beta=0.75, data_format="NCHW"):
    xc, y, mid, dy = (to_channel_first(a, data_format) for a in (x, out, mid_out, out_grad))
    alpha, beta = float(np.float32(alpha)), float(np.float32(beta))
    # out_c reads x_i for c in [i - (n - 1) // 2, i + n // 2]: the window transposed.
    window = lrn_window_sums(dy * y / mid, (n - 1) // 2, n // 2)
    return to_layout(dy * mid ** -beta - 2 * alpha * beta * xc * window, data_format)


def lrn_grad_op(x, out, mid_out, out_grad, n=5, alpha=1e-4, beta=0.75, data_format="NCHW"):
    return program_op("lrn_grad", {"X": x, "Out": out, "MidOut": mid_out, "Out@GRAD": out_grad},
                      {"X@GRAD": "X"}, {"n": n, "alpha": alpha, "beta": beta, "data_format": data_format})[0]


def lrn_grad_sample(rng, shape, **attrs):
    """x, out, mid_out (positive) and out's gradient: the kernel's formula holds for any of them."""
    return Sample([uniform(rng, shape, -2, 2), uniform(rng, shape), uniform(rng, shape, 1, 2),
                   uniform(rng, shape)], attrs)


LRN_OPS = [
    OpInfo("lrn", lrn_op, lrn_np, lambda rng: [
        Sample([uniform(rng, (2, 6, 3, 2), -2, 2)], {"n": 3, "alpha": 0.3, "k": 1.0}),
        Sample([uniform(rng, (2, 3, 2, 5), -2, 2)], {"alpha": 0.2, "beta": 0.6, "data_format": "NHWC"}),
        Sample([uniform(rng, (2, 7, 4), -2, 2)], {"n": 4, "alpha": 0.5, "beta": 1.5}),   # even n
        Sample([uniform(rng, (1, 2, 2, 3, 5), -2, 2)], {"n": 1, "alpha": 0.4, "data_format": "NDHWC"}),
        Sample([uniform(rng, (2, 3, 2, 2), -2, 2)], {"n": 9, "alpha": 0.1}),             # n > C
        Sample([uniform(rng, (1, 4, 3, 3), -2, 2)], {"data_format": "AnyLayout"})],      # Paddle's defaults
        grad_outputs=[0],
        errors=lambda: [
            ErrorSample([np.zeros((2, 4, 3, 3))], {"n": 0}, ValueError, "lrn: attribute 'n'"),
            ErrorSample([np.zeros((2, 4))], {}, ValueError, "3-D to 5-D"),
            ErrorSample([np.zeros((2, 4, 3, 3))], {"data_format": "HWCN"}, ValueError, "'data_format'"),
            ErrorSample([np.zeros((2, 4, 3), dtype=np.int64)], {}, ValueError, "floating-point")]),
    OpInfo("local_response_norm", F.local_response_norm, lrn_np_functional, lambda rng: [
        Sample([uniform(rng, (2, 6, 3, 3), -2, 2), 5], {"alpha": 0.5}),
        Sample([uniform(rng, (2, 4, 5), -2, 2), 2],
               {"alpha": 0.3, "beta": 0.5, "k": 2.0, "data_format": "NLC"}),
        Sample([uniform(rng, (1, 5, 2, 2, 3), -2, 2), 3], {"alpha": 0.8, "data_format": "NCDHW"})],
        covers=["lrn"],
        errors=lambda: [
            ErrorSample([np.zeros((2, 4, 3, 3)), 3], {"data_format": "NCWH"}, ValueError, "data_format"),
            ErrorSample([np.zeros((2, 4)), 3], {}, ValueError, "Expected 3D or higher"),
            ErrorSample([np.zeros((2, 0, 3)), 3], {}, ValueError, "larger than 0"),
            ErrorSample([np.zeros((2, 4, 3)), 0], {}, ValueError, "'size' must be a positive int")]),
    OpInfo("lrn_grad", lrn_grad_op, lrn_np_grad, lambda rng: [
        lrn_grad_sample(rng, (2, 5, 3, 2), n=3, alpha=0.3, beta=0.75),
        lrn_grad_sample(rng, (2, 3, 2, 6), n=4, alpha=0.2, beta=0.6, data_format="NHWC"),
        lrn_grad_sample(rng, (1, 4, 5), n=5, alpha=0.5, beta=1.2)],
        grad=False, no_grad_reason=checked_as_gradient_of("lrn")),
]


# ---------------------------------------------------------------- spectral_norm
def sn_matrix(weight, dim):
    return np.moveaxis(weight, dim, 0).reshape(weight.shape[dim], -1)


def sn_iterate(weight, u, v, dim, power_iters, eps):
    """The iterated u and v and sigma of Paddle's spectral_norm."""
    w = sn_matrix(weight, dim)
    eps = float(np.float32(eps))
    for _ in range(power_iters):
        v = w.T @ u
        v = v / (np.linalg.norm(v) + eps)
        u = w @ v
        u = u / (np.linalg.norm(u) + eps)
    return u, v, u @ w @ v


def sn_np(weight, u, v, dim=0, power_iters=1, eps=1e-12):
    return weight / sn_iterate(weight, u, v, dim, power_iters, eps)[2]


def sn_np_grad(weight, u, v, out_grad, dim=0, power_iters=1, eps=1e-12):
    """(out_grad - sum(out_grad * out) u v^T) / sigma, u v^T laid out like weight."""
    u, v, sigma = sn_iterate(weight, u, v, dim, power_iters, eps)
    moved = np.moveaxis(weight, dim, 0).shape
    uv = np.moveaxis(np.outer(u, v).reshape(moved), 0, dim)
    return (out_grad - (out_grad * weight).sum() / sigma * uv) / sigma


def sn_grad_op(weight, u, v, out_grad, dim=0, power_iters=1, eps=1e-12):
    return program_op("spectral_norm_grad", {"Weight": weight, "U": u, "V": v, "Out@GRAD": out_grad},
                      {"Weight@GRAD": "Weight"}, {"dim": dim, "power_iters": power_iters, "eps": eps})[0]


def sn_grad_sample(rng, shape, dim=0, **attrs):
    """weight, u, v and out's gradient."""
    h = shape[dim]
    return Sample([uniform(rng, shape), uniform(rng, (h,)), uniform(rng, (int(np.prod(shape)) // h,)),
                   uniform(rng, shape)], dict(attrs, dim=dim))


def sn_sample(rng, shape, dim=0, converged=False, **attrs):
    """weight, u and v; with `converged`, u and v are weight's top singular vectors, where the
    power iteration stays, so the gradient for constant u and v is the exact one."""
    weight = uniform(rng, shape)
    if converged:
        left, _, right = np.linalg.svd(sn_matrix(weight, dim))
        return Sample([weight, left[:, 0], right[0]], dict(attrs, dim=dim), grad_args=[0])
    h = shape[dim]
    # u and v are not the converged singular vectors, so their changes with weight would count
    # in the numeric gradient, which the op (like Paddle's) leaves out.
    return Sample([weight, uniform(rng, (h,)), uniform(rng, (weight.size // h,))], dict(attrs, dim=dim),
                  grad_args=[])


SPECTRAL_NORM_OPS = [
    OpInfo("spectral_norm", paddle._C_ops.spectral_norm, sn_np, lambda rng: [
        sn_sample(rng, (4, 6)),
        sn_sample(rng, (3, 4, 2, 2), dim=1, power_iters=3),
        sn_sample(rng, (2, 3, 4), dim=2, power_iters=0),
        sn_sample(rng, (5, 3), converged=True),
        sn_sample(rng, (2, 4, 3, 3), dim=1, converged=True, power_iters=2),
        sn_sample(rng, (3, 2, 4), dim=2, converged=True, eps=1e-6)],
        errors=lambda: [
            ErrorSample([np.zeros((4, 6)), np.ones(4), np.ones(6), 2], {}, ValueError,
                        "'dim' must be in [0, 2)"),
            ErrorSample([np.zeros((4, 6)), np.ones(4), np.ones(6)], {"power_iters": -1}, ValueError,
                        "'power_iters'"),
            ErrorSample([np.zeros((4, 6)), np.ones(6), np.ones(6)], {}, ValueError,
                        "spectral_norm: argument 'u'"),
            ErrorSample([np.zeros((2, 3, 4)), np.ones(3), np.ones(4), 1], {}, ValueError,
                        "spectral_norm: argument 'v'"),
            ErrorSample([np.zeros(4), np.ones(4), np.ones(1)], {}, ValueError, "at least 2 dims"),
            ErrorSample([np.zeros((4, 6), dtype=np.int32), np.ones(4), np.ones(6)], {}, ValueError,
                        "floating-point")]),
    OpInfo("spectral_norm_grad", sn_grad_op, sn_np_grad, lambda rng: [
        sn_grad_sample(rng, (4, 6)),
        sn_grad_sample(rng, (3, 4, 2), dim=1, power_iters=2)],
        grad=False, no_grad_reason=checked_as_gradient_of("spectral_norm")),
]


# ---------------------------------------------------------------- sync_batch_norm
def sync_bn_op(x, mean, variance, scale=None, bias=None, is_test=False, momentum=0.9, epsilon=1e-5,
               data_format="NCHW", use_global_stats=False, trainable_statistics=False):
    return list(paddle._C_ops.sync_batch_norm(x, mean, variance, scale, bias, is_test, momentum, epsilon,
                                              data_format, use_global_stats, trainable_statistics))


SYNC_BATCH_NORM_OPS = [
    # batch_norm in a single process: batch_norm's reference.
    OpInfo("sync_batch_norm", sync_bn_op, bn_np, lambda rng: [
        bn_sample(rng, (2, 3, 2, 2), 3),
        bn_sample(rng, (2, 3, 4), 3, is_test=True),
        bn_sample(rng, (2, 2, 3, 4), 4, affine=False, data_format="NHWC", momentum=0.5),
        bn_sample(rng, (1, 3), 3)],
        grad_outputs=[0],
        errors=lambda: [
            ErrorSample([np.zeros((2, 3)), np.zeros(4), np.ones(3)], {}, ValueError, "argument 'mean'"),
            ErrorSample([np.zeros((2, 3)), np.zeros(3), np.ones(3)], {"data_format": "CN"}, ValueError,
                        "data_format")]),
]

NORMALIZATION_OPS = GROUP_NORM_OPS + LRN_OPS + SPECTRAL_NORM_OPS + SYNC_BATCH_NORM_OPS
