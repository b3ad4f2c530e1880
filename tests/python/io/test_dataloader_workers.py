"""paddle.io.DataLoader with worker processes: batches in sampler order whatever the workers'
speed, seeds, worker_init_fn and get_worker_info, IterableDatasets split per worker, persistent
workers, prefetching, the shared-memory transport leaving nothing in /dev/shm, and failures
(an exception, a killed worker, a timeout) reported promptly with no process left behind."""
import glob
import multiprocessing
import os
import signal
import time

import numpy as np
import pytest

import paddle
from paddle.io import (BatchSampler, DataLoader, Dataset, IterableDataset, TensorDataset,
                       get_worker_info)
from paddle.io.dataloader.batch_transport import shm_dir

pytestmark = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                                reason="the worker tests fork")


def shm_files():
    return set(glob.glob(os.path.join(shm_dir(), f"paddle_io_{os.getpid()}_*")))


@pytest.fixture(autouse=True)
def no_leftovers():
    before = shm_files()
    yield
    assert multiprocessing.active_children() == []
    assert shm_files() - before == set()


class Uneven(Dataset):
    """Early samples are the slow ones, so later batches finish first."""

    def __init__(self, n=24):
        self.n = n

    def __getitem__(self, i):
        time.sleep(0.002 * (self.n - i) if i % 3 == 0 else 0)
        return np.full([3], i, "float32"), i

    def __len__(self):
        return self.n


class WhoLoads(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        info = get_worker_info()
        return np.array([i, os.getpid(), info.id, info.num_workers, info.seed])


class Failing(Dataset):
    def __len__(self):
        return 10

    def __getitem__(self, i):
        if i == 7:
            raise KeyError(f"no sample {i}")
        return np.array([i])


class Killing(Dataset):
    def __len__(self):
        return 40

    def __getitem__(self, i):
        if i == 9:
            os.kill(os.getpid(), signal.SIGKILL)
        return np.array([i])


class Slow(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        time.sleep(3 if i == 2 else 0)
        return np.array([i])


class Split(IterableDataset):
    """Each worker takes every num_workers-th sample."""

    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        start, step = (0, 1) if info is None else (info.id, info.num_workers)
        for i in range(start, self.n, step):
            yield np.array([i])


class Whole(IterableDataset):
    def __iter__(self):
        for i in range(3):
            yield np.array([i])


def flat(batches, field=None):
    return [(b if field is None else b[field]).numpy().reshape(-1).tolist() for b in batches]


@pytest.mark.parametrize("use_shared_memory", [True, False])
def test_batches_come_in_sampler_order(use_shared_memory):
    loader = DataLoader(Uneven(), batch_size=2, num_workers=3,
                        use_shared_memory=use_shared_memory)
    batches = list(loader)
    assert flat(batches, 1) == [[i, i + 1] for i in range(0, 24, 2)]
    assert batches[5][0].shape == [2, 3] and batches[5][0].dtype == paddle.float32
    np.testing.assert_array_equal(batches[5][0].numpy(), np.full([2, 3], [[10], [11]]))


def test_shuffle_with_workers_repeats_under_paddle_seed():
    paddle.seed(4)
    first = flat(DataLoader(Uneven(12), batch_size=3, shuffle=True, num_workers=2), 1)
    paddle.seed(4)
    assert flat(DataLoader(Uneven(12), batch_size=3, shuffle=True, num_workers=2), 1) == first
    assert sorted(sum(first, [])) == list(range(12)) and sum(first, []) != list(range(12))


def test_worker_info_seeds_and_init_fn():
    loader = DataLoader(WhoLoads(), batch_size=2, num_workers=2)
    loaded = np.concatenate([b.numpy() for b in loader])
    assert loaded[:, 0].tolist() == list(range(8))
    # Batches go round-robin: worker 0 loads batches 0 and 2, worker 1 batches 1 and 3.
    assert loaded[:, 2].tolist() == [0, 0, 1, 1, 0, 0, 1, 1]
    assert set(loaded[:, 3]) == {2} and os.getpid() not in set(loaded[:, 1])
    seeds = {worker: seed for worker, seed in zip(loaded[:, 2], loaded[:, 4])}
    assert seeds[1] == seeds[0] + 1
    assert get_worker_info() is None

    def init_fn(worker_id):
        np.random.seed(100 + worker_id)

    class Draws(Dataset):
        def __len__(self):
            return 2

        def __getitem__(self, i):
            return np.random.randint(0, 10**6, [1])

    draws = flat(DataLoader(Draws(), batch_size=1, num_workers=2, worker_init_fn=init_fn))
    assert draws == [[np.random.RandomState(100).randint(0, 10**6)],
                     [np.random.RandomState(101).randint(0, 10**6)]]


def test_iterable_dataset_per_worker_copies():
    split = flat(DataLoader(Split(6), batch_size=2, num_workers=2))
    # Worker 0 holds 0, 2, 4 and worker 1 holds 1, 3, 5; batches alternate between them.
    assert split == [[0, 2], [1, 3], [4], [5]]
    whole = flat(DataLoader(Whole(), batch_size=None, num_workers=2))
    assert sorted(sum(whole, [])) == [0, 0, 1, 1, 2, 2]


def test_persistent_workers_serve_every_epoch():
    loader = DataLoader(WhoLoads(), batch_size=4, num_workers=2, persistent_workers=True)
    epochs = [np.concatenate([b.numpy() for b in loader]) for _ in range(3)]
    for epoch in epochs:
        assert epoch[:, 0].tolist() == list(range(8))
    assert len({tuple(sorted(set(e[:, 1]))) for e in epochs}) == 1
    for b in loader:
        break  # an abandoned epoch: the next one starts clean
    assert np.concatenate([b.numpy() for b in loader])[:, 0].tolist() == list(range(8))
    stream = DataLoader(Split(5), batch_size=2, num_workers=2, persistent_workers=True)
    assert [flat([b for b in stream]) for _ in range(2)] == [[[0, 2], [1, 3], [4]]] * 2
    del loader, stream


def test_prefetch_factor_bounds_the_batches_in_flight():
    class Counting(BatchSampler):
        drawn = 0

        def __iter__(self):
            for batch in super().__iter__():
                Counting.drawn += 1
                yield batch

    sampler = Counting(list(range(100)), batch_size=1)
    iterator = iter(DataLoader(list(range(100)), batch_sampler=sampler, num_workers=2,
                               prefetch_factor=3))
    next(iterator)
    # 3 per worker were requested up front, and one more when the first batch was handed out.
    assert Counting.drawn == 2 * 3 + 1
    del iterator


def test_worker_exception_keeps_its_type_and_the_worker_traceback():
    with pytest.raises(KeyError) as caught:
        list(DataLoader(Failing(), batch_size=2, num_workers=2))
    message = str(caught.value)
    assert "DataLoader worker 1" in message and "caught KeyError" in message
    assert "no sample 7" in message and "in __getitem__" in message


def test_worker_init_fn_failure_is_reported():
    def init_fn(worker_id):
        raise ValueError(f"cannot set up worker {worker_id}")

    with pytest.raises(ValueError, match="cannot set up worker"):
        list(DataLoader(list(range(4)), num_workers=1, worker_init_fn=init_fn))


def test_collate_fn_returning_no_batch_in_a_worker():
    with pytest.raises(TypeError, match="collate_fn .*<lambda> must return a batch.*returned set"):
        list(DataLoader(list(range(4)), batch_size=2, num_workers=1, collate_fn=lambda b: set(b)))


@pytest.mark.parametrize("timeout", [0, 30])
def test_killed_worker_is_reported_at_once(timeout):
    start = time.monotonic()
    with pytest.raises(RuntimeError, match=r"DataLoader worker 0 \(pid \d+\) was killed by "
                                           r"SIGKILL"):
        list(DataLoader(Killing(), batch_size=2, num_workers=2, timeout=timeout))
    assert time.monotonic() - start < 5


def test_timeout_names_the_batch_and_the_worker():
    start = time.monotonic()
    with pytest.raises(RuntimeError, match=r"timed out: batch 2 did not arrive from worker 0 "
                                           r"\(pid \d+\) within timeout=0.5 s"):
        list(DataLoader(Slow(), batch_size=1, num_workers=2, timeout=0.5))
    assert time.monotonic() - start < 3


def test_early_break_and_deletion_leave_no_process_or_segment():
    loader = DataLoader(Uneven(), batch_size=2, num_workers=2)
    for i, _ in enumerate(loader):
        if i == 1:
            break
    iterator = iter(loader)
    next(iterator)
    assert len(multiprocessing.active_children()) == 2
    del iterator
    persistent = DataLoader(Uneven(), batch_size=2, num_workers=2, persistent_workers=True)
    next(iter(persistent))
    del persistent, loader


def test_tensor_samples_in_workers():
    dataset = TensorDataset([paddle.to_tensor(np.arange(12, dtype="float32").reshape([6, 2])),
                             paddle.to_tensor(np.arange(6))])
    batches = list(DataLoader(dataset, batch_size=4, num_workers=2))
    assert flat(batches, 1) == [[0, 1, 2, 3], [4, 5]]
    assert batches[1][0].shape == [2, 2] and batches[1][0].dtype == paddle.float32


def test_iterating_a_loader_twice_starts_fresh_workers():
    loader = DataLoader(WhoLoads(), batch_size=4, num_workers=2)
    first, second = ([b.numpy() for b in loader] for _ in range(2))
    assert [b[:, 0].tolist() for b in first] == [b[:, 0].tolist() for b in second]
    assert set(np.concatenate(first)[:, 1]).isdisjoint(np.concatenate(second)[:, 1])
    assert len(iter(loader)) == 2


def test_worker_info_is_read_only():
    class Probe(Dataset):
        def __len__(self):
            return 1

        def __getitem__(self, i):
            get_worker_info().id = 5

    with pytest.raises(RuntimeError, match="Cannot assign attributes to WorkerInfo"):
        next(iter(DataLoader(Probe(), num_workers=1)))


def test_killed_persistent_worker_is_reported_in_a_later_epoch():
    loader = DataLoader(WhoLoads(), batch_size=4, num_workers=2, persistent_workers=True)
    pids = {int(pid) for b in loader for pid in b.numpy()[:, 1]}
    os.kill(min(pids), signal.SIGKILL)
    with pytest.raises(RuntimeError, match=f"\\(pid {min(pids)}\\) was killed by SIGKILL"):
        list(loader)
    del loader


class Mixed(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return {"empty": np.zeros([0, 3], "float32"), "flag": np.array([i % 2 == 0]),
                "strided": np.arange(12.0).reshape(3, 4)[:, ::2] + i, "half": np.ones(2, "float16"),
                "bf16_bits": np.full([2], 0x3F80, "uint16"), "complex": np.array([1 + 2j * i]),
                "text": np.array([f"s{i}"]), "tensor": paddle.full([2], i, "int32")}


@pytest.mark.parametrize("num_workers", [0, 2])
def test_dtypes_and_layouts_survive_the_transport(num_workers):
    batch = next(iter(DataLoader(Mixed(), batch_size=2, num_workers=num_workers)))
    assert batch["empty"].shape == [2, 0, 3]
    assert batch["flag"].dtype == paddle.bool
    assert batch["flag"].numpy().ravel().tolist() == [True, False]
    np.testing.assert_array_equal(batch["strided"].numpy(),
                                  [[[0, 2], [4, 6], [8, 10]], [[1, 3], [5, 7], [9, 11]]])
    assert batch["half"].dtype == paddle.float16
    # uint16 arrays are bfloat16 bit patterns in Paddle: 0x3F80 is 1.0.
    assert batch["bf16_bits"].dtype == paddle.bfloat16
    assert batch["bf16_bits"].astype("float32").numpy().tolist() == [[1, 1], [1, 1]]
    assert batch["complex"].numpy().ravel().tolist() == [1, 1 + 2j]
    assert isinstance(batch["text"], np.ndarray) and batch["text"].ravel().tolist() == ["s0", "s1"]
    assert batch["tensor"].dtype == paddle.int32 and batch["tensor"].shape == [2, 2]
