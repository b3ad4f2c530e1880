"""paddle.onnx: exporting a Layer as an ONNX model."""
from .export import export  # noqa: F401

__all__ = ["export"]
