"""paddle.vision: the vision ops (paddle.vision.ops)."""
from . import ops  # noqa: F401
