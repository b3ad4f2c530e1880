"""paddle.vision: the vision ops (paddle.vision.ops), models (paddle.vision.models), image
transforms (paddle.vision.transforms), datasets (paddle.vision.datasets) and the image backend."""
from . import ops  # noqa: F401
from . import transforms  # noqa: F401
from . import datasets  # noqa: F401
from .models import *  # noqa: F401,F403  (paddle.vision.resnet18 etc., as in PaddlePaddle)
from .datasets import (Cifar10, Cifar100, DatasetFolder, FashionMNIST, Flowers, ImageFolder,  # noqa: F401
                       MNIST, VOC2012)
from .image import get_image_backend, image_load, set_image_backend  # noqa: F401
from .transforms import (BaseTransform, BrightnessTransform, CenterCrop, ColorJitter, Compose,  # noqa: F401
                         ContrastTransform, Grayscale, HueTransform, Normalize, Pad, RandomCrop,
                         RandomHorizontalFlip, RandomResizedCrop, RandomRotation,
                         RandomVerticalFlip, Resize, SaturationTransform, ToTensor, Transpose,
                         adjust_brightness, adjust_contrast, adjust_hue, center_crop, crop, hflip,
                         normalize, pad, resize, rotate, to_grayscale, to_tensor, vflip)
