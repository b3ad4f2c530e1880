"""Records what PaddlePaddle gives on the cases of tests/python/hapi/hapi_cases.py: the
learning-rate schedules and the paddle.summary / paddle.flops text of a few networks, into
tests/python/hapi/paddle_hapi_reference.json.

Run with PaddlePaddle's Python (3.3.1 recorded the committed file):
    /opt/venv-paddle/bin/python tools/record_paddle_hapi.py"""
import json
import os
import sys

# paddle.flops counts the ops of a legacy (ProgramDesc) program; PaddlePaddle 3.x builds PIR
# programs unless this flag is off.
os.environ.setdefault("FLAGS_enable_pir_api", "0")

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "..", "tests", "python", "hapi")
sys.path.insert(0, CASES_DIR)

import paddle  # noqa: E402
from hapi_cases import (JUMP_EPOCHS, lr_cases, run_lr, run_lr_epochs, run_nets,  # noqa: E402
                        run_static_flops)


def _allow_int_of_one_element_tensors():
    # PaddlePaddle 3.3.1's flops() calls int() on [1]-shaped buffers, which NumPy 2 refuses
    # ("only 0-dimensional arrays can be converted"); give int() the element so it runs.
    paddle.Tensor.__int__ = lambda tensor: int(tensor.numpy().reshape(-1)[0])


def main():
    _allow_int_of_one_element_tensors()
    recorded = {"paddle_version": paddle.__version__, "lr": {}, "lr_epochs": {}}
    for name, build in lr_cases(paddle).items():
        recorded["lr"][name] = run_lr(build())
        if not name.startswith("OneCycleLR"):
            recorded["lr_epochs"][name] = run_lr_epochs(build(), JUMP_EPOCHS)
    recorded["nets"] = run_nets(paddle)
    recorded["static_flops"] = run_static_flops(paddle)
    path = os.path.join(CASES_DIR, "paddle_hapi_reference.json")
    with open(path, "w") as f:
        json.dump(recorded, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"recorded {len(recorded['lr'])} schedules and {len(recorded['nets'])} networks from "
          f"paddle {paddle.__version__} in {path}")


if __name__ == "__main__":
    main()
