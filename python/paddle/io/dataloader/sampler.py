"""Samplers: iterables of dataset indices. The random ones draw from paddle's generator
(paddle.randperm, paddle.randint, paddle.multinomial), so paddle.seed makes them repeat."""
import numpy as np

__all__ = ["Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler",
           "SubsetRandomSampler"]


class Sampler:
    """Base class: subclasses give `__iter__` (indices) and usually `__len__`."""

    def __init__(self, data_source=None):
        self.data_source = data_source

    def __iter__(self):
        raise NotImplementedError(f"'__iter__' not implement in class {type(self).__name__}")


class SequenceSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


def _positive_int(value, api, arg):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
        raise ValueError(f"{api}(): argument '{arg}' must be a positive integer, received "
                         f"{value!r}")
    return int(value)


class RandomSampler(Sampler):
    """A random permutation of the indices (the first `num_samples` of it), or `num_samples`
    independent draws when `replacement`. A `generator` is an iterator of indices that replaces
    the random draws."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(f"RandomSampler(): argument 'replacement' must be a bool, received "
                            f"{replacement!r}")
        if num_samples is not None:
            _positive_int(num_samples, "RandomSampler", "num_samples")
        if not replacement and self.num_samples > len(data_source):
            raise ValueError(f"RandomSampler(): argument 'num_samples' ({self.num_samples}) must "
                             f"not exceed the length of data_source ({len(data_source)}) when "
                             f"replacement is False")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else int(self._num_samples)

    def __iter__(self):
        if self.generator:
            for _ in range(self.num_samples):
                try:
                    yield next(self.generator)
                except StopIteration:
                    return
            return
        from ...tensor.random import randint, randperm

        n = len(self.data_source)
        if self.replacement:
            yield from randint(0, n, [self.num_samples]).tolist()
        else:
            yield from randperm(n).tolist()[:self.num_samples]

    def __len__(self):
        return self.num_samples


def _weights_array(weights):
    from ...base.libpaddle import Tensor

    if isinstance(weights, Tensor):
        weights = weights.numpy()
    weights = np.asarray(weights, dtype=np.float64)
    if weights.ndim not in (1, 2) or weights.shape[-1] == 0:
        raise ValueError(f"WeightedRandomSampler(): argument 'weights' must be a non-empty 1-D or "
                         f"2-D array, received shape {list(weights.shape)}")
    if not np.all(np.isfinite(weights)) or np.any(weights < 0):
        raise ValueError("WeightedRandomSampler(): argument 'weights' must hold finite "
                         "non-negative values")
    return weights.reshape(-1, weights.shape[-1])


class WeightedRandomSampler(Sampler):
    """`num_samples` indices drawn with probability proportional to `weights` (paddle.multinomial).
    2-D weights draw one sequence per row, one after the other."""

    def __init__(self, weights, num_samples, replacement=True):
        self.num_samples = _positive_int(num_samples, "WeightedRandomSampler", "num_samples")
        if not isinstance(replacement, bool):
            raise ValueError(f"WeightedRandomSampler(): argument 'replacement' must be a bool, "
                             f"received {replacement!r}")
        rows = _weights_array(weights)
        positive = (rows > 0).sum(axis=1)
        if np.any(positive == 0):
            raise ValueError("WeightedRandomSampler(): every row of 'weights' must hold a "
                             "positive value")
        if not replacement and np.any(positive < num_samples):
            raise ValueError(f"WeightedRandomSampler(): with replacement=False every row of "
                             f"'weights' needs at least num_samples ({num_samples}) positive "
                             f"values, received {positive.min()}")
        self.weights = weights
        self.replacement = replacement
        self._rows = rows

    def __iter__(self):
        from ...tensor.creation import to_tensor
        from ...tensor.random import multinomial

        draws = multinomial(to_tensor(self._rows / self._rows.sum(axis=1, keepdims=True)),
                            self.num_samples, self.replacement)
        return iter(draws.numpy().reshape(-1).tolist())

    def __len__(self):
        return self.num_samples * self._rows.shape[0]


class SubsetRandomSampler(Sampler):
    """The given indices in a random order."""

    def __init__(self, indices):
        if len(indices) == 0:
            raise ValueError("SubsetRandomSampler(): argument 'indices' must not be empty")
        self.indices = indices

    def __iter__(self):
        from ...tensor.random import randperm

        for i in randperm(len(self.indices)).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)
