"""A Transformer-encoder sentiment classifier trained on a generated corpus, then saved as an
inference model.

    python examples/text_classifier/train.py [--epochs 6] [--out DIR]

The corpus is generated from a fixed vocabulary: sentences of neutral filler words with a few
positive and negative words, where "not" flips the word after it. The label is the sign of the
sentence's total sentiment, so a model must read words in context (a bag of words cannot tell
"not good" from "good"). Sentences are padded with id 0 to 32 tokens; the encoder masks padding.
"""
import argparse
import os

import numpy as np

import paddle
import paddle.nn as nn
from paddle.io import DataLoader, TensorDataset
from paddle.static import InputSpec

MAX_LEN = 32
PAD, NOT = 0, 1
POSITIVE = ["good", "great", "fine", "lovely", "superb", "pleasant", "nice", "brilliant"]
NEGATIVE = ["bad", "awful", "poor", "dull", "terrible", "boring", "weak", "nasty"]
FILLER = [f"word{i}" for i in range(80)]
VOCAB = ["<pad>", "not"] + POSITIVE + NEGATIVE + FILLER


def generate_corpus(count, seed):
    """(ids [count, MAX_LEN] int64, labels [count] int64) of generated sentences."""
    rng = np.random.default_rng(seed)
    index = {w: i for i, w in enumerate(VOCAB)}
    ids = np.zeros((count, MAX_LEN), np.int64)
    labels = np.zeros(count, np.int64)
    for row in range(count):
        length = rng.integers(12, MAX_LEN + 1)
        score = 0
        while score == 0:  # every sentence has a sentiment
            words = list(rng.choice(FILLER, length))
            score = 0
            # Each sentiment word takes a (modifier, word) pair of slots of its own, so no
            # placement overwrites another and the label always matches the text.
            pairs = rng.choice(np.arange(0, length - 1, 2), size=rng.integers(1, 4), replace=False)
            for at in pairs:
                positive = rng.random() < 0.5
                words[at + 1] = rng.choice(POSITIVE if positive else NEGATIVE)
                negated = rng.random() < 0.4
                if negated:
                    words[at] = "not"
                score += (1 if positive else -1) * (-1 if negated else 1)
        ids[row, :length] = [index[w] for w in words]
        labels[row] = int(score > 0)
    return ids, labels


class EncoderClassifier(nn.Layer):
    def __init__(self, vocab_size, d_model=64, heads=4, layers=2, classes=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, d_model, padding_idx=PAD)
        self.position = nn.Embedding(MAX_LEN, d_model)
        layer = nn.TransformerEncoderLayer(d_model, heads, dim_feedforward=2 * d_model,
                                           dropout=0.1, normalize_before=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.classifier = nn.Linear(d_model, classes)

    def forward(self, ids):
        positions = paddle.arange(ids.shape[1], dtype="int64").unsqueeze(0)
        hidden = self.embedding(ids) + self.position(positions)
        keep = (ids != PAD).astype("float32")  # [batch, length]
        # The attention mask is added to the scores: a large negative value hides padding.
        mask = ((1.0 - keep) * -1e9).unsqueeze(1).unsqueeze(1)
        hidden = self.encoder(hidden, src_mask=mask)
        pooled = (hidden * keep.unsqueeze(-1)).sum(axis=1) / keep.sum(axis=1, keepdim=True)
        return self.classifier(pooled)


def accuracy(model, ids, labels):
    model.eval()
    with paddle.no_grad():
        predicted = model(paddle.to_tensor(ids)).argmax(axis=1).numpy()
    model.train()
    return float((predicted == labels).mean())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--train-size", type=int, default=8000)
    parser.add_argument("--test-size", type=int, default=1000)
    parser.add_argument("--out", default="text_classifier")
    args = parser.parse_args()
    paddle.seed(0)
    os.makedirs(args.out, exist_ok=True)
    train_ids, train_labels = generate_corpus(args.train_size, 1)
    test_ids, test_labels = generate_corpus(args.test_size, 2)
    loader = DataLoader(TensorDataset([paddle.to_tensor(train_ids),
                                       paddle.to_tensor(train_labels)]),
                        batch_size=64, shuffle=True, drop_last=True)

    model = EncoderClassifier(len(VOCAB))
    optimizer = paddle.optimizer.AdamW(learning_rate=2e-3, parameters=model.parameters())
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        losses = []
        for ids, labels in loader:
            loss = loss_fn(model(ids), labels)
            loss.backward()
            optimizer.step()
            optimizer.clear_grad()
            losses.append(float(loss))
        print(f"epoch {epoch + 1}/{args.epochs}: train loss {np.mean(losses):.4f}, "
              f"test accuracy {accuracy(model, test_ids, test_labels):.4f}", flush=True)
    print(f"test accuracy: {accuracy(model, test_ids, test_labels):.4f}")
    model.eval()
    prefix = os.path.join(args.out, "text_classifier")
    paddle.jit.save(model, prefix, input_spec=[InputSpec([None, MAX_LEN], "int64", "ids")])
    print(f"saved the inference model as {prefix}.pdmodel and {prefix}.pdiparams")


if __name__ == "__main__":
    main()
