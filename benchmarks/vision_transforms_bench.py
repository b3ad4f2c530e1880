"""paddle.vision benchmark: images per second of typical transform pipelines (on PIL images,
NumPy arrays and Tensors) and the time to open and read Fashion-MNIST's test split, on this
framework and on PaddlePaddle when PADDLE_REFERENCE_PYTHON names an interpreter that has it.

    python benchmarks/vision_transforms_bench.py [--images 40] [--out results/vision.json]

Each framework runs in a fresh interpreter (started from / so that `import paddle` finds the
installed package); the best of --repeats runs is reported. A pipeline the framework cannot run
(Paddle's NumPy path needs OpenCV) is reported as n/a.
"""
import argparse
import json
import os
import random
import sys

from bench_common import best_ms, print_side_by_side, reference_pythons, run_script, write_results

FASHION = "/usr/share/datasets/fashion-mnist/"
WORKLOADS = ["PIL train (RandomResizedCrop 224, flip, ToTensor, Normalize)",
             "PIL eval (Resize 256, CenterCrop 224, ToTensor, Normalize)",
             "NumPy (Resize 224, RandomRotation 15, ColorJitter)",
             "Tensor (Resize 224x224, hflip, Normalize)",
             "Fashion-MNIST test: open + 10000 samples (samples/s)"]


def _pipelines(paddle, np):
    T = paddle.vision.transforms
    from PIL import Image
    rng = np.random.RandomState(0)
    arrays = [rng.randint(0, 256, (375, 500, 3)).astype(np.uint8) for _ in range(4)]
    pil = [Image.fromarray(a) for a in arrays]
    tensors = [paddle.to_tensor(a.transpose(2, 0, 1).astype(np.float32) / 255) for a in arrays]
    normalize = T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
    return {
        WORKLOADS[0]: (T.Compose([T.RandomResizedCrop(224), T.RandomHorizontalFlip(), T.ToTensor(),
                                  normalize]), pil),
        WORKLOADS[1]: (T.Compose([T.Resize(256), T.CenterCrop(224), T.ToTensor(), normalize]), pil),
        WORKLOADS[2]: (T.Compose([T.Resize(224), T.RandomRotation(15), T.ColorJitter(0.3, 0.3)]),
                       arrays),
        WORKLOADS[3]: (T.Compose([T.Resize((224, 224)), T.RandomHorizontalFlip(1.0), normalize]),
                       tensors),
    }


def measure(images, repeats):
    import numpy as np

    import paddle
    random.seed(0)
    np.random.seed(0)
    results = {}
    for name, (pipeline, inputs) in _pipelines(paddle, np).items():
        def transform_all(pipeline=pipeline, inputs=inputs):
            for i in range(images):
                pipeline(inputs[i % len(inputs)])
        try:
            results[name] = images / (best_ms(transform_all, repeats, warmup=False) / 1e3)
        except Exception:  # the framework lacks this path (Paddle's NumPy path without cv2)
            results[name] = None
    if os.path.isdir(FASHION):
        def open_and_read():
            dataset = paddle.vision.datasets.FashionMNIST(
                FASHION + "t10k-images-idx3-ubyte.gz", FASHION + "t10k-labels-idx1-ubyte.gz",
                mode="test")
            for i in range(len(dataset)):
                dataset[i]
        results[WORKLOADS[4]] = 10000 / (best_ms(open_and_read, repeats, warmup=False) / 1e3)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.images, args.repeats)))
        return
    pythons = {"ours": sys.executable, **reference_pythons()}
    frameworks = {name: run_script(python, __file__, "--child", "--images", args.images,
                                   "--repeats", args.repeats)
                  for name, python in pythons.items()}
    print_side_by_side("images/s (375x500 RGB input)", frameworks, WORKLOADS, 62, decimals=1)
    if args.out:
        write_results(args.out, frameworks, images=args.images)


if __name__ == "__main__":
    main()
