"""paddle.metric: evaluation metrics."""
from .metric_classes import Accuracy, Auc, Metric, Precision, Recall  # noqa: F401
from .metrics import accuracy  # noqa: F401

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]
