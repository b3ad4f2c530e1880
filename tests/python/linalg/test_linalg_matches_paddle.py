"""This framework's linear algebra against PaddlePaddle's recorded results
(tools/record_paddle_linalg.py): values, dtypes and the signs of singular and eigen vectors."""
import os
import sys

import numpy as np
import pytest

import paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from linalg_cases import run  # noqa: E402

REFERENCE = np.load(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                 "paddle_linalg_reference.npz"))
NAMES = [name for name in REFERENCE.files if name != "paddle_version"]
OURS = {}


def ours():
    if not OURS:
        OURS.update(run(paddle))
    return OURS


@pytest.mark.parametrize("name", NAMES)
def test_matches_paddle(name):
    expected = REFERENCE[name]
    actual = ours()[name]
    assert actual.dtype == expected.dtype and actual.shape == expected.shape, (
        f"{name}: {actual.dtype}{actual.shape}, Paddle {expected.dtype}{expected.shape}")
    np.testing.assert_allclose(actual, expected, rtol=1e-12, atol=1e-13, err_msg=name)
