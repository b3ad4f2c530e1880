"""paddle.text.Imdb: the IMDB movie review sentiment dataset, from aclImdb_v1.tar.gz."""
import collections
import re
import string
import tarfile

import numpy as np

from ...io import Dataset
from ._files import check_mode, find_file, reading

__all__ = []

URL = "https://dataset.bj.bcebos.com/imdb%2FaclImdb_v1.tar.gz"

_REVIEW = re.compile(r"aclImdb/(train|test)/(pos|neg)/.*\.txt$")
_PUNCTUATION = string.punctuation.encode("latin-1")


class Imdb(Dataset):
    """IMDB reviews as word ids, labelled 0 (positive) or 1 (negative).

    Args:
        data_file: aclImdb_v1.tar.gz; None looks in PaddlePaddle's cache (download=True) and
            never downloads.
        mode: 'train' or 'test'.
        cutoff: a word enters the dictionary when it occurs more than `cutoff` times in all the
            train and test reviews.

    The words are the bytes of a review, lower-cased and without punctuation; word_idx maps them
    (bytes), most frequent first, and '<unk>' to the ids of the words left out. An item is
    (word ids [L] int64, label [1] int64); the positive reviews come first, in archive order."""

    def __init__(self, data_file=None, mode="train", cutoff=150, download=True):
        api = "Imdb"
        self.mode = check_mode(mode, ("train", "test"), api)
        self.data_file = find_file(data_file, URL, "imdb", download, api, "data_file")
        reviews = {("train", "pos"): [], ("train", "neg"): [], ("test", "pos"): [],
                   ("test", "neg"): []}
        with reading(self.data_file, api, "the aclImdb tar archive"):
            with tarfile.open(self.data_file) as archive:
                for member in archive:
                    match = _REVIEW.match(member.name)
                    if match and member.isfile():
                        text = archive.extractfile(member).read().rstrip(b"\n\r")
                        words = text.translate(None, _PUNCTUATION).lower().split()
                        reviews[match.groups()].append(words)
        self.word_idx = self._build_word_idx(reviews.values(), cutoff)
        unknown = self.word_idx["<unk>"]
        self.docs, self.labels = [], []
        for label, polarity in enumerate(("pos", "neg")):
            for words in reviews[(self.mode, polarity)]:
                self.docs.append([self.word_idx.get(w, unknown) for w in words])
                self.labels.append(label)

    @staticmethod
    def _build_word_idx(review_lists, cutoff):
        counts = collections.Counter()
        for reviews in review_lists:
            for words in reviews:
                counts.update(words)
        kept = sorted((item for item in counts.items() if item[1] > cutoff),
                      key=lambda item: (-item[1], item[0]))
        word_idx = {word: i for i, (word, _) in enumerate(kept)}
        word_idx["<unk>"] = len(kept)
        return word_idx

    def __getitem__(self, idx):
        return np.array(self.docs[idx]), np.array([self.labels[idx]])

    def __len__(self):
        return len(self.docs)
