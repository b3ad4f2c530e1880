"""paddle.optimizer.Optimizer: the base of the dygraph optimizers.

One step: collect (param, grad) for the trainable parameters that have a gradient, clip them
(grad_clip), add the regularization term (a parameter group's weight_decay, else the
parameter's own regularizer, else the optimizer's weight_decay), then let the subclass update
each parameter with one fused op (_C_ops.sgd_, momentum_, adam_, adamw_). Updates run without
autograd and write into the parameters and accumulators in place, so the Parameter objects a
Layer holds stay the same.

Sparse gradients (SelectedRows, from Embedding(sparse=True)) reach the update op as they are
where the subclass sets _supports_sparse_grad (SGD, Momentum, Adam, Adagrad: their ops have
SelectedRows kernels); any other optimizer raises NotImplementedError naming itself and the
parameter. A regularizer added to a sparse gradient makes it dense, as in Paddle.

Optimizer state lives in "accumulators", tensors named "<param.name>_<kind>_<n>" like
"linear_0.w_0_moment1_0"; state_dict() maps those names to the tensors (plus "LR_Scheduler"
when the learning rate is a scheduler), which is the layout of Paddle's .pdopt files.

Multi-precision (multi_precision=True, or paddle.amp.decorate at O2): a float16/bfloat16
parameter is updated from a float32 master copy ("<param.name>_fp32_master_0", made from the
parameter at its first step; state_dict()["master_weights"]), its accumulators are float32, and
the update op writes the rounded result back into the parameter (dygraph only).
"""
import collections
import numbers

from .. import _C_ops
from ..autograd import no_grad
from ..base import libpaddle
from ..nn.clip import ClipGradBase
from ..nn.layer.layers import _as_tensor_like
from ..regularizer import L2Decay, WeightDecayRegularizer
from ..utils import unique_name
from ..static.backward import append_backward
from ..static.program import OP_ROLE_OPTIMIZE, _op_role_guard, default_main_program, program_guard
from ..static.program import Variable as StaticVariable
from ..static.tensor import create_global_var
from .lr import LRScheduler

__all__ = ["Optimizer"]

Tensor = libpaddle.Tensor
_FLOAT32 = libpaddle.DataType.FLOAT32
_HALF_DTYPES = (libpaddle.DataType.FLOAT16, libpaddle.DataType.BFLOAT16)


class Optimizer:
    # Whether the update op takes a SelectedRows gradient.
    _supports_sparse_grad = False

    def __init__(self, learning_rate=0.001, parameters=None, weight_decay=None, grad_clip=None,
                 name=None):
        if parameters is None:
            if not libpaddle._in_static_mode():
                raise AttributeError("parameters argument given to the Optimizer should not be "
                                     "None in dygraph mode.")
            parameters = []  # static mode: the program's trainable parameters
        if isinstance(parameters, (Tensor, dict)):
            raise TypeError(f"`parameters` argument given to the optimizer should be an iterable "
                            f"of paddle Tensors, but got argument type is "
                            f"`{type(parameters).__name__}`.")
        parameters = list(parameters)
        if isinstance(learning_rate, bool) or not isinstance(
                learning_rate, (numbers.Real, LRScheduler)):
            raise TypeError(f"learning rate should be float or LRScheduler, got "
                            f"{type(learning_rate).__name__} here")
        if grad_clip is not None and not isinstance(grad_clip, ClipGradBase):
            raise TypeError("'grad_clip' should be an instance of GradientClipBase's derived "
                            "class")
        self.regularization = _as_regularizer(weight_decay)
        self._learning_rate = (learning_rate if isinstance(learning_rate, LRScheduler)
                               else float(learning_rate))
        self._grad_clip = grad_clip
        self._name = name
        self._multi_precision = False
        # param.name -> its float32 master copy (multi-precision), and the values set_state_dict
        # gave for copies not made yet.
        self._master_weights = {}
        self._master_weights_holder = {}
        # accumulator kind -> {param.name: tensor}
        self._accumulators = collections.defaultdict(dict)
        # Values from set_state_dict for accumulators not created yet (they are made lazily at
        # the first step and take their value from here).
        self._accumulators_holder = {}
        # Defaults for the options a parameter group may override.
        self._default_dict = {"weight_decay": self.regularization, "grad_clip": grad_clip}
        # One-element learning-rate tensors for the fused update ops, by (value, dtype, place);
        # emptied when the learning rate changes.
        self._lr_tensors = {}
        self._lr_tensors_for = None
        # Static mode: the learning-rate variable's name per program.
        self._static_lr_names = {}
        # Variables other components hand the update ops, by key: static AMP's "found_inf",
        # which the Adam-family updates read as their SkipUpdate input.
        self._auxiliary_vars = {}

        self._grouped = bool(parameters) and isinstance(parameters[0], dict)
        self._param_groups = []
        if self._grouped:
            for group in parameters:
                self._add_param_group(dict(group))
            self._parameter_list = [p for g in self._param_groups for p in g["params"]]
        else:
            self._parameter_list = parameters
        for p in self._parameter_list:
            if not p.name:
                # A plain tensor: accumulators are keyed by name, so it needs a unique one.
                p.name = unique_name.generate("generated_tensor")

    def _add_param_group(self, group):
        """A parameter group is a dict with 'params' and option overrides: 'learning_rate' (a
        multiplier of the optimizer's, replacing the ParamAttr one), 'weight_decay' (replacing
        the parameters' own regularizers), 'grad_clip' and the optimizer's hyperparameters."""
        params = group["params"]
        if isinstance(params, set):
            raise TypeError("optimizer parameters should be in ordered collections, but "
                            "received set, please use list instead.")
        group["params"] = [params] if isinstance(params, Tensor) else list(params)
        for key, value in self._default_dict.items():
            group.setdefault(key, value)
        _as_regularizer(group["weight_decay"])  # validate now rather than at the first step
        seen = {id(p) for g in self._param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self._param_groups.append(group)

    # ---- learning rate -------------------------------------------------------------------------
    def get_lr(self):
        """The current learning rate (the scheduler's value when one is used)."""
        if isinstance(self._learning_rate, LRScheduler):
            return self._learning_rate()
        return self._learning_rate

    def set_lr(self, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"The type of 'value' in optimizer.set_lr must be float, but "
                            f"received {type(value).__name__}.")
        if isinstance(self._learning_rate, LRScheduler):
            raise RuntimeError("optimizer's learning rate can't be LRScheduler when invoke this "
                               "API, because this will lead to conflict.")
        self._learning_rate = float(value)

    def set_lr_scheduler(self, scheduler):
        if not isinstance(scheduler, LRScheduler):
            raise TypeError(f"The type of 'scheduler' in optimizer.set_lr_scheduler must be "
                            f"LRScheduler, but received {type(scheduler).__name__}.")
        self._learning_rate = scheduler

    # ---- stepping ------------------------------------------------------------------------------
    @no_grad()
    def step(self):
        """Updates every trainable parameter that has a gradient."""
        if self._grouped:
            for group in self._param_groups:
                self._apply_optimize(_with_grads(group["params"]), group)
        else:
            self._apply_optimize(_with_grads(self._parameter_list), {})  # {}: no overrides

    @no_grad()
    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """Applies the gradients already computed for `loss`. As in Paddle's dygraph mode it
        does not run backward: call loss.backward() first. Returns (None, params_grads).

        For a static Variable it appends the backward ops and then the update ops to the
        loss's program (their state is initialised by the startup program), and returns
        (optimize ops, params_grads)."""
        if isinstance(loss, StaticVariable):
            return self._minimize_static(loss, startup_program, parameters, no_grad_set)
        if not isinstance(loss, Tensor):
            raise TypeError("The loss should be an Tensor.")
        excluded = set()
        for item in no_grad_set or ():
            excluded.add(item if isinstance(item, str) else item.name)
        params = parameters if parameters else self._parameter_list
        params_grads = _with_grads(p for p in params if p.name not in excluded)
        self._apply_optimize(params_grads, {})
        return None, params_grads

    @no_grad()
    def apply_gradients(self, params_grads):
        """Updates the parameters with the given (param, grad) pairs."""
        self._apply_optimize(sorted(params_grads, key=lambda pg: pg[0].name), {})

    def clear_grad(self, set_to_zero=True):
        """Clears the gradients of the parameters (zeroes them by default, keeping memory)."""
        for p in self._parameter_list:
            if not p.stop_gradient:
                p.clear_gradient(set_to_zero)

    clear_gradients = clear_grad

    def _minimize_static(self, loss, startup_program, parameters, no_grad_set):
        params = parameters or self._parameter_list or None
        params_grads = append_backward(loss, params, no_grad_set)
        program = loss.block.program
        block = program.global_block()
        first = len(block.ops)
        with program_guard(program, startup_program), _op_role_guard(OP_ROLE_OPTIMIZE):
            self._apply_optimize(params_grads, {})
        return block.ops[first:], params_grads

    def _static_lr(self, program):
        """The program's learning-rate variable (created once per program). With a
        scheduler, the executor writes the scheduler's current value into it before each run."""
        name = self._static_lr_names.get(id(program.desc))
        if name is None:
            lr = self.get_lr()
            var = create_global_var([1], float(lr), _FLOAT32, persistable=True,
                                    name=unique_name.generate("learning_rate"))
            name = self._static_lr_names[id(program.desc)] = var.name
            if isinstance(self._learning_rate, LRScheduler):
                program.lr_scheduler = self._learning_rate
                program._lr_var_name = name
        return program.global_block().var(name)

    def _apply_optimize(self, params_grads, group):
        for param, grad in params_grads:
            if grad.is_selected_rows() and not self._supports_sparse_grad:
                raise NotImplementedError(
                    f"{type(self).__name__} does not support sparse gradients: parameter "
                    f"'{param.name}' has a SelectedRows gradient (from Embedding(sparse=True)); "
                    f"use SGD, Momentum, Adam or Adagrad, or create the embedding with "
                    f"sparse=False")
        grad_clip = group.get("grad_clip", self._grad_clip)
        if grad_clip is not None:
            params_grads = grad_clip(params_grads)
        params_grads = [(p, self._regularized_grad(p, g, group)) for p, g in params_grads]
        self._create_accumulators([p for p, _ in params_grads], group)
        if libpaddle._in_static_mode():
            lr_var = self._static_lr(default_main_program())
            for param, grad in params_grads:
                scale = self._lr_scale(param, group)
                lr = lr_var if scale == 1.0 else _C_ops.scale(lr_var, float(scale), 0.0, True)
                self._append_optimize_op(param, grad, lr, group)
            return
        lr = self.get_lr()
        if lr != self._lr_tensors_for:
            self._lr_tensors.clear()
            self._lr_tensors_for = lr
        for param, grad in params_grads:
            if grad.dtype != param.dtype:
                if grad.is_selected_rows():
                    raise TypeError(f"{type(self).__name__}: the sparse gradient of parameter "
                                    f"'{param.name}' is {grad.dtype.name}, but the parameter is "
                                    f"{param.dtype.name}")
                grad = _C_ops.cast(grad, param.dtype)
            self._append_optimize_op(param, grad, lr * self._lr_scale(param, group), group)

    def _lr_tensor(self, lr, param):
        """The learning rate `lr` as the one-element tensor the update ops read, on the
        parameter's place, in float32 for 16-bit parameters and in their dtype otherwise."""
        if isinstance(lr, StaticVariable):
            return lr
        dtype = param.dtype
        if dtype in _HALF_DTYPES:
            dtype = _FLOAT32
        key = (lr, dtype, param.place)
        tensor = self._lr_tensors.get(key)
        if tensor is None:
            tensor = self._lr_tensors[key] = _C_ops.full([1], lr, dtype, param.place)
        return tensor

    def _lr_scale(self, param, group):
        """The parameter's learning-rate multiplier: its group's, else its ParamAttr's."""
        if "params" in group:
            return group.get("learning_rate", 1.0)
        return getattr(param, "optimize_attr", {}).get("learning_rate", 1.0)

    def _regularizer(self, param, group):
        """The group's weight_decay, else the parameter's own regularizer, else the
        optimizer's weight_decay."""
        own = (_as_regularizer(group["weight_decay"]) if "params" in group
               else getattr(param, "regularizer", None))
        return own or self.regularization

    def _regularized_grad(self, param, grad, group):
        regularizer = self._regularizer(param, group)
        if regularizer is None:
            return grad
        if grad.is_selected_rows():
            grad = _dense_grad(param, grad)
        return _C_ops.add(grad, regularizer(param, grad))

    def _create_accumulators(self, params, group):
        """Creates the state of `params` (of parameter group `group`) that does not exist yet
        (subclasses)."""

    def _append_optimize_op(self, param, grad, lr, group):
        """Updates `param` in place from `grad` at learning rate `lr` (subclasses)."""
        raise NotImplementedError

    def _option(self, group, key):
        """A hyperparameter: the group's override, else the optimizer's default."""
        value = group.get(key, self._default_dict[key])
        return float(value.item()) if isinstance(value, Tensor) else value

    def _set_auxiliary_var(self, key, val):
        self._auxiliary_vars[key] = val

    def _get_auxiliary_var(self, key):
        return self._auxiliary_vars.get(key)

    # ---- multi-precision -----------------------------------------------------------------------
    def _uses_master_weight(self, param):
        return self._multi_precision and param.dtype in _HALF_DTYPES

    def _state_dtype(self, param, default=None):
        """The dtype of param's accumulators: float32 with a master weight, else `default`
        (None: the parameter's)."""
        return _FLOAT32 if self._uses_master_weight(param) else default

    def _master_weight(self, param):
        """param's float32 master copy with multi-precision (made at the first call), else
        None."""
        if not self._uses_master_weight(param):
            return None
        master = self._master_weights.get(param.name)
        if master is not None:
            return master
        if libpaddle._in_static_mode():
            raise NotImplementedError(f"{type(self).__name__}: multi_precision (float32 master "
                                      f"weights) works in dygraph mode only; parameter "
                                      f"'{param.name}' is {param.dtype.name}")
        master = _C_ops.cast(param, _FLOAT32)
        master.name = unique_name.generate(f"{param.name}_fp32_master")
        master.persistable = True
        held = self._master_weights_holder.pop(param.name, None)
        if held is not None:
            master._set_value(_as_tensor_like(held, master))
        self._master_weights[param.name] = master
        return master

    # ---- accumulators --------------------------------------------------------------------------
    def _add_accumulator(self, name, param, dtype=None, fill_value=0.0, shape=None):
        if param.name in self._accumulators[name]:
            return self._accumulators[name][param.name]
        var_name = unique_name.generate(f"{param.name}_{name}")
        shape = list(param.shape) if shape is None else list(shape)
        if libpaddle._in_static_mode():
            var = create_global_var(shape, fill_value, param.dtype if dtype is None else dtype,
                                    persistable=True, name=var_name)
            self._accumulators[name][param.name] = var
            return var
        var = _C_ops.full(shape, fill_value, param.dtype if dtype is None else dtype,
                          param.place)
        var.name = var_name
        var.persistable = True
        if self._accumulators_holder:
            if var_name not in self._accumulators_holder:
                raise KeyError(f"Optimizer set error, {var_name} should in state dict (the "
                               f"state dict given to set_state_dict has no entry for it)")
            var._set_value(_as_tensor_like(self._accumulators_holder.pop(var_name), var))
        self._accumulators[name][param.name] = var
        return var

    def _get_accumulator(self, name, param):
        return self._accumulators[name][param.name]

    # ---- state ---------------------------------------------------------------------------------
    def state_dict(self):
        """{accumulator name: tensor}, plus "LR_Scheduler": scheduler.state_dict()."""
        state = {}
        for accumulators in self._accumulators.values():
            for var in accumulators.values():
                state[var.name] = var
        if isinstance(self._learning_rate, LRScheduler):
            state["LR_Scheduler"] = self._learning_rate.state_dict()
        if self._master_weights:
            state["master_weights"] = dict(self._master_weights)
        return state

    @no_grad()
    def set_state_dict(self, state_dict):
        """Loads state from state_dict() output (tensors or NumPy arrays). Accumulators that
        do not exist yet take their values when the first step creates them."""
        if isinstance(self._learning_rate, LRScheduler) and "LR_Scheduler" in state_dict:
            self._learning_rate.set_state_dict(state_dict["LR_Scheduler"])
        for name, value in state_dict.get("master_weights", {}).items():
            if name in self._master_weights:
                self._master_weights[name]._set_value(
                    _as_tensor_like(value, self._master_weights[name]))
            else:
                self._master_weights_holder[name] = value
        state = {k: v for k, v in state_dict.items()
                 if k not in ("LR_Scheduler", "master_weights")}
        for accumulators in self._accumulators.values():
            for var in accumulators.values():
                if var.name not in state:
                    raise KeyError(f"optimizer Tensor {var.name} not found in the state dict")
                var._set_value(_as_tensor_like(state.pop(var.name), var))
        self._accumulators_holder = state


def _dense_grad(param, grad):
    """The dense form of the SelectedRows gradient of `param`."""
    if libpaddle._in_static_mode():
        raise NotImplementedError(f"weight decay on the sparse (SelectedRows) gradient of "
                                  f"'{param.name}' is not supported in static graph mode; use "
                                  f"dygraph mode or a dense embedding (sparse=False)")
    return libpaddle._selected_rows_to_dense(grad)


def _with_grads(params):
    """(param, grad) for the trainable parameters that have a gradient."""
    return [(p, p.grad) for p in params if not p.stop_gradient and p.grad is not None]


def _as_regularizer(weight_decay):
    """weight_decay as a regularizer: a float means L2Decay(weight_decay)."""
    if weight_decay is None or isinstance(weight_decay, WeightDecayRegularizer):
        return weight_decay
    if isinstance(weight_decay, numbers.Real) and not isinstance(weight_decay, bool):
        return L2Decay(float(weight_decay))
    raise TypeError(f"weight_decay should be a float or a regularizer (paddle.regularizer."
                    f"L1Decay/L2Decay), but received {type(weight_decay).__name__}")
