"""This framework's random draws equal PaddlePaddle 3.3.1's bit for bit after the same
paddle.seed: every case of random_cases.py against the values tools/record_paddle_random.py
recorded from PaddlePaddle (paddle_random_reference.npz)."""
import os

import numpy as np
import pytest

import paddle
from random_cases import cases, run

REFERENCE = np.load(os.path.join(os.path.dirname(__file__), "paddle_random_reference.npz"))
CASES = cases()


def test_reference_was_recorded_from_paddle_3_3_1():
    assert str(REFERENCE["paddle_version"]) == "3.3.1"


@pytest.mark.parametrize("name", sorted(CASES))
def test_draws_equal_paddlepaddles(name):
    seed, draw = CASES[name]
    ours = run(paddle, seed, draw)
    expected = [REFERENCE[f"{name}/{i}"] for i in range(len(ours))]
    assert f"{name}/{len(ours)}" not in REFERENCE.files
    for index, (got, want) in enumerate(zip(ours, expected)):
        assert got.dtype == want.dtype, f"{name}/{index}: dtype {got.dtype} != {want.dtype}"
        assert got.shape == want.shape, f"{name}/{index}: shape {got.shape} != {want.shape}"
        assert np.array_equal(got, want), (
            f"{name}/{index}: first difference at {np.argwhere(got != want)[0]}")
