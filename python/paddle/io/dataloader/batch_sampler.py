"""Batch samplers: iterables of index lists, one list per batch."""
import math
import os

import numpy as np

from .dataset import IterableDataset
from .sampler import RandomSampler, Sampler, SequenceSampler

__all__ = ["BatchSampler", "DistributedBatchSampler"]


def _check_bool(value, api, arg):
    if not isinstance(value, bool):
        raise TypeError(f"{api}(): argument '{arg}' must be a bool, received {value!r}")


def _check_batch_size(batch_size, api):
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) \
            or batch_size <= 0:
        raise ValueError(f"{api}(): argument 'batch_size' must be a positive integer, received "
                         f"{batch_size!r}")


def _batches(indices, batch_size, drop_last):
    batch = []
    for idx in indices:
        batch.append(idx)
        if len(batch) == batch_size:
            yield batch
            batch = []
    if batch and not drop_last:
        yield batch


class BatchSampler(Sampler):
    """Groups the indices of `sampler` (or of a Sequence/RandomSampler over `dataset`, as
    `shuffle` says) into lists of `batch_size`; the last, shorter one is dropped when
    `drop_last`."""

    def __init__(self, dataset=None, sampler=None, shuffle=False, batch_size=1, drop_last=False):
        if dataset is None:
            if sampler is None:
                raise ValueError("BatchSampler(): one of 'dataset' and 'sampler' must be given")
            if not isinstance(sampler, Sampler) and not hasattr(sampler, "__iter__"):
                raise TypeError(f"BatchSampler(): argument 'sampler' must be a paddle.io.Sampler or "
                                f"an iterable, received {type(sampler).__name__}")
            if shuffle:
                raise ValueError("BatchSampler(): argument 'shuffle' must be False when 'sampler' "
                                 "is given (the sampler sets the order)")
            self.sampler = sampler
        else:
            if isinstance(dataset, IterableDataset):
                raise TypeError("BatchSampler(): argument 'dataset' must not be a "
                                "paddle.io.IterableDataset")
            if sampler is not None:
                raise ValueError("BatchSampler(): give 'dataset' or 'sampler', not both")
            _check_bool(shuffle, "BatchSampler", "shuffle")
            self.sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        _check_batch_size(batch_size, "BatchSampler")
        _check_bool(drop_last, "BatchSampler", "drop_last")
        self.batch_size = int(batch_size)
        self.shuffle = shuffle
        self.drop_last = drop_last

    def __iter__(self):
        return _batches(self.sampler, self.batch_size, self.drop_last)

    def __len__(self):
        samples = len(self.sampler)
        if self.drop_last:
            return samples // self.batch_size
        return (samples + self.batch_size - 1) // self.batch_size


class _InfiniteIterableSampler(Sampler):
    """For an IterableDataset: endless lists of `batch_size` placeholders; the dataset's own end
    ends the epoch."""

    def __init__(self, dataset, batch_size=1):
        self.dataset = dataset
        self.batch_size = batch_size

    def __iter__(self):
        while True:
            yield [None] * self.batch_size


def _env_int(name, default):
    value = os.environ.get(name)
    try:
        return default if value in (None, "") else int(value)
    except ValueError:
        raise ValueError(f"DistributedBatchSampler: the environment variable {name} must be an "
                         f"integer, received {value!r}") from None


class DistributedBatchSampler(BatchSampler):
    """The share of `dataset` that rank `rank` of `num_replicas` reads: the indices are padded
    (by repeating from the start) to a multiple of num_replicas, optionally shuffled by
    numpy.random.RandomState(epoch), and dealt out batch by batch, so each rank gets
    ceil(len(dataset) / num_replicas) samples. num_replicas and rank default to the launcher's
    PADDLE_TRAINERS_NUM and PADDLE_TRAINER_ID. Each shuffled epoch advances `epoch` by one;
    `set_epoch` sets it."""

    def __init__(self, dataset, batch_size, num_replicas=None, rank=None, shuffle=False,
                 drop_last=False):
        self.dataset = dataset
        _check_batch_size(batch_size, "DistributedBatchSampler")
        _check_bool(shuffle, "DistributedBatchSampler", "shuffle")
        _check_bool(drop_last, "DistributedBatchSampler", "drop_last")
        if num_replicas is None:
            num_replicas = _env_int("PADDLE_TRAINERS_NUM", 1)
        if isinstance(num_replicas, bool) or not isinstance(num_replicas, (int, np.integer)) \
                or num_replicas <= 0:
            raise ValueError(f"DistributedBatchSampler(): argument 'num_replicas' must be a "
                             f"positive integer, received {num_replicas!r}")
        if rank is None:
            rank = _env_int("PADDLE_TRAINER_ID", 0)
        if isinstance(rank, bool) or not isinstance(rank, (int, np.integer)) or rank < 0:
            raise ValueError(f"DistributedBatchSampler(): argument 'rank' must be a non-negative "
                             f"integer, received {rank!r}")
        if rank >= num_replicas:
            raise ValueError(f"DistributedBatchSampler(): argument 'rank' ({rank}) must be less "
                             f"than num_replicas ({num_replicas})")
        self.batch_size = int(batch_size)
        self.shuffle = shuffle
        self.drop_last = drop_last
        self.nranks = int(num_replicas)
        self.local_rank = int(rank)
        self.epoch = 0
        self.num_samples = int(math.ceil(len(dataset) / self.nranks))
        self.total_size = self.num_samples * self.nranks

    def _rank_indices(self):
        n = len(self.dataset)
        indices = list(range(n))
        if n:
            repeats = math.ceil(self.total_size / n)
            indices = (indices * repeats)[:self.total_size]
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.nranks == 1:
            return indices
        # Whole rounds of nranks * batch_size go out batch by batch; the last, partial round is
        # split evenly, so every rank gets num_samples indices.
        stride = self.batch_size * self.nranks
        tail = self.total_size % stride
        mine = []
        for start in range(self.local_rank * self.batch_size, self.total_size - tail, stride):
            mine.extend(indices[start:start + self.batch_size])
        tail_share = tail // self.nranks
        tail_start = self.total_size - tail + self.local_rank * tail_share
        mine.extend(indices[tail_start:tail_start + tail_share])
        return mine

    def __iter__(self):
        return _batches(self._rank_indices(), self.batch_size, self.drop_last)

    def __len__(self):
        if self.drop_last:
            return self.num_samples // self.batch_size
        return (self.num_samples + self.batch_size - 1) // self.batch_size

    def set_epoch(self, epoch):
        self.epoch = epoch
