"""paddle.io samplers and batch samplers against the index sequences PaddlePaddle 3.3.1 gives
(DistributedBatchSampler's shuffle is numpy's RandomState(epoch), so the sequences are exact;
SubsetRandomSampler uses paddle.randperm, as Paddle does), and the random samplers' repetition
under paddle.seed."""
import numpy as np
import pytest

import paddle
from paddle.io import (BatchSampler, DistributedBatchSampler, RandomSampler, Sampler,
                       SequenceSampler, SubsetRandomSampler, WeightedRandomSampler)

DATA = list(range(11))


def test_sequence_and_batch_sampler():
    assert list(SequenceSampler(DATA)) == DATA and len(SequenceSampler(DATA)) == 11
    batches = BatchSampler(DATA, batch_size=4)
    assert list(batches) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10]] and len(batches) == 3
    dropped = BatchSampler(DATA, batch_size=4, drop_last=True)
    assert list(dropped) == [[0, 1, 2, 3], [4, 5, 6, 7]] and len(dropped) == 2
    custom = BatchSampler(sampler=[5, 3, 1], batch_size=2)
    assert list(custom) == [[5, 3], [1]]


def test_batch_sampler_errors_name_the_argument():
    with pytest.raises(ValueError, match="batch_size"):
        BatchSampler(DATA, batch_size=0)
    with pytest.raises(ValueError, match="dataset.*sampler"):
        BatchSampler()
    with pytest.raises(ValueError, match="not both"):
        BatchSampler(DATA, sampler=SequenceSampler(DATA))
    with pytest.raises(ValueError, match="shuffle"):
        BatchSampler(sampler=SequenceSampler(DATA), shuffle=True)
    with pytest.raises(TypeError, match="drop_last"):
        BatchSampler(DATA, drop_last=1)
    with pytest.raises(NotImplementedError, match="__iter__"):
        iter(Sampler())


def test_random_sampler_is_a_permutation_repeated_by_paddle_seed():
    paddle.seed(3)
    first = list(RandomSampler(DATA))
    paddle.seed(3)
    assert list(RandomSampler(DATA)) == first
    assert sorted(first) == DATA and first != DATA
    paddle.seed(3)
    assert first[:4] == list(RandomSampler(DATA, num_samples=4))
    drawn = list(RandomSampler([0, 1], replacement=True, num_samples=5))
    assert len(drawn) == 5 and set(drawn) <= {0, 1}
    assert list(RandomSampler(DATA, generator=iter([4, 2]), num_samples=3)) == [4, 2]


def test_random_sampler_errors():
    with pytest.raises(TypeError, match="replacement"):
        RandomSampler(DATA, replacement=1)
    with pytest.raises(ValueError, match="num_samples.*12.*11"):
        RandomSampler(DATA, num_samples=12)
    with pytest.raises(ValueError, match="num_samples"):
        RandomSampler(DATA, replacement=True, num_samples=0)


def test_weighted_random_sampler():
    paddle.seed(5)
    draws = list(WeightedRandomSampler([0.0, 1.0, 0.0, 3.0], 400))
    assert set(draws) == {1, 3} and 0.65 < draws.count(3) / 400 < 0.85
    paddle.seed(5)
    assert list(WeightedRandomSampler(np.array([0.0, 1.0, 0.0, 3.0]), 400)) == draws
    no_repeat = list(WeightedRandomSampler([1, 1, 1, 1], 4, replacement=False))
    assert sorted(no_repeat) == [0, 1, 2, 3]
    rows = WeightedRandomSampler(paddle.to_tensor([[1.0, 0.0], [0.0, 1.0]]), 3)
    assert len(rows) == 6 and list(rows) == [0, 0, 0, 1, 1, 1]
    with pytest.raises(ValueError, match="num_samples"):
        WeightedRandomSampler([1.0], 0)
    with pytest.raises(ValueError, match="weights.*finite non-negative"):
        WeightedRandomSampler([1.0, float("nan")], 2)
    with pytest.raises(ValueError, match="weights.*finite non-negative"):
        WeightedRandomSampler([1.0, -1.0], 2)
    with pytest.raises(ValueError, match="at least num_samples \\(3\\) positive"):
        WeightedRandomSampler([1.0, 0.0, 1.0], 3, replacement=False)


def test_subset_random_sampler_matches_paddle():
    paddle.seed(7)
    assert list(SubsetRandomSampler([10, 20, 30, 40])) == [20, 30, 10, 40]
    with pytest.raises(ValueError, match="indices"):
        SubsetRandomSampler([])


# PaddlePaddle 3.3.1: DistributedBatchSampler(list(range(11)), batch_size=2, ...) per rank.
@pytest.mark.parametrize("num_replicas, shuffle, drop_last, expected", [
    (1, False, False, [[[0, 1], [2, 3], [4, 5], [6, 7], [8, 9], [10]]]),
    (1, False, True, [[[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]]),
    (1, True, False, [[[4, 9], [2, 10], [6, 1], [7, 8], [3, 0], [5]]]),
    (3, False, False, [[[0, 1], [6, 7]], [[2, 3], [8, 9]], [[4, 5], [10, 0]]]),
    (3, True, True, [[[6, 0], [1, 7]], [[4, 10], [9, 3]], [[2, 8], [0, 5]]]),
])
def test_distributed_batch_sampler_partitions_as_paddle(num_replicas, shuffle, drop_last, expected):
    got = []
    for rank in range(num_replicas):
        sampler = DistributedBatchSampler(DATA, batch_size=2, num_replicas=num_replicas,
                                          rank=rank, shuffle=shuffle, drop_last=drop_last)
        got.append(list(sampler))
        assert len(sampler) == len(got[-1])
    assert got == expected


def test_distributed_batch_sampler_epochs_and_environment(monkeypatch):
    sampler = DistributedBatchSampler(DATA, 4, num_replicas=2, rank=1, shuffle=True)
    assert [list(sampler) for _ in range(2)] == [[[2, 8, 1, 7], [0, 5]], [[1, 6, 0, 7], [8, 5]]]
    assert sampler.epoch == 2
    sampler.set_epoch(5)
    assert list(sampler) == [[0, 4, 8, 1], [6, 3]]
    monkeypatch.setenv("PADDLE_TRAINERS_NUM", "4")
    monkeypatch.setenv("PADDLE_TRAINER_ID", "3")
    from_env = DistributedBatchSampler(list(range(8)), batch_size=1)
    assert (from_env.nranks, from_env.local_rank) == (4, 3)
    assert list(from_env) == [[3], [7]]
    with pytest.raises(ValueError, match="rank.*less than num_replicas"):
        DistributedBatchSampler(DATA, 2, num_replicas=2, rank=2)
    with pytest.raises(ValueError, match="num_replicas"):
        DistributedBatchSampler(DATA, 2, num_replicas=0)
    with pytest.raises(ValueError, match="batch_size"):
        DistributedBatchSampler(DATA, -1)
