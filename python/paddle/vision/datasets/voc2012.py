"""VOC2012: the PASCAL VOC 2012 segmentation images and class masks, read straight from
VOCtrainval_11-May-2012.tar as PaddlePaddle does."""
import io
import os
import tarfile

import numpy as np

from .common import Dataset, check_backend, check_mode, find_file

__all__ = ["VOC2012"]

VOC_URL = "https://dataset.bj.bcebos.com/voc/VOCtrainval_11-May-2012.tar"
SET_FILE = "VOCdevkit/VOC2012/ImageSets/Segmentation/{}.txt"
DATA_FILE = "VOCdevkit/VOC2012/JPEGImages/{}.jpg"
LABEL_FILE = "VOCdevkit/VOC2012/SegmentationClass/{}.png"
CACHE_DIR = "voc2012"
# Paddle trains on 'trainval', tests on 'train' and validates on 'val'.
MODE_FLAG_MAP = {"train": "trainval", "test": "train", "valid": "val"}


class VOC2012(Dataset):
    """PASCAL VOC 2012 segmentation.

    Args:
        data_file: VOCtrainval_11-May-2012.tar; None looks in PaddlePaddle's cache
            (download=True) and never downloads.
        mode: 'train', 'valid' or 'test'.
        transform: applied to each image (not to the mask).
        backend: 'pil' (PIL images) or 'cv2' (arrays cast to the default float dtype); default
            paddle.vision.get_image_backend().

    A sample is (image, mask). The archive is opened once per process, so DataLoader workers
    do not share a file position."""

    def __init__(self, data_file=None, mode="train", transform=None, download=True, backend=None):
        api = type(self).__name__
        self.mode = check_mode(mode, tuple(MODE_FLAG_MAP), api)
        self.backend = check_backend(backend, api)
        self.flag = MODE_FLAG_MAP[self.mode]
        self.data_file = find_file(data_file, VOC_URL, CACHE_DIR, download, api, "data_file")
        self.transform = transform
        self._tar = None
        self._tar_pid = None
        self._load_anno()
        import paddle
        self.dtype = paddle.get_default_dtype()

    def _archive(self):
        if self._tar is None or self._tar_pid != os.getpid():
            self._tar = tarfile.open(self.data_file)
            self._tar_pid = os.getpid()
        return self._tar

    def _read(self, name):
        member = self.name2mem.get(name)
        if member is None:
            raise ValueError(f"{type(self).__name__}: {self.data_file} has no member {name}")
        return self._archive().extractfile(member).read()

    def _load_anno(self):
        api = type(self).__name__
        try:
            self.name2mem = {member.name: member for member in self._archive().getmembers()}
            names = self._read(SET_FILE.format(self.flag)).decode("utf-8").split()
        except (tarfile.TarError, OSError, EOFError, UnicodeDecodeError) as error:
            raise ValueError(f"{api}: cannot read {self.data_file}: {error}") from error
        self.data = [DATA_FILE.format(name) for name in names]
        self.labels = [LABEL_FILE.format(name) for name in names]

    def __getitem__(self, idx):
        from ..image import pil_module
        image_module = pil_module(type(self).__name__)
        data = image_module.open(io.BytesIO(self._read(self.data[idx])))
        label = image_module.open(io.BytesIO(self._read(self.labels[idx])))
        if self.backend == "cv2":
            data = np.array(data)
            label = np.array(label)
        if self.transform is not None:
            data = self.transform(data)
        if self.backend == "cv2":
            return data.astype(self.dtype), label.astype(self.dtype)
        return data, label

    def __len__(self):
        return len(self.data)

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_tar"] = None
        state["_tar_pid"] = None
        return state

    def __del__(self):
        if getattr(self, "_tar", None) is not None:
            self._tar.close()
