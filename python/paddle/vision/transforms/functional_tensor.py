"""The paddle.Tensor implementations behind paddle.vision.transforms.functional, for images of
shape [C, H, W] or [N, C, H, W] ('CHW', the default) or [H, W, C] / [N, H, W, C] ('HWC').

Transforms are data preparation, not part of a differentiated graph, so each function reads the
tensor's values, computes with the NumPy implementations in functional_cv2 (the same geometry as
paddle.nn.functional.interpolate with align_corners=False for resize) and returns a new tensor of
the input's dtype. The colour functions follow Paddle's tensor path: blending with a black,
mean-gray or grayscale image (clipped to 1.0 for float and 255 for integer images) and a float
HSV hue rotation; the gray weights are (0.2989, 0.587, 0.114) applied in float, also to integer
images (Paddle casts the weights to the image's dtype, which zeroes them for uint8)."""
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
    return img.flip(axis=[-1 if data_format == "CHW" else -2])


def vflip(img, data_format="CHW"):
    return img.flip(axis=[-2 if data_format == "CHW" else -3])


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
        integer = not np.issubdtype(image.dtype, np.floating)
        rgb = image.astype(np.float64) / 255.0 if integer else image.astype(np.float64)
        h, s, v = _rgb_to_hsv(rgb)
        h = h + hue_factor
        h = h - np.floor(h)
        out = _hsv_to_rgb(h, s, v)
        return (out * 255.0).astype(image.dtype) if integer else out.astype(image.dtype)
    return _map_images(img, "CHW", hue)


def warp(img, coefficients, out_size, interpolation, fill, data_format="CHW"):
    return _map_images(img, data_format,
                       lambda a: F_np.warp(a, coefficients, out_size, interpolation, fill))


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
