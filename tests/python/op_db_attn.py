"""Harness entries (op_db.py) of flash_attn, its gradient kernel,
paddle.nn.functional.scaled_dot_product_attention and gelu's gradient kernel. The NumPy reference
of flash_attn replays the kernel's dropout draws (the hash of
paddle/kernels/funcs/flash_attention.cc), so dropout is compared exactly and its float64 gradient
checked numerically under a fixed seed."""
import math

import numpy as np

import paddle
import paddle.nn.functional as F
from harness import ErrorSample, OpInfo, Sample
from op_db import program_op, uniform

MASK64 = (1 << 64) - 1


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def keep_mask(seed, batch, heads, seq_q, seq_k, dropout):
    """[batch, heads, seq_q, seq_k]: 1 where the kernel keeps the weight. Row (b, h, i) hashes
    its key (from seed and the row's index) with each column; a weight is kept when the top 24
    bits of the hash, over 2^24, are >= dropout (read as float32)."""
    rows = batch * heads * seq_q
    keys = np.array([splitmix64((seed & MASK64) ^ splitmix64(r)) & 0xFFFFFFFF for r in range(rows)],
                    dtype=np.uint64)
    columns = np.arange(seq_k, dtype=np.uint64)
    x = (keys[:, None] + columns[None, :] * np.uint64(0x9E3779B9)) & np.uint64(0xFFFFFFFF)
    for shift, factor in ((16, 0x7FEB352D), (15, 0x846CA68B)):
        x ^= x >> np.uint64(shift)
        x = (x * np.uint64(factor)) & np.uint64(0xFFFFFFFF)
    x ^= x >> np.uint64(16)
    threshold = int(float(np.float32(dropout)) * 16777216.0)
    return ((x >> np.uint64(8)) >= threshold).reshape(batch, heads, seq_q, seq_k)


def heads_first(q, k, v):
    """q, k, v as [batch, heads, seq, dim], the kv heads repeated for their query heads."""
    group = q.shape[2] // k.shape[2]
    k, v = np.repeat(k, group, axis=2), np.repeat(v, group, axis=2)
    return (t.transpose(0, 2, 1, 3) for t in (q, k, v))


def attention_scores(q, k, attn_mask, causal):
    scores = q @ k.swapaxes(-1, -2) / math.sqrt(q.shape[-1])
    if causal:
        hidden = np.triu(np.ones(scores.shape[-2:], dtype=bool), 1)
        return np.where(hidden, -np.inf, scores)
    return scores if attn_mask is None else scores + attn_mask


def dropout_factor(seed, shape, dropout, is_test):
    """The factor each weight is multiplied by: kept / (1 - dropout), or 1 without dropout."""
    if dropout == 0 or is_test:
        return np.ones(shape)
    kept = keep_mask(seed, *shape, dropout)
    p = float(np.float32(dropout))
    return kept / (1 - p) if p < 1 else np.zeros(shape)


def flash_attn_np(q, k, v, fixed_seed_offset=None, attn_mask=None, dropout=0.0, causal=False,
                  is_test=False):
    """[out, softmax_lse] of flash_attn; a row whose keys are all masked has out 0, lse -inf."""
    qh, kh, vh = heads_first(q, k, v)
    scores = attention_scores(qh, kh, attn_mask, causal)
    row_max = scores.max(axis=-1, keepdims=True)
    finite_max = np.where(np.isfinite(row_max), row_max, 0.0)
    e = np.exp(scores - finite_max)
    total = e.sum(axis=-1, keepdims=True)
    weights = np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0)
    seed = 0 if fixed_seed_offset is None else int(fixed_seed_offset[0])
    weights = weights * dropout_factor(seed, weights.shape, dropout, is_test)
    lse = np.where(total[..., 0] > 0, finite_max[..., 0] + np.log(np.where(total > 0, total, 1.0))[..., 0],
                   -np.inf)
    return [(weights @ vh).transpose(0, 2, 1, 3), lse]


def flash_attn_op(q, k, v, fixed_seed_offset=None, attn_mask=None, dropout=0.0, causal=False,
                  is_test=False):
    out, _, lse, _ = paddle._C_ops.flash_attn(q, k, v, fixed_seed_offset, attn_mask, dropout, causal,
                                              False, is_test, "")
    return [out, lse]


def sdpa_np(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, training=True,
            scale=None):
    batched = query.ndim == 4
    if not batched:
        query, key, value = (t[None] for t in (query, key, value))
    if scale is not None:
        query = query * scale * math.sqrt(query.shape[-1])
    if attn_mask is not None and attn_mask.dtype == bool:
        attn_mask = np.where(attn_mask, 0.0, -np.inf)
    out = flash_attn_np(query, key, value, None, attn_mask, 0.0, is_causal)[0]
    return out if batched else out[0]


def flash_attn_grad_np(q, k, v, out, softmax_lse, seed_offset, attn_mask, out_grad, dropout=0.0,
                       causal=False):
    """[q_grad, k_grad, v_grad]: with weights p, dropout factors z and pd = p z,
    dv = pd^T dout, dpd = dout v^T, ds = p (dpd z - rowsum(dout out)), dq = ds k / sqrt(d),
    dk = ds^T q / sqrt(d), kv gradients summed over each kv head's query heads."""
    qh, kh, vh = heads_first(q, k, v)
    scores = attention_scores(qh, kh, attn_mask, causal)
    weights = np.exp(scores - softmax_lse[..., None])
    factor = dropout_factor(int(seed_offset[0]), weights.shape, dropout, False)
    dout = out_grad.transpose(0, 2, 1, 3)
    dv = (weights * factor).swapaxes(-1, -2) @ dout
    row_dot = (out_grad * out).sum(axis=-1).transpose(0, 2, 1)[..., None]
    ds = weights * ((dout @ vh.swapaxes(-1, -2)) * factor - row_dot)
    scale = 1 / math.sqrt(q.shape[-1])
    dq = (ds @ kh) * scale
    dk = (ds.swapaxes(-1, -2) @ qh) * scale
    group = q.shape[2] // k.shape[2]

    def per_kv_head(g):
        b, h, s, d = g.shape
        return g.reshape(b, h // group, group, s, d).sum(axis=2).transpose(0, 2, 1, 3)
    return [dq.transpose(0, 2, 1, 3), per_kv_head(dk), per_kv_head(dv)]


def flash_attn_grad_op(q, k, v, out, softmax_lse, seed_offset, attn_mask, out_grad, dropout=0.0,
                       causal=False):
    inputs = {"q": q, "k": k, "v": v, "out": out, "softmax_lse": softmax_lse,
              "seed_offset": seed_offset, "out@GRAD": out_grad}
    if attn_mask is not None:
        inputs["attn_mask"] = attn_mask
    return program_op("flash_attn_grad", inputs, {"q@GRAD": "q", "k@GRAD": "k", "v@GRAD": "v"},
                      {"dropout": dropout, "causal": causal})


def qkv(rng, batch, seq_q, seq_k, heads, head_dim, kv_heads=None, value_dim=None):
    kv_heads = kv_heads or heads
    return [uniform(rng, (batch, seq_q, heads, head_dim), -1.5, 1.5),
            uniform(rng, (batch, seq_k, kv_heads, head_dim), -1.5, 1.5),
            uniform(rng, (batch, seq_k, kv_heads, value_dim or head_dim))]


# The inputs differentiated: attn_mask gets no gradient (as from Paddle's flash_attn_grad).
QKV = [0, 1, 2]
SEED = np.array([20240611, 0], dtype=np.int64)


def flash_attn_samples(rng):
    # The last key of every row is left visible so no masked row is all -inf.
    hide_some = np.where(uniform(rng, (2, 1, 5, 6)) > 0.3, 0.0, -np.inf)
    hide_some[..., -1] = 0.0
    return [
        Sample(qkv(rng, 2, 5, 6, 2, 4)),
        Sample(qkv(rng, 1, 7, 7, 2, 3), {"causal": True}),
        Sample(qkv(rng, 2, 4, 9, 4, 3, kv_heads=2, value_dim=5)),                 # grouped heads
        Sample(qkv(rng, 2, 5, 6, 3, 4) + [None, uniform(rng, (2, 3, 5, 6), -2, 2)], grad_args=QKV),
        Sample(qkv(rng, 2, 5, 6, 2, 4) + [None, uniform(rng, (5, 6), -2, 2)], grad_args=QKV),
        Sample(qkv(rng, 2, 5, 6, 2, 4) + [None, hide_some], grad_args=QKV),
        Sample(qkv(rng, 2, 5, 6, 2, 4) + [None, uniform(rng, (1, 2, 1, 6), -2, 2)], grad_args=QKV),
        Sample(qkv(rng, 1, 70, 300, 1, 8)),                                        # several blocks
        Sample(qkv(rng, 1, 130, 130, 1, 4), {"causal": True}),
        Sample(qkv(rng, 2, 6, 5, 2, 4) + [SEED, None], {"dropout": 0.3}),
        Sample(qkv(rng, 1, 70, 260, 1, 4) + [SEED, None], {"dropout": 0.5, "causal": True}),
        Sample(qkv(rng, 2, 6, 5, 2, 4) + [SEED], {"dropout": 0.3, "is_test": True}),
        Sample(qkv(rng, 0, 3, 4, 2, 4), grad_args=[]),  # empty batch: nothing to differentiate
    ]


def flash_attn_grad_sample(rng, batch, seq_q, seq_k, heads, head_dim, kv_heads=None, mask=None,
                           dropout=0.0, causal=False):
    q, k, v = qkv(rng, batch, seq_q, seq_k, heads, head_dim, kv_heads)
    fixed = SEED if dropout else None
    out, lse = flash_attn_np(q, k, v, fixed, mask, dropout, causal)
    seed_offset = SEED if dropout else np.zeros(2, dtype=np.int64)
    return Sample([q, k, v, out, lse, seed_offset, mask, uniform(rng, out.shape)],
                  {"dropout": dropout, "causal": causal})


def sdpa_samples(rng):
    bool_mask = uniform(rng, (2, 1, 5, 6)) > 0.2
    bool_mask[..., 0] = True
    return [
        Sample(qkv(rng, 2, 5, 6, 2, 4)),
        Sample(qkv(rng, 2, 5, 6, 2, 4) + [bool_mask]),
        Sample(qkv(rng, 2, 5, 6, 2, 4) + [uniform(rng, (2, 2, 5, 6))], {"scale": 0.75}, grad_args=QKV),
        Sample(qkv(rng, 1, 6, 6, 2, 4) + [uniform(rng, (6, 6))], {"is_causal": True},  # mask ignored
               grad_args=QKV),
        Sample([t[0] for t in qkv(rng, 1, 5, 6, 2, 4)]),                                # unbatched
        Sample(qkv(rng, 2, 5, 6, 4, 4, kv_heads=2)),
        Sample(qkv(rng, 2, 5, 6, 2, 4), {"dropout_p": 0.4, "training": False}),
    ]


def sum_to_shape(value, shape):
    """value summed over the dims it was broadcast along from `shape` (a gradient's reduction)."""
    value = value.sum(axis=tuple(range(value.ndim - len(shape)))) if value.ndim > len(shape) else value
    axes = tuple(i for i, d in enumerate(shape) if d == 1 and value.shape[i] != 1)
    return value.sum(axis=axes, keepdims=True) if axes else value


def gelu_grad_np(x, out_grad, approximate=False):
    """out_grad * gelu'(x), summed to x's shape where out_grad broadcast it."""
    if approximate:
        k, c = math.sqrt(2 / math.pi), 0.044715
        t = np.tanh(k * (x + c * x ** 3))
        slope = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * c * x * x)
    else:
        cdf = 0.5 * (1 + np.vectorize(math.erf, otypes=[float])(x / math.sqrt(2)))
        slope = cdf + x * np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
    return sum_to_shape(out_grad * slope, np.shape(x))


def gelu_grad_op(x, out_grad, approximate=False):
    return program_op("gelu_grad", {"X": x, "Out@GRAD": out_grad}, {"X@GRAD": "X"},
                      {"approximate": approximate})[0]


def zeros(*shape):
    return np.zeros(shape)


ATTENTION_OPS = [
    OpInfo("flash_attn", flash_attn_op, flash_attn_np, flash_attn_samples, grad_outputs=[0],
           atol=1e-5, rtol=1e-4,
           nonfinite_reason="a row whose scores are all -inf (masked) gives out 0 and lse -inf, "
                            "where a NaN score gives NaN; the reference models the masked rows only",
           errors=lambda: [
               ErrorSample([zeros(2, 3, 2, 4), zeros(2, 3, 2, 5), zeros(2, 3, 2, 4)], {}, ValueError,
                           "flash_attn: the head_dim of 'q' and 'k' must agree"),
               ErrorSample([zeros(2, 3, 2, 4), zeros(3, 3, 2, 4), zeros(3, 3, 2, 4)], {}, ValueError,
                           "flash_attn: the batch sizes"),
               ErrorSample([zeros(2, 3, 2, 4), zeros(2, 3, 2, 4), zeros(2, 4, 2, 4)], {}, ValueError,
                           "one sequence length"),
               ErrorSample([zeros(2, 3, 3, 4), zeros(2, 3, 2, 4), zeros(2, 3, 2, 4)], {}, ValueError,
                           "must be a multiple of the heads"),
               ErrorSample([zeros(3, 2, 4), zeros(3, 2, 4), zeros(3, 2, 4)], {}, ValueError,
                           "argument 'q' must be 4-D"),
               ErrorSample([zeros(2, 3, 2, 4), zeros(2, 5, 2, 4), zeros(2, 5, 2, 4), None,
                            zeros(2, 2, 3, 4)], {}, ValueError,
                           "argument 'attn_mask' must be 2-D to 4-D and broadcastable to "
                           "[batch, num_heads, seq_len_q, seq_len_k] = [2, 2, 3, 5], received "
                           "shape [2, 2, 3, 4]"),
               ErrorSample([zeros(2, 3, 2, 4), zeros(2, 5, 2, 4), zeros(2, 5, 2, 4), None, zeros(5)],
                           {}, ValueError, "'attn_mask' must be 2-D to 4-D"),
               ErrorSample([zeros(2, 3, 2, 4), zeros(2, 3, 2, 4), zeros(2, 3, 2, 4)], {"dropout": 1.5},
                           ValueError, "flash_attn: attribute 'dropout' must be in [0, 1]"),
               ErrorSample([zeros(2, 3, 2, 4), zeros(2, 3, 2, 4), zeros(2, 3, 2, 4),
                            np.zeros(3, dtype=np.int64)], {"dropout": 0.5}, ValueError,
                           "'fixed_seed_offset' must hold 2 elements"),
               ErrorSample([np.zeros((2, 3, 2, 4), dtype=np.int32)] * 3, {}, TypeError,
                           "flash_attn: argument 'q' must be float32 or float64")]),
    OpInfo("flash_attn_grad", flash_attn_grad_op, flash_attn_grad_np, lambda rng: [
        flash_attn_grad_sample(rng, 2, 5, 6, 2, 4),
        flash_attn_grad_sample(rng, 1, 7, 7, 2, 3, causal=True),
        flash_attn_grad_sample(rng, 2, 4, 9, 4, 3, kv_heads=2),
        flash_attn_grad_sample(rng, 2, 5, 6, 2, 4, mask=uniform(rng, (1, 2, 5, 6), -2, 2)),
        flash_attn_grad_sample(rng, 1, 70, 300, 1, 4),
        flash_attn_grad_sample(rng, 2, 6, 5, 2, 4, dropout=0.3)],
        atol=1e-5, rtol=1e-4, grad=False,
        no_grad_reason="a gradient kernel without a gradient of its own; it is checked as the "
                       "first-order gradient of the flash_attn entry"),
    OpInfo("scaled_dot_product_attention", F.scaled_dot_product_attention, sdpa_np, sdpa_samples,
           covers=["flash_attn"], atol=1e-5, rtol=1e-4,
           errors=lambda: [
               ErrorSample([zeros(2, 3, 2, 4), zeros(2, 3, 2, 4), zeros(3, 2, 4)], {}, ValueError,
                           "scaled_dot_product_attention(): 'query', 'key' and 'value' must all be"),
               ErrorSample([zeros(2, 3, 4, 4), zeros(2, 3, 2, 4), zeros(2, 3, 2, 4)],
                           {"enable_gqa": False}, ValueError, "one number of heads"),
               ErrorSample([zeros(2, 3, 3, 4), zeros(2, 3, 2, 4), zeros(2, 3, 2, 4)], {}, ValueError,
                           "must be a multiple of those of 'key'"),
               ErrorSample([zeros(2, 3, 2, 4), zeros(2, 3, 2, 4), zeros(2, 3, 2, 4)], {"dropout_p": 2.0},
                           ValueError, "'dropout_p' must be a float in [0, 1]"),
               ErrorSample([zeros(2, 3, 2, 4), zeros(2, 3, 2, 4), zeros(2, 3, 2, 4), zeros(4, 3)], {},
                           ValueError, "flash_attn: argument 'attn_mask'"),
               ErrorSample([[1.0], zeros(2, 3, 2, 4), zeros(2, 3, 2, 4)], {}, TypeError,
                           "argument 'query' must be a Tensor")]),
    OpInfo("gelu_grad", gelu_grad_op, gelu_grad_np, lambda rng: [
        Sample([uniform(rng, (3, 40), -6, 6), uniform(rng, (3, 40))]),
        Sample([uniform(rng, (2, 3, 5), -4, 4), uniform(rng, (2, 3, 5))], {"approximate": True})],
        grad=False,
        no_grad_reason="checked as the first-order gradient of the gelu entries, and its own gradient "
                       "(gelu_double_grad) by their second-order check"),
]
