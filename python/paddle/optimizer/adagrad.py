"""Adagrad, with Paddle's update (the fused op adagrad_):

    moment += grad^2
    param -= lr * grad / (sqrt(moment) + epsilon)

The accumulator "<param>_moment_0" starts at initial_accumulator_value. A sparse gradient
(Embedding(sparse=True)) updates only its rows, which equals the dense update.
"""
from .. import _C_ops
from .optimizer import Optimizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    _moment_acc_str = "moment"
    _supports_sparse_grad = True

    def __init__(self, learning_rate, epsilon=1.0e-6, parameters=None, weight_decay=None,
                 grad_clip=None, name=None, initial_accumulator_value=0.0):
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        if epsilon is None:
            raise ValueError("epsilon is not set")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._epsilon = epsilon
        self._initial_accumulator_value = initial_accumulator_value
        self._default_dict.update({"epsilon": epsilon,
                                   "initial_accumulator_value": initial_accumulator_value})

    def _create_accumulators(self, params, group):
        for p in params:
            self._add_accumulator(self._moment_acc_str, p, dtype=self._state_dtype(p),
                                  fill_value=self._option(group, "initial_accumulator_value"))

    def _append_optimize_op(self, param, grad, lr, group):
        moment = self._get_accumulator(self._moment_acc_str, param)
        master = self._master_weight(param)
        _C_ops.adagrad_(param, grad, moment, self._lr_tensor(lr, param), master,
                        float(self._option(group, "epsilon")), master is not None)
