"""DatasetFolder (root/class_x/xxx.ext -> (sample, class index)) and ImageFolder (every image
under root -> [sample])."""
import os

import numpy as np

from .common import Dataset

__all__ = ["DatasetFolder", "ImageFolder", "IMG_EXTENSIONS", "default_loader", "pil_loader",
           "cv2_loader", "has_valid_extension", "make_dataset"]

IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp")


def has_valid_extension(filename, extensions):
    """Whether `filename` ends with one of `extensions` (case-insensitive)."""
    if not isinstance(extensions, (list, tuple)):
        raise TypeError(f"has_valid_extension: extensions should be a list or tuple, but received "
                        f"{type(extensions).__name__}")
    return filename.lower().endswith(tuple(x.lower() for x in extensions))


def _file_filter(extensions, is_valid_file, api):
    """The predicate deciding which files are samples: `is_valid_file` when given (then
    `extensions` must be None), otherwise the extension check (default IMG_EXTENSIONS)."""
    if is_valid_file is not None:
        if extensions is not None:
            raise ValueError(f"{api}: pass either extensions or is_valid_file, not both")
        if not callable(is_valid_file):
            raise TypeError(f"{api}: is_valid_file should be callable, but received "
                            f"{type(is_valid_file).__name__}")
        return is_valid_file, None
    extensions = IMG_EXTENSIONS if extensions is None else extensions
    if not isinstance(extensions, (list, tuple)):
        raise TypeError(f"{api}: extensions should be a list or tuple, but received "
                        f"{type(extensions).__name__}")
    return (lambda path: has_valid_extension(path, extensions)), extensions


def make_dataset(dir, class_to_idx, extensions=None, is_valid_file=None):
    """(path, class index) of every valid file under dir/<class>/, sorted."""
    is_valid, _ = _file_filter(extensions, is_valid_file, "make_dataset")
    samples = []
    dir = os.path.expanduser(dir)
    for target in sorted(class_to_idx):
        class_dir = os.path.join(dir, target)
        if not os.path.isdir(class_dir):
            continue
        for root, _, names in sorted(os.walk(class_dir, followlinks=True)):
            for name in sorted(names):
                path = os.path.join(root, name)
                if is_valid(path):
                    samples.append((path, class_to_idx[target]))
    return samples


def pil_loader(path):
    """The image at `path` as an RGB PIL image."""
    from ..image import pil_module
    with open(path, "rb") as stream:
        return pil_module("pil_loader").open(stream).convert("RGB")


def cv2_loader(path):
    """The image at `path` as an H x W x 3 uint8 RGB array (Paddle's cv2 loader converts OpenCV's
    BGR to RGB; here Pillow decodes it)."""
    return np.asarray(pil_loader(path))


def default_loader(path):
    from ..image import get_image_backend
    return cv2_loader(path) if get_image_backend() == "cv2" else pil_loader(path)


def _check_root(root, api):
    if not os.path.isdir(os.path.expanduser(root)):
        raise FileNotFoundError(f"{api}: root {root!r} is not a directory")


class DatasetFolder(Dataset):
    """Samples arranged as root/<class>/<file>: (loader(file), class index), the classes sorted
    by name. `extensions` (default: the image extensions) or `is_valid_file(path)` selects the
    files; `loader` defaults to the image backend's loader."""

    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None):
        api = type(self).__name__
        self.root = root
        self.transform = transform
        _check_root(root, api)
        _, extensions = _file_filter(extensions, is_valid_file, api)
        classes, class_to_idx = self._find_classes(os.path.expanduser(root))
        samples = make_dataset(root, class_to_idx, extensions, is_valid_file)
        if not samples:
            raise RuntimeError(f"{api}: found 0 files in the class folders of {root}"
                               + (f"; supported extensions are: {','.join(extensions)}"
                                  if extensions else ""))
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.classes = classes
        self.class_to_idx = class_to_idx
        self.samples = samples
        self.targets = [s[1] for s in samples]
        import paddle
        self.dtype = paddle.get_default_dtype()

    def _find_classes(self, dir):
        classes = sorted(entry.name for entry in os.scandir(dir) if entry.is_dir())
        return classes, {name: index for index, name in enumerate(classes)}

    def __getitem__(self, index):
        path, target = self.samples[index]
        sample = self.loader(path)
        if self.transform is not None:
            sample = self.transform(sample)
        return sample, target

    def __len__(self):
        return len(self.samples)


class ImageFolder(Dataset):
    """Every valid file under root (any depth), sorted: [loader(file)], no labels."""

    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None):
        api = type(self).__name__
        self.root = root
        _check_root(root, api)
        is_valid, extensions = _file_filter(extensions, is_valid_file, api)
        samples = []
        for directory, _, names in sorted(os.walk(os.path.expanduser(root), followlinks=True)):
            for name in sorted(names):
                path = os.path.join(directory, name)
                if is_valid(path):
                    samples.append(path)
        if not samples:
            raise RuntimeError(f"{api}: found 0 files under {root}"
                               + (f"; supported extensions are: {','.join(extensions)}"
                                  if extensions else ""))
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.samples = samples
        self.transform = transform

    def __getitem__(self, index):
        sample = self.loader(self.samples[index])
        if self.transform is not None:
            sample = self.transform(sample)
        return [sample]

    def __len__(self):
        return len(self.samples)
