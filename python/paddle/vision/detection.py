"""The box and NMS functions of paddle.vision.ops, in front of the ops of
paddle/ops/yaml/detection.yaml. They are written by hand for the argument handling Paddle does in
Python: scalars or lists for prior_box's sizes and steps, box_coder's variance as a tensor or a
list, the outputs each function returns (matrix_nms's optional index and counts), and nms, which
sorts by score and runs the `nms` op per category."""
import numbers

from .. import _C_ops
from ..base.generated_api import cast, flatten
from ..tensor._helpers import DataType, Tensor, as_int, as_int_list, check_tensor
from ..tensor.manipulation import concat, gather
from ..tensor.search import argsort, nonzero, sort

__all__ = ["box_coder", "distribute_fpn_proposals", "generate_proposals", "matrix_nms", "nms",
           "prior_box", "yolo_box", "yolo_loss"]


def _float(value, api, arg):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{api}(): argument '{arg}' must be a number, not {type(value).__name__}")
    return float(value)


def _floats(value, api, arg):
    """A number or a list/tuple of numbers, as a list of floats."""
    if isinstance(value, (list, tuple)):
        return [_float(v, api, arg) for v in value]
    return [_float(value, api, arg)]


def _bool(value, api, arg):
    if not isinstance(value, bool):
        raise TypeError(f"{api}(): argument '{arg}' must be a bool, not {type(value).__name__}")
    return value


def _optional_tensor(value, api, arg):
    return None if value is None else check_tensor(value, api, arg)


def _int_pairs(value, api, arg):
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{api}(): argument '{arg}' must be a list or tuple of ints, not "
                        f"{type(value).__name__}")
    return as_int_list(value, api, arg)


def yolo_loss(x, gt_box, gt_label, anchors, anchor_mask, class_num, ignore_thresh,
              downsample_ratio, gt_score=None, use_label_smooth=True, name=None, scale_x_y=1.0):
    """The YOLOv3 loss [N] of a head x [N, len(anchor_mask) * (5 + class_num), H, H] against the
    ground truth boxes gt_box [N, B, 4] (center x, y, width, height relative to the input image;
    boxes of zero size are padding), their int32 labels gt_label [N, B] and optional mixup scores
    gt_score [N, B]: sigmoid cross entropy of the box centers, objectness and classes (label
    smoothed when use_label_smooth), L1 of the log sizes."""
    api = "yolo_loss"
    check_tensor(x, api, "x")
    check_tensor(gt_box, api, "gt_box")
    check_tensor(gt_label, api, "gt_label")
    loss, _, _ = _C_ops.yolo_loss(
        x, gt_box, gt_label, _optional_tensor(gt_score, api, "gt_score"),
        _int_pairs(anchors, api, "anchors"), _int_pairs(anchor_mask, api, "anchor_mask"),
        as_int(class_num, api, "class_num"), _float(ignore_thresh, api, "ignore_thresh"),
        as_int(downsample_ratio, api, "downsample_ratio"),
        _bool(use_label_smooth, api, "use_label_smooth"), _float(scale_x_y, api, "scale_x_y"))
    return loss


def yolo_box(x, img_size, anchors, class_num, conf_thresh, downsample_ratio, clip_bbox=True,
             name=None, scale_x_y=1.0, iou_aware=False, iou_aware_factor=0.5):
    """Decodes a YOLOv3 head x [N, A * (5 + class_num), H, W] into boxes [N, A * H * W, 4] in the
    pixels of each image (img_size [N, 2]: height and width, int32) and scores
    [N, A * H * W, class_num]; boxes whose confidence is below conf_thresh are zeros."""
    api = "yolo_box"
    check_tensor(x, api, "x")
    check_tensor(img_size, api, "img_size")
    return tuple(_C_ops.yolo_box(
        x, img_size, _int_pairs(anchors, api, "anchors"), as_int(class_num, api, "class_num"),
        _float(conf_thresh, api, "conf_thresh"), as_int(downsample_ratio, api, "downsample_ratio"),
        _bool(clip_bbox, api, "clip_bbox"), _float(scale_x_y, api, "scale_x_y"),
        _bool(iou_aware, api, "iou_aware"), _float(iou_aware_factor, api, "iou_aware_factor")))


def prior_box(input, image, min_sizes, max_sizes=None, aspect_ratios=[1.0],  # noqa: B006
              variance=[0.1, 0.1, 0.2, 0.2], flip=False, clip=False, steps=[0.0, 0.0],  # noqa: B006
              offset=0.5, min_max_aspect_ratios_order=False, name=None):
    """SSD prior boxes for each position of the feature map `input` [N, C, H, W] over `image`
    [N, C, H_img, W_img]: (boxes, variances), each [H, W, num_priors, 4], normalized by the image
    size. Steps of 0 are the image size over the feature map size."""
    api = "prior_box"
    check_tensor(input, api, "input")
    check_tensor(image, api, "image")
    steps = _floats(steps, api, "steps")
    if len(steps) != 2:
        raise ValueError(f"{api}(): argument 'steps' must be (step_w, step_h), received {steps}")
    max_list = []
    if max_sizes is not None:
        max_list = _floats(max_sizes, api, "max_sizes")
        if not max_list or max_list[0] <= 0:  # Paddle's way of saying "no max sizes"
            max_list = []
    box, var = _C_ops.prior_box(
        input, image, _floats(min_sizes, api, "min_sizes"), max_list,
        _floats(aspect_ratios, api, "aspect_ratios"), _floats(variance, api, "variance"),
        _bool(flip, api, "flip"), _bool(clip, api, "clip"), steps[0], steps[1],
        _float(offset, api, "offset"),
        _bool(min_max_aspect_ratios_order, api, "min_max_aspect_ratios_order"))
    return box, var


def box_coder(prior_box, prior_box_var, target_box, code_type="encode_center_size",
              box_normalized=True, axis=0, name=None):
    """Encodes target boxes [N, 4] against the prior boxes [M, 4] into [N, M, 4], or decodes the
    offsets target_box [N, M, 4] against the priors broadcast along `axis` (0: priors [M, 4],
    1: priors [N, 4]). prior_box_var is a tensor like prior_box, a list of 4 variances shared by
    all priors, or None."""
    api = "box_coder"
    check_tensor(prior_box, api, "prior_box")
    check_tensor(target_box, api, "target_box")
    if not isinstance(code_type, str):
        raise TypeError(f"{api}(): argument 'code_type' must be a str, not "
                        f"{type(code_type).__name__}")
    variance = []
    if isinstance(prior_box_var, (list, tuple)):
        variance, prior_box_var = _floats(prior_box_var, api, "prior_box_var"), None
    elif prior_box_var is not None and not isinstance(prior_box_var, Tensor):
        raise TypeError(f"{api}(): argument 'prior_box_var' must be a Tensor, a list of 4 "
                        f"variances or None, not {type(prior_box_var).__name__}")
    return _C_ops.box_coder(prior_box, prior_box_var, target_box, code_type,
                            _bool(box_normalized, api, "box_normalized"), as_int(axis, api, "axis"),
                            variance)


def _known_size(x):
    """The number of boxes of x when the program knows it, else None."""
    size = x.shape[0]
    return None if size < 0 else size


def nms(boxes, iou_threshold=0.3, scores=None, category_idxs=None, categories=None, top_k=None):
    """Non-maximum suppression of boxes [N, 4]: the int64 indices of the boxes kept, a box being
    dropped when its IoU with a kept one exceeds iou_threshold. Without scores the boxes are
    taken in their order; with scores, by decreasing score. With category_idxs ([N], int64) and
    the list of `categories`, boxes of different categories never suppress each other, and the
    kept boxes of all categories come by decreasing score, the first top_k of them (top_k is
    only used then, as in Paddle)."""
    api = "nms"
    check_tensor(boxes, api, "boxes")
    iou_threshold = _float(iou_threshold, api, "iou_threshold")
    if scores is None:
        return _C_ops.nms(boxes, iou_threshold)
    check_tensor(scores, api, "scores")

    def by_score(indices):
        return gather(indices, argsort(gather(scores, indices), descending=True))

    if category_idxs is None:
        order = argsort(scores, descending=True)
        return gather(order, _C_ops.nms(gather(boxes, order), iou_threshold))
    check_tensor(category_idxs, api, "category_idxs")
    if categories is None:
        raise ValueError(f"{api}(): with 'category_idxs', argument 'categories' must list the "
                         f"categories")
    categories = as_int_list(categories, api, "categories")
    if top_k is not None:
        top_k = as_int(top_k, api, "top_k")
        count = _known_size(boxes)
        if count is not None and top_k > count:
            raise ValueError(f"{api}(): argument 'top_k' ({top_k}) must not exceed the number of "
                             f"boxes ({count})")
    kept = []
    for category in categories:
        members = by_score(flatten(nonzero(category_idxs == category)))
        kept.append(gather(members, _C_ops.nms(gather(boxes, members), iou_threshold)))
    # Paddle collects the kept boxes by index before ordering them by score, so equal scores
    # come in index order.
    keep = by_score(sort(concat(kept)))
    return keep if top_k is None else keep[:top_k]


def matrix_nms(bboxes, scores, score_threshold, post_threshold, nms_top_k, keep_top_k,
               use_gaussian=False, gaussian_sigma=2.0, background_label=0, normalized=True,
               return_index=False, return_rois_num=True, name=None):
    """Matrix NMS of bboxes [N, M, 4] with scores [N, C, M]: returns (out, rois_num, index), out
    [No, 6] holding [label, score, xmin, ymin, xmax, ymax] rows by image and decreasing decayed
    score, rois_num [N] (int32) the rows of each image (None unless return_rois_num), index
    [No, 1] (int32) each row's box across the batch (None unless return_index)."""
    api = "matrix_nms"
    check_tensor(bboxes, api, "bboxes")
    check_tensor(scores, api, "scores")
    out, index, rois_num = _C_ops.matrix_nms(
        bboxes, scores, _float(score_threshold, api, "score_threshold"),
        as_int(nms_top_k, api, "nms_top_k"), as_int(keep_top_k, api, "keep_top_k"),
        _float(post_threshold, api, "post_threshold"), _bool(use_gaussian, api, "use_gaussian"),
        _float(gaussian_sigma, api, "gaussian_sigma"),
        as_int(background_label, api, "background_label"), _bool(normalized, api, "normalized"))
    return out, rois_num if return_rois_num else None, index if return_index else None


def distribute_fpn_proposals(fpn_rois, min_level, max_level, refer_level, refer_scale,
                             pixel_offset=False, rois_num=None, name=None):
    """Distributes the RoIs fpn_rois [R, 4] over the FPN levels min_level..max_level by their
    scale: returns (multi_rois, restore_ind, rois_num_per_level), the RoIs of each level, the
    int32 [R, 1] row of each RoI in the levels' concatenation, and (with rois_num, the images'
    RoI counts) each level's RoI count per image."""
    api = "distribute_fpn_proposals"
    check_tensor(fpn_rois, api, "fpn_rois")
    multi_rois, rois_num_per_level, restore_ind = _C_ops.distribute_fpn_proposals(
        fpn_rois, _optional_tensor(rois_num, api, "rois_num"), as_int(min_level, api, "min_level"),
        as_int(max_level, api, "max_level"), as_int(refer_level, api, "refer_level"),
        as_int(refer_scale, api, "refer_scale"), _bool(pixel_offset, api, "pixel_offset"))
    return list(multi_rois), restore_ind, None if rois_num is None else list(rois_num_per_level)


def generate_proposals(scores, bbox_deltas, img_size, anchors, variances, pre_nms_top_n=6000,
                       post_nms_top_n=1000, nms_thresh=0.5, min_size=0.1, eta=1.0,
                       pixel_offset=False, return_rois_num=False, name=None):
    """RPN proposals: returns (rpn_rois [R, 4], rpn_roi_probs [R, 1], rpn_rois_num [N] int32, or
    None unless return_rois_num) from scores [N, A, H, W], bbox_deltas [N, 4A, H, W], the image
    sizes img_size [N, 2] (height, width; float32 or float64 whatever the scores' dtype, as
    Paddle documents) and the anchors and variances [H, W, A, 4]."""
    api = "generate_proposals"
    for value, arg in ((scores, "scores"), (bbox_deltas, "bbox_deltas"), (img_size, "img_size"),
                       (anchors, "anchors"), (variances, "variances")):
        check_tensor(value, api, arg)
    if img_size.dtype != scores.dtype and img_size.dtype in (DataType.FLOAT32, DataType.FLOAT64):
        img_size = cast(img_size, scores.dtype)
    rois, probs, rois_num = _C_ops.generate_proposals(
        scores, bbox_deltas, img_size, anchors, variances,
        as_int(pre_nms_top_n, api, "pre_nms_top_n"), as_int(post_nms_top_n, api, "post_nms_top_n"),
        _float(nms_thresh, api, "nms_thresh"), _float(min_size, api, "min_size"),
        _float(eta, api, "eta"), _bool(pixel_offset, api, "pixel_offset"))
    return rois, probs, rois_num if return_rois_num else None
