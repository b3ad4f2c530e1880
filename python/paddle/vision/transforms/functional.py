"""paddle.vision.transforms.functional: image transforms as functions of a PIL.Image, a
numpy.ndarray (H x W or H x W x C, Paddle's 'cv2' images) or a paddle.Tensor ([C, H, W] or
[N, C, H, W]). Each function checks its arguments, naming itself, what it expected and what it
received, then calls the implementation for the image's type (functional_pil, functional_cv2,
functional_tensor)."""
import math
import numbers

import numpy as np

from . import functional_cv2 as F_cv2
from . import functional_pil as F_pil
from . import functional_tensor as F_t

__all__ = ["to_tensor", "hflip", "vflip", "resize", "pad", "affine", "rotate", "perspective",
           "to_grayscale", "crop", "center_crop", "adjust_brightness", "adjust_contrast",
           "adjust_saturation", "adjust_hue", "normalize", "erase"]

_PIL_INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "box", "lanczos", "hamming")
_ARRAY_INTERPOLATIONS = ("nearest", "bilinear", "area", "bicubic", "lanczos")
_WARP_INTERPOLATIONS = ("nearest", "bilinear", "bicubic")
_PADDING_MODES = ("constant", "edge", "reflect", "symmetric")


def _is_pil_image(img):
    try:
        from PIL import Image
    except ImportError:
        return False
    return isinstance(img, Image.Image)


def _is_tensor_image(img):
    import paddle
    return isinstance(img, paddle.Tensor)


def _is_numpy_image(img):
    return isinstance(img, np.ndarray) and img.ndim in (2, 3)


def describe(value):
    """A short description of a received value for error messages."""
    if isinstance(value, np.ndarray):
        return f"numpy.ndarray of shape {value.shape} and dtype {value.dtype}"
    if _is_tensor_image(value):
        return f"paddle.Tensor of shape {list(value.shape)} and dtype {value.dtype}"
    if _is_pil_image(value):
        return f"PIL.Image of mode {value.mode} and size {value.size}"
    return type(value).__name__


def image_kind(img, api):
    """'pil', 'numpy' or 'tensor'; a TypeError naming `api` for anything else."""
    if _is_pil_image(img):
        kind = "pil"
    elif _is_numpy_image(img):
        if img.dtype.kind not in "biuf":
            raise TypeError(f"{api}: a numpy image should hold bool, integer or float pixels, but "
                            f"received {describe(img)}")
        kind = "numpy"
    elif _is_tensor_image(img) and len(img.shape) in (3, 4):
        kind = "tensor"
    else:
        kind = None
    if kind is not None:
        if 0 in _spatial_shape(img, kind):
            raise ValueError(f"{api}: img should not be empty, but received {describe(img)}")
        return kind
    raise TypeError(f"{api}: img should be a PIL.Image, a numpy.ndarray with 2 or 3 dims (H, W[, C]) "
                    f"or a paddle.Tensor with 3 or 4 dims ([N,] C, H, W), but received "
                    f"{describe(img)}")


def _spatial_shape(img, kind):
    if kind == "pil":
        return img.size
    if kind == "numpy":
        return img.shape
    return tuple(img.shape)


def image_size(img, api):
    """(width, height) of any supported image."""
    kind = image_kind(img, api)
    if kind == "pil":
        return img.size
    if kind == "numpy":
        return img.shape[1], img.shape[0]
    return F_t.image_size(img)


def image_channels(img, api):
    kind = image_kind(img, api)
    if kind == "pil":
        return F_pil.channels(img)
    if kind == "numpy":
        return 1 if img.ndim == 2 else img.shape[2]
    return F_t.channels(img)


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _check_interpolation(interpolation, kind, api, allowed_array=_ARRAY_INTERPOLATIONS,
                         allowed_pil=_PIL_INTERPOLATIONS):
    allowed = allowed_pil if kind == "pil" else allowed_array
    if not isinstance(interpolation, str) or interpolation not in allowed:
        raise ValueError(f"{api}: interpolation should be one of {list(allowed)} for a "
                         f"{'PIL.Image' if kind == 'pil' else kind} image, but received "
                         f"{interpolation!r}")


def _check_data_format(data_format, api):
    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"{api}: data_format should be 'CHW' or 'HWC', but received {data_format!r}")


def to_tensor(pic, data_format="CHW"):
    """A paddle.Tensor of the image in `data_format`; uint8 pixels become float32 in [0, 1]."""
    import paddle
    kind = image_kind(pic, "to_tensor")
    _check_data_format(data_format, "to_tensor")
    if kind == "tensor":
        return pic if data_format == "CHW" else pic.transpose((1, 2, 0))
    array = F_pil.to_array(pic) if kind == "pil" else (pic[:, :, None] if pic.ndim == 2 else pic)
    if array.dtype == np.uint8:
        array = array.astype(np.float32) / np.float32(255.0)
    if data_format == "CHW":
        array = array.transpose(2, 0, 1)
    return paddle.to_tensor(np.ascontiguousarray(array))


def _output_size(size, width, height, api):
    """(height, width) from an int (the new shorter side, the ratio kept) or an (h, w) pair."""
    if _is_int(size):
        if size <= 0:
            raise ValueError(f"{api}: size should be positive, but received {size}")
        if (width <= height and width == size) or (height <= width and height == size):
            return None
        if width < height:
            return int(size * height / width), size
        return size, int(size * width / height)
    if isinstance(size, (list, tuple)) and len(size) == 2 and all(_is_int(s) for s in size):
        if min(size) <= 0:
            raise ValueError(f"{api}: size should be positive, but received {size}")
        return int(size[0]), int(size[1])
    raise TypeError(f"{api}: size should be an int or a sequence of 2 ints (h, w), but received "
                    f"{size!r}")


def resize(img, size, interpolation="bilinear"):
    """Resizes to size = (h, w), or the shorter side to `size` keeping the aspect ratio."""
    kind = image_kind(img, "resize")
    _check_interpolation(interpolation, kind, "resize")
    width, height = image_size(img, "resize")
    out_size = _output_size(size, width, height, "resize")
    if out_size is None:
        return img
    if kind == "pil":
        return F_pil.resize(img, out_size, interpolation)
    if kind == "numpy":
        return F_cv2.resize(img, out_size, interpolation)
    return F_t.resize(img, out_size, interpolation)


def _padding_sides(padding, api):
    """(left, top, right, bottom) from an int, (left/right, top/bottom) or a 4-sequence."""
    if _is_int(padding):
        sides = (padding,) * 4
    elif isinstance(padding, (list, tuple)) and len(padding) in (2, 4) \
            and all(_is_int(p) for p in padding):
        sides = tuple(padding) * 2 if len(padding) == 2 else tuple(padding)
    elif isinstance(padding, (list, tuple)):
        raise ValueError(f"{api}: padding should be an int or a sequence of 2 or 4 ints, but "
                         f"received {padding!r}")
    else:
        raise TypeError(f"{api}: padding should be an int or a sequence of 2 or 4 ints, but "
                        f"received {type(padding).__name__}")
    if min(sides) < 0:
        raise ValueError(f"{api}: padding should not be negative, but received {padding!r}")
    return tuple(int(s) for s in sides)


def _check_fill(fill, api):
    if not isinstance(fill, (numbers.Number, str, list, tuple)):
        raise TypeError(f"{api}: fill should be a number or a sequence of numbers, but received "
                        f"{type(fill).__name__}")
    values = fill if isinstance(fill, (list, tuple)) else [fill]
    if any(isinstance(v, numbers.Real) and not math.isfinite(v) for v in values):
        raise ValueError(f"{api}: fill should be finite, but received {fill!r}")


def pad(img, padding, fill=0, padding_mode="constant"):
    """Pads the borders: padding is an int (all sides), (left/right, top/bottom) or
    (left, top, right, bottom); padding_mode is 'constant' (with `fill`), 'edge', 'reflect'
    (without repeating the edge pixel) or 'symmetric' (repeating it)."""
    kind = image_kind(img, "pad")
    left, top, right, bottom = _padding_sides(padding, "pad")
    _check_fill(fill, "pad")
    if padding_mode not in _PADDING_MODES:
        raise ValueError(f"pad: padding_mode should be one of {list(_PADDING_MODES)}, but received "
                         f"{padding_mode!r}")
    if padding_mode == "reflect":
        width, height = image_size(img, "pad")
        if max(left, right) >= width or max(top, bottom) >= height:
            raise ValueError(f"pad: 'reflect' padding must be smaller than the image (width "
                             f"{width}, height {height}), but received {padding!r}")
    if kind == "pil":
        return F_pil.pad(img, left, top, right, bottom, fill, padding_mode)
    if kind == "numpy":
        return F_cv2.pad(img, left, top, right, bottom, fill, padding_mode)
    return F_t.pad(img, left, top, right, bottom, fill, padding_mode)


def crop(img, top, left, height, width):
    """The region of `height` x `width` pixels whose top-left corner is (top, left). A PIL image
    fills the part outside with 0 as Pillow does; an array or a tensor must contain it."""
    kind = image_kind(img, "crop")
    for name, value in (("top", top), ("left", left), ("height", height), ("width", width)):
        if not _is_int(value):
            raise TypeError(f"crop: {name} should be an int, but received {type(value).__name__}")
    if height <= 0 or width <= 0:
        raise ValueError(f"crop: height and width should be positive, but received "
                         f"height={height}, width={width}")
    if kind == "pil":
        return F_pil.crop(img, top, left, height, width)
    image_w, image_h = image_size(img, "crop")
    if top < 0 or left < 0 or top + height > image_h or left + width > image_w:
        raise ValueError(f"crop: the region top={top}, left={left}, height={height}, width={width} "
                         f"should lie inside the image of height {image_h} and width {image_w}")
    if kind == "numpy":
        return img[top:top + height, left:left + width, ...]
    return F_t.crop(img, top, left, height, width)


def _crop_size(output_size, api):
    if _is_int(output_size):
        return int(output_size), int(output_size)
    if isinstance(output_size, (list, tuple)) and len(output_size) == 2 \
            and all(_is_int(s) for s in output_size):
        return int(output_size[0]), int(output_size[1])
    raise TypeError(f"{api}: size should be an int or a sequence of 2 ints (h, w), but received "
                    f"{output_size!r}")


def center_crop(img, output_size):
    """The central output_size = (h, w) (or int) region."""
    image_kind(img, "center_crop")
    crop_h, crop_w = _crop_size(output_size, "center_crop")
    width, height = image_size(img, "center_crop")
    top = int(round((height - crop_h) / 2.0))
    left = int(round((width - crop_w) / 2.0))
    return crop(img, top, left, crop_h, crop_w)


def hflip(img):
    """Flips left to right."""
    kind = image_kind(img, "hflip")
    return {"pil": F_pil.hflip, "numpy": F_cv2.hflip, "tensor": F_t.hflip}[kind](img)


def vflip(img):
    """Flips top to bottom."""
    kind = image_kind(img, "vflip")
    return {"pil": F_pil.vflip, "numpy": F_cv2.vflip, "tensor": F_t.vflip}[kind](img)


def _check_factor(factor, name, api):
    if not isinstance(factor, numbers.Number) or isinstance(factor, bool):
        raise TypeError(f"{api}: {name} should be a number, but received {type(factor).__name__}")
    if not factor >= 0 or not math.isfinite(factor):
        raise ValueError(f"{api}: {name} should be a finite non-negative number, but received "
                         f"{factor}")


def adjust_brightness(img, brightness_factor):
    """Scales the brightness: 0 gives black, 1 the image, 2 twice as bright."""
    kind = image_kind(img, "adjust_brightness")
    _check_factor(brightness_factor, "brightness_factor", "adjust_brightness")
    if kind == "pil":
        return F_pil.adjust_brightness(img, brightness_factor)
    if kind == "numpy":
        return F_cv2.adjust_brightness(img, brightness_factor)
    return F_t.adjust_brightness(img, brightness_factor)


def adjust_contrast(img, contrast_factor):
    """Scales the contrast: 0 gives a solid gray image, 1 the image."""
    kind = image_kind(img, "adjust_contrast")
    _check_factor(contrast_factor, "contrast_factor", "adjust_contrast")
    if kind == "pil":
        return F_pil.adjust_contrast(img, contrast_factor)
    if kind == "numpy":
        return F_cv2.adjust_contrast(img, contrast_factor)
    return F_t.adjust_contrast(img, contrast_factor)


def adjust_saturation(img, saturation_factor):
    """Scales the saturation: 0 gives the grayscale image, 1 the image."""
    kind = image_kind(img, "adjust_saturation")
    _check_factor(saturation_factor, "saturation_factor", "adjust_saturation")
    if kind == "pil":
        return F_pil.adjust_saturation(img, saturation_factor)
    if kind == "numpy":
        return F_cv2.adjust_saturation(img, saturation_factor)
    return F_t.adjust_saturation(img, saturation_factor)


def adjust_hue(img, hue_factor):
    """Rotates the hue by hue_factor turns, hue_factor in [-0.5, 0.5]."""
    kind = image_kind(img, "adjust_hue")
    if not isinstance(hue_factor, numbers.Number) or isinstance(hue_factor, bool):
        raise TypeError(f"adjust_hue: hue_factor should be a number, but received "
                        f"{type(hue_factor).__name__}")
    if not -0.5 <= hue_factor <= 0.5:  # also refuses NaN
        raise ValueError(f"adjust_hue: hue_factor should be in [-0.5, 0.5], but received {hue_factor}")
    if kind == "pil":
        return F_pil.adjust_hue(img, hue_factor)
    if kind == "numpy":
        return F_cv2.adjust_hue(img, hue_factor)
    return F_t.adjust_hue(img, hue_factor)


def _inverse_affine_matrix(center, angle, translate, scale, shear):
    """The 2 x 3 map from output to input pixel coordinates of the affine transform that rotates
    by `angle` degrees (counter-clockwise on screen) and shears by shear = (x, y) degrees about
    `center`, scales by `scale` and then translates by `translate`."""
    rotation = math.radians(angle)
    shear_x, shear_y = math.radians(shear[0]), math.radians(shear[1])
    # Forward linear part [[a, b], [c, d]] = rotation @ shear (determinant 1).
    a = math.cos(rotation - shear_y) / math.cos(shear_y)
    b = -math.cos(rotation - shear_y) * math.tan(shear_x) / math.cos(shear_y) - math.sin(rotation)
    c = math.sin(rotation - shear_y) / math.cos(shear_y)
    d = -math.sin(rotation - shear_y) * math.tan(shear_x) / math.cos(shear_y) + math.cos(rotation)
    inverse = [d / scale, -b / scale, 0.0, -c / scale, a / scale, 0.0]
    cx, cy = center
    tx, ty = translate
    inverse[2] = inverse[0] * (-cx - tx) + inverse[1] * (-cy - ty) + cx
    inverse[5] = inverse[3] * (-cx - tx) + inverse[4] * (-cy - ty) + cy
    return inverse


def _check_angle(angle, api):
    if not isinstance(angle, numbers.Number) or isinstance(angle, bool):
        raise TypeError(f"{api}: angle should be a number, but received {type(angle).__name__}")
    if not math.isfinite(angle):
        raise ValueError(f"{api}: angle should be finite, but received {angle}")


def _fill_arg(fill, api):
    _check_fill(fill, api)
    return tuple(fill) if isinstance(fill, list) else fill


def affine(img, angle, translate, scale, shear, interpolation="nearest", fill=0, center=None):
    """Rotates by `angle` degrees, translates by translate = (dx, dy) pixels, scales by `scale`
    and shears by `shear` degrees (a number for x, or (x, y)) about `center` (default: the image
    centre), keeping the image size."""
    kind = image_kind(img, "affine")
    _check_angle(angle, "affine")
    if not isinstance(translate, (list, tuple)) or len(translate) != 2:
        raise TypeError(f"affine: translate should be a sequence of 2 numbers, but received "
                        f"{translate!r}")
    if not isinstance(scale, numbers.Number) or not scale > 0 or not math.isfinite(scale):
        raise ValueError(f"affine: scale should be a finite positive number, but received "
                         f"{scale!r}")
    if isinstance(shear, numbers.Number):
        shear = [shear, 0.0]
    elif isinstance(shear, (list, tuple)) and len(shear) in (1, 2):
        shear = [shear[0], shear[0]] if len(shear) == 1 else list(shear)
    else:
        raise TypeError(f"affine: shear should be a number or a sequence of 1 or 2 numbers, but "
                        f"received {shear!r}")
    if not all(isinstance(v, numbers.Real) and math.isfinite(v) for v in list(translate) + shear):
        raise ValueError(f"affine: translate and shear should be finite numbers, but received "
                         f"{translate!r} and {shear!r}")
    if center is not None and (not isinstance(center, (list, tuple)) or len(center) != 2):
        raise TypeError(f"affine: center should be None or a sequence of 2 numbers, but received "
                        f"{center!r}")
    _check_interpolation(interpolation, kind, "affine", _WARP_INTERPOLATIONS, _WARP_INTERPOLATIONS)
    fill = _fill_arg(fill, "affine")
    width, height = image_size(img, "affine")
    if center is None:
        center = (width * 0.5, height * 0.5)
    matrix = _inverse_affine_matrix(center, float(angle), [float(t) for t in translate],
                                    float(scale), shear)
    if kind == "pil":
        return F_pil.affine(img, matrix, interpolation, fill)
    if kind == "numpy":
        return F_cv2.warp(img, matrix, (width, height), interpolation, fill)
    return F_t.warp(img, matrix, (width, height), interpolation, fill)


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    """Rotates by `angle` degrees counter-clockwise about `center` (default: the image centre);
    expand=True enlarges the output to hold the whole rotated image."""
    kind = image_kind(img, "rotate")
    _check_angle(angle, "rotate")
    _check_interpolation(interpolation, kind, "rotate", _WARP_INTERPOLATIONS, _WARP_INTERPOLATIONS)
    if center is not None and (not isinstance(center, (list, tuple)) or len(center) != 2):
        raise TypeError(f"rotate: center should be None or a sequence of 2 numbers, but received "
                        f"{center!r}")
    center = tuple(center) if center is not None else None
    fill = _fill_arg(fill, "rotate")
    if kind == "pil":
        return F_pil.rotate(img, angle, interpolation, expand, center, fill)
    if kind == "numpy":
        return F_cv2.rotate(img, angle, interpolation, expand, center, fill)
    width, height = image_size(img, "rotate")
    matrix, out_size = F_t.rotation_matrix(angle, width, height, center, expand)
    return F_t.warp(img, matrix, out_size, interpolation, fill)


def _perspective_coefficients(startpoints, endpoints):
    """The 8 coefficients of the projective map from each end point to its start point."""
    rows = []
    targets = []
    for (x, y), (u, v) in zip(endpoints, startpoints):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        targets += [u, v]
    solution = np.linalg.lstsq(np.array(rows, np.float64), np.array(targets, np.float64),
                               rcond=None)[0]
    return solution.tolist()


def _check_points(points, name):
    array = np.asarray(points, dtype=object)
    if array.shape != (4, 2) or not all(isinstance(v, numbers.Number) for v in array.ravel()):
        raise ValueError(f"perspective: {name} should be 4 points [x, y] (top-left, top-right, "
                         f"bottom-right, bottom-left), but received {points!r}")


def perspective(img, startpoints, endpoints, interpolation="nearest", fill=0):
    """Warps the four `startpoints` onto the four `endpoints`, keeping the image size."""
    kind = image_kind(img, "perspective")
    _check_points(startpoints, "startpoints")
    _check_points(endpoints, "endpoints")
    _check_interpolation(interpolation, kind, "perspective", _WARP_INTERPOLATIONS,
                         _WARP_INTERPOLATIONS)
    fill = _fill_arg(fill, "perspective")
    coefficients = _perspective_coefficients(startpoints, endpoints)
    if kind == "pil":
        return F_pil.perspective(img, coefficients, interpolation, fill)
    size = image_size(img, "perspective")
    if kind == "numpy":
        return F_cv2.warp(img, coefficients, size, interpolation, fill)
    return F_t.warp(img, coefficients, size, interpolation, fill)


def to_grayscale(img, num_output_channels=1):
    """The luma of an RGB image, with 1 or 3 (identical) channels."""
    kind = image_kind(img, "to_grayscale")
    if num_output_channels not in (1, 3):
        raise ValueError(f"to_grayscale: num_output_channels should be 1 or 3, but received "
                         f"{num_output_channels!r}")
    if kind == "pil":
        return F_pil.to_grayscale(img, num_output_channels)
    channels = image_channels(img, "to_grayscale")
    if channels not in (1, 3, 4):
        raise ValueError(f"to_grayscale: the image should have 1, 3 or 4 channels, but received "
                         f"{describe(img)}")
    if kind == "numpy":
        return F_cv2.to_grayscale(img, num_output_channels)
    if channels == 1:
        return F_t.to_grayscale(img.tile([3, 1, 1]) if len(img.shape) == 3 else
                                img.tile([1, 3, 1, 1]), num_output_channels)
    return F_t.to_grayscale(img[..., :3, :, :], num_output_channels)


def _per_channel(values, channels, name, api):
    """`values` as a list of one value per channel; a constant list of another length (such as
    Normalize's default [m, m, m]) is shortened or widened to the channel count."""
    values = [float(v) for v in (values if isinstance(values, (list, tuple, np.ndarray))
                                 else [values])]
    if len(values) == channels:
        return values
    if len(set(values)) == 1:
        return values[:1] * channels
    raise ValueError(f"{api}: {name} should have one value per channel ({channels}), but received "
                     f"{len(values)} values {values}")


def normalize(img, mean, std, data_format="CHW", to_rgb=False):
    """(img - mean) / std per channel. A PIL image or an array gives a float32 numpy array, a
    tensor a float32 tensor; to_rgb=True reverses the channel order first (BGR to RGB)."""
    kind = image_kind(img, "normalize")
    _check_data_format(data_format, "normalize")
    if kind == "pil":
        img = np.asarray(img).astype(np.float32)
        kind = "numpy"
    if kind == "numpy" and img.ndim == 2:
        img = img[:, :, None] if data_format == "HWC" else img[None]
    shape = list(img.shape)
    channels = shape[-3] if data_format == "CHW" else shape[-1]
    mean = _per_channel(mean, channels, "mean", "normalize")
    std = _per_channel(std, channels, "std", "normalize")
    if any(s == 0 for s in std):
        raise ValueError(f"normalize: std should not contain 0, but received {std}")
    if kind == "tensor":
        if to_rgb:
            import paddle
            img = paddle.flip(img, axis=[-3 if data_format == "CHW" else -1])
        return F_t.normalize(img, mean, std, data_format)
    return F_cv2.normalize(img, mean, std, data_format, to_rgb)


def erase(img, i, j, h, w, v, inplace=False):
    """Sets the h x w region at row i, column j to `v` (a value, per-channel values or an array
    of the region's shape)."""
    kind = image_kind(img, "erase")
    for name, value in (("i", i), ("j", j), ("h", h), ("w", w)):
        if not _is_int(value):
            raise TypeError(f"erase: {name} should be an int, but received {type(value).__name__}")
    if kind != "tensor":
        two_dims = kind == "numpy" and img.ndim == 2 or kind == "pil" and F_pil.channels(img) == 1
        if two_dims and isinstance(v, np.ndarray) and v.ndim == 3:
            v = v[..., 0]  # per-channel values of a single-channel image without its channel axis
    try:
        if kind == "pil":
            return F_pil.erase(img, i, j, h, w, v)
        if kind == "numpy":
            return F_cv2.erase(img, i, j, h, w, v, inplace)
        return F_t.erase(img, i, j, h, w, v, inplace)
    except OverflowError as error:
        raise ValueError(f"erase: the value does not fit the image's pixels ({error})") from None
