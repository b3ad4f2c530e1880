"""LeNet on Fashion-MNIST: one epoch of training (batch 64, Adam 1e-3, cross-entropy) and the
test accuracy after it, on this framework, on PaddlePaddle (PADDLE_REFERENCE_PYTHON) and on
PyTorch (TORCH_PYTHON, or torch in this interpreter), side by side, then a table and JSON.

    OMP_NUM_THREADS=2 python benchmarks/lenet_bench.py [--epochs 1] [--out results/lenet.json]

The model is paddle.vision.models.LeNet's architecture, built by vision_models.lenet from each
framework's layers so that the three run the same layers. The data are the idx files of Debian's
dataset-fashion-mnist package (or --data DIR), decoded with NumPy and normalised to [-1, 1] once,
outside the timed loop, so the times are those of the training steps alone (the DataLoader has
its own benchmark).
Every framework sees the same batches in the same order. Each runs in its own process
(PaddlePaddle is imported as `paddle` too) with OMP_NUM_THREADS threads (default 2).
"""
import argparse
import gzip
import json
import os
import sys
import time

import numpy as np

import vision_models
from bench_common import (compared_frameworks, module_version, print_table, report_versions,
                          run_script, with_ratio, write_results)

HERE = os.path.dirname(os.path.abspath(__file__))
DEBIAN_FASHION_MNIST = "/usr/share/datasets/fashion-mnist"
BATCH = 64


def read_idx(path):
    """The array stored in an idx file (gzip-compressed): a big-endian header of the element type
    and the dimensions, then the elements."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    ndim = data[3]
    dims = np.frombuffer(data, dtype=">i4", count=ndim, offset=4)
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)


def load_split(data_dir, prefix):
    images = read_idx(os.path.join(data_dir, f"{prefix}-images-idx3-ubyte.gz"))
    labels = read_idx(os.path.join(data_dir, f"{prefix}-labels-idx1-ubyte.gz"))
    images = (images.astype(np.float32) / 127.5 - 1.0)[:, None, :, :]
    return images, labels.astype(np.int64)


def batches(images, labels, epoch):
    order = np.random.default_rng(epoch).permutation(len(images))
    for start in range(0, len(order) - BATCH + 1, BATCH):  # drop_last
        index = order[start:start + BATCH]
        yield images[index], labels[index]


def train_paddle(data_dir, epochs):
    import paddle
    paddle.seed(0)
    model = vision_models.lenet(vision_models.PaddleLayers())
    optimizer = paddle.optimizer.Adam(learning_rate=1e-3, parameters=model.parameters())
    loss_fn = paddle.nn.CrossEntropyLoss()

    def step(x, y):
        loss = loss_fn(model(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        return loss

    def predict(x):
        with paddle.no_grad():
            return model(paddle.to_tensor(x)).numpy()
    return run_training(data_dir, epochs, step, predict, lambda loss: float(loss), model)


def train_torch(data_dir, epochs):
    import torch
    torch.manual_seed(0)
    model = vision_models.lenet(vision_models.TorchLayers())
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = torch.nn.CrossEntropyLoss()

    def step(x, y):
        loss = loss_fn(model(torch.from_numpy(x)), torch.from_numpy(y))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        return loss

    def predict(x):
        with torch.no_grad():
            return model(torch.from_numpy(x)).numpy()
    return run_training(data_dir, epochs, step, predict, lambda loss: float(loss), model)


def run_training(data_dir, epochs, step, predict, loss_value, model):
    train_images, train_labels = load_split(data_dir, "train")
    test_images, test_labels = load_split(data_dir, "t10k")
    epoch_seconds, step_ms, last_loss = [], [], None
    for epoch in range(epochs):
        start = time.perf_counter()
        for x, y in batches(train_images, train_labels, epoch):
            step_start = time.perf_counter()
            loss = step(x, y)
            step_ms.append((time.perf_counter() - step_start) * 1e3)
        last_loss = loss_value(loss)  # forces the last step to finish
        epoch_seconds.append(time.perf_counter() - start)
    correct = 0
    for begin in range(0, len(test_images), 1000):
        logits = predict(test_images[begin:begin + 1000])
        correct += int((logits.argmax(axis=1) == test_labels[begin:begin + 1000]).sum())
    return {"seconds per epoch": min(epoch_seconds), "median step ms": float(np.median(step_ms)),
            "last loss": last_loss, "test accuracy": correct / len(test_images)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--framework", choices=["paddle", "torch"])
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--data", default=DEBIAN_FASHION_MNIST,
                        help="folder of the four Fashion-MNIST idx .gz files")
    parser.add_argument("--out", default=os.path.join(HERE, "results", "lenet.json"))
    args = parser.parse_args()
    if args.framework:  # one framework, in this process: print its JSON
        train = train_paddle if args.framework == "paddle" else train_torch
        result = train(args.data, args.epochs)
        result["version"] = module_version(args.framework)
        print(json.dumps(result))
        return
    if not os.path.exists(os.path.join(args.data, "train-images-idx3-ubyte.gz")):
        sys.exit(f"lenet_bench: no Fashion-MNIST idx files in {args.data}; install Debian's "
                 "dataset-fashion-mnist package or pass --data DIR")
    results = {name: run_script(python, __file__, "--framework", framework,
                                "--epochs", args.epochs, "--data", args.data)
               for name, (python, framework) in compared_frameworks(torch=True).items()}
    versions = report_versions(results)
    print(f"LeNet, Fashion-MNIST, batch {BATCH}, Adam 1e-3, {args.epochs} epoch(s); "
          "ratio: their time / ours (> 1 means we are faster)")
    header = ["framework", "s/epoch", "median step ms", "last loss", "test accuracy"]
    rows = []
    ours = results["ours"]
    for name, r in results.items():
        seconds = r["seconds per epoch"]
        rows.append([name, f"{seconds:.2f}" if name == "ours" else
                     with_ratio(seconds, ours["seconds per epoch"]),
                     f"{r['median step ms']:.2f}", f"{r['last loss']:.4f}",
                     f"{r['test accuracy']:.4f}"])
    print_table(header, rows)
    write_results(args.out, results, versions=versions)


if __name__ == "__main__":
    main()
