"""Records PaddlePaddle's random draws for tests/python/random/random_cases.py into
tests/python/random/paddle_random_reference.npz, which test_random_parity.py compares this
framework's draws with bit for bit.

    python tools/record_paddle_random.py [--python PADDLE_PYTHON]

PADDLE_PYTHON (default: $PADDLE_REFERENCE_PYTHON) is an interpreter with PaddlePaddle installed;
the script runs itself there (3.3.1 recorded the committed file)."""
import argparse
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "..", "tests", "python", "random")
OUTPUT = os.path.join(CASES_DIR, "paddle_random_reference.npz")


def record():
    sys.path.insert(0, CASES_DIR)
    import paddle
    from random_cases import cases, run
    recorded = {"paddle_version": np.asarray(paddle.__version__)}
    for name, (seed, draw) in cases().items():
        for index, value in enumerate(run(paddle, seed, draw)):
            recorded[f"{name}/{index}"] = value
    np.savez_compressed(OUTPUT, **recorded)
    print(f"recorded {len(recorded) - 1} arrays from paddle {paddle.__version__} in {OUTPUT}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=os.environ.get("PADDLE_REFERENCE_PYTHON"),
                        help="the interpreter with PaddlePaddle (default: "
                             "$PADDLE_REFERENCE_PYTHON)")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        record()
        return
    if not args.python:
        parser.error("name PaddlePaddle's interpreter with --python or PADDLE_REFERENCE_PYTHON")
    # Run outside the checkout's directory so that `import paddle` finds PaddlePaddle.
    subprocess.run([args.python, os.path.abspath(__file__), "--inside"], check=True, cwd="/")


if __name__ == "__main__":
    main()
