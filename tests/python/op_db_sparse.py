"""Harness entries (op_db.py) of the adagrad update op. Its SelectedRows (sparse gradient)
kernel, and those of sgd, momentum and adam, are tested through the optimizers in
tests/python/optimizer/test_sparse_embedding.py, since the harness feeds dense tensors only."""
import numpy as np

import paddle
from harness import ErrorSample, OpInfo, Sample
from op_db import uniform


def np_adagrad(param, grad, moment, learning_rate, epsilon=1e-6):
    lr = np.asarray(learning_rate).reshape(-1)[0]
    m = moment + grad * grad
    return [param - lr * grad / (np.sqrt(m) + epsilon), m]


def adagrad_api(param, grad, moment, learning_rate, **kwargs):
    # The in-place variant, as the optimizer calls it: it returns the updated inputs.
    outputs = paddle._C_ops.adagrad_(param, grad, moment, learning_rate, None, **kwargs)
    return [o for o in outputs if o is not None]


def _adagrad_errors():
    ok = [np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 3)), np.array([0.1])]
    bad_moment = list(ok)
    bad_moment[2] = np.zeros((3, 2))
    bad_grad = list(ok)
    bad_grad[1] = np.zeros((3,))
    bad_lr = list(ok)
    bad_lr[3] = np.array([0.1, 0.2])
    return [ErrorSample(bad_moment, {}, ValueError, "moment"),
            ErrorSample(bad_grad, {}, ValueError, "grad"),
            ErrorSample(bad_lr, {}, ValueError, "learning_rate")]


def _adagrad_samples(rng):
    return [
        Sample([uniform(rng, (3, 4)), uniform(rng, (3, 4)), uniform(rng, (3, 4), 0.0, 1.0),
                np.array([0.1])]),
        Sample([uniform(rng, (5,)), uniform(rng, (5,)), uniform(rng, (5,), 0.0, 1.0),
                np.array([0.05])], {"epsilon": 1e-3}),
        Sample([uniform(rng, ()), uniform(rng, ()), uniform(rng, (), 0.0, 1.0), np.array(0.5)]),
        Sample([uniform(rng, (2, 0)), uniform(rng, (2, 0)), uniform(rng, (2, 0)),
                np.array([0.1])])]


SPARSE_OPS = [
    OpInfo("adagrad", adagrad_api, np_adagrad, _adagrad_samples, grad=False,
           errors=_adagrad_errors),
]
