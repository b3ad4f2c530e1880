"""paddle.onnx.export: the example models run in onnxruntime as they do in dygraph."""
import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
from paddle import nn
from paddle.static import InputSpec

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")


class TinyEncoder(nn.Layer):
    """One Transformer encoder block: multi-head self-attention and a GELU feed-forward, both
    with residual connections and layer norm."""

    def __init__(self, d_model=16, heads=2, hidden=32):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff1 = nn.Linear(d_model, hidden)
        self.ff2 = nn.Linear(hidden, d_model)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x):
        d_model = x.shape[-1]
        head_dim = d_model // self.heads

        def split_heads(t):
            return paddle.transpose(paddle.reshape(t, [0, 0, self.heads, head_dim]),
                                    [0, 2, 1, 3])

        q, k, v = (split_heads(t) for t in paddle.split(self.qkv(x), 3, axis=-1))
        scores = paddle.matmul(q, k, transpose_y=True) * (1.0 / head_dim ** 0.5)
        attention = self.dropout(F.softmax(scores, axis=-1))
        merged = paddle.reshape(paddle.transpose(paddle.matmul(attention, v), [0, 2, 1, 3]),
                                [0, 0, d_model])
        x = self.norm1(x + self.dropout(self.proj(merged)))
        return self.norm2(x + self.dropout(self.ff2(F.gelu(self.ff1(x)))))


class TokenClassifier(nn.Layer):
    """Token ids to class scores: embeddings (0 is padding), the encoder block, mean over the
    tokens and a linear head."""

    def __init__(self, vocabulary=20, d_model=16, classes=3):
        super().__init__()
        self.embedding = nn.Embedding(vocabulary, d_model, padding_idx=0)
        # A nonzero padding row: the lookup must still give zeros for id 0.
        weight = self.embedding.weight.numpy()
        weight[0] = 1.0
        self.embedding.weight.set_value(weight)
        self.encoder = TinyEncoder(d_model)
        self.head = nn.Linear(d_model, classes)

    def forward(self, ids):
        return self.head(paddle.mean(self.encoder(self.embedding(ids)), axis=1))


def mlp():
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16), nn.Tanh(),
                         nn.Dropout(0.5), nn.Linear(16, 4), nn.Softmax())


def lenet():
    return nn.Sequential(
        nn.Conv2D(1, 6, 3, padding=1), nn.BatchNorm2D(6), nn.ReLU(), nn.MaxPool2D(2, 2),
        nn.Conv2D(6, 16, 5), nn.Sigmoid(), nn.AvgPool2D(2, 2), nn.Flatten(),
        nn.Linear(16 * 2 * 2, 32), nn.ReLU(), nn.Linear(32, 10))


def _randomize_batch_norm_statistics(model):
    for layer in model.sublayers():
        if isinstance(layer, nn.BatchNorm2D):
            rng = np.random.default_rng(1)
            channels = layer._mean.shape[0]
            layer._mean.set_value(rng.normal(size=channels).astype("float32"))
            layer._variance.set_value(rng.uniform(0.5, 2.0, size=channels).astype("float32"))


def _export_and_run(tmp_path, model, specs, inputs, opset):
    path = str(tmp_path / f"model_{opset}")
    paddle.onnx.export(model, path, input_spec=specs, opset_version=opset)
    proto = onnx.load(path + ".onnx")
    onnx.checker.check_model(proto, full_check=True)
    assert proto.opset_import[0].version == opset
    session = ort.InferenceSession(path + ".onnx", providers=["CPUExecutionProvider"])
    feed = {i.name: x for i, x in zip(session.get_inputs(), inputs)}
    return proto, session.run(None, feed)


def _node_types(proto):
    return {node.op_type for node in proto.graph.node}


CASES = {
    "mlp": (mlp, [InputSpec([None, 8], "float32", "x")], [(3, 8)]),
    "lenet": (lenet, [InputSpec([None, 1, 16, 16], "float32", "image")], [(2, 1, 16, 16)]),
    "encoder": (TinyEncoder, [InputSpec([None, 5, 16], "float32", "tokens")], [(2, 5, 16)]),
    "token_classifier": (TokenClassifier, [InputSpec([None, 6], "int64", "ids")], [(3, 6)]),
}


def _example_inputs(specs, shapes):
    rng = np.random.default_rng(0)
    inputs = []
    for spec, shape in zip(specs, shapes):
        if spec.dtype == paddle.int64:
            ids = rng.integers(1, 20, size=shape)
            ids[:, -2:] = 0  # padding at the end of each sequence
            inputs.append(ids)
        else:
            inputs.append(rng.normal(size=shape).astype("float32"))
    return inputs


@pytest.mark.parametrize("opset", [9, 11, 13, 17, 20])
@pytest.mark.parametrize("case", sorted(CASES))
def test_example_model_matches_dygraph(tmp_path, case, opset):
    make, specs, shapes = CASES[case]
    paddle.seed(7)
    model = make()
    _randomize_batch_norm_statistics(model)
    model.eval()
    inputs = _example_inputs(specs, shapes)
    expected = model(*[paddle.to_tensor(x) for x in inputs]).numpy()
    _, (got,) = _export_and_run(tmp_path, model, specs, inputs, opset)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_symbolic_batch_dimension(tmp_path):
    model = mlp()
    model.eval()
    x = np.random.default_rng(2).normal(size=(7, 8)).astype("float32")
    proto, (got,) = _export_and_run(tmp_path, model, [InputSpec([None, 8], "float32", "x")],
                                    [x], 11)
    batch = proto.graph.input[0].type.tensor_type.shape.dim[0]
    assert not batch.HasField("dim_value")
    np.testing.assert_allclose(got, model(paddle.to_tensor(x)).numpy(), rtol=1e-5, atol=1e-5)


def test_export_keeps_layer_training_mode_and_parameters(tmp_path):
    model = mlp()
    model.train()
    weight = model[0].weight
    paddle.onnx.export(model, str(tmp_path / "m"), input_spec=[InputSpec([None, 8])])
    assert model.training and model[4].training
    assert model[0].weight is weight
    assert paddle.in_dynamic_mode()


def test_parameters_become_initializers(tmp_path):
    model = mlp()
    proto, _ = _export_and_run(tmp_path, model, [InputSpec([None, 8], "float32", "x")],
                               [np.zeros((1, 8), "float32")], 11)
    initializers = {t.name: onnx.numpy_helper.to_array(t) for t in proto.graph.initializer}
    np.testing.assert_array_equal(initializers[model[0].weight.name], model[0].weight.numpy())
    assert [i.name for i in proto.graph.input] == ["x"]


class SplitSqueeze(nn.Layer):
    def forward(self, x):
        a, b = paddle.split(x, 2, axis=1)
        return paddle.squeeze(paddle.unsqueeze(a * b, [0, -1]), 0)


def test_opset_decides_between_attributes_and_inputs(tmp_path):
    spec = [InputSpec([None, 4], "float32", "x")]
    x = np.random.default_rng(3).normal(size=(3, 4)).astype("float32")
    expected = SplitSqueeze()(paddle.to_tensor(x)).numpy()
    for opset, axes_as_input in ((11, False), (13, True)):
        proto, (got,) = _export_and_run(tmp_path, SplitSqueeze(), spec, [x], opset)
        np.testing.assert_allclose(got, expected, rtol=1e-6)
        for node in proto.graph.node:
            if node.op_type in ("Unsqueeze", "Squeeze"):
                has_axes_attribute = any(a.name == "axes" for a in node.attribute)
                assert has_axes_attribute != axes_as_input, (opset, node)
                assert len(node.input) == (2 if axes_as_input else 1)


def test_opset_decides_layer_norm_and_gelu_form(tmp_path):
    spec = [InputSpec([None, 5, 16], "float32", "tokens")]
    x = np.zeros((1, 5, 16), "float32")
    assert {"LayerNormalization", "Gelu"}.isdisjoint(
        _node_types(_export_and_run(tmp_path, TinyEncoder(), spec, [x], 13)[0]))
    assert "Erf" in _node_types(_export_and_run(tmp_path, TinyEncoder(), spec, [x], 13)[0])
    types17 = _node_types(_export_and_run(tmp_path, TinyEncoder(), spec, [x], 17)[0])
    assert "LayerNormalization" in types17 and "Gelu" not in types17
    assert "Gelu" in _node_types(_export_and_run(tmp_path, TinyEncoder(), spec, [x], 20)[0])


class Unmapped(nn.Layer):
    def forward(self, x):
        return paddle.cumsum(paddle.exp(x), axis=1) + paddle.exp(x)


def test_unmapped_ops_are_reported_by_name(tmp_path):
    with pytest.raises(NotImplementedError) as info:
        paddle.onnx.export(Unmapped(), str(tmp_path / "u"), input_spec=[InputSpec([2, 3])])
    message = str(info.value)
    assert "'cumsum' (1 op)" in message and "'exp' (2 ops)" in message
    assert not (tmp_path / "u.onnx").exists()
    assert paddle.in_dynamic_mode()


def test_ceil_mode_pooling_needs_opset_10(tmp_path):
    model = nn.MaxPool2D(2, 2, ceil_mode=True)
    spec = [InputSpec([1, 1, 5, 5], "float32", "x")]
    with pytest.raises(NotImplementedError, match="ceil_mode.*opset_version >= 10"):
        paddle.onnx.export(model, str(tmp_path / "p"), input_spec=spec, opset_version=9)
    x = np.random.default_rng(4).normal(size=(1, 1, 5, 5)).astype("float32")
    _, (got,) = _export_and_run(tmp_path, model, spec, [x], 10)
    np.testing.assert_allclose(got, model(paddle.to_tensor(x)).numpy())


def test_bad_arguments_raise_typed_errors(tmp_path):
    path = str(tmp_path / "m")
    spec = [InputSpec([None, 8])]
    with pytest.raises(ValueError, match="input_spec"):
        paddle.onnx.export(mlp(), path)
    with pytest.raises(ValueError, match="opset_version"):
        paddle.onnx.export(mlp(), path, input_spec=spec, opset_version=3)
    with pytest.raises(TypeError, match="layer"):
        paddle.onnx.export(lambda x: x, path, input_spec=spec)
    with pytest.raises(TypeError, match="configs"):
        paddle.onnx.export(mlp(), path, input_spec=spec, no_such_option=True)
    with pytest.raises(TypeError, match=r"input_spec\[0\]"):
        paddle.onnx.export(mlp(), path, input_spec=[(None, 8)])
    model = mlp()
    paddle.enable_static()
    try:
        with pytest.raises(RuntimeError, match="dygraph"):
            paddle.onnx.export(model, path, input_spec=spec)
    finally:
        paddle.disable_static()


class TwoHeads(nn.Layer):
    """Two inputs, two outputs, and one Linear's weight shared with another Linear."""

    def __init__(self):
        super().__init__()
        self.first = nn.Linear(4, 4)
        self.second = nn.Linear(4, 4)
        self.second.weight = self.first.weight

    def forward(self, x, y):
        return self.first(x), {"sum": self.second(y) + x}


def test_several_inputs_outputs_and_a_shared_parameter(tmp_path):
    model = TwoHeads()
    rng = np.random.default_rng(5)
    x, y = (rng.normal(size=(2, 4)).astype("float32") for _ in range(2))
    specs = [InputSpec([None, 4], "float32", "x"), InputSpec([None, 4], "float32", "y")]
    proto, got = _export_and_run(tmp_path, model, specs, [x, y], 13)
    first, rest = model(paddle.to_tensor(x), paddle.to_tensor(y))
    for result, want in zip(got, (first.numpy(), rest["sum"].numpy())):
        np.testing.assert_allclose(result, want, rtol=1e-5, atol=1e-5)
    weights = [t for t in proto.graph.initializer if t.name == model.first.weight.name]
    assert len(weights) == 1 and len(proto.graph.initializer) == 3
