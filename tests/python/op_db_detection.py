"""Harness entries (op_db.py) of the detection ops: iou_similarity, box_clip, box_coder,
prior_box, yolo_box, yolo_loss (and its gradient kernel), nms, multiclass_nms3, matrix_nms,
distribute_fpn_proposals and generate_proposals, through paddle.vision.ops where Paddle has a
Python API and paddle._C_ops otherwise, against the NumPy references of detection_reference.py.
Samples keep boxes, scores and IoUs away from the thresholds that decide which boxes survive, so
float32 and float64 runs make the same choices. Only yolo_loss has a gradient."""
import numpy as np

import paddle.vision.ops as V
from detection_reference import (np_box_clip, np_box_coder, np_distribute_fpn_proposals,
                                 np_generate_proposals, np_iou_similarity, np_matrix_nms,
                                 np_multiclass_nms3, np_nms, np_prior_box, np_yolo_box,
                                 np_yolo_loss, np_yolo_loss_grad, yolo_loss_parts)
from harness import ErrorSample, OpInfo, Sample
from paddle import _C_ops

FORWARD_ONLY = "forward-only, as in Paddle: its results are selections, counts or fixed encodings"


def uniform(rng, shape, low=-1.0, high=1.0):
    return np.asarray(rng.uniform(low, high, size=shape))


def rand_boxes(rng, n, extent=10.0, low=1.0, high=5.0):
    """n boxes [xmin, ymin, xmax, ymax] with corners in [0, extent) and sides in [low, high)."""
    corner = rng.uniform(0, extent, (n, 2))
    return np.concatenate([corner, corner + rng.uniform(low, high, (n, 2))], axis=1)


def int32(values):
    return np.asarray(values, dtype=np.int32)


def present(api):
    """The API's results, lists of tensors flattened, without the ones it returns as None (not
    requested)."""
    def call(*args, **kwargs):
        results = [r for r in api(*args, **kwargs) if r is not None]
        return [t for r in results for t in (r if isinstance(r, list) else [r])]
    call.__name__ = api.__name__
    return call


# ---------------------------------------------------------------- iou_similarity, box_clip
def iou_similarity(x, y, box_normalized=True):
    return _C_ops.iou_similarity(x, y, box_normalized)


def box_clip(input, im_info):
    return _C_ops.box_clip(input, im_info)


# ---------------------------------------------------------------- box_coder
def box_coder_samples(rng):
    offsets = lambda shape: uniform(rng, shape, -1, 1)  # noqa: E731
    return [
        Sample([rand_boxes(rng, 5), uniform(rng, (5, 4), 0.1, 0.3), rand_boxes(rng, 3)]),
        Sample([rand_boxes(rng, 4, 40), [0.1, 0.1, 0.2, 0.2], rand_boxes(rng, 2, 40)],
               {"box_normalized": False}),
        Sample([rand_boxes(rng, 4), uniform(rng, (4, 4), 0.1, 0.3), offsets((3, 4, 4))],
               {"code_type": "decode_center_size"}),
        Sample([rand_boxes(rng, 3), [0.2, 0.1, 0.4, 0.3], offsets((3, 5, 4))],
               {"code_type": "decode_center_size", "axis": 1}),
        Sample([rand_boxes(rng, 4, 30), None, offsets((2, 4, 4))],
               {"code_type": "decode_center_size", "box_normalized": False}),
        Sample([rand_boxes(rng, 3), None, rand_boxes(rng, 0)]),
    ]


def box_coder_errors():
    prior, target = np.zeros((5, 4)), np.zeros((3, 4))
    return [
        ErrorSample([prior, None, target], {"code_type": "encode"}, ValueError, "code_type"),
        ErrorSample([np.zeros((5, 3)), None, target], {}, ValueError, "4 coordinates"),
        ErrorSample([prior, None, np.zeros((3, 5, 4))], {}, ValueError, "'target_box' must be 2-D"),
        ErrorSample([prior, None, np.zeros((3, 5, 4))], {"code_type": "decode_center_size",
                                                         "axis": 2}, ValueError, "'axis'"),
        ErrorSample([prior, None, np.zeros((3, 4, 4))], {"code_type": "decode_center_size"},
                    ValueError, "'target_box'"),
        ErrorSample([prior, np.zeros((4, 4)), target], {}, ValueError, "prior_box_var"),
        ErrorSample([prior, [0.1, 0.2, 0.3], target], {}, ValueError, "'variance'"),
        ErrorSample([prior, "0.1", target], {}, TypeError, "prior_box_var"),
        ErrorSample([prior, None, np.zeros((3, 4), dtype=np.float32)], {}, ValueError,
                    "target_box"),
    ]


# ---------------------------------------------------------------- prior_box
def prior_box_samples(rng):
    return [
        Sample([uniform(rng, (1, 3, 3, 4)), uniform(rng, (1, 3, 12, 16)), [2.0, 4.0]],
               {"aspect_ratios": [2.0], "flip": True, "clip": True}),
        Sample([uniform(rng, (2, 2, 2, 3)), uniform(rng, (2, 2, 9, 12)), 3.0],
               {"max_sizes": [6.0], "aspect_ratios": [1.0, 2.0, 0.5], "steps": [4.0, 5.0],
                "offset": 0.3, "min_max_aspect_ratios_order": True,
                "variance": [0.1, 0.2, 0.3, 0.4]}),
        Sample([uniform(rng, (1, 1, 2, 2)), uniform(rng, (1, 1, 8, 8)), [1.5, 3.0]],
               {"max_sizes": [2.5, 5.0], "aspect_ratios": 1.5, "clip": True}),
        Sample([uniform(rng, (1, 1, 0, 3)), uniform(rng, (1, 1, 6, 6)), [2.0]]),
    ]


def prior_box_errors():
    feature, image = np.zeros((1, 2, 3, 3)), np.zeros((1, 2, 6, 6))
    return [
        ErrorSample([np.zeros((2, 3, 3)), image, [2.0]], {}, ValueError, "must be 4-D"),
        ErrorSample([feature, image, []], {}, ValueError, "min_sizes"),
        ErrorSample([feature, image, [-2.0]], {}, ValueError, "min_sizes"),
        ErrorSample([feature, image, [2.0]], {"max_sizes": [1.0]}, ValueError, "max_sizes"),
        ErrorSample([feature, image, [2.0, 3.0]], {"max_sizes": [4.0]}, ValueError, "max_sizes"),
        ErrorSample([feature, image, [2.0]], {"variance": [0.1, 0.2]}, ValueError, "variances"),
        ErrorSample([feature, image, [2.0]], {"variance": [0.1, 0.2, 0.0, 0.1]}, ValueError,
                    "variances"),
        ErrorSample([feature, image, [2.0]], {"aspect_ratios": [-1.0]}, ValueError,
                    "aspect_ratios"),
        ErrorSample([feature, image, [2.0]], {"steps": [1.0, 2.0, 3.0]}, ValueError, "steps"),
        ErrorSample([[1.0], image, [2.0]], {}, TypeError, "'input' must be a Tensor"),
    ]


# ---------------------------------------------------------------- yolo_box, yolo_loss
ANCHORS = [10, 13, 16, 30, 33, 23]


def yolo_box_samples(rng):
    return [
        Sample([uniform(rng, (2, 3 * 8, 3, 3), -2, 2), int32([[30, 40], [25, 20]]), ANCHORS, 3,
                0.5, 8]),
        Sample([uniform(rng, (1, 2 * 8, 2, 4), -2, 2), int32([[64, 48]]), [10, 13, 16, 30], 2,
                0.3, 16], {"iou_aware": True, "iou_aware_factor": 0.4, "clip_bbox": False,
                           "scale_x_y": 1.2}),
        Sample([uniform(rng, (1, 2 * 6, 4, 2), -2, 2), int32([[20, 20]]), [10, 13, 16, 30], 1,
                0.01, 4], {"scale_x_y": 1.05}),
        Sample([uniform(rng, (0, 3 * 8, 3, 3)), int32(np.zeros((0, 2))), ANCHORS, 3, 0.5, 8]),
    ]


def yolo_box_errors():
    x, size = np.zeros((2, 3 * 8, 3, 3)), int32([[30, 40], [25, 20]])
    return [
        ErrorSample([x, size, ANCHORS, 4, 0.5, 8], {}, ValueError, "dim 1 of argument 'x'"),
        ErrorSample([np.zeros((2, 3 * 8, 3, 3)), size, ANCHORS, 3, 0.5, 8], {"iou_aware": True},
                    ValueError, "dim 1 of argument 'x'"),
        ErrorSample([x, size, ANCHORS, 3, 0.5, 8], {"iou_aware": True, "iou_aware_factor": 1.5},
                    ValueError, "iou_aware_factor"),
        ErrorSample([x, size, [10, 13, 16], 3, 0.5, 8], {}, ValueError, "anchors"),
        ErrorSample([x, size, ANCHORS, 0, 0.5, 8], {}, ValueError, "class_num"),
        ErrorSample([x, np.zeros((2, 2)), ANCHORS, 3, 0.5, 8], {}, ValueError, "img_size"),
        ErrorSample([x, int32([[30, 40, 1], [25, 20, 1]]), ANCHORS, 3, 0.5, 8], {}, ValueError,
                    "img_size"),
        ErrorSample([x, int32([[30, 40]]), ANCHORS, 3, 0.5, 8], {}, ValueError, "img_size"),
        ErrorSample([np.zeros((24, 3, 3)), size, ANCHORS, 3, 0.5, 8], {}, ValueError, "4-D"),
        ErrorSample([x, size, 10, 3, 0.5, 8], {}, TypeError, "anchors"),
    ]


def ground_truth(rng, n, b, classes):
    """Boxes [n, b, 4] (center, size relative to the image; the last of each image is padding)
    and labels [n, b]."""
    boxes = np.concatenate([rng.uniform(0.05, 0.95, (n, b, 2)), rng.uniform(0.1, 0.6, (n, b, 2))],
                           axis=-1)
    boxes[:, -1] = 0
    return boxes, int32(rng.integers(0, classes, (n, b)))


def yolo_loss_samples(rng):
    gt1, label1 = ground_truth(rng, 2, 4, 3)
    gt2, label2 = ground_truth(rng, 1, 3, 2)
    gt3, label3 = ground_truth(rng, 2, 3, 1)
    return [
        Sample([uniform(rng, (2, 2 * 8, 4, 4)), gt1, label1, ANCHORS, [1, 2], 3, 0.5, 8],
               grad_args=[0]),
        Sample([uniform(rng, (1, 3 * 7, 3, 3)), gt2, label2, ANCHORS, [0, 1, 2], 2, 0.3, 16],
               {"gt_score": uniform(rng, (1, 3), 0.5, 1.0), "use_label_smooth": False,
                "scale_x_y": 1.1}, grad_args=[0]),
        Sample([uniform(rng, (2, 1 * 6, 2, 2)), gt3, label3, ANCHORS, [0], 1, 0.6, 32],
               grad_args=[0]),
    ]


def yolo_loss_errors():
    x = np.zeros((2, 2 * 8, 4, 4))
    gt, label = np.zeros((2, 3, 4)), int32(np.zeros((2, 3)))
    args = [ANCHORS, [1, 2], 3, 0.5, 8]
    return [
        ErrorSample([np.zeros((2, 16, 4, 3)), gt, label, *args], {}, ValueError, "square"),
        ErrorSample([x, gt, label, ANCHORS, [1, 2], 2, 0.5, 8], {}, ValueError,
                    "dim 1 of argument 'x'"),
        ErrorSample([x, gt, label, ANCHORS, [1, 3], 3, 0.5, 8], {}, ValueError, "anchor_mask"),
        ErrorSample([x, np.zeros((2, 3, 5)), label, *args], {}, ValueError, "gt_box"),
        ErrorSample([x, np.zeros((1, 3, 4)), label, *args], {}, ValueError, "gt_box"),
        ErrorSample([x, gt, np.zeros((2, 3)), *args], {}, ValueError, "gt_label"),
        ErrorSample([x, gt, int32(np.zeros((2, 2))), *args], {}, ValueError, "gt_label"),
        ErrorSample([x, gt, label, *args, np.zeros((2, 2))], {}, ValueError, "gt_score"),
        ErrorSample([x, gt, label, [10, 13, 16], [0], 3, 0.5, 8], {}, ValueError, "anchors"),
        ErrorSample([x, gt, label, 10, [1, 2], 3, 0.5, 8], {}, TypeError, "anchors"),
    ]


def yolo_loss_grad_op(x, gt_box, gt_label, gt_score, objectness_mask, gt_match_mask, loss_grad,
                      anchors, anchor_mask, class_num, downsample_ratio, use_label_smooth=True,
                      scale_x_y=1.0):
    """The gradient as a Paddle training program holds it: yolov3_loss_grad."""
    from op_db import program_op  # op_db imports this module's entries at its end
    inputs = {"X": x, "GTBox": gt_box, "GTLabel": gt_label, "ObjectnessMask": objectness_mask,
              "GTMatchMask": gt_match_mask, "Loss@GRAD": loss_grad}
    if gt_score is not None:
        inputs["GTScore"] = gt_score
    return program_op("yolov3_loss_grad", inputs, {"X@GRAD": "X"},
                      {"anchors": anchors, "anchor_mask": anchor_mask, "class_num": class_num,
                       "downsample_ratio": downsample_ratio, "use_label_smooth": use_label_smooth,
                       "scale_x_y": scale_x_y})[0]


def yolo_loss_grad_samples(rng):
    """Forward samples with the masks their forward records."""
    samples = []
    for sample in yolo_loss_samples(rng)[:2]:
        x, gt, label, anchors, mask, classes, ignore, ratio = sample.args
        score = sample.kwargs.get("gt_score")
        smooth = sample.kwargs.get("use_label_smooth", True)
        scale = sample.kwargs.get("scale_x_y", 1.0)
        _, obj, match = yolo_loss_parts(x, gt, label, anchors, mask, classes, ignore, ratio, score,
                                        smooth, scale)
        samples.append(Sample([x, gt, label, score, obj, match, uniform(rng, (x.shape[0],)),
                               anchors, mask, classes, ratio, smooth, scale]))
    return samples


# ---------------------------------------------------------------- nms
def nms_samples(rng):
    categories = np.asarray([0, 1, 2, 0, 1, 2, 0, 1, 2, 0], dtype=np.int64)
    return [
        Sample([rand_boxes(rng, 6, 5.0), 0.3]),
        Sample([rand_boxes(rng, 8, 5.0)], {"iou_threshold": 0.2, "scores": uniform(rng, (8,), 0, 1)}),
        Sample([rand_boxes(rng, 10, 4.0), 0.25, uniform(rng, (10,), 0, 1), categories, [0, 1, 2]],
               {"top_k": 6}),
        Sample([rand_boxes(rng, 10, 4.0), 0.4, uniform(rng, (10,), 0, 1), categories, [2, 0]]),
        Sample([rand_boxes(rng, 0), 0.3]),
    ]


def nms_errors():
    boxes, scores = np.zeros((5, 4)), np.zeros(5)
    categories = np.zeros(5, dtype=np.int64)
    return [
        ErrorSample([np.zeros((5, 3))], {}, ValueError, "4 coordinates"),
        ErrorSample([np.zeros(4)], {}, ValueError, "'x' must be 2-D"),
        ErrorSample([boxes, 0.3, scores, categories], {}, ValueError, "categories"),
        ErrorSample([boxes, 0.3, scores, categories, [0]], {"top_k": 6}, ValueError, "top_k"),
        ErrorSample([[[0.0, 0.0, 1.0, 1.0]]], {}, TypeError, "boxes"),
        ErrorSample([boxes, "0.3"], {}, TypeError, "iou_threshold"),
    ]


# ---------------------------------------------------------------- multiclass_nms3, matrix_nms
def multiclass_nms3(bboxes, scores, rois_num=None, score_threshold=0.05, nms_top_k=-1,
                    keep_top_k=-1, nms_threshold=0.3, normalized=True, nms_eta=1.0,
                    background_label=0):
    return list(_C_ops.multiclass_nms3(bboxes, scores, rois_num, score_threshold, nms_top_k,
                                       keep_top_k, nms_threshold, normalized, nms_eta,
                                       background_label))


def batched_boxes(rng, n, m, extent=6.0):
    return np.stack([rand_boxes(rng, m, extent) for _ in range(n)])


def multiclass_nms_samples(rng):
    return [
        Sample([batched_boxes(rng, 2, 6), uniform(rng, (2, 3, 6), 0, 1)],
               {"score_threshold": 0.3, "nms_top_k": 4, "keep_top_k": 5}),
        Sample([batched_boxes(rng, 2, 5, 20.0), uniform(rng, (2, 2, 5), 0, 1)],
               {"background_label": -1, "nms_threshold": 0.7, "nms_eta": 0.8,
                "normalized": False}),
        Sample([rand_boxes(rng, 21, 6.0).reshape(7, 3, 4), uniform(rng, (7, 3), 0, 1),
                int32([3, 0, 4])], {"score_threshold": 0.2, "keep_top_k": 3}),
        Sample([rand_boxes(rng, 12, 6.0).reshape(6, 2, 4), uniform(rng, (6, 2), 0, 1)],
               {"score_threshold": 0.1, "background_label": -1, "nms_threshold": 0.4}),
        Sample([batched_boxes(rng, 1, 4), uniform(rng, (1, 2, 4), 0, 0.5)],
               {"score_threshold": 0.6}),
    ]


def multiclass_nms_errors():
    boxes, scores = np.zeros((2, 6, 4)), np.zeros((2, 3, 6))
    return [
        ErrorSample([np.zeros((2, 6, 5)), scores], {}, ValueError, "4 coordinates"),
        ErrorSample([np.zeros((2, 6, 8)), scores], {}, NotImplementedError, "polygon"),
        ErrorSample([boxes, np.zeros((2, 3, 5))], {}, ValueError, "'scores'"),
        ErrorSample([np.zeros((2, 6)), scores], {}, ValueError, "'bboxes' must be 3-D"),
        ErrorSample([boxes, np.zeros(6)], {}, ValueError, "'scores'"),
        ErrorSample([np.zeros((5, 3, 4)), np.zeros((5, 3)), np.zeros(2)], {}, ValueError,
                    "rois_num"),
        ErrorSample([np.zeros((5, 3, 4)), np.zeros((5, 3)), int32([2, 2])], {}, ValueError,
                    "rois_num"),
        ErrorSample([np.zeros((5, 3, 4)), np.zeros((5, 3)), int32([6, -1])], {}, ValueError,
                    "rois_num"),
    ]


def matrix_nms_samples(rng):
    return [
        Sample([batched_boxes(rng, 2, 6), uniform(rng, (2, 3, 6), 0, 1), 0.2, 0.1, 5, 6],
               {"return_index": True}),
        Sample([batched_boxes(rng, 2, 5, 20.0), uniform(rng, (2, 2, 5), 0, 1), 0.1, 0.3, -1, -1],
               {"use_gaussian": True, "gaussian_sigma": 2.0, "background_label": -1,
                "normalized": False, "return_index": True}),
        Sample([batched_boxes(rng, 1, 7), uniform(rng, (1, 4, 7), 0, 1), 0.3, 0.2, 3, 4]),
        Sample([batched_boxes(rng, 1, 4), uniform(rng, (1, 2, 4), 0, 0.4), 0.5, 0.1, 3, 4],
               {"return_rois_num": False}),
    ]


def matrix_nms_errors():
    boxes, scores = np.zeros((2, 6, 4)), np.zeros((2, 3, 6))
    return [
        ErrorSample([np.zeros((2, 6, 3)), scores, 0.1, 0.1, 5, 5], {}, ValueError,
                    "4 coordinates"),
        ErrorSample([boxes, np.zeros((2, 3, 5)), 0.1, 0.1, 5, 5], {}, ValueError, "'scores'"),
        ErrorSample([boxes, np.zeros((3, 3, 6)), 0.1, 0.1, 5, 5], {}, ValueError, "'scores'"),
        ErrorSample([boxes, np.zeros((2, 6)), 0.1, 0.1, 5, 5], {}, ValueError, "must be 3-D"),
        ErrorSample([boxes, scores, "0.1", 0.1, 5, 5], {}, TypeError, "score_threshold"),
    ]


# ---------------------------------------------------------------- distribute_fpn_proposals
def fpn_rois(rng, n):
    """RoIs of sides from 8 to 600 pixels, so that every level gets some."""
    corner = rng.uniform(0, 100, (n, 2))
    sides = np.exp(rng.uniform(np.log(8), np.log(600), (n, 1))) * rng.uniform(0.7, 1.3, (n, 2))
    return np.concatenate([corner, corner + sides], axis=1)


def distribute_samples(rng):
    return [
        Sample([fpn_rois(rng, 10), 2, 5, 4, 224], {"rois_num": int32([4, 6])}),
        Sample([fpn_rois(rng, 8), 3, 6, 4, 224, True]),
        Sample([fpn_rois(rng, 7), 2, 4, 3, 112],
               {"rois_num": np.asarray([3, 0, 4], dtype=np.int64)}),
        Sample([fpn_rois(rng, 0), 2, 3, 2, 64], {"rois_num": int32([0])}),
    ]


def distribute_errors():
    rois = np.zeros((4, 4))
    return [
        ErrorSample([rois, 5, 2, 4, 224], {}, ValueError, "max_level"),
        ErrorSample([np.zeros((4, 3)), 2, 5, 4, 224], {}, ValueError, "4 coordinates"),
        ErrorSample([rois, 2, 5, 4, 224, False, np.zeros(2)], {}, ValueError, "rois_num"),
        ErrorSample([rois, 2, 5, 4, 224, False, int32([1, 2])], {}, ValueError, "rois_num"),
        ErrorSample([rois, 2, 5, 4, 224, False, int32([[4]])], {}, ValueError, "rois_num"),
    ]


# ---------------------------------------------------------------- generate_proposals
def rpn_inputs(rng, n, a, h, w, stride=16.0):
    """scores [n, a, h, w], deltas [n, 4a, h, w], anchors and variances [h, w, a, 4]: anchors
    centered on each cell, of sides stride * (1, 2, 3, ...)."""
    centers = (np.stack(np.meshgrid(np.arange(w), np.arange(h)), -1) + 0.5) * stride  # [h, w, 2]
    half = (np.arange(1, a + 1) * stride / 2)[:, None]                                  # [a, 1]
    anchors = np.concatenate([centers[:, :, None] - half, centers[:, :, None] + half], -1)
    return (uniform(rng, (n, a, h, w), 0, 1), uniform(rng, (n, 4 * a, h, w), -0.5, 0.5),
            anchors, uniform(rng, (h, w, a, 4), 0.5, 1.5))


def generate_proposals_samples(rng):
    scores, deltas, anchors, variances = rpn_inputs(rng, 2, 3, 4, 4)
    image = np.asarray([[64.0, 64.0], [48.0, 56.0]])
    s2, d2, a2, v2 = rpn_inputs(rng, 1, 2, 3, 5, 8.0)
    return [
        Sample([scores, deltas, image, anchors, variances],
               {"pre_nms_top_n": 20, "post_nms_top_n": 10, "min_size": 2.0, "pixel_offset": True,
                "return_rois_num": True}),
        Sample([scores, deltas, image, anchors, variances],
               {"pre_nms_top_n": -1, "nms_thresh": 0.7, "eta": 0.9, "return_rois_num": True}),
        Sample([s2, d2, np.asarray([[24.0, 40.0]]), a2, v2], {"nms_thresh": 0.0}),
        Sample([s2, d2, np.asarray([[24.0, 40.0]]), a2, v2],
               {"min_size": 100.0, "return_rois_num": True}),
    ]


def generate_proposals_errors():
    scores, deltas = np.zeros((1, 2, 3, 3)), np.zeros((1, 8, 3, 3))
    image, anchors = np.zeros((1, 2)), np.zeros((3, 3, 2, 4))
    return [
        ErrorSample([scores, np.zeros((1, 6, 3, 3)), image, anchors, anchors], {}, ValueError,
                    "bbox_deltas"),
        ErrorSample([scores, deltas, image, np.zeros((3, 3, 3, 4)), anchors], {}, ValueError,
                    "'anchors'"),
        ErrorSample([scores, deltas, image, anchors, np.zeros((9, 2, 4))], {}, ValueError,
                    "'variances'"),
        ErrorSample([scores, deltas, np.zeros((2, 2)), anchors, anchors], {}, ValueError,
                    "im_shape"),
        ErrorSample([np.zeros((2, 3, 3)), deltas, image, anchors, anchors], {}, ValueError,
                    "'scores' must be 4-D"),
        ErrorSample([scores, deltas.astype(np.float32), image, anchors, anchors], {}, ValueError,
                    "bbox_deltas"),
    ]


DETECTION_OPS = [
    OpInfo("iou_similarity", iou_similarity, np_iou_similarity, lambda rng: [
        Sample([rand_boxes(rng, 4), rand_boxes(rng, 3)]),
        Sample([rand_boxes(rng, 3, 30.0), rand_boxes(rng, 5, 30.0)], {"box_normalized": False}),
        Sample([rand_boxes(rng, 0), rand_boxes(rng, 2)])],
        grad=False, no_grad_reason=FORWARD_ONLY,
        errors=lambda: [
            ErrorSample([np.zeros((4, 3)), np.zeros((2, 4))], {}, ValueError, "4 coordinates"),
            ErrorSample([np.zeros((4, 4)), np.zeros(4)], {}, ValueError, "'y' must be 2-D"),
            ErrorSample([np.zeros((4, 4)), np.zeros((2, 4), dtype=np.float32)], {}, ValueError,
                        "'y' must be float64")]),
    OpInfo("box_clip", box_clip, np_box_clip, lambda rng: [
        Sample([rand_boxes(rng, 6, 40.0, -5.0, 10.0).reshape(2, 3, 4),
                np.asarray([[30.0, 20.0, 1.0], [40.0, 36.0, 2.0]])]),
        Sample([rand_boxes(rng, 4, 25.0, -3.0, 8.0), np.asarray([[20.0, 24.0, 0.8]])]),
        Sample([rand_boxes(rng, 0).reshape(2, 0, 4), np.asarray([[9.0, 9.0, 1.0], [5.0, 5.0, 1.0]])])],
        grad=False, no_grad_reason=FORWARD_ONLY,
        errors=lambda: [
            ErrorSample([np.zeros((2, 3, 5)), np.zeros((2, 3))], {}, ValueError, "4 coordinates"),
            ErrorSample([np.zeros((2, 3, 4)), np.zeros((2, 2))], {}, ValueError, "im_info"),
            ErrorSample([np.zeros((2, 3, 4)), np.zeros((3, 3))], {}, ValueError, "im_info"),
            ErrorSample([np.zeros((3, 4)), np.zeros((2, 3))], {}, ValueError, "im_info"),
            ErrorSample([np.zeros(4), np.zeros((1, 3))], {}, ValueError, "'input'")]),
    OpInfo("box_coder", V.box_coder, np_box_coder, box_coder_samples,
           grad=False, no_grad_reason=FORWARD_ONLY, errors=box_coder_errors),
    OpInfo("prior_box", V.prior_box, np_prior_box, prior_box_samples,
           grad=False, no_grad_reason=FORWARD_ONLY, errors=prior_box_errors),
    OpInfo("yolo_box", V.yolo_box, np_yolo_box, yolo_box_samples,
           grad=False, no_grad_reason=FORWARD_ONLY, errors=yolo_box_errors),
    OpInfo("yolo_loss", V.yolo_loss, np_yolo_loss, yolo_loss_samples, atol=1e-4, rtol=1e-4,
           errors=yolo_loss_errors),
    OpInfo("yolo_loss_grad", yolo_loss_grad_op, np_yolo_loss_grad, yolo_loss_grad_samples,
           grad=False, no_grad_reason="a gradient kernel without a gradient of its own; it is "
                                      "checked as the first-order gradient of the yolo_loss entry"),
    OpInfo("nms", V.nms, np_nms, nms_samples,
           grad=False, no_grad_reason=FORWARD_ONLY, errors=nms_errors),
    OpInfo("multiclass_nms3", multiclass_nms3, np_multiclass_nms3, multiclass_nms_samples,
           grad=False, no_grad_reason=FORWARD_ONLY, errors=multiclass_nms_errors),
    OpInfo("matrix_nms", present(V.matrix_nms), np_matrix_nms, matrix_nms_samples,
           grad=False, no_grad_reason=FORWARD_ONLY, errors=matrix_nms_errors),
    OpInfo("distribute_fpn_proposals", present(V.distribute_fpn_proposals),
           np_distribute_fpn_proposals, distribute_samples,
           grad=False, no_grad_reason=FORWARD_ONLY, errors=distribute_errors),
    OpInfo("generate_proposals", present(V.generate_proposals), np_generate_proposals,
           generate_proposals_samples, atol=1e-4, rtol=1e-5,
           grad=False, no_grad_reason=FORWARD_ONLY, errors=generate_proposals_errors),
]
