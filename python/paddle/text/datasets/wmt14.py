"""paddle.text.WMT14: the English-French sentence pairs of Paddle's wmt14.tgz (a subset of
WMT'14 with its dictionaries)."""
import tarfile

import numpy as np

from ...io import Dataset
from ._files import check_mode, find_file, reading

__all__ = []

URL_TRAIN = "http://paddlemodels.bj.bcebos.com/wmt/wmt14.tgz"

START = "<s>"
END = "<e>"
UNK = "<unk>"
UNK_IDX = 2
# Pairs with a longer source (marks included) or target are left out.
_LONGEST = 80


def _dictionary(archive, suffix, size, path):
    names = [m.name for m in archive if m.name.endswith(suffix)]
    if len(names) != 1:
        raise ValueError(f"WMT14: {path} must hold one member ending with '{suffix}', it has "
                         f"{len(names)}")
    words = {}
    for i, line in enumerate(archive.extractfile(names[0])):
        if i >= size:
            break
        words[line.strip().decode()] = i
    return words


class WMT14(Dataset):
    """Sentence pairs as word ids.

    Args:
        data_file: wmt14.tgz (members ending with src.dict and trg.dict, and <mode>/<mode>
            files of tab-separated source and target sentences); None looks in PaddlePaddle's
            cache (download=True) and never downloads.
        mode: 'train', 'test' or 'gen'.
        dict_size: the dictionaries are the first dict_size words of src.dict and trg.dict
            (which start with '<s>', '<e>', '<unk>').

    An item is (source ids ['<s>' ... '<e>'], target ids ['<s>' ...], next target ids
    [... '<e>']), int64; words outside the dictionary are UNK_IDX."""

    def __init__(self, data_file=None, mode="train", dict_size=-1, download=True):
        api = "WMT14"
        self.mode = check_mode(mode, ("train", "test", "gen"), api)
        self.data_file = find_file(data_file, URL_TRAIN, "wmt14", download, api, "data_file")
        if isinstance(dict_size, bool) or not isinstance(dict_size, int) or dict_size <= 0:
            raise ValueError(f"{api}: dict_size should be a positive int, received {dict_size!r}")
        self.dict_size = dict_size
        with reading(self.data_file, api, "the wmt14 tgz archive"):
            with tarfile.open(self.data_file, mode="r") as archive:
                self._load_data(archive)

    def _load_data(self, archive):
        self.src_dict = _dictionary(archive, "src.dict", self.dict_size, self.data_file)
        self.trg_dict = _dictionary(archive, "trg.dict", self.dict_size, self.data_file)
        for mark in (START, END):
            if mark not in self.trg_dict:
                raise ValueError(f"WMT14: the target dictionary of {self.data_file} (its first "
                                 f"{self.dict_size} words) has no '{mark}'")
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        split = f"{self.mode}/{self.mode}"
        for name in [m.name for m in archive if m.name.endswith(split)]:
            for line in archive.extractfile(name):
                pair = line.decode().strip().split("\t")
                if len(pair) != 2:
                    continue
                src = [self.src_dict.get(w, UNK_IDX) for w in [START, *pair[0].split(), END]]
                trg = [self.trg_dict.get(w, UNK_IDX) for w in pair[1].split()]
                if len(src) > _LONGEST or len(trg) > _LONGEST:
                    continue
                self.src_ids.append(src)
                self.trg_ids.append([self.trg_dict[START], *trg])
                self.trg_ids_next.append([*trg, self.trg_dict[END]])

    def __getitem__(self, idx):
        return (np.array(self.src_ids[idx]), np.array(self.trg_ids[idx]),
                np.array(self.trg_ids_next[idx]))

    def __len__(self):
        return len(self.src_ids)

    def get_dict(self, reverse=False):
        """(source, target) dictionaries, word -> id, or id -> word with reverse."""
        if reverse:
            return ({i: w for w, i in self.src_dict.items()},
                    {i: w for w, i in self.trg_dict.items()})
        return self.src_dict, self.trg_dict
