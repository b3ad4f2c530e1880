"""paddle.metric: evaluation metrics."""
from .metrics import accuracy  # noqa: F401
