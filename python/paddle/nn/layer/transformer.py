"""MultiHeadAttention and the Transformer layers, with Paddle's constructor arguments, parameter
names and shapes (so Paddle's state dicts load) and its caches for incremental decoding.

Attention without need_weights runs as one fused flash_attn op on q, k and v in [batch, seq_len,
num_heads, head_dim] (no transposes, no [seq_len, seq_len] weights kept); need_weights takes the
explicit matmul / softmax / dropout path, which returns the weights. Caches hold k and v as
[batch, num_heads, seq_len, head_dim], Paddle's layout, so caches built for Paddle work here."""
import collections
import copy
import numbers

import numpy as np

from ... import _C_ops
from ...base.framework import get_default_dtype, is_floating
from ...base.libpaddle import DataType
from .. import functional as F
from ..param_attr import ParamAttr
from .common import Dropout, Linear
from .container import LayerList
from .layers import Layer
from .norm import LayerNorm

__all__ = ["MultiHeadAttention", "TransformerEncoderLayer", "TransformerEncoder",
           "TransformerDecoderLayer", "TransformerDecoder", "Transformer"]


def _check_positive(api, arg, value):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{api}: '{arg}' must be a positive int, but received {value!r}")


def _param_attr_list(attr, n, api, arg):
    """weight_attr / bias_attr for each of a layer's n parameter groups, as Paddle spreads them: a
    list gives one per group, a bool all or none, anything else copies (a name gets a suffix)."""
    if isinstance(attr, (list, tuple)):
        if len(attr) != n:
            raise ValueError(f"{api}: '{arg}' must have {n} entries when it is a list or tuple, "
                             f"but received {len(attr)}")
        return [(ParamAttr._to_attr(None) if a else False) if isinstance(a, bool)
                else ParamAttr._to_attr(a) for a in attr]
    if isinstance(attr, bool):
        return [ParamAttr._to_attr(None) for _ in range(n)] if attr else [False] * n
    base = ParamAttr._to_attr(attr)
    attrs = []
    for i in range(n):
        each = copy.deepcopy(base)
        if getattr(base, "name", None):
            each.name = f"{base.name}_{i}"
        attrs.append(each)
    return attrs


def _convert_attention_mask(attn_mask, dtype):
    """An attention mask as scores to add, in dtype: a bool or integer mask (1 / True: attend)
    becomes 0 or -1e9, a float mask is cast (Paddle's conversion)."""
    if attn_mask is None or attn_mask.dtype == dtype:
        return attn_mask
    if attn_mask.dtype == DataType.BOOL or not is_floating(attn_mask.dtype):
        return _C_ops.scale(_C_ops.cast(attn_mask, dtype), 1e9, -1.0, False)
    return _C_ops.cast(attn_mask, dtype)


def _activation(api, name):
    fn = getattr(F, name, None) if isinstance(name, str) else None
    if fn is None:
        raise ValueError(f"{api}: 'activation' must name a function of paddle.nn.functional "
                         f"('relu', 'gelu', ...), but received {name!r}")
    return fn


class MultiHeadAttention(Layer):
    """Attention of query over key and value in num_heads heads of embed_dim // num_heads:
    out_proj(attention(q_proj(query), k_proj(key), v_proj(value))). key and value default to
    query; kdim and vdim are their feature sizes (default embed_dim). attn_mask (bool / int:
    1 attends, float: added) broadcasts to [batch, num_heads, seq_len, seq_len_kv]. need_weights
    also returns the attention weights. A Cache (from gen_cache(key)) appends this step's k and
    v to the cached ones; a StaticCache (gen_cache(key, value, type=StaticCache)) holds k and v
    computed once (the encoder output of a decoder's cross attention)."""

    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])

    def __init__(self, embed_dim, num_heads, dropout=0.0, kdim=None, vdim=None,
                 need_weights=False, weight_attr=None, bias_attr=None):
        super().__init__()
        _check_positive("MultiHeadAttention", "embed_dim", embed_dim)
        _check_positive("MultiHeadAttention", "num_heads", num_heads)
        if embed_dim % num_heads != 0:
            raise ValueError(f"MultiHeadAttention: 'embed_dim' ({embed_dim}) must be divisible by "
                             f"'num_heads' ({num_heads})")
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.need_weights = need_weights
        self.head_dim = embed_dim // num_heads
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _split_heads(self, x):
        """[batch, seq_len, embed_dim] -> [batch, seq_len, num_heads, head_dim] (a view)."""
        return _C_ops.reshape(x, [0, 0, self.num_heads, self.head_dim])

    def compute_kv(self, key, value):
        """The projected key and value as [batch, num_heads, seq_len, head_dim] (a cache's
        layout)."""
        k = self._split_heads(self.k_proj(key))
        v = self._split_heads(self.v_proj(value))
        return _C_ops.transpose(k, [0, 2, 1, 3]), _C_ops.transpose(v, [0, 2, 1, 3])

    def gen_cache(self, key, value=None, type=Cache):
        """StaticCache: k and v of (key, value) computed once. Cache with value None: an empty
        cache for incremental decoding (seq_len 0, batch of key). Cache with value: (key, value)
        themselves, already [batch, num_heads, seq_len, head_dim]."""
        if type == MultiHeadAttention.StaticCache:
            return self.StaticCache(*self.compute_kv(key, value))
        if value is None:
            from ...tensor.creation import full
            shape = [key.shape[0], self.num_heads, 0, self.head_dim]
            return self.Cache(full(shape, 0, key.dtype), full(shape, 0, key.dtype))
        return self.Cache(key, value)

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        key = query if key is None else key
        value = query if value is None else value
        q = self._split_heads(self.q_proj(query))
        if isinstance(cache, self.StaticCache):
            k, v = (_C_ops.transpose(t, [0, 2, 1, 3]) for t in cache)
        elif isinstance(cache, self.Cache):
            k, v = self.compute_kv(key, value)
            k = _C_ops.concat([cache.k, k], 2)
            v = _C_ops.concat([cache.v, v], 2)
            cache = self.Cache(k, v)
            k, v = (_C_ops.transpose(t, [0, 2, 1, 3]) for t in (k, v))
        elif cache is not None:
            raise TypeError(f"MultiHeadAttention: 'cache' must be a MultiHeadAttention.Cache or "
                            f"StaticCache, but received {type(cache).__name__}")
        else:
            k = self._split_heads(self.k_proj(key))
            v = self._split_heads(self.v_proj(value))
        attn_mask = _convert_attention_mask(attn_mask, q.dtype)
        if attn_mask is not None and len(attn_mask.shape) < 2:
            attn_mask = _C_ops.reshape(attn_mask, [1, -1])
        if self.need_weights:
            out, weights = self._attention_with_weights(q, k, v, attn_mask)
        else:
            dropout = self.dropout if self.training else 0.0
            out = _C_ops.flash_attn(q, k, v, None, attn_mask, float(dropout), False, False,
                                    not self.training, "")[0]
            weights = None
        out = self.out_proj(_C_ops.reshape(out, [0, 0, self.embed_dim]))
        outs = [out]
        if self.need_weights:
            outs.append(weights)
        if cache is not None:
            outs.append(cache)
        return out if len(outs) == 1 else tuple(outs)

    def _attention_with_weights(self, q, k, v, attn_mask):
        """The explicit path: the weights [batch, num_heads, seq_len, seq_len_kv] are formed."""
        q, k, v = (_C_ops.transpose(t, [0, 2, 1, 3]) for t in (q, k, v))
        scores = _C_ops.matmul(_C_ops.scale(q, self.head_dim ** -0.5, 0.0, True), k, False, True)
        if attn_mask is not None:
            scores = _C_ops.add(scores, attn_mask)
        weights = F.softmax(scores)
        if self.dropout:
            weights = F.dropout(weights, self.dropout, training=self.training,
                                mode="upscale_in_train")
        out = _C_ops.transpose(_C_ops.matmul(weights, v, False, False), [0, 2, 1, 3])
        return out, weights


class TransformerEncoderLayer(Layer):
    """Self attention then a feed-forward block (linear1, activation, dropout, linear2), each
    with dropout, a residual connection and a LayerNorm after it (before it when
    normalize_before). attn_dropout and act_dropout default to dropout. weight_attr / bias_attr
    may be a list of 2: the attention's, then the feed-forward's."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu",
                 attn_dropout=None, act_dropout=None, normalize_before=False, weight_attr=None,
                 bias_attr=None, layer_norm_eps=1e-5):
        super().__init__()
        api = type(self).__name__
        self._config = dict(d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward,
                            dropout=dropout, activation=activation, attn_dropout=attn_dropout,
                            act_dropout=act_dropout, normalize_before=normalize_before,
                            weight_attr=weight_attr, bias_attr=bias_attr,
                            layer_norm_eps=layer_norm_eps)
        _check_positive(api, "d_model", d_model)
        _check_positive(api, "nhead", nhead)
        _check_positive(api, "dim_feedforward", dim_feedforward)
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        act_dropout = dropout if act_dropout is None else act_dropout
        self.normalize_before = normalize_before
        weight_attrs = _param_attr_list(weight_attr, 2, api, "weight_attr")
        bias_attrs = _param_attr_list(bias_attr, 2, api, "bias_attr")
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout,
                                            weight_attr=weight_attrs[0], bias_attr=bias_attrs[0])
        self.linear1 = Linear(d_model, dim_feedforward, weight_attrs[1], bias_attr=bias_attrs[1])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, weight_attrs[1], bias_attr=bias_attrs[1])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.activation = _activation(api, activation)

    def forward(self, src, src_mask=None, cache=None):
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        residual = src
        if self.normalize_before:
            src = self.norm1(src)
        if cache is None:
            src = self.self_attn(src, src, src, src_mask)
        else:
            src, incremental_cache = self.self_attn(src, src, src, src_mask, cache)
        src = residual + self.dropout1(src)
        if not self.normalize_before:
            src = self.norm1(src)
        residual = src
        if self.normalize_before:
            src = self.norm2(src)
        src = self.linear2(self.dropout(self.activation(self.linear1(src))))
        src = residual + self.dropout2(src)
        if not self.normalize_before:
            src = self.norm2(src)
        return src if cache is None else (src, incremental_cache)

    def gen_cache(self, src):
        """An empty MultiHeadAttention.Cache for the self attention."""
        return self.self_attn.gen_cache(src, type=self.self_attn.Cache)


class TransformerEncoder(Layer):
    """num_layers encoder layers: the given one, then fresh copies of its configuration (their
    own parameters), and the optional final norm."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        _check_positive("TransformerEncoder", "num_layers", num_layers)
        self.layers = LayerList([encoder_layer if i == 0
                                 else type(encoder_layer)(**encoder_layer._config)
                                 for i in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, src, src_mask=None, cache=None):
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        output = src
        new_caches = []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, src_mask=src_mask)
            else:
                output, new_cache = layer(output, src_mask=src_mask, cache=cache[i])
                new_caches.append(new_cache)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, src):
        return [layer.gen_cache(src) for layer in self.layers]


class TransformerDecoderLayer(Layer):
    """Self attention over tgt, cross attention over the encoder's memory, then the feed-forward
    block; each with dropout, a residual connection and a LayerNorm (before it when
    normalize_before). weight_attr / bias_attr may be a list of 3: self attention, cross
    attention, feed-forward."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu",
                 attn_dropout=None, act_dropout=None, normalize_before=False, weight_attr=None,
                 bias_attr=None, layer_norm_eps=1e-5):
        super().__init__()
        api = type(self).__name__
        self._config = dict(d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward,
                            dropout=dropout, activation=activation, attn_dropout=attn_dropout,
                            act_dropout=act_dropout, normalize_before=normalize_before,
                            weight_attr=weight_attr, bias_attr=bias_attr,
                            layer_norm_eps=layer_norm_eps)
        _check_positive(api, "d_model", d_model)
        _check_positive(api, "nhead", nhead)
        _check_positive(api, "dim_feedforward", dim_feedforward)
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        act_dropout = dropout if act_dropout is None else act_dropout
        self.normalize_before = normalize_before
        weight_attrs = _param_attr_list(weight_attr, 3, api, "weight_attr")
        bias_attrs = _param_attr_list(bias_attr, 3, api, "bias_attr")
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout,
                                            weight_attr=weight_attrs[0], bias_attr=bias_attrs[0])
        self.cross_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout,
                                             weight_attr=weight_attrs[1], bias_attr=bias_attrs[1])
        self.linear1 = Linear(d_model, dim_feedforward, weight_attrs[2], bias_attr=bias_attrs[2])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, weight_attrs[2], bias_attr=bias_attrs[2])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.norm3 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.dropout3 = Dropout(dropout, mode="upscale_in_train")
        self.activation = _activation(api, activation)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm1(tgt)
        if cache is None:
            tgt = self.self_attn(tgt, tgt, tgt, tgt_mask, None)
        else:
            tgt, incremental_cache = self.self_attn(tgt, tgt, tgt, tgt_mask, cache[0])
        tgt = residual + self.dropout1(tgt)
        if not self.normalize_before:
            tgt = self.norm1(tgt)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm2(tgt)
        if cache is None:
            tgt = self.cross_attn(tgt, memory, memory, memory_mask, None)
        else:
            tgt, static_cache = self.cross_attn(tgt, memory, memory, memory_mask, cache[1])
        tgt = residual + self.dropout2(tgt)
        if not self.normalize_before:
            tgt = self.norm2(tgt)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm3(tgt)
        tgt = self.linear2(self.dropout(self.activation(self.linear1(tgt))))
        tgt = residual + self.dropout3(tgt)
        if not self.normalize_before:
            tgt = self.norm3(tgt)
        return tgt if cache is None else (tgt, (incremental_cache, static_cache))

    def gen_cache(self, memory):
        """(an empty Cache for the self attention, a StaticCache of memory for the cross one)."""
        incremental_cache = self.self_attn.gen_cache(memory, type=self.self_attn.Cache)
        static_cache = self.cross_attn.gen_cache(memory, memory, type=self.cross_attn.StaticCache)
        return incremental_cache, static_cache


class TransformerDecoder(Layer):
    """num_layers decoder layers (the given one, then fresh copies) and the optional final
    norm."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        _check_positive("TransformerDecoder", "num_layers", num_layers)
        self.layers = LayerList([decoder_layer if i == 0
                                 else type(decoder_layer)(**decoder_layer._config)
                                 for i in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        output = tgt
        new_caches = []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                               cache=None)
            else:
                output, new_cache = layer(output, memory, tgt_mask=tgt_mask,
                                          memory_mask=memory_mask, cache=cache[i])
                new_caches.append(new_cache)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, memory, do_zip=False):
        """Each layer's (Cache, StaticCache); do_zip regroups them as (all Caches, all
        StaticCaches)."""
        cache = [layer.gen_cache(memory) for layer in self.layers]
        return list(zip(*cache)) if do_zip else cache


def _split_attr(attr, api, arg):
    """A Transformer's weight_attr / bias_attr as (the encoder layers', the decoder layers'): a
    list of 1 serves all, of 2 (attention, feed-forward) or 3 (self attention, cross attention,
    feed-forward) is spread as Paddle does."""
    if not isinstance(attr, (list, tuple)):
        return attr, attr
    if len(attr) == 1:
        return [attr[0]] * 2, [attr[0]] * 3
    if len(attr) == 2:
        return list(attr), [attr[0], attr[0], attr[-1]]
    if len(attr) == 3:
        return [attr[0], attr[-1]], list(attr)
    raise ValueError(f"{api}: '{arg}' must have 1, 2 or 3 entries when it is a list or tuple, "
                     f"but received {len(attr)}")


class Transformer(Layer):
    """An encoder of num_encoder_layers TransformerEncoderLayers and a decoder of
    num_decoder_layers TransformerDecoderLayers, each closed by a LayerNorm (or the custom
    encoder / decoder given)."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation="relu", attn_dropout=None,
                 act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None,
                 custom_encoder=None, custom_decoder=None):
        super().__init__()
        _check_positive("Transformer", "d_model", d_model)
        _check_positive("Transformer", "nhead", nhead)
        _check_positive("Transformer", "dim_feedforward", dim_feedforward)
        encoder_bias_attr, decoder_bias_attr = _split_attr(bias_attr, "Transformer", "bias_attr")
        encoder_weight_attr, decoder_weight_attr = _split_attr(weight_attr, "Transformer",
                                                               "weight_attr")
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(
                d_model, nhead, dim_feedforward, dropout, activation, attn_dropout, act_dropout,
                normalize_before, encoder_weight_attr, encoder_bias_attr)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers,
                                              LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(
                d_model, nhead, dim_feedforward, dropout, activation, attn_dropout, act_dropout,
                normalize_before, decoder_weight_attr, decoder_bias_attr)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers,
                                              LayerNorm(d_model))
        self.d_model = d_model
        self.nhead = nhead

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None):
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        memory = self.encoder(src, src_mask=src_mask)
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)

    def generate_square_subsequent_mask(self, length):
        """[length, length] of 0 on and below the diagonal and -inf above it (each position sees
        itself and the ones before), in the default dtype."""
        from ...tensor.creation import to_tensor
        length = int(length.item() if hasattr(length, "item") else length)
        if length < 0:
            raise ValueError(f"Transformer.generate_square_subsequent_mask: 'length' must be >= "
                             f"0, but received {length}")
        mask = np.triu(np.full([length, length], -np.inf), 1)
        return to_tensor(mask.astype(get_default_dtype()))
