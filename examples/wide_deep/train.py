"""A Wide&Deep click-through-rate model on generated sparse data, with sparse embeddings: each
step's embedding gradient holds only the rows its batch looked up (a SelectedRows gradient), and
Adam in lazy mode updates only those rows. Saved as an inference model.

    python examples/wide_deep/train.py [--epochs 2] [--out DIR]

The data imitate Criteo's layout: 13 dense features and 26 categorical fields, each field's ids
in its own range of a 100,000-row table, drawn with a skewed (Zipf-like) frequency as real ids
are. A hidden logistic model makes the clicks: a weight per id, one interaction between two
fields, and a linear term in the dense features. The metric is the test AUC.
"""
import argparse
import os

import numpy as np

import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.io import DataLoader, TensorDataset
from paddle.static import InputSpec

DENSE, FIELDS, IDS_PER_FIELD = 13, 26, 3846  # 26 * 3846 = 99,996 table rows
TABLE_ROWS = FIELDS * IDS_PER_FIELD


def generate_clicks(count, seed, truth_seed=0):
    """(dense [count, 13] float32, ids [count, 26] int64, clicks [count, 1] float32). The hidden
    model comes from truth_seed, so training and test data share it."""
    truth = np.random.default_rng(truth_seed)
    id_weight = truth.normal(0, 0.8, TABLE_ROWS)
    dense_weight = truth.normal(0, 0.5, DENSE)
    pair_weight = truth.normal(0, 1.0, (50, 50))  # by the first two fields' ids, modulo 50
    rng = np.random.default_rng(seed)
    dense = rng.normal(0, 1, (count, DENSE)).astype(np.float32)
    ranks = np.minimum(rng.zipf(1.3, (count, FIELDS)) - 1, IDS_PER_FIELD - 1)
    ids = (np.arange(FIELDS) * IDS_PER_FIELD + ranks).astype(np.int64)
    logit = id_weight[ids].sum(axis=1) / np.sqrt(FIELDS) + dense @ dense_weight
    logit += pair_weight[ranks[:, 0] % 50, ranks[:, 1] % 50]
    clicks = (rng.random(count) < 1 / (1 + np.exp(-(logit - 0.5)))).astype(np.float32)
    return dense, ids, clicks[:, None]


class WideDeep(nn.Layer):
    def __init__(self, embedding_size=8, hidden=(256, 128, 64)):
        super().__init__()
        self.wide_ids = nn.Embedding(TABLE_ROWS, 1, sparse=True)
        self.wide_dense = nn.Linear(DENSE, 1)
        self.deep_ids = nn.Embedding(TABLE_ROWS, embedding_size, sparse=True)
        layers, width = [], FIELDS * embedding_size + DENSE
        for size in hidden:
            layers += [nn.Linear(width, size), nn.ReLU()]
            width = size
        self.deep = nn.Sequential(*layers, nn.Linear(width, 1))

    def forward(self, dense, ids):
        wide = self.wide_ids(ids).sum(axis=1) + self.wide_dense(dense)
        deep_input = paddle.concat([self.deep_ids(ids).flatten(1), dense], axis=1)
        return wide + self.deep(deep_input)  # the click logit


def test_auc(model, dense, ids, clicks):
    model.eval()
    with paddle.no_grad():
        probability = F.sigmoid(model(paddle.to_tensor(dense), paddle.to_tensor(ids))).numpy()
    model.train()
    auc = paddle.metric.Auc()
    auc.update(np.concatenate([1 - probability, probability], axis=1), clicks.astype(np.int64))
    return float(auc.accumulate())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--train-size", type=int, default=100000)
    parser.add_argument("--test-size", type=int, default=10000)
    parser.add_argument("--out", default="wide_deep")
    args = parser.parse_args()
    paddle.seed(0)
    os.makedirs(args.out, exist_ok=True)
    train = generate_clicks(args.train_size, 1)
    test = generate_clicks(args.test_size, 2)
    loader = DataLoader(TensorDataset([paddle.to_tensor(a) for a in train]), batch_size=512,
                        shuffle=True, drop_last=True)

    model = WideDeep()
    optimizer = paddle.optimizer.Adam(learning_rate=5e-4, lazy_mode=True,
                                      parameters=model.parameters())
    for epoch in range(args.epochs):
        losses = []
        for dense, ids, clicks in loader:
            loss = F.binary_cross_entropy_with_logits(model(dense, ids), clicks)
            loss.backward()
            optimizer.step()
            optimizer.clear_grad()
            losses.append(float(loss))
        print(f"epoch {epoch + 1}/{args.epochs}: log loss {np.mean(losses):.4f}, "
              f"test AUC {test_auc(model, *test):.4f}", flush=True)
    print(f"test AUC: {test_auc(model, *test):.4f}")
    model.eval()
    prefix = os.path.join(args.out, "wide_deep")
    paddle.jit.save(model, prefix, input_spec=[InputSpec([None, DENSE], "float32", "dense"),
                                               InputSpec([None, FIELDS], "int64", "ids")])
    print(f"saved the inference model as {prefix}.pdmodel and {prefix}.pdiparams")


if __name__ == "__main__":
    main()
