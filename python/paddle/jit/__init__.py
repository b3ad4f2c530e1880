"""paddle.jit: dygraph to static. `to_static` traces a Layer's forward (or a function) into a
static Program and runs it with the Executor; `save` writes it as an inference model
(`.pdmodel` + `.pdiparams`) and `load` returns it as a callable TranslatedLayer."""
from .api import (StaticFunction, ToStaticError, enable_to_static, load,  # noqa: F401
                  not_to_static, save, to_static)
from .translated_layer import TranslatedLayer  # noqa: F401

__all__ = ["to_static", "not_to_static", "enable_to_static", "save", "load", "StaticFunction",
           "TranslatedLayer", "ToStaticError"]
