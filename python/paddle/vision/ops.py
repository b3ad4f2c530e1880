"""paddle.vision.ops: the detection and region-of-interest ops."""
from .detection import (box_coder, distribute_fpn_proposals, generate_proposals,  # noqa: F401
                        matrix_nms, nms, prior_box, yolo_box, yolo_loss)
