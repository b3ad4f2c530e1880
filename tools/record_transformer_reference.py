"""Records PaddlePaddle's MultiHeadAttention and Transformer layers on small inputs (their
parameters, inputs and outputs, dropout 0) into tests/python/nn/data/transformer_reference.npz,
which tests/python/nn/test_transformer_layers.py loads into ours and compares. Run it with a
Python that has PaddlePaddle installed (3.3.1 wrote the committed file):

    /opt/venv-paddle/bin/python tools/record_transformer_reference.py
"""
import os

import numpy as np
import paddle

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "python", "nn", "data",
                   "transformer_reference.npz")


def record(store, case, layer, inputs, run):
    """Stores the layer's parameters, the inputs and run(layer, *inputs)'s outputs under case/."""
    layer.eval()
    for name, value in layer.state_dict().items():
        store[f"{case}/param/{name}"] = value.numpy()
    tensors = []
    for k, value in enumerate(inputs):
        store[f"{case}/input/{k}"] = value
        tensors.append(paddle.to_tensor(value))
    outputs = run(layer, *tensors)
    for k, value in enumerate(paddle.utils.flatten(outputs)):
        store[f"{case}/output/{k}"] = value.numpy()


def main():
    paddle.seed(2024)
    rng = np.random.default_rng(7)

    def randn(*shape):
        return rng.standard_normal(shape).astype("float32")

    store = {}
    nn = paddle.nn
    float_mask = randn(2, 1, 3, 4)
    bool_mask = rng.uniform(size=(2, 1, 1, 4)) > 0.3
    bool_mask[..., 0] = True
    record(store, "mha_weights", nn.MultiHeadAttention(8, 2, kdim=6, vdim=5, need_weights=True),
           [randn(2, 3, 8), randn(2, 4, 6), randn(2, 4, 5), float_mask],
           lambda m, q, k, v, mask: m(q, k, v, mask))
    record(store, "mha_bool_mask", nn.MultiHeadAttention(8, 4),
           [randn(2, 3, 8), randn(2, 4, 8), bool_mask],
           lambda m, q, kv, mask: m(q, kv, kv, attn_mask=mask))

    def incremental(m, step0, step1, memory):
        cache = m.gen_cache(step0)
        out0, cache = m(step0, cache=cache)
        out1, cache = m(step1, cache=cache)
        static = m.gen_cache(memory, memory, type=m.StaticCache)
        out2, _ = m(step1, memory, memory, cache=static)
        return [out0, out1, cache.k, cache.v, out2]
    record(store, "mha_cache", nn.MultiHeadAttention(8, 2),
           [randn(2, 1, 8), randn(2, 1, 8), randn(2, 5, 8)], incremental)

    for before in (False, True):
        layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu",
                                           normalize_before=before)
        record(store, f"encoder_layer_{before}", layer, [randn(2, 5, 8), randn(2, 1, 5, 5)],
               lambda m, src, mask: m(src, mask))
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2,
                                    nn.LayerNorm(8))
    record(store, "encoder", encoder, [randn(2, 5, 8)], lambda m, src: m(src))

    for before in (False, True):
        layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, normalize_before=before)
        record(store, f"decoder_layer_{before}", layer,
               [randn(2, 3, 8), randn(2, 5, 8), randn(3, 3), randn(2, 1, 1, 5)],
               lambda m, tgt, memory, tgt_mask, memory_mask: m(tgt, memory, tgt_mask, memory_mask))

    def decode_steps(m, step0, step1, memory):
        cache = m.gen_cache(memory)
        out0, cache = m(step0, memory, cache=cache)
        out1, cache = m(step1, memory, cache=cache)
        return [out0, out1]
    decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0), 2,
                                    nn.LayerNorm(8))
    record(store, "decoder_cache", decoder, [randn(2, 1, 8), randn(2, 1, 8), randn(2, 5, 8)],
           decode_steps)

    transformer = nn.Transformer(8, 2, 2, 2, 16, dropout=0.0, normalize_before=True)
    record(store, "transformer", transformer, [randn(2, 5, 8), randn(2, 4, 8)],
           lambda m, src, tgt: m(src, tgt, tgt_mask=m.generate_square_subsequent_mask(4)))
    store["square_subsequent_mask"] = transformer.generate_square_subsequent_mask(4).numpy()
    np.savez_compressed(OUT, **store)
    print(f"wrote {os.path.normpath(OUT)} ({len(store)} arrays)")


if __name__ == "__main__":
    main()
