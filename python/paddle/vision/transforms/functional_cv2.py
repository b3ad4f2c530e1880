"""The numpy.ndarray (H x W x C) implementations behind paddle.vision.transforms.functional, the
images PaddlePaddle's 'cv2' backend works on. Paddle calls OpenCV here; this project has no OpenCV
dependency, so each function is written with NumPy and follows OpenCV's conventions where those
are well defined:

- resize samples at half-pixel centres (cv2.resize, and paddle.nn.functional.interpolate with
  align_corners=False): 'nearest' takes floor(dst * in / out), 'bilinear' clamps the source
  coordinate at 0, 'bicubic' uses the a = -0.75 kernel, 'lanczos' the 8-tap Lanczos-4 and 'area'
  averages the covered source pixels when shrinking (it is bilinear when enlarging). Integer
  images are rounded and saturated, so a uint8 result can differ by 1 from OpenCV's fixed-point
  arithmetic.
- pad's 'reflect' is BORDER_REFLECT_101 and 'symmetric' BORDER_REFLECT, NumPy's modes of the
  same names.
- rotate, affine and perspective use Pillow's geometry (the pixel centre at +0.5, the same inverse
  matrices as the PIL path), so an array and a PIL image of the same pixels give the same result;
  Paddle's cv2 path rotates about (w/2, h/2) in OpenCV's integer-centred pixels and its affine drops
  the centre term, which moves the output by up to a pixel.
- adjust_hue rotates the hue like Pillow's HSV (8-bit hue), adjust_saturation blends with the
  grayscale image by the given factor (Paddle's cv2 path draws an extra np.random factor instead),
  and the gray weights are those of RGB input (0.299, 0.587, 0.114)."""
import math

import numpy as np

__all__ = []

_GRAY_WEIGHTS = np.array([0.299, 0.587, 0.114])


def _with_channels(img):
    return img[:, :, None] if img.ndim == 2 else img


def _like_input(result, img):
    """Drops the channel axis added for a 2-D input."""
    return result[:, :, 0] if img.ndim == 2 else result


def _cast_back(values, dtype):
    """Float results back to the input dtype: integers rounded and saturated."""
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return np.clip(np.rint(values), info.min, info.max).astype(dtype)
    if dtype == np.bool_:
        return values >= 0.5
    return values.astype(dtype)


def _cubic(distance):
    a = -0.75
    d = np.abs(distance)
    near = ((a + 2) * d - (a + 3)) * d * d + 1
    far = ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return np.where(d <= 1, near, np.where(d < 2, far, 0.0))


def _lanczos4(distance):
    d = np.asarray(distance, np.float64)
    return np.where(np.abs(d) < 4, np.sinc(d) * np.sinc(d / 4), 0.0)


def _tap_weights(in_size, out_size, kernel, taps):
    """An (out_size, in_size) matrix: each row holds the kernel's weights over `taps` source pixels
    around the half-pixel source coordinate, borders replicated, rows normalised to sum to 1."""
    scale = in_size / out_size
    source = (np.arange(out_size) + 0.5) * scale - 0.5
    first = np.floor(source).astype(np.int64) - (taps // 2 - 1)
    weights = np.zeros((out_size, in_size))
    rows = np.arange(out_size)
    for tap in range(taps):
        index = first + tap
        np.add.at(weights, (rows, np.clip(index, 0, in_size - 1)), kernel(source - index))
    return weights / weights.sum(axis=1, keepdims=True)


def _axis_weights(in_size, out_size, interpolation):
    scale = in_size / out_size
    rows = np.arange(out_size)
    weights = np.zeros((out_size, in_size))
    if interpolation == "nearest":
        weights[rows, np.minimum(np.floor(rows * scale).astype(np.int64), in_size - 1)] = 1.0
    elif interpolation == "bilinear" or (interpolation == "area" and scale <= 1):
        source = np.maximum((rows + 0.5) * scale - 0.5, 0.0)
        low = np.floor(source).astype(np.int64)
        frac = source - low
        np.add.at(weights, (rows, np.minimum(low, in_size - 1)), 1.0 - frac)
        np.add.at(weights, (rows, np.minimum(low + 1, in_size - 1)), frac)
    elif interpolation == "area":
        # Each output pixel covers [o * scale, (o + 1) * scale) of the input: weight by overlap.
        starts, ends = rows * scale, (rows + 1) * scale
        pixels = np.arange(in_size)
        overlap = np.minimum(ends[:, None], pixels[None, :] + 1) - np.maximum(starts[:, None], pixels)
        weights = np.maximum(overlap, 0.0) / scale
    elif interpolation == "bicubic":
        weights = _tap_weights(in_size, out_size, _cubic, 4)
    else:
        weights = _tap_weights(in_size, out_size, _lanczos4, 8)
    return weights


def _apply_axis_weights(weights, data, axis):
    """The weighted sums weights @ data along `axis`, reading only each row's non-zero taps (a
    few per output pixel) instead of multiplying the dense matrix."""
    taps = int((weights != 0).sum(axis=1).max())
    # Stable sort puts each row's non-zero columns first, in order.
    columns = np.argsort(weights == 0, axis=1, kind="stable")[:, :taps]
    tap_weights = np.take_along_axis(weights, columns, axis=1)
    shape = [1] * data.ndim
    shape[axis] = -1
    result = tap_weights[:, 0].reshape(shape) * np.take(data, columns[:, 0], axis)
    for tap in range(1, taps):
        result += tap_weights[:, tap].reshape(shape) * np.take(data, columns[:, tap], axis)
    return result


def resize(img, size, interpolation):
    """`img` resized to size = (height, width)."""
    out_h, out_w = size
    data = _with_channels(img)
    rows = _axis_weights(data.shape[0], out_h, interpolation)
    cols = _axis_weights(data.shape[1], out_w, interpolation)
    # float32 keeps 8- and 16-bit pixels and float32 images exact enough, at half the traffic.
    compute = np.float32 if data.dtype.itemsize <= 2 or data.dtype == np.float32 else np.float64
    values = _apply_axis_weights(rows.astype(compute), data.astype(compute, copy=False), axis=0)
    values = _apply_axis_weights(cols.astype(compute), values, axis=1)
    return _like_input(_cast_back(values, img.dtype), img)


def pad(img, left, top, right, bottom, fill, padding_mode):
    widths = ((top, bottom), (left, right)) + (((0, 0),) if img.ndim == 3 else ())
    if padding_mode != "constant":
        return np.pad(img, widths, padding_mode)
    data = _with_channels(img)
    out = np.empty((data.shape[0] + top + bottom, data.shape[1] + left + right, data.shape[2]),
                   img.dtype)
    out[...] = _fill_values(fill, data.shape[2], img.dtype)
    out[top:top + data.shape[0], left:left + data.shape[1]] = data
    return _like_input(out, img)


def _fill_values(fill, channels, dtype):
    """A per-channel fill from a number or a sequence (cv2's borderValue: missing channels 0)."""
    values = np.zeros(channels, np.float64)
    given = np.atleast_1d(np.asarray(fill, np.float64))
    if given.size == 1:
        values[:] = given[0]
    else:
        count = min(channels, given.size)
        values[:count] = given[:count]
    return _cast_back(values, dtype)


def hflip(img):
    return np.ascontiguousarray(img[:, ::-1])


def vflip(img):
    return np.ascontiguousarray(img[::-1])


def _lookup(img, table):
    return table[img.astype(np.uint8)]


def adjust_brightness(img, factor):
    table = np.clip(np.arange(256) * factor, 0, 255).astype(np.uint8)
    return _lookup(img, table)


def adjust_contrast(img, factor):
    # Paddle's cv2 path blends every pixel with the fixed gray level 74, not the image's mean.
    table = np.clip((np.arange(256) - 74) * factor + 74, 0, 255).astype(np.uint8)
    return _lookup(img, table)


def _gray(data):
    """The luma of an H x W x 3 RGB array as float64 (H x W)."""
    return data[..., :3].astype(np.float64) @ _GRAY_WEIGHTS


def adjust_saturation(img, factor):
    if img.ndim == 2 or img.shape[2] == 1:
        return img
    data = img.astype(np.float64)
    gray = _gray(data)[..., None]
    blended = data * factor + gray * (1 - factor)
    if np.issubdtype(img.dtype, np.integer):
        return np.clip(blended, 0, 255).astype(img.dtype)
    return blended.astype(img.dtype)


def _rgb_to_hsv_u8(rgb):
    """Pillow's RGB -> HSV conversion of uint8 pixels (all channels 0..255)."""
    rgb = rgb.astype(np.int32)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    maxc = rgb.max(axis=-1)
    minc = rgb.min(axis=-1)
    spread = (maxc - minc).astype(np.float32)
    gray = spread == 0
    safe = np.where(gray, np.float32(1), spread)
    rc = ((maxc - r).astype(np.float32) / safe).astype(np.float64)
    gc = ((maxc - g).astype(np.float32) / safe).astype(np.float64)
    bc = ((maxc - b).astype(np.float32) / safe).astype(np.float64)
    # Pillow computes in float with double constants; the float32 roundings are kept.
    hue = np.where(r == maxc, (bc - gc).astype(np.float32),
                   np.where(g == maxc, 2.0 + rc - bc, 4.0 + gc - rc).astype(np.float32))
    hue = np.fmod(hue.astype(np.float64) / 6.0 + 1.0, 1.0).astype(np.float32).astype(np.float64)
    saturation = spread / np.where(maxc == 0, np.float32(1), maxc.astype(np.float32))
    h = np.where(gray, 0, np.clip((hue * 255.0).astype(np.int32), 0, 255))
    s = np.where(gray, 0, np.clip((saturation.astype(np.float64) * 255.0).astype(np.int32), 0, 255))
    return h, s, maxc


def _hsv_to_rgb_u8(h, s, v):
    """Pillow's HSV -> RGB conversion of uint8 pixels."""
    sector_position = h.astype(np.float32) * np.float32(6.0) / np.float32(255.0)
    sector = np.floor(sector_position).astype(np.int32)
    frac = sector_position - sector
    fs = s.astype(np.float32) / np.float32(255.0)
    vf = v.astype(np.float32)
    p = np.clip(np.round(vf * (1 - fs)), 0, 255).astype(np.int32)
    q = np.clip(np.round(vf * (1 - fs * frac)), 0, 255).astype(np.int32)
    t = np.clip(np.round(vf * (1 - fs * (1 - frac))), 0, 255).astype(np.int32)
    choices = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)]
    sector = sector % 6
    out = np.zeros(h.shape + (3,), np.int32)
    for index, channels in enumerate(choices):
        for channel, values in enumerate(channels):
            out[..., channel] = np.where(sector == index, values, out[..., channel])
    gray = s == 0
    out[gray] = v[gray][:, None]
    return out


def adjust_hue(img, hue_factor):
    if img.ndim == 2 or img.shape[2] == 1:
        return img
    data = img.astype(np.uint8)
    h, s, v = _rgb_to_hsv_u8(data[..., :3])
    h = (h + int(hue_factor * 255)) % 256
    out = data.copy()
    out[..., :3] = _hsv_to_rgb_u8(h, s, v).astype(np.uint8)
    return out.astype(img.dtype)


def to_grayscale(img, num_output_channels):
    data = _with_channels(img)
    gray = _gray(data) if data.shape[2] >= 3 else data[..., 0].astype(np.float64)
    gray = _cast_back(gray, img.dtype)[..., None]
    return np.repeat(gray, num_output_channels, axis=2)


def warp(img, coefficients, out_size, interpolation, fill):
    """Samples `img` at the source points of an affine (6 coefficients) or projective (8)
    map from output pixel centres (x + 0.5, y + 0.5), as PIL's Image.transform does: 'nearest'
    takes the pixel the point falls in, 'bilinear'/'bicubic' interpolate around it (neighbours
    outside the image replicate the border); points outside the image get `fill`."""
    out_w, out_h = out_size
    data = _with_channels(img)
    in_h, in_w, channels = data.shape
    ys, xs = np.meshgrid(np.arange(out_h) + 0.5, np.arange(out_w) + 0.5, indexing="ij")
    c = list(coefficients) + [0.0, 0.0][:8 - len(coefficients)]
    denominator = c[6] * xs + c[7] * ys + 1.0
    src_x = (c[0] * xs + c[1] * ys + c[2]) / denominator
    src_y = (c[3] * xs + c[4] * ys + c[5]) / denominator
    source = data.astype(np.float64)
    if interpolation == "nearest":
        col, row = _nearest_source(c, src_x, src_y, out_w, out_h)
        inside = (col >= 0) & (col < in_w) & (row >= 0) & (row < in_h)
        values = source[np.clip(row, 0, in_h - 1), np.clip(col, 0, in_w - 1)]
    else:
        inside = (src_x >= 0) & (src_x < in_w) & (src_y >= 0) & (src_y < in_h)
        values = _interpolate(source, src_x - 0.5, src_y - 0.5, interpolation)
    values = np.where(inside[..., None], values, _fill_values(fill, channels, np.float64))
    if interpolation != "nearest" and np.issubdtype(img.dtype, np.integer):
        # Pillow truncates interpolated integer pixels.
        info = np.iinfo(img.dtype)
        return _like_input(np.trunc(np.clip(values, info.min, info.max)).astype(img.dtype), img)
    return _like_input(_cast_back(values, img.dtype), img)


def _lerp(a, b, d):
    return a + (b - a) * d


def _cubic_polynomial(v1, v2, v3, v4, d):
    """Pillow's transform filter: cubic convolution with a = -1 over four neighbours."""
    p2 = -v1 + v3
    p3 = 2 * (v1 - v2) + v3 - v4
    p4 = -v1 + v2 - v3 + v4
    return v2 + d * (p2 + d * (p3 + d * p4))


def _interpolate(source, x, y, interpolation):
    """`source` (H x W x C, float64) interpolated at the points (x, y) in pixel-centred
    coordinates, neighbours outside the image replicating the border, evaluated in the order
    Pillow's filters use (rows first, then the column) so that truncation agrees."""
    in_h, in_w = source.shape[:2]
    x0 = np.floor(x).astype(np.int64)
    y0 = np.floor(y).astype(np.int64)
    dx = (x - x0)[..., None]
    dy = (y - y0)[..., None]
    first = 0 if interpolation == "bilinear" else -1
    taps = 2 if interpolation == "bilinear" else 4
    cols = [np.clip(x0 + first + k, 0, in_w - 1) for k in range(taps)]
    rows = []
    for k in range(taps):
        line = np.clip(y0 + first + k, 0, in_h - 1)
        samples = [source[line, col] for col in cols]
        rows.append(_lerp(*samples, dx) if taps == 2 else _cubic_polynomial(*samples, dx))
    return _lerp(*rows, dy) if taps == 2 else _cubic_polynomial(*rows, dy)


def _nearest_source(c, src_x, src_y, out_w, out_h):
    """The source pixel of each output pixel for 'nearest', computed as Pillow does so that
    points on a pixel boundary land on the same side: a pure scale accumulates the steps in
    double precision, another affine map steps in 16.16 fixed point, a projective map floors."""
    if len(c) > 6 and (c[6] or c[7]):
        return np.floor(src_x).astype(np.int64), np.floor(src_y).astype(np.int64)
    if c[1] == 0 and c[3] == 0:
        xs = np.add.accumulate(np.r_[c[2] + c[0] * 0.5, np.full(out_w - 1, c[0])])
        ys = np.add.accumulate(np.r_[c[5] + c[4] * 0.5, np.full(out_h - 1, c[4])])
        col = np.where(xs < 0, -1, np.trunc(xs)).astype(np.int64)
        row = np.where(ys < 0, -1, np.trunc(ys)).astype(np.int64)
        return np.broadcast_to(col, (out_h, out_w)), np.broadcast_to(row[:, None], (out_h, out_w))

    def fixed(value):
        return int(math.floor(value * 65536.0 + 0.5))

    corners_fit = all(abs(x * c[0] + y * c[1] + c[2]) < 32768.0 and abs(x * c[3] + y * c[4] + c[5]) < 32768.0
                      for x, y in ((0, 0), (out_w, out_h), (0, out_h), (out_w, 0)))
    if not corners_fit:
        return np.floor(src_x).astype(np.int64), np.floor(src_y).astype(np.int64)
    x = np.arange(out_w, dtype=np.int64)[None, :]
    y = np.arange(out_h, dtype=np.int64)[:, None]
    xx = fixed(c[2] + c[0] * 0.5 + c[1] * 0.5) + x * fixed(c[0]) + y * fixed(c[1])
    yy = fixed(c[5] + c[3] * 0.5 + c[4] * 0.5) + x * fixed(c[3]) + y * fixed(c[4])
    return xx >> 16, yy >> 16


def rotation_matrix(angle, width, height, center, expand):
    """The inverse affine map of a rotation by `angle` degrees counter-clockwise about `center`
    (default: the image centre) and the output (width, height), as Pillow's Image.rotate builds
    them."""
    if center is None:
        center = (width / 2, height / 2)
    radians = -math.radians(angle)
    cos, sin = round(math.cos(radians), 15), round(math.sin(radians), 15)
    matrix = [cos, sin, 0.0, -sin, cos, 0.0]

    def apply(x, y):
        return matrix[0] * x + matrix[1] * y + matrix[2], matrix[3] * x + matrix[4] * y + matrix[5]

    matrix[2], matrix[5] = apply(-center[0], -center[1])
    matrix[2] += center[0]
    matrix[5] += center[1]
    if expand:
        corners = [apply(x, y) for x, y in ((0, 0), (width, 0), (width, height), (0, height))]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        new_w = math.ceil(max(xs)) - math.floor(min(xs))
        new_h = math.ceil(max(ys)) - math.floor(min(ys))
        matrix[2], matrix[5] = apply(-(new_w - width) / 2.0, -(new_h - height) / 2.0)
        width, height = new_w, new_h
    return matrix, (width, height)


def rotate(img, angle, interpolation, expand, center, fill):
    angle = angle % 360.0
    height, width = img.shape[:2]
    if center is None:
        # Exact quarter turns, as Pillow takes them, without resampling.
        if angle == 0:
            return img.copy()
        if angle == 180:
            return np.ascontiguousarray(img[::-1, ::-1])
        if angle in (90, 270) and (expand or width == height):
            return np.ascontiguousarray(np.rot90(img, 1 if angle == 90 else 3))
    matrix, out_size = rotation_matrix(angle, width, height, center, expand)
    return warp(img, matrix, out_size, interpolation, fill)


def normalize(img, mean, std, data_format, to_rgb):
    channel_axis = 0 if data_format == "CHW" else img.ndim - 1
    if to_rgb:
        img = np.flip(img, axis=channel_axis)
    shape = [1] * img.ndim
    shape[channel_axis] = -1
    mean = np.asarray(mean, np.float32).reshape(shape)
    std = np.asarray(std, np.float32).reshape(shape)
    return (img - mean) / std


def erase(img, top, left, height, width, value, inplace):
    out = img if inplace else img.copy()
    out[top:top + height, left:left + width, ...] = value
    return out
