"""Turning one request of the sampler into one batch, for a map-style dataset (indices to
samples) and an iterable one (the next samples of its stream)."""
import itertools


class DatasetExhausted(Exception):
    """An iterable dataset has no (full, when drop_last) batch left."""


class MapFetcher:
    def __init__(self, dataset, auto_collate, collate_fn):
        self.dataset = dataset
        self.auto_collate = auto_collate
        self.collate_fn = collate_fn

    def fetch(self, indices):
        if self.auto_collate:
            return self.collate_fn([self.dataset[idx] for idx in indices])
        return self.collate_fn(self.dataset[indices])


class IterableFetcher:
    def __init__(self, dataset, auto_collate, collate_fn, batch_size, drop_last):
        self.dataset = dataset
        self.auto_collate = auto_collate
        self.collate_fn = collate_fn
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.restart()

    def restart(self):
        self._samples = iter(self.dataset)

    def fetch(self, _placeholders=None):
        if not self.auto_collate:
            try:
                return self.collate_fn(next(self._samples))
            except StopIteration:
                raise DatasetExhausted from None
        samples = list(itertools.islice(self._samples, self.batch_size))
        if not samples or (self.drop_last and len(samples) < self.batch_size):
            raise DatasetExhausted
        return self.collate_fn(samples)
