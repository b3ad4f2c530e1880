"""Records what PaddlePaddle's linear algebra gives on the calls of
tests/python/linalg/linalg_cases.py into tests/python/linalg/paddle_linalg_reference.npz, which
test_linalg_matches_paddle.py compares this framework with.

Run with PaddlePaddle's Python (3.3.1 recorded the committed file):
    /opt/venv-paddle/bin/python tools/record_paddle_linalg.py"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "..", "tests", "python", "linalg")
sys.path.insert(0, CASES_DIR)

import paddle  # noqa: E402
from linalg_cases import run  # noqa: E402


def main():
    recorded = {"paddle_version": np.asarray(paddle.__version__)}
    recorded.update(run(paddle))
    path = os.path.join(CASES_DIR, "paddle_linalg_reference.npz")
    np.savez_compressed(path, **recorded)
    print(f"recorded {len(recorded) - 1} arrays from paddle {paddle.__version__} in {path}")


if __name__ == "__main__":
    main()
