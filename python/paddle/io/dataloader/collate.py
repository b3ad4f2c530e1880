"""How a list of samples becomes a batch (`default_collate_fn`) and how a sample is passed on
unbatched when batch_size is None (`default_convert_fn`)."""
import numbers
from collections.abc import Mapping, Sequence

import numpy as np

from ...base.libpaddle import Tensor

__all__ = ["default_collate_fn", "default_convert_fn"]


def default_collate_fn(batch):
    """Stacks the samples field by field: numpy arrays with numpy.stack, Tensors with
    paddle.stack, numbers into a numpy array; strings stay a list; dicts and sequences are
    collated per key / per position. The DataLoader turns the numpy arrays into Tensors."""
    sample = batch[0]
    if isinstance(sample, np.ndarray):
        return np.stack(batch, axis=0)
    if isinstance(sample, Tensor):
        from ...tensor.manipulation import stack

        return stack(batch, axis=0)
    if isinstance(sample, numbers.Number):
        return np.array(batch)
    if isinstance(sample, (str, bytes)):
        return batch
    if isinstance(sample, Mapping):
        return {key: default_collate_fn([d[key] for d in batch]) for key in sample}
    if isinstance(sample, Sequence):
        fields = len(sample)
        if any(len(s) != fields for s in batch):
            raise RuntimeError(f"default_collate_fn: the samples of a batch must have the same "
                               f"number of fields, received {[len(s) for s in batch]}")
        return [default_collate_fn(list(column)) for column in zip(*batch)]
    raise TypeError(f"default_collate_fn: a batch can hold only Tensors, numpy arrays, numbers, "
                    f"strings, dicts and sequences, received {type(sample).__name__}")


def default_convert_fn(batch):
    """Leaves Tensors, arrays and strings alone and rebuilds dicts and sequences as dicts and
    lists of converted items."""
    if isinstance(batch, (Tensor, np.ndarray, str, bytes)):
        return batch
    if isinstance(batch, Mapping):
        return {key: default_convert_fn(batch[key]) for key in batch}
    if isinstance(batch, Sequence):
        return [default_convert_fn(item) for item in batch]
    return batch
