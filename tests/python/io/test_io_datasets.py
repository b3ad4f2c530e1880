"""paddle.io datasets: map-style and iterable bases, TensorDataset, ComposeDataset, ChainDataset,
Subset, ConcatDataset and random_split (index lists recorded from PaddlePaddle 3.3.1 with the
same paddle.seed)."""
import numpy as np
import pytest

import paddle
from paddle.io import (ChainDataset, ComposeDataset, ConcatDataset, Dataset, IterableDataset,
                       Subset, TensorDataset, random_split)


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __getitem__(self, idx):
        return np.array([idx * idx]), idx

    def __len__(self):
        return self.n


class Count(IterableDataset):
    def __init__(self, start, stop):
        self.start, self.stop = start, stop

    def __iter__(self):
        return iter(range(self.start, self.stop))


def test_base_classes_name_the_missing_method():
    with pytest.raises(NotImplementedError, match="__getitem__.*Dataset"):
        Dataset()[0]
    with pytest.raises(NotImplementedError, match="__len__"):
        len(Dataset())
    with pytest.raises(NotImplementedError, match="__iter__"):
        iter(IterableDataset())
    with pytest.raises(RuntimeError, match="__len__.*IterableDataset"):
        len(Count(0, 3))
    with pytest.raises(RuntimeError, match="__getitem__.*IterableDataset"):
        Count(0, 3)[0]


def test_tensor_dataset_rows():
    x = paddle.to_tensor(np.arange(12, dtype="float32").reshape([4, 3]))
    y = paddle.to_tensor(np.arange(4))
    dataset = TensorDataset([x, y])
    assert len(dataset) == 4
    row, label = dataset[2]
    np.testing.assert_array_equal(row.numpy(), [6, 7, 8])
    assert int(label) == 2
    with pytest.raises(ValueError, match="tensors.*same first dimension"):
        TensorDataset([x, paddle.to_tensor(np.arange(3))])


def test_compose_dataset_flattens_fields():
    dataset = ComposeDataset([Squares(3), Squares(3)])
    assert len(dataset) == 3
    sample = dataset[2]
    assert isinstance(sample, tuple) and len(sample) == 4
    assert sample[1] == 2 and sample[3] == 2
    with pytest.raises(ValueError, match="same length.*\\[3, 4\\]"):
        ComposeDataset([Squares(3), Squares(4)])
    with pytest.raises(TypeError, match="IterableDataset"):
        ComposeDataset([Count(0, 2)])
    with pytest.raises(ValueError, match="datasets"):
        ComposeDataset([])


def test_chain_dataset():
    # list() would ask for a length, which an IterableDataset refuses (as in Paddle).
    assert [x for x in ChainDataset([Count(0, 2), Count(5, 7)])] == [0, 1, 5, 6]
    with pytest.raises(TypeError, match="IterableDataset"):
        ChainDataset([Squares(2)])


def test_subset_and_concat():
    subset = Subset(Squares(10), [9, 0, 4])
    assert len(subset) == 3 and subset[0][1] == 9 and subset[2][1] == 4
    concat = ConcatDataset([Squares(2), Squares(3)])
    assert len(concat) == 5 and concat.cumulative_sizes == [2, 5]
    assert [concat[i][1] for i in range(5)] == [0, 1, 0, 1, 2]
    assert concat[-1][1] == 2 and concat[-5][1] == 0
    with pytest.raises(IndexError, match="index 5"):
        concat[5]
    with pytest.raises(IndexError, match="index -6"):
        concat[-6]
    with pytest.raises(TypeError, match="IterableDataset"):
        ConcatDataset([Count(0, 1)])


# PaddlePaddle 3.3.1, after paddle.seed(7), returns these index lists.
@pytest.mark.parametrize("n, lengths, expected", [
    (10, [0.3, 0.3, 0.4], [[9, 2, 7], [6, 4, 1], [8, 0, 3, 5]]),
    (10, [3, 7], [[9, 2, 7], [6, 4, 1, 8, 0, 3, 5]]),
    (7, [0.5, 0.5], [[2, 0, 3, 4], [5, 6, 1]]),  # the remainder goes to the first split
])
def test_random_split_matches_paddle(n, lengths, expected):
    paddle.seed(7)
    subsets = random_split(list(range(n)), lengths)
    assert [list(s.indices) for s in subsets] == expected
    assert sorted(i for s in subsets for i in s.indices) == list(range(n))


def test_random_split_fraction_lengths_and_errors():
    paddle.seed(1)
    assert [len(s) for s in random_split(list(range(5)), [0.25, 0.25, 0.5])] == [2, 1, 2]
    with pytest.warns(UserWarning, match="index 1 is empty"):
        assert [len(s) for s in random_split(list(range(2)), [0.9, 0.1])] == [2, 0]
    with pytest.raises(ValueError, match="does not equal the length of the dataset \\(10\\)"):
        random_split(list(range(10)), [3, 3])
    with pytest.raises(ValueError, match="index 0 .*between 0 and 1"):
        random_split(list(range(10)), [-0.5, 1.5])
