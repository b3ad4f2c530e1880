"""paddle.metric's Metric classes against NumPy, in dygraph and with compute() in a static
program."""
import numpy as np
import pytest

import paddle
from static_testing import new_programs, static_mode


def _topk_hits(scores, labels, k):
    top = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    return (top == labels.reshape(-1, 1)).any(axis=1)


def test_accuracy_topk_accumulates_over_batches():
    rng = np.random.RandomState(0)
    metric = paddle.metric.Accuracy(topk=(1, 3))
    assert metric.name() == ["acc_top1", "acc_top3"]
    all_scores, all_labels = [], []
    for batch in range(3):
        scores = rng.rand(7, 5).astype("float32")
        labels = rng.randint(0, 5, (7, 1)).astype("int64")
        correct = metric.compute(paddle.to_tensor(scores), paddle.to_tensor(labels))
        assert correct.shape == [7, 3]
        batch_values = metric.update(correct)
        np.testing.assert_allclose(batch_values, [_topk_hits(scores, labels, 1).mean(),
                                                  _topk_hits(scores, labels, 3).mean()])
        all_scores.append(scores)
        all_labels.append(labels)
    scores, labels = np.concatenate(all_scores), np.concatenate(all_labels)
    np.testing.assert_allclose(metric.accumulate(), [_topk_hits(scores, labels, 1).mean(),
                                                     _topk_hits(scores, labels, 3).mean()])
    metric.reset()
    assert metric.accumulate() == [0.0, 0.0]


def test_accuracy_one_hot_and_flat_labels():
    scores = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]], dtype="float32")
    one_hot = np.array([[0, 1], [0, 1], [0, 1]], dtype="float32")
    metric = paddle.metric.Accuracy(name="my_acc")
    assert metric.name() == ["my_acc"]
    metric.update(metric.compute(paddle.to_tensor(scores), paddle.to_tensor(one_hot)))
    metric.update(metric.compute(paddle.to_tensor(scores),
                                 paddle.to_tensor(np.array([1, 0, 0], dtype="int64"))))
    assert metric.accumulate() == pytest.approx(4 / 6)


def test_accuracy_compute_in_a_static_program():
    rng = np.random.RandomState(1)
    scores = rng.rand(6, 4).astype("float32")
    labels = rng.randint(0, 4, (6, 1)).astype("int64")
    metric = paddle.metric.Accuracy(topk=(2,))
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 4], "float32")
            y = paddle.static.data("y", [None, 1], "int64")
            correct = metric.compute(x, y)
        exe = paddle.static.Executor(paddle.CPUPlace())
        (result,) = exe.run(main, feed={"x": scores, "y": labels}, fetch_list=[correct])
    assert metric.update(result) == pytest.approx(_topk_hits(scores, labels, 2).mean())


def test_precision_and_recall():
    rng = np.random.RandomState(2)
    preds = rng.rand(40).astype("float32")
    labels = rng.randint(0, 2, 40).astype("int64")
    predicted = np.floor(preds + 0.5).astype(int)
    precision = paddle.metric.Precision()
    recall = paddle.metric.Recall()
    for start in range(0, 40, 10):
        precision.update(paddle.to_tensor(preds[start:start + 10]),
                         paddle.to_tensor(labels[start:start + 10]))
        recall.update(preds[start:start + 10].reshape(-1, 1), labels[start:start + 10])
    tp = np.sum((predicted == 1) & (labels == 1))
    assert precision.accumulate() == pytest.approx(tp / np.sum(predicted == 1))
    assert recall.accumulate() == pytest.approx(tp / np.sum(labels == 1))
    assert (precision.name(), recall.name()) == ("precision", "recall")
    precision.reset()
    assert precision.accumulate() == 0.0


def _bucketed_roc_auc(probabilities, labels, num_thresholds):
    """The trapezoid area under the ROC curve with the scores bucketed as Paddle does."""
    buckets = (probabilities * num_thresholds).astype(int)
    thresholds = np.arange(num_thresholds, -1, -1)
    tpr = [np.sum((buckets >= t) & (labels == 1)) for t in thresholds]
    fpr = [np.sum((buckets >= t) & (labels == 0)) for t in thresholds]
    tpr = np.array([0] + tpr, dtype=float) / np.sum(labels == 1)
    fpr = np.array([0] + fpr, dtype=float) / np.sum(labels == 0)
    return np.trapezoid(tpr, fpr) if hasattr(np, "trapezoid") else np.trapz(tpr, fpr)


def test_auc_against_numpy():
    rng = np.random.RandomState(3)
    probabilities = rng.rand(200)
    labels = (rng.rand(200) < probabilities).astype("int64")
    preds = np.stack([1 - probabilities, probabilities], axis=1).astype("float32")
    auc = paddle.metric.Auc(num_thresholds=255)
    auc.update(paddle.to_tensor(preds[:120]), paddle.to_tensor(labels[:120]))
    auc.update(preds[120:], labels[120:])
    assert auc.accumulate() == pytest.approx(
        _bucketed_roc_auc(preds[:, 1], labels, 255), rel=1e-12)
    auc.reset()
    assert auc.accumulate() == 0.0


def test_metric_base_is_abstract():
    with pytest.raises(TypeError):
        paddle.metric.Metric()

    class Mean(paddle.metric.Metric):
        def reset(self):
            self.values = []

        def update(self, value):
            self.values.append(float(value))

        def accumulate(self):
            return float(np.mean(self.values))

        def name(self):
            return "mean"

    metric = Mean()
    metric.reset()
    assert metric.compute(1, 2) == (1, 2)
    metric.update(2.0)
    metric.update(4.0)
    assert metric.accumulate() == 3.0


@pytest.mark.parametrize("make, words", [
    (lambda: paddle.metric.Accuracy(topk=(0,)), "topk"),
    (lambda: paddle.metric.Auc(curve="XY"), "curve"),
    (lambda: paddle.metric.Auc(num_thresholds=0), "num_thresholds"),
])
def test_bad_constructor_arguments(make, words):
    with pytest.raises(ValueError, match=words):
        make()


def test_bad_update_arguments():
    with pytest.raises(ValueError, match="preds"):
        paddle.metric.Precision().update([0.2], np.array([1]))
    with pytest.raises(ValueError, match="labels"):
        paddle.metric.Recall().update(np.array([0.2]), [1])
    with pytest.raises(ValueError, match=r"preds"):
        paddle.metric.Auc().update(np.array([0.2, 0.4]), np.array([1, 0]))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        paddle.metric.Auc().update(np.array([[0.0, 1.5]]), np.array([1]))


def test_accuracy_function_still_exported():
    scores = paddle.to_tensor(np.array([[0.1, 0.9], [0.8, 0.2]], dtype="float32"))
    labels = paddle.to_tensor(np.array([[1], [1]], dtype="int64"))
    assert float(paddle.metric.accuracy(scores, labels)) == pytest.approx(0.5)
