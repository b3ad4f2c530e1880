"""paddle.amp.GradScaler: dynamic loss scaling for float16 training. The loss is multiplied by
the scale before backward; before the optimizer steps, the gradients are divided by it and
checked (the op check_finite_and_unscale). A step whose gradients hold inf or nan is skipped,
and the scale is updated (the op update_loss_scaling): multiplied by decr_ratio after
decr_every_n_nan_or_inf such steps in a row (not below 1), by incr_ratio after
incr_every_n_steps finite ones.

As in Paddle, a scaler with dynamic scaling used under bfloat16 auto_cast turns itself off at
the first scale() (bfloat16 has float32's range, so scaling only costs time). Unlike Paddle,
which disables the scaler off the GPU, it works on the CPU.

In static mode, as in Paddle 3.3.1, the scale is a persistable loss_scaling variable: scale()
multiplies the loss variable by it and minimize() hands it to a paddle.static.amp-decorated
optimizer, whose program then unscales, checks and updates it (static/amp/decorator.py)."""
import enum
import warnings

import numpy as np

from .. import _C_ops
from ..base import libpaddle
from .auto_cast import get_autocast_dtype, is_autocast_enabled

__all__ = ["AmpScaler", "GradScaler", "OptimizerState"]

Tensor = libpaddle.Tensor


class OptimizerState(enum.Enum):
    INIT = 0
    UNSCALED = 1
    STEPPED = 2


class AmpScaler:
    def __init__(self, enable=True, init_loss_scaling=2.0 ** 15, incr_ratio=2.0, decr_ratio=0.5,
                 incr_every_n_steps=1000, decr_every_n_nan_or_inf=1,
                 use_dynamic_loss_scaling=True):
        self._enable = bool(enable)
        self._use_dynamic_loss_scaling = False
        self._init_loss_scaling = 1.0
        self._scale = None
        if not self._enable:
            return
        if not incr_ratio > 1.0:
            raise ValueError(f"The incr_ratio must be > 1.0, received {incr_ratio}")
        if not 0.0 < decr_ratio < 1.0:
            raise ValueError(f"The decr_ratio must be in (0, 1), received {decr_ratio}")
        for name, value in (("incr_every_n_steps", incr_every_n_steps),
                            ("decr_every_n_nan_or_inf", decr_every_n_nan_or_inf)):
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"{name} must be a positive integer, received {value!r}")
        if not init_loss_scaling > 0:
            raise ValueError(f"init_loss_scaling must be positive, received {init_loss_scaling}")
        self._init_loss_scaling = float(init_loss_scaling)
        self._incr_ratio = float(incr_ratio)
        self._decr_ratio = float(decr_ratio)
        self._incr_every_n_steps = incr_every_n_steps
        self._decr_every_n_nan_or_inf = decr_every_n_nan_or_inf
        self._use_dynamic_loss_scaling = bool(use_dynamic_loss_scaling)
        if libpaddle._in_static_mode():
            from ..static import create_global_var
            from ..utils import unique_name
            self._scale = create_global_var([1], self._init_loss_scaling, "float32",
                                            persistable=True,
                                            name=unique_name.generate("loss_scaling"))
            return
        self._scale = _float32([self._init_loss_scaling])
        # The step counters update_loss_scaling advances (incr_count and decr_count).
        self._good_steps = _int32([0])
        self._bad_steps = _int32([0])
        self._found_inf = _bool([False])
        self._optimizer_states = {}

    # ---- scaling -----------------------------------------------------------------------------
    def scale(self, var):
        """var * the current scale (var itself when disabled)."""
        from ..static import Variable
        if isinstance(var, Variable):
            if not self._enable:
                return var
            if var.dtype != libpaddle.DataType.FLOAT32:
                var = var.astype("float32")
            return var * self._scale
        if not isinstance(var, Tensor):
            raise TypeError(f"The type of 'var' in AmpScaler.scale() must be Tensor, but "
                            f"received {type(var).__name__}")
        if (self._enable and self._use_dynamic_loss_scaling and is_autocast_enabled()
                and get_autocast_dtype() != libpaddle.DataType.FLOAT16):
            self._enable = False
            self._use_dynamic_loss_scaling = False
            self._init_loss_scaling = 1.0
            warnings.warn("It is not recommended to use dynamic loss scaling for bfloat16, so "
                          "GradScaler is disabled by default.")
        if not self._enable:
            return var
        return _C_ops.multiply(var, _C_ops.cast(self._scale, var.dtype))

    def _state(self, optimizer):
        return self._optimizer_states.get(id(optimizer), OptimizerState.INIT)

    def _unscale(self, optimizer):
        """Divides the optimizer's gradients by the scale in place and records whether any is
        not finite."""
        if not self._enable:
            return
        state = self._state(optimizer)
        if state is OptimizerState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the "
                               "last update().")
        if state is OptimizerState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        grads = [p.grad for p in optimizer._parameter_list
                 if not p.stop_gradient and p.grad is not None and not p.grad.is_selected_rows()]
        found = False
        if grads:
            unscaled, found_inf = _C_ops.check_finite_and_unscale(grads, self._scale)
            for grad, value in zip(grads, unscaled):
                grad._set_value(value)
            self._found_inf = found_inf
            found = bool(found_inf)
        else:
            self._found_inf = _bool([False])
        self._optimizer_states[id(optimizer)] = OptimizerState.UNSCALED
        return found

    unscale_ = _unscale

    def minimize(self, optimizer, *args, **kwargs):
        """Unscales the gradients (unless unscale_ did), runs optimizer.minimize(*args,
        **kwargs) when they are finite, and updates the scale. Returns what minimize returned,
        or (None, None) for a skipped step.

        In static mode `optimizer` must come from paddle.static.amp.decorate and args[0] be the
        scaled loss: the optimizer's program unscales, skips and updates with this scale."""
        if libpaddle._in_static_mode():
            return self._minimize_static(optimizer, *args, **kwargs)
        if not self._enable:
            return optimizer.minimize(*args, **kwargs)
        if self._state(optimizer) is OptimizerState.INIT:
            self._unscale(optimizer)
        result = (None, None)
        if not bool(self._found_inf):
            result = optimizer.minimize(*args, **kwargs)
        if self._use_dynamic_loss_scaling:
            self._update()
        self._optimizer_states = {}
        return result

    def _minimize_static(self, optimizer, *args, **kwargs):
        from ..static.amp.decorator import OptimizerWithMixedPrecision
        if not isinstance(optimizer, OptimizerWithMixedPrecision):
            raise TypeError("GradScaler.minimize() in static mode takes an optimizer decorated "
                            "by paddle.static.amp.decorate, but received "
                            f"{type(optimizer).__name__}")
        optimizer._use_scaler(self._scale if self._enable else None,
                              self._use_dynamic_loss_scaling, self._init_loss_scaling,
                              self._incr_every_n_steps if self._enable else 0,
                              self._decr_every_n_nan_or_inf if self._enable else 0,
                              self._incr_ratio if self._enable else 0.0,
                              self._decr_ratio if self._enable else 0.0)
        return optimizer.minimize(*args, **kwargs)

    def _update(self):
        """One update_loss_scaling step from the last unscale's found_inf."""
        if not self._enable:
            return
        _C_ops.update_loss_scaling_([], self._found_inf, self._scale, self._good_steps,
                                    self._bad_steps, self._incr_every_n_steps,
                                    self._decr_every_n_nan_or_inf, self._incr_ratio,
                                    self._decr_ratio, False)

    # ---- settings ----------------------------------------------------------------------------
    def is_enable(self):
        return self._enable

    def is_use_dynamic_loss_scaling(self):
        return self._use_dynamic_loss_scaling

    def get_init_loss_scaling(self):
        return self._init_loss_scaling

    def set_init_loss_scaling(self, new_init_loss_scaling):
        self._init_loss_scaling = float(new_init_loss_scaling)
        self._scale = _float32([self._init_loss_scaling])

    def get_incr_ratio(self):
        return self._incr_ratio

    def set_incr_ratio(self, new_incr_ratio):
        if not new_incr_ratio > 1.0:
            raise ValueError(f"The new_incr_ratio must be > 1.0, received {new_incr_ratio}")
        self._incr_ratio = float(new_incr_ratio)

    def get_decr_ratio(self):
        return self._decr_ratio

    def set_decr_ratio(self, new_decr_ratio):
        if not 0.0 < new_decr_ratio < 1.0:
            raise ValueError(f"The new_decr_ratio must be in (0, 1), received {new_decr_ratio}")
        self._decr_ratio = float(new_decr_ratio)

    def get_incr_every_n_steps(self):
        return self._incr_every_n_steps

    def set_incr_every_n_steps(self, new_incr_every_n_steps):
        self._incr_every_n_steps = new_incr_every_n_steps

    def get_decr_every_n_nan_or_inf(self):
        return self._decr_every_n_nan_or_inf

    def set_decr_every_n_nan_or_inf(self, new_decr_every_n_nan_or_inf):
        self._decr_every_n_nan_or_inf = new_decr_every_n_nan_or_inf

    # ---- state -------------------------------------------------------------------------------
    def state_dict(self):
        """Paddle's layout: the scale (a float32 array of one element), the ratios, the step
        periods and counters; {} when disabled."""
        if not self._enable:
            return {}
        return {"scale": self._scale.numpy(), "incr_ratio": self._incr_ratio,
                "decr_ratio": self._decr_ratio, "incr_every_n_steps": self._incr_every_n_steps,
                "decr_every_n_nan_or_inf": self._decr_every_n_nan_or_inf,
                "incr_count": int(self._good_steps), "decr_count": int(self._bad_steps),
                "use_dynamic_loss_scaling": self._use_dynamic_loss_scaling}

    def load_state_dict(self, state_dict):
        if not self._enable:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The input state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_loss_scaling = float(np.asarray(state_dict["scale"]).reshape(-1)[0])
        self._scale = _float32([self._init_loss_scaling])
        self._incr_ratio = state_dict["incr_ratio"]
        self._decr_ratio = state_dict["decr_ratio"]
        self._incr_every_n_steps = state_dict["incr_every_n_steps"]
        self._decr_every_n_nan_or_inf = state_dict["decr_every_n_nan_or_inf"]
        self._good_steps = _int32([state_dict["incr_count"]])
        self._bad_steps = _int32([state_dict["decr_count"]])
        self._use_dynamic_loss_scaling = state_dict["use_dynamic_loss_scaling"]


class GradScaler(AmpScaler):
    """AmpScaler with Paddle's GradScaler defaults (init_loss_scaling 2**16, incr_every_n_steps
    2000) and the step()/update() pair:

        scaled = scaler.scale(loss); scaled.backward()
        scaler.step(optimizer)   # unscale, skip on inf/nan
        scaler.update()          # adjust the scale
        optimizer.clear_grad()"""

    def __init__(self, enable=True, init_loss_scaling=65536.0, incr_ratio=2.0, decr_ratio=0.5,
                 incr_every_n_steps=2000, decr_every_n_nan_or_inf=1,
                 use_dynamic_loss_scaling=True):
        super().__init__(enable, init_loss_scaling, incr_ratio, decr_ratio, incr_every_n_steps,
                         decr_every_n_nan_or_inf, use_dynamic_loss_scaling)

    def step(self, optimizer):
        """Unscales the gradients (unless unscale_ did) and runs optimizer.step() when they are
        all finite."""
        if not self._enable:
            return optimizer.step()
        state = self._state(optimizer)
        if state is OptimizerState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state is OptimizerState.INIT:
            self._unscale(optimizer)
        if not bool(self._found_inf):
            optimizer.step()
        self._optimizer_states[id(optimizer)] = OptimizerState.STEPPED

    def update(self):
        """Updates the scale from the last step's gradients (dynamic scaling only)."""
        if not self._enable:
            return
        if self._use_dynamic_loss_scaling:
            self._update()
        self._optimizer_states = {}

    def unscale_(self, optimizer):
        """Divides the optimizer's gradients by the scale now (to clip them before step())."""
        return super()._unscale(optimizer)


def _float32(values):
    return _C_ops.assign(_to_tensor(np.asarray(values, np.float32)))


def _int32(values):
    return _to_tensor(np.asarray(values, np.int32))


def _bool(values):
    return _to_tensor(np.asarray(values, np.bool_))


def _to_tensor(array):
    from ..tensor.creation import to_tensor
    return to_tensor(array, place=libpaddle.CPUPlace())
