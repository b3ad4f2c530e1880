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
import datetime
import json
import os
import platform
import subprocess
import sys
import time

LOADERS = [("main process", 0, True), ("2 workers, shared memory", 2, True),
           ("2 workers, pickled", 2, False)]
DATASETS = ["compute", "copy"]
CONFIGS = [f"{dataset}: {loader[0]}" for dataset in DATASETS for loader in LOADERS]
FASHION_MNIST = "/usr/share/datasets/fashion-mnist"
FASHION_CONFIGS = [("fashion-mnist: main process", 0), ("fashion-mnist: 2 workers", 2)]


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
        best = float("inf")
        for _ in range(repeats):
            loader = paddle.io.DataLoader(subset, batch_size=64, shuffle=True, num_workers=workers)
            start = time.perf_counter()
            count = sum(1 for _ in loader)
            best = min(best, time.perf_counter() - start)
            assert count == batches
        results[name] = batches * 64 / best
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
            best = float("inf")
            for _ in range(repeats):
                loader = paddle.io.DataLoader(Images(dataset), batch_size=32, num_workers=workers,
                                              use_shared_memory=shared)
                start = time.perf_counter()
                count = sum(1 for _ in loader)
                best = min(best, time.perf_counter() - start)
                assert count == batches
            results[f"{dataset}: {name}"] = batches / best
    return results


def run(python, batches, repeats):
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2"))
    env.pop("PYTHONPATH", None)
    out = subprocess.run([python, os.path.abspath(__file__), "--child", "--batches", str(batches),
                          "--repeats", str(repeats)], check=True, capture_output=True, text=True,
                         env=env, cwd="/")
    return json.loads(out.stdout.strip().splitlines()[-1])


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
    frameworks = {"ours": run(sys.executable, args.batches, args.repeats)}
    reference = os.environ.get("PADDLE_REFERENCE_PYTHON")
    if reference:
        frameworks["paddle"] = run(reference, args.batches, args.repeats)
    print(f"{'images/s (Fashion-MNIST, batch 64)':44}" +
          "".join(f"{name:>10}" for name in frameworks))
    for name, _ in FASHION_CONFIGS:
        print(f"{name:44}" + "".join(f"{r.get(name, float('nan')):10.0f}"
                                     for r in frameworks.values()))
    print(f"{'batches/s (batch 32 of 3x128x128 float32)':44}" +
          "".join(f"{name:>10}" for name in frameworks))
    for name in CONFIGS:
        print(f"{name:44}" + "".join(f"{r[name]:10.1f}" for r in frameworks.values()))
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            json.dump({"date": datetime.datetime.now().isoformat(), "machine": platform.node(),
                       "batches": args.batches, "results": frameworks}, f, indent=1)


if __name__ == "__main__":
    main()
