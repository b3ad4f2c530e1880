"""paddle.text.WMT16: the English-German sentence pairs of Paddle's wmt16.tar.gz (Multi30k, the
WMT'16 multimodal translation task)."""
import collections
import tarfile

import numpy as np

from ...io import Dataset
from ._files import check_mode, find_file, reading

__all__ = []

DATA_URL = "http://paddlemodels.bj.bcebos.com/wmt/wmt16.tar.gz"

TOTAL_EN_WORDS = 11250
TOTAL_DE_WORDS = 19220

START_MARK = "<s>"
END_MARK = "<e>"
UNK_MARK = "<unk>"
_COLUMN = {"en": 0, "de": 1}


class WMT16(Dataset):
    """Sentence pairs as word ids.

    Args:
        data_file: wmt16.tar.gz (members wmt16/train, wmt16/test and wmt16/val of tab-separated
            English and German sentences); None looks in PaddlePaddle's cache (download=True)
            and never downloads.
        mode: 'train', 'test' or 'val'.
        src_dict_size, trg_dict_size: the sizes of the source and target dictionaries, each
            '<s>', '<e>', '<unk>' and then the most frequent words of that language's sentences
            in wmt16/train (of equal counts, the first seen first).
        lang: the source language, 'en' or 'de'.

    An item is (source ids ['<s>' ... '<e>'], target ids ['<s>' ...], next target ids
    [... '<e>']), int64. The dictionaries are built in memory from the archive each time;
    Paddle also writes them to its cache (wmt16/<lang>_<size>.dict) and reads them back."""

    def __init__(self, data_file=None, mode="train", src_dict_size=-1, trg_dict_size=-1,
                 lang="en", download=True):
        api = "WMT16"
        self.mode = check_mode(mode, ("train", "test", "val"), api)
        self.data_file = find_file(data_file, DATA_URL, "wmt16", download, api, "data_file")
        if lang not in _COLUMN:
            raise ValueError(f"{api}: lang should be 'en' or 'de', but received {lang!r}")
        self.lang = lang
        for name, size in (("src_dict_size", src_dict_size), ("trg_dict_size", trg_dict_size)):
            if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
                raise ValueError(f"{api}: {name} should be a positive int, received {size!r}")
        trg_lang = "de" if lang == "en" else "en"
        totals = {"en": TOTAL_EN_WORDS, "de": TOTAL_DE_WORDS}
        self.src_dict_size = min(src_dict_size, totals[lang])
        self.trg_dict_size = min(trg_dict_size, totals[trg_lang])
        with reading(self.data_file, api, "the wmt16 tar archive"):
            with tarfile.open(self.data_file, mode="r") as archive:
                train = self._pairs(archive, "train")
                self._dicts = {lang: self._build_dict(train, lang, src_dict_size),
                               trg_lang: self._build_dict(train, trg_lang, trg_dict_size)}
                self.src_dict, self.trg_dict = self._dicts[lang], self._dicts[trg_lang]
                self._load_data(train if self.mode == "train" else self._pairs(archive,
                                                                               self.mode))

    @staticmethod
    def _pairs(archive, split):
        pairs = []
        for line in archive.extractfile(f"wmt16/{split}"):
            pair = line.decode().strip().split("\t")
            if len(pair) == 2:
                pairs.append(pair)
        return pairs

    @staticmethod
    def _build_dict(pairs, lang, size):
        counts = collections.Counter(w for pair in pairs for w in pair[_COLUMN[lang]].split())
        # Counter.most_common keeps the first seen first among equal counts.
        words = [START_MARK, END_MARK, UNK_MARK]
        words += [w for w, _ in counts.most_common(max(size - len(words), 0))]
        return {w: i for i, w in enumerate(words)}

    def _load_data(self, pairs):
        start, end, unknown = (self.src_dict[m] for m in (START_MARK, END_MARK, UNK_MARK))
        src_col = _COLUMN[self.lang]
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        for pair in pairs:
            src = [self.src_dict.get(w, unknown) for w in pair[src_col].split()]
            trg = [self.trg_dict.get(w, unknown) for w in pair[1 - src_col].split()]
            self.src_ids.append([start, *src, end])
            self.trg_ids.append([start, *trg])
            self.trg_ids_next.append([*trg, end])

    def __getitem__(self, idx):
        return (np.array(self.src_ids[idx]), np.array(self.trg_ids[idx]),
                np.array(self.trg_ids_next[idx]))

    def __len__(self):
        return len(self.src_ids)

    def get_dict(self, lang, reverse=False):
        """The dictionary of `lang` ('en' or 'de'), word -> id, or id -> word with reverse."""
        if lang not in self._dicts:
            raise ValueError(f"WMT16: lang should be 'en' or 'de', but received {lang!r}")
        words = self._dicts[lang]
        return {i: w for w, i in words.items()} if reverse else dict(words)
