"""paddle.io.DataLoader: batches from a Dataset, loaded in the main process or in worker
processes."""
import functools
import numbers
from collections.abc import Mapping, Sequence

import numpy as np

from ..base.framework import in_dynamic_mode
from ..base.libpaddle import Tensor
from .dataloader.batch_sampler import BatchSampler, _InfiniteIterableSampler
from .dataloader.collate import default_collate_fn, default_convert_fn
from .dataloader.dataloader_iter import MultiProcessIter, SingleProcessIter
from .dataloader.dataset import IterableDataset

__all__ = ["DataLoader"]


def _check_batch(batch, collate_fn, auto_collate):
    """A batch is a Tensor, a numpy array, a sequence or a dict (a sample passed through
    unbatched may also be a number or a string); anything else is a collate_fn mistake that
    would otherwise surface far away."""
    if isinstance(batch, (Tensor, np.ndarray, Mapping)):
        return
    if isinstance(batch, Sequence) and not isinstance(batch, (str, bytes)):
        return
    if not auto_collate and isinstance(batch, (numbers.Number, str, bytes)):
        return
    name = getattr(collate_fn, "__qualname__", None) or type(collate_fn).__name__
    what = "collate_fn" if auto_collate else "the conversion of unbatched samples (collate_fn)"
    raise TypeError(f"DataLoader: {what} {name} must return a batch (a Tensor, numpy array, list, "
                    f"tuple or dict), it returned {type(batch).__name__}: {repr(batch)[:200]}")


def _non_negative_int(value, arg):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"DataLoader(): argument '{arg}' must be a non-negative integer, "
                         f"received {value!r}")
    return int(value)


class DataLoader:
    """Iterates over `dataset` in batches. A map-style dataset is read through `batch_sampler`
    (by default a BatchSampler of `batch_size`, `shuffle` and `drop_last`); an IterableDataset
    is read in order, batch_size samples at a time. `collate_fn` (default_collate_fn) builds a
    batch from a list of samples; with batch_size=None samples are passed on one by one through
    `collate_fn` or default_convert_fn. Numpy arrays in a batch come out as paddle Tensors,
    tuples as lists.

    num_workers > 0 loads in that many worker processes (fork), each with `prefetch_factor`
    batches in flight; batches come out in sampler order. `worker_init_fn(worker_id)` runs first
    in each worker; `use_shared_memory` passes batches through shared-memory files instead of
    pickling them; `timeout` (seconds, 0 = wait forever) bounds the wait for one batch;
    `persistent_workers` keeps the workers for the next epoch. A worker's exception is raised in
    the main process with its type and the worker's traceback; a worker that dies is reported
    at once. `feed_list`, `places`, `return_list`, `use_buffer_reader` and
    `reader_buffer_size` are accepted as Paddle's."""

    def __init__(self, dataset, feed_list=None, places=None, return_list=True,
                 batch_sampler=None, batch_size=1, shuffle=False, drop_last=False,
                 collate_fn=None, num_workers=0, use_buffer_reader=True, reader_buffer_size=2,
                 prefetch_factor=2, use_shared_memory=True, timeout=0, worker_init_fn=None,
                 persistent_workers=False):
        self.dataset = dataset
        self.feed_list = feed_list
        self.return_list = return_list
        if not return_list and not in_dynamic_mode() and feed_list is None:
            raise ValueError("DataLoader(): argument 'feed_list' must be given when "
                             "return_list=False in static mode")
        self.places = places
        self._place = self._resolve_place(places)
        self.collate_fn = collate_fn
        self.use_buffer_reader = use_buffer_reader
        self.reader_buffer_size = reader_buffer_size
        self.num_workers = _non_negative_int(num_workers, "num_workers")
        if isinstance(prefetch_factor, bool) or not isinstance(prefetch_factor, (int, np.integer)) \
                or prefetch_factor <= 0:
            raise ValueError(f"DataLoader(): argument 'prefetch_factor' must be a positive "
                             f"integer, received {prefetch_factor!r}")
        self.prefetch_factor = int(prefetch_factor)
        if isinstance(timeout, bool) or not isinstance(timeout, numbers.Real) or timeout < 0:
            raise ValueError(f"DataLoader(): argument 'timeout' must be a non-negative number of "
                             f"seconds, received {timeout!r}")
        self.timeout = timeout
        self.use_shared_memory = bool(use_shared_memory) and self.num_workers > 0
        self.worker_init_fn = worker_init_fn
        self._persistent_workers = bool(persistent_workers)
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle:
                raise ValueError(f"DataLoader(): argument 'shuffle' must be False for an "
                                 f"IterableDataset (it has no indices), received {shuffle!r}")
            if batch_sampler is not None:
                raise ValueError("DataLoader(): argument 'batch_sampler' must be None for an "
                                 "IterableDataset")
        if batch_sampler is not None:
            given = [f"{name}={value!r}" for name, value, default in
                     (("batch_size", batch_size, 1), ("shuffle", shuffle, False),
                      ("drop_last", drop_last, False)) if value != default]
            if given:
                raise ValueError(f"DataLoader(): batch_size, shuffle and drop_last must keep "
                                 f"their defaults when 'batch_sampler' is given, received "
                                 f"{', '.join(given)}")
            self.batch_sampler = batch_sampler
            self.batch_size = None
        elif batch_size is None:
            self.batch_sampler = None
            self.batch_size = None
        else:
            if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) \
                    or batch_size <= 0:
                raise ValueError(f"DataLoader(): argument 'batch_size' must be None or a positive "
                                 f"integer, received {batch_size!r}")
            self.batch_size = int(batch_size)
            if self._iterable:
                self.batch_sampler = _InfiniteIterableSampler(dataset, self.batch_size)
            else:
                self.batch_sampler = BatchSampler(dataset=dataset, batch_size=self.batch_size,
                                                  shuffle=shuffle, drop_last=drop_last)
        self.drop_last = drop_last
        self.auto_collate_batch = self.batch_sampler is not None
        self._check_batch = functools.partial(_check_batch, collate_fn=self._collate_or_convert_fn(),
                                              auto_collate=self.auto_collate_batch)
        self._iterator = None

    @staticmethod
    def _resolve_place(places):
        if places is None:
            return None
        from ..device import _resolve_place

        if isinstance(places, (list, tuple)):
            if not places:
                raise ValueError("DataLoader(): argument 'places' must not be an empty list")
            places = places[0]
        return _resolve_place(places)

    def _collate_or_convert_fn(self):
        if self.collate_fn is not None:
            return self.collate_fn
        return default_collate_fn if self.auto_collate_batch else default_convert_fn

    def __len__(self):
        if self._iterable:
            raise ValueError("length of IterableDataset not supported")
        if self.auto_collate_batch:
            return len(self.batch_sampler)
        return len(self.dataset)

    def __iter__(self):
        if self.num_workers == 0:
            return SingleProcessIter(self)
        if not self._persistent_workers:
            return MultiProcessIter(self)
        if self._iterator is None or self._iterator._shut_down:
            self._iterator = MultiProcessIter(self)
        else:
            self._iterator._reset()
        return self._iterator

    def __call__(self):
        return self.__iter__()

    def __del__(self):
        iterator = getattr(self, "_iterator", None)
        if iterator is not None:
            iterator._shutdown()
