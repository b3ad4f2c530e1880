"""paddle.vision's image backend: which decoder `image_load` and the datasets use ('pil', 'cv2'
or 'tensor'), as PaddlePaddle names them.

OpenCV is not a dependency of this project. Where Paddle calls cv2.imread, the 'cv2' backend
decodes with Pillow and returns what cv2.imread returns: an HxWx3 uint8 array in BGR order
(cv2.IMREAD_COLOR), so code written for Paddle's cv2 backend sees the same arrays."""
import os

import numpy as np

__all__ = ["set_image_backend", "get_image_backend", "image_load"]

_BACKENDS = ("pil", "cv2", "tensor")
_image_backend = "pil"


def _check_backend(backend, api):
    if backend not in _BACKENDS:
        raise ValueError(f"{api}(): backend must be one of {list(_BACKENDS)}, received {backend!r}")


def set_image_backend(backend):
    """Sets the backend that image_load and the datasets decode images with."""
    global _image_backend
    _check_backend(backend, "set_image_backend")
    _image_backend = backend


def get_image_backend():
    """The name of the image backend ('pil' unless set_image_backend changed it)."""
    return _image_backend


def pil_module(api):
    """PIL.Image, or an ImportError naming the API that needs it (Pillow is optional)."""
    try:
        from PIL import Image
    except ImportError as error:
        raise ImportError(f"{api} needs Pillow to decode images (pip install Pillow)") from error
    return Image


def _decode_rgb_array(path, api):
    """The image at `path` as an HxWx3 uint8 RGB array."""
    image_module = pil_module(api)
    with open(path, "rb") as stream:
        return np.asarray(image_module.open(stream).convert("RGB"))


def image_load(path, backend=None):
    """Loads an image: a PIL.Image ('pil'), an HxWx3 uint8 BGR array like cv2.imread ('cv2') or an
    uint8 paddle Tensor of shape [3, H, W] in RGB order ('tensor')."""
    if backend is None:
        backend = _image_backend
    _check_backend(backend, "image_load")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"image_load(): no image file at {path!r}")
    if backend == "pil":
        return pil_module("image_load").open(path)
    rgb = _decode_rgb_array(path, "image_load")
    if backend == "cv2":
        return np.ascontiguousarray(rgb[:, :, ::-1])
    import paddle
    return paddle.to_tensor(np.ascontiguousarray(rgb.transpose(2, 0, 1)))
