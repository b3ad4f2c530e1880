"""Stochastic gradient descent: param -= lr * grad (the fused op sgd_)."""
from .. import _C_ops
from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    _supports_sparse_grad = True  # sgd_ updates only the rows a SelectedRows grad holds

    def __init__(self, learning_rate=0.001, parameters=None, weight_decay=None, grad_clip=None,
                 multi_precision=False, name=None):
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._multi_precision = bool(multi_precision)

    def _append_optimize_op(self, param, grad, lr, group):
        master = self._master_weight(param)
        _C_ops.sgd_(param, self._lr_tensor(lr, param), grad, master, master is not None)
