"""Cifar10 and Cifar100 from the python-pickle archives (cifar-10-python.tar.gz,
cifar-100-python.tar.gz) PaddlePaddle reads.

The batches are pickles. They are unpickled with a restricted unpickler that only rebuilds NumPy
arrays and builtin containers, so an archive from elsewhere cannot run code."""
import io
import pickle
import tarfile

import numpy as np

from .common import Dataset, check_backend, check_mode, find_file

__all__ = ["Cifar10", "Cifar100"]

URL_PREFIX = "https://dataset.bj.bcebos.com/cifar/"
CIFAR10_URL = URL_PREFIX + "cifar-10-python.tar.gz"
CIFAR100_URL = URL_PREFIX + "cifar-100-python.tar.gz"
# The archive members of each split: data_batch_1..5 / test_batch, train / test.
MODE_FLAG_MAP = {"train10": "data_batch", "test10": "test_batch", "train100": "train",
                 "test100": "test"}

_ALLOWED_GLOBALS = {
    ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "scalar"),
    ("numpy.core.numeric", "_frombuffer"), ("numpy._core.numeric", "_frombuffer"),
    ("numpy", "ndarray"), ("numpy", "dtype"),
    ("builtins", "bytearray"), ("copyreg", "_reconstructor"), ("builtins", "object"),
    # Protocol 2 pickles written by Python 3 encode bytes objects through _codecs.encode.
    ("_codecs", "encode"),
}


class _ArrayUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) in _ALLOWED_GLOBALS:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"the batch refers to {module}.{name}, which a CIFAR batch "
                                     f"does not hold")


def _load_batch(payload):
    return _ArrayUnpickler(io.BytesIO(payload), encoding="bytes").load()


class Cifar10(Dataset):
    """CIFAR-10: 32 x 32 RGB images in 10 classes.

    Args:
        data_file: cifar-10-python.tar.gz; None looks in PaddlePaddle's cache (download=True) and
            never downloads.
        mode: 'train' (50000 images) or 'test' (10000).
        transform: applied to each image.
        backend: 'pil' (a PIL RGB image) or 'cv2' (an H x W x C float32 array); default
            paddle.vision.get_image_backend().

    A sample is (image, label), label a 0-d int64 array."""

    def __init__(self, data_file=None, mode="train", transform=None, download=True, backend=None):
        api = type(self).__name__
        self.mode = check_mode(mode, ("train", "test"), api)
        self.backend = check_backend(backend, api)
        self._init_url_md5_flag()
        self.data_file = find_file(data_file, self.data_url, "cifar", download, api, "data_file")
        self.transform = transform
        self._load_data()
        import paddle
        self.dtype = paddle.get_default_dtype()

    def _init_url_md5_flag(self):
        self.data_url = CIFAR10_URL
        self.flag = MODE_FLAG_MAP[self.mode + "10"]

    def _load_data(self):
        api = type(self).__name__
        self.data = []
        try:
            with tarfile.open(self.data_file, mode="r") as archive:
                names = sorted(member.name for member in archive
                               if member.isfile() and self.flag in member.name.split("/")[-1])
                if not names:
                    raise ValueError(f"{api}: {self.data_file} has no '{self.flag}' batch for mode "
                                     f"{self.mode!r}; is it the {api} python archive?")
                for name in names:
                    batch = _load_batch(archive.extractfile(name).read())
                    self._append_batch(batch, name, api)
        except (tarfile.TarError, OSError, EOFError, pickle.UnpicklingError) as error:
            raise ValueError(f"{api}: cannot read {self.data_file}: {error}") from error

    def _append_batch(self, batch, name, api):
        if not isinstance(batch, dict) or b"data" not in batch:
            raise ValueError(f"{api}: {self.data_file}: member {name} is not a CIFAR batch (no "
                             f"b'data' entry)")
        labels = batch.get(b"labels", batch.get(b"fine_labels"))
        if labels is None:
            raise ValueError(f"{api}: {self.data_file}: member {name} has no b'labels' or "
                             f"b'fine_labels' entry")
        data = np.asarray(batch[b"data"])
        if data.ndim != 2 or data.shape[1] != 3 * 32 * 32 or len(data) != len(labels):
            raise ValueError(f"{api}: {self.data_file}: member {name} holds data of shape "
                             f"{data.shape} for {len(labels)} labels, expected [N, 3072]")
        self.data.extend(zip(data, labels))

    def __getitem__(self, idx):
        image, label = self.data[idx]
        image = np.reshape(image, [3, 32, 32]).transpose([1, 2, 0])
        if self.backend == "pil":
            from ..image import pil_module
            image = pil_module(type(self).__name__).fromarray(image.astype(np.uint8))
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, np.array(label).astype(np.int64)
        return image.astype(self.dtype), np.array(label).astype(np.int64)

    def __len__(self):
        return len(self.data)


class Cifar100(Cifar10):
    """CIFAR-100: 32 x 32 RGB images in 100 classes (the fine labels), read like Cifar10 from
    cifar-100-python.tar.gz."""

    def _init_url_md5_flag(self):
        self.data_url = CIFAR100_URL
        self.flag = MODE_FLAG_MAP[self.mode + "100"]
