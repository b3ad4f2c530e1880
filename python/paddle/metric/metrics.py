"""Metric functions built from ops, so they work in dygraph and in static programs alike."""
from ..base.generated_api import any, reshape
from ..tensor.stat import mean
from ..base.libpaddle import DataType, Tensor
from ..tensor import creation, logic, math, search, stat

__all__ = ["accuracy"]


def accuracy(input, label, k=1, correct=None, total=None, name=None):
    """The fraction of rows whose `label` ([N, 1]) is among the `k` largest scores of `input`
    ([N, C]), as a float32 0-d tensor. `correct` and `total`, when given, receive the counts."""
    if not isinstance(input, Tensor) or not isinstance(label, Tensor):
        raise TypeError("accuracy(): 'input' and 'label' must be Tensors")
    if len(label.shape) != 2 or label.shape[1] not in (1, -1):
        raise ValueError(f"accuracy(): 'label' must have shape [N, 1], but received shape "
                         f"{label.shape}")
    if len(input.shape) != 2:
        raise ValueError(f"accuracy(): 'input' must have shape [N, C], but received shape "
                         f"{input.shape}")
    _, indices = search.topk(input, k)
    if label.dtype != indices.dtype:
        label = label.astype(indices.dtype)
    hits = any(logic.equal(indices, label), axis=1).astype(DataType.FLOAT32)
    result = mean(hits)
    if correct is not None:
        count = math.sum(hits).astype(correct.dtype)
        creation.assign(reshape(count, correct.shape), correct)
    if total is not None:
        count = stat.numel(hits).astype(total.dtype)
        creation.assign(reshape(count, total.shape), total)
    return result
