"""DataLoader benchmark. First, images per second of the Fashion-MNIST pipeline
(paddle.vision.datasets.FashionMNIST with ToTensor + Normalize, batch 64, shuffled), in the main
process and with 2 workers, on the idx files of Debian's dataset-fashion-mnist package. Then
batches per second of paddle.io.DataLoader over image-like datasets
(float32 [3, 128, 128] samples, batch 32, about 6 MB a batch): "compute" makes each sample with
a little numpy work (a decode stand-in), "copy" only copies a stored sample, so the loader's own
cost (collation, transport, Tensor conversion) dominates. Each runs in the main process and with
2 workers, through shared memory and pickled, on this framework and on PaddlePaddle when
PADDLE_REFERENCE_PYTHON names an interpreter that has it.

    python benchmarks/dataloader_bench.py [--batches 40] [--out results/dataloader.json]

Each configuration runs in a fresh interpreter (started from / so that `import paddle` finds
the installed package); the time covers the whole epoch, worker start-up included. The best of
--repeats epochs is reported.
"""
import argparse
import json
import os
import sys

from bench_common import best_ms, print_side_by_side, reference_pythons, run_script, write_results

LOADERS = [("main process", 0, True), ("2 workers, shared memory", 2, True),
           ("2 workers, pickled", 2, False)]
DATASETS = ["compute", "copy"]
CONFIGS = [f"{dataset}: {loader[0]}" for dataset in DATASETS for loader in LOADERS]
FASHION_MNIST = "/usr/share/datasets/fashion-mnist"
FASHION_CONFIGS = [("fashion-mnist: main process", 0), ("fashion-mnist: 2 workers", 2)]


def epoch(loader, batches):
    """A function that iterates the loader once, checking that it yields `batches` batches."""
    def run():
        count = sum(1 for _ in loader)
        assert count == batches
    return run


def measure_fashion_mnist(batches, repeats):
    """Images per second of each FASHION_CONFIGS loader over `batches` batches of 64."""
    import paddle
    import paddle.vision.transforms as T
    transform = T.Compose([T.ToTensor(), T.Normalize(mean=[0.5], std=[0.5])])
    dataset = paddle.vision.datasets.FashionMNIST(
        image_path=os.path.join(FASHION_MNIST, "train-images-idx3-ubyte.gz"),
        label_path=os.path.join(FASHION_MNIST, "train-labels-idx1-ubyte.gz"),
        mode="train", transform=transform)
    subset = paddle.io.Subset(dataset, list(range(batches * 64)))
    results = {}
    for name, workers in FASHION_CONFIGS:
        loader = paddle.io.DataLoader(subset, batch_size=64, shuffle=True, num_workers=workers)
        results[name] = batches * 64 / (best_ms(epoch(loader, batches), repeats, warmup=False) / 1e3)
    return results


def measure(batches, repeats):
    import numpy as np

    import paddle

    stored = np.random.RandomState(0).rand(3, 128, 128).astype("float32")

    class Images(paddle.io.Dataset):
        def __init__(self, kind):
            self.kind = kind

        def __len__(self):
            return batches * 32

        def __getitem__(self, i):
            if self.kind == "copy":
                return stored.copy(), np.int64(i % 10)
            image = np.random.RandomState(i).rand(3, 128, 128).astype("float32")
            return (image - 0.5) / 0.25, np.int64(i % 10)

    results = {}
    if os.path.isdir(FASHION_MNIST):
        results.update(measure_fashion_mnist(batches * 5, repeats))
    for dataset in DATASETS:
        for name, workers, shared in LOADERS:
            loader = paddle.io.DataLoader(Images(dataset), batch_size=32, num_workers=workers,
                                          use_shared_memory=shared)
            seconds = best_ms(epoch(loader, batches), repeats, warmup=False) / 1e3
            results[f"{dataset}: {name}"] = batches / seconds
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.batches, args.repeats)))
        return
    pythons = {"ours": sys.executable, **reference_pythons()}
    frameworks = {name: run_script(python, __file__, "--child", "--batches", args.batches,
                                   "--repeats", args.repeats)
                  for name, python in pythons.items()}
    print_side_by_side("images/s (Fashion-MNIST, batch 64)", frameworks,
                       [name for name, _ in FASHION_CONFIGS], 44, decimals=0)
    print_side_by_side("batches/s (batch 32 of 3x128x128 float32)", frameworks, CONFIGS, 44,
                       decimals=1)
    if args.out:
        write_results(args.out, frameworks, batches=args.batches)


if __name__ == "__main__":
    main()
