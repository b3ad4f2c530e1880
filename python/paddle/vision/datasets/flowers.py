"""Flowers: the Oxford 102 Category Flower dataset as PaddlePaddle reads it (102flowers.tgz, the
labels in imagelabels.mat and the splits in setid.mat). The .mat files are read by the reader in
matfile.py instead of scipy (see there)."""
import os
import tarfile

import numpy as np

from .common import Dataset, check_backend, check_mode, find_file
from .matfile import loadmat

__all__ = ["Flowers"]

DATA_URL = "http://paddlemodels.bj.bcebos.com/flowers/102flowers.tgz"
LABEL_URL = "http://paddlemodels.bj.bcebos.com/flowers/imagelabels.mat"
SETID_URL = "http://paddlemodels.bj.bcebos.com/flowers/setid.mat"
# Paddle trains on the larger 'tstid' split and tests on 'trnid'.
MODE_FLAG_MAP = {"train": "tstid", "test": "trnid", "valid": "valid"}


def _mat_variable(path, name, api):
    try:
        variables = loadmat(path)
    except OSError as error:
        raise ValueError(f"{api}: cannot read {path}: {error}") from error
    except ValueError as error:
        raise ValueError(f"{api}: {error}") from error
    if name not in variables:
        raise ValueError(f"{api}: {path} has no variable {name!r} (it holds "
                         f"{sorted(variables)})")
    return variables[name]


class Flowers(Dataset):
    """102 flower categories, the images extracted next to the archive (102flowers/jpg/).

    Args:
        data_file, label_file, setid_file: 102flowers.tgz, imagelabels.mat and setid.mat; None
            looks in PaddlePaddle's cache (download=True) and never downloads.
        mode: 'train', 'valid' or 'test'.
        transform: applied to each image.
        backend: 'pil' (a PIL image) or 'cv2' (an H x W x C float32 array); default
            paddle.vision.get_image_backend().

    A sample is (image, label), label an int64 array of shape [1] (1 to 102)."""

    def __init__(self, data_file=None, label_file=None, setid_file=None, mode="train",
                 transform=None, download=True, backend=None):
        api = type(self).__name__
        self.mode = check_mode(mode, tuple(MODE_FLAG_MAP), api)
        self.backend = check_backend(backend, api)
        flag = MODE_FLAG_MAP[self.mode]
        data_file = find_file(data_file, DATA_URL, "flowers", download, api, "data_file")
        label_file = find_file(label_file, LABEL_URL, "flowers", download, api, "label_file")
        setid_file = find_file(setid_file, SETID_URL, "flowers", download, api, "setid_file")
        self.transform = transform
        self.data_path = os.path.splitext(data_file)[0] + "/"
        if not os.path.isdir(os.path.join(self.data_path, "jpg")):
            self._extract(data_file, api)
        self.labels = np.asarray(_mat_variable(label_file, "labels", api)).reshape(-1)
        self.indexes = np.asarray(_mat_variable(setid_file, flag, api)).reshape(-1).astype(np.int64)
        if self.indexes.size and (self.indexes.min() < 1 or self.indexes.max() > self.labels.size):
            raise ValueError(f"{api}: {setid_file} '{flag}' refers to images outside 1.."
                             f"{self.labels.size}, the labels of {label_file}")

    def _extract(self, data_file, api):
        try:
            with tarfile.open(data_file) as archive:
                os.makedirs(self.data_path, exist_ok=True)
                if hasattr(tarfile, "data_filter"):
                    archive.extractall(self.data_path, filter="data")
                else:
                    archive.extractall(self.data_path)
        except (tarfile.TarError, EOFError) as error:
            raise ValueError(f"{api}: cannot read {data_file}: {error}") from error
        except OSError as error:
            raise OSError(f"{api}: cannot extract {data_file} into {self.data_path}: {error}") \
                from error

    def __getitem__(self, idx):
        index = int(self.indexes[idx])
        label = np.array([self.labels[index - 1]])
        path = os.path.join(self.data_path, f"jpg/image_{index:05}.jpg")
        if not os.path.isfile(path):
            raise FileNotFoundError(f"{type(self).__name__}: image {path} is missing from the "
                                    f"extracted archive")
        from ..image import pil_module
        image = pil_module(type(self).__name__).open(path)
        if self.backend == "cv2":
            image = np.array(image)
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label.astype(np.int64)
        import paddle
        return image.astype(paddle.get_default_dtype()), label.astype(np.int64)

    def __len__(self):
        return len(self.indexes)
