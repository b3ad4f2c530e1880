"""paddle.io.DataLoader in the main process (num_workers=0): what batches look like (the
structures PaddlePaddle 3.3.1 returns), batch_size=None, IterableDatasets, shuffling under
paddle.seed, and the argument checks."""
import numpy as np
import pytest

import paddle
from paddle.io import BatchSampler, DataLoader, Dataset, IterableDataset
from paddle.io.dataloader.collate import default_collate_fn, default_convert_fn


class Records(Dataset):
    def __init__(self, n=5):
        self.n = n

    def __getitem__(self, i):
        return {"x": np.full([2], i, "float32"), "y": i, "name": f"r{i}",
                "pair": [i, float(i)], "t": paddle.to_tensor([i])}

    def __len__(self):
        return self.n


class Pairs(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return np.array([i]), i


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            yield np.array([i], "float32"), i


def values(batches, field=None):
    return [(b if field is None else b[field]).numpy().reshape(-1).tolist() for b in batches]


def test_dict_batches_keep_their_structure():
    loader = DataLoader(Records(), batch_size=2)
    assert len(loader) == 3
    batch = next(iter(loader))
    assert set(batch) == {"x", "y", "name", "pair", "t"}
    assert isinstance(batch["x"], paddle.Tensor) and batch["x"].dtype == paddle.float32
    assert batch["x"].shape == [2, 2]
    assert batch["y"].dtype == paddle.int64 and batch["y"].numpy().tolist() == [0, 1]
    assert batch["name"] == ["r0", "r1"]
    assert [p.dtype for p in batch["pair"]] == [paddle.int64, paddle.float64]
    assert batch["t"].shape == [2, 1]


def test_batches_are_lists_and_the_last_one_is_short():
    batches = list(DataLoader(Pairs(), batch_size=2))
    assert [type(b) for b in batches] == [list] * 3
    assert values(batches, 0) == [[0, 1], [2, 3], [4]]
    assert values(batches, 1) == [[0, 1], [2, 3], [4]]
    assert len(list(DataLoader(Pairs(), batch_size=2, drop_last=True))) == 2
    single = list(DataLoader(list(np.arange(4.0)), batch_size=3))
    assert isinstance(single[0], paddle.Tensor) and values(single) == [[0, 1, 2], [3]]


def test_batch_size_none_converts_samples_one_by_one():
    samples = list(DataLoader(Pairs(), batch_size=None))
    assert len(samples) == 5
    array, label = samples[3]
    assert isinstance(array, paddle.Tensor) and array.shape == [1] and label == 3
    assert len(DataLoader(Pairs(), batch_size=None)) == 5


def test_custom_collate_fn_and_batch_sampler():
    loader = DataLoader(list(range(6)), batch_sampler=BatchSampler(sampler=[5, 1, 3], batch_size=2),
                        collate_fn=lambda b: (np.array(b) * 10, "tag"))
    batches = list(loader)
    assert values(batches, 0) == [[50, 10], [30]] and batches[0][1] == "tag"
    assert len(loader) == 2


def test_iterable_dataset_batches_and_length():
    # Iterated, not list()ed: list() asks for the length, which an IterableDataset's loader
    # refuses (as Paddle's does).
    loader = DataLoader(Stream(5), batch_size=2)
    assert values([b for b in loader], 0) == [[0, 1], [2, 3], [4]]
    dropping = DataLoader(Stream(5), batch_size=2, drop_last=True)
    assert values([b for b in dropping], 0) == [[0, 1], [2, 3]]
    with pytest.raises(ValueError, match="length of IterableDataset"):
        len(loader)


def test_shuffle_repeats_under_paddle_seed_and_covers_every_sample():
    paddle.seed(11)
    first = values(DataLoader(list(range(20)), batch_size=5, shuffle=True))
    paddle.seed(11)
    assert values(DataLoader(list(range(20)), batch_size=5, shuffle=True)) == first
    assert sorted(sum(first, [])) == list(range(20)) and sum(first, []) != list(range(20))


def test_default_collate_and_convert():
    collated = default_collate_fn([(np.ones(2), 1.5, "a"), (np.zeros(2), 2.5, "b")])
    assert collated[0].shape == (2, 2) and collated[1].tolist() == [1.5, 2.5]
    assert collated[2] == ["a", "b"]
    stacked = default_collate_fn([paddle.ones([3]), paddle.zeros([3])])
    assert isinstance(stacked, paddle.Tensor) and stacked.shape == [2, 3]
    with pytest.raises(RuntimeError, match="same number of fields"):
        default_collate_fn([(1, 2), (1,)])
    with pytest.raises(TypeError, match="received set"):
        default_collate_fn([{1}, {2}])
    converted = default_convert_fn((np.ones(1), {"k": (1, "s")}))
    assert isinstance(converted, list) and converted[1] == {"k": [1, "s"]}


@pytest.mark.parametrize("result", [{1, 2}, object(), 5, None], ids=["set", "object", "int", "none"])
def test_collate_fn_returning_a_non_batch_is_a_type_error(result):
    loader = DataLoader(list(range(4)), batch_size=2, collate_fn=lambda batch: result)
    with pytest.raises(TypeError, match=f"collate_fn .*returned {type(result).__name__}"):
        next(iter(loader))


@pytest.mark.parametrize("kwargs, argument", [
    ({"batch_size": 0}, "batch_size"),
    ({"batch_size": -2}, "batch_size"),
    ({"num_workers": -1}, "num_workers"),
    ({"timeout": -1}, "timeout"),
    ({"prefetch_factor": 0}, "prefetch_factor"),
    ({"batch_sampler": BatchSampler(list(range(4))), "batch_size": 2}, "batch_size=2"),
    ({"batch_sampler": BatchSampler(list(range(4))), "shuffle": True}, "shuffle=True"),
    ({"batch_sampler": BatchSampler(list(range(4))), "drop_last": True}, "drop_last=True"),
])
def test_bad_arguments_name_the_argument(kwargs, argument):
    with pytest.raises(ValueError, match=argument):
        DataLoader(list(range(4)), **kwargs)


def test_iterable_dataset_rejects_shuffle_and_batch_sampler():
    with pytest.raises(ValueError, match="shuffle"):
        DataLoader(Stream(3), shuffle=True)
    with pytest.raises(ValueError, match="batch_sampler"):
        DataLoader(Stream(3), batch_sampler=BatchSampler(list(range(3))))
