"""Records what PaddlePaddle's optimizers give on the cases of
tests/python/optimizer/optimizer_cases.py (losses, final parameters and optimizer state after
each case's steps, in dygraph and as a static program; LBFGS in dygraph) into
tests/python/optimizer/paddle_optimizers_reference.npz, which test_more_optimizers.py compares
this framework with. A case whose static run fails under PaddlePaddle is recorded without
"static/..." entries (the list is printed).

Run with PaddlePaddle's Python (3.3.1 recorded the committed file):
    /opt/venv-paddle/bin/python tools/record_paddle_optimizers.py"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "..", "tests", "python", "optimizer")
sys.path.insert(0, CASES_DIR)

import paddle  # noqa: E402
from optimizer_cases import (CASES, LBFGS_CASES, run_dygraph, run_lbfgs,  # noqa: E402
                             run_static)


def main():
    recorded = {"paddle_version": np.asarray(paddle.__version__)}
    static_failures = []
    for name in CASES:
        with paddle.utils.unique_name.guard():
            for key, value in run_dygraph(paddle, name).items():
                recorded[f"{name}/dygraph/{key}"] = value
        paddle.enable_static()
        try:
            with paddle.utils.unique_name.guard(), paddle.static.scope_guard(
                    paddle.static.Scope()):
                for key, value in run_static(paddle, name).items():
                    recorded[f"{name}/static/{key}"] = value
        except Exception as error:  # recorded as missing; the test then checks dygraph only
            static_failures.append(f"{name}: {type(error).__name__}: {error}"[:200])
        finally:
            paddle.disable_static()
    for name in LBFGS_CASES:  # dygraph only, as LBFGS is
        for key, value in run_lbfgs(paddle, name).items():
            recorded[f"{name}/dygraph/{key}"] = value
    path = os.path.join(CASES_DIR, "paddle_optimizers_reference.npz")
    np.savez_compressed(path, **recorded)
    print(f"recorded {len(recorded) - 1} arrays from paddle {paddle.__version__} in {path}")
    for failure in static_failures:
        print("static run failed under PaddlePaddle:", failure)


if __name__ == "__main__":
    main()
