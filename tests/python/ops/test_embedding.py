"""paddle.nn.Embedding, F.embedding and F.one_hot beyond the op harness: the layer's
initialisation, padding_idx gradients, and a tiny embedding model that learns."""
import numpy as np
import pytest

import paddle
import paddle.nn as nn
import paddle.nn.functional as F


def test_layer_shape_dtype_and_default_init():
    paddle.seed(0)
    layer = nn.Embedding(10, 4)
    assert layer.weight.shape == [10, 4]
    assert layer.weight.dtype == paddle.float32
    w = layer.weight.numpy()
    bound = np.sqrt(6.0 / (10 + 4))  # XavierUniform, Paddle's default weight initializer
    assert np.all(np.abs(w) <= bound + 1e-6) and np.abs(w).max() > 0
    out = layer(paddle.to_tensor([[1, 2, 3], [4, 5, 9]]))
    assert out.shape == [2, 3, 4]
    np.testing.assert_array_equal(out.numpy()[1, 2], w[9])


@pytest.mark.parametrize("padding_idx, row", [(2, 2), (-1, 5), (0, 0)])
def test_layer_zeroes_padding_row(padding_idx, row):
    layer = nn.Embedding(6, 3, padding_idx=padding_idx)
    assert layer._padding_idx == row
    w = layer.weight.numpy()
    np.testing.assert_array_equal(w[row], np.zeros(3))
    assert np.abs(np.delete(w, row, axis=0)).max() > 0


def test_layer_rejects_bad_arguments():
    with pytest.raises(ValueError, match="padding_idx"):
        nn.Embedding(4, 3, padding_idx=4)
    with pytest.raises(ValueError, match="padding_idx"):
        nn.Embedding(4, 3, padding_idx=-5)
    with pytest.raises(ValueError, match="num_embeddings"):
        nn.Embedding(0, 3)


def test_weight_attr_initializer():
    layer = nn.Embedding(3, 2, weight_attr=paddle.ParamAttr(
        initializer=nn.initializer.Constant(0.5)))
    np.testing.assert_array_equal(layer.weight.numpy(), np.full((3, 2), 0.5, np.float32))


def test_padding_row_gets_no_gradient():
    weight = paddle.to_tensor(np.arange(12, dtype="float64").reshape(4, 3), stop_gradient=False)
    ids = paddle.to_tensor([[0, 2, 2], [3, 2, 0]])
    out = F.embedding(ids, weight, padding_idx=2)
    np.testing.assert_array_equal(out.numpy()[0, 1], np.zeros(3))
    (out * paddle.to_tensor(np.arange(18, dtype="float64").reshape(2, 3, 3))).sum().backward()
    g = np.arange(18, dtype="float64").reshape(6, 3)
    expected = np.zeros((4, 3))
    expected[0] = g[0] + g[5]
    expected[3] = g[3]
    np.testing.assert_allclose(weight.grad.numpy(), expected)


def test_repeated_ids_accumulate_and_negative_padding_idx():
    weight = paddle.to_tensor(np.ones((3, 2), "float32"), stop_gradient=False)
    out = F.embedding(paddle.to_tensor([1, 1, 2, 0, 1], dtype="int32"), weight, padding_idx=-1)
    out.sum().backward()
    np.testing.assert_array_equal(weight.grad.numpy(), [[1, 1], [3, 3], [0, 0]])


def test_out_of_range_id_names_value_and_table_size():
    weight = paddle.zeros([4, 3])
    with pytest.raises(IndexError, match=r"7.*\[0, 4\)"):
        F.embedding(paddle.to_tensor([1, 7]), weight)


def test_one_hot():
    out = F.one_hot(paddle.to_tensor([[0, 2], [1, 1]]), num_classes=3)
    assert out.dtype == paddle.float32 and out.shape == [2, 2, 3]
    np.testing.assert_array_equal(out.numpy(), np.eye(3, dtype="float32")[[[0, 2], [1, 1]]])
    with pytest.raises(IndexError, match="3"):
        F.one_hot(paddle.to_tensor([3]), 3)


def test_tiny_embedding_model_trains():
    """Bag-of-embeddings classifier: the label is whether token 1 occurs in the sequence."""
    paddle.seed(1)
    rng = np.random.RandomState(0)
    ids = rng.randint(1, 6, size=(64, 4)).astype("int64")
    ids[rng.rand(64, 4) < 0.3] = 0  # padding
    labels = (ids == 1).any(axis=1).astype("int64")

    class Model(nn.Layer):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(6, 8, padding_idx=0)
            self.fc = nn.Linear(8, 2)

        def forward(self, x):
            return self.fc(self.emb(x).sum(axis=1))

    model = Model()
    opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=model.parameters())
    x, y = paddle.to_tensor(ids), paddle.to_tensor(labels)
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for _ in range(60):
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.5 * losses[0]
    accuracy = (model(x).numpy().argmax(1) == labels).mean()
    assert accuracy > 0.9
    # The padding row never receives an update.
    np.testing.assert_array_equal(model.emb.weight.numpy()[0], np.zeros(8))
