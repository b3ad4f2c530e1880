"""The PIL.Image implementations behind paddle.vision.transforms.functional. They get an image
already checked to be a PIL.Image and arguments already validated by functional.py; each keeps
Paddle's semantics (PIL's resampling filters, ImageOps/ImageEnhance for padding and colour)."""
import numbers

import numpy as np

from ..image import pil_module

__all__ = []


def _image_module():
    return pil_module("paddle.vision.transforms")


def _resample(interpolation):
    resampling = _image_module().Resampling
    return {"nearest": resampling.NEAREST, "bilinear": resampling.BILINEAR,
            "bicubic": resampling.BICUBIC, "box": resampling.BOX,
            "lanczos": resampling.LANCZOS, "hamming": resampling.HAMMING}[interpolation]


def channels(img):
    """The number of channels of a PIL image (YCbCr is 3, the 16-bit 'I;16' modes 1)."""
    if img.mode == "YCbCr":
        return 3
    if img.mode.startswith("I;16"):
        return 1
    return len(img.getbands())


def to_array(img):
    """The pixels as a numpy array, 'I;16' widened to int32 and '1' as 0/255 uint8 as Paddle's
    to_tensor reads them, with the channel axis always present (H, W, C)."""
    if img.mode in ("I", "I;16") or img.mode.startswith("I;16"):
        array = np.asarray(img, np.int32)
    elif img.mode == "F":
        array = np.asarray(img, np.float32)
    elif img.mode == "1":
        array = np.asarray(img, np.uint8) * np.uint8(255)
    else:
        array = np.asarray(img)
    return array.reshape(img.size[1], img.size[0], channels(img))


def resize(img, size, interpolation):
    return img.resize((size[1], size[0]), _resample(interpolation))


def pad(img, left, top, right, bottom, fill, padding_mode):
    if padding_mode == "constant":
        from PIL import ImageOps
        if isinstance(fill, list):
            fill = tuple(fill)
        padded = ImageOps.expand(img, border=(left, top, right, bottom), fill=fill)
        if img.mode == "P":
            padded.putpalette(img.getpalette())
        return padded
    numpy_mode = {"edge": "edge", "reflect": "reflect", "symmetric": "symmetric"}[padding_mode]
    array = np.asarray(img)
    widths = ((top, bottom), (left, right)) + (((0, 0),) if array.ndim == 3 else ())
    padded = _image_module().fromarray(np.pad(array, widths, numpy_mode))
    if img.mode == "P":
        padded.putpalette(img.getpalette())
    return padded


def crop(img, top, left, height, width):
    return img.crop((left, top, left + width, top + height))


def hflip(img):
    return img.transpose(_image_module().Transpose.FLIP_LEFT_RIGHT)


def vflip(img):
    return img.transpose(_image_module().Transpose.FLIP_TOP_BOTTOM)


def adjust_brightness(img, factor):
    from PIL import ImageEnhance
    return ImageEnhance.Brightness(img).enhance(factor)


def adjust_contrast(img, factor):
    from PIL import ImageEnhance
    return ImageEnhance.Contrast(img).enhance(factor)


def adjust_saturation(img, factor):
    from PIL import ImageEnhance
    return ImageEnhance.Color(img).enhance(factor)


def adjust_hue(img, hue_factor):
    if img.mode in ("L", "1", "I", "F"):
        return img
    image_module = _image_module()
    hue, saturation, value = img.convert("HSV").split()
    shifted = (np.asarray(hue, np.int16) + int(hue_factor * 255)) % 256
    hue = image_module.fromarray(shifted.astype(np.uint8))
    return image_module.merge("HSV", (hue, saturation, value)).convert(img.mode)


def _fill_color(fill):
    if isinstance(fill, numbers.Number):
        return tuple([fill] * 3)
    return tuple(fill)


def _fill_for(img, fill):
    """PIL wants a fill with as many values as the image has bands."""
    color = _fill_color(fill)
    bands = len(img.getbands())
    if bands == 1:
        return color[0]
    return color[:bands] if len(color) >= bands else color + (0,) * (bands - len(color))


def affine(img, inverse_matrix, interpolation, fill):
    return img.transform(img.size, _image_module().Transform.AFFINE, inverse_matrix,
                         _resample(interpolation), fillcolor=_fill_for(img, fill))


def rotate(img, angle, interpolation, expand, center, fill):
    return img.rotate(angle, _resample(interpolation), expand, center, fillcolor=_fill_for(img, fill))


def perspective(img, coefficients, interpolation, fill):
    return img.transform(img.size, _image_module().Transform.PERSPECTIVE, coefficients,
                         _resample(interpolation), fillcolor=_fill_for(img, fill))


def to_grayscale(img, num_output_channels):
    gray = img.convert("L")
    if num_output_channels == 1:
        return gray
    plane = np.asarray(gray, np.uint8)
    return _image_module().fromarray(np.dstack([plane, plane, plane]))


def erase(img, top, left, height, width, value):
    array = np.array(img, dtype=np.uint8)
    array[top:top + height, left:left + width, ...] = value
    return _image_module().fromarray(array)
