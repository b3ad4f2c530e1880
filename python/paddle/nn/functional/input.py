"""embedding, written by hand for its padding_idx, max_norm and scale_grad_by_freq arguments
(one_hot is generated from the op declarations)."""
import numbers

from ... import _C_ops
from ...autograd import no_grad
from ...base import libpaddle
from ...tensor._helpers import check_tensor

__all__ = ["embedding"]


def embedding_renorm_(x, weight, max_norm, norm_type=2.0):
    """Scales down, in place and without recording a gradient, the rows of `weight` named in x
    whose `norm_type`-norm exceeds `max_norm` to that norm (by max_norm / (norm + 1e-7), as
    Paddle); returns weight."""
    from ... import index_select, norm, ones_like, scatter_, unique, where
    with no_grad():
        ids = unique(x)
        rows = index_select(weight, ids)
        norms = norm(rows, p=norm_type, axis=1, keepdim=True)
        scale = where(norms > max_norm, max_norm / (norms + 1e-7), ones_like(norms))
        scatter_(weight, ids, rows * scale, overwrite=True)
    return weight


def _scaled_by_frequency(x, out):
    """out, whose gradient reaches the weight divided by how often each row's id occurs in x:
    the value is out's, exactly (out + 0), and only the divided branch is differentiated."""
    from ... import gather, unique
    _, inverse, counts = unique(x, return_inverse=True, return_counts=True)
    frequency = gather(counts, inverse).reshape(list(x.shape) + [1]).astype(out.dtype)
    scaled = out / frequency
    return _detached(out) + (scaled - _detached(scaled))


def _detached(t):
    """t's value with no gradient path: detach() in dygraph, a stop_gradient copy in a static
    program (where the backward stops at stop_gradient variables)."""
    if not libpaddle._in_static_mode():
        return t.detach()
    from ... import assign
    copy = assign(t)
    copy.stop_gradient = True
    return copy


def embedding(x, weight, padding_idx=None, max_norm=None, norm_type=2.0, sparse=False,
              scale_grad_by_freq=False, name=None):
    """Looks up the rows of `weight` ([num_embeddings, embedding_dim]) named by the int32/int64
    ids in x: the result is [x.shape..., embedding_dim]. Ids equal to `padding_idx` (negative
    counts from the end) give zero rows and no gradient. With `max_norm`, the rows looked up are
    first renormalised in place to at most that `norm_type`-norm; with `scale_grad_by_freq`,
    each row's gradient is divided by how often its id occurs in x. `sparse` makes the weight's
    gradient a SelectedRows of the rows looked up."""
    check_tensor(x, "embedding")
    check_tensor(weight, "embedding", "weight")
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
    if max_norm and weight.size != 0:
        weight = embedding_renorm_(x, weight, max_norm=max_norm, norm_type=norm_type)
    if scale_grad_by_freq:
        if sparse:
            raise AttributeError("scale_grad_by_freq = True is not supported with sparse update.")
        return _scaled_by_frequency(x, _C_ops.embedding(x, weight, int(padding_idx), False))
    return _C_ops.embedding(x, weight, int(padding_idx), bool(sparse))
