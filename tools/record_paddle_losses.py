"""Records what PaddlePaddle's losses give on the cases of tests/python/nn/loss_cases.py: each
loss and the gradients of its sum, into tests/python/nn/paddle_losses_reference.npz, which
test_loss_functions.py compares this framework with.

Run with PaddlePaddle's Python (3.3.1 recorded the committed file):
    /opt/venv-paddle/bin/python tools/record_paddle_losses.py"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "..", "tests", "python", "nn")
sys.path.insert(0, CASES_DIR)

import paddle  # noqa: E402
from loss_cases import cases, run  # noqa: E402


def main():
    recorded = {"paddle_version": np.asarray(paddle.__version__)}
    for name, case in cases().items():
        for key, value in run(paddle, case).items():
            recorded[f"{name}/{key}"] = value
    path = os.path.join(CASES_DIR, "paddle_losses_reference.npz")
    np.savez_compressed(path, **recorded)
    print(f"recorded {len(recorded) - 1} arrays from paddle {paddle.__version__} in {path}")


if __name__ == "__main__":
    main()
