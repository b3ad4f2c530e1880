"""Adam, with Paddle's update (the fused op adam_; bias correction folded into the step size):

    moment1 = beta1 * moment1 + (1 - beta1) * grad
    moment2 = beta2 * moment2 + (1 - beta2) * grad^2
    lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)
    param -= lr_t * moment1 / (sqrt(moment2) + epsilon * sqrt(1 - beta2^t))

beta1^t and beta2^t live in the accumulators "<param>_beta1_pow_acc_0" / "..._beta2_pow_acc_0"
(shape [1], starting at beta1 and beta2), so the schedule survives a state_dict round trip.
With amsgrad=True the running maximum of moment2 ("moment2_max") replaces moment2 in the
denominator.
"""
from .. import _C_ops
from .optimizer import Optimizer

__all__ = ["Adam"]


class Adam(Optimizer):
    # adam_ takes a SelectedRows grad: with lazy_mode only its rows are updated, otherwise
    # every row, the missing ones with a zero gradient (as the dense update).
    _supports_sparse_grad = True
    _moment1_acc_str = "moment1"
    _moment2_acc_str = "moment2"
    _moment2_acc_max_str = "moment2_max"
    _beta1_pow_acc_str = "beta1_pow_acc"
    _beta2_pow_acc_str = "beta2_pow_acc"

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 parameters=None, weight_decay=None, grad_clip=None, lazy_mode=False,
                 multi_precision=False, use_multi_tensor=False, amsgrad=False, name=None):
        _check_betas(beta1, beta2, epsilon)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._multi_precision = bool(multi_precision)
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon
        self._lazy_mode = lazy_mode  # sparse gradients only; dense updates ignore it
        self._default_dict.update({"beta1": beta1, "beta2": beta2, "epsilon": epsilon,
                                   "lazy_mode": lazy_mode, "amsgrad": amsgrad})

    def _create_accumulators(self, params, group):
        created = self._accumulators[self._beta2_pow_acc_str]
        for p in params:
            if p.name in created:  # the last one made: its state is complete
                continue
            dtype = self._state_dtype(p)
            self._add_accumulator(self._moment1_acc_str, p, dtype=dtype)
            self._add_accumulator(self._moment2_acc_str, p, dtype=dtype)
            if self._option(group, "amsgrad"):
                self._add_accumulator(self._moment2_acc_max_str, p, dtype=dtype)
            self._add_accumulator(self._beta1_pow_acc_str, p, dtype=dtype,
                                  fill_value=self._option(group, "beta1"), shape=[1])
            self._add_accumulator(self._beta2_pow_acc_str, p, dtype=dtype,
                                  fill_value=self._option(group, "beta2"), shape=[1])

    def _regularized_grad(self, param, grad, group):
        if grad.is_selected_rows() and self._regularizer(param, group) is not None:
            raise RuntimeError(f"Adam don't support weight_decay with sparse parameters, please "
                               f"set it to None (parameter '{param.name}' has a sparse gradient)")
        return super()._regularized_grad(param, grad, group)

    def _append_optimize_op(self, param, grad, lr, group):
        amsgrad = bool(self._option(group, "amsgrad"))
        master = self._master_weight(param)
        _C_ops.adam_(*self._adam_args(param, grad, lr, group, amsgrad, master),
                     bool(self._option(group, "lazy_mode")), 1000, master is not None, False,
                     amsgrad)

    def _adam_args(self, param, grad, lr, group, amsgrad, master):
        """The tensors and betas of adam_/adamw_ for `param`, in Paddle's argument order."""
        accumulators = self._accumulators
        name = param.name
        moment2_max = accumulators[self._moment2_acc_max_str][name] if amsgrad else None
        return (param, grad, self._lr_tensor(lr, param),
                accumulators[self._moment1_acc_str][name],
                accumulators[self._moment2_acc_str][name], moment2_max,
                accumulators[self._beta1_pow_acc_str][name],
                accumulators[self._beta2_pow_acc_str][name], master,
                self._get_auxiliary_var("found_inf"),
                self._option(group, "beta1"), self._option(group, "beta2"),
                self._option(group, "epsilon"))


def _check_betas(beta1, beta2, epsilon):
    for name, value in (("beta1", beta1), ("beta2", beta2)):
        if not hasattr(value, "numpy") and not 0 <= value < 1:
            raise ValueError(f"Invaild value of {name}, expect {name} in [0,1).")
    if not hasattr(epsilon, "numpy") and not 0 <= epsilon:
        raise ValueError("Invaild value of epsilon, expect epsilon >= 0.")
