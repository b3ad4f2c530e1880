"""The stateful metrics that paddle.Model reports: Metric (the interface), Accuracy, Precision,
Recall and Auc. compute() runs in the graph (on the network's outputs, so in a static program
too); update() takes its results (or the raw predictions) as NumPy and accumulates counts."""
import abc

import numpy as np

import paddle
from ..base.libpaddle import Tensor

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc"]


def _to_numpy(value, argument, metric):
    if isinstance(value, Tensor):
        return value.numpy()
    if isinstance(value, np.ndarray):
        return value
    raise ValueError(f"{metric}.update(): '{argument}' must be a numpy ndarray or Tensor, but "
                     f"received {type(value).__name__}")


class Metric(metaclass=abc.ABCMeta):
    """A metric: compute(*outputs_and_labels) in the graph, then update(*compute_results) with
    NumPy values, accumulate() for the value so far, reset() between epochs, name() for logs.
    The default compute() passes its inputs through."""

    def __init__(self):
        pass

    @abc.abstractmethod
    def reset(self):
        raise NotImplementedError(f"function 'reset' not implemented in "
                                  f"{type(self).__name__}.")

    @abc.abstractmethod
    def update(self, *args):
        raise NotImplementedError(f"function 'update' not implemented in "
                                  f"{type(self).__name__}.")

    @abc.abstractmethod
    def accumulate(self):
        raise NotImplementedError(f"function 'accumulate' not implemented in "
                                  f"{type(self).__name__}.")

    @abc.abstractmethod
    def name(self):
        raise NotImplementedError(f"function 'name' not implemented in "
                                  f"{type(self).__name__}.")

    def compute(self, *args):
        return args


class Accuracy(Metric):
    """Top-k accuracy for each k of `topk`; labels are class indices ([N] or [N, 1]) or
    one-hot rows."""

    def __init__(self, topk=(1,), name=None, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if isinstance(topk, int):
            topk = (topk,)
        if not topk or not all(isinstance(k, int) and k > 0 for k in topk):
            raise ValueError(f"Accuracy(): 'topk' must be positive integers, but received "
                             f"{topk}")
        self.topk = topk
        self.maxk = max(topk)
        name = name or "acc"
        self._name = [f"{name}_top{k}" for k in topk] if self.maxk != 1 else [name]
        self.reset()

    def compute(self, pred, label, *args):
        """[N, maxk] float32: whether the i-th highest score is the label's class."""
        order = paddle.argsort(pred, axis=-1, descending=True)
        order = paddle.slice(order, axes=[len(order.shape) - 1], starts=[0], ends=[self.maxk])
        if len(label.shape) == 1 or (len(label.shape) == 2 and label.shape[-1] == 1):
            # A static program's label may have a -1 batch dimension: reshape, not squeeze.
            label = paddle.reshape(label, (-1, 1))
        else:
            label = paddle.argmax(label, axis=-1, keepdim=True)
        return paddle.cast(order == label.astype(order.dtype), "float32")

    def update(self, correct, *args):
        correct = _to_numpy(correct, "correct", "Accuracy")
        samples = np.prod(np.array(correct.shape[:-1]))
        accuracies = []
        for i, k in enumerate(self.topk):
            hits = correct[..., :k].sum()
            accuracies.append(float(hits) / samples)
            self.total[i] += hits
            self.count[i] += samples
        return accuracies[0] if len(self.topk) == 1 else accuracies

    def reset(self):
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self):
        values = [float(t) / c if c > 0 else 0.0 for t, c in zip(self.total, self.count)]
        return values[0] if len(self.topk) == 1 else values

    def name(self):
        return self._name


class Precision(Metric):
    """Binary precision tp / (tp + fp): a prediction is positive when it rounds to 1."""

    def __init__(self, name="precision", *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fp = 0
        self._name = name

    def update(self, preds, labels):
        preds = _to_numpy(preds, "preds", "Precision")
        labels = _to_numpy(labels, "labels", "Precision")
        predicted = np.floor(preds + 0.5).astype("int32").reshape(labels.shape[0], -1)[:, 0]
        labels = labels.reshape(labels.shape[0], -1)[:, 0]
        positive = predicted == 1
        self.tp += int(np.sum(positive & (labels == 1)))
        self.fp += int(np.sum(positive & (labels != 1)))

    def reset(self):
        self.tp = 0
        self.fp = 0

    def accumulate(self):
        predicted_positive = self.tp + self.fp
        return float(self.tp) / predicted_positive if predicted_positive != 0 else 0.0

    def name(self):
        return self._name


class Recall(Metric):
    """Binary recall tp / (tp + fn): a prediction is positive when it rounds to 1."""

    def __init__(self, name="recall", *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fn = 0
        self._name = name

    def update(self, preds, labels):
        preds = _to_numpy(preds, "preds", "Recall")
        labels = _to_numpy(labels, "labels", "Recall")
        predicted = np.rint(preds).astype("int32").reshape(labels.shape[0], -1)[:, 0]
        labels = labels.reshape(labels.shape[0], -1)[:, 0]
        actual = labels == 1
        self.tp += int(np.sum(actual & (predicted == 1)))
        self.fn += int(np.sum(actual & (predicted != 1)))

    def accumulate(self):
        actual_positive = self.tp + self.fn
        return float(self.tp) / actual_positive if actual_positive != 0 else 0.0

    def reset(self):
        self.tp = 0
        self.fn = 0

    def name(self):
        return self._name


class Auc(Metric):
    """Area under the ROC curve of the positive-class probability preds[:, 1], from a histogram
    of num_thresholds + 1 buckets (as Paddle approximates it)."""

    def __init__(self, curve="ROC", num_thresholds=4095, name="auc", *args, **kwargs):
        super().__init__(*args, **kwargs)
        if curve not in ("ROC", "PR"):
            raise ValueError(f"Auc(): 'curve' must be 'ROC' or 'PR', but received {curve!r}")
        if not isinstance(num_thresholds, int) or num_thresholds <= 0:
            raise ValueError(f"Auc(): 'num_thresholds' must be a positive integer, but "
                             f"received {num_thresholds}")
        self._curve = curve
        self._num_thresholds = num_thresholds
        self._name = name
        self.reset()

    def update(self, preds, labels):
        labels = _to_numpy(labels, "labels", "Auc").reshape(-1)
        preds = _to_numpy(preds, "preds", "Auc")
        if preds.ndim != 2 or preds.shape[1] < 2 or preds.shape[0] != labels.shape[0]:
            raise ValueError(f"Auc.update(): 'preds' must have shape [N, 2] for {labels.shape[0]} "
                             f"labels, but received shape {list(preds.shape)}")
        buckets = (preds[:, 1] * self._num_thresholds).astype(np.int64)
        if buckets.size and (buckets.min() < 0 or buckets.max() > self._num_thresholds):
            raise ValueError("Auc.update(): the probabilities in preds[:, 1] must lie in [0, 1]")
        positive = labels.astype(bool)
        np.add.at(self._stat_pos, buckets[positive], 1.0)
        np.add.at(self._stat_neg, buckets[~positive], 1.0)

    @staticmethod
    def trapezoid_area(x1, x2, y1, y2):
        return abs(x1 - x2) * (y1 + y2) / 2.0

    def accumulate(self):
        # Walk the thresholds from high to low, integrating true positives over false ones.
        positives = np.cumsum(self._stat_pos[::-1])
        negatives = np.cumsum(self._stat_neg[::-1])
        previous_pos = np.concatenate([[0.0], positives[:-1]])
        previous_neg = np.concatenate([[0.0], negatives[:-1]])
        area = float(np.sum(np.abs(negatives - previous_neg) * (positives + previous_pos) / 2.0))
        total_pos, total_neg = positives[-1], negatives[-1]
        return area / total_pos / total_neg if total_pos > 0.0 and total_neg > 0.0 else 0.0

    def reset(self):
        self._stat_pos = np.zeros(self._num_thresholds + 1)
        self._stat_neg = np.zeros(self._num_thresholds + 1)

    def name(self):
        return self._name
