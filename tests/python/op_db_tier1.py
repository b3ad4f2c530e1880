"""Harness entries (op_db.py) of the tier-1 ops that the docstring examples found missing:
scatter."""
import numpy as np

import paddle
from harness import ErrorSample, OpInfo, Sample
from op_db import uniform


def np_scatter(x, index, updates, overwrite=True):
    out = x.copy()
    ids = index.reshape(-1)
    rows = updates.reshape((ids.size,) + x.shape[1:])
    if not overwrite:
        out[ids] = 0
    for i, row in zip(ids, rows):
        out[i] = row if overwrite else out[i] + row
    return out


def ids(*values):
    return np.array(values, dtype=np.int64)


TIER1_OPS = [
    OpInfo("scatter", paddle.scatter, np_scatter, lambda rng: [
        Sample([uniform(rng, (4, 3)), ids(2, 0), uniform(rng, (2, 3))]),
        Sample([uniform(rng, (4, 3)), ids(2, 1, 2, 1), uniform(rng, (4, 3))],
               {"overwrite": False}),
        Sample([uniform(rng, (3, 2, 2)), np.array([[1], [0]], dtype=np.int32),
                uniform(rng, (2, 2, 2))]),
        Sample([uniform(rng, (5,)), ids(4, 0, 3), uniform(rng, (3,))], {"overwrite": False}),
        # A repeated index with overwrite: the last update wins, and as in Paddle every update
        # still gets its row of out_grad, which is not the numeric gradient of the ones
        # overwritten.
        Sample([uniform(rng, (3, 2)), ids(1, 1), uniform(rng, (2, 2))], grad_args=[])],
        errors=lambda: [
            ErrorSample([np.zeros((3, 2)), ids(3), np.zeros((1, 2))], {}, IndexError, "index"),
            ErrorSample([np.zeros((3, 2)), ids(0, 1), np.zeros((2, 3))], {}, ValueError,
                        "updates"),
            ErrorSample([np.zeros((3, 2)), np.zeros((2, 2), dtype=np.int64), np.zeros((2, 2))],
                        {}, ValueError, "index")]),
]
