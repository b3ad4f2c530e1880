"""scaled_dot_product_attention: argument handling Paddle does in Python (3-D inputs, boolean
masks, a custom scale, grouped-query heads) around the one fused op flash_attn."""
import math
import numbers

from ... import _C_ops
from ...base.libpaddle import DataType
from ...tensor._helpers import check_tensor

__all__ = ["scaled_dot_product_attention"]

_API = "scaled_dot_product_attention"


def _additive_mask(attn_mask, dtype):
    """A boolean mask (True: take part) as 0 / -inf in q's dtype; other masks are added as given."""
    from ...tensor.creation import full
    from ...tensor.search import where
    if attn_mask.dtype == DataType.BOOL:
        return where(attn_mask, full([], 0.0, dtype), full([], -math.inf, dtype))
    return attn_mask


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                                 training=True, backend=None, scale=None, enable_gqa=True,
                                 name=None):
    """softmax(query key^T * scale + attn_mask) value over each batch and head, for query
    [batch, seq_len, num_heads, head_dim] (or without the batch dim) and key and value
    [batch, seq_len_kv, num_heads_kv, head_dim]. scale defaults to 1 / sqrt(head_dim). A bool
    attn_mask marks the pairs that take part; a float one is added to the scores; either
    broadcasts to [batch, num_heads, seq_len, seq_len_kv]. is_causal hides key j from query
    i > j and ignores attn_mask. dropout_p drops attention weights while training. With
    enable_gqa, num_heads may be a multiple of num_heads_kv (query head h reads kv head
    h // (num_heads // num_heads_kv)). One flash_attn op: the CPU kernel never forms the
    [seq_len, seq_len_kv] weights of a whole head."""
    for arg, value_ in (("query", query), ("key", key), ("value", value)):
        check_tensor(value_, _API, arg)
    if backend not in (None, "p2p"):
        raise ValueError(f"{_API}(): 'backend' must be None or 'p2p', but received {backend!r}")
    if not isinstance(dropout_p, numbers.Real) or not 0 <= dropout_p <= 1:
        raise ValueError(f"{_API}(): 'dropout_p' must be a float in [0, 1], but received "
                         f"{dropout_p!r}")
    ranks = {len(t.shape) for t in (query, key, value)}
    if ranks not in ({3}, {4}):
        raise ValueError(f"{_API}(): 'query', 'key' and 'value' must all be 4-D [batch, seq_len, "
                         f"num_heads, head_dim] or all 3-D, but received shapes {query.shape}, "
                         f"{key.shape} and {value.shape}")
    batched = ranks == {4}
    if not batched:
        query, key, value = (t.unsqueeze(0) for t in (query, key, value))
    q_heads, k_heads, v_heads = query.shape[2], key.shape[2], value.shape[2]
    if enable_gqa:
        if k_heads != v_heads or (k_heads > 0 and q_heads % k_heads != 0):
            raise ValueError(f"{_API}(): with enable_gqa the heads of 'query' ({q_heads}) must be a "
                             f"multiple of those of 'key' ({k_heads}), which must equal those of "
                             f"'value' ({v_heads})")
    elif not q_heads == k_heads == v_heads:
        raise ValueError(f"{_API}(): without enable_gqa 'query', 'key' and 'value' must have one "
                         f"number of heads, but received {q_heads}, {k_heads} and {v_heads}")
    if scale is not None:
        # flash_attn scales by 1 / sqrt(head_dim); fold the rest of the requested scale into q.
        head_dim = query.shape[-1]
        query = _C_ops.scale(query, float(scale) * math.sqrt(head_dim), 0.0, True)
    if is_causal:
        attn_mask = None
    elif attn_mask is not None:
        attn_mask = _additive_mask(check_tensor(attn_mask, _API, "attn_mask"), query.dtype)
    out = _C_ops.flash_attn(query, key, value, None, attn_mask, float(dropout_p), bool(is_causal),
                            False, not training, "")[0]
    return out if batched else out.squeeze(0)
