"""ASGD (averaged stochastic gradient, as Paddle defines it: the average of the last batch_num
gradients), with Paddle's update (the fused op asgd_). At step m (from 0), with i = m % batch_num:

    d = d - y[i] + grad;  y[i] = grad
    param -= lr * d / min(m + 1, batch_num)

The accumulators are "<param>_d_0" (the running sum d), "<param>_y_0" (the last batch_num
gradients, shape [batch_num, *param.shape]) and "<param>_m_0" (the step count m, int64 [1]).
The row of y is picked and written back with tensor ops, so the same code builds a static program.
"""
from .. import _C_ops
from ..base import libpaddle
from ..tensor.creation import assign
from ._checks import check_learning_rate
from .optimizer import Optimizer

__all__ = ["ASGD"]

_INT64 = libpaddle.DataType.INT64


class ASGD(Optimizer):
    _d_acc_str = "d"
    _y_acc_str = "y"
    _m_acc_str = "m"

    def __init__(self, learning_rate=0.001, batch_num=1, parameters=None, weight_decay=None,
                 grad_clip=None, multi_precision=False, name=None):
        check_learning_rate(learning_rate)
        if batch_num is None:
            raise ValueError("batch_num should not be none")
        if isinstance(batch_num, bool) or not isinstance(batch_num, int) or batch_num <= 0:
            raise ValueError(f"batch_num should be an integer greater than 0, received "
                             f"{batch_num!r}")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._multi_precision = bool(multi_precision)
        self._n = batch_num

    def _create_accumulators(self, params, group):
        for p in params:
            dtype = self._state_dtype(p)
            self._add_accumulator(self._d_acc_str, p, dtype=dtype)
            self._add_accumulator(self._y_acc_str, p, dtype=dtype, shape=[self._n, *p.shape])
            self._add_accumulator(self._m_acc_str, p, dtype=_INT64, shape=[1])

    def _append_optimize_op(self, param, grad, lr, group):
        ys = self._get_accumulator(self._y_acc_str, param)
        master = self._master_weight(param)
        m = self._get_accumulator(self._m_acc_str, param)
        # Static programs place their constants when they run.
        place = libpaddle.CPUPlace() if libpaddle._in_static_mode() else param.place
        batch_num = _C_ops.full([1], self._n, _INT64, place)
        index = _C_ops.remainder(m, batch_num)
        _C_ops.increment_(m, 1.0)
        shape = list(param.shape)
        y = _C_ops.reshape(_C_ops.gather(ys, index, 0), shape)
        _C_ops.asgd_(param, grad, self._lr_tensor(lr, param),
                     self._get_accumulator(self._d_acc_str, param), y,
                     _C_ops.minimum(m, batch_num), master, master is not None)
        # y[index] = grad: a where over the rows, so it works on static variables too.
        rows = _C_ops.reshape(_C_ops.arange(0, self._n, 1, _INT64, place),
                              [self._n] + [1] * len(shape))
        updated = _C_ops.where(_C_ops.equal(rows, index), _C_ops.unsqueeze(y, [0]), ys)
        assign(updated, ys)
