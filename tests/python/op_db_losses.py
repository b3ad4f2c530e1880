"""Harness entries (op_db.py) of the loss ops of paddle.nn.functional that Paddle computes with an op
of its own: bce_loss, sigmoid_cross_entropy_with_logits, huber_loss, kldiv_loss, log_loss,
nll_loss and nll_loss_grad. The losses Paddle composes in Python are tested as functions in
nn/test_loss_functions.py.

Only the prediction is differentiated (grad_args=[0]) except in huber_loss: as in Paddle the
other ops have no gradient for the label. Samples keep clear of the kinks (|label - input| =
delta in huber_loss, label = 0 in kldiv_loss) where a numeric gradient is not the derivative."""
import numpy as np

import paddle
from harness import ErrorSample, OpInfo, Sample
from op_db import program_op, uniform

F = paddle.nn.functional
C = paddle._C_ops


def labels(*values):
    return np.asarray(values, dtype=np.int64)


def log_softmax(x, axis=1):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


# ---------------------------------------------------------------- bce_loss
def np_bce(input, label):
    with np.errstate(divide="ignore"):
        return -(label * np.maximum(np.log(input), -100)
                 + (1 - label) * np.maximum(np.log(1 - input), -100))


def bce_errors():
    return [
        ErrorSample([np.full((2, 3), 0.5), np.full((2, 4), 0.5)], {}, ValueError, "label"),
        ErrorSample([np.array([0.5, 1.5]), np.array([0.0, 1.0])], {}, ValueError,
                    "bce_loss: argument 'input' must hold probabilities in [0, 1], received 1.5"),
        ErrorSample([np.full((2,), 0.5, np.float32), np.ones((2,), np.int64)], {}, TypeError,
                    "label"),
        ErrorSample([np.ones((2,), np.int64), np.ones((2,), np.int64)], {}, TypeError, "input"),
    ]


# ---------------------------------------------------------------- sigmoid_cross_entropy_with_logits
def np_sigmoid_ce(x, label, pos_weight=None, normalize=False, ignore_index=-100):
    weight = 1.0 if pos_weight is None else pos_weight
    loss = (1 - label) * x + weight * (np.log1p(np.exp(-np.abs(x))) + np.maximum(-x, 0))
    counted = label != ignore_index
    loss = np.where(counted, loss, 0.0)
    if normalize:
        loss = loss / max(counted.sum(), 1)
    return loss


def sigmoid_ce(x, label, pos_weight=None, normalize=False, ignore_index=-100):
    return C.sigmoid_cross_entropy_with_logits(x, label, pos_weight, normalize, ignore_index)


def sigmoid_ce_samples(rng):
    ignored = uniform(rng, (4, 3), 0.0, 1.0)
    ignored[1, 2] = ignored[3, 0] = -100.0
    return [
        Sample([uniform(rng, (3, 4), -4, 4), uniform(rng, (3, 4), 0.0, 1.0)], grad_args=[0]),
        Sample([uniform(rng, (2, 3, 2), -4, 4), uniform(rng, (2, 3, 2), 0.0, 1.0),
                uniform(rng, (2, 3, 2), 0.5, 3.0)], grad_args=[0]),
        Sample([uniform(rng, (4, 3), -3, 3), ignored], {"normalize": True}, grad_args=[0]),
        Sample([uniform(rng, (4, 3), -3, 3), ignored, None, False, -100], grad_args=[0]),
        # Every label ignored: zeros, where Paddle's normalize divides 0 by 0 (NaN).
        Sample([uniform(rng, (2, 2), -3, 3), np.full((2, 2), -100.0)], {"normalize": True},
               grad_args=[0]),
    ]


# ---------------------------------------------------------------- huber_loss
def np_huber(input, label, delta):
    residual = label - input
    magnitude = np.abs(residual)
    out = np.where(magnitude <= delta, 0.5 * residual * residual, delta * (magnitude - 0.5 * delta))
    return [out, residual]


def huber_samples(rng):
    # Residuals in [0.2, 0.8] and [1.2, 3] in magnitude: away from |r| = delta = 1.
    near = uniform(rng, (3, 4), 0.2, 0.8) * rng.choice([-1.0, 1.0], (3, 4))
    far = uniform(rng, (3, 4), 1.2, 3.0) * rng.choice([-1.0, 1.0], (3, 4))
    x = uniform(rng, (3, 4))
    mixed = np.where(rng.uniform(size=(3, 4)) < 0.5, near, far)
    return [
        Sample([x, x + mixed, 1.0]),
        Sample([uniform(rng, (5,)), uniform(rng, (5,), 3.0, 4.0), 2.5]),  # all past delta
        Sample([uniform(rng, (2, 2, 2)), uniform(rng, (2, 2, 2)), 5.0]),  # all within delta
    ]


# ---------------------------------------------------------------- kldiv_loss
def np_kldiv(x, label, reduction="mean", log_target=False):
    if log_target:
        loss = np.exp(label) * (label - x)
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            loss = np.where(label > 0, label * (np.log(label) - x), 0.0)
    if reduction == "none":
        return loss
    if reduction == "batchmean" and loss.ndim:
        with np.errstate(invalid="ignore"):
            return np.asarray(loss.sum() / loss.shape[0])
    if reduction == "mean":
        with np.errstate(invalid="ignore"):
            return np.asarray(loss.sum() / loss.size)
    return np.asarray(loss.sum())


def kldiv_samples(rng):
    # Targets away from 0 (the loss's kink); some non-positive, whose terms are 0.
    target = uniform(rng, (3, 4), 0.1, 1.0) * rng.choice([-1.0, 1.0, 1.0], (3, 4))
    x = uniform(rng, (3, 4), -3.0, 0.0)
    return [Sample([x, target, reduction], grad_args=[0])
            for reduction in ("none", "mean", "sum", "batchmean")] + [
        Sample([uniform(rng, (2, 3, 2), -3.0, 0.0), uniform(rng, (2, 3, 2), -2.0, 0.5)],
               {"reduction": "batchmean", "log_target": True}, grad_args=[0]),
        Sample([uniform(rng, (4,), -3.0, 0.0), uniform(rng, (4,), -2.0, 0.5), "none", True],
               grad_args=[0]),
    ]


def kldiv_errors():
    x = np.zeros((2, 3))
    return [
        ErrorSample([x, x, "average"], {}, ValueError,
                    "kldiv_loss: argument 'reduction' must be 'none', 'batchmean', 'mean' or "
                    "'sum', received 'average'"),
        ErrorSample([x, np.zeros((2, 1))], {}, ValueError, "label"),
        ErrorSample([x, np.zeros((2, 3), np.int64)], {}, TypeError, "label"),
    ]


# ---------------------------------------------------------------- log_loss
def np_log_loss(input, label, epsilon=1e-4):
    return -label * np.log(input + epsilon) - (1 - label) * np.log(1 - input + epsilon)


def log_loss_samples(rng):
    return [
        Sample([uniform(rng, (5, 1), 0.05, 0.95), uniform(rng, (5, 1), 0.0, 1.0)], grad_args=[0]),
        Sample([uniform(rng, (3, 1), 0.05, 0.95), uniform(rng, (3, 1), 0.0, 1.0)],
               {"epsilon": 0.1}, grad_args=[0]),
    ]


def log_loss_errors():
    return [
        ErrorSample([np.full((3, 2), 0.5), np.full((3, 2), 0.5)], {}, ValueError,
                    "log_loss: argument 'input' must have shape [N, 1]"),
        ErrorSample([np.full((3, 1), 0.5), np.full((4, 1), 0.5)], {}, ValueError, "label"),
        ErrorSample([np.full((3,), 0.5), np.full((3,), 0.5)], {}, ValueError, "input"),
    ]


# ---------------------------------------------------------------- nll_loss
def np_nll(input, label, weight=None, ignore_index=-100, reduction="mean"):
    classes = input.shape[1]
    counted = label != ignore_index
    safe = np.where(counted, label, 0)
    picked = np.take_along_axis(input, np.expand_dims(safe, 1), axis=1).squeeze(1)
    class_weight = np.ones(classes) if weight is None else weight
    position_weight = np.where(counted, class_weight[safe], 0.0)
    out = -position_weight * picked
    total_weight = position_weight.sum()
    if reduction == "none":
        return [out, np.asarray(0.0)]
    if reduction == "sum":
        return [np.asarray(out.sum()), np.asarray(total_weight)]
    mean = out.sum() / total_weight if total_weight != 0 else 0.0
    return [np.asarray(mean), np.asarray(total_weight)]


def nll_api(input, label, weight=None, ignore_index=-100, reduction="mean"):
    return list(C.nll_loss(input, label, weight, ignore_index, reduction))


def nll_samples(rng):
    return [
        Sample([log_softmax(uniform(rng, (5, 4), -2, 2)), labels(0, 3, -100, 2, 3),
                uniform(rng, (4,), 0.5, 2.0)], grad_args=[0]),
        Sample([log_softmax(uniform(rng, (4, 3), -2, 2)), labels(1, 1, 0, 2)],
               {"reduction": "sum"}, grad_args=[0]),
        Sample([log_softmax(uniform(rng, (4, 3), -2, 2)), labels(1, 5, 0, 2), None, 5, "none"],
               grad_args=[0]),
        Sample([log_softmax(uniform(rng, (2, 3, 2, 2)), 1), rng.integers(0, 3, (2, 2, 2)),
                uniform(rng, (3,), 0.5, 2.0)], {"reduction": "none"}, grad_args=[0]),
        Sample([log_softmax(uniform(rng, (2, 3, 2, 2)), 1), rng.integers(0, 3, (2, 2, 2))],
               grad_args=[0]),
        # Every label ignored: total_weight 0 and a 'mean' of 0 rather than NaN.
        Sample([log_softmax(uniform(rng, (2, 3))), labels(-100, -100)], grad_args=[0]),
    ]


def nll_errors():
    x = np.zeros((3, 4))
    return [
        ErrorSample([x, labels(0, 4, 1)], {}, IndexError,
                    "nll_loss: argument 'label' holds 4 at flat index 1, expected a class index "
                    "in [0, 4) or ignore_index (-100)"),
        ErrorSample([x, labels(0, -1, 1)], {}, IndexError, "argument 'label' holds -1"),
        ErrorSample([x, np.array([0, 1, 2], np.int32)], {}, TypeError,
                    "nll_loss: argument 'label' must be int64, received int32"),
        ErrorSample([x, labels(0, 1)], {}, ValueError, "argument 'label' must have the shape"),
        ErrorSample([x, labels(0, 1, 2), np.ones(3)], {}, ValueError, "argument 'weight'"),
        ErrorSample([x, labels(0, 1, 2)], {"reduction": "avg"}, ValueError,
                    "nll_loss: argument 'reduction' must be 'none', 'mean' or 'sum', received "
                    "'avg'"),
        ErrorSample([np.zeros(3), labels(0, 1, 2)], {}, ValueError, "argument 'input'"),
    ]


def nll_grad_op(input, label, weight, total_weight, out_grad, ignore_index=-100,
                reduction="mean"):
    inputs = {"X": input, "Label": label, "Total_weight": total_weight, "Out@GRAD": out_grad}
    if weight is not None:
        inputs["Weight"] = weight
    return program_op("nll_loss_grad", inputs, {"X@GRAD": "X"},
                      {"ignore_index": ignore_index, "reduction": reduction})[0]


def np_nll_grad(input, label, weight, total_weight, out_grad, ignore_index=-100,
                reduction="mean"):
    classes = input.shape[1]
    counted = label != ignore_index
    safe = np.where(counted, label, 0)
    class_weight = np.ones(classes) if weight is None else weight
    position_grad = -np.where(counted, class_weight[safe], 0.0) * out_grad
    if reduction == "mean":
        position_grad = position_grad / total_weight if total_weight != 0 else 0 * position_grad
    one_hot = np.expand_dims(safe, 1) == np.arange(classes).reshape([1, -1] + [1] * (label.ndim - 1))
    return one_hot * np.expand_dims(position_grad, 1)


def nll_grad_samples(rng):
    return [
        Sample([uniform(rng, (5, 4)), labels(0, 3, -100, 2, 3), uniform(rng, (4,), 0.5, 2.0),
                np.asarray(3.5), np.asarray(0.7)]),
        Sample([uniform(rng, (4, 3)), labels(1, 1, 0, 2), None, np.asarray(0.0),
                uniform(rng, (4,)), -100, "none"]),
        Sample([uniform(rng, (2, 3, 2, 2)), rng.integers(0, 3, (2, 2, 2)), None, np.asarray(8.0),
                np.asarray(1.3), -100, "sum"]),
    ]


LOSSES_OPS = [
    OpInfo("bce_loss", C.bce_loss, np_bce, lambda rng: [
        Sample([uniform(rng, (3, 4), 0.05, 0.95), uniform(rng, (3, 4), 0.0, 1.0)], grad_args=[0]),
        Sample([uniform(rng, (2, 3, 2), 0.05, 0.95), rng.integers(0, 2, (2, 3, 2)).astype(float)],
               grad_args=[0]),
        # Certain predictions: each log clamps at -100. No gradient check at 0 and 1, where
        # the slope is 1e12 and a finite difference leaves [0, 1].
        Sample([np.array([0.0, 1.0, 0.0, 1.0]), np.array([1.0, 0.0, 0.0, 1.0])], grad_args=[]),
        Sample([np.asarray(0.3), np.asarray(1.0)], grad_args=[0])],
        second_order=True, nonfinite_reason="bce_loss rejects NaN and inf inputs: they are not "
                                            "probabilities in [0, 1]",
        errors=bce_errors),
    OpInfo("sigmoid_cross_entropy_with_logits", sigmoid_ce, np_sigmoid_ce, sigmoid_ce_samples,
           second_order=True, errors=lambda: [
               ErrorSample([np.zeros((3, 4)), np.zeros((3, 1))], {}, ValueError,
                           "sigmoid_cross_entropy_with_logits: argument 'label' must have the "
                           "shape of 'x' [3, 4], received [3, 1]"),
               ErrorSample([np.zeros((3, 4)), np.zeros((3, 4)), np.ones((4,))], {}, ValueError,
                           "pos_weight"),
               ErrorSample([np.zeros((3, 4), np.float32), np.zeros((3, 4))], {}, TypeError,
                           "label")]),
    OpInfo("huber_loss", C.huber_loss, np_huber, huber_samples, grad_outputs=[0],
           second_order=True, errors=lambda: [
               ErrorSample([np.zeros((3, 4)), np.zeros((3, 1)), 1.0], {}, ValueError,
                           "huber_loss: argument 'label' must have the shape of 'input'"),
               ErrorSample([np.zeros((3,), np.int32), np.zeros((3,), np.int32), 1.0], {},
                           TypeError, "input")]),
    OpInfo("kldiv_loss", C.kldiv_loss, np_kldiv, kldiv_samples, second_order=True,
           no_second_order_reason="linear in x: the gradient is -label (or -exp(label))",
           errors=kldiv_errors),
    OpInfo("log_loss", F.log_loss, np_log_loss, log_loss_samples, second_order=True,
           errors=log_loss_errors),
    OpInfo("nll_loss", nll_api, np_nll, nll_samples, grad_outputs=[0], errors=nll_errors),
    OpInfo("nll_loss_grad", nll_grad_op, np_nll_grad, nll_grad_samples, grad=False,
           no_grad_reason="a gradient kernel that does not depend on input's values (nll_loss is "
                          "linear in input); it is checked as the first-order gradient of the "
                          "nll_loss entry"),
]
