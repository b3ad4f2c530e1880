"""NumPy references of the detection ops (paddle/ops/yaml/detection.yaml), written from Paddle's
documented semantics: boxes are [xmin, ymin, xmax, ymax]; "unnormalized" (pixel) boxes count
both border pixels; scores are ordered by decreasing value with equal scores in box order; an
attribute the op stores as a float32 takes part in float32 (np.float32 below)."""
import numpy as np


def f32(value):
    """An attribute value as the op stores it: float32."""
    return float(np.float32(value))


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def by_score(indices, scores):
    """indices ordered by decreasing scores[indices], ties (and NaN, last) in the given order."""
    indices = np.asarray(indices, dtype=np.int64)
    keys = -np.asarray(scores, dtype=np.float64)[indices]
    return indices[np.argsort(keys, kind="stable")]


# ---------------------------------------------------------------- box geometry
def area(boxes, normalized=True):
    """Areas of boxes [..., 4]; 0 for inverted boxes; pixel boxes one wider and taller."""
    w = boxes[..., 2] - boxes[..., 0]
    h = boxes[..., 3] - boxes[..., 1]
    inverted = (w < 0) | (h < 0)
    a = w * h if normalized else (w + 1) * (h + 1)
    return np.where(inverted, 0.0, a)


def jaccard(a, b, normalized=True):
    """Paddle's JaccardOverlap of two boxes: 0 unless they touch, else the IoU."""
    if b[0] > a[2] or b[2] < a[0] or b[1] > a[3] or b[3] < a[1]:
        return 0.0
    pixel = 0.0 if normalized else 1.0
    inter = ((min(a[2], b[2]) - max(a[0], b[0]) + pixel) *
             (min(a[3], b[3]) - max(a[1], b[1]) + pixel))
    return inter / (area(a, normalized) + area(b, normalized) - inter)


def np_iou_similarity(x, y, box_normalized=True):
    pixel = 0.0 if box_normalized else 1.0
    area_x = (x[:, 3] - x[:, 1] + pixel) * (x[:, 2] - x[:, 0] + pixel)
    area_y = (y[:, 3] - y[:, 1] + pixel) * (y[:, 2] - y[:, 0] + pixel)
    inter_w = np.minimum(x[:, None, 2], y[None, :, 2]) - np.maximum(x[:, None, 0], y[None, :, 0])
    inter_h = np.minimum(x[:, None, 3], y[None, :, 3]) - np.maximum(x[:, None, 1], y[None, :, 1])
    inter = np.maximum(inter_w + pixel, 0) * np.maximum(inter_h + pixel, 0)
    return inter / (area_x[:, None] + area_y[None, :] - inter + 1e-10)


def round_half_away(v):
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


def np_box_clip(input, im_info):
    boxes = input.reshape(im_info.shape[0], -1, 4).copy()
    for i, (h, w, scale) in enumerate(im_info):
        width, height = round_half_away(w / scale), round_half_away(h / scale)
        boxes[i, :, 0::2] = np.maximum(np.minimum(boxes[i, :, 0::2], width - 1), 0)
        boxes[i, :, 1::2] = np.maximum(np.minimum(boxes[i, :, 1::2], height - 1), 0)
    return boxes.reshape(input.shape)


def np_box_coder(prior_box, prior_box_var, target_box, code_type="encode_center_size",
                 box_normalized=True, axis=0, variance=()):
    """box_coder with the variances as a tensor [M, 4], a list of 4 (`prior_box_var` as the
    Python API takes it, or the op's `variance`), or none."""
    pixel = 0.0 if box_normalized else 1.0
    pw = prior_box[:, 2] - prior_box[:, 0] + pixel
    ph = prior_box[:, 3] - prior_box[:, 1] + pixel
    pcx, pcy = prior_box[:, 0] + pw / 2, prior_box[:, 1] + ph / 2
    if isinstance(prior_box_var, np.ndarray):
        var = prior_box_var
    else:
        shared = prior_box_var if prior_box_var is not None else variance
        shared = [f32(v) for v in shared] if len(shared) else [1.0] * 4
        var = np.tile(np.asarray(shared, dtype=np.float64), (prior_box.shape[0], 1))
    t = target_box
    if code_type == "encode_center_size":
        tcx, tcy = (t[:, 2] + t[:, 0]) / 2, (t[:, 3] + t[:, 1]) / 2
        tw, th = t[:, 2] - t[:, 0] + pixel, t[:, 3] - t[:, 1] + pixel
        return np.stack([
            (tcx[:, None] - pcx) / pw / var[:, 0],
            (tcy[:, None] - pcy) / ph / var[:, 1],
            np.log(np.abs(tw[:, None] / pw)) / var[:, 2],
            np.log(np.abs(th[:, None] / ph)) / var[:, 3]], axis=-1)
    # decode: the priors (and their variances) broadcast along `axis` of target [N, M, 4]
    expand = (lambda v: v[None, :]) if axis == 0 else (lambda v: v[:, None])
    pw, ph, pcx, pcy = expand(pw), expand(ph), expand(pcx), expand(pcy)
    v = [expand(var[:, k]) for k in range(4)]
    cx = v[0] * t[..., 0] * pw + pcx
    cy = v[1] * t[..., 1] * ph + pcy
    w = np.exp(v[2] * t[..., 2]) * pw
    h = np.exp(v[3] * t[..., 3]) * ph
    return np.stack([cx - w / 2, cy - h / 2, cx + w / 2 - pixel, cy + h / 2 - pixel], axis=-1)


def expand_aspect_ratios(aspect_ratios, flip):
    ratios = [1.0]
    for ar in aspect_ratios:
        ar = f32(ar)
        if any(abs(ar - r) < 1e-6 for r in ratios):
            continue
        ratios.append(ar)
        if flip:
            ratios.append(f32(1.0 / np.float32(ar)))
    return ratios


def np_prior_box(input, image, min_sizes, max_sizes=None, aspect_ratios=(1.0,),
                 variance=(0.1, 0.1, 0.2, 0.2), flip=False, clip=False, steps=(0.0, 0.0),
                 offset=0.5, min_max_aspect_ratios_order=False):
    """paddle.vision.ops.prior_box: [H, W, num_priors, 4] boxes and variances."""
    listify = (lambda v: list(v) if isinstance(v, (list, tuple)) else [v])
    min_sizes = [f32(s) for s in listify(min_sizes)]
    max_sizes = [] if max_sizes is None else [f32(s) for s in listify(max_sizes)]
    if max_sizes and max_sizes[0] <= 0:
        max_sizes = []
    ratios = expand_aspect_ratios(listify(aspect_ratios), flip)
    feature_h, feature_w = input.shape[2:]
    image_h, image_w = image.shape[2:]
    step_w, step_h = (f32(s) for s in listify(steps))
    if step_w == 0 or step_h == 0:
        with np.errstate(divide="ignore"):  # an empty feature map has no boxes
            step_w, step_h = np.float64(image_w) / feature_w, np.float64(image_h) / feature_h
    offset = f32(offset)
    boxes = []
    for row in range(feature_h):
        for col in range(feature_w):
            cx, cy = (col + offset) * step_w, (row + offset) * step_h
            halves = []
            for s, size in enumerate(min_sizes):
                with_ratios = [(size * np.sqrt(ar) / 2, size / np.sqrt(ar) / 2) for ar in ratios]
                square = [(np.sqrt(size * max_sizes[s]) / 2,) * 2] if max_sizes else []
                if min_max_aspect_ratios_order:
                    others = [(size * np.sqrt(ar) / 2, size / np.sqrt(ar) / 2) for ar in ratios
                              if abs(ar - 1.0) >= 1e-6]
                    halves += [(size / 2, size / 2)] + square + others
                else:
                    halves += with_ratios + square
            for hw, hh in halves:
                boxes.append([(cx - hw) / image_w, (cy - hh) / image_h,
                              (cx + hw) / image_w, (cy + hh) / image_h])
    priors = len(ratios) * len(min_sizes) + len(max_sizes)
    out = np.asarray(boxes, dtype=np.float64).reshape(feature_h, feature_w, priors, 4)
    if clip:
        out = np.clip(out, 0.0, 1.0)
    var = np.broadcast_to(np.asarray([f32(v) for v in variance]), out.shape).copy()
    return [out, var]


# ---------------------------------------------------------------- YOLOv3
def np_yolo_box(x, img_size, anchors, class_num, conf_thresh, downsample_ratio, clip_bbox=True,
                scale_x_y=1.0, iou_aware=False, iou_aware_factor=0.5):
    """paddle.vision.ops.yolo_box: boxes [N, A * H * W, 4], scores [N, A * H * W, class_num]."""
    n, _, h, w = x.shape
    a = len(anchors) // 2
    ious = None
    if iou_aware:
        ious, x = x[:, :a], x[:, a:]
    head = x.reshape(n, a, 5 + class_num, h, w)
    conf = sigmoid(head[:, :, 4])
    if iou_aware:
        factor = f32(iou_aware_factor)
        conf = conf ** (1 - factor) * sigmoid(ious) ** factor
    scale = f32(scale_x_y)
    bias = -0.5 * (scale - 1)
    img_h = img_size[:, 0].astype(np.float64)[:, None, None, None]
    img_w = img_size[:, 1].astype(np.float64)[:, None, None, None]
    col = np.arange(w)[None, None, None, :]
    row = np.arange(h)[None, None, :, None]
    anchor_w = np.asarray(anchors[0::2], dtype=np.float64)[None, :, None, None]
    anchor_h = np.asarray(anchors[1::2], dtype=np.float64)[None, :, None, None]
    cx = (col + sigmoid(head[:, :, 0]) * scale + bias) * img_w / w
    cy = (row + sigmoid(head[:, :, 1]) * scale + bias) * img_h / h
    bw = np.exp(head[:, :, 2]) * anchor_w * img_w / (downsample_ratio * w)
    bh = np.exp(head[:, :, 3]) * anchor_h * img_h / (downsample_ratio * h)
    x0, y0, x1, y1 = cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2
    if clip_bbox:
        x0, y0 = np.maximum(x0, 0), np.maximum(y0, 0)
        x1, y1 = np.minimum(x1, img_w - 1), np.minimum(y1, img_h - 1)
    boxes = np.stack([x0, y0, x1, y1], axis=-1)
    scores = conf[..., None] * np.moveaxis(sigmoid(head[:, :, 5:]), 2, -1)
    kept = (conf >= f32(conf_thresh))[..., None]
    boxes = np.where(kept, boxes, 0.0).reshape(n, a * h * w, 4)
    scores = np.where(kept, scores, 0.0).reshape(n, a * h * w, class_num)
    return [boxes, scores]


def sigmoid_cross_entropy(x, label):
    return max(x, 0.0) - x * label + np.log(1 + np.exp(-abs(x)))


def center_iou(a, b):
    """IoU of two (cx, cy, w, h) boxes."""
    def overlap(c1, w1, c2, w2):
        return min(c1 + w1 / 2, c2 + w2 / 2) - max(c1 - w1 / 2, c2 - w2 / 2)
    w = overlap(a[0], a[2], b[0], b[2])
    h = overlap(a[1], a[3], b[1], b[3])
    inter = 0.0 if w < 0 or h < 0 else w * h
    return inter / (a[2] * a[3] + b[2] * b[3] - inter)


def cell_of(coordinate, size):
    """The grid cell of a center in [0, 1); outside it, the border cell."""
    scaled = coordinate * size
    return 0 if not scaled >= 0 else size - 1 if scaled >= size else int(scaled)


def yolo_loss_parts(x, gt_box, gt_label, anchors, anchor_mask, class_num, ignore_thresh,
                    downsample_ratio, gt_score=None, use_label_smooth=True, scale_x_y=1.0):
    """[loss [N], objectness_mask [N, M, H, H], gt_match_mask [N, B]] of the YOLOv3 loss: each
    valid ground truth (w, h >= 1e-6) is matched to the anchor whose size overlaps it most; if
    that anchor is in anchor_mask, the cell holding its center pays sigmoid cross entropy on
    t_x, t_y, L1 on t_w, t_h (weighted by (2 - w * h) * score) and sigmoid cross entropy on the
    classes (weighted by score); each prediction pays objectness cross entropy: towards 1
    (weighted by score) in matched cells, towards 0 elsewhere unless it overlaps a ground truth
    by more than ignore_thresh."""
    n, _, h, _ = x.shape
    slots = len(anchor_mask)
    head = x.reshape(n, slots, 5 + class_num, h, h)
    b = gt_box.shape[1]
    input_size = downsample_ratio * h
    scale = f32(scale_x_y)
    bias = -0.5 * (scale - 1)
    pos, neg = 1.0, 0.0
    if use_label_smooth:
        smooth = min(1.0 / class_num, 1.0 / 40)
        pos, neg = 1.0 - smooth, smooth
    loss = np.zeros(n)
    obj_mask = np.zeros((n, slots, h, h))
    match = np.full((n, b), -1, dtype=np.int32)
    for i in range(n):
        valid = [t for t in range(b) if gt_box[i, t, 2] >= 1e-6 and gt_box[i, t, 3] >= 1e-6]
        for j, anchor in enumerate(anchor_mask):
            for row in range(h):
                for col in range(h):
                    e = head[i, j, :, row, col]
                    pred = ((col + sigmoid(e[0]) * scale + bias) / h,
                            (row + sigmoid(e[1]) * scale + bias) / h,
                            np.exp(e[2]) * anchors[2 * anchor] / input_size,
                            np.exp(e[3]) * anchors[2 * anchor + 1] / input_size)
                    best = max([center_iou(pred, gt_box[i, t]) for t in valid], default=0.0)
                    if best > f32(ignore_thresh):
                        obj_mask[i, j, row, col] = -1
        for t in valid:
            gx, gy, gw, gh = gt_box[i, t]
            ious = [center_iou((0, 0, anchors[2 * a] / input_size, anchors[2 * a + 1] / input_size),
                               (0, 0, gw, gh)) for a in range(len(anchors) // 2)]
            best = int(np.argmax(ious)) if max(ious) > 0 else 0
            slot = anchor_mask.index(best) if best in anchor_mask and h else -1
            match[i, t] = slot
            if slot < 0:
                continue
            gi, gj = cell_of(gx, h), cell_of(gy, h)
            score = 1.0 if gt_score is None else gt_score[i, t]
            weight = (2 - gw * gh) * score
            e = head[i, slot, :, gj, gi]
            tw = np.log(gw * input_size / anchors[2 * best])
            th = np.log(gh * input_size / anchors[2 * best + 1])
            loss[i] += weight * (sigmoid_cross_entropy(e[0], gx * h - gi) +
                                 sigmoid_cross_entropy(e[1], gy * h - gj) +
                                 abs(tw - e[2]) + abs(th - e[3]))
            obj_mask[i, slot, gj, gi] = score
            for c in range(class_num):
                loss[i] += sigmoid_cross_entropy(e[5 + c], pos if c == gt_label[i, t] else neg) * score
        for j in range(slots):
            for row in range(h):
                for col in range(h):
                    obj, logit = obj_mask[i, j, row, col], head[i, j, 4, row, col]
                    if obj > 1e-5:
                        loss[i] += sigmoid_cross_entropy(logit, 1.0) * obj
                    elif obj > -0.5:
                        loss[i] += sigmoid_cross_entropy(logit, 0.0)
    return [loss, obj_mask, match]


def np_yolo_loss(x, gt_box, gt_label, anchors, anchor_mask, class_num, ignore_thresh,
                 downsample_ratio, gt_score=None, use_label_smooth=True, scale_x_y=1.0):
    """paddle.vision.ops.yolo_loss: the loss [N]."""
    return yolo_loss_parts(x, gt_box, gt_label, anchors, anchor_mask, class_num, ignore_thresh,
                           downsample_ratio, gt_score, use_label_smooth, scale_x_y)[0]


def np_yolo_loss_grad(x, gt_box, gt_label, gt_score, objectness_mask, gt_match_mask, loss_grad,
                      anchors, anchor_mask, class_num, downsample_ratio, use_label_smooth=True,
                      scale_x_y=1.0):
    """The gradient of the loss with respect to x, from the masks the forward recorded: the
    derivative of each term of yolo_loss_parts, summed over the ground truths that share a
    cell."""
    n, _, h, _ = x.shape
    slots = len(anchor_mask)
    head = x.reshape(n, slots, 5 + class_num, h, h)
    grad = np.zeros_like(head)
    input_size = downsample_ratio * h
    pos, neg = 1.0, 0.0
    if use_label_smooth:
        smooth = min(1.0 / class_num, 1.0 / 40)
        pos, neg = 1.0 - smooth, smooth
    for i in range(n):
        for t in range(gt_box.shape[1]):
            slot = gt_match_mask[i, t]
            if slot < 0:
                continue
            gx, gy, gw, gh = gt_box[i, t]
            anchor = anchor_mask[slot]
            gi, gj = cell_of(gx, h), cell_of(gy, h)
            score = 1.0 if gt_score is None else gt_score[i, t]
            weight = (2 - gw * gh) * score * loss_grad[i]
            e = head[i, slot, :, gj, gi]
            g = grad[i, slot, :, gj, gi]
            g[0] += (sigmoid(e[0]) - (gx * h - gi)) * weight
            g[1] += (sigmoid(e[1]) - (gy * h - gj)) * weight
            g[2] += (1.0 if e[2] > np.log(gw * input_size / anchors[2 * anchor]) else -1.0) * weight
            g[3] += (1.0 if e[3] > np.log(gh * input_size / anchors[2 * anchor + 1]) else -1.0) * weight
            for c in range(class_num):
                target = pos if c == gt_label[i, t] else neg
                g[5 + c] += (sigmoid(e[5 + c]) - target) * score * loss_grad[i]
        obj = objectness_mask[i]
        logits = head[i, :, 4]
        grad[i, :, 4] = np.where(obj > 1e-5, (sigmoid(logits) - 1) * obj * loss_grad[i],
                                 np.where(obj > -0.5, sigmoid(logits) * loss_grad[i], 0.0))
    return grad.reshape(x.shape)


# ---------------------------------------------------------------- non-maximum suppression
def greedy_nms(boxes, threshold):
    """Indices the `nms` op keeps, taking the boxes in order (IoU without pixel borders)."""
    kept = []
    for i in range(boxes.shape[0]):
        suppressed = False
        for k in kept:
            a, b = boxes[k], boxes[i]
            inter = (max(min(a[2], b[2]) - max(a[0], b[0]), 0) *
                     max(min(a[3], b[3]) - max(a[1], b[1]), 0))
            union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
            if inter / union > f32(threshold):
                suppressed = True
                break
        if not suppressed:
            kept.append(i)
    return np.asarray(kept, dtype=np.int64)


def np_nms(boxes, iou_threshold=0.3, scores=None, category_idxs=None, categories=None,
           top_k=None):
    """paddle.vision.ops.nms."""
    if scores is None:
        return greedy_nms(boxes, iou_threshold)
    if category_idxs is None:
        order = by_score(np.arange(len(scores)), scores)
        return order[greedy_nms(boxes[order], iou_threshold)]
    kept = []
    for category in categories:
        members = by_score(np.nonzero(category_idxs == category)[0], scores)
        kept += list(members[greedy_nms(boxes[members], iou_threshold)])
    keep = by_score(sorted(kept), scores)
    return keep if top_k is None else keep[:top_k]


def adaptive_nms(candidates, box_of, threshold, eta, normalized):
    kept = []
    for candidate in candidates:
        if all(jaccard(box_of(candidate), box_of(k), normalized) <= threshold for k in kept):
            kept.append(candidate)
            if eta < 1 and threshold > 0.5:
                threshold *= eta
    return kept


def best_above(scores, threshold, top_k):
    indices = by_score(np.nonzero(scores > threshold)[0], scores)
    return indices if top_k < 0 else indices[:top_k]


def multiclass_nms_image(score_of, box_of, num_classes, num_boxes, score_threshold, nms_top_k,
                         keep_top_k, nms_threshold, normalized, nms_eta, background_label,
                         sorted_per_class):
    """[(class, box)] NMS keeps in one image, by class, then by score (or by box)."""
    selected = {}
    for c in range(num_classes):
        if c == background_label:
            continue
        scores = np.asarray([score_of(c, m) for m in range(num_boxes)], dtype=np.float64)
        kept = adaptive_nms(best_above(scores, f32(score_threshold), nms_top_k),
                            lambda m: box_of(c, m), f32(nms_threshold), f32(nms_eta), normalized)
        selected[c] = sorted(kept) if sorted_per_class else kept
    pairs = [(c, m) for c in sorted(selected) for m in selected[c]]
    if -1 < keep_top_k < len(pairs):
        pairs = [pairs[k] for k in by_score(range(len(pairs)), [score_of(c, m) for c, m in pairs])]
        pairs = pairs[:keep_top_k]
        selected = {}
        for c, m in pairs:
            selected.setdefault(c, []).append(m)
        if sorted_per_class:
            selected = {c: sorted(ms) for c, ms in selected.items()}
        pairs = [(c, m) for c in sorted(selected) for m in selected[c]]
    return pairs


def np_multiclass_nms3(bboxes, scores, rois_num=None, score_threshold=0.0, nms_top_k=-1,
                       keep_top_k=-1, nms_threshold=0.3, normalized=True, nms_eta=1.0,
                       background_label=0):
    """[out [K, 6], index [K, 1] int32, nms_rois_num int32] of multiclass_nms3."""
    args = (score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized, nms_eta,
            background_label)
    rows, index, counts = [], [], []
    if scores.ndim == 3:  # bboxes [N, M, 4], scores [N, C, M]
        n, c, m = scores.shape
        for i in range(n):
            pairs = multiclass_nms_image(lambda k, j: scores[i, k, j], lambda k, j: bboxes[i, j],
                                         c, m, *args, sorted_per_class=False)
            rows += [[k, scores[i, k, j], *bboxes[i, j]] for k, j in pairs]
            index += [i * m + j for _, j in pairs]
            counts.append(len(pairs))
    else:  # bboxes [M, C, 4], scores [M, C], images split by rois_num
        c = scores.shape[1]
        start = 0
        for count in ([scores.shape[0]] if rois_num is None else rois_num):
            s, b = scores[start:start + count], bboxes[start:start + count]
            pairs = multiclass_nms_image(lambda k, j: s[j, k], lambda k, j: b[j, k], c, count,
                                         *args, sorted_per_class=True)
            rows += [[k, s[j, k], *b[j, k]] for k, j in pairs]
            index += [(start + j) * c + k for k, j in pairs]
            counts.append(len(pairs))
            start += count
    return [np.asarray(rows, dtype=np.float64).reshape(-1, 6),
            np.asarray(index, dtype=np.int32).reshape(-1, 1), np.asarray(counts, dtype=np.int32)]


def matrix_nms_image(scores, boxes, score_threshold, post_threshold, nms_top_k, keep_top_k,
                     use_gaussian, gaussian_sigma, background_label, normalized):
    """[(label, decayed score, box index)] of one image, by decreasing decayed score."""
    detections = []
    for c in range(scores.shape[0]):
        if c == background_label:
            continue
        order = best_above(scores[c], f32(score_threshold), nms_top_k)
        if not len(order):
            continue
        count = len(order)
        iou = np.zeros((count, count))
        for i in range(count):
            for j in range(i):
                iou[i, j] = jaccard(boxes[order[i]], boxes[order[j]], normalized)
        max_iou = iou.max(axis=1)
        for i in range(count):
            if i == 0:
                decay = 1.0
            elif use_gaussian:
                decay = min(1.0, np.min(np.exp((max_iou[:i] ** 2 - iou[i, :i] ** 2) *
                                               f32(gaussian_sigma))))
            else:
                decay = min(1.0, np.min((1 - iou[i, :i]) / (1 - max_iou[:i])))
            score = decay * scores[c, order[i]]
            if score > f32(post_threshold):
                detections.append((c, score, order[i]))
    detections = [detections[k] for k in by_score(range(len(detections)),
                                                  [d[1] for d in detections])]
    return detections if keep_top_k < 0 else detections[:keep_top_k]


def np_matrix_nms(bboxes, scores, score_threshold, post_threshold, nms_top_k, keep_top_k,
                  use_gaussian=False, gaussian_sigma=2.0, background_label=0, normalized=True,
                  return_index=False, return_rois_num=True):
    """paddle.vision.ops.matrix_nms: (out, rois_num, index), the last two as requested."""
    rows, index, counts = [], [], []
    n, _, m = scores.shape
    for i in range(n):
        kept = matrix_nms_image(scores[i], bboxes[i], score_threshold, post_threshold, nms_top_k,
                                keep_top_k, use_gaussian, gaussian_sigma, background_label,
                                normalized)
        rows += [[c, s, *bboxes[i, k]] for c, s, k in kept]
        index += [i * m + k for _, _, k in kept]
        counts.append(len(kept))
    out = [np.asarray(rows, dtype=np.float64).reshape(-1, 6)]
    if return_rois_num:
        out.append(np.asarray(counts, dtype=np.int32))
    if return_index:
        out.append(np.asarray(index, dtype=np.int32).reshape(-1, 1))
    return out


# ---------------------------------------------------------------- region proposals
def fpn_level(roi, min_level, max_level, refer_level, refer_scale, pixel_offset):
    scale = np.sqrt(area(roi, normalized=not pixel_offset))
    level = np.floor(np.log2(scale / refer_scale + 1e-6) + refer_level)
    return int(np.clip(level, min_level, max_level))


def np_distribute_fpn_proposals(fpn_rois, min_level, max_level, refer_level, refer_scale,
                                pixel_offset=False, rois_num=None):
    """paddle.vision.ops.distribute_fpn_proposals: (multi_rois, restore_ind,
    rois_num_per_level), flattened; the last only with rois_num."""
    counts = [fpn_rois.shape[0]] if rois_num is None else list(rois_num)
    image = np.repeat(np.arange(len(counts)), counts)
    levels = np.asarray([fpn_level(r, min_level, max_level, refer_level, refer_scale,
                                   pixel_offset) for r in fpn_rois], dtype=np.int64)
    multi_rois, members, per_level = [], [], []
    for level in range(min_level, max_level + 1):
        chosen = np.nonzero(levels == level)[0]  # by image, then in order: the rows are sorted
        multi_rois.append(fpn_rois[chosen].reshape(-1, 4))
        members += list(chosen)
        per_level.append(np.bincount(image[chosen], minlength=len(counts)).astype(np.int32))
    restore = np.empty((fpn_rois.shape[0], 1), dtype=np.int32)
    restore[np.asarray(members, dtype=np.int64), 0] = np.arange(len(members))
    return multi_rois + [restore] + (per_level if rois_num is not None else [])


def proposals_for_image(scores, deltas, im_shape, anchors, variances, pre_nms_top_n,
                        post_nms_top_n, nms_thresh, min_size, eta, pixel_offset):
    """(rois [K, 4], probs [K]) of one image; scores [A, H, W], deltas [4A, H, W]."""
    a, h, w = scores.shape
    scores = scores.transpose(1, 2, 0).reshape(-1)
    deltas = deltas.reshape(a, 4, h, w).transpose(2, 3, 0, 1).reshape(-1, 4)
    anchors, variances = anchors.reshape(-1, 4), variances.reshape(-1, 4)
    order = by_score(np.arange(len(scores)), scores)
    if 0 < pre_nms_top_n < len(order):
        order = order[:pre_nms_top_n]
    offset = 1.0 if pixel_offset else 0.0
    anc, var, d = anchors[order], variances[order], deltas[order]
    aw, ah = anc[:, 2] - anc[:, 0] + offset, anc[:, 3] - anc[:, 1] + offset
    acx, acy = anc[:, 0] + 0.5 * aw, anc[:, 1] + 0.5 * ah
    clip = np.log(1000.0 / 16.0)
    cx, cy = var[:, 0] * d[:, 0] * aw + acx, var[:, 1] * d[:, 1] * ah + acy
    bw = np.exp(np.minimum(var[:, 2] * d[:, 2], clip)) * aw
    bh = np.exp(np.minimum(var[:, 3] * d[:, 3], clip)) * ah
    boxes = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2 - offset, cy + bh / 2 - offset], 1)
    im_h, im_w = im_shape
    boxes[:, 0::2] = np.maximum(np.minimum(boxes[:, 0::2], im_w - offset), 0)
    boxes[:, 1::2] = np.maximum(np.minimum(boxes[:, 1::2], im_h - offset), 0)
    ws, hs = boxes[:, 2] - boxes[:, 0] + offset, boxes[:, 3] - boxes[:, 1] + offset
    min_size = max(f32(min_size), 1.0)
    keep = (ws >= min_size) & (hs >= min_size)
    if pixel_offset:
        keep &= (boxes[:, 0] + ws / 2 <= im_w) & (boxes[:, 1] + hs / 2 <= im_h)
    boxes, probs = boxes[keep], scores[order][keep]
    if not len(probs):
        return np.zeros((1, 4)), np.zeros(1)
    kept = np.arange(len(probs))
    if nms_thresh > 0:
        # equal scores are visited from the last box back, as in Paddle
        candidates = by_score(kept[::-1], probs)
        kept = adaptive_nms(candidates, lambda i: boxes[i], f32(nms_thresh), f32(eta),
                            normalized=not pixel_offset)
        if 0 < post_nms_top_n < len(kept):
            kept = kept[:post_nms_top_n]
    return boxes[kept].reshape(-1, 4), probs[kept]


def np_generate_proposals(scores, bbox_deltas, img_size, anchors, variances, pre_nms_top_n=6000,
                          post_nms_top_n=1000, nms_thresh=0.5, min_size=0.1, eta=1.0,
                          pixel_offset=False, return_rois_num=False):
    """paddle.vision.ops.generate_proposals: (rpn_rois, rpn_roi_probs[, rpn_rois_num])."""
    rois, probs, counts = [], [], []
    for i in range(scores.shape[0]):
        r, p = proposals_for_image(scores[i], bbox_deltas[i], img_size[i], anchors, variances,
                                   pre_nms_top_n, post_nms_top_n, nms_thresh, min_size, eta,
                                   pixel_offset)
        rois.append(r)
        probs.append(p)
        counts.append(len(p))
    out = [np.concatenate(rois).reshape(-1, 4), np.concatenate(probs).reshape(-1, 1)]
    return out + ([np.asarray(counts, dtype=np.int32)] if return_rois_num else [])
