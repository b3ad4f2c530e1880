"""Loss functions against NumPy re-implementations of Paddle's documented semantics."""
import numpy as np
import pytest

import paddle
import paddle.nn as nn
import paddle.nn.functional as F

RNG = np.random.RandomState(2024)
N, C = 6, 4
LOGITS = RNG.randn(N, C).astype("float64")
LABELS = np.array([0, 3, 1, 1, 2, 3], dtype="int64")
WEIGHT = np.array([0.5, 1.0, 2.0, 1.5], dtype="float64")


def _log_softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def _np_cross_entropy(logits, labels, weight=None, ignore_index=-100, reduction="mean",
                      label_smoothing=0.0):
    """Hard-label reference: per-sample -log softmax[label], weighted, 'mean' divided by the
    number (or total weight) of non-ignored samples."""
    logp = _log_softmax(logits)
    valid = labels != ignore_index
    safe = np.where(valid, labels, 0)
    if label_smoothing > 0:
        target = np.eye(C)[safe] * (1 - label_smoothing) + label_smoothing / C
        per = -(target * logp).sum(-1)
    else:
        per = -logp[np.arange(len(labels)), safe]
    w = weight[safe] if weight is not None else np.ones(len(labels))
    if weight is not None and label_smoothing > 0:
        w = target @ weight
    w = w * valid
    per = per * w
    if reduction == "sum":
        return per.sum()
    if reduction == "mean":
        return per.sum() / w.sum()
    return per


def _ce(logits, labels, **kwargs):
    return F.cross_entropy(paddle.to_tensor(logits), paddle.to_tensor(labels), **kwargs).numpy()


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_hard_labels(reduction):
    expected = _np_cross_entropy(LOGITS, LABELS, reduction=reduction)
    out = _ce(LOGITS, LABELS, reduction=reduction)
    np.testing.assert_allclose(out, expected, rtol=1e-10)
    # A label with its class axis ([N, 1]) gives the same numbers; 'none' keeps that axis.
    out2 = _ce(LOGITS, LABELS[:, None], reduction=reduction)
    np.testing.assert_allclose(out2.reshape(np.shape(expected)), expected, rtol=1e-10)
    if reduction == "none":
        assert out.shape == (N,) and out2.shape == (N, 1)
    else:
        assert out.shape == ()


def test_ignore_index_and_weight():
    labels = LABELS.copy()
    labels[[1, 4]] = -100
    for weight in (None, WEIGHT):
        w = None if weight is None else paddle.to_tensor(weight)
        for reduction in ("mean", "sum", "none"):
            np.testing.assert_allclose(
                _ce(LOGITS, labels, weight=w, reduction=reduction),
                _np_cross_entropy(LOGITS, labels, weight, reduction=reduction), rtol=1e-10)
    # A custom ignore_index.
    np.testing.assert_allclose(_ce(LOGITS, LABELS, ignore_index=3),
                               _np_cross_entropy(LOGITS, LABELS, ignore_index=3), rtol=1e-10)
    # Everything ignored: 0, not NaN.
    assert _ce(LOGITS, np.full(N, -100, "int64")) == 0.0


def test_mean_divides_by_the_kept_labels_whatever_the_sign_of_ignore_index():
    """The decision of docs/design.md (Losses): PaddlePaddle 3.3.1 gives 1.4644 for the first
    case (it divides by all 4 labels when ignore_index is negative) and 1.8439 for the second."""
    logits = np.array([[1, 2, 3], [1, 0, 0], [0.5, 0.2, 0.1], [3, 1, 0]], "float32")
    got = _ce(logits, np.array([0, -100, 2, 1], "int64"))
    np.testing.assert_allclose(got, 1.9525169, rtol=1e-6)
    got = _ce(logits, np.array([0, 1, 2, 1], "int64"), ignore_index=1)
    np.testing.assert_allclose(got, 1.8438524, rtol=1e-6)


def test_soft_labels():
    soft = RNG.rand(N, C)
    soft /= soft.sum(-1, keepdims=True)
    per = -(soft * _log_softmax(LOGITS)).sum(-1)
    np.testing.assert_allclose(_ce(LOGITS, soft, soft_label=True), per.mean(), rtol=1e-10)
    np.testing.assert_allclose(_ce(LOGITS, soft, soft_label=True, reduction="none"),
                               per[:, None], rtol=1e-10)
    w = soft @ WEIGHT
    np.testing.assert_allclose(
        _ce(LOGITS, soft, soft_label=True, weight=paddle.to_tensor(WEIGHT)),
        (per * w).sum() / w.sum(), rtol=1e-10)
    with pytest.raises(ValueError):
        _ce(LOGITS, soft, soft_label=True, ignore_index=1)


def test_label_smoothing():
    for weight in (None, WEIGHT):
        w = None if weight is None else paddle.to_tensor(weight)
        np.testing.assert_allclose(
            _ce(LOGITS, LABELS, weight=w, label_smoothing=0.1),
            _np_cross_entropy(LOGITS, LABELS, weight, label_smoothing=0.1), rtol=1e-10)
    # Paddle keeps the class axis of a 'none' result when smoothing.
    assert _ce(LOGITS, LABELS, label_smoothing=0.2, reduction="none").shape == (N, 1)


def test_without_softmax_and_other_axis():
    probs = np.exp(_log_softmax(LOGITS))
    np.testing.assert_allclose(_ce(probs, LABELS, use_softmax=False),
                               _np_cross_entropy(LOGITS, LABELS), rtol=1e-8)
    # Class axis 1 of a [N, C, L] input, labels [N, L].
    x = RNG.randn(2, C, 3)
    labels = RNG.randint(0, C, size=(2, 3)).astype("int64")
    logp = _log_softmax(x, axis=1)
    per = -np.take_along_axis(logp, labels[:, None, :], axis=1)[:, 0, :]
    out = _ce(x, labels, axis=1, reduction="none")
    np.testing.assert_allclose(out, per, rtol=1e-10)
    np.testing.assert_allclose(_ce(x, labels, axis=1), per.mean(), rtol=1e-10)


def test_gradient_matches_softmax_minus_onehot():
    x = paddle.to_tensor(LOGITS, stop_gradient=False)
    loss = F.cross_entropy(x, paddle.to_tensor(LABELS))
    loss.backward()
    expected = (np.exp(_log_softmax(LOGITS)) - np.eye(C)[LABELS]) / N
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-8, atol=1e-12)


def test_cross_entropy_layer_and_errors():
    layer = nn.CrossEntropyLoss(weight=paddle.to_tensor(WEIGHT), reduction="sum")
    np.testing.assert_allclose(layer(paddle.to_tensor(LOGITS), paddle.to_tensor(LABELS)).numpy(),
                               _np_cross_entropy(LOGITS, LABELS, WEIGHT, reduction="sum"),
                               rtol=1e-10)
    with pytest.raises(ValueError):
        nn.CrossEntropyLoss(reduction="avg")
    with pytest.raises(ValueError):
        _ce(LOGITS, LABELS, weight=paddle.to_tensor(WEIGHT[:3]))
    with pytest.raises(ValueError):
        _ce(LOGITS, LABELS[:, None, None])


def test_mse_l1_nll():
    a = RNG.randn(3, 4).astype("float32")
    b = RNG.randn(3, 4).astype("float32")
    ta, tb = paddle.to_tensor(a), paddle.to_tensor(b)
    np.testing.assert_allclose(F.mse_loss(ta, tb).numpy(), ((a - b) ** 2).mean(), rtol=1e-6)
    np.testing.assert_allclose(nn.MSELoss("sum")(ta, tb).numpy(), ((a - b) ** 2).sum(),
                               rtol=1e-6)
    np.testing.assert_allclose(F.mse_loss(ta, tb, "none").numpy(), (a - b) ** 2, rtol=1e-6)
    np.testing.assert_allclose(nn.L1Loss()(ta, tb).numpy(), np.abs(a - b).mean(), rtol=1e-6)
    with pytest.raises(ValueError):
        F.mse_loss(ta, tb, "avg")

    logp = _log_softmax(LOGITS)
    labels = LABELS.copy()
    labels[2] = -100
    valid = labels != -100
    safe = np.where(valid, labels, 0)
    per = -logp[np.arange(N), safe] * WEIGHT[safe] * valid
    out = F.nll_loss(paddle.to_tensor(logp), paddle.to_tensor(labels),
                     weight=paddle.to_tensor(WEIGHT))
    np.testing.assert_allclose(out.numpy(), per.sum() / (WEIGHT[safe] * valid).sum(), rtol=1e-10)
    out = nn.NLLLoss(reduction="none")(paddle.to_tensor(logp), paddle.to_tensor(labels))
    np.testing.assert_allclose(out.numpy(), -logp[np.arange(N), safe] * valid, rtol=1e-10)
