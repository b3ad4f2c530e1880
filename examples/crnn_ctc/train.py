"""A CRNN text recogniser trained with CTC on rendered digit strings, like PP-OCR's recogniser:
convolutions read a 32x100 text image into a sequence of 25 column features, a bidirectional
LSTM reads the sequence, and CTC aligns its per-column predictions with the digits. Saved as an
inference model whose output is the per-column class scores (blank = 0, digit d = d + 1).

    python examples/crnn_ctc/train.py [--epochs 4] [--out DIR]

The images are rendered with Pillow's built-in font at 22 pixels: 3 to 6 random digits at a random offset
and grey level, under noise. Accuracy counts whole strings read exactly (greedy CTC decoding:
the best class per column, repeats merged, blanks dropped).
"""
import argparse
import os

import numpy as np
from PIL import Image, ImageDraw, ImageFont

import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.io import DataLoader, Dataset
from paddle.static import InputSpec

HEIGHT, WIDTH, MAX_DIGITS, BLANK = 32, 100, 6, 0


class RenderedDigits(Dataset):
    """(image [1, 32, 100] float32 in [-1, 1], labels [6] int32 padded with 0, length int64)."""

    def __init__(self, count, seed):
        super().__init__()
        rng = np.random.default_rng(seed)
        font = ImageFont.load_default(size=22)
        self.images = np.empty((count, 1, HEIGHT, WIDTH), np.float32)
        self.labels = np.zeros((count, MAX_DIGITS), np.int32)
        self.lengths = np.empty(count, np.int64)
        for i in range(count):
            digits = rng.integers(0, 10, rng.integers(3, MAX_DIGITS + 1))
            text = "".join(map(str, digits))
            canvas = Image.new("L", (WIDTH, HEIGHT), int(rng.integers(0, 60)))
            left = int(rng.integers(0, WIDTH - int(font.getlength(text)) + 1))
            ImageDraw.Draw(canvas).text((left, int(rng.integers(-5, 12))), text,
                                        fill=int(rng.integers(150, 256)), font=font)
            image = np.asarray(canvas, np.float32) / 127.5 - 1.0
            self.images[i, 0] = image + rng.normal(0, 0.15, image.shape)
            self.labels[i, :len(digits)] = digits + 1
            self.lengths[i] = len(digits)

    def __getitem__(self, index):
        return self.images[index], self.labels[index], self.lengths[index]

    def __len__(self):
        return len(self.images)


def conv_block(in_channels, out_channels, pool):
    return [nn.Conv2D(in_channels, out_channels, 3, padding=1), nn.BatchNorm2D(out_channels),
            nn.ReLU(), nn.MaxPool2D(pool, pool)]


class CRNN(nn.Layer):
    def __init__(self, classes=11, hidden=64):
        super().__init__()
        self.features = nn.Sequential(*conv_block(1, 32, 2), *conv_block(32, 64, 2),
                                      *conv_block(64, 96, (2, 1)),
                                      nn.Conv2D(96, 128, (4, 1)), nn.ReLU())
        self.rnn = nn.LSTM(128, hidden, direction="bidirect")
        self.classifier = nn.Linear(2 * hidden, classes)

    def forward(self, images):
        columns = self.features(images).squeeze(2).transpose([0, 2, 1])  # [batch, 25, 128]
        sequence, _ = self.rnn(columns)
        return self.classifier(sequence)  # [batch, 25, classes]


def greedy_decode(scores):
    """Digit strings read from [batch, columns, classes] scores."""
    strings = []
    for best in scores.argmax(axis=-1):
        digits, previous = [], BLANK
        for c in best:
            if c != previous and c != BLANK:
                digits.append(str(c - 1))
            previous = c
        strings.append("".join(digits))
    return strings


def string_accuracy(model, data):
    model.eval()
    with paddle.no_grad():
        scores = model(paddle.to_tensor(data.images)).numpy()
    model.train()
    truth = ["".join(str(d - 1) for d in row[:n]) for row, n in zip(data.labels, data.lengths)]
    return float(np.mean([p == t for p, t in zip(greedy_decode(scores), truth)]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--train-size", type=int, default=6000)
    parser.add_argument("--test-size", type=int, default=500)
    parser.add_argument("--out", default="crnn_ctc")
    args = parser.parse_args()
    paddle.seed(0)
    os.makedirs(args.out, exist_ok=True)
    train_set, test_set = RenderedDigits(args.train_size, 1), RenderedDigits(args.test_size, 2)
    loader = DataLoader(train_set, batch_size=64, shuffle=True, drop_last=True)

    model = CRNN()
    optimizer = paddle.optimizer.Adam(learning_rate=2e-3, parameters=model.parameters(),
                                      grad_clip=nn.ClipGradByGlobalNorm(5.0))
    for epoch in range(args.epochs):
        losses = []
        for images, labels, lengths in loader:
            scores = model(images)
            columns = paddle.full([scores.shape[0]], scores.shape[1], dtype="int64")
            loss = F.ctc_loss(scores.transpose([1, 0, 2]), labels, columns, lengths,
                              blank=BLANK, reduction="mean")
            loss.backward()
            optimizer.step()
            optimizer.clear_grad()
            losses.append(float(loss))
        print(f"epoch {epoch + 1}/{args.epochs}: CTC loss {np.mean(losses):.4f}, "
              f"test string accuracy {string_accuracy(model, test_set):.4f}", flush=True)
    print(f"test string accuracy: {string_accuracy(model, test_set):.4f}")
    model.eval()
    prefix = os.path.join(args.out, "crnn")
    paddle.jit.save(model, prefix,
                    input_spec=[InputSpec([None, 1, HEIGHT, WIDTH], "float32", "image")])
    print(f"saved the inference model as {prefix}.pdmodel and {prefix}.pdiparams")


if __name__ == "__main__":
    main()
