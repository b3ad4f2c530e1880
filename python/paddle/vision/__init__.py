"""paddle.vision: the vision operators (paddle.vision.ops)."""
from . import ops  # noqa: F401
