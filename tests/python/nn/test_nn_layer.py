"""paddle.nn.Layer and friends: registries, structured names, state dicts, modes, hooks,
containers, parameters, initializers and the activation functions."""
import copy
import math
import warnings

import numpy as np
import pytest

import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.nn import initializer as I
from paddle.nn.param_attr import ParamAttr
from paddle.utils import unique_name


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(4, 2)
        self.register_buffer("steps", paddle.to_tensor([0], dtype="int64"))
        self.register_buffer("scratch", paddle.zeros([2]), persistable=False)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


def test_parameter_names_and_order():
    with unique_name.guard():
        model = MLP()
        names = [(n, p.name, p.shape) for n, p in model.named_parameters()]
    assert names == [("fc1.weight", "linear_0.w_0", [3, 4]), ("fc1.bias", "linear_0.b_0", [4]),
                     ("fc2.weight", "linear_1.w_0", [4, 2]), ("fc2.bias", "linear_1.b_0", [2])]
    assert [id(p) for p in model.parameters()] == [id(p) for _, p in model.named_parameters()]
    assert model.fc1.full_name() == "linear_0"
    assert len(model.parameters(include_sublayers=False)) == 0
    for p in model.parameters():
        assert isinstance(p, paddle.Tensor) and isinstance(p, nn.EagerParamBase)
        assert p.persistable and p.trainable and not p.stop_gradient
        assert p.optimize_attr == {"learning_rate": 1.0}


def test_sublayers_children_buffers():
    model = MLP()
    assert [n for n, _ in model.named_sublayers()] == ["fc1", "act", "fc2"]
    assert model.sublayers(include_self=True)[0] is model
    assert [n for n, _ in model.named_children()] == ["fc1", "act", "fc2"]
    assert [n for n, _ in model.named_buffers()] == ["steps", "scratch"]
    assert len(model.buffers()) == 2


def test_state_dict_structured_names_and_buffers():
    model = nn.Sequential(MLP(), nn.Linear(2, 2))
    state = model.state_dict()
    # Paddle's order: a layer's own parameters, then its buffers, then its sublayers.
    assert list(state.keys()) == ["0.steps", "0.fc1.weight", "0.fc1.bias", "0.fc2.weight",
                                  "0.fc2.bias", "1.weight", "1.bias"]
    # The values are the layer's own tensors, not copies.
    assert state["1.weight"] is model[1].weight
    assert "0.scratch" in model.to_static_state_dict()


def test_shared_parameter_listed_once():
    a = nn.Linear(2, 2)
    b = nn.Linear(2, 2)
    b.weight = a.weight
    model = nn.Sequential(a, b)
    assert len(model.parameters()) == 3
    assert len(list(model.named_parameters(remove_duplicate=False))) == 4
    assert list(model.state_dict().keys()) == ["0.weight", "0.bias", "1.weight", "1.bias"]


def test_set_state_dict_in_place():
    src, dst = MLP(), MLP()
    weight = dst.fc1.weight
    values = {k: v.numpy() for k, v in src.state_dict().items()}
    values["steps"] = np.array([7], dtype="int64")
    missing, unexpected = dst.set_state_dict(values)
    assert missing == [] and unexpected == []
    assert dst.fc1.weight is weight
    for key, value in dst.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), values[key])
    # Tensors work too and are copied, not shared.
    dst.set_state_dict(src.state_dict())
    np.testing.assert_array_equal(dst.fc2.bias.numpy(), src.fc2.bias.numpy())
    assert not dst.fc2.bias._is_shared_buffer_with(src.fc2.bias)


def test_set_state_dict_missing_unexpected_and_bad_shape():
    model = nn.Linear(2, 3)
    before = model.weight.numpy().copy()
    state = {"weight": np.zeros([3, 3], "float32"), "extra": np.zeros([1], "float32")}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        missing, unexpected = model.set_state_dict(state)
    assert sorted(missing) == ["bias", "weight"]
    assert sorted(unexpected) == ["extra", "weight"]
    assert any("expected shape is [2, 3]" in str(w.message) for w in caught)
    assert any("bias is not found" in str(w.message) for w in caught)
    np.testing.assert_array_equal(model.weight.numpy(), before)


def test_set_state_dict_by_parameter_name():
    src, dst = nn.Linear(2, 2), nn.Linear(2, 2)
    by_name = {p.name: p.numpy() for p in dst.parameters()}
    by_name = {src.weight.name: by_name[dst.weight.name], src.bias.name: by_name[dst.bias.name]}
    src.set_state_dict(by_name, use_structured_name=False)
    np.testing.assert_array_equal(src.weight.numpy(), dst.weight.numpy())


def test_train_eval_propagate():
    model = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5))
    assert model.training and model[1].training
    assert model.eval() is model
    assert not model.training and not model[1].training
    x = paddle.ones([4, 2])
    np.testing.assert_array_equal(model(x).numpy(), model[0](x).numpy())
    model.train()
    assert model[1].training


def test_forward_hooks_and_removal():
    layer = nn.Linear(2, 2, weight_attr=I.Constant(1.0))
    calls = []

    def pre(layer_, inputs):
        calls.append("pre")
        return inputs[0] * 2  # a non-tuple result becomes the single input

    def post(layer_, inputs, output):
        calls.append("post")
        return output + 1

    h1 = layer.register_forward_pre_hook(pre)
    h2 = layer.register_forward_post_hook(post)
    out = layer(paddle.ones([1, 2]))
    np.testing.assert_allclose(out.numpy(), [[5.0, 5.0]])
    assert calls == ["pre", "post"]
    h1.remove()
    h2.remove()
    h2.remove()  # removing twice is harmless
    np.testing.assert_allclose(layer(paddle.ones([1, 2])).numpy(), [[2.0, 2.0]])


def test_setattr_rules():
    layer = nn.Linear(2, 2)
    with pytest.raises(TypeError):
        layer.weight = paddle.ones([2, 2])  # a parameter slot takes a Parameter or None
    layer.bias = None
    assert layer.bias is None and len(layer.parameters()) == 1
    layer.extra = paddle.ones([1])  # a plain tensor becomes a non-persistable buffer
    assert "extra" in dict(layer.named_buffers())
    assert "extra" not in layer.state_dict()
    del layer.extra
    assert "extra" not in dict(layer.named_buffers())
    with pytest.raises(AttributeError):
        layer.does_not_exist
    with pytest.raises(KeyError):
        layer.register_buffer("weight", paddle.ones([1]))


def test_sequential_and_containers():
    seq = nn.Sequential(("first", nn.Linear(2, 3)), ("act", nn.ReLU()), ("last", nn.Linear(3, 1)))
    assert len(seq) == 3 and isinstance(seq["act"], nn.ReLU)
    assert seq[-1] is seq["last"]
    assert isinstance(seq[:2], nn.Sequential) and len(seq[:2]) == 2
    assert list(seq.state_dict()) == ["first.weight", "first.bias", "last.weight", "last.bias"]
    assert seq(paddle.ones([5, 2])).shape == [5, 1]
    with pytest.raises(IndexError):
        seq[3]

    layers = nn.LayerList([nn.Linear(1, 1) for _ in range(2)])
    layers.append(nn.ReLU())
    layers.insert(0, nn.Tanh())
    assert [type(layer).__name__ for layer in layers] == ["Tanh", "Linear", "Linear", "ReLU"]
    del layers[0]
    assert [n for n, _ in layers.named_children()] == ["0", "1", "2"]
    assert len(layers.parameters()) == 4

    params = nn.ParameterList([paddle.create_parameter([2], "float32") for _ in range(2)])
    params.append(paddle.create_parameter([3], "float32"))
    assert len(params) == 3 and params[-1].shape == [3]
    assert list(params.state_dict()) == ["0", "1", "2"]

    d = nn.LayerDict({"a": nn.ReLU(), "b": nn.Tanh()})
    assert list(d.keys()) == ["a", "b"] and "a" in d and len(d) == 2


def test_repr_like_paddle():
    with unique_name.guard():
        model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Softmax(axis=1))
    assert repr(model) == ("Sequential(\n"
                           "  (0): Linear(in_features=2, out_features=3, dtype=float32)\n"
                           "  (1): ReLU()\n"
                           "  (2): Softmax(axis=1)\n"
                           ")")
    assert repr(model[0].bias).startswith("Parameter containing:\nTensor(shape=[3]")


def test_param_attr_and_create_parameter():
    with unique_name.guard():
        layer = nn.Linear(2, 3, weight_attr=ParamAttr(name="w", initializer=I.Constant(0.5),
                                                      learning_rate=0.1, trainable=False),
                          bias_attr=False)
        assert layer.bias is None and len(layer.parameters()) == 1
        assert layer.weight.name == "w" and layer.weight.optimize_attr["learning_rate"] == 0.1
        assert layer.weight.stop_gradient and not layer.weight.trainable
        np.testing.assert_array_equal(layer.weight.numpy(), np.full([2, 3], 0.5, "float32"))
        with pytest.raises(ValueError, match="have be been used"):
            nn.Linear(2, 3, weight_attr=ParamAttr(name="w"))
        p = paddle.create_parameter([2, 2], "float64")
        assert p.name == "create_parameter_0.w_0" and p.dtype == paddle.float64
        b = paddle.create_parameter([2], "float32", is_bias=True)
        np.testing.assert_array_equal(b.numpy(), [0, 0])
    with pytest.raises(ValueError):
        paddle.create_parameter([0, 2], "float32")


def test_unique_name_guard():
    with unique_name.guard():
        assert unique_name.generate("fc") == "fc_0"
        assert unique_name.generate("fc") == "fc_1"
        with unique_name.guard("pre_"):
            assert unique_name.generate("fc") == "pre_fc_0"
        assert unique_name.generate("fc") == "fc_2"


def test_linear_default_init_and_forward():
    paddle.seed(3)
    layer = nn.Linear(30, 50)
    limit = math.sqrt(6.0 / (30 + 50))
    w = layer.weight.numpy()
    assert np.abs(w).max() <= limit and np.abs(w).max() > 0.8 * limit
    np.testing.assert_array_equal(layer.bias.numpy(), np.zeros(50))
    x = np.random.RandomState(0).randn(4, 30).astype("float32")
    np.testing.assert_allclose(layer(paddle.to_tensor(x)).numpy(), x @ w, rtol=1e-5, atol=1e-5)


def test_initializers():
    paddle.seed(0)
    big = paddle.create_parameter([200, 300], "float32", default_initializer=I.Constant(2.0))
    np.testing.assert_array_equal(np.unique(big.numpy()), [2.0])
    I.Normal(1.0, 2.0)(big)
    assert abs(big.numpy().mean() - 1.0) < 0.05 and abs(big.numpy().std() - 2.0) < 0.05
    I.Uniform(-0.5, 0.25)(big)
    assert big.numpy().min() >= -0.5 and big.numpy().max() <= 0.25
    I.XavierNormal()(big)
    assert abs(big.numpy().std() - math.sqrt(2.0 / 500)) < 0.003
    I.KaimingNormal()(big)  # fan_in = shape[0] for a [in, out] weight
    assert abs(big.numpy().std() - math.sqrt(2.0 / 200)) < 0.003
    I.KaimingUniform()(big)
    assert np.abs(big.numpy()).max() <= math.sqrt(2.0) * math.sqrt(3.0 / 200)
    I.TruncatedNormal(0.0, 1.0)(big)
    assert np.abs(big.numpy()).max() <= 2.0
    I.Assign(np.arange(6, dtype="float64").reshape(2, 3))(
        conv := paddle.create_parameter([2, 3], "float32"))
    np.testing.assert_array_equal(conv.numpy(), np.arange(6).reshape(2, 3))
    # Conv kernels [out, in, kh, kw]: fan_in = in * kh * kw.
    kernel = paddle.create_parameter([8, 4, 3, 3], "float32")
    assert I.Initializer._compute_fans(kernel) == (36, 72)
    assert I.calculate_gain("tanh") == pytest.approx(5.0 / 3)


def test_global_initializer():
    I.set_global_initializer(I.Constant(3.0), I.Constant(-1.0))
    try:
        layer = nn.Linear(2, 2)
        explicit = nn.Linear(2, 2, weight_attr=I.Constant(0.0))
    finally:
        I.set_global_initializer(None)
    np.testing.assert_array_equal(layer.weight.numpy(), np.full([2, 2], 3.0))
    np.testing.assert_array_equal(layer.bias.numpy(), [-1.0, -1.0])
    np.testing.assert_array_equal(explicit.weight.numpy(), np.zeros([2, 2]))


def test_dtype_conversion_keeps_parameter_objects():
    layer = nn.Linear(2, 2)
    weight = layer.weight
    layer.to(dtype="float64")
    assert layer.weight is weight and weight.dtype == paddle.float64 and weight.trainable
    assert layer(paddle.ones([1, 2], dtype="float64")).dtype == paddle.float64
    layer.float()
    assert weight.dtype == paddle.float32


def test_deepcopy_and_clear_gradients():
    layer = nn.Linear(2, 2)
    clone = copy.deepcopy(layer)
    assert clone.weight is not layer.weight
    np.testing.assert_array_equal(clone.weight.numpy(), layer.weight.numpy())
    layer(paddle.ones([1, 2])).sum().backward()
    assert layer.weight.grad is not None
    layer.clear_gradients()
    np.testing.assert_array_equal(layer.weight.grad.numpy(), np.zeros([2, 2]))


def _np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def test_activations_match_numpy():
    x = np.random.RandomState(1).randn(3, 5).astype("float32")
    t = paddle.to_tensor(x)
    np.testing.assert_allclose(F.relu(t).numpy(), np.maximum(x, 0))
    np.testing.assert_allclose(F.sigmoid(t).numpy(), 1 / (1 + np.exp(-x)), rtol=1e-5)
    np.testing.assert_allclose(F.silu(t).numpy(), x / (1 + np.exp(-x)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(F.tanh(t).numpy(), np.tanh(x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(F.softmax(t, axis=0).numpy(), _np_softmax(x, 0), rtol=1e-5)
    np.testing.assert_allclose(F.log_softmax(t).numpy(), np.log(_np_softmax(x)), rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(F.leaky_relu(t, 0.1).numpy(), np.where(x > 0, x, 0.1 * x),
                               rtol=1e-6)
    erf = np.vectorize(math.erf)
    np.testing.assert_allclose(F.gelu(t).numpy(), 0.5 * x * (1 + erf(x / math.sqrt(2))),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(nn.GELU(approximate=True)(t).numpy(),
                               0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) *
                                                      (x + 0.044715 * x ** 3))),
                               rtol=1e-4, atol=1e-5)
    assert F.softmax(t, dtype="float64").dtype == paddle.float64
    assert nn.Flatten()(paddle.ones([2, 3, 4])).shape == [2, 12]
    assert nn.Identity(1, unused=2)(t) is t


def test_dropout():
    paddle.seed(5)
    x = paddle.ones([20000])
    y = F.dropout(x, 0.3).numpy()
    np.testing.assert_allclose(np.unique(y), [0.0, 1 / 0.7], rtol=1e-6)
    assert abs((y == 0).mean() - 0.3) < 0.02
    np.testing.assert_array_equal(F.dropout(x, 0.3, training=False).numpy(), x.numpy())
    np.testing.assert_allclose(F.dropout(x, 0.3, training=False, mode="downscale_in_infer")
                               .numpy(), 0.7)
    rows = F.dropout(paddle.ones([50, 8]), 0.5, axis=0).numpy()
    assert all(len(np.unique(r)) == 1 for r in rows)  # whole rows dropped together
    with pytest.raises(ValueError):
        F.dropout(x, 1.5)
