"""Trains paddle.vision.models.resnet18 on CIFAR-10-shaped data with a custom training loop that
saves a checkpoint after every epoch and resumes from it, then saves an inference model.

    python examples/resnet_cifar/train.py [--epochs 5] [--out DIR] [--resume]
    python examples/resnet_cifar/train.py --cifar10 cifar-10-python.tar.gz   # the real data

Without --cifar10 the data are generated: 3x32x32 images of ten classes, each class a coloured
grating of its own orientation and frequency under random phase, contrast and noise, so the run
needs no download. --resume continues from DIR/checkpoint.* (model, optimizer and epoch).
"""
import argparse
import json
import os

import numpy as np

import paddle
from paddle.io import DataLoader, Dataset
from paddle.static import InputSpec
from paddle.vision.models import resnet18


class Gratings(Dataset):
    """CIFAR-10-shaped (3x32x32 float32 image, int64 label) samples generated from a seed."""

    def __init__(self, count, seed):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.labels = rng.integers(0, 10, count)
        ys, xs = np.mgrid[0:32, 0:32].astype(np.float32) / 32.0
        angles = np.pi * np.arange(10) / 10
        frequencies = 2.0 + (np.arange(10) % 3) * 1.5
        colours = rng.uniform(0.2, 1.0, (10, 3)).astype(np.float32)
        self.images = np.empty((count, 3, 32, 32), np.float32)
        for i, label in enumerate(self.labels):
            phase, contrast = rng.uniform(0, 2 * np.pi), rng.uniform(0.5, 1.0)
            wave = np.sin(2 * np.pi * frequencies[label] *
                          (xs * np.cos(angles[label]) + ys * np.sin(angles[label])) + phase)
            self.images[i] = contrast * colours[label][:, None, None] * wave
        self.images += rng.normal(0, 0.5, self.images.shape).astype(np.float32)

    def __getitem__(self, index):
        return self.images[index], np.int64(self.labels[index])

    def __len__(self):
        return len(self.labels)


def cifar10(data_file):
    import paddle.vision.transforms as T
    transform = T.Compose([T.ToTensor(), T.Normalize([0.4914, 0.4822, 0.4465],
                                                     [0.2470, 0.2435, 0.2616])])
    return (paddle.vision.datasets.Cifar10(data_file, mode="train", transform=transform),
            paddle.vision.datasets.Cifar10(data_file, mode="test", transform=transform))


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with paddle.no_grad():
        for images, labels in loader:
            predicted = model(images).argmax(axis=1)
            correct += int((predicted == labels.reshape([-1])).astype("int64").sum())
            total += labels.shape[0]
    model.train()
    return correct / total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--train-size", type=int, default=5000)
    parser.add_argument("--test-size", type=int, default=1000)
    parser.add_argument("--cifar10", help="CIFAR-10's cifar-10-python.tar.gz instead of generated data")
    parser.add_argument("--out", default="resnet_cifar")
    parser.add_argument("--resume", action="store_true", help="continue from OUT/checkpoint.*")
    args = parser.parse_args()
    paddle.seed(0)
    os.makedirs(args.out, exist_ok=True)
    if args.cifar10:
        train_set, test_set = cifar10(args.cifar10)
    else:
        train_set, test_set = Gratings(args.train_size, 1), Gratings(args.test_size, 2)
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True, drop_last=True)
    test_loader = DataLoader(test_set, batch_size=256)

    model = resnet18(num_classes=10)
    schedule = paddle.optimizer.lr.CosineAnnealingDecay(0.05, T_max=args.epochs)
    optimizer = paddle.optimizer.Momentum(schedule, momentum=0.9, weight_decay=5e-4,
                                          parameters=model.parameters())
    checkpoint = os.path.join(args.out, "checkpoint")
    first_epoch = 0
    if args.resume and os.path.exists(checkpoint + ".json"):
        model.set_state_dict(paddle.load(checkpoint + ".pdparams"))
        optimizer.set_state_dict(paddle.load(checkpoint + ".pdopt"))
        with open(checkpoint + ".json") as f:
            first_epoch = json.load(f)["epochs done"]
        print(f"resumed from {checkpoint}.* after epoch {first_epoch}")

    loss_fn = paddle.nn.CrossEntropyLoss()
    accuracy = None
    for epoch in range(first_epoch, args.epochs):
        losses = []
        for images, labels in train_loader:
            loss = loss_fn(model(images), labels)
            loss.backward()
            optimizer.step()
            optimizer.clear_grad()
            losses.append(float(loss))
        schedule.step()
        accuracy = evaluate(model, test_loader)
        print(f"epoch {epoch + 1}/{args.epochs}: train loss {np.mean(losses):.4f}, "
              f"test accuracy {accuracy:.4f}", flush=True)
        paddle.save(model.state_dict(), checkpoint + ".pdparams")
        paddle.save(optimizer.state_dict(), checkpoint + ".pdopt")
        with open(checkpoint + ".json", "w") as f:
            json.dump({"epochs done": epoch + 1, "test accuracy": accuracy}, f)

    if accuracy is None:
        accuracy = evaluate(model, test_loader)
    print(f"test accuracy: {accuracy:.4f}")
    model.eval()
    prefix = os.path.join(args.out, "resnet18")
    paddle.jit.save(model, prefix, input_spec=[InputSpec([None, 3, 32, 32], "float32", "image")])
    print(f"saved the inference model as {prefix}.pdmodel and {prefix}.pdiparams")


if __name__ == "__main__":
    main()
