"""What the harness entries of the activations (op_db_act.py) cannot express: the in-place
variants and their gradients (Note [In-place activations]), rrelu's training gradient through the
noise it drew, and the legacy op types, slots and attributes of Paddle's programs."""
import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
from op_db import program_op
from static_testing import new_programs, static_mode

X = np.array([-2.0, -0.7, -0.1, 0.2, 0.6, 1.8])


def _elu(x, alpha):
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))


# (in-place function, its out-of-place form, keyword arguments, d out / d x at X)
INPLACE = [
    (F.relu_, F.relu, {}, (X > 0).astype(float)),
    (F.elu_, F.elu, {"alpha": 0.5}, np.where(X > 0, 1.0, 0.5 * np.exp(X))),
    (F.hardtanh_, F.hardtanh, {"min": -0.5, "max": 1.0}, ((X > -0.5) & (X < 1.0)).astype(float)),
    (F.leaky_relu_, F.leaky_relu, {"negative_slope": 0.2}, np.where(X > 0, 1.0, 0.2)),
    (F.thresholded_relu_, F.thresholded_relu, {"threshold": 0.3, "value": -1.0},
     (X > 0.3).astype(float)),
]


@pytest.mark.parametrize("inplace,function,kwargs,slope", INPLACE,
                         ids=[case[0].__name__ for case in INPLACE])
def test_inplace_variant_writes_x_and_differentiates_from_out(inplace, function, kwargs, slope):
    x = paddle.to_tensor(X, stop_gradient=False)
    y = x * 1.0  # a non-leaf, which may be written in place
    expected = function(y, **kwargs).numpy()
    returned = inplace(y, **kwargs)
    np.testing.assert_array_equal(y.numpy(), expected)
    np.testing.assert_array_equal(returned.numpy(), y.numpy())
    (grad,) = paddle.grad([y.sum()], [x])
    # Attributes are float32, as in Paddle.
    np.testing.assert_allclose(grad.numpy(), slope, rtol=1e-7)


def test_softmax_inplace():
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]], stop_gradient=False)
    y = x * 1.0
    expected = F.softmax(y, axis=1).numpy()
    F.softmax_(y, axis=1)
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-6)
    weights = paddle.to_tensor([[1.0, -1.0, 2.0], [0.5, 0.0, 1.0]])
    (grad,) = paddle.grad([(y * weights).sum()], [x])
    s = expected
    w = weights.numpy()
    np.testing.assert_allclose(grad.numpy(), s * (w - (s * w).sum(axis=1, keepdims=True)), rtol=1e-5)


def test_softmax_inplace_with_dtype_writes_the_cast_copy():
    x = paddle.to_tensor([1.0, 2.0], dtype="float32")
    out = F.softmax_(x, dtype="float64")
    assert out.dtype == paddle.float64
    np.testing.assert_array_equal(x.numpy(), [1.0, 2.0])


# Where out cannot tell which branch x took, an in-place call loses what the gradient needs.
REFUSED = [
    (F.elu_, {"alpha": -0.5}, "elu_: the gradient for a negative alpha needs x"),
    (F.leaky_relu_, {"negative_slope": -0.3}, "leaky_relu_: the gradient for a negative slope"),
    (F.thresholded_relu_, {"threshold": -0.5, "value": 0.4}, "thresholded_relu_: the gradient"),
]


@pytest.mark.parametrize("inplace,kwargs,message", REFUSED, ids=[c[0].__name__ for c in REFUSED])
def test_inplace_gradient_that_needs_x_is_refused(inplace, kwargs, message):
    x = paddle.to_tensor(X, stop_gradient=False)
    y = x * 1.0
    inplace(y, **kwargs)  # the forward itself is fine
    with pytest.raises(RuntimeError, match=message):
        paddle.grad([y.sum()], [x])


@pytest.mark.parametrize("alpha", [0.5, -0.5])
def test_elu_gradient_for_either_sign_of_alpha(alpha):
    x = paddle.to_tensor(X, stop_gradient=False)
    (grad,) = paddle.grad([F.elu(x, alpha).sum()], [x])
    np.testing.assert_allclose(grad.numpy(), np.where(X > 0, 1.0, alpha * np.exp(X)), rtol=1e-12)
    np.testing.assert_allclose(F.elu(x, alpha).numpy(), _elu(X, alpha), rtol=1e-12)


# ---- rrelu in training -----------------------------------------------------------------------------
def test_rrelu_training_gradient_is_the_noise_it_drew():
    paddle.seed(3)
    x = paddle.to_tensor(np.random.default_rng(0).uniform(-1, 1, (30, 40)), stop_gradient=False)
    out, noise = paddle._C_ops.rrelu(x, 0.1, 0.4, False)
    weights = np.random.default_rng(1).standard_normal((30, 40))
    (grad,) = paddle.grad([(out * paddle.to_tensor(weights)).sum()], [x])
    np.testing.assert_allclose(grad.numpy(), weights * noise.numpy(), rtol=1e-12)
    below = x.numpy() < 0
    # One float32 draw per element (as in Paddle): among ~600 of them a repeat is possible.
    assert np.unique(noise.numpy()[below]).size >= 0.99 * below.sum(), "one draw per element"


def test_rrelu_training_gradient_matches_finite_differences_under_a_fixed_seed():
    """paddle.seed before each call repeats the draws, which makes the random op a function."""
    x0 = np.random.default_rng(2).uniform(-1, 1, 12)

    def run(values):
        paddle.seed(11)
        return F.rrelu(paddle.to_tensor(values), 0.1, 0.4)

    x = paddle.to_tensor(x0, stop_gradient=False)
    paddle.seed(11)
    (grad,) = paddle.grad([F.rrelu(x, 0.1, 0.4).sum()], [x])
    eps = 1e-6
    numeric = np.array([(run(x0 + eps * e).numpy().sum() - run(x0 - eps * e).numpy().sum()) / (2 * eps)
                        for e in np.eye(12)])
    np.testing.assert_allclose(grad.numpy(), numeric, rtol=1e-6)
    assert ((numeric[x0 < 0] >= 0.1) & (numeric[x0 < 0] <= 0.4)).all()


# ---- Paddle's legacy op descs ----------------------------------------------------------------------
# (API call, the legacy op type, {slot: variable kind}, {attribute: value} it writes)
LEGACY = [
    (lambda x: F.hardswish(x), "hard_swish", {"threshold": 6.0, "scale": 6.0, "offset": 3.0}),
    (lambda x: F.hardsigmoid(x, 0.2, 0.3), "hard_sigmoid", {"slope": 0.2, "offset": 0.3}),
    (lambda x: F.swish(x), "swish", {"beta": 1.0}),
    (lambda x: F.mish(x), "mish", {"threshold": 20.0}),
    (lambda x: F.relu6(x), "relu6", {"threshold": 6.0}),
    (lambda x: F.hardtanh(x, -0.5, 2.0), "brelu", {"t_min": -0.5, "t_max": 2.0}),
    (lambda x: F.elu(x, 0.3), "elu", {"alpha": 0.3}),
    (lambda x: F.selu(x, 1.5, 0.5), "selu", {"scale": 1.5, "alpha": 0.5}),
    (lambda x: F.celu(x, 0.5), "celu", {"alpha": 0.5}),
    (lambda x: F.leaky_relu(x, 0.25), "leaky_relu", {"alpha": 0.25}),
    (lambda x: F.softplus(x, 2.0, 10.0), "softplus", {"beta": 2.0, "threshold": 10.0}),
    (lambda x: F.softsign(x), "softsign", {}),
    (lambda x: F.tanhshrink(x), "tanh_shrink", {}),
    (lambda x: F.softshrink(x, 0.25), "softshrink", {"lambda": 0.25}),
    (lambda x: F.hardshrink(x, 0.25), "hard_shrink", {"threshold": 0.25}),
    (lambda x: F.thresholded_relu(x, 0.5, 0.1), "thresholded_relu", {"threshold": 0.5, "value": 0.1}),
    (lambda x: F.log_sigmoid(x), "logsigmoid", {}),
    (lambda x: F.maxout(x, 2), "maxout", {"groups": 2, "axis": 1}),
    (lambda x: F.rrelu(x, 0.125, 0.25, training=False), "rrelu",
     {"lower": 0.125, "upper": 0.25, "is_test": True}),
]


@pytest.mark.parametrize("build,op_type,attrs", LEGACY, ids=[case[1] for case in LEGACY])
def test_static_program_writes_paddles_legacy_op(build, op_type, attrs):
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 4, 3, 3], "float32")
            out = build(x)
        (op,) = [op for op in main.global_block().ops if op.type == op_type]
        assert op.input("X") == ["x"] and op.output("Out") == [out.name]
        for name, value in attrs.items():
            assert op.attr(name) == pytest.approx(value), name
        value = np.random.default_rng(0).uniform(-2, 2, (2, 4, 3, 3)).astype("float32")
        (got,) = paddle.static.Executor().run(main, feed={"x": value}, fetch_list=[out])
    np.testing.assert_allclose(got, build(paddle.to_tensor(value)).numpy(), rtol=1e-6)


def test_static_prelu_writes_alpha_slot_and_mode():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3, 4], "float32")
            weight = paddle.static.data("weight", [3], "float32")
            out = F.prelu(x, weight, data_format="NCL")
        (op,) = [op for op in main.global_block().ops if op.type == "prelu"]
        assert op.input("X") == ["x"] and op.input("Alpha") == ["weight"]
        assert op.attr("mode") == "channel" and op.attr("data_format") == "NCHW"
        value = np.random.default_rng(0).uniform(-1, 1, (2, 3, 4)).astype("float32")
        slopes = np.array([0.1, 0.2, 0.3], dtype="float32")
        (got,) = paddle.static.Executor().run(main, feed={"x": value, "weight": slopes},
                                              fetch_list=[out])
    np.testing.assert_allclose(got, np.where(value > 0, value, slopes[:, None] * value), rtol=1e-6)


# Descs as Paddle writes them, run by the Executor: (type, attributes, NumPy result).
PADDLE_DESCS = [
    ("brelu", {"t_min": -0.5, "t_max": 1.0}, lambda x: np.clip(x, -0.5, 1.0)),
    ("hard_swish", {"threshold": 6.0, "scale": 6.0, "offset": 3.0},
     lambda x: x * np.clip(x + 3, 0, 6) / 6),
    ("leaky_relu", {"alpha": 0.3}, lambda x: np.where(x > 0, x, 0.3 * x)),
    ("softshrink", {"lambda": 0.4}, lambda x: np.where(x > 0.4, x - 0.4, np.where(x < -0.4, x + 0.4, 0))),
    ("relu6", {"threshold": 6.0}, lambda x: np.clip(x, 0, 6)),
    ("swish", {"beta": 1.0}, lambda x: x / (1 + np.exp(-x))),
    # A Paddle 2 desc has no `value` (0 then).
    ("thresholded_relu", {"threshold": 0.5}, lambda x: np.where(x > 0.5, x, 0.0)),
]


@pytest.mark.parametrize("op_type,attrs,expected", PADDLE_DESCS, ids=[c[0] for c in PADDLE_DESCS])
def test_paddle_desc_runs(op_type, attrs, expected):
    x = np.random.default_rng(4).uniform(-4, 4, (3, 5)).astype("float32")
    (out,) = program_op(op_type, {"X": paddle.to_tensor(x)}, {"Out": "X"}, attrs)
    np.testing.assert_allclose(np.asarray(out), expected(x.astype(np.float64)), rtol=1e-5, atol=1e-6)


# ---- maxout's ties and NaN ---------------------------------------------------------------------
def test_maxout_gradient_goes_to_the_first_maximum_of_a_group():
    """As in Paddle: a tie sends the gradient to the first channel holding the maximum."""
    x = paddle.to_tensor(np.array([1.0, 3.0, 3.0, 2.0, 5.0, 5.0]).reshape(1, 6, 1, 1),
                         stop_gradient=False)
    out = F.maxout(x, 3)
    np.testing.assert_array_equal(out.numpy().reshape(-1), [3.0, 5.0])
    (grad,) = paddle.grad([(out * paddle.to_tensor([[[[2.0]], [[7.0]]]])).sum()], [x])
    np.testing.assert_array_equal(grad.numpy().reshape(-1), [0.0, 2.0, 0.0, 0.0, 7.0, 0.0])


def test_maxout_of_a_group_holding_nan_is_nan():
    x = np.array([1.0, np.nan, 3.0, 2.0, 5.0, 4.0]).reshape(1, 1, 1, 6)
    out = F.maxout(paddle.to_tensor(x), 2, axis=-1).numpy().reshape(-1)
    np.testing.assert_array_equal(out, [np.nan, 3.0, 5.0])
