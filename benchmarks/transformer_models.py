"""The Transformer workloads of the sequence-model issue, in the paddle API (this framework and
PaddlePaddle) and in PyTorch:

- a BERT-mini encoder training step: token, position and segment embeddings with LayerNorm and
  dropout, 4 post-norm encoder layers (hidden 256, 4 heads, FFN 1024, GELU, dropout 0.1), the
  [CLS] pooler and a 2-class head with cross-entropy; sequence 128, batch 16, Adam;
- the forward of scaled_dot_product_attention at sequence 512, head dim 64 (batch 4, 8 heads),
  counted as 4 * batch * heads * seq^2 * head_dim FLOPs (the two GEMMs)."""
import numpy as np

BERT = dict(vocab=30522, hidden=256, layers=4, heads=4, ffn=1024, seq=128, batch=16, dropout=0.1,
            max_position=512, classes=2)
SDPA = dict(batch=4, heads=8, seq=512, head_dim=64)


def sdpa_gflop():
    s = SDPA
    return 4 * s["batch"] * s["heads"] * s["seq"] ** 2 * s["head_dim"] / 1e9


def bert_inputs(seed=0):
    rng = np.random.default_rng(seed)
    b = BERT
    tokens = rng.integers(0, b["vocab"], (b["batch"], b["seq"])).astype(np.int64)
    segments = rng.integers(0, 2, (b["batch"], b["seq"])).astype(np.int64)
    labels = rng.integers(0, b["classes"], (b["batch"],)).astype(np.int64)
    return tokens, segments, labels


def paddle_bert_step():
    import paddle
    nn = paddle.nn
    b = BERT

    class BertMini(nn.Layer):
        def __init__(self):
            super().__init__()
            self.word = nn.Embedding(b["vocab"], b["hidden"])
            self.position = nn.Embedding(b["max_position"], b["hidden"])
            self.segment = nn.Embedding(2, b["hidden"])
            self.norm = nn.LayerNorm(b["hidden"], epsilon=1e-12)
            self.dropout = nn.Dropout(b["dropout"])
            # attn_dropout and act_dropout default to dropout, as in PyTorch's layer.
            layer = nn.TransformerEncoderLayer(b["hidden"], b["heads"], b["ffn"], b["dropout"],
                                               activation="gelu")
            self.encoder = nn.TransformerEncoder(layer, b["layers"])
            self.pooler = nn.Linear(b["hidden"], b["hidden"])
            self.classifier = nn.Linear(b["hidden"], b["classes"])

        def forward(self, tokens, segments, positions):
            h = self.word(tokens) + self.position(positions) + self.segment(segments)
            h = self.encoder(self.dropout(self.norm(h)))
            pooled = paddle.tanh(self.pooler(h[:, 0]))
            return self.classifier(self.dropout(pooled))

    paddle.seed(0)
    model = BertMini()
    opt = paddle.optimizer.Adam(learning_rate=1e-4, parameters=model.parameters())
    tokens, segments, labels = (paddle.to_tensor(a) for a in bert_inputs())
    positions = paddle.to_tensor(np.tile(np.arange(b["seq"]), (b["batch"], 1)).astype(np.int64))

    def step():
        loss = nn.functional.cross_entropy(model(tokens, segments, positions), labels)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss
    return step


def torch_bert_step():
    import torch
    nn = torch.nn
    b = BERT

    class BertMini(nn.Module):
        def __init__(self):
            super().__init__()
            self.word = nn.Embedding(b["vocab"], b["hidden"])
            self.position = nn.Embedding(b["max_position"], b["hidden"])
            self.segment = nn.Embedding(2, b["hidden"])
            self.norm = nn.LayerNorm(b["hidden"], eps=1e-12)
            self.dropout = nn.Dropout(b["dropout"])
            layer = nn.TransformerEncoderLayer(b["hidden"], b["heads"], b["ffn"], b["dropout"],
                                               activation="gelu", batch_first=True)
            self.encoder = nn.TransformerEncoder(layer, b["layers"], enable_nested_tensor=False)
            self.pooler = nn.Linear(b["hidden"], b["hidden"])
            self.classifier = nn.Linear(b["hidden"], b["classes"])

        def forward(self, tokens, segments, positions):
            h = self.word(tokens) + self.position(positions) + self.segment(segments)
            h = self.encoder(self.dropout(self.norm(h)))
            pooled = torch.tanh(self.pooler(h[:, 0]))
            return self.classifier(self.dropout(pooled))

    torch.manual_seed(0)
    model = BertMini()
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    tokens, segments, labels = (torch.from_numpy(a) for a in bert_inputs())
    positions = torch.arange(b["seq"]).repeat(b["batch"], 1)

    def step():
        loss = nn.functional.cross_entropy(model(tokens, segments, positions), labels)
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss
    return step


def _sdpa_arrays():
    s = SDPA
    rng = np.random.default_rng(0)
    shape = (s["batch"], s["seq"], s["heads"], s["head_dim"])
    return [rng.standard_normal(shape).astype(np.float32) for _ in range(3)]


def paddle_sdpa_forward():
    import paddle
    q, k, v = (paddle.to_tensor(a) for a in _sdpa_arrays())

    def forward():
        with paddle.no_grad():
            paddle.nn.functional.scaled_dot_product_attention(q, k, v, training=False).numpy()
    return forward


def torch_sdpa_forward():
    import torch
    # PyTorch's layout is [batch, heads, seq, head_dim].
    q, k, v = (torch.from_numpy(a).transpose(1, 2).contiguous() for a in _sdpa_arrays())

    def forward():
        with torch.no_grad():
            torch.nn.functional.scaled_dot_product_attention(q, k, v)
    return forward
