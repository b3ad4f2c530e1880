"""paddle.vision.transforms against values recorded from PaddlePaddle 3.3.1
(tools/record_vision_reference.py, data/paddle_vision_reference.npz): the PIL, Tensor and
OpenCV-free NumPy paths and the seeded random transforms give Paddle's results."""
import os
import sys

import numpy as np
import pytest

import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools"))
import record_vision_reference as recorded  # noqa: E402

pytest.importorskip("PIL")
REFERENCE = np.load(os.path.join(HERE, "data", "paddle_vision_reference.npz"))
CASES = recorded.cases()


def test_every_recorded_case_is_checked():
    assert set(CASES) == set(REFERENCE.files) - {"paddle_version"}
    assert str(REFERENCE["paddle_version"]) == "3.3.1"


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_paddle(name):
    result = np.asarray(CASES[name](paddle, recorded.make_inputs()))
    expected = REFERENCE[name]
    assert result.shape == expected.shape
    assert result.dtype == expected.dtype
    np.testing.assert_allclose(result.astype(np.float64), expected.astype(np.float64), atol=1e-5,
                               rtol=1e-5)
