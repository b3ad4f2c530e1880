"""paddle.vision.transforms' transform classes. Each is a callable built with Paddle's
constructor arguments; BaseTransform applies it to the inputs named by `keys` ('image' by
default). The random transforms draw from Python's `random` module (and `numpy.random` where
Paddle does: RandomResizedCrop's scale and ratio, RandomErasing's region), in Paddle's order, so
random.seed/np.random.seed reproduce Paddle's choices."""
import math
import numbers
import random
from collections.abc import Sequence

import numpy as np

from . import functional as F

__all__ = ["BaseTransform", "Compose", "Resize", "RandomResizedCrop", "CenterCrop",
           "RandomHorizontalFlip", "RandomVerticalFlip", "Transpose", "Normalize",
           "BrightnessTransform", "SaturationTransform", "ContrastTransform", "HueTransform",
           "ColorJitter", "RandomCrop", "Pad", "RandomAffine", "RandomRotation",
           "RandomPerspective", "Grayscale", "ToTensor", "RandomErasing"]


def _get_image_size(img, api):
    return F.image_size(img, api)


class Compose:
    """Applies `transforms` one after another."""

    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, data):
        for transform in self.transforms:
            data = transform(data)
        return data

    def __repr__(self):
        lines = "".join(f"\n    {t}" for t in self.transforms)
        return f"{type(self).__name__}({lines}\n)"


class BaseTransform:
    """The base of the transforms: `keys` names what each positional input is ('image',
    'coords', 'boxes', 'mask'); called with a tuple, the i-th input is transformed by
    `_apply_<keys[i]>` and inputs beyond `keys` pass through. `_get_params` runs once per call
    (before the inputs), so random choices are shared between the image and its labels."""

    def __init__(self, keys=None):
        if keys is None:
            keys = ("image",)
        elif not isinstance(keys, Sequence) or isinstance(keys, str):
            raise ValueError(f"{type(self).__name__}: keys should be a sequence of names, but "
                             f"received {keys!r}")
        for key in keys:
            if self._get_apply(key) is None:
                raise NotImplementedError(f"{type(self).__name__}: {key!r} is an unsupported "
                                          f"input key")
        self.keys = keys
        self.params = None

    def _get_params(self, inputs):
        return None

    def __call__(self, inputs):
        if not isinstance(inputs, tuple):
            inputs = (inputs,)
        self.params = self._get_params(inputs)
        outputs = []
        for key, value in zip(self.keys, inputs):
            if key == "image":
                F.image_kind(value, type(self).__name__)
            outputs.append(self._get_apply(key)(value))
        outputs.extend(inputs[len(self.keys):])
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def _get_apply(self, key):
        return getattr(self, f"_apply_{key}", None)

    def _apply_image(self, image):
        raise NotImplementedError

    def _apply_boxes(self, boxes):
        raise NotImplementedError

    def _apply_mask(self, mask):
        raise NotImplementedError

    def _apply_coords(self, coords):
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}()"


class ToTensor(BaseTransform):
    """A PIL image or an H x W x C array to a paddle.Tensor (C x H x W for data_format='CHW');
    uint8 pixels become float32 in [0, 1]."""

    def __init__(self, data_format="CHW", keys=None):
        super().__init__(keys)
        F._check_data_format(data_format, "ToTensor")
        self.data_format = data_format

    def _apply_image(self, img):
        return F.to_tensor(img, self.data_format)


def _check_size(size, api):
    if F._is_int(size):
        if size <= 0:
            raise ValueError(f"{api}: size should be positive, but received {size}")
        return
    if isinstance(size, Sequence) and len(size) == 2 and all(F._is_int(s) and s > 0 for s in size):
        return
    raise TypeError(f"{api}: size should be a positive int or a sequence of 2 positive ints "
                    f"(h, w), but received {size!r}")


class Resize(BaseTransform):
    """Resizes to size = (h, w), or the shorter side to an int `size` keeping the ratio."""

    def __init__(self, size, interpolation="bilinear", keys=None):
        super().__init__(keys)
        _check_size(size, "Resize")
        self.size = size
        self.interpolation = interpolation

    def _apply_image(self, img):
        return F.resize(img, self.size, self.interpolation)


class RandomResizedCrop(BaseTransform):
    """Crops a random region of `scale` times the area and an aspect ratio in `ratio`, then
    resizes it to `size`."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4, 4.0 / 3), interpolation="bilinear",
                 keys=None):
        super().__init__(keys)
        _check_size(size, "RandomResizedCrop")
        self.size = (size, size) if F._is_int(size) else size
        if scale[0] > scale[1]:
            raise ValueError(f"RandomResizedCrop: scale should be (min, max), but received {scale}")
        if ratio[0] > ratio[1]:
            raise ValueError(f"RandomResizedCrop: ratio should be (min, max), but received {ratio}")
        self.scale = scale
        self.ratio = ratio
        self.interpolation = interpolation

    def _dynamic_get_param(self, image, attempts=10):
        width, height = _get_image_size(image, type(self).__name__)
        area = height * width
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(attempts):
            target_area = np.random.uniform(*self.scale) * area
            aspect_ratio = math.exp(np.random.uniform(*log_ratio))
            w = int(round(math.sqrt(target_area * aspect_ratio)))
            h = int(round(math.sqrt(target_area / aspect_ratio)))
            if 0 < w <= width and 0 < h <= height:
                return random.randint(0, height - h), random.randint(0, width - w), h, w
        # No attempt fitted: the largest centred crop with the ratio clamped to `ratio`.
        in_ratio = float(width) / float(height)
        if in_ratio < min(self.ratio):
            w = width
            h = int(round(w / min(self.ratio)))
        elif in_ratio > max(self.ratio):
            h = height
            w = int(round(h * max(self.ratio)))
        else:
            w, h = width, height
        return (height - h) // 2, (width - w) // 2, h, w

    def _apply_image(self, img):
        top, left, h, w = self._dynamic_get_param(img)
        return F.resize(F.crop(img, top, left, h, w), self.size, self.interpolation)


class CenterCrop(BaseTransform):
    """Crops the centre region of size (h, w) (or int)."""

    def __init__(self, size, keys=None):
        super().__init__(keys)
        _check_size(size, "CenterCrop")
        self.size = (int(size), int(size)) if F._is_int(size) else size

    def _apply_image(self, img):
        width, height = _get_image_size(img, "CenterCrop")
        if not F._is_pil_image(img) and (self.size[0] > height or self.size[1] > width):
            raise ValueError(f"CenterCrop: the crop size {tuple(self.size)} (h, w) should not exceed "
                             f"the image size ({height}, {width}), received {F.describe(img)}")
        return F.center_crop(img, self.size)


def _check_prob(prob, api):
    if not isinstance(prob, numbers.Number) or not 0 <= prob <= 1:
        raise ValueError(f"{api}: prob should be a probability in [0, 1], but received {prob!r}")


class RandomHorizontalFlip(BaseTransform):
    """Flips left to right with probability `prob`."""

    def __init__(self, prob=0.5, keys=None):
        super().__init__(keys)
        _check_prob(prob, "RandomHorizontalFlip")
        self.prob = prob

    def _apply_image(self, img):
        return F.hflip(img) if random.random() < self.prob else img


class RandomVerticalFlip(BaseTransform):
    """Flips top to bottom with probability `prob`."""

    def __init__(self, prob=0.5, keys=None):
        super().__init__(keys)
        _check_prob(prob, "RandomVerticalFlip")
        self.prob = prob

    def _apply_image(self, img):
        return F.vflip(img) if random.random() < self.prob else img


class Normalize(BaseTransform):
    """(img - mean) / std per channel; a number means the same value for every channel."""

    def __init__(self, mean=0.0, std=1.0, data_format="CHW", to_rgb=False, keys=None):
        super().__init__(keys)
        if isinstance(mean, numbers.Number):
            mean = [mean, mean, mean]
        if isinstance(std, numbers.Number):
            std = [std, std, std]
        F._check_data_format(data_format, "Normalize")
        self.mean = mean
        self.std = std
        self.data_format = data_format
        self.to_rgb = to_rgb

    def _apply_image(self, img):
        try:
            return F.normalize(img, self.mean, self.std, self.data_format, self.to_rgb)
        except ValueError as error:
            raise ValueError(f"Normalize: {error} (image: {F.describe(img)}, data_format "
                             f"{self.data_format!r})") from None


class Transpose(BaseTransform):
    """Permutes the axes of an array or tensor (a PIL image becomes an H x W x C array first);
    the default (2, 0, 1) turns HWC into CHW."""

    def __init__(self, order=(2, 0, 1), keys=None):
        super().__init__(keys)
        self.order = order

    def _apply_image(self, img):
        if F._is_pil_image(img):
            img = np.asarray(img)
        if not F._is_tensor_image(img) and img.ndim == 2:
            img = img[..., np.newaxis]
        if sorted(self.order) != list(range(len(img.shape))):
            raise ValueError(f"Transpose: order should be a permutation of the {len(img.shape)} "
                             f"axes, but received {tuple(self.order)}")
        if F._is_tensor_image(img):
            return img.transpose(list(self.order))
        return img.transpose(self.order)


def _factor_range(value, name, api, center=1, bound=(0, float("inf")), clip_first_on_zero=True):
    """[low, high] from a number v (center -/+ v) or a (low, high) pair; None when the range is
    just `center` (the transform does nothing)."""
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"{api}: {name} should be non-negative when it is a number, but "
                             f"received {value}")
        value = [center - value, center + value]
        if clip_first_on_zero:
            value[0] = max(value[0], 0)
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        if not bound[0] <= value[0] <= value[1] <= bound[1]:
            raise ValueError(f"{api}: {name} should be (low, high) within {bound}, but received "
                             f"{value}")
    else:
        raise TypeError(f"{api}: {name} should be a number or a sequence of 2 numbers, but "
                        f"received {value!r}")
    if value[0] == value[1] == center:
        return None
    return value


class BrightnessTransform(BaseTransform):
    """Adjusts the brightness by a factor drawn from [max(0, 1 - value), 1 + value]."""

    def __init__(self, value, keys=None):
        super().__init__(keys)
        self.value = _factor_range(value, "value", "BrightnessTransform")

    def _apply_image(self, img):
        if self.value is None:
            return img
        return F.adjust_brightness(img, random.uniform(self.value[0], self.value[1]))


class ContrastTransform(BaseTransform):
    """Adjusts the contrast by a factor drawn from [max(0, 1 - value), 1 + value]."""

    def __init__(self, value, keys=None):
        super().__init__(keys)
        self.value = _factor_range(value, "value", "ContrastTransform")

    def _apply_image(self, img):
        if self.value is None:
            return img
        return F.adjust_contrast(img, random.uniform(self.value[0], self.value[1]))


class SaturationTransform(BaseTransform):
    """Adjusts the saturation by a factor drawn from [max(0, 1 - value), 1 + value]."""

    def __init__(self, value, keys=None):
        super().__init__(keys)
        self.value = _factor_range(value, "value", "SaturationTransform")

    def _apply_image(self, img):
        if self.value is None:
            return img
        return F.adjust_saturation(img, random.uniform(self.value[0], self.value[1]))


class HueTransform(BaseTransform):
    """Rotates the hue by a factor drawn from [-value, value], value in [0, 0.5]."""

    def __init__(self, value, keys=None):
        super().__init__(keys)
        self.value = _factor_range(value, "value", "HueTransform", center=0, bound=(-0.5, 0.5),
                                   clip_first_on_zero=False)
        if self.value is not None and not -0.5 <= self.value[0] <= self.value[1] <= 0.5:
            raise ValueError(f"HueTransform: value should be in [0, 0.5], but received {value}")

    def _apply_image(self, img):
        if self.value is None:
            return img
        return F.adjust_hue(img, random.uniform(self.value[0], self.value[1]))


class ColorJitter(BaseTransform):
    """Brightness, contrast, saturation and hue transforms applied in a random order."""

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0, keys=None):
        super().__init__(keys)
        # Built once to validate the arguments where the mistake is made.
        self._transforms(brightness, contrast, saturation, hue)
        self.brightness = brightness
        self.contrast = contrast
        self.saturation = saturation
        self.hue = hue

    def _transforms(self, brightness, contrast, saturation, hue):
        transforms = []
        for value, transform in ((brightness, BrightnessTransform), (contrast, ContrastTransform),
                                 (saturation, SaturationTransform), (hue, HueTransform)):
            if value is not None:
                transforms.append(transform(value, self.keys))
        return transforms

    def _apply_image(self, img):
        transforms = self._transforms(self.brightness, self.contrast, self.saturation, self.hue)
        random.shuffle(transforms)
        return Compose(transforms)(img)


class RandomCrop(BaseTransform):
    """Crops a random region of size (h, w), after optional `padding`; pad_if_needed pads an
    image smaller than the crop (with `fill` / `padding_mode`) instead of failing."""

    def __init__(self, size, padding=None, pad_if_needed=False, fill=0, padding_mode="constant",
                 keys=None):
        super().__init__(keys)
        _check_size(size, "RandomCrop")
        self.size = (int(size), int(size)) if F._is_int(size) else size
        self.padding = padding
        self.pad_if_needed = pad_if_needed
        self.fill = fill
        self.padding_mode = padding_mode

    def _get_param(self, img, output_size):
        width, height = _get_image_size(img, "RandomCrop")
        crop_h, crop_w = output_size
        if width == crop_w and height == crop_h:
            return 0, 0, height, width
        if crop_h > height or crop_w > width:
            raise ValueError(f"RandomCrop: the crop size {tuple(output_size)} (h, w) exceeds the "
                             f"image size ({height}, {width}) after padding; pass "
                             f"pad_if_needed=True or a larger padding")
        return random.randint(0, height - crop_h), random.randint(0, width - crop_w), crop_h, crop_w

    def _apply_image(self, img):
        if self.padding is not None:
            img = F.pad(img, self.padding, self.fill, self.padding_mode)
        width, height = _get_image_size(img, "RandomCrop")
        if self.pad_if_needed and width < self.size[1]:
            img = F.pad(img, (self.size[1] - width, 0), self.fill, self.padding_mode)
        if self.pad_if_needed and height < self.size[0]:
            img = F.pad(img, (0, self.size[0] - height), self.fill, self.padding_mode)
        top, left, h, w = self._get_param(img, self.size)
        return F.crop(img, top, left, h, w)


class Pad(BaseTransform):
    """Pads the borders (see functional.pad)."""

    def __init__(self, padding, fill=0, padding_mode="constant", keys=None):
        F._padding_sides(padding, "Pad")
        F._check_fill(fill, "Pad")
        if padding_mode not in F._PADDING_MODES:
            raise ValueError(f"Pad: padding_mode should be one of {list(F._PADDING_MODES)}, but "
                             f"received {padding_mode!r}")
        super().__init__(keys)
        self.padding = tuple(padding) if isinstance(padding, list) else padding
        self.fill = tuple(fill) if isinstance(fill, list) else fill
        self.padding_mode = padding_mode

    def _apply_image(self, img):
        return F.pad(img, self.padding, self.fill, self.padding_mode)


def _check_sequence(value, name, lengths, api):
    if not isinstance(value, Sequence):
        raise TypeError(f"{api}: {name} should be a sequence of length "
                        f"{' or '.join(map(str, lengths))}, but received {value!r}")
    if len(value) not in lengths:
        raise ValueError(f"{api}: {name} should be a sequence of length "
                         f"{' or '.join(map(str, lengths))}, but received {value!r}")


def _angle_range(value, name, lengths, api):
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"{api}: {name} should be non-negative when it is a number, but "
                             f"received {value}")
        value = [-value, value]
    else:
        _check_sequence(value, name, lengths, api)
    return [float(v) for v in value]


class RandomAffine(BaseTransform):
    """A random affine transform: angle from `degrees`, translation up to translate = (fx, fy)
    of the size, scale from `scale`, shear from `shear` (x range, or x and y ranges)."""

    def __init__(self, degrees, translate=None, scale=None, shear=None, interpolation="nearest",
                 fill=0, center=None, keys=None):
        self.degrees = _angle_range(degrees, "degrees", (2,), "RandomAffine")
        super().__init__(keys)
        if interpolation not in F._WARP_INTERPOLATIONS:
            raise ValueError(f"RandomAffine: interpolation should be one of "
                             f"{list(F._WARP_INTERPOLATIONS)}, but received {interpolation!r}")
        self.interpolation = interpolation
        if translate is not None:
            _check_sequence(translate, "translate", (2,), "RandomAffine")
            if not all(0.0 <= t <= 1.0 for t in translate):
                raise ValueError(f"RandomAffine: translate values should be in [0, 1], but "
                                 f"received {translate}")
        self.translate = translate
        if scale is not None:
            _check_sequence(scale, "scale", (2,), "RandomAffine")
            if not all(s > 0 for s in scale):
                raise ValueError(f"RandomAffine: scale values should be positive, but received "
                                 f"{scale}")
        self.scale = scale
        self.shear = None if shear is None else _angle_range(shear, "shear", (2, 4), "RandomAffine")
        if fill is None:
            fill = 0
        elif not isinstance(fill, (Sequence, numbers.Number)):
            raise TypeError(f"RandomAffine: fill should be a number or a sequence, but received "
                            f"{type(fill).__name__}")
        self.fill = fill
        if center is not None:
            _check_sequence(center, "center", (2,), "RandomAffine")
        self.center = center

    def _get_param(self, img_size, degrees, translate=None, scale_ranges=None, shears=None):
        angle = random.uniform(degrees[0], degrees[1])
        if translate is not None:
            max_dx = float(translate[0] * img_size[0])
            max_dy = float(translate[1] * img_size[1])
            translations = (int(random.uniform(-max_dx, max_dx)), int(random.uniform(-max_dy, max_dy)))
        else:
            translations = (0, 0)
        scale = random.uniform(scale_ranges[0], scale_ranges[1]) if scale_ranges is not None else 1.0
        shear_x = shear_y = 0.0
        if shears is not None:
            shear_x = random.uniform(shears[0], shears[1])
            if len(shears) == 4:
                shear_y = random.uniform(shears[2], shears[3])
        return angle, translations, scale, (shear_x, shear_y)

    def _apply_image(self, img):
        width, height = _get_image_size(img, "RandomAffine")
        params = self._get_param([width, height], self.degrees, self.translate, self.scale,
                                 self.shear)
        return F.affine(img, *params, interpolation=self.interpolation, fill=self.fill,
                        center=self.center)


class RandomRotation(BaseTransform):
    """Rotates by an angle drawn from `degrees` ((-d, d) for a number d)."""

    def __init__(self, degrees, interpolation="nearest", expand=False, center=None, fill=0,
                 keys=None):
        if isinstance(degrees, numbers.Number):
            if degrees < 0:
                raise ValueError(f"RandomRotation: degrees should be non-negative when it is a "
                                 f"number, but received {degrees}")
            self.degrees = (-degrees, degrees)
        else:
            if not isinstance(degrees, Sequence) or len(degrees) != 2:
                raise ValueError(f"RandomRotation: degrees should be a number or a sequence of "
                                 f"2 numbers, but received {degrees!r}")
            self.degrees = degrees
        super().__init__(keys)
        self.interpolation = interpolation
        self.expand = expand
        self.center = center
        self.fill = fill

    def _get_param(self, degrees):
        return random.uniform(degrees[0], degrees[1])

    def _apply_image(self, img):
        angle = self._get_param(self.degrees)
        return F.rotate(img, angle, self.interpolation, self.expand, self.center, self.fill)


class RandomPerspective(BaseTransform):
    """With probability `prob`, moves each corner inwards by up to distortion_scale of half the
    size and warps the image accordingly."""

    def __init__(self, prob=0.5, distortion_scale=0.5, interpolation="nearest", fill=0, keys=None):
        super().__init__(keys)
        _check_prob(prob, "RandomPerspective")
        if not isinstance(distortion_scale, numbers.Number) or not 0 <= distortion_scale <= 1:
            raise ValueError(f"RandomPerspective: distortion_scale should be in [0, 1], but "
                             f"received {distortion_scale!r}")
        if interpolation not in F._WARP_INTERPOLATIONS:
            raise ValueError(f"RandomPerspective: interpolation should be one of "
                             f"{list(F._WARP_INTERPOLATIONS)}, but received {interpolation!r}")
        F._check_fill(fill, "RandomPerspective")
        self.prob = prob
        self.distortion_scale = distortion_scale
        self.interpolation = interpolation
        self.fill = fill

    def get_params(self, width, height, distortion_scale):
        """The start points (the corners) and random end points, each [top-left, top-right,
        bottom-right, bottom-left]."""
        half_w = int(distortion_scale * (width // 2))
        half_h = int(distortion_scale * (height // 2))
        top_left = [int(random.uniform(0, half_w + 1)), int(random.uniform(0, half_h + 1))]
        top_right = [int(random.uniform(width - half_w - 1, width)),
                     int(random.uniform(0, half_h + 1))]
        bottom_right = [int(random.uniform(width - half_w - 1, width)),
                        int(random.uniform(height - half_h - 1, height))]
        bottom_left = [int(random.uniform(0, half_w + 1)),
                       int(random.uniform(height - half_h - 1, height))]
        start = [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]]
        return start, [top_left, top_right, bottom_right, bottom_left]

    def _apply_image(self, img):
        width, height = _get_image_size(img, "RandomPerspective")
        if random.random() < self.prob:
            start, end = self.get_params(width, height, self.distortion_scale)
            return F.perspective(img, start, end, self.interpolation, self.fill)
        return img


class Grayscale(BaseTransform):
    """Converts to grayscale with 1 or 3 channels."""

    def __init__(self, num_output_channels=1, keys=None):
        super().__init__(keys)
        if num_output_channels not in (1, 3):
            raise ValueError(f"Grayscale: num_output_channels should be 1 or 3, but received "
                             f"{num_output_channels!r}")
        self.num_output_channels = num_output_channels

    def _apply_image(self, img):
        return F.to_grayscale(img, self.num_output_channels)


class RandomErasing(BaseTransform):
    """With probability `prob`, sets a random region (area fraction in `scale`, aspect ratio in
    `ratio`) to `value`: a number, per-channel values or 'random' (normal noise)."""

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False,
                 keys=None):
        super().__init__(keys)
        if not isinstance(scale, (tuple, list)) or not (0 <= scale[0] <= scale[1] <= 1):
            raise ValueError(f"RandomErasing: scale should be (min, max) within [0, 1], but "
                             f"received {scale!r}")
        if not isinstance(ratio, (tuple, list)) or not (0 <= ratio[0] <= ratio[1]):
            raise ValueError(f"RandomErasing: ratio should be (min, max) with 0 <= min, but "
                             f"received {ratio!r}")
        _check_prob(prob, "RandomErasing")
        if not isinstance(value, (numbers.Number, str, tuple, list)):
            raise TypeError(f"RandomErasing: value should be a number, a sequence or 'random', but "
                            f"received {type(value).__name__}")
        if isinstance(value, str) and value != "random":
            raise ValueError(f"RandomErasing: a string value should be 'random', but received "
                             f"{value!r}")
        numbers_given = [value] if isinstance(value, numbers.Number) else \
            (list(value) if isinstance(value, (tuple, list)) else [])
        if not all(isinstance(v, numbers.Real) and math.isfinite(v) for v in numbers_given):
            raise ValueError(f"RandomErasing: value should hold finite numbers, but received "
                             f"{value!r}")
        if isinstance(value, (tuple, list)) and len(value) not in (1, 3):
            raise ValueError(f"RandomErasing: value should be a number or a sequence of 1 or 3 "
                             f"values (one per channel), but received {value!r}")
        self.prob = prob
        self.scale = scale
        self.ratio = ratio
        self.value = value
        self.inplace = inplace

    def _dynamic_get_param(self, img, scale, ratio, value):
        if F._is_tensor_image(img):
            c, h, w = img.shape[-3], img.shape[-2], img.shape[-1]
        else:
            shape = np.asarray(img).shape
            if len(shape) == 2:
                shape = shape + (1,)
            h, w, c = shape[-3], shape[-2], shape[-1]
        img_area = h * w
        log_ratio = np.log(ratio)
        for _ in range(10):
            erase_area = np.random.uniform(*scale) * img_area
            aspect_ratio = np.exp(np.random.uniform(*log_ratio))
            erase_h = int(round(np.sqrt(erase_area * aspect_ratio)))
            erase_w = int(round(np.sqrt(erase_area / aspect_ratio)))
            if erase_h >= h or erase_w >= w:
                continue
            if F._is_tensor_image(img):
                if value is None:
                    v = np.random.normal(size=[c, erase_h, erase_w]).astype(img.numpy().dtype)
                else:
                    v = np.asarray(value, img.numpy().dtype)[:, None, None]
            elif value is None:
                v = np.random.normal(size=[erase_h, erase_w, c]) * 255
            else:
                v = np.array(value)[None, None, :]
            top = np.random.randint(0, h - erase_h + 1)
            left = np.random.randint(0, w - erase_w + 1)
            return int(top), int(left), erase_h, erase_w, v
        return 0, 0, h, w, img

    def _apply_image(self, img):
        if random.random() >= self.prob:
            return img
        if isinstance(self.value, numbers.Number):
            value = [self.value]
        elif isinstance(self.value, str):
            value = None
        else:
            value = self.value
        top, left, erase_h, erase_w, v = self._dynamic_get_param(img, self.scale, self.ratio, value)
        if v is img:
            return img
        return F.erase(img, top, left, erase_h, erase_w, v, self.inplace)
