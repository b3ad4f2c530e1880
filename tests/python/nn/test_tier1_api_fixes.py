"""The tier-1 names and arguments that the docstring examples of PaddlePaddle use and that were
missing or different here (tests/python/compat/test_docstring_examples.py found them): checked
against NumPy."""
import numpy as np
import pytest

import paddle
import paddle.nn.functional as F


def test_mean_takes_a_keyword_dtype():
    x = paddle.to_tensor([1, 2, 4])
    out = paddle.mean(x, dtype="float64")
    assert out.dtype == paddle.float64 and out.shape == []
    np.testing.assert_allclose(out.numpy(), 7 / 3)
    y = paddle.to_tensor([[1.0, 2.0], [3.0, 5.0]])
    method = y.mean(axis=1, keepdim=True, dtype="float64")
    assert method.dtype == paddle.float64 and method.shape == [2, 1]
    np.testing.assert_allclose(method.numpy(), [[1.5], [4.0]])
    np.testing.assert_allclose(paddle.mean(y, 0).numpy(), [2.0, 3.5])


def test_paddle_tensor_module_holds_the_tensor_functions():
    np.testing.assert_array_equal(paddle.tensor.triu(paddle.ones([3, 3])).numpy(),
                                  np.triu(np.ones([3, 3])))
    assert paddle.tensor.add is paddle.add and paddle.tensor.mean is paddle.mean


def test_nn_loss_module_is_the_loss_layers():
    loss = paddle.nn.loss.MSELoss()(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([0.0, 4.0]))
    np.testing.assert_allclose(loss.numpy(), 2.5)


def test_cross_entropy_smooths_one_hot_labels_as_distributions():
    logits = np.array([[0.2, 0.5, 0.9], [0.7, 0.1, 0.4]])
    classes = np.array([2, 0])
    one_hot = np.eye(3, dtype="float32")[classes]
    eps = 0.4
    target = (1 - eps) * np.eye(3)[classes] + eps / 3
    log_softmax = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    expected = -(target * log_softmax).sum(-1).mean()
    for label in (paddle.to_tensor(classes), paddle.to_tensor(one_hot)):
        out = F.cross_entropy(paddle.to_tensor(logits), label, label_smoothing=eps)
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)


def test_nll_loss_takes_labels_with_a_trailing_one():
    log_prob = np.log(np.array([[0.2, 0.8], [0.6, 0.4], [0.5, 0.5]], dtype="float32"))
    label = np.array([[1], [0], [1]])
    out = F.nll_loss(paddle.to_tensor(log_prob), paddle.to_tensor(label), reduction="none")
    assert out.shape == [3]
    np.testing.assert_allclose(out.numpy(), -log_prob[[0, 1, 2], [1, 0, 1]], rtol=1e-6)


def test_label_smooth():
    label = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], dtype="float32")
    np.testing.assert_allclose(F.label_smooth(paddle.to_tensor(label)).numpy(),
                               0.9 * label + 0.1 / 3, rtol=1e-6)
    prior = np.array([[0.2, 0.3, 0.5]], dtype="float32")
    out = F.label_smooth(paddle.to_tensor(label), prior_dist=paddle.to_tensor(prior),
                         epsilon=0.2)
    np.testing.assert_allclose(out.numpy(), 0.8 * label + 0.2 * prior, rtol=1e-6)
    with pytest.raises(ValueError, match="label_smooth.*epsilon"):
        F.label_smooth(paddle.to_tensor(label), epsilon=1.5)
    with pytest.raises(TypeError, match="label_smooth.*label"):
        F.label_smooth(paddle.to_tensor([[0, 1]]))
    # No classes: an empty result (the fuzzer found a division by the class count of 0).
    for shape in ([0], [3, 0]):
        assert F.label_smooth(paddle.zeros(shape)).shape == shape
    with pytest.raises(ValueError, match="label_smooth.*last dim.*shape \\[\\]"):
        F.label_smooth(paddle.to_tensor(1.0))


def test_softmax_with_cross_entropy_keeps_the_class_axis():
    logits = np.array([[1.0, 2.0, 3.0], [0.5, 0.1, -1.0]], dtype="float32")
    label = np.array([[2], [0]])
    loss, softmax = F.softmax_with_cross_entropy(paddle.to_tensor(logits),
                                                 paddle.to_tensor(label), return_softmax=True)
    expected_softmax = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    assert loss.shape == [2, 1]
    np.testing.assert_allclose(softmax.numpy(), expected_softmax, rtol=1e-6)
    np.testing.assert_allclose(loss.numpy(), -np.log(expected_softmax[[0, 1], [2, 0]])[:, None],
                               rtol=1e-6)
    soft = F.softmax_with_cross_entropy(paddle.to_tensor(logits),
                                        paddle.to_tensor(expected_softmax), soft_label=True)
    assert soft.shape == [2, 1]


def test_sequence_mask():
    lengths = np.array([[1, 3], [0, 2]])
    mask = F.sequence_mask(paddle.to_tensor(lengths))
    assert mask.dtype == paddle.int64 and mask.shape == [2, 2, 3]
    np.testing.assert_array_equal(mask.numpy(), np.arange(3) < lengths[..., None])
    mask = F.sequence_mask(paddle.to_tensor([1, 3]), maxlen=5, dtype="float32")
    np.testing.assert_array_equal(mask.numpy(), [[1, 0, 0, 0, 0], [1, 1, 1, 0, 0]])
    with pytest.raises(TypeError, match="sequence_mask.*'x'"):
        F.sequence_mask(paddle.to_tensor([1.0]))
