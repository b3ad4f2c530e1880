"""The activation layers of paddle.nn: Paddle's constructor arguments and defaults, reprs, PReLU's
parameter, RReLU in train and eval mode, each layer against its functional, and the values of
Paddle's documented examples."""
import inspect

import numpy as np
import pytest

import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from static_testing import new_programs, static_mode

SELU_SCALE = 1.0507009873554804934193349852946
SELU_ALPHA = 1.6732632423543772848170429916717

# Paddle's constructor parameters and their defaults (Parameter.empty: required).
REQUIRED = inspect.Parameter.empty
SIGNATURES = {
    nn.CELU: [("alpha", 1.0), ("name", None)],
    nn.ELU: [("alpha", 1.0), ("name", None)],
    nn.GELU: [("approximate", False), ("name", None)],
    nn.GLU: [("axis", -1), ("name", None)],
    nn.Hardshrink: [("threshold", 0.5), ("name", None)],
    nn.Hardsigmoid: [("name", None)],
    nn.Hardswish: [("name", None)],
    nn.Hardtanh: [("min", -1.0), ("max", 1.0), ("name", None)],
    nn.LeakyReLU: [("negative_slope", 0.01), ("name", None)],
    nn.LogSigmoid: [("name", None)],
    nn.Maxout: [("groups", REQUIRED), ("axis", 1), ("name", None)],
    nn.Mish: [("name", None)],
    nn.PReLU: [("num_parameters", 1), ("init", 0.25), ("weight_attr", None),
               ("data_format", "NCHW"), ("name", None)],
    nn.ReLU6: [("name", None)],
    nn.RReLU: [("lower", 1.0 / 8.0), ("upper", 1.0 / 3.0), ("name", None)],
    nn.SELU: [("scale", SELU_SCALE), ("alpha", SELU_ALPHA), ("name", None)],
    nn.Softmax2D: [("name", None)],
    nn.Softplus: [("beta", 1), ("threshold", 20), ("name", None)],
    nn.Softshrink: [("threshold", 0.5), ("name", None)],
    nn.Softsign: [("name", None)],
    nn.Swish: [("name", None)],
    nn.Tanhshrink: [("name", None)],
    nn.ThresholdedReLU: [("threshold", 1.0), ("value", 0.0), ("name", None)],
}


@pytest.mark.parametrize("cls", list(SIGNATURES), ids=lambda c: c.__name__)
def test_constructor_arguments_and_defaults_are_paddles(cls):
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [(p.name, p.default) for p in params] == SIGNATURES[cls]
    assert cls.__name__ in nn.__all__ and getattr(nn, cls.__name__) is cls


FUNCTIONALS = ["celu", "elu", "elu_", "gelu", "glu", "hardshrink", "hardsigmoid", "hardswish",
               "hardtanh", "hardtanh_", "leaky_relu", "leaky_relu_", "log_sigmoid", "maxout",
               "mish", "prelu", "relu6", "rrelu", "selu", "softmax_", "softplus", "softshrink",
               "softsign", "swish", "tanhshrink", "thresholded_relu", "thresholded_relu_"]


@pytest.mark.parametrize("name", FUNCTIONALS)
def test_functional_is_exported(name):
    assert name in F.__all__ and callable(getattr(F, name))


def test_functional_arguments_and_defaults_are_paddles():
    def defaults(f):
        return [(p.name, p.default) for p in inspect.signature(f).parameters.values()]
    assert defaults(F.hardsigmoid) == [("x", REQUIRED), ("slope", 0.1666667), ("offset", 0.5),
                                       ("name", None)]
    assert defaults(F.hardtanh) == [("x", REQUIRED), ("min", -1.0), ("max", 1.0), ("name", None)]
    assert defaults(F.thresholded_relu) == [("x", REQUIRED), ("threshold", 1.0), ("value", 0.0),
                                            ("name", None)]
    assert defaults(F.softplus) == [("x", REQUIRED), ("beta", 1.0), ("threshold", 20.0),
                                    ("name", None)]
    assert defaults(F.leaky_relu) == [("x", REQUIRED), ("negative_slope", 0.01), ("name", None)]
    assert defaults(F.mish) == [("x", REQUIRED), ("name", None)]
    assert defaults(F.prelu) == [("x", REQUIRED), ("weight", REQUIRED), ("data_format", "NCHW"),
                                 ("name", None)]
    assert defaults(F.rrelu) == [("x", REQUIRED), ("lower", 0.125), ("upper", 1.0 / 3.0),
                                 ("training", True), ("name", None)]
    assert defaults(F.maxout) == [("x", REQUIRED), ("groups", REQUIRED), ("axis", 1),
                                  ("name", None)]
    assert defaults(F.selu) == [("x", REQUIRED), ("scale", SELU_SCALE), ("alpha", SELU_ALPHA),
                                ("name", None)]


# (layer, the functional call it must equal, input shape)
LAYER_VS_FUNCTIONAL = [
    (nn.CELU(0.3), lambda x: F.celu(x, 0.3), (3, 4)),
    (nn.ELU(0.2), lambda x: F.elu(x, 0.2), (3, 4)),
    (nn.GELU(True), lambda x: F.gelu(x, True), (3, 4)),
    (nn.GELU("tanh"), lambda x: F.gelu(x, approximate=True), (3, 4)),
    (nn.GLU(axis=0), lambda x: F.glu(x, 0), (4, 3)),
    (nn.Hardshrink(0.3), lambda x: F.hardshrink(x, 0.3), (3, 4)),
    (nn.Hardsigmoid(), F.hardsigmoid, (3, 4)),
    (nn.Hardswish(), F.hardswish, (3, 4)),
    (nn.Hardtanh(-0.5, 0.7), lambda x: F.hardtanh(x, -0.5, 0.7), (3, 4)),
    (nn.LeakyReLU(0.2), lambda x: F.leaky_relu(x, 0.2), (3, 4)),
    (nn.LogSigmoid(), F.log_sigmoid, (3, 4)),
    (nn.Maxout(2), lambda x: F.maxout(x, 2), (2, 4, 3, 3)),
    (nn.Maxout(3, axis=-1), lambda x: F.maxout(x, 3, -1), (2, 3, 3, 6)),
    (nn.Mish(), F.mish, (3, 4)),
    (nn.ReLU6(), F.relu6, (3, 4)),
    (nn.RReLU(0.1, 0.3).eval(), lambda x: F.rrelu(x, 0.1, 0.3, training=False), (3, 4)),
    (nn.SELU(1.5, 0.8), lambda x: F.selu(x, 1.5, 0.8), (3, 4)),
    (nn.Softmax2D(), lambda x: F.softmax(x, axis=-3), (2, 3, 4, 5)),
    (nn.Softplus(2, 3), lambda x: F.softplus(x, 2, 3), (3, 4)),
    (nn.Softshrink(0.2), lambda x: F.softshrink(x, 0.2), (3, 4)),
    (nn.Softsign(), F.softsign, (3, 4)),
    (nn.Swish(), F.swish, (3, 4)),
    (nn.Tanhshrink(), F.tanhshrink, (3, 4)),
    (nn.ThresholdedReLU(0.2, -1.0), lambda x: F.thresholded_relu(x, 0.2, -1.0), (3, 4)),
]


@pytest.mark.parametrize("layer,functional,shape", LAYER_VS_FUNCTIONAL,
                         ids=[repr(case[0]) for case in LAYER_VS_FUNCTIONAL])
def test_layer_equals_its_functional(layer, functional, shape):
    x = paddle.to_tensor(np.random.default_rng(0).uniform(-3, 3, shape).astype("float32"))
    np.testing.assert_array_equal(layer(x).numpy(), functional(x).numpy())


# Paddle's documented examples: (function, input, keyword arguments, Paddle's printed result).
DOCUMENTED = [
    (F.celu, [[-1.0, 6.0], [1.0, 15.6]], {"alpha": 0.2}, [[-0.19865242, 6.0], [1.0, 15.6]]),
    (F.elu, [[-1.0, 6.0], [1.0, 15.6]], {"alpha": 0.2}, [[-0.12642412, 6.0], [1.0, 15.6]]),
    (F.gelu, [[-1, 0.5], [1, 1.5]], {}, [[-0.15865529, 0.34573123], [0.84134471, 1.39978933]]),
    (F.gelu, [[-1, 0.5], [1, 1.5]], {"approximate": True},
     [[-0.15880796, 0.34571400], [0.84119201, 1.39957154]]),
    (F.glu, [[-0.22014759, -1.76358426, 0.80566144, 0.04241343],
             [-1.94900405, -1.89956081, 0.17134808, -1.11280477]], {},
     [[-0.15216254, -0.90048921], [-1.05778778, -0.46985325]]),
    (F.hardshrink, [-1, 0.3, 2.5], {}, [-1.0, 0.0, 2.5]),
    (F.hardsigmoid, [-4.0, 5.0, 1.0], {}, [0.0, 1.0, 0.66666669]),
    (F.hardswish, [-4.0, 5.0, 1.0], {}, [0.0, 5.0, 0.66666669]),
    (F.hardtanh, [-1.5, 0.3, 2.5], {}, [-1.0, 0.30000001, 1.0]),
    (F.leaky_relu, [-2.0, 0.0, 1.0], {}, [-0.02, 0.0, 1.0]),
    (F.log_sigmoid, [1.0, 2.0, 3.0, 4.0], {}, [-0.31326166, -0.12692805, -0.04858733, -0.01814996]),
    (F.mish, [-5.0, 0.0, 5.0], {}, [-0.03357624, 0.0, 4.99955177]),
    (F.relu6, [-1, 0.3, 6.5], {}, [0.0, 0.30000001, 6.0]),
    (F.selu, [[0.0, 1.0], [2.0, 3.0]], {}, [[0.0, 1.05070102], [2.10140204, 3.15210295]]),
    (F.softplus, [-0.4, -0.2, 0.1, 0.3], {}, [0.513015, 0.598139, 0.744397, 0.854355]),
    (F.softshrink, [-0.9, -0.2, 0.1, 0.8], {}, [-0.39999998, 0.0, 0.0, 0.30000001]),
    (F.softsign, [-0.4, -0.2, 0.1, 0.3], {}, [-0.28571430, -0.16666666, 0.09090909, 0.23076925]),
    (F.swish, [-2.0, 0.0, 1.0], {}, [-0.23840584, 0.0, 0.73105860]),
    (F.tanhshrink, [-0.4, -0.2, 0.1, 0.3], {}, [-0.02005100, -0.00262472, 0.00033201, 0.00868741]),
    (F.thresholded_relu, [2.0, 0.0, 1.0], {}, [2.0, 0.0, 0.0]),
]


@pytest.mark.parametrize("function,x,kwargs,expected", DOCUMENTED,
                         ids=[f"{case[0].__name__}-{k}" for k, case in enumerate(DOCUMENTED)])
def test_documented_examples(function, x, kwargs, expected):
    out = function(paddle.to_tensor(x, dtype="float32"), **kwargs)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-6)


PRELU_EXAMPLE = [[[[-2.0, 3.0, -4.0, 5.0], [3.0, -4.0, 5.0, -6.0], [-7.0, -8.0, 8.0, 9.0]],
                  [[1.0, -2.0, -3.0, 4.0], [-5.0, 6.0, 7.0, -8.0], [6.0, 7.0, 8.0, 9.0]]]]


def test_prelu_documented_example():
    x = paddle.to_tensor(PRELU_EXAMPLE)
    expected = [[[[-0.5, 3.0, -1.0, 5.0], [3.0, -1.0, 5.0, -1.5], [-1.75, -2.0, 8.0, 9.0]],
                 [[1.0, -0.5, -0.75, 4.0], [-1.25, 6.0, 7.0, -2.0], [6.0, 7.0, 8.0, 9.0]]]]
    np.testing.assert_allclose(F.prelu(x, paddle.to_tensor([0.25])).numpy(), expected)
    np.testing.assert_allclose(nn.PReLU(1, 0.25)(x).numpy(), expected)


def test_maxout_takes_the_maximum_of_consecutive_channels():
    x = np.random.default_rng(1).uniform(size=(1, 4, 2, 3)).astype("float32")
    out = nn.Maxout(groups=2)(paddle.to_tensor(x)).numpy()
    np.testing.assert_array_equal(out, np.stack([np.maximum(x[:, 0], x[:, 1]),
                                                 np.maximum(x[:, 2], x[:, 3])], axis=1))
    nhwc = np.transpose(x, (0, 2, 3, 1))
    np.testing.assert_array_equal(F.maxout(paddle.to_tensor(nhwc), 2, axis=3).numpy(),
                                  np.transpose(out, (0, 2, 3, 1)))


# ---- reprs -----------------------------------------------------------------------------------
REPRS = [
    (nn.ELU(0.2), "ELU(alpha=0.2)"),
    (nn.CELU(), "CELU(alpha=1.0)"),
    (nn.Hardtanh(), "Hardtanh(min=-1.0, max=1.0)"),
    (nn.LeakyReLU(name="leaky"), "LeakyReLU(negative_slope=0.01, name=leaky)"),
    (nn.ReLU6(), "ReLU6()"),
    (nn.Hardswish(name="hs"), "Hardswish(name=hs)"),
    (nn.SELU(), "SELU(scale=1.0507009873554805, alpha=1.6732632423543772)"),
    (nn.Softplus(), "Softplus(beta=1, threshold=20)"),
    (nn.Softshrink(0.3), "Softshrink(threshold=0.3)"),
    (nn.ThresholdedReLU(), "ThresholdedReLU(threshold=1.0, value=0.0)"),
    (nn.Maxout(4), "Maxout(groups=4, axis=1)"),
    (nn.GLU(), "GLU(axis=-1)"),
    (nn.GELU(), "GELU(approximate=False)"),
    (nn.PReLU(), "PReLU(num_parameters=1, data_format=NCHW, init=0.25, dtype=float32)"),
    (nn.RReLU(0.1, 0.3), "RReLU(lower=0.1, upper=0.3, training=True, dtype=float32)"),
    (nn.Softmax2D(), "Softmax2D()"),
]


@pytest.mark.parametrize("layer,text", REPRS, ids=[text for _, text in REPRS])
def test_repr(layer, text):
    assert repr(layer) == text


# ---- PReLU's parameter -----------------------------------------------------------------------
def test_prelu_weight_is_a_parameter_of_paddles_name_shape_and_initial_value():
    layer = nn.PReLU(num_parameters=3, init=0.1)
    assert list(layer.state_dict()) == ["_weight"]
    assert [p.name for p in layer.parameters()] == [layer._weight.name]
    assert layer._weight.shape == [3] and layer._weight.dtype == paddle.float32
    assert not layer._weight.stop_gradient
    np.testing.assert_allclose(layer._weight.numpy(), [0.1, 0.1, 0.1], rtol=1e-6)


def test_prelu_weight_attr_names_and_initialises_the_weight():
    attr = paddle.ParamAttr(name="slopes", initializer=nn.initializer.Constant(0.5))
    layer = nn.PReLU(2, weight_attr=attr)
    assert layer._weight.name == "slopes"
    np.testing.assert_array_equal(layer._weight.numpy(), [0.5, 0.5])


def test_prelu_weight_follows_the_default_dtype():
    paddle.set_default_dtype("float64")
    try:
        assert nn.PReLU()._weight.dtype == paddle.float64
    finally:
        paddle.set_default_dtype("float32")


@pytest.mark.parametrize("data_format,shape", [("NCHW", (2, 3, 4, 2)), ("NHWC", (2, 4, 2, 3)),
                                               ("NCL", (2, 3, 5)), ("NLC", (2, 5, 3)),
                                               ("NC", (4, 3))])
def test_prelu_channel_weights_train(data_format, shape):
    """Per-channel slopes apply along the channel axis of data_format; the weight's gradient
    sums out_grad * x over the negative elements of each channel."""
    rng = np.random.default_rng(2)
    x = rng.uniform(-1, 1, shape)
    layer = nn.PReLU(3, data_format=data_format)
    layer._weight.set_value(np.array([0.1, 0.2, 0.3], dtype="float32"))
    tx = paddle.to_tensor(x.astype("float32"), stop_gradient=False)
    out = layer(tx)
    channel = 1 if data_format[1] == "C" else x.ndim - 1
    slope = np.array([0.1, 0.2, 0.3]).reshape([-1] + [1] * (x.ndim - channel - 1))
    np.testing.assert_allclose(out.numpy(), np.where(x > 0, x, slope * x), rtol=1e-6)
    out.sum().backward()
    axes = tuple(a for a in range(x.ndim) if a != channel)
    np.testing.assert_allclose(layer._weight.grad.numpy(), np.where(x > 0, 0, x).sum(axis=axes),
                               rtol=1e-5)
    np.testing.assert_allclose(tx.grad.numpy(), np.where(x > 0, 1.0, np.broadcast_to(slope, x.shape)),
                               rtol=1e-6)


def test_prelu_weight_of_the_wrong_size_is_refused():
    with pytest.raises(ValueError, match="prelu: argument 'alpha' must hold one value per channel"):
        nn.PReLU(4)(paddle.ones([2, 3, 2, 2]))
    with pytest.raises(ValueError, match="'data_format'"):
        nn.PReLU(3, data_format="CHWN")(paddle.ones([2, 3, 2, 2]))


# ---- RReLU in train and eval mode --------------------------------------------------------------
def test_rrelu_eval_uses_the_mean_slope():
    x = np.linspace(-2, 2, 9).astype("float32")
    layer = nn.RReLU(0.1, 0.3)
    layer.eval()
    out = layer(paddle.to_tensor(x)).numpy()
    np.testing.assert_allclose(out, np.where(x >= 0, x, 0.2 * x), rtol=1e-6)
    np.testing.assert_array_equal(out, layer(paddle.to_tensor(x)).numpy())


def test_rrelu_train_draws_a_slope_per_element():
    x = -np.ones(4000, dtype="float32")
    layer = nn.RReLU(0.1, 0.3)
    first = -layer(paddle.to_tensor(x)).numpy()
    second = -layer(paddle.to_tensor(x)).numpy()
    assert ((first >= 0.1) & (first <= 0.3)).all()
    assert abs(first.mean() - 0.2) < 0.01
    assert abs(first.std() - 0.2 / np.sqrt(12)) < 0.01
    assert not np.array_equal(first, second), "a new draw per call"
    positive = np.abs(x)
    np.testing.assert_array_equal(layer(paddle.to_tensor(positive)).numpy(), positive)


def test_rrelu_train_draws_follow_paddle_seed():
    x = paddle.to_tensor(-np.ones(100, dtype="float32"))
    paddle.seed(7)
    first = F.rrelu(x).numpy()
    paddle.seed(7)
    np.testing.assert_array_equal(F.rrelu(x).numpy(), first)


def test_rrelu_layer_switches_with_train_and_eval():
    x = paddle.to_tensor(-np.ones(1000, dtype="float32"))
    layer = nn.RReLU()
    assert np.unique(layer(x).numpy()).size > 1
    layer.eval()
    np.testing.assert_allclose(layer(x).numpy(), -(1 / 8 + 1 / 3) / 2, rtol=1e-6)
    assert "training=False" in repr(layer)
    layer.train()
    assert np.unique(layer(x).numpy()).size > 1


# ---- Softmax2D, GLU ----------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(3, 4, 5), (2, 3, 4, 5)])
def test_softmax2d_normalises_each_location_over_the_channels(shape):
    x = np.random.default_rng(3).uniform(-2, 2, shape)
    out = nn.Softmax2D()(paddle.to_tensor(x)).numpy()
    e = np.exp(x - x.max(axis=-3, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=-3, keepdims=True), rtol=1e-10)


def test_softmax2d_needs_3d_or_4d_input():
    with pytest.raises(ValueError, match="Softmax2D: the input must be 3-D or 4-D, received 2-D"):
        nn.Softmax2D()(paddle.ones([3, 4]))


def test_glu_needs_an_even_size_along_the_axis():
    with pytest.raises(ValueError):
        nn.GLU()(paddle.ones([2, 3]))


def test_prelu_layer_in_a_static_program():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3, 4], "float32")
            layer = nn.PReLU(3, init=0.3, data_format="NCL")
            out = layer(x)
        (op,) = [op for op in main.global_block().ops if op.type == "prelu"]
        assert op.input("Alpha") == [layer._weight.name] and op.attr("mode") == "channel"
        exe = paddle.static.Executor()
        exe.run(startup)
        value = np.random.default_rng(0).uniform(-1, 1, (2, 3, 4)).astype("float32")
        (got,) = exe.run(main, feed={"x": value}, fetch_list=[out])
    np.testing.assert_allclose(got, np.where(value > 0, value, 0.3 * value), rtol=1e-6)
