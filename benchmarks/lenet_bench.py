"""LeNet on Fashion-MNIST: one epoch of training (batch 64, Adam 1e-3, cross-entropy) and the
test accuracy after it, on this framework, on PaddlePaddle (PADDLE_REFERENCE_PYTHON) and on
PyTorch (TORCH_PYTHON, or torch in this interpreter), side by side, then a table and JSON.

    OMP_NUM_THREADS=2 python benchmarks/lenet_bench.py [--epochs 1] [--out results/lenet.json]

The model is paddle.vision.models.LeNet's architecture, written out in each framework so that
the three run the same layers. The data are the idx files of Debian's dataset-fashion-mnist
package (or --data DIR), decoded with NumPy and normalised to [-1, 1] once, outside the timed
loop, so the times are those of the training steps alone (the DataLoader has its own benchmark).
Every framework sees the same batches in the same order. Each runs in its own process
(PaddlePaddle is imported as `paddle` too) with OMP_NUM_THREADS threads (default 2).
"""
import argparse
import datetime
import gzip
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

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
    nn = paddle.nn
    model = nn.Sequential(
        nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
        nn.Conv2D(6, 16, 5, stride=1, padding=0), nn.ReLU(), nn.MaxPool2D(2, 2),
        nn.Flatten(), nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, 10))
    optimizer = paddle.optimizer.Adam(learning_rate=1e-3, parameters=model.parameters())
    loss_fn = nn.CrossEntropyLoss()

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
    nn = torch.nn
    model = nn.Sequential(
        nn.Conv2d(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2d(2, 2),
        nn.Conv2d(6, 16, 5, stride=1, padding=0), nn.ReLU(), nn.MaxPool2d(2, 2),
        nn.Flatten(), nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, 10))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()

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


def run(python, framework, args, keep_pythonpath=True):
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2"))
    if not keep_pythonpath:  # the reference interpreter imports its own paddle
        env.pop("PYTHONPATH", None)
    out = subprocess.run([python, os.path.abspath(__file__), "--framework", framework,
                          "--epochs", str(args.epochs), "--data", args.data],
                         check=True, capture_output=True, text=True, env=env, cwd="/")
    return json.loads(out.stdout.strip().splitlines()[-1])


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
        module = __import__(args.framework)
        result["version"] = f"{module.__version__} ({os.path.dirname(module.__file__)})"
        print(json.dumps(result))
        return
    if not os.path.exists(os.path.join(args.data, "train-images-idx3-ubyte.gz")):
        sys.exit(f"lenet_bench: no Fashion-MNIST idx files in {args.data}; install Debian's "
                 "dataset-fashion-mnist package or pass --data DIR")
    results = {"ours": run(sys.executable, "paddle", args)}
    reference = os.environ.get("PADDLE_REFERENCE_PYTHON")
    if reference:
        results["paddlepaddle"] = run(reference, "paddle", args, keep_pythonpath=False)
    torch_python = os.environ.get("TORCH_PYTHON")
    if torch_python:
        results["torch"] = run(torch_python, "torch", args, keep_pythonpath=False)
    elif importlib.util.find_spec("torch") is not None:
        results["torch"] = run(sys.executable, "torch", args)
    versions = {k: v.pop("version") for k, v in results.items()}
    print("versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    print(f"LeNet, Fashion-MNIST, batch {BATCH}, Adam 1e-3, {args.epochs} epoch(s); "
          "ratio: their time / ours (> 1 means we are faster)")
    header = ["framework", "s/epoch", "median step ms", "last loss", "test accuracy"]
    rows = []
    ours = results["ours"]
    for name, r in results.items():
        ratio = "" if name == "ours" else \
            f" ({r['seconds per epoch'] / ours['seconds per epoch']:.2f}x)"
        rows.append([name, f"{r['seconds per epoch']:.2f}{ratio}", f"{r['median step ms']:.2f}",
                     f"{r['last loss']:.4f}", f"{r['test accuracy']:.4f}"])
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    for r in [header] + rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"date": datetime.datetime.now().isoformat(timespec="seconds"),
                   "machine": platform.processor() or platform.machine(),
                   "cpus": os.cpu_count(), "versions": versions, "results": results}, f, indent=1)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
