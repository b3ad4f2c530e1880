"""AdamW: Adam with decoupled weight decay (the fused op adamw_). Before the Adam update of
each parameter,

    param *= 1 - lr * lr_ratio(param) * weight_decay

for the parameters that apply_decay_param_fun(param.name) selects (all by default). The decay
is not added to the gradient, so it is not rescaled by Adam's moments (Loshchilov & Hutter).
"""
import numbers

from .. import _C_ops
from ..base import libpaddle
from .adam import Adam, _check_betas

__all__ = ["AdamW"]


class AdamW(Adam):
    _supports_sparse_grad = False  # adamw_ has no SelectedRows kernel (Paddle's neither)

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 parameters=None, weight_decay=0.01, lr_ratio=None, apply_decay_param_fun=None,
                 grad_clip=None, lazy_mode=False, multi_precision=False, amsgrad=False,
                 name=None):
        _check_betas(beta1, beta2, epsilon)
        if isinstance(weight_decay, libpaddle.Tensor):
            weight_decay = weight_decay.item()
        if isinstance(weight_decay, bool) or not isinstance(weight_decay, numbers.Real):
            raise TypeError("weight_decay should be float or Tensor.")
        if lr_ratio is not None and not callable(lr_ratio):
            raise TypeError("'lr_ratio' should be a function of the parameter or None")
        # The optimizer-level weight decay is decoupled, never a gradient regularizer.
        super().__init__(learning_rate, beta1, beta2, epsilon, parameters, None, grad_clip,
                         lazy_mode, multi_precision, False, amsgrad, name)
        self._coeff = float(weight_decay)
        self._lr_ratio = lr_ratio
        self._apply_decay_param_fun = apply_decay_param_fun
        self._default_dict["coeff"] = self._coeff

    def _add_param_group(self, group):
        # In a group, 'weight_decay' (or Paddle's internal 'coeff') is the decoupled decay
        # coefficient of its parameters.
        if "weight_decay" in group and "coeff" not in group:
            group["coeff"] = group["weight_decay"]
        super()._add_param_group(group)

    def _regularizer(self, param, group):
        # A group's weight_decay is the decoupled coefficient here, never a gradient
        # regularizer: only a ParamAttr regularizer applies to the gradient.
        return getattr(param, "regularizer", None)

    def _append_optimize_op(self, param, grad, lr, group):
        lr_ratio = 1.0 if self._lr_ratio is None else float(self._lr_ratio(param))
        with_decay = (self._apply_decay_param_fun is None or
                      bool(self._apply_decay_param_fun(param.name)))
        amsgrad = bool(self._option(group, "amsgrad"))
        master = self._master_weight(param)
        _C_ops.adamw_(*self._adam_args(param, grad, lr, group, amsgrad, master), lr_ratio,
                      self._option(group, "coeff"), with_decay,
                      bool(self._option(group, "lazy_mode")), 1000, master is not None, False,
                      amsgrad)
