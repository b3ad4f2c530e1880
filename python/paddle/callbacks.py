"""paddle.callbacks: the hooks of paddle.Model's training loops (see paddle.hapi.callbacks)."""
from .hapi.callbacks import (Callback, EarlyStopping, LRScheduler, ModelCheckpoint,  # noqa: F401
                             ProgBarLogger, ReduceLROnPlateau, VisualDL, WandbCallback)

__all__ = ["Callback", "ProgBarLogger", "ModelCheckpoint", "VisualDL", "LRScheduler",
           "EarlyStopping", "ReduceLROnPlateau", "WandbCallback"]
