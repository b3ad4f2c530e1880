"""paddle.static.nn: layers as functions that create their parameters in the program."""
from .common import batch_norm, embedding, fc  # noqa: F401
from .control_flow import cond, while_loop  # noqa: F401
from .conv import conv2d, conv2d_transpose, conv3d, conv3d_transpose  # noqa: F401
from .norm import group_norm, instance_norm, spectral_norm  # noqa: F401
from .decoding import beam_search, beam_search_decode  # noqa: F401
