"""Serves Fashion-MNIST test images through the C++ inference library: runs the serve_model
program of examples/cpp_inference on the saved LeNet and prints each prediction beside its label.

    python examples/lenet_fashion_mnist/serve_cpp.py SERVE_MODEL_BINARY MODEL_PREFIX [--count 8]

MODEL_PREFIX is what train.py saved (PREFIX.pdmodel and PREFIX.pdiparams). The images get the
same ToTensor + Normalize as in training.
"""
import argparse
import subprocess
import sys

import numpy as np

from paddle.vision.datasets import FashionMNIST

CLASSES = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker",
           "Bag", "Ankle boot"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("serve_model", help="the serve_model binary built from examples/cpp_inference")
    parser.add_argument("model_prefix")
    parser.add_argument("--count", type=int, default=8)
    parser.add_argument("--data", help="folder of the four Fashion-MNIST idx .gz files")
    args = parser.parse_args()
    paths = {}
    if args.data:
        paths = {"image_path": f"{args.data}/t10k-images-idx3-ubyte.gz",
                 "label_path": f"{args.data}/t10k-labels-idx1-ubyte.gz"}
    test = FashionMNIST(mode="test", backend="cv2", **paths)
    # A stride through the test set, so the images are of several classes.
    indices = np.linspace(0, len(test) - 1, args.count).astype(int)
    images = np.stack([np.asarray(test[i][0], dtype=np.float32) for i in indices])
    labels = [int(np.asarray(test[i][1]).reshape(-1)[0]) for i in indices]
    batch = (images / 255.0 - 0.5) / 0.5
    request = f"{len(indices)} 1 28 28\n" + " ".join(f"{v:.6g}" for v in batch.ravel()) + "\n"
    served = subprocess.run([args.serve_model, f"{args.model_prefix}.pdmodel",
                             f"{args.model_prefix}.pdiparams"],
                            input=request, capture_output=True, text=True)
    if served.returncode != 0:
        sys.exit(f"serve_model failed: {served.stderr.strip()}")
    _name, shape, values = served.stdout.strip().splitlines()[:3]
    logits = np.array(values.split(), dtype=np.float64).reshape([int(d) for d in shape.split()])
    correct = 0
    for index, label, row in zip(indices, labels, logits):
        predicted = int(row.argmax())
        correct += predicted == label
        mark = "" if predicted == label else "   <- wrong"
        print(f"test image {index:5d}: predicted {CLASSES[predicted]:<11}  label "
              f"{CLASSES[label]:<11}{mark}")
    print(f"{correct} of {len(indices)} served predictions match their labels")


if __name__ == "__main__":
    main()
