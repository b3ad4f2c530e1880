"""The DataLoader's worker processes: what each one runs (`worker_loop`), the WorkerInfo it
exposes to the dataset through `get_worker_info`, and how its exceptions reach the main
process."""
import os
import queue
import random
import traceback

import numpy as np

from .batch_transport import SharedArrays, take_arrays
from .fetcher import DatasetExhausted, IterableFetcher, MapFetcher

__all__ = ["get_worker_info", "WorkerInfo"]

_worker_info = None

# How often an idle worker checks that the main process is still there.
_PARENT_CHECK_S = 1.0


class WorkerInfo:
    """What a worker process knows about itself: `id` (0 .. num_workers - 1), `num_workers`,
    `seed` (the seed of this worker's random, numpy and paddle generators) and `dataset` (the
    worker's copy)."""

    __initialized = False

    def __init__(self, **fields):
        for key, value in fields.items():
            setattr(self, key, value)
        self.__initialized = True

    def __setattr__(self, key, value):
        if self.__initialized:
            raise RuntimeError(f"Cannot assign attributes to {type(self).__name__} objects")
        super().__setattr__(key, value)

    def __repr__(self):
        return (f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed}, "
                f"dataset={type(self.dataset).__name__})")


def get_worker_info():
    """The WorkerInfo of the current DataLoader worker process; None in the main process."""
    return _worker_info


class WorkerError:
    """An exception raised in a worker, carried to the main process: its type (when it pickles)
    and the worker's traceback text."""

    def __init__(self, worker_id, pid, error):
        self.worker_id = worker_id
        self.pid = pid
        self.type_name = type(error).__name__
        self.traceback = "".join(traceback.format_exception(type(error), error,
                                                            error.__traceback__))
        self.error_type = type(error)

    def __reduce__(self):
        error_type = self.error_type
        try:
            import pickle

            pickle.dumps(error_type)
        except Exception:
            error_type = None
        return _rebuild_worker_error, (self.worker_id, self.pid, self.type_name,
                                       self.traceback, error_type)

    def reraise(self):
        message = (f"DataLoader worker {self.worker_id} (pid {self.pid}) caught "
                   f"{self.type_name} with message:\n{self.traceback}")
        error = None
        if self.error_type is not None:
            try:
                error = self.error_type(message)
            except Exception:
                error = None
        if error is None:
            error = RuntimeError(message)
        raise error


def _rebuild_worker_error(worker_id, pid, type_name, traceback_text, error_type):
    error = WorkerError.__new__(WorkerError)
    error.worker_id, error.pid, error.type_name = worker_id, pid, type_name
    error.traceback, error.error_type = traceback_text, error_type
    return error


EXHAUSTED = "exhausted"
RESTART = "restart"


def worker_loop(config, worker_id, index_queue, result_conn, seed, shm_prefix):
    """Serves (epoch, task, indices) requests from `index_queue` until it receives None or the
    main process goes away; answers (epoch, task, payload) on `result_conn`. `config` is the
    iterator's _WorkerConfig. A RESTART request starts an iterable dataset's stream again
    (persistent workers between epochs)."""
    global _worker_info
    parent = os.getppid()
    pid = os.getpid()
    try:
        random.seed(seed)
        np.random.seed(seed % 2**32)
        from ...framework.random import seed as paddle_seed

        paddle_seed(seed)
        _worker_info = WorkerInfo(id=worker_id, num_workers=config.num_workers, seed=seed,
                                  dataset=config.dataset)
        if config.worker_init_fn is not None:
            config.worker_init_fn(worker_id)
        if config.iterable:
            fetcher = IterableFetcher(config.dataset, config.auto_collate, config.collate_fn,
                                      config.batch_size, config.drop_last)
        else:
            fetcher = MapFetcher(config.dataset, config.auto_collate, config.collate_fn)
    except Exception as error:  # noqa: BLE001  (any failure of the user's setup is reported)
        result_conn.send((None, None, WorkerError(worker_id, pid, error)))
        return
    written = 0
    while True:
        try:
            request = index_queue.get(timeout=_PARENT_CHECK_S)
        except queue.Empty:
            if os.getppid() != parent:
                return
            continue
        if request is None:
            return
        epoch, task, indices = request
        if isinstance(indices, str) and indices == RESTART:
            fetcher.restart()
            continue
        try:
            batch = fetcher.fetch(indices)
            config.check_batch(batch)
            arrays = []
            structure = take_arrays(batch, arrays)
            arrays = [a.numpy() if not isinstance(a, np.ndarray) else a for a in arrays]
            if config.use_shared_memory:
                path = f"{shm_prefix}{worker_id}_{written}"
                written += 1
                payload = (structure, SharedArrays.write(arrays, path))
            else:
                payload = (structure, arrays)
        except DatasetExhausted:
            payload = EXHAUSTED
        except Exception as error:  # noqa: BLE001  (the main process re-raises it)
            payload = WorkerError(worker_id, pid, error)
        try:
            result_conn.send((epoch, task, payload))
        except (BrokenPipeError, OSError):
            if isinstance(payload, tuple) and isinstance(payload[1], SharedArrays):
                payload[1].discard()
            return
