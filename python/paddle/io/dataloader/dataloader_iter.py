"""The DataLoader's iterators: one that loads in the main process (num_workers=0) and one that
farms batches out to worker processes and hands them back in sampler order."""
import atexit
import glob
import itertools
import multiprocessing
import os
import signal
import time
import uuid
import weakref
from multiprocessing.connection import wait

from .batch_transport import SharedArrays, put_back, shm_dir, take_arrays
from .fetcher import DatasetExhausted, IterableFetcher, MapFetcher
from .worker import EXHAUSTED, RESTART, WorkerError, worker_loop

# How long shutdown waits for workers to leave on their own before terminating them.
_SHUTDOWN_GRACE_S = 2.0


def _to_tensors(structure, arrays, place):
    from ...base.libpaddle import Tensor
    from ...tensor.creation import to_tensor

    tensors = [a if isinstance(a, Tensor) else to_tensor(a, place=place) for a in arrays]
    return put_back(structure, tensors)


class _WorkerConfig:
    """What a worker needs from the DataLoader (and nothing more, so the iterator does not keep
    the loader alive)."""

    def __init__(self, loader):
        self.dataset = loader.dataset
        self.iterable = loader._iterable
        self.auto_collate = loader.auto_collate_batch
        self.collate_fn = loader._collate_or_convert_fn()
        self.batch_size = loader.batch_size
        self.drop_last = loader.drop_last
        self.num_workers = loader.num_workers
        self.worker_init_fn = loader.worker_init_fn
        self.use_shared_memory = loader.use_shared_memory
        self.check_batch = loader._check_batch


class _IterBase:
    def __init__(self, loader):
        self._config = _WorkerConfig(loader)
        self._batch_sampler = loader.batch_sampler
        self._place = loader._place
        self._iterable = loader._iterable

    def _sampler_requests(self):
        if self._config.auto_collate:
            return iter(self._batch_sampler)
        if self._iterable:
            return itertools.repeat(None)
        return iter(range(len(self._config.dataset)))

    def __iter__(self):
        return self

    def __len__(self):
        return len(self._batch_sampler) if self._config.auto_collate \
            else len(self._config.dataset)


class SingleProcessIter(_IterBase):
    def __init__(self, loader):
        super().__init__(loader)
        config = self._config
        if self._iterable:
            self._fetcher = IterableFetcher(config.dataset, config.auto_collate,
                                            config.collate_fn, config.batch_size,
                                            config.drop_last)
        else:
            self._fetcher = MapFetcher(config.dataset, config.auto_collate, config.collate_fn)
        self._requests = self._sampler_requests()

    def __next__(self):
        request = next(self._requests)
        try:
            batch = self._fetcher.fetch(request)
        except DatasetExhausted:
            raise StopIteration from None
        self._config.check_batch(batch)
        arrays = []
        structure = take_arrays(batch, arrays)
        return _to_tensors(structure, arrays, self._place)


_live_iterators = weakref.WeakSet()


@atexit.register
def _shutdown_live_iterators():
    for iterator in list(_live_iterators):
        iterator._shutdown()


def _signal_name(exitcode):
    try:
        return signal.Signals(-exitcode).name
    except ValueError:
        return f"signal {-exitcode}"


class MultiProcessIter(_IterBase):
    """Tasks (one per batch) go round-robin to the workers, prefetch_factor of them in flight per
    worker; results arrive on one pipe per worker and are handed out in task order. Waiting
    watches the pipes and the workers' process sentinels together, so a worker that dies is
    noticed at once."""

    # Until the workers exist there is nothing to shut down (also for a failed __init__).
    _shut_down = True

    def __init__(self, loader):
        super().__init__(loader)
        self._num_workers = loader.num_workers
        self._prefetch = loader.prefetch_factor
        self._timeout = loader.timeout
        self._persistent = loader._persistent_workers
        self._shm_prefix = os.path.join(
            shm_dir(), f"paddle_io_{os.getpid()}_{uuid.uuid4().hex[:12]}_")
        self._workers, self._index_queues, self._result_conns = [], [], []
        self._epoch = -1
        self._results = {}
        self._shut_down = False
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        from ...tensor.random import randint

        base_seed = int(randint(0, 2**31 - 1, [1]).item())
        _live_iterators.add(self)
        try:
            for worker_id in range(self._num_workers):
                index_queue = context.Queue()
                reader, writer = context.Pipe(duplex=False)
                process = context.Process(
                    target=worker_loop, daemon=True,
                    args=(self._config, worker_id, index_queue, writer, base_seed + worker_id,
                          self._shm_prefix))
                process.start()
                writer.close()
                self._workers.append(process)
                self._index_queues.append(index_queue)
                self._result_conns.append(reader)
        except BaseException:
            self._shutdown()
            raise
        self._start_epoch()

    def _start_epoch(self):
        self._epoch += 1
        self._requests = self._sampler_requests()
        self._sent = 0
        self._received = 0
        self._results = {}
        self._task_worker = {}
        self._active = list(range(self._num_workers))
        self._next_worker = itertools.cycle(range(self._num_workers))
        if self._iterable and self._epoch > 0:
            for index_queue in self._index_queues:
                index_queue.put((self._epoch, None, RESTART))
        for _ in range(self._prefetch * self._num_workers):
            self._dispatch()

    def _reset(self):
        """A new epoch on the same (persistent) workers."""
        for payload in self._results.values():
            _discard(payload)
        self._start_epoch()

    def _dispatch(self):
        if not self._active:
            return
        try:
            request = next(self._requests)
        except StopIteration:
            self._active = []
            return
        worker_id = next(self._next_worker)
        while worker_id not in self._active:
            worker_id = next(self._next_worker)
        self._index_queues[worker_id].put((self._epoch, self._sent, request))
        self._task_worker[self._sent] = worker_id
        self._sent += 1

    def __next__(self):
        if self._shut_down:
            raise StopIteration
        try:
            while True:
                if self._received == self._sent:
                    self._end_epoch()
                    raise StopIteration
                payload = self._results.pop(self._received, None)
                if payload is None:
                    self._wait_for(self._received)
                    continue
                worker_id = self._task_worker.pop(self._received)
                self._received += 1
                if isinstance(payload, str) and payload == EXHAUSTED:
                    if worker_id in self._active:
                        self._active.remove(worker_id)
                    self._dispatch()
                    continue
                if isinstance(payload, WorkerError):
                    self._shutdown()
                    payload.reraise()
                self._dispatch()
                structure, arrays = payload
                return _to_tensors(structure, arrays, self._place)
        except BaseException:
            if not self._shut_down and not self._persistent:
                self._shutdown()
            raise

    def _end_epoch(self):
        if not self._persistent:
            self._shutdown()

    def _wait_for(self, task):
        deadline = time.monotonic() + self._timeout if self._timeout > 0 else None
        while task not in self._results:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                worker_id = self._task_worker.get(task)
                pid = self._workers[worker_id].pid if worker_id is not None else None
                self._shutdown()
                raise RuntimeError(
                    f"DataLoader timed out: batch {task} did not arrive from worker {worker_id} "
                    f"(pid {pid}) within timeout={self._timeout} s")
            sentinels = {w.sentinel: i for i, w in enumerate(self._workers)}
            ready = wait(self._result_conns + list(sentinels), remaining)
            for conn in ready:
                if conn in sentinels:
                    continue
                self._receive(conn)
            for conn in ready:
                if conn in sentinels and task not in self._results:
                    self._report_dead_worker(sentinels[conn])

    def _receive(self, conn):
        try:
            epoch, task, payload = conn.recv()
        except (EOFError, OSError):
            return  # the worker is gone; its sentinel reports it
        if task is None and isinstance(payload, WorkerError):
            self._shutdown()
            payload.reraise()
        if isinstance(payload, tuple) and isinstance(payload[1], SharedArrays):
            arrays = payload[1].read()
            payload = (payload[0], arrays)
        if epoch != self._epoch:
            return  # an answer for an epoch that was abandoned
        self._results[task] = payload

    def _report_dead_worker(self, worker_id):
        process = self._workers[worker_id]
        process.join(0.1)
        exitcode = process.exitcode
        how = (f"was killed by {_signal_name(exitcode)}" if exitcode is not None and exitcode < 0
               else f"exited with code {exitcode}")
        self._shutdown()
        raise RuntimeError(f"DataLoader worker {worker_id} (pid {process.pid}) {how} "
                           f"unexpectedly; its batches are lost")

    def _shutdown(self):
        if self._shut_down:
            return
        self._shut_down = True
        _live_iterators.discard(self)
        for worker, index_queue in zip(self._workers, self._index_queues):
            if worker.is_alive():
                try:
                    index_queue.put(None)
                except (OSError, ValueError):
                    pass
        deadline = time.monotonic() + _SHUTDOWN_GRACE_S
        # Reading what the workers still send lets one blocked on a full pipe reach the stop.
        while any(w.is_alive() for w in self._workers) and time.monotonic() < deadline:
            for conn in wait(self._result_conns, 0.05):
                try:
                    _discard(conn.recv()[2])
                except Exception:  # noqa: BLE001  (a killed worker leaves a torn message)
                    pass
        for worker in self._workers:
            if worker.is_alive():
                worker.terminate()
            worker.join(1.0)
            if worker.is_alive():
                worker.kill()
                worker.join()
        for conn in self._result_conns:
            while True:
                try:
                    if not conn.poll():
                        break
                    _discard(conn.recv()[2])
                except Exception:  # noqa: BLE001  (a killed worker leaves a torn message)
                    break
            conn.close()
        for index_queue in self._index_queues:
            index_queue.cancel_join_thread()
            index_queue.close()
        for payload in self._results.values():
            _discard(payload)
        self._results = {}
        # Files of batches a worker wrote but never sent (it was killed in between).
        for path in glob.glob(self._shm_prefix + "*"):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass

    def __del__(self):
        self._shutdown()


def _discard(payload):
    if isinstance(payload, tuple) and isinstance(payload[1], SharedArrays):
        payload[1].discard()
