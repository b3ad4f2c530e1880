"""Lamb (You et al., layer-wise adaptive moments), with Paddle's update (the fused op lamb_):

    moment1 = beta1 * moment1 + (1 - beta1) * grad
    moment2 = beta2 * moment2 + (1 - beta2) * grad^2
    r = (moment1 / (1 - beta1^t)) / (sqrt(moment2 / (1 - beta2^t)) + epsilon)
        + lamb_weight_decay * param
    param -= lr * (||param|| / ||r||) * r

The trust ratio ||param|| / ||r|| is 1 where either norm is zero, and where the decay is zero
unless always_adapt. The decay is part of the update, not a gradient regularizer; the parameters
that exclude_from_weight_decay_fn(param) selects get none. beta1^t and beta2^t are the
accumulators "<param>_beta1_pow_acc_0" / "..._beta2_pow_acc_0" (shape [1]), which the op
advances.
"""
from .. import _C_ops
from ._checks import check_learning_rate, check_non_negative, check_unit_interval, state_dtype
from .optimizer import Optimizer

__all__ = ["Lamb"]


class Lamb(Optimizer):
    _moment1_acc_str = "moment1"
    _moment2_acc_str = "moment2"
    _beta1_pow_acc_str = "beta1_pow_acc"
    _beta2_pow_acc_str = "beta2_pow_acc"

    def __init__(self, learning_rate=0.001, lamb_weight_decay=0.01, beta1=0.9, beta2=0.999,
                 epsilon=1e-6, parameters=None, grad_clip=None,
                 exclude_from_weight_decay_fn=None, multi_precision=False, always_adapt=False,
                 name=None):
        check_learning_rate(learning_rate)
        check_non_negative("lamb_weight_decay", lamb_weight_decay)
        check_unit_interval("beta1", beta1)
        check_unit_interval("beta2", beta2)
        check_non_negative("epsilon", epsilon)
        if exclude_from_weight_decay_fn is not None and not callable(exclude_from_weight_decay_fn):
            raise TypeError("'exclude_from_weight_decay_fn' should be a function of the "
                            "parameter or None")
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        self._multi_precision = bool(multi_precision)
        self.always_adapt = always_adapt
        self._default_dict.update({
            "beta1": beta1, "beta2": beta2, "epsilon": epsilon,
            "lamb_weight_decay": lamb_weight_decay,
            "exclude_from_weight_decay_fn": exclude_from_weight_decay_fn})

    def _create_accumulators(self, params, group):
        for p in params:
            dtype = self._state_dtype(p, state_dtype(p))
            self._add_accumulator(self._moment1_acc_str, p, dtype=dtype)
            self._add_accumulator(self._moment2_acc_str, p, dtype=dtype)
            self._add_accumulator(self._beta1_pow_acc_str, p, dtype=dtype,
                                  fill_value=self._option(group, "beta1"), shape=[1])
            self._add_accumulator(self._beta2_pow_acc_str, p, dtype=dtype,
                                  fill_value=self._option(group, "beta2"), shape=[1])

    def _append_optimize_op(self, param, grad, lr, group):
        exclude = self._option(group, "exclude_from_weight_decay_fn")
        weight_decay = 0.0 if exclude is not None and exclude(param) else float(
            self._option(group, "lamb_weight_decay"))
        accumulator = self._get_accumulator
        master = self._master_weight(param)
        _C_ops.lamb_(param, grad, self._lr_tensor(lr, param),
                     accumulator(self._moment1_acc_str, param),
                     accumulator(self._moment2_acc_str, param),
                     accumulator(self._beta1_pow_acc_str, param),
                     accumulator(self._beta2_pow_acc_str, param), master, None, weight_decay,
                     float(self._option(group, "beta1")), float(self._option(group, "beta2")),
                     float(self._option(group, "epsilon")), bool(self.always_adapt),
                     master is not None)
