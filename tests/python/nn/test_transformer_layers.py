"""MultiHeadAttention and the Transformer layers against PaddlePaddle 3.3.1: each case builds the
layer with the arguments tools/record_transformer_reference.py gave Paddle's, checks that the
parameter names and shapes are Paddle's, loads Paddle's numbers and compares the outputs (dropout
0). Then training-mode behaviour, incremental decoding and the argument errors."""
import os

import numpy as np
import pytest

import paddle
import paddle.nn as nn

DATA = np.load(os.path.join(os.path.dirname(__file__), "data", "transformer_reference.npz"))


def incremental(m, step0, step1, memory):
    cache = m.gen_cache(step0)
    out0, cache = m(step0, cache=cache)
    out1, cache = m(step1, cache=cache)
    static = m.gen_cache(memory, memory, type=m.StaticCache)
    out2, _ = m(step1, memory, memory, cache=static)
    return [out0, out1, cache.k, cache.v, out2]


def decode_steps(m, step0, step1, memory):
    cache = m.gen_cache(memory)
    out0, cache = m(step0, memory, cache=cache)
    out1, cache = m(step1, memory, cache=cache)
    return [out0, out1]


CASES = {
    "mha_weights": (lambda: nn.MultiHeadAttention(8, 2, kdim=6, vdim=5, need_weights=True),
                    lambda m, q, k, v, mask: m(q, k, v, mask)),
    "mha_bool_mask": (lambda: nn.MultiHeadAttention(8, 4),
                      lambda m, q, kv, mask: m(q, kv, kv, attn_mask=mask)),
    "mha_cache": (lambda: nn.MultiHeadAttention(8, 2), incremental),
    "encoder_layer_False": (lambda: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu"),
                            lambda m, src, mask: m(src, mask)),
    "encoder_layer_True": (lambda: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu",
                                                              normalize_before=True),
                           lambda m, src, mask: m(src, mask)),
    "encoder": (lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2,
                                              nn.LayerNorm(8)),
                lambda m, src: m(src)),
    "decoder_layer_False": (lambda: nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0),
                            lambda m, tgt, memory, tgt_mask, memory_mask: m(tgt, memory, tgt_mask,
                                                                            memory_mask)),
    "decoder_layer_True": (lambda: nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, normalize_before=True),
                           lambda m, tgt, memory, tgt_mask, memory_mask: m(tgt, memory, tgt_mask,
                                                                           memory_mask)),
    "decoder_cache": (lambda: nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0), 2,
                                                    nn.LayerNorm(8)),
                      decode_steps),
    "transformer": (lambda: nn.Transformer(8, 2, 2, 2, 16, dropout=0.0, normalize_before=True),
                    lambda m, src, tgt: m(src, tgt, tgt_mask=m.generate_square_subsequent_mask(4))),
}


def recorded(case, kind):
    prefix = f"{case}/{kind}/"
    return {key[len(prefix):]: DATA[key] for key in DATA.files if key.startswith(prefix)}


def flatten(outputs):
    if isinstance(outputs, (list, tuple)):
        return [t for item in outputs for t in flatten(item)]
    return [outputs]


@pytest.mark.parametrize("case", sorted(CASES))
def test_layer_matches_paddle_with_its_parameters(case):
    build, run = CASES[case]
    layer = build()
    layer.eval()
    params = recorded(case, "param")
    ours = layer.state_dict()
    assert sorted(ours) == sorted(params), "parameter names differ from Paddle's"
    for name, value in params.items():
        assert list(ours[name].shape) == list(value.shape), name
    layer.set_state_dict({name: paddle.to_tensor(value) for name, value in params.items()})
    inputs = recorded(case, "input")
    tensors = [paddle.to_tensor(inputs[str(k)]) for k in range(len(inputs))]
    outputs = flatten(run(layer, *tensors))
    expected = recorded(case, "output")
    assert len(outputs) == len(expected)
    for k, out in enumerate(outputs):
        np.testing.assert_allclose(out.numpy(), expected[str(k)], rtol=1e-5, atol=1e-5,
                                   err_msg=f"{case} output {k}")


def test_square_subsequent_mask_is_paddles():
    mask = nn.Transformer(8, 2, 1, 1, 16).generate_square_subsequent_mask(4)
    np.testing.assert_array_equal(mask.numpy(), DATA["square_subsequent_mask"])
    assert mask.dtype == paddle.float32


def test_mha_weights_match_the_fused_path():
    """need_weights forms the weights explicitly; without it attention is one flash_attn op. The
    two agree, with masks of every accepted kind."""
    paddle.seed(3)
    explicit = nn.MultiHeadAttention(16, 4, need_weights=True)
    fused = nn.MultiHeadAttention(16, 4)
    fused.set_state_dict(explicit.state_dict())
    rng = np.random.default_rng(0)
    q = paddle.to_tensor(rng.standard_normal((2, 5, 16)).astype("float32"))
    kv = paddle.to_tensor(rng.standard_normal((2, 7, 16)).astype("float32"))
    masks = [None, paddle.to_tensor(rng.standard_normal((2, 4, 5, 7)).astype("float32")),
             paddle.to_tensor(rng.uniform(size=(2, 1, 1, 7)) > 0.2),
             paddle.to_tensor((rng.uniform(size=(5, 7)) > 0.2).astype("int64")),
             paddle.to_tensor(rng.standard_normal(7).astype("float32"))]
    for mask in masks:
        out, weights = explicit(q, kv, kv, mask)
        np.testing.assert_allclose(fused(q, kv, kv, mask).numpy(), out.numpy(), rtol=1e-5, atol=1e-6)
        assert weights.shape == [2, 4, 5, 7]


def test_encoder_layer_trains_with_dropout():
    """Training mode draws dropout (two calls differ, eval calls agree) and every parameter gets a
    gradient through the fused attention."""
    paddle.seed(5)
    layer = nn.TransformerEncoderLayer(16, 4, 32, dropout=0.2)
    src = paddle.to_tensor(np.random.default_rng(1).standard_normal((2, 6, 16)).astype("float32"))
    first, second = layer(src), layer(src)
    assert not np.allclose(first.numpy(), second.numpy())
    first.mean().backward()
    for name, param in layer.named_parameters():
        assert param.grad is not None and np.any(param.grad.numpy() != 0), name
    layer.eval()
    np.testing.assert_array_equal(layer(src).numpy(), layer(src).numpy())


def test_encoder_copies_have_their_own_parameters():
    layer = nn.TransformerEncoderLayer(8, 2, 16)
    encoder = nn.TransformerEncoder(layer, 3)
    assert encoder.layers[0] is layer
    weights = [id(encoder.layers[i].linear1.weight) for i in range(3)]
    assert len(set(weights)) == 3
    assert len(encoder.parameters()) == 3 * len(layer.parameters())


def test_param_attr_lists_spread_as_paddle():
    layer = nn.TransformerEncoderLayer(8, 2, 16, bias_attr=[False, True])
    assert layer.self_attn.q_proj.bias is None and layer.linear1.bias is not None
    decoder = nn.TransformerDecoderLayer(8, 2, 16, bias_attr=[True, False, True])
    assert decoder.cross_attn.k_proj.bias is None and decoder.self_attn.k_proj.bias is not None
    model = nn.Transformer(8, 2, 1, 1, 16, bias_attr=[False, True])
    assert model.decoder.layers[0].cross_attn.q_proj.bias is None
    assert model.decoder.layers[0].linear2.bias is not None


@pytest.mark.parametrize("build, match", [
    (lambda: nn.MultiHeadAttention(10, 3), r"'embed_dim' \(10\) must be divisible by 'num_heads' \(3\)"),
    (lambda: nn.MultiHeadAttention(0, 2), "MultiHeadAttention: 'embed_dim' must be a positive int"),
    (lambda: nn.MultiHeadAttention(8, -1), "'num_heads' must be a positive int, but received -1"),
    (lambda: nn.TransformerEncoderLayer(8, 3, 16), "divisible by 'num_heads'"),
    (lambda: nn.TransformerEncoderLayer(8, 2, 0), "TransformerEncoderLayer: 'dim_feedforward'"),
    (lambda: nn.TransformerDecoderLayer(8, 2, 16, activation="nope"), "'activation' must name"),
    (lambda: nn.TransformerEncoderLayer(8, 2, 16, weight_attr=[None] * 3), "'weight_attr' must have 2"),
    (lambda: nn.Transformer(8, 2, 1, 1, 16, bias_attr=[True] * 4), "'bias_attr' must have 1, 2 or 3"),
])
def test_constructor_errors(build, match):
    with pytest.raises(ValueError, match=match):
        build()


def test_mask_and_input_errors_name_the_op():
    mha = nn.MultiHeadAttention(8, 2)
    q = paddle.ones([2, 3, 8])
    kv = paddle.ones([2, 4, 8])
    with pytest.raises(ValueError, match=r"flash_attn: argument 'attn_mask'.*received shape \[3, 3\]"):
        mha(q, kv, kv, paddle.zeros([3, 3]))
    with pytest.raises(ValueError, match="flash_attn: the batch sizes"):
        mha(q, paddle.ones([3, 4, 8]), paddle.ones([3, 4, 8]))
    with pytest.raises(TypeError, match="'cache' must be a MultiHeadAttention.Cache"):
        mha(q, cache=(1, 2))
