"""The paddle.Tensor implementations behind paddle.vision.transforms.functional, for images of
shape [C, H, W] or [N, C, H, W] ('CHW', the default) or [H, W, C] / [N, H, W, C] ('HWC').

Transforms are data preparation, not part of a differentiated graph, so each function reads the
tensor's values, computes with the NumPy implementations in functional_cv2 (the same geometry as
paddle.nn.functional.interpolate with align_corners=False for resize) and returns a new tensor of
the input's dtype. The colour functions follow Paddle's tensor path: blending with a black,
mean-gray or grayscale image (clipped to 1.0 for float and 255 for integer images) and a float
HSV hue rotation; the gray weights are (0.2989, 0.587, 0.114) applied in float, also to integer
images (Paddle casts the weights to the image's dtype, which zeroes them for uint8)."""
import math

import numpy as np

from . import functional_cv2 as F_np

__all__ = []

_TENSOR_GRAY_WEIGHTS = np.array([0.2989, 0.587, 0.114])


def _to_tensor(array, like):
    import paddle
    return paddle.to_tensor(np.ascontiguousarray(array), place=like.place)


def _channel_last(array, data_format):
    """The image(s) as [..., H, W, C] numpy arrays."""
    return array if data_format == "HWC" else np.moveaxis(array, -3, -1)


def _restore(array, data_format):
    return array if data_format == "HWC" else np.moveaxis(array, -1, -3)


def _map_images(img, data_format, function):
    """Applies `function` (H x W x C numpy -> H' x W' x C' numpy) to every image of a 3-D or
    4-D tensor and returns a tensor in the same layout."""
    array = _channel_last(img.numpy(), data_format)
    if array.ndim == 3:
        result = function(array)
    else:
        result = np.stack([function(image) for image in array])
    return _to_tensor(_restore(result, data_format), img)


def image_size(img, data_format="CHW"):
    """(width, height) of a 3-D or 4-D image tensor."""
    shape = img.shape
    if data_format == "CHW":
        return shape[-1], shape[-2]
    return shape[-2], shape[-3]


def channels(img, data_format="CHW"):
    return img.shape[-3] if data_format == "CHW" else img.shape[-1]


def resize(img, size, interpolation, data_format="CHW"):
    return _map_images(img, data_format, lambda a: F_np.resize(a, size, interpolation))


def pad(img, left, top, right, bottom, fill, padding_mode, data_format="CHW"):
    return _map_images(img, data_format,
                       lambda a: F_np.pad(a, left, top, right, bottom, fill, padding_mode))


def crop(img, top, left, height, width, data_format="CHW"):
    if data_format == "CHW":
        return img[..., top:top + height, left:left + width]
    return img[..., top:top + height, left:left + width, :]


def hflip(img, data_format="CHW"):
    return _to_tensor(np.flip(img.numpy(), -1 if data_format == "CHW" else -2), img)


def vflip(img, data_format="CHW"):
    return _to_tensor(np.flip(img.numpy(), -2 if data_format == "CHW" else -3), img)


def _max_value(array):
    return 1.0 if np.issubdtype(array.dtype, np.floating) else 255.0


def _blend(image, target, ratio):
    """target + ratio * (image - target), clipped to the image's range, in the image's dtype
    (truncated for integers, as Paddle's astype does)."""
    blended = target + ratio * (image.astype(np.float64) - target)
    return np.clip(blended, 0, _max_value(image)).astype(image.dtype)


def _gray(image):
    """[..., H, W, 1] float64 luma of [..., H, W, 3] images."""
    return (image.astype(np.float64) @ _TENSOR_GRAY_WEIGHTS)[..., None]


def to_grayscale(img, num_output_channels, data_format="CHW"):
    def grayscale(image):
        gray = _gray(image).astype(image.dtype)
        return np.repeat(gray, num_output_channels, axis=-1)
    return _map_images(img, data_format, grayscale)


def adjust_brightness(img, factor):
    return _map_images(img, "CHW", lambda a: _blend(a, 0.0, factor))


def adjust_contrast(img, factor):
    def contrast(image):
        luma = image.astype(np.float64) if image.shape[-1] == 1 else _gray(image)
        return _blend(image, luma.mean(), factor)
    return _map_images(img, "CHW", contrast)


def adjust_saturation(img, factor):
    def saturation(image):
        if image.shape[-1] == 1:
            return image
        return _blend(image, _gray(image), factor)
    return _map_images(img, "CHW", saturation)


def _rgb_to_hsv(rgb):
    maxc = rgb.max(axis=-1)
    minc = rgb.min(axis=-1)
    spread = maxc - minc
    equal = spread == 0
    saturation = spread / np.where(equal, 1.0, maxc)
    divisor = np.where(equal, 1.0, spread)
    rc, gc, bc = [(maxc - rgb[..., k]) / divisor for k in range(3)]
    r_is_max = maxc == rgb[..., 0]
    g_is_max = (maxc == rgb[..., 1]) & ~r_is_max
    hue = np.where(r_is_max, bc - gc, np.where(g_is_max, rc - bc + 2.0, gc - rc + 4.0))
    hue = np.where(equal, 0.0, hue)
    hue = hue / 6.0 + 1.0
    return hue - np.trunc(hue), saturation, maxc


def _hsv_to_rgb(hue, saturation, value):
    scaled = hue * 6.0
    sector = np.floor(scaled)
    frac = scaled - sector
    sector = sector.astype(np.int64) % 6
    p = np.clip(value * (1.0 - saturation), 0.0, 1.0)
    q = np.clip(value * (1.0 - saturation * frac), 0.0, 1.0)
    t = np.clip(value * (1.0 - saturation * (1.0 - frac)), 0.0, 1.0)
    table = [(value, t, p), (q, value, p), (p, value, t), (p, q, value), (t, p, value),
             (value, p, q)]
    return np.stack([np.choose(sector, [row[k] for row in table]) for k in range(3)], axis=-1)


def adjust_hue(img, hue_factor):
    def hue(image):
        if image.shape[-1] == 1:
            return image
        # Integer images are converted to float32 in [0, 1] and back (truncating), as in Paddle.
        integer = not np.issubdtype(image.dtype, np.floating)
        rgb = image.astype(np.float32) / np.float32(255.0) if integer else image
        h, s, v = _rgb_to_hsv(rgb)
        h = h + np.asarray(hue_factor, rgb.dtype)
        h = h - np.floor(h)
        out = _hsv_to_rgb(h, s, v)
        return (out * np.float32(255.0)).astype(image.dtype) if integer else out.astype(image.dtype)
    return _map_images(img, "CHW", hue)


def _cubic_weight(distance):
    """grid_sample's bicubic kernel (a = -0.75)."""
    a = -0.75
    d = np.abs(distance)
    near = ((a + 2) * d - (a + 3)) * d * d + 1
    far = ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return np.where(d <= 1, near, np.where(d < 2, far, 0.0))


def _grid_sample(image, coefficients, out_size, interpolation, fill):
    """Samples an H x W x C image as Paddle's tensor path does with grid_sample
    (align_corners=False, zero padding): each output pixel centre mapped through `coefficients`
    (6 affine or 8 projective, Pillow's convention), neighbours outside the image count as 0,
    and the result blended with `fill` by the sampled coverage of the image (a nearest sample
    outside it is `fill`)."""
    out_w, out_h = out_size
    in_h, in_w, channels = image.shape
    ys, xs = np.meshgrid(np.arange(out_h) + 0.5, np.arange(out_w) + 0.5, indexing="ij")
    c = list(coefficients) + [0.0, 0.0][:8 - len(coefficients)]
    denominator = c[6] * xs + c[7] * ys + 1.0
    ix = (c[0] * xs + c[1] * ys + c[2]) / denominator - 0.5
    iy = (c[3] * xs + c[4] * ys + c[5]) / denominator - 0.5
    source = image.astype(np.float64)
    if interpolation == "nearest":
        taps = [(np.rint(ix).astype(np.int64), np.rint(iy).astype(np.int64), 1.0)]
    else:
        x0 = np.floor(ix).astype(np.int64)
        y0 = np.floor(iy).astype(np.int64)
        if interpolation == "bilinear":
            offsets = (0, 1)
            weight = (lambda d: np.maximum(1.0 - np.abs(d), 0.0))
        else:
            offsets = (-1, 0, 1, 2)
            weight = _cubic_weight
        taps = [(x0 + dx, y0 + dy, weight(ix - (x0 + dx)) * weight(iy - (y0 + dy)))
                for dy in offsets for dx in offsets]
    values = np.zeros((out_h, out_w, channels))
    coverage = np.zeros((out_h, out_w))
    for col, row, tap_weight in taps:
        inside = (col >= 0) & (col < in_w) & (row >= 0) & (row < in_h)
        tap_weight = np.where(inside, tap_weight, 0.0)
        values += tap_weight[..., None] * source[np.clip(row, 0, in_h - 1), np.clip(col, 0, in_w - 1)]
        coverage += tap_weight
    fill_values = F_np._fill_values(fill, channels, np.float64)
    coverage = coverage[..., None]
    if interpolation == "nearest":
        outside = coverage < 0.5
        return np.where(outside, fill_values, values)
    return values * coverage + (1.0 - coverage) * fill_values


def warp(img, coefficients, out_size, interpolation, fill, data_format="CHW"):
    def sample(image):
        return F_np._cast_back(_grid_sample(image, coefficients, out_size, interpolation, fill),
                               image.dtype)
    return _map_images(img, data_format, sample)


def rotation_matrix(angle, width, height, center, expand):
    """The inverse affine map (output pixel centre -> input point) and output (width, height) of
    a rotation by `angle` degrees counter-clockwise about `center`, as Paddle's tensor path
    computes them: about the image centre in centred coordinates, the expanded size from the
    rotated corners of the centred image."""
    radians = math.radians(-angle % 360)
    cos, sin = math.cos(radians), math.sin(radians)
    offset_x, offset_y = (0.0, 0.0) if center is None else (center[0] - width * 0.5,
                                                            center[1] - height * 0.5)
    # In centred coordinates: source = R (destination - offset) + offset.
    shift_x = -cos * offset_x - sin * offset_y + offset_x
    shift_y = sin * offset_x - cos * offset_y + offset_y
    out_w, out_h = width, height
    if expand:
        corners = [(-0.5 * width, -0.5 * height), (-0.5 * width, 0.5 * height),
                   (0.5 * width, 0.5 * height), (0.5 * width, -0.5 * height)]
        xs = [cos * x + sin * y + shift_x for x, y in corners]
        ys = [-sin * x + cos * y + shift_y for x, y in corners]
        out_w = int(math.ceil(max(xs)) - math.floor(min(xs)))
        out_h = int(math.ceil(max(ys)) - math.floor(min(ys)))
    # From output pixel coordinates: centre them, rotate, move to the input's centre.
    matrix = [cos, sin, 0.0, -sin, cos, 0.0]
    matrix[2] = -cos * out_w * 0.5 - sin * out_h * 0.5 + shift_x + width * 0.5
    matrix[5] = sin * out_w * 0.5 - cos * out_h * 0.5 + shift_y + height * 0.5
    return matrix, (out_w, out_h)


def normalize(img, mean, std, data_format):
    array = img.numpy()
    channel_axis = array.ndim - 3 if data_format == "CHW" else array.ndim - 1
    shape = [1] * array.ndim
    shape[channel_axis] = -1
    mean = np.asarray(mean, np.float32).reshape(shape)
    std = np.asarray(std, np.float32).reshape(shape)
    return _to_tensor(((array - mean) / std).astype(np.float32), img)


def erase(img, top, left, height, width, value, inplace):
    array = img.numpy().copy()
    if hasattr(value, "numpy"):
        value = value.numpy()
    array[..., top:top + height, left:left + width] = value
    if inplace:
        img.set_value(array)
        return img
    return _to_tensor(array, img)
