"""paddle.hapi: the high-level API (paddle.Model, callbacks, summary and flops)."""
from . import callbacks  # noqa: F401
from .dynamic_flops import flops  # noqa: F401
from .model import Model  # noqa: F401
from .model_summary import summary  # noqa: F401

__all__ = ["Model", "callbacks", "flops", "summary"]
