"""paddle.vision.ops: the detection and vision operators and their layers, each re-exported
from the module that implements it."""
from .roi import roi_align, RoIAlign  # noqa: F401
from .roi import roi_pool, RoIPool  # noqa: F401
from .roi import psroi_pool, PSRoIPool  # noqa: F401
from .roi import deform_conv2d, DeformConv2D  # noqa: F401
