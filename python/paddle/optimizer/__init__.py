"""paddle.optimizer: SGD, Momentum, Adam, AdamW, Adagrad and the lr schedulers."""
from . import lr  # noqa: F401
from .adagrad import Adagrad
from .adam import Adam
from .adamw import AdamW
from .momentum import Momentum
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Adagrad", "Adam", "AdamW", "Momentum", "Optimizer", "SGD"]
