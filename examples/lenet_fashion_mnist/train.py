"""Trains LeNet on Fashion-MNIST with paddle.Model, prints its test accuracy, saves an inference
model (.pdmodel/.pdiparams) for the C++ predictor and draws the loss and accuracy curves.

    python examples/lenet_fashion_mnist/train.py [--epochs 6] [--out DIR] [--data DIR]

The data are found as paddle.vision.datasets.FashionMNIST finds them: Debian's
dataset-fashion-mnist package, or PaddlePaddle's cache folder; --data names a folder holding the
four idx .gz files instead. Adam with a cosine-decayed learning rate (2e-3 to 0 over the run)
reaches about 90% test accuracy in 6 epochs.
"""
import argparse
import json
import os
import sys

import numpy as np

import paddle
import paddle.vision.transforms as T
from paddle.static import InputSpec
from paddle.vision.datasets import FashionMNIST
from paddle.vision.models import LeNet

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from curves import save_curves  # noqa: E402


class History(paddle.callbacks.Callback):
    """Per epoch: the mean loss over the epoch's training batches and over the eval batches, and
    the training and eval accuracy. (The logs' "loss" is the last batch's.)"""

    def __init__(self):
        super().__init__()
        self.curves = {"loss": {"train": [], "eval": []}, "accuracy": {"train": [], "eval": []}}
        self._train_losses, self._eval_losses = [], []

    def on_epoch_begin(self, epoch, logs=None):
        self._train_losses = []

    def on_train_batch_end(self, step, logs=None):
        self._train_losses.append(float(np.mean(logs["loss"])))

    def on_eval_begin(self, logs=None):
        self._eval_losses = []

    def on_eval_batch_end(self, step, logs=None):
        self._eval_losses.append(float(np.mean(logs["loss"])))

    def on_epoch_end(self, epoch, logs=None):
        self.curves["loss"]["train"].append(float(np.mean(self._train_losses)))
        self.curves["accuracy"]["train"].append(float(logs["acc"]))

    def on_eval_end(self, logs=None):
        self.curves["loss"]["eval"].append(float(np.mean(self._eval_losses)))
        self.curves["accuracy"]["eval"].append(float(logs["acc"]))


def datasets(data_dir):
    transform = T.Compose([T.ToTensor(), T.Normalize(mean=[0.5], std=[0.5])])
    splits = []
    for mode, prefix in (("train", "train"), ("test", "t10k")):
        paths = {}
        if data_dir:
            paths = {"image_path": os.path.join(data_dir, f"{prefix}-images-idx3-ubyte.gz"),
                     "label_path": os.path.join(data_dir, f"{prefix}-labels-idx1-ubyte.gz")}
        splits.append(FashionMNIST(mode=mode, transform=transform, **paths))
    return splits


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--data", help="folder of the four Fashion-MNIST idx .gz files")
    parser.add_argument("--out", default="lenet_fashion_mnist",
                        help="folder for the inference model, curves.png and metrics.json")
    parser.add_argument("--limit", type=int, default=0,
                        help="train and test on the first N images only (a quick check)")
    args = parser.parse_args()
    paddle.seed(0)
    os.makedirs(args.out, exist_ok=True)

    train_data, test_data = datasets(args.data)
    if args.limit:
        train_data = paddle.io.Subset(train_data, range(args.limit))
        test_data = paddle.io.Subset(test_data, range(args.limit))
    print(f"data: {len(train_data)} training and {len(test_data)} test images")

    model = paddle.Model(LeNet(num_classes=10),
                         inputs=[InputSpec([None, 1, 28, 28], "float32", "image")],
                         labels=[InputSpec([None, 1], "int64", "label")])
    steps = args.epochs * ((len(train_data) + args.batch_size - 1) // args.batch_size)
    schedule = paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=2e-3, T_max=steps)
    model.prepare(paddle.optimizer.Adam(learning_rate=schedule, parameters=model.parameters()),
                  paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
    history = History()
    print(f"training LeNet for {args.epochs} epochs, batch {args.batch_size}")
    model.fit(train_data, test_data, epochs=args.epochs, batch_size=args.batch_size,
              verbose=1, callbacks=[history])

    accuracy = float(model.evaluate(test_data, batch_size=1000, verbose=0)["acc"])
    print(f"test accuracy: {accuracy:.4f}")
    prefix = os.path.join(args.out, "lenet")
    model.save(prefix, training=False)
    print(f"saved the inference model as {prefix}.pdmodel and {prefix}.pdiparams")
    save_curves(os.path.join(args.out, "curves.png"), history.curves)
    with open(os.path.join(args.out, "metrics.json"), "w") as f:
        json.dump({"test accuracy": accuracy, "curves": history.curves}, f, indent=1)
    print(f"wrote {os.path.join(args.out, 'curves.png')} and metrics.json")


if __name__ == "__main__":
    main()
