"""Rprop (resilient backpropagation, Riedmiller & Braun), with Paddle's update (the fused op
rprop_). Each element has its own step size, starting at learning_rate:

    s = grad * prev
    s > 0: step = min(step * etas[1], learning_rate_range[1])
    s < 0: step = max(step * etas[0], learning_rate_range[0]); grad = 0 (no move this time)
    param -= sign(grad) * step;  prev = grad

The accumulators are "<param>_prevs_0" and "<param>_learning_rates_0" (the step sizes). As in
Paddle, the optimizer's learning rate only sets the initial step sizes.
"""
import numbers

import numpy as np

from .. import _C_ops
from ..base import libpaddle
from ..tensor.creation import assign
from .optimizer import Optimizer

__all__ = ["Rprop"]


class Rprop(Optimizer):
    _prevs_acc_str = "prevs"
    _learning_rates_acc_str = "learning_rates"

    def __init__(self, learning_rate=0.001, learning_rate_range=(1e-5, 50), parameters=None,
                 etas=(0.5, 1.2), grad_clip=None, multi_precision=False, name=None):
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        if isinstance(learning_rate, bool) or not isinstance(learning_rate, numbers.Real):
            raise TypeError(f"learning_rate of Rprop should be a float, received "
                            f"{type(learning_rate).__name__}")
        learning_rate_range = _pair("learning_rate_range", learning_rate_range)
        etas = _pair("etas", etas)
        if not 0.0 < learning_rate_range[0] <= learning_rate <= learning_rate_range[1]:
            raise ValueError(f"'0.0 < learning_rate_range[0] <= learning_rate <= "
                             f"learning_rate_range[1]' must be true, received learning_rate="
                             f"{learning_rate} and learning_rate_range={learning_rate_range}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"'0.0 < etas[0] < 1.0 < etas[1]' must be true, received "
                             f"etas={etas}")
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        self._multi_precision = bool(multi_precision)
        self._initial_learning_rate = float(learning_rate)
        self._learning_rate_range = learning_rate_range
        self._etas = etas
        self._constants = {}  # dygraph: (range, etas) tensors per dtype

    def _create_accumulators(self, params, group):
        for p in params:
            dtype = self._state_dtype(p)
            self._add_accumulator(self._prevs_acc_str, p, dtype=dtype)
            self._add_accumulator(self._learning_rates_acc_str, p, dtype=dtype,
                                  fill_value=self._initial_learning_rate)

    def _range_and_etas(self, dtype):
        cached = self._constants.get(dtype)
        if cached is not None:
            return cached
        np_dtype = np.float64 if dtype == libpaddle.DataType.FLOAT64 else np.float32
        pair = tuple(_C_ops.cast(assign(np.array(values, np_dtype)), dtype)
                     for values in (self._learning_rate_range, self._etas))
        if not libpaddle._in_static_mode():  # a static program needs its own constants
            self._constants[dtype] = pair
        return pair

    def _append_optimize_op(self, param, grad, lr, group):
        learning_rate_range, etas = self._range_and_etas(param.dtype)
        master = self._master_weight(param)
        _C_ops.rprop_(param, grad, self._get_accumulator(self._prevs_acc_str, param),
                      self._get_accumulator(self._learning_rates_acc_str, param), master,
                      learning_rate_range, etas, master is not None)


def _pair(name, value):
    try:
        pair = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        pair = ()
    if len(pair) != 2:
        raise ValueError(f"{name} should be a pair of floats, received {value!r}")
    return pair
