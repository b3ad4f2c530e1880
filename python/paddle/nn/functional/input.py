"""embedding, written by hand for its padding_idx and max_norm arguments (one_hot is generated
from the op declarations)."""
import numbers

from ... import _C_ops
from ...tensor._helpers import check_tensor

__all__ = ["embedding"]


def embedding(x, weight, padding_idx=None, max_norm=None, norm_type=2.0, sparse=False, name=None):
    """Looks up the rows of `weight` ([num_embeddings, embedding_dim]) named by the int32/int64
    ids in x: the result is [x.shape..., embedding_dim]. Ids equal to `padding_idx` (negative
    counts from the end) give zero rows and no gradient. `sparse` is accepted for Paddle
    compatibility; the gradient is always dense."""
    check_tensor(x, "embedding")
    check_tensor(weight, "embedding", "weight")
    if max_norm is not None:
        raise NotImplementedError("embedding(): 'max_norm' is not supported yet")
    if len(weight.shape) != 2:
        raise ValueError(f"embedding(): argument 'weight' must be 2-D, but received shape "
                         f"{weight.shape}")
    rows = weight.shape[0]
    if padding_idx is None:
        padding_idx = -1
    else:
        if not isinstance(padding_idx, numbers.Integral) or isinstance(padding_idx, bool):
            raise TypeError(f"embedding(): 'padding_idx' must be an int, but received "
                            f"{type(padding_idx).__name__}")
        if padding_idx >= rows or padding_idx < -rows:
            raise ValueError(f"embedding(): 'padding_idx' must be within [-{rows}, {rows}), but "
                             f"received {padding_idx}")
        padding_idx = padding_idx if padding_idx >= 0 else rows + padding_idx
    return _C_ops.embedding(x, weight, int(padding_idx), bool(sparse))
