"""paddle.vision: the vision ops (paddle.vision.ops) and models (paddle.vision.models)."""
from . import ops  # noqa: F401
from .models import *  # noqa: F401,F403  (paddle.vision.resnet18 etc., as in PaddlePaddle)
