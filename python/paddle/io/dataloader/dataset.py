"""Datasets: the map-style `Dataset` (indexed by integers) and the stream-style `IterableDataset`,
with the wrappers that combine them (Tensor columns, composed fields, chains, subsets,
concatenations) and `random_split`."""
import bisect
import math
import warnings

from ...base.framework import in_dynamic_mode

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset",
           "Subset", "random_split", "ConcatDataset"]


class Dataset:
    """A map-style dataset: subclasses give `__getitem__(idx)` and `__len__()`."""

    def __init__(self):
        pass

    def __getitem__(self, idx):
        raise NotImplementedError(f"'__getitem__' not implement in class {type(self).__name__}")

    def __len__(self):
        raise NotImplementedError(f"'__len__' not implement in class {type(self).__name__}")


class IterableDataset(Dataset):
    """A stream of samples: subclasses give `__iter__()`. With DataLoader workers each worker
    iterates its own copy, so a dataset that should not repeat samples splits its stream by
    `paddle.io.get_worker_info()`."""

    def __init__(self):
        pass

    def __iter__(self):
        raise NotImplementedError(f"'__iter__' not implement in class {type(self).__name__}")

    def __getitem__(self, idx):
        raise RuntimeError(f"'__getitem__' should not be called for IterableDataset "
                           f"{type(self).__name__}")

    def __len__(self):
        raise RuntimeError(f"'__len__' should not be called for IterableDataset "
                           f"{type(self).__name__}")


class TensorDataset(Dataset):
    """Rows of Tensors that share their first dimension: sample i is (t[i] for t in tensors)."""

    def __init__(self, tensors):
        if not in_dynamic_mode():
            raise RuntimeError("TensorDataset can only be used in dynamic (imperative) mode")
        tensors = list(tensors)
        if not tensors:
            raise ValueError("TensorDataset(): argument 'tensors' must hold at least one Tensor")
        rows = [t.shape[0] if len(t.shape) else None for t in tensors]
        if None in rows or len(set(rows)) != 1:
            raise ValueError(f"TensorDataset(): the tensors in 'tensors' must have the same first "
                             f"dimension, received shapes {[list(t.shape) for t in tensors]}")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]


def _check_map_style(datasets, api):
    datasets = list(datasets)
    if not datasets:
        raise ValueError(f"{api}(): argument 'datasets' must not be empty")
    for dataset in datasets:
        if isinstance(dataset, IterableDataset):
            raise TypeError(f"{api}(): argument 'datasets' must hold map-style datasets, "
                            f"received the IterableDataset {type(dataset).__name__}")
    return datasets


class ComposeDataset(Dataset):
    """Datasets of equal length side by side: sample i is the fields of every dataset's sample
    i, flattened into one tuple."""

    def __init__(self, datasets):
        self.datasets = _check_map_style(datasets, "ComposeDataset")
        for dataset in self.datasets:
            if not isinstance(dataset, Dataset):
                raise TypeError(f"ComposeDataset(): argument 'datasets' must hold paddle.io.Dataset "
                                f"objects, received {type(dataset).__name__}")
        lengths = [len(dataset) for dataset in self.datasets]
        if len(set(lengths)) != 1:
            raise ValueError(f"ComposeDataset(): the datasets must have the same length, "
                             f"received lengths {lengths}")

    def __len__(self):
        return len(self.datasets[0])

    def __getitem__(self, idx):
        fields = []
        for dataset in self.datasets:
            sample = dataset[idx]
            fields.extend(sample if isinstance(sample, (list, tuple)) else [sample])
        return tuple(fields)


class ChainDataset(IterableDataset):
    """IterableDatasets one after the other."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("ChainDataset(): argument 'datasets' must not be empty")
        for dataset in self.datasets:
            if not isinstance(dataset, IterableDataset):
                raise TypeError(f"ChainDataset(): argument 'datasets' must hold "
                                f"paddle.io.IterableDataset objects, received "
                                f"{type(dataset).__name__}")

    def __iter__(self):
        for dataset in self.datasets:
            yield from dataset


class Subset(Dataset):
    """The samples of `dataset` at `indices`, in that order."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def _lengths_from_fractions(fractions, total):
    """Paddle's rule: each split gets floor(total * fraction) samples, and the remainder goes one
    sample at a time to the splits in order."""
    lengths = []
    for i, fraction in enumerate(fractions):
        if fraction < 0 or fraction > 1:
            raise ValueError(f"random_split(): the fraction at index {i} of 'lengths' must be "
                             f"between 0 and 1, received {fraction}")
        lengths.append(int(math.floor(total * fraction)))
    for i in range(total - sum(lengths)):
        lengths[i % len(lengths)] += 1
    for i, length in enumerate(lengths):
        if length == 0:
            warnings.warn(f"random_split(): the split at index {i} is empty", stacklevel=3)
    return lengths


def random_split(dataset, lengths, generator=None):
    """Splits `dataset` into non-overlapping random Subsets of the given lengths. Lengths that
    sum to 1 are fractions of len(dataset). The permutation is paddle.randperm's, so paddle.seed
    repeats it."""
    from ...tensor.random import randperm

    lengths = list(lengths)
    if not lengths:
        raise ValueError("random_split(): argument 'lengths' must not be empty")
    total = sum(lengths)
    if math.isclose(total, 1) and total <= 1:
        lengths = _lengths_from_fractions(lengths, len(dataset))
    for length in lengths:
        if int(length) != length or length < 0:
            raise ValueError(f"random_split(): argument 'lengths' must hold non-negative integers "
                             f"or fractions summing to 1, received {lengths}")
    lengths = [int(length) for length in lengths]
    if sum(lengths) != len(dataset):
        raise ValueError(f"random_split(): the sum of 'lengths' ({sum(lengths)}) does not equal "
                         f"the length of the dataset ({len(dataset)})")
    indices = randperm(sum(lengths)).tolist()
    subsets, start = [], 0
    for length in lengths:
        subsets.append(Subset(dataset, indices[start:start + length]))
        start += length
    return subsets


class ConcatDataset(Dataset):
    """Map-style datasets one after the other: index i runs through the first dataset, then the
    second, and so on. Negative indices count from the end."""

    @staticmethod
    def cumsum(sequence):
        sizes, total = [], 0
        for dataset in sequence:
            total += len(dataset)
            sizes.append(total)
        return sizes

    def __init__(self, datasets):
        self.datasets = _check_map_style(datasets, "ConcatDataset")
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if not -len(self) <= idx < len(self):
            raise IndexError(f"ConcatDataset: index {idx} is out of range for a dataset of "
                             f"length {len(self)}")
        if idx < 0:
            idx += len(self)
        dataset_idx = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[dataset_idx - 1] if dataset_idx > 0 else 0
        return self.datasets[dataset_idx][idx - start]
