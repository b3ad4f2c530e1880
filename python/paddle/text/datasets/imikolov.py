"""paddle.text.Imikolov: the Penn Treebank language-modelling data of Mikolov's
simple-examples.tgz."""
import collections
import tarfile

import numpy as np

from ...io import Dataset
from ._files import check_mode, find_file, reading

__all__ = []

URL = "https://dataset.bj.bcebos.com/imikolov%2Fsimple-examples.tgz"


def _sort_key(item):
    # The words are bytes and the sentence marks str (as in Paddle); latin-1 orders bytes as
    # bytes order, so that a word and a mark of the same count compare.
    word, count = item
    return -count, word.decode("latin-1") if isinstance(word, bytes) else word


class Imikolov(Dataset):
    """The sentences of ptb.train.txt or ptb.test.txt as word ids.

    Args:
        data_file: simple-examples.tgz; None looks in PaddlePaddle's cache (download=True) and
            never downloads.
        data_type: 'NGRAM' (each window_size words of '<s>' sentence '<e>', an item of
            window_size 0-d int64 arrays) or 'SEQ' (an item (['<s>'] + sentence,
            sentence + ['<e>']), sentences longer than window_size - 1 left out when
            window_size > 0).
        window_size: the n of the n-grams, or the longest sequence.
        mode: 'train' or 'test'.
        min_word_freq: a word enters the dictionary when it occurs more than this in
            ptb.train.txt and ptb.valid.txt ('<s>' and '<e>' count once a line).

    word_idx maps the words (bytes, as read), most frequent first, '<s>' and '<e>', and
    '<unk>' to the ids of the words left out."""

    def __init__(self, data_file=None, data_type="NGRAM", window_size=-1, mode="train",
                 min_word_freq=50, download=True):
        api = "Imikolov"
        if not isinstance(data_type, str) or data_type.upper() not in ("NGRAM", "SEQ"):
            raise ValueError(f"{api}: data_type should be 'NGRAM' or 'SEQ', but received "
                             f"{data_type!r}")
        self.data_type = data_type.upper()
        self.mode = check_mode(mode, ("train", "test"), api)
        if self.data_type == "NGRAM" and window_size < 0:
            raise ValueError(f"{api}: data_type 'NGRAM' needs window_size >= 0 (the n of the "
                             f"n-grams), received {window_size}")
        self.window_size = window_size
        self.min_word_freq = min_word_freq
        self.data_file = find_file(data_file, URL, "imikolov", download, api, "data_file")
        with reading(self.data_file, api, "the simple-examples tgz archive"):
            with tarfile.open(self.data_file) as archive:
                counts = collections.Counter()
                for split in ("train", "valid"):
                    for line in self._lines(archive, split):
                        counts.update(line.split())
                        counts.update(("<s>", "<e>"))
                self.word_idx = self._build_word_idx(counts)
                if self.data_type == "SEQ":
                    for mark in ("<s>", "<e>"):
                        if mark not in self.word_idx:
                            raise ValueError(
                                f"{api}: data_type 'SEQ' needs '{mark}' in the dictionary, but "
                                f"it occurs {counts[mark]} times, not more than min_word_freq "
                                f"({min_word_freq})")
                self.data = [item for line in self._lines(archive, self.mode)
                             for item in self._items(line.split())]

    @staticmethod
    def _lines(archive, split):
        # The archive's members are './simple-examples/...'; a repacked one may drop the './'.
        name = f"simple-examples/data/ptb.{split}.txt"
        names = set(archive.getnames())
        member = f"./{name}" if f"./{name}" in names else name
        return [line.strip() for line in archive.extractfile(member)]

    def _build_word_idx(self, counts):
        counts.pop("<unk>", None)
        kept = sorted((item for item in counts.items() if item[1] > self.min_word_freq),
                      key=_sort_key)
        word_idx = {word: i for i, (word, _) in enumerate(kept)}
        word_idx["<unk>"] = len(kept)
        return word_idx

    def _items(self, words):
        unknown = self.word_idx["<unk>"]
        if self.data_type == "NGRAM":
            ids = [self.word_idx.get(w, unknown) for w in ["<s>", *words, "<e>"]]
            n = self.window_size
            return [tuple(ids[i - n:i]) for i in range(n, len(ids) + 1)] if len(ids) >= n else []
        ids = [self.word_idx.get(w, unknown) for w in words]
        source = [self.word_idx["<s>"], *ids]
        if self.window_size > 0 and len(source) > self.window_size:
            return []
        return [(source, [*ids, self.word_idx["<e>"]])]

    def __getitem__(self, idx):
        return tuple(np.array(value) for value in self.data[idx])

    def __len__(self):
        return len(self.data)
