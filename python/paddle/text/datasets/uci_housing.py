"""paddle.text.UCIHousing: the Boston house price regression data, from housing.data."""
import numpy as np

from ...base.framework import get_default_dtype
from ...io import Dataset
from ._files import check_mode, find_file, reading

__all__ = []

URL = "http://paddlemodels.bj.bcebos.com/uci_housing/housing.data"

feature_names = ["CRIM", "ZN", "INDUS", "CHAS", "NOX", "RM", "AGE", "DIS", "RAD", "TAX",
                 "PTRATIO", "B", "LSTAT"]

# 13 features and the price per house; the first 80% of the houses are the train split.
_COLUMNS = len(feature_names) + 1
_TRAIN_RATIO = 0.8


class UCIHousing(Dataset):
    """Houses of housing.data (whitespace-separated numbers, 14 per house).

    Args:
        data_file: housing.data; None looks in PaddlePaddle's cache (download=True) and never
            downloads.
        mode: 'train' (the first 80% of the houses) or 'test'.

    Each feature is centred on its mean over all houses and divided by its range. An item is
    (features [13], price [1]) in paddle.get_default_dtype()."""

    def __init__(self, data_file=None, mode="train", download=True):
        api = "UCIHousing"
        self.mode = check_mode(mode, ("train", "test"), api)
        self.data_file = find_file(data_file, URL, "uci_housing", download, api, "data_file")
        with reading(self.data_file, api, "housing.data"):
            with open(self.data_file, "rb") as f:
                fields = f.read().split()
        try:
            values = np.array([float(field) for field in fields], dtype=np.float64)
        except ValueError as error:
            raise ValueError(f"{api}: {self.data_file} holds something other than numbers: "
                             f"{error}") from error
        if values.size == 0 or values.size % _COLUMNS:
            raise ValueError(f"{api}: {self.data_file} holds {values.size} numbers, not "
                             f"{_COLUMNS} per house")
        data = values.reshape(-1, _COLUMNS)
        features = data[:, :-1]
        span = features.max(axis=0) - features.min(axis=0)
        data[:, :-1] = (features - features.sum(axis=0) / len(data)) / span
        split = int(len(data) * _TRAIN_RATIO)
        self.data = data[:split] if self.mode == "train" else data[split:]
        self.dtype = get_default_dtype()

    def __getitem__(self, idx):
        house = self.data[idx]
        return np.array(house[:-1]).astype(self.dtype), np.array(house[-1:]).astype(self.dtype)

    def __len__(self):
        return len(self.data)
