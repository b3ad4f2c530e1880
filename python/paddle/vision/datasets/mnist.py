"""MNIST and FashionMNIST from the idx files (gzip-compressed) PaddlePaddle reads."""
import gzip
import os
import struct
import zlib

import numpy as np

from .common import Dataset, check_backend, check_mode, find_file

__all__ = ["MNIST", "FashionMNIST"]

_IMAGE_MAGIC = 2051
_LABEL_MAGIC = 2049


def _read_exactly(stream, count, path, api, what):
    data = stream.read(count)
    if len(data) != count:
        raise ValueError(f"{api}: {path} is truncated: {what} needs {count} bytes, the file holds "
                         f"{len(data)}")
    return data


def _read_idx_file(path, api, reader, *args):
    """reader(stream, path, api, *args) on the gzip-compressed file, a damaged file reported as
    a ValueError naming it."""
    try:
        with gzip.open(path, "rb") as stream:
            return reader(stream, path, api, *args)
    except (OSError, EOFError, zlib.error) as error:
        raise ValueError(f"{api}: cannot read {path}: {error}") from error


def _read_labels(stream, path, api):
    magic, count = struct.unpack(">II", _read_exactly(stream, 8, path, api, "the header"))
    if magic != _LABEL_MAGIC:
        raise ValueError(f"{api}: {path} is not an idx1 label file (magic number {magic}, "
                         f"expected {_LABEL_MAGIC})")
    return np.frombuffer(_read_exactly(stream, count, path, api, f"{count} labels"), np.uint8)


def _read_images(stream, path, api, label_count, buffer_size):
    magic, count, rows, cols = struct.unpack(">IIII", _read_exactly(stream, 16, path, api,
                                                                    "the header"))
    if magic != _IMAGE_MAGIC:
        raise ValueError(f"{api}: {path} is not an idx3 image file (magic number {magic}, "
                         f"expected {_IMAGE_MAGIC})")
    if count != label_count:
        raise ValueError(f"{api}: {path} holds {count} images but the label file holds "
                         f"{label_count} labels")
    # DEFLATE expands at most 1032:1; a header claiming more than the file can hold is corrupt
    # (and must not make us allocate it).
    claimed = count * rows * cols
    if claimed > 1032 * os.path.getsize(path) + 1024:
        raise ValueError(f"{api}: {path} is corrupt: its header claims {count} images of "
                         f"{rows}x{cols}, more than a {os.path.getsize(path)}-byte gzip file holds")
    images = np.empty((count, rows, cols), np.uint8)
    for start in range(0, count, buffer_size):
        stop = min(start + buffer_size, count)
        chunk = _read_exactly(stream, (stop - start) * rows * cols, path, api,
                              f"{count} images of {rows}x{cols}")
        images[start:stop] = np.frombuffer(chunk, np.uint8).reshape(-1, rows, cols)
    return images


class MNIST(Dataset):
    """The MNIST handwritten digits: 28 x 28 grayscale images and their labels (0-9).

    Args:
        image_path, label_path: the idx3 image and idx1 label files (.gz); None looks in
            PaddlePaddle's cache (download=True) and never downloads.
        mode: 'train' or 'test'.
        transform: applied to each image.
        backend: 'pil' (a PIL 'L' image) or 'cv2' (a float32 H x W array); default
            paddle.vision.get_image_backend().

    A sample is (image, label), label an int64 array of shape [1]."""

    NAME = "mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/mnist/"
    TEST_IMAGE_URL = URL_PREFIX + "t10k-images-idx3-ubyte.gz"
    TEST_LABEL_URL = URL_PREFIX + "t10k-labels-idx1-ubyte.gz"
    TRAIN_IMAGE_URL = URL_PREFIX + "train-images-idx3-ubyte.gz"
    TRAIN_LABEL_URL = URL_PREFIX + "train-labels-idx1-ubyte.gz"
    # Directories searched before Paddle's cache when no path is given.
    SYSTEM_DIRS = ()

    def __init__(self, image_path=None, label_path=None, mode="train", transform=None,
                 download=True, backend=None):
        api = type(self).__name__
        self.mode = check_mode(mode, ("train", "test"), api)
        self.backend = check_backend(backend, api)
        image_url = self.TRAIN_IMAGE_URL if self.mode == "train" else self.TEST_IMAGE_URL
        label_url = self.TRAIN_LABEL_URL if self.mode == "train" else self.TEST_LABEL_URL
        self.image_path = find_file(image_path, image_url, self.NAME, download, api, "image_path",
                                    self._system_candidates(image_url))
        self.label_path = find_file(label_path, label_url, self.NAME, download, api, "label_path",
                                    self._system_candidates(label_url))
        self.transform = transform
        self._parse_dataset()
        import paddle
        self.dtype = paddle.get_default_dtype()

    def _system_candidates(self, url):
        return [os.path.join(directory, url.split("/")[-1]) for directory in self.SYSTEM_DIRS]

    def _parse_dataset(self, buffer_size=100):
        """Reads the labels, then the images `buffer_size` at a time into one uint8 array."""
        api = type(self).__name__
        labels = _read_idx_file(self.label_path, api, _read_labels)
        images = _read_idx_file(self.image_path, api, _read_images, len(labels), buffer_size)
        self.images = images
        self.labels = labels.astype(np.int64).reshape(-1, 1)

    def __getitem__(self, idx):
        image = self.images[idx]
        label = self.labels[idx]
        if self.backend == "pil":
            from ..image import pil_module
            image = pil_module(type(self).__name__).fromarray(image)
        else:
            image = image.astype(np.float32)
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label.astype(np.int64)
        return image.astype(self.dtype), label.astype(np.int64)

    def __len__(self):
        return len(self.labels)


class FashionMNIST(MNIST):
    """Fashion-MNIST (Zalando's 28 x 28 clothing images, labels 0-9), read like MNIST. With no
    path given, Debian's dataset-fashion-mnist package (/usr/share/datasets/fashion-mnist) is
    used when installed, before PaddlePaddle's cache."""

    NAME = "fashion-mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/fashion_mnist/"
    TEST_IMAGE_URL = URL_PREFIX + "t10k-images-idx3-ubyte.gz"
    TEST_LABEL_URL = URL_PREFIX + "t10k-labels-idx1-ubyte.gz"
    TRAIN_IMAGE_URL = URL_PREFIX + "train-images-idx3-ubyte.gz"
    TRAIN_LABEL_URL = URL_PREFIX + "train-labels-idx1-ubyte.gz"
    SYSTEM_DIRS = ("/usr/share/datasets/fashion-mnist",)
