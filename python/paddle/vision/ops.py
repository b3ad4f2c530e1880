"""paddle.vision.ops: the detection and region-of-interest ops and their layers, each re-exported
from the module that implements it."""
from .detection import (box_coder, distribute_fpn_proposals, generate_proposals,  # noqa: F401
                        matrix_nms, nms, prior_box, yolo_box, yolo_loss)
from .roi import roi_align, RoIAlign  # noqa: F401
from .roi import roi_pool, RoIPool  # noqa: F401
from .roi import psroi_pool, PSRoIPool  # noqa: F401
from .roi import deform_conv2d, DeformConv2D  # noqa: F401
from ._conv_norm_activation import ConvNormActivation  # noqa: F401
