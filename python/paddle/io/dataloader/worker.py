"""The DataLoader's worker processes: what each one runs (`worker_loop`), the WorkerInfo it
exposes to the dataset through `get_worker_info`, and how its exceptions reach the main
process."""
import ctypes
import os
import pickle
import queue
import random
import signal
import traceback

import numpy as np

from ...base import libpaddle
from .batch_transport import SegmentWriter, take_arrays
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


def _pickles(error_type):
    try:
        pickle.dumps(error_type)
        return True
    except Exception:  # noqa: BLE001  (a class defined in a function, say)
        return False


class WorkerError:
    """An exception raised in a worker, carried to the main process: its type (when the class
    pickles) and the worker's traceback text."""

    def __init__(self, worker_id, pid, error):
        self.worker_id = worker_id
        self.pid = pid
        self.type_name = type(error).__name__
        self.traceback = "".join(traceback.format_exception(type(error), error,
                                                            error.__traceback__))
        self.error_type = type(error) if _pickles(type(error)) else None

    def reraise(self):
        """Raises the worker's exception type with the traceback in its message; RuntimeError
        when the type did not travel or does not take a single message argument."""
        message = (f"DataLoader worker {self.worker_id} (pid {self.pid}) caught "
                   f"{self.type_name} with message:\n{self.traceback}")
        error = None
        if self.error_type is not None:
            try:
                error = self.error_type(message)
            except Exception:  # noqa: BLE001  (a constructor with other arguments)
                error = None
        raise error if error is not None else RuntimeError(message)


class Exhausted:
    """A worker's answer when its iterable dataset has no batch left."""


def _single_threaded_openmp():
    """Sets the OpenMP libraries this process has loaded to one thread. GNU libgomp is not
    fork-safe: in a child forked after the parent ran a parallel region (any large kernel,
    OpenBLAS, oneDNN), the next parallel region waits forever for the parent's pool threads. With
    one thread no pool is used. (PyTorch's workers likewise run single-threaded.)"""
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "/lib" in line}
    except OSError:
        return
    for path in paths:
        if os.path.basename(path).startswith(("libgomp", "libomp", "libiomp")):
            try:
                ctypes.CDLL(path).omp_set_num_threads(1)
            except (OSError, AttributeError):
                pass


def worker_loop(config, worker_id, index_queue, result_conn, seed, shm_prefix):
    """Serves the requests on `index_queue` until it receives None or the main process goes
    away: ("task", epoch, task, indices) is answered with (epoch, task, payload) on
    `result_conn`; ("release", path) hands a shared-memory file back; ("restart",) starts an
    iterable dataset's stream again (persistent workers, next epoch). `config` is the iterator's
    _WorkerConfig."""
    global _worker_info
    # Ctrl-C reaches the whole process group; the main process handles it and stops the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _single_threaded_openmp()
    # A forked child cannot use the parent's CUDA context: paddle ops in dataset code run on the
    # CPU here, and the main process puts the batch on the loader's place.
    libpaddle._set_default_place(libpaddle.CPUPlace())
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
    segments = SegmentWriter(f"{shm_prefix}{worker_id}_") if config.use_shared_memory else None
    try:
        _serve(config, fetcher, segments, index_queue, result_conn, parent, worker_id)
    finally:
        if segments is not None:
            segments.close()


def _serve(config, fetcher, segments, index_queue, result_conn, parent, worker_id):
    while True:
        try:
            request = index_queue.get(timeout=_PARENT_CHECK_S)
        except queue.Empty:
            if os.getppid() != parent:
                return
            continue
        if request is None:
            return
        if request[0] == "release":
            segments.release(request[1])
            continue
        if request[0] == "restart":
            fetcher.restart()
            continue
        _, epoch, task, indices = request
        try:
            batch = fetcher.fetch(indices)
            config.check_batch(batch)
            arrays = []
            structure = take_arrays(batch, arrays)
            arrays = [a if isinstance(a, np.ndarray) else a.numpy() for a in arrays]
            payload = (structure, segments.write(arrays) if segments is not None else arrays)
        except DatasetExhausted:
            payload = Exhausted()
        except Exception as error:  # noqa: BLE001  (the main process re-raises it)
            payload = WorkerError(worker_id, os.getpid(), error)
        try:
            result_conn.send((epoch, task, payload))
        except OSError:  # the main process is gone
            return
