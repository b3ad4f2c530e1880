"""Harness entries of the activations of paddle.nn (hardswish, elu, prelu, maxout, rrelu, ...),
with NumPy references from Paddle's documented formulas. op_db.py adds ACT_OPS to OP_DB."""
import numpy as np

import paddle
import paddle.nn.functional as F
from harness import FLOAT_DTYPES, ErrorSample, OpInfo, Sample
from op_db import away_from_zero, distinct, gelu, sigmoid, uniform

_C_ops = paddle._C_ops

PIECEWISE_LINEAR = "piecewise linear: the gradient is constant on each piece, where the samples stay"
NOT_A_TENSOR = ErrorSample([[1.0, 2.0]], {}, TypeError, "must be a Tensor")


def activation(name, api, ref, make=uniform, attrs=(), second_order=True, errors=(), **kwargs):
    """An entry whose samples are x of shapes (3, 4), () and (2, 0) with the default attributes,
    then x of shape (3, 4) with each dict of `attrs`."""
    def samples(rng):
        return ([Sample([make(rng, (3, 4))]), Sample([make(rng, ())]), Sample([make(rng, (2, 0))])]
                + [Sample([make(rng, (3, 4))], dict(a)) for a in attrs])
    return OpInfo(name, api, ref, samples, second_order=second_order,
                  errors=lambda: [NOT_A_TENSOR, *errors], **kwargs)


def spread(low, high):
    return lambda rng, shape: uniform(rng, shape, low, high)


# ---------------------------------------------------------------- references
def np_hardsigmoid(x, slope=0.1666667, offset=0.5):
    return np.clip(slope * x + offset, 0.0, 1.0)


def np_softplus(x, beta=1.0, threshold=20.0):
    scaled = beta * x
    return np.where(scaled > threshold, x, np.log1p(np.exp(np.minimum(scaled, threshold))) / beta)


def np_mish(x, threshold=20.0):
    softplus = np.where(x > threshold, x, np.log1p(np.exp(np.minimum(x, threshold))))
    return x * np.tanh(softplus)


def np_elu(x, alpha=1.0):
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))


def np_selu(x, scale=1.0507009873554804934193349852946, alpha=1.6732632423543772848170429916717):
    return scale * np_elu(x, alpha)


def np_celu(x, alpha=1.0):
    return np.maximum(0, x) + np.minimum(0, alpha * np.expm1(x / alpha))


def np_leaky_relu(x, negative_slope=0.01):
    return np.where(x > 0, x, negative_slope * x)


def np_softshrink(x, threshold=0.5):
    return np.where(x > threshold, x - threshold, np.where(x < -threshold, x + threshold, 0.0))


def np_hardshrink(x, threshold=0.5):
    return np.where((x > threshold) | (x < -threshold), x, 0.0)


def np_thresholded_relu(x, threshold=1.0, value=0.0):
    return np.where(x > threshold, x, value)


def np_log_sigmoid(x):
    return np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))


def np_maxout(x, groups, axis=1):
    n, c, h, w = x.shape if axis == 1 else (x.shape[0], x.shape[3], x.shape[1], x.shape[2])
    if axis == 1:
        return x.reshape(n, c // groups, groups, h, w).max(axis=2)
    return x.reshape(n, h, w, c // groups, groups).max(axis=4)


def np_prelu(x, alpha, data_format="NCHW", mode="all"):
    if mode == "channel":
        channel = 1 if data_format[1] == "C" else x.ndim - 1
        alpha = alpha.reshape([-1] + [1] * (x.ndim - channel - 1))
    elif mode == "element":
        alpha = alpha.reshape(x.shape[1:])
    else:
        alpha = alpha.reshape([])
    return np.where(x > 0, x, alpha * x)


def np_prelu_functional(x, weight, data_format="NCHW"):
    mode = "channel" if weight.ndim == 1 and weight.shape[0] > 1 else "all"
    return np_prelu(x, weight, data_format, mode)


def np_glu(x, axis=-1):
    a, b = np.split(x, 2, axis=axis)
    return a * sigmoid(b)


# ---------------------------------------------------------------- elementwise activations
ELEMENTWISE = [
    activation("hardswish", F.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6, make=spread(-5, 5)),
    activation("hardsigmoid", F.hardsigmoid, np_hardsigmoid, make=spread(-4, 4),
               attrs=[{"slope": 0.2, "offset": 0.3}], no_second_order_reason=PIECEWISE_LINEAR),
    activation("swish", F.swish, lambda x: x * sigmoid(x), make=spread(-4, 4)),
    # _C_ops.mish: F.mish always takes threshold 20, the 1.5 sample crosses it.
    activation("mish", lambda x, threshold=20.0: _C_ops.mish(x, threshold), np_mish,
               make=spread(-3, 3), attrs=[{"threshold": 1.5}]),
    activation("relu6", F.relu6, lambda x: np.clip(x, 0, 6), make=spread(-2, 8),
               no_second_order_reason=PIECEWISE_LINEAR),
    activation("hardtanh", F.hardtanh, lambda x, min=-1.0, max=1.0: np.clip(x, min, max),
               make=spread(-2, 2), attrs=[{"min": -0.5, "max": 1.5}, {"min": 0.3, "max": 0.3}],
               no_second_order_reason=PIECEWISE_LINEAR,
               errors=[ErrorSample([np.zeros(3)], {"min": 1.0, "max": -1.0}, ValueError,
                                   "hardtanh: argument 'min'")]),
    # A negative alpha takes the rule's branch that reads x (Note [In-place activations]).
    activation("elu", F.elu, np_elu, make=spread(-3, 3), attrs=[{"alpha": 0.4}, {"alpha": -0.7}]),
    activation("selu", F.selu, np_selu, make=spread(-3, 3), attrs=[{"scale": 1.5, "alpha": 0.5}],
               errors=[ErrorSample([np.zeros(3)], {"scale": 0.5}, ValueError, "selu: argument 'scale'"),
                       ErrorSample([np.zeros(3)], {"alpha": -1.0}, ValueError, "selu: argument 'alpha'")]),
    activation("celu", F.celu, np_celu, make=spread(-3, 3), attrs=[{"alpha": 0.5}, {"alpha": -2.0}],
               errors=[ErrorSample([np.zeros(3)], {"alpha": 0.0}, ValueError, "celu: argument 'alpha'")]),
    activation("leaky_relu", F.leaky_relu, np_leaky_relu, make=away_from_zero,
               attrs=[{"negative_slope": 0.2}, {"negative_slope": -0.3}],
               no_second_order_reason=PIECEWISE_LINEAR),
    # beta 2 with threshold 1.5 crosses the linear branch.
    activation("softplus", F.softplus, np_softplus, make=spread(-3, 3),
               attrs=[{"beta": 2.0, "threshold": 1.5}, {"beta": 0.5}]),
    activation("softsign", F.softsign, lambda x: x / (1 + np.abs(x)), make=away_from_zero),
    activation("tanh_shrink", F.tanhshrink, lambda x: x - np.tanh(x), make=spread(-2, 2)),
    activation("softshrink", F.softshrink, np_softshrink, make=spread(-1.5, 1.5),
               attrs=[{"threshold": 0.2}, {"threshold": 0.0}], no_second_order_reason=PIECEWISE_LINEAR,
               errors=[ErrorSample([np.zeros(3)], {"threshold": -1.0}, ValueError,
                                   "softshrink: argument 'threshold'")]),
    # A negative threshold keeps every x.
    activation("hardshrink", F.hardshrink, np_hardshrink, make=spread(-1.5, 1.5),
               attrs=[{"threshold": 0.2}, {"threshold": -0.1}], no_second_order_reason=PIECEWISE_LINEAR),
    # value > threshold takes the rule's branch that reads x.
    activation("thresholded_relu", F.thresholded_relu, np_thresholded_relu, make=spread(-2, 2),
               attrs=[{"threshold": 0.3, "value": -0.5}, {"threshold": -0.2, "value": 0.4}],
               no_second_order_reason=PIECEWISE_LINEAR),
    activation("logsigmoid", F.log_sigmoid, np_log_sigmoid, make=spread(-6, 6)),
    # F.gelu's string forms of `approximate` (Paddle 3): "tanh" is True, "none" False.
    OpInfo("gelu_functional", F.gelu,
           lambda x, approximate=False: gelu(x, approximate in (True, "tanh")), lambda rng: [
            Sample([uniform(rng, (3, 4), -2, 2)], {"approximate": "tanh"}),
            Sample([uniform(rng, (3, 4), -2, 2)], {"approximate": "none"}),
            Sample([uniform(rng, (5,), -2, 2)], {"approximate": True})],
           covers=["gelu"], second_order=True,
           errors=lambda: [ErrorSample([np.zeros(3)], {"approximate": "erf"}, ValueError,
                                       "gelu(): argument 'approximate'")]),
]


# ---------------------------------------------------------------- maxout, prelu, glu
MAXOUT = OpInfo("maxout", F.maxout, np_maxout, lambda rng: [
    Sample([distinct(rng, (2, 6, 3, 2)), 2]),
    Sample([distinct(rng, (1, 2, 2, 6)), 3], {"axis": -1}),
    Sample([distinct(rng, (2, 1, 3, 4)), 4], {"axis": 3}),
    Sample([distinct(rng, (0, 4, 2, 2)), 2])],
    second_order=True,
    no_second_order_reason="the gradient routes out_grad to the maximum of each group, which stays "
                           "put around the samples (whose values are distinct)",
    errors=lambda: [
        ErrorSample([np.zeros((1, 6, 2, 2)), 4], {}, ValueError, "divisible by 'groups' = 4"),
        ErrorSample([np.zeros((1, 6, 2, 2)), 1], {}, ValueError, "maxout: argument 'groups'"),
        ErrorSample([np.zeros((1, 6, 2, 2)), 2], {"axis": 2}, ValueError, "maxout: argument 'axis'"),
        ErrorSample([np.zeros((6, 2, 2)), 2], {}, ValueError, "must be a 4-D tensor"),
        ErrorSample([[1.0, 2.0], 2], {}, TypeError, "must be a Tensor")])


def slopes(rng, shape):
    return uniform(rng, shape, 0.1, 0.6)


PRELU = [
    # F.prelu: "all" for a weight of one value, "channel" for one per channel of data_format.
    OpInfo("prelu", F.prelu, np_prelu_functional, lambda rng: [
        Sample([away_from_zero(rng, (2, 3, 2, 2)), slopes(rng, (1,))]),
        Sample([away_from_zero(rng, (2, 3, 2, 2)), slopes(rng, (3,))]),
        Sample([away_from_zero(rng, (2, 2, 2, 3)), slopes(rng, (3,))], {"data_format": "NHWC"}),
        Sample([away_from_zero(rng, (4, 3, 5)), slopes(rng, (5,))], {"data_format": "NLC"}),
        Sample([away_from_zero(rng, (2, 3)), slopes(rng, (3,))], {"data_format": "NC"}),
        Sample([away_from_zero(rng, (2, 3)), slopes(rng, ())]),
        Sample([away_from_zero(rng, (0, 3)), slopes(rng, (3,))])],
        second_order=True,
        errors=lambda: [
            ErrorSample([np.zeros((2, 3, 2, 2)), np.ones(4)], {}, ValueError,
                        "prelu: argument 'alpha' must hold one value per channel"),
            ErrorSample([np.zeros((2, 3, 2, 2)), np.ones(3)], {"data_format": "NCWH"}, ValueError,
                        "'data_format'"),
            ErrorSample([np.zeros((2, 3)), np.ones((1, 3))], {}, ValueError,
                        "prelu(): argument 'weight' must be 0-D or 1-D"),
            ErrorSample([np.zeros(3), [0.25]], {}, TypeError, "'weight' must be a Tensor")]),
    # The op itself, in the mode F.prelu never picks ("element") and with bad modes.
    OpInfo("prelu_element", lambda x, alpha, data_format="NCHW", mode="element":
           _C_ops.prelu(x, alpha, data_format, mode),
           lambda x, alpha, data_format="NCHW", mode="element": np_prelu(x, alpha, data_format, mode),
           lambda rng: [
               Sample([away_from_zero(rng, (2, 3, 2)), slopes(rng, (3, 2))]),
               Sample([away_from_zero(rng, (3, 4)), slopes(rng, (4,))]),
               Sample([away_from_zero(rng, (2, 2, 3)), slopes(rng, (3,))],
                      {"data_format": "NHWC", "mode": "channel"})],
           covers=["prelu"], second_order=True,
           errors=lambda: [
               ErrorSample([np.zeros((2, 3, 2)), np.ones(3)], {}, ValueError,
                           "one value per element of a sample of x (6"),
               ErrorSample([np.zeros((2, 3)), np.ones(1)], {"mode": "each"}, ValueError,
                           "prelu: argument 'mode'"),
               ErrorSample([np.zeros((2, 3)), np.ones(3, dtype=np.float32)], {}, TypeError,
                           "prelu: argument 'alpha' must have x's dtype")]),
]

GLU = OpInfo("glu", F.glu, np_glu, lambda rng: [
    Sample([uniform(rng, (3, 4))]), Sample([uniform(rng, (2, 6, 3))], {"axis": 1}),
    Sample([uniform(rng, (4, 2))], {"axis": -2})],
    covers=["split", "sigmoid", "multiply"], only_dtypes=FLOAT_DTYPES, second_order=True,
    errors=lambda: [ErrorSample([np.zeros((2, 3))], {"axis": 2}, ValueError, "glu(): argument 'axis'"),
                    ErrorSample([[1.0, 2.0]], {}, TypeError, "must be a Tensor")])


# ---------------------------------------------------------------- rrelu
# A random op: values are checked by rrelu_check (x kept where x >= 0, a slope in [lower, upper)
# below, the slopes' mean and spread those of the uniform distribution, out = x * noise). The
# gradient samples are deterministic: is_test, or lower == upper, where every slope is lower;
# test_activation_ops.py checks the training gradient against the noise the op
# returns.
def rrelu_op(x, lower=0.125, upper=1.0 / 3.0, is_test=False):
    return list(_C_ops.rrelu(x, lower, upper, is_test))


def _rrelu_factors(value, x, is_out):
    """Each element's factor: noise itself, or out / x below 0 (1 where x >= 0)."""
    if not is_out:
        return value
    factor = np.ones_like(x)
    below = x < 0
    factor[below] = value[below] / x[below]
    return factor


def rrelu_check(result, sample):
    """Checks rrelu's [out, noise], or either alone (the static harness passes one output at a
    time: a tensor with negative values is out, since noise never is)."""
    from harness import to_numpy
    x = np.asarray(sample.args[0], dtype=np.float64)
    kw = sample.kwargs
    lower, upper = kw.get("lower", 0.125), kw.get("upper", 1.0 / 3.0)
    is_test = kw.get("is_test", not kw.get("training", True))
    outputs = result if isinstance(result, (list, tuple)) else [result]
    values = [to_numpy(t).astype(np.float64) for t in outputs]
    rough = any(t.dtype in (paddle.float16, paddle.bfloat16) for t in outputs)
    rtol = 1e-2 if rough else 1e-6
    below = x < 0
    factors = []
    for k, v in enumerate(values):
        assert v.shape == x.shape, f"rrelu: shape {v.shape}, x has {x.shape}"
        if len(values) == 2:
            is_out = k == 0
        else:
            is_out = bool((v[below] < 0).any()) if below.any() else bool(np.allclose(v, x))
        if is_out:
            np.testing.assert_allclose(v[~below], x[~below], rtol=rtol, err_msg="rrelu: x >= 0 kept")
        factor = _rrelu_factors(v, x, is_out)
        np.testing.assert_allclose(factor[~below], 1.0, err_msg="rrelu: factor 1 where x >= 0")
        factors.append(factor)
    if len(values) == 2:
        np.testing.assert_allclose(values[0], x * values[1], rtol=rtol, atol=1e-6,
                                   err_msg="rrelu: out is not x * noise")
    slope = factors[0][below]
    if is_test:
        np.testing.assert_allclose(slope, (lower + upper) / 2, rtol=rtol,
                                   err_msg="rrelu is_test: the slope is (lower + upper) / 2")
        return
    tol = 1e-2 * (upper - lower) + (2e-2 if rough else 1e-6)
    assert ((slope >= lower - tol) & (slope <= upper + tol)).all(), (
        f"rrelu: slopes outside [{lower}, {upper}]: {slope[(slope < lower - tol) | (slope > upper + tol)]}")
    if slope.size >= 1000 and upper > lower:
        mean, std = slope.mean(), slope.std()
        assert abs(mean - (lower + upper) / 2) < 0.02 * (upper - lower) + 0.01, (
            f"rrelu: mean slope {mean}, expected {(lower + upper) / 2}")
        uniform_std = (upper - lower) / np.sqrt(12)
        assert abs(std - uniform_std) < 0.1 * uniform_std + 0.01, (
            f"rrelu: slope spread {std}, a uniform one has {uniform_std}")


RRELU = [
    OpInfo("rrelu", rrelu_op, None, lambda rng: [
        Sample([uniform(rng, (60, 50))], grad_args=[]),
        Sample([uniform(rng, (60, 50))], {"lower": 0.0, "upper": 1.0}, grad_args=[]),
        Sample([uniform(rng, (3, 4))], {"lower": 0.2, "upper": 0.2}),
        Sample([away_from_zero(rng, (3, 4))], {"is_test": True}),
        Sample([away_from_zero(rng, (2, 3))], {"lower": 0.1, "upper": 0.5, "is_test": True}),
        Sample([uniform(rng, ())], {"is_test": True}),
        Sample([uniform(rng, (0, 3))])],
        check=rrelu_check, grad_outputs=[0], second_order=True,
        no_second_order_reason="x_grad = out_grad * noise does not depend on x",
        errors=lambda: [
            ErrorSample([np.zeros(3)], {"lower": -0.1}, ValueError, "rrelu: argument 'lower'"),
            ErrorSample([np.zeros(3)], {"lower": 0.5, "upper": 0.4}, ValueError, "rrelu: argument 'upper'"),
            ErrorSample([np.zeros(3)], {"upper": 1.5}, ValueError, "rrelu: argument 'upper'"),
            NOT_A_TENSOR]),
    OpInfo("rrelu_functional", F.rrelu, None, lambda rng: [
        Sample([uniform(rng, (60, 50))], {"lower": 0.1, "upper": 0.3}, grad_args=[]),
        Sample([away_from_zero(rng, (3, 4))], {"training": False}),
        Sample([away_from_zero(rng, (3, 4))], {"lower": 0.25, "upper": 0.25})],
        covers=["rrelu"], check=rrelu_check,
        errors=lambda: [
            ErrorSample([np.zeros(3)], {"lower": 0, "upper": 0.5}, TypeError,
                        "rrelu(): arguments 'lower' and 'upper' must be floats"),
            ErrorSample([np.zeros(3)], {"lower": 0.3, "upper": 0.2}, ValueError,
                        "rrelu: argument 'upper'")]),
]

ACT_OPS = ELEMENTWISE + [MAXOUT] + PRELU + [GLU] + RRELU
