"""paddle.static.amp: automatic mixed precision for static programs (decorate, the op lists)."""
from . import decorator, fp16_lists  # noqa: F401
from .decorator import OptimizerWithMixedPrecision, decorate  # noqa: F401
from .fp16_lists import AutoMixedPrecisionLists, CustomOpLists  # noqa: F401

__all__ = ["decorate", "AutoMixedPrecisionLists", "CustomOpLists"]
