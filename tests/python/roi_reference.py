"""NumPy references of the RoI pooling ops (roi_align, roi_pool, psroi_pool) and the deformable
convolution, with the geometry of Paddle's CPU kernels (paddle/ops/yaml/roi.yaml), and their
adjoints (the gradient ops). Plain loops over boxes, bins and samples: the samples are small."""
import math

import numpy as np


def pair(value):
    return (value, value) if isinstance(value, int) else tuple(value)


def images_of(boxes_num, num_boxes):
    """The image of each box: boxes_num's counts in order, or image 0 for all."""
    if boxes_num is None:
        return np.zeros(num_boxes, dtype=int)
    return np.repeat(np.arange(len(boxes_num)), boxes_num)


def float32(value):
    """An attribute as the op holds it (a float32)."""
    return float(np.float32(value))


def round_half_away(value):
    """C's round(): halves away from zero (NumPy's np.round rounds them to even)."""
    return math.floor(value + 0.5) if value >= 0 else -math.floor(-value + 0.5)


# ---------------------------------------------------------------- roi_align

def align_taps(height, width, y, x):
    """[(row, column, weight)] that the bilinear sample at (y, x) reads (Paddle's clamping:
    [-1, 0] reads the first row or column, [size - 1, size] the last, further out nothing)."""
    if not (-1 <= y <= height and -1 <= x <= width) or height == 0 or width == 0:
        return []
    y, x = max(y, 0.0), max(x, 0.0)
    y0, x0 = int(y), int(x)
    y1, x1 = y0 + 1, x0 + 1
    if y0 >= height - 1:
        y0 = y1 = height - 1
        y = float(y0)
    if x0 >= width - 1:
        x0 = x1 = width - 1
        x = float(x0)
    ly, lx = y - y0, x - x0
    return [(y0, x0, (1 - ly) * (1 - lx)), (y0, x1, (1 - ly) * lx), (y1, x0, ly * (1 - lx)),
            (y1, x1, ly * lx)]


def align_bins(box, height, width, pooled, spatial_scale, sampling_ratio, aligned):
    """Per bin (i, j): the taps of its samples and 1 / the number of samples."""
    scale = float32(spatial_scale)
    shift = 0.5 if aligned else 0.0
    x1, y1, x2, y2 = (float(v) * scale - shift for v in box)
    roi_w, roi_h = x2 - x1, y2 - y1
    if not aligned:
        roi_w, roi_h = max(roi_w, 1.0), max(roi_h, 1.0)
    bin_h, bin_w = roi_h / pooled[0], roi_w / pooled[1]
    grid_h = sampling_ratio if sampling_ratio > 0 else math.ceil(bin_h)
    grid_w = sampling_ratio if sampling_ratio > 0 else math.ceil(bin_w)
    bins = {}
    for i in range(pooled[0]):
        for j in range(pooled[1]):
            taps = []
            if grid_h >= 1 and grid_w >= 1:
                for iy in range(grid_h):
                    y = y1 + bin_h * (i + (iy + 0.5) / grid_h)
                    for ix in range(grid_w):
                        taps += align_taps(height, width, y, x1 + bin_w * (j + (ix + 0.5) / grid_w))
            bins[i, j] = taps, 1.0 / max(grid_h * grid_w, 1)
    return bins


def np_roi_align(x, boxes, boxes_num, output_size, spatial_scale=1.0, sampling_ratio=-1,
                 aligned=True):
    pooled = pair(output_size)
    out = np.zeros((len(boxes), x.shape[1]) + pooled)
    for r, image in enumerate(images_of(boxes_num, len(boxes))):
        bins = align_bins(boxes[r], x.shape[2], x.shape[3], pooled, spatial_scale,
                          sampling_ratio, aligned)
        for (i, j), (taps, inverse_count) in bins.items():
            for row, col, weight in taps:
                out[r, :, i, j] += weight * x[image, :, row, col] * inverse_count
    return out


def np_roi_align_grad(x, boxes, boxes_num, out_grad, pooled_height, pooled_width,
                      spatial_scale, sampling_ratio, aligned):
    """The adjoint of np_roi_align: each bin's gradient spread back over its samples' taps."""
    pooled = (pooled_height, pooled_width)
    x_grad = np.zeros(x.shape)
    for r, image in enumerate(images_of(boxes_num, len(boxes))):
        bins = align_bins(boxes[r], x.shape[2], x.shape[3], pooled, spatial_scale,
                          sampling_ratio, aligned)
        for (i, j), (taps, inverse_count) in bins.items():
            for row, col, weight in taps:
                x_grad[image, :, row, col] += weight * out_grad[r, :, i, j] * inverse_count
    return x_grad


# ---------------------------------------------------------------- roi_pool

def roi_pool_windows(box, height, width, pooled, spatial_scale):
    """Per bin (i, j): its rows and columns (corners rounded, bins split in float32)."""
    scale = float32(spatial_scale)
    x1, y1, x2, y2 = (round_half_away(float(v) * scale) for v in box)
    bin_h = np.float32(max(y2 - y1 + 1, 1)) / np.float32(pooled[0])
    bin_w = np.float32(max(x2 - x1 + 1, 1)) / np.float32(pooled[1])

    def window(i, size_of_bin, origin, size):
        start = math.floor(np.float32(i) * size_of_bin) + origin
        end = math.ceil(np.float32(i + 1) * size_of_bin) + origin
        return range(min(max(start, 0), size), min(max(end, 0), size))
    return {(i, j): (window(i, bin_h, y1, height), window(j, bin_w, x1, width))
            for i in range(pooled[0]) for j in range(pooled[1])}


def np_roi_pool_op(x, boxes, boxes_num=None, pooled_height=1, pooled_width=1,
                   spatial_scale=1.0):
    """[out, arg_max] of the roi_pool op: each bin's maximum (0 when empty) and its index
    h * W + w in the channel (-1 when empty)."""
    pooled = (pooled_height, pooled_width)
    out = np.zeros((len(boxes), x.shape[1]) + pooled)
    arg_max = np.full(out.shape, -1, dtype=np.int64)
    width = x.shape[3]
    for r, image in enumerate(images_of(boxes_num, len(boxes))):
        windows = roi_pool_windows(boxes[r], x.shape[2], width, pooled, spatial_scale)
        for (i, j), (rows, cols) in windows.items():
            if not rows or not cols:
                continue
            region = x[image][:, rows.start:rows.stop, cols.start:cols.stop]
            flat = region.reshape(x.shape[1], -1)
            first = flat.argmax(axis=1)
            out[r, :, i, j] = flat[np.arange(len(flat)), first]
            arg_max[r, :, i, j] = (rows.start + first // len(cols)) * width + cols.start + \
                first % len(cols)
    return [out, arg_max]


def np_roi_pool(x, boxes, boxes_num, output_size, spatial_scale=1.0):
    return np_roi_pool_op(x, boxes, boxes_num, *pair(output_size), spatial_scale)[0]


def np_roi_pool_grad(x, boxes, boxes_num, arg_max, out_grad, pooled_height, pooled_width,
                     spatial_scale):
    """Each output's gradient added to the element arg_max names."""
    x_grad = np.zeros(x.shape)
    planes = x_grad.reshape(x.shape[0], x.shape[1], -1)
    for r, image in enumerate(images_of(boxes_num, len(boxes))):
        for c in range(x.shape[1]):
            for index, g in zip(arg_max[r, c].reshape(-1), out_grad[r, c].reshape(-1)):
                if index >= 0:
                    planes[image, c, index] += g
    return x_grad


# ---------------------------------------------------------------- psroi_pool

def psroi_windows(box, height, width, pooled, spatial_scale):
    """Per bin (i, j): its rows and columns (corners rounded, the far ones one pixel further,
    then scaled; the box at least 0.1 x 0.1)."""
    scale = float32(spatial_scale)
    x1, y1 = round_half_away(float(box[0])) * scale, round_half_away(float(box[1])) * scale
    x2, y2 = (round_half_away(float(box[2])) + 1) * scale, (round_half_away(float(box[3])) + 1) * scale
    bin_h, bin_w = max(y2 - y1, 0.1) / pooled[0], max(x2 - x1, 0.1) / pooled[1]

    def window(i, size_of_bin, origin, size):
        start, end = math.floor(i * size_of_bin + origin), math.ceil((i + 1) * size_of_bin + origin)
        return range(min(max(start, 0), size), min(max(end, 0), size))
    return {(i, j): (window(i, bin_h, y1, height), window(j, bin_w, x1, width))
            for i in range(pooled[0]) for j in range(pooled[1])}


def np_psroi_pool(x, boxes, boxes_num, output_size, spatial_scale=1.0):
    pooled = pair(output_size)
    bins = pooled[0] * pooled[1]
    out = np.zeros((len(boxes), x.shape[1] // bins) + pooled)
    for r, image in enumerate(images_of(boxes_num, len(boxes))):
        windows = psroi_windows(boxes[r], x.shape[2], x.shape[3], pooled, spatial_scale)
        for (i, j), (rows, cols) in windows.items():
            if rows and cols:
                channels = np.arange(out.shape[1]) * bins + i * pooled[1] + j
                region = x[image][channels][:, rows.start:rows.stop, cols.start:cols.stop]
                out[r, :, i, j] = region.mean(axis=(1, 2))
    return out


def np_psroi_pool_grad(x, boxes, boxes_num, out_grad, pooled_height, pooled_width,
                       output_channels, spatial_scale):
    pooled = (pooled_height, pooled_width)
    bins = pooled_height * pooled_width
    x_grad = np.zeros(x.shape)
    for r, image in enumerate(images_of(boxes_num, len(boxes))):
        windows = psroi_windows(boxes[r], x.shape[2], x.shape[3], pooled, spatial_scale)
        for (i, j), (rows, cols) in windows.items():
            if rows and cols:
                channels = np.arange(output_channels) * bins + i * pooled_width + j
                area = len(rows) * len(cols)
                x_grad[image, channels, rows.start:rows.stop, cols.start:cols.stop] += \
                    out_grad[r, :, i, j][:, None, None] / area
    return x_grad


# ---------------------------------------------------------------- deformable convolution

def deform_corners(height, width, h, w):
    """[(row, column, weight, d weight / dh, d weight / dw)] of the bilinear sample at (h, w),
    with 0 outside the map; nothing when (h, w) is at -1 or beyond in a direction."""
    if not (-1 < h < height and -1 < w < width):
        return []
    h0, w0 = math.floor(h), math.floor(w)
    lh, lw = h - h0, w - w0
    corners = [(h0, w0, (1 - lh) * (1 - lw), -(1 - lw), -(1 - lh)),
               (h0, w0 + 1, (1 - lh) * lw, -lw, 1 - lh),
               (h0 + 1, w0, lh * (1 - lw), 1 - lw, -lh),
               (h0 + 1, w0 + 1, lh * lw, lw, lh)]
    return [c for c in corners if 0 <= c[0] < height and 0 <= c[1] < width]


def deform_geometry(x, weight, offset, stride, padding, dilation, deformable_groups):
    """The sample points of every (sample, deformable group, tap, output row, output column)."""
    (sh, sw), (ph, pw), (dh, dw) = pair(stride), pair(padding), pair(dilation)
    kh, kw = weight.shape[2:]
    out_h, out_w = offset.shape[2:]
    points = {}
    for n in range(x.shape[0]):
        for g in range(deformable_groups):
            for k in range(kh * kw):
                i, j = divmod(k, kw)
                for oh in range(out_h):
                    for ow in range(out_w):
                        h = oh * sh - ph + i * dh + offset[n, g * 2 * kh * kw + 2 * k, oh, ow]
                        w = ow * sw - pw + j * dw + offset[n, g * 2 * kh * kw + 2 * k + 1, oh, ow]
                        points[n, g, k, oh, ow] = deform_corners(x.shape[2], x.shape[3], h, w)
    return points


def deform_columns(x, weight, offset, mask, stride, padding, dilation, deformable_groups):
    """[N, C, kh * kw, H_out, W_out]: each tap's sample of each channel (times the mask)."""
    points = deform_geometry(x, weight, offset, stride, padding, dilation, deformable_groups)
    per_group = x.shape[1] // deformable_groups
    taps = weight.shape[2] * weight.shape[3]
    cols = np.zeros((x.shape[0], x.shape[1], taps) + offset.shape[2:])
    for (n, g, k, oh, ow), corners in points.items():
        channels = slice(g * per_group, (g + 1) * per_group)
        value = sum(wt * x[n, channels, r, c] for r, c, wt, _, _ in corners)
        scale = 1.0 if mask is None else mask[n, g * taps + k, oh, ow]
        cols[n, channels, k, oh, ow] = value * scale
    return cols


def np_deform_conv2d(x, offset, weight, bias=None, stride=1, padding=0, dilation=1,
                     deformable_groups=1, groups=1, mask=None):
    cols = deform_columns(x, weight, offset, mask, stride, padding, dilation, deformable_groups)
    out_per_group, in_per_group = weight.shape[0] // groups, weight.shape[1]
    taps = weight.shape[2] * weight.shape[3]
    out = np.zeros((x.shape[0], weight.shape[0]) + offset.shape[2:])
    for g in range(groups):
        w = weight[g * out_per_group:(g + 1) * out_per_group].reshape(out_per_group, in_per_group,
                                                                      taps)
        out[:, g * out_per_group:(g + 1) * out_per_group] = np.einsum(
            "mck,nckhw->nmhw", w, cols[:, g * in_per_group:(g + 1) * in_per_group])
    if bias is not None:
        out += bias.reshape(1, -1, 1, 1)
    return out


def np_deformable_conv_grad(x, offset, weight, mask, out_grad, strides, paddings, dilations,
                            deformable_groups, groups):
    """[x_grad, offset_grad, filter_grad, mask_grad] of the deformable convolution; mask_grad is
    empty without a mask."""
    taps = weight.shape[2] * weight.shape[3]
    out_per_group, in_per_group = weight.shape[0] // groups, weight.shape[1]
    # The gradient of each column (channel, tap, position), and of the filter.
    col_grad = np.zeros((x.shape[0], x.shape[1], taps) + offset.shape[2:])
    cols = deform_columns(x, weight, offset, mask, strides, paddings, dilations, deformable_groups)
    filter_grad = np.zeros(weight.shape)
    for g in range(groups):
        outs, ins = slice(g * out_per_group, (g + 1) * out_per_group), \
            slice(g * in_per_group, (g + 1) * in_per_group)
        w = weight[outs].reshape(out_per_group, in_per_group, taps)
        col_grad[:, ins] = np.einsum("mck,nmhw->nckhw", w, out_grad[:, outs])
        filter_grad[outs] = np.einsum("nmhw,nckhw->mck", out_grad[:, outs],
                                      cols[:, ins]).reshape(filter_grad[outs].shape)
    x_grad, offset_grad = np.zeros(x.shape), np.zeros(offset.shape)
    mask_grad = np.zeros(mask.shape if mask is not None else (0,))
    per_group = x.shape[1] // deformable_groups
    points = deform_geometry(x, weight, offset, strides, paddings, dilations, deformable_groups)
    for (n, g, k, oh, ow), corners in points.items():
        channels = slice(g * per_group, (g + 1) * per_group)
        scale = 1.0 if mask is None else mask[n, g * taps + k, oh, ow]
        d = col_grad[n, channels, k, oh, ow]
        for r, c, wt, wt_h, wt_w in corners:
            x_grad[n, channels, r, c] += d * scale * wt
            offset_grad[n, g * 2 * taps + 2 * k, oh, ow] += scale * (d * x[n, channels, r, c]).sum() * wt_h
            offset_grad[n, g * 2 * taps + 2 * k + 1, oh, ow] += \
                scale * (d * x[n, channels, r, c]).sum() * wt_w
            if mask is not None:
                mask_grad[n, g * taps + k, oh, ow] += (d * x[n, channels, r, c]).sum() * wt
    return [x_grad, offset_grad, filter_grad, mask_grad]
