"""paddle.optimizer.lr: learning-rate schedules.

A scheduler is given to an optimizer as its learning_rate; the optimizer reads scheduler() at
every step and the training loop calls scheduler.step() (per epoch or per iteration) to advance
it. The constructor takes the first step, so last_epoch starts at 0 with last_lr = get_lr().
"""
import math
import numbers
import warnings

import numpy as np

__all__ = ["LRScheduler", "NoamDecay", "PiecewiseDecay", "NaturalExpDecay", "InverseTimeDecay",
           "PolynomialDecay", "LinearWarmup", "ExponentialDecay", "MultiStepDecay", "StepDecay",
           "LambdaDecay", "MultiplicativeDecay", "ReduceOnPlateau", "CosineAnnealingDecay",
           "OneCycleLR", "CyclicLR", "LinearLR", "CosineAnnealingWarmRestarts"]


def _check_learning_rate(learning_rate):
    if isinstance(learning_rate, bool) or not isinstance(learning_rate, numbers.Real):
        raise TypeError(f"The type of learning rate must be float, but received "
                        f"{type(learning_rate).__name__}")
    if learning_rate < 0:
        raise ValueError(f"Invalid learning rate: {learning_rate}")


class LRScheduler:
    """Base class: subclasses implement get_lr() from self.base_lr and self.last_epoch."""

    def __init__(self, learning_rate=0.1, last_epoch=-1, verbose=False):
        _check_learning_rate(learning_rate)
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.verbose = verbose
        self.step()

    def __call__(self):
        """The current learning rate."""
        return self.last_lr

    def step(self, epoch=None):
        """Advances one epoch (or jumps to `epoch`) and recomputes last_lr."""
        if epoch is None:
            self.last_epoch += 1
            self.last_lr = self.get_lr()
        else:
            self.last_epoch = epoch
            self.last_lr = (self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr")
                            else self.get_lr())
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to "
                  f"{self.last_lr}.")

    def get_lr(self):
        raise NotImplementedError

    def state_keys(self):
        """The attributes saved by state_dict()."""
        self.keys = ["last_epoch", "last_lr"]

    def state_dict(self):
        self.state_keys()
        state = {}
        for key in self.keys:
            if key in self.__dict__:
                value = self.__dict__[key]
                state[key] = value.item() if hasattr(value, "item") else value
        return state

    def set_state_dict(self, state_dict):
        self.state_keys()
        for key in self.keys:
            if key not in state_dict:
                raise RuntimeError(f"Please check whether state_dict is correct for optimizer. "
                                   f"Can't find [ {key} ] in state_dict")
            self.__dict__[key] = state_dict[key]
        if len(state_dict) > len(self.keys):
            warnings.warn("There are some unused values in state_dict. Maybe the optimizer have "
                          "different 'LearningRateDecay' when invoking state_dict and set_dict")

    set_dict = set_state_dict


class NoamDecay(LRScheduler):
    """lr * d_model^-0.5 * min(epoch^-0.5, epoch * warmup_steps^-1.5) (the Transformer's)."""

    def __init__(self, d_model, warmup_steps, learning_rate=1.0, last_epoch=-1, verbose=False):
        if d_model <= 0:
            raise ValueError("d_model should be grater than 0")
        self.d_model = d_model
        self.warmup_steps = warmup_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        a = 1 if self.last_epoch == 0 else self.last_epoch ** -0.5
        b = self.warmup_steps ** -1.5 * self.last_epoch
        return self.base_lr * (self.d_model ** -0.5) * min(a, b)


class PiecewiseDecay(LRScheduler):
    """values[i] while epoch < boundaries[i]; values[-1] after the last boundary."""

    def __init__(self, boundaries, values, last_epoch=-1, verbose=False):
        if len(boundaries) == 0:
            raise ValueError("The boundaries cannot be empty.")
        if len(values) != len(boundaries) + 1:
            raise ValueError(f"PiecewiseDecay(): len(values) must be len(boundaries) + 1, got "
                             f"{len(values)} values for {len(boundaries)} boundaries")
        self.boundaries = list(boundaries)
        self.values = list(values)
        super().__init__(last_epoch=last_epoch, verbose=verbose)

    def get_lr(self):
        for boundary, value in zip(self.boundaries, self.values):
            if self.last_epoch < boundary:
                return value
        return self.values[-1]


def _check_decay_gamma(gamma):
    if gamma <= 0.0:
        raise ValueError(" 'gamma' must be a positive number so that the learning rate will "
                         "decay.")


class NaturalExpDecay(LRScheduler):
    """lr * exp(-gamma * epoch)."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        _check_decay_gamma(gamma)
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * math.exp(-1 * self.gamma * self.last_epoch)


class InverseTimeDecay(LRScheduler):
    """lr / (1 + gamma * epoch)."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr / (1 + self.gamma * self.last_epoch)


class PolynomialDecay(LRScheduler):
    """(lr - end_lr) * (1 - epoch / decay_steps)^power + end_lr; with cycle=True decay_steps
    grows to the next multiple past the epoch."""

    def __init__(self, learning_rate, decay_steps, end_lr=0.0001, power=1.0, cycle=False,
                 last_epoch=-1, verbose=False):
        if not (isinstance(decay_steps, int) and decay_steps > 0):
            raise ValueError(" 'decay_steps' must be a positive integer.")
        self.decay_steps = decay_steps
        self.end_lr = end_lr
        if power <= 0:
            raise ValueError(" 'power' must be greater than 0.0 so that the learning rate will "
                             "decay.")
        self.power = power
        self.cycle = cycle
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        epoch = self.last_epoch
        decay_steps = self.decay_steps
        if self.cycle:
            cycles = 1 if epoch == 0 else math.ceil(float(epoch) / float(decay_steps))
            decay_steps = decay_steps * cycles
        else:
            epoch = min(epoch, decay_steps)
        return ((self.base_lr - self.end_lr) * ((1 - float(epoch) / float(decay_steps))
                                                ** self.power) + self.end_lr)


class LinearWarmup(LRScheduler):
    """Rises linearly from start_lr to end_lr over warmup_steps, then follows learning_rate
    (a number or another scheduler, stepped from 0 at the end of the warmup)."""

    def __init__(self, learning_rate, warmup_steps, start_lr, end_lr, last_epoch=-1,
                 verbose=False):
        if isinstance(learning_rate, bool) or not isinstance(learning_rate,
                                                             (numbers.Real, LRScheduler)):
            raise TypeError(f"the type of learning_rate should be [int, float or LRScheduler], "
                            f"the current type is {learning_rate}")
        if not (isinstance(warmup_steps, int) and warmup_steps > 0):
            raise ValueError("'warmup_steps' must be a positive integer.")
        self.learning_rate = learning_rate
        self.warmup_steps = warmup_steps
        self.start_lr = start_lr
        self.end_lr = end_lr
        super().__init__(start_lr, last_epoch, verbose)

    def state_dict(self):
        state = super().state_dict()
        if isinstance(self.learning_rate, LRScheduler):
            state["LinearWarmup_LR"] = self.learning_rate.state_dict()
        return state

    def set_state_dict(self, state_dict):
        state = dict(state_dict)
        inner = state.pop("LinearWarmup_LR", None)
        super().set_state_dict(state)
        if isinstance(self.learning_rate, LRScheduler):
            if inner is None:
                raise RuntimeError("Please check whether state_dict is correct for optimizer. "
                                   "Can't find [ LinearWarmup_LR ] in state_dict")
            self.learning_rate.set_state_dict(inner)

    set_dict = set_state_dict

    def get_lr(self):
        if self.last_epoch < self.warmup_steps:
            return ((self.end_lr - self.start_lr) * float(self.last_epoch) /
                    float(self.warmup_steps) + self.start_lr)
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return float(self.learning_rate)


class ExponentialDecay(LRScheduler):
    """lr * gamma^epoch."""

    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        _check_decay_gamma(gamma)
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * (self.gamma ** self.last_epoch)


class MultiStepDecay(LRScheduler):
    """lr * gamma^(number of milestones <= epoch)."""

    def __init__(self, learning_rate, milestones, gamma=0.1, last_epoch=-1, verbose=False):
        if not isinstance(milestones, (tuple, list)):
            raise TypeError(f"The type of 'milestones' in 'MultiStepDecay' must be 'tuple, "
                            f"list', but received {type(milestones).__name__}.")
        if not all(milestones[i] < milestones[i + 1] for i in range(len(milestones) - 1)):
            raise ValueError("The elements of milestones must be incremented")
        if gamma >= 1.0:
            raise ValueError("gamma should be < 1.0.")
        self.milestones = list(milestones)
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        for i, milestone in enumerate(self.milestones):
            if self.last_epoch < milestone:
                return self.base_lr * (self.gamma ** i)
        return self.base_lr * (self.gamma ** len(self.milestones))


class StepDecay(LRScheduler):
    """lr * gamma^(epoch // step_size)."""

    def __init__(self, learning_rate, step_size, gamma=0.1, last_epoch=-1, verbose=False):
        if not isinstance(step_size, int):
            raise TypeError(f"The type of 'step_size' must be 'int', but received "
                            f"{type(step_size).__name__}.")
        if gamma >= 1.0:
            raise ValueError("gamma should be < 1.0.")
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * (self.gamma ** (self.last_epoch // self.step_size))


class LambdaDecay(LRScheduler):
    """lr * lr_lambda(epoch)."""

    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False):
        if not callable(lr_lambda):
            raise TypeError(f"The type of 'lr_lambda' in 'LambdaDecay' must be 'function', but "
                            f"received {type(lr_lambda).__name__}.")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.lr_lambda(self.last_epoch)


class MultiplicativeDecay(LRScheduler):
    """Multiplies the previous learning rate by lr_lambda(epoch) at every step."""

    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False):
        if not callable(lr_lambda):
            raise TypeError(f"The type of 'lr_lambda' in 'MultiplicativeDecay' must be "
                            f"'function', but received {type(lr_lambda).__name__}.")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        if self.last_epoch > 0:
            return self.last_lr * self.lr_lambda(self.last_epoch)
        return self.base_lr


class CosineAnnealingDecay(LRScheduler):
    """eta_min + (lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2, computed recursively from
    the previous value as Paddle does (step(epoch) uses the closed form)."""

    def __init__(self, learning_rate, T_max, eta_min=0, last_epoch=-1, verbose=False):
        if not isinstance(T_max, int):
            raise TypeError(f"The type of 'T_max' in 'CosineAnnealingDecay' must be 'int', but "
                            f"received {type(T_max).__name__}.")
        if not isinstance(eta_min, (float, int)):
            raise TypeError(f"The type of 'eta_min' in 'CosineAnnealingDecay' must be 'float, "
                            f"int', but received {type(eta_min).__name__}.")
        if T_max <= 0:
            raise ValueError("'T_max' must be a positive integer.")
        self.T_max = T_max
        self.eta_min = float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        if self.last_epoch == 0:
            return self.base_lr
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            return (self.last_lr + (self.base_lr - self.eta_min) *
                    (1 - math.cos(math.pi / self.T_max)) / 2)
        return ((1 + math.cos(math.pi * self.last_epoch / self.T_max)) /
                (1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max)) *
                (self.last_lr - self.eta_min) + self.eta_min)

    def _get_closed_form_lr(self):
        return (self.eta_min + (self.base_lr - self.eta_min) *
                (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2)


class ReduceOnPlateau(LRScheduler):
    """Multiplies the learning rate by `factor` when the metric given to step(metrics) has not
    improved for `patience` steps (then waits `cooldown` steps before watching again)."""

    def __init__(self, learning_rate, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, epsilon=1e-8, verbose=False):
        mode = mode.lower()
        if mode not in ("min", "max"):
            raise ValueError("mode: " + mode + " is unknown!")
        if factor >= 1.0:
            raise ValueError("new_lr = origin_lr * gamma and gamma should be < 1.0.")
        threshold_mode = threshold_mode.lower()
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode: " + threshold_mode + " is unknown!")
        _check_learning_rate(learning_rate)
        self.mode = mode
        self.factor = factor
        self.patience = patience
        self.threshold = threshold
        self.threshold_mode = threshold_mode
        self.cooldown = cooldown
        self.min_lr = min_lr
        self.epsilon = epsilon
        self.cooldown_counter = 0
        self.best = None
        self.num_bad_epochs = 0
        # No initial step: the schedule only moves when a metric arrives.
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = 0
        self.verbose = verbose

    def state_keys(self):
        self.keys = ["cooldown_counter", "best", "num_bad_epochs", "last_epoch", "last_lr"]

    def step(self, metrics, epoch=None):
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        if hasattr(metrics, "numpy"):
            metrics = metrics.numpy()
        if isinstance(metrics, np.ndarray):
            if metrics.size != 1:
                raise ValueError(f"the metrics.size should be 1, but the current "
                                 f"metrics.size is {metrics.size}.")
            metrics = metrics.reshape(-1)[0]
        if not isinstance(metrics, (numbers.Real, np.floating, np.integer)):
            raise TypeError(f"metrics must be 'int', 'float', 'np.float64', 'numpy.ndarray' or "
                            f"'paddle.Tensor', but receive {type(metrics).__name__}")
        metrics = float(metrics)
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            return
        if self.best is None or self._is_better(metrics, self.best):
            self.best = metrics
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.num_bad_epochs > self.patience:
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
            new_lr = max(self.last_lr * self.factor, self.min_lr)
            if self.last_lr - new_lr > self.epsilon:
                self.last_lr = new_lr
                if self.verbose:
                    print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate "
                          f"to {self.last_lr}.")

    def _is_better(self, current, best):
        if self.mode == "min" and self.threshold_mode == "rel":
            return current < best - best * self.threshold
        if self.mode == "min":
            return current < best - self.threshold
        if self.threshold_mode == "rel":
            return current > best + best * self.threshold
        return current > best + self.threshold


def _check_real(value, name, scheduler):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{scheduler}(): '{name}' must be 'float' or 'int', but received "
                        f"{type(value).__name__}")


def _check_positive_int(value, name, scheduler):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{scheduler}(): '{name}' must be 'int', but received "
                        f"{type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{scheduler}(): '{name}' must be a positive integer, but received "
                         f"{value}")


class OneCycleLR(LRScheduler):
    """The one-cycle policy, stepped once per iteration: from max_learning_rate / divide_factor
    up to max_learning_rate over the first phase_pct of total_steps, then down to
    end_learning_rate (three_phase=True goes back to the initial rate first, over as many steps
    as the rise). Each phase anneals by cosine or linearly."""

    def __init__(self, max_learning_rate, total_steps, divide_factor=25.0,
                 end_learning_rate=0.0001, phase_pct=0.3, anneal_strategy="cos",
                 three_phase=False, last_epoch=-1, verbose=False):
        _check_real(max_learning_rate, "max_learning_rate", "OneCycleLR")
        if max_learning_rate < 0:
            raise ValueError("OneCycleLR(): 'max_learning_rate' must be non-negative, but "
                             f"received {max_learning_rate}")
        _check_real(end_learning_rate, "end_learning_rate", "OneCycleLR")
        if end_learning_rate < 0:
            raise ValueError("OneCycleLR(): 'end_learning_rate' must be non-negative, but "
                             f"received {end_learning_rate}")
        _check_positive_int(total_steps, "total_steps", "OneCycleLR")
        if not isinstance(phase_pct, float):
            raise TypeError(f"OneCycleLR(): 'phase_pct' must be 'float', but received "
                            f"{type(phase_pct).__name__}")
        if not 0 <= phase_pct <= 1:
            raise ValueError(f"OneCycleLR(): 'phase_pct' must be between 0 and 1, but received "
                             f"{phase_pct}")
        _check_real(divide_factor, "divide_factor", "OneCycleLR")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"OneCycleLR(): 'anneal_strategy' must be 'cos' or 'linear', but "
                             f"received {anneal_strategy!r}")
        self.total_steps = total_steps
        initial_lr = max_learning_rate / float(divide_factor)
        rise_end = phase_pct * total_steps - 1
        last = total_steps - 1
        if three_phase:
            if phase_pct >= 0.5:
                raise ValueError("OneCycleLR(): 'phase_pct' must be less than 0.5 when "
                                 f"three_phase is True, but received {phase_pct}")
            fall_end = 2 * phase_pct * total_steps - 2
            # (first step, last step, start lr, end lr) of each phase.
            self._phases = [(0, rise_end, initial_lr, max_learning_rate),
                            (rise_end, fall_end, max_learning_rate, initial_lr),
                            (fall_end, last, initial_lr, float(end_learning_rate))]
        else:
            self._phases = [(0, rise_end, initial_lr, max_learning_rate),
                            (rise_end, last, max_learning_rate, float(end_learning_rate))]
        self.anneal_strategy = anneal_strategy
        super().__init__(initial_lr, last_epoch, verbose)

    def _anneal(self, start_lr, end_lr, fraction):
        if self.anneal_strategy == "cos":
            return end_lr + (start_lr - end_lr) / 2.0 * (math.cos(math.pi * fraction) + 1)
        return (end_lr - start_lr) * fraction + start_lr

    def get_lr(self):
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"OneCycleLR: stepped {step} times, but total_steps is "
                             f"{self.total_steps}")
        for index, (first, last, start_lr, end_lr) in enumerate(self._phases):
            # Steps past the last phase's end (step == total_steps) stay in the last phase.
            if step <= last or index == len(self._phases) - 1:
                return self._anneal(start_lr, end_lr, (step - first) / (last - first))


class CyclicLR(LRScheduler):
    """Cycles between base_learning_rate and max_learning_rate (step_size_up steps up,
    step_size_down down), the amplitude scaled per cycle ('triangular': 1, 'triangular2':
    halved each cycle) or per iteration ('exp_range': exp_gamma^iteration), or by scale_fn."""

    def __init__(self, base_learning_rate, max_learning_rate, step_size_up, step_size_down=None,
                 mode="triangular", exp_gamma=1.0, scale_fn=None, scale_mode="cycle",
                 last_epoch=-1, verbose=False):
        _check_real(max_learning_rate, "max_learning_rate", "CyclicLR")
        if max_learning_rate < 0:
            raise ValueError("CyclicLR(): 'max_learning_rate' must be non-negative, but "
                             f"received {max_learning_rate}")
        _check_positive_int(step_size_up, "step_size_up", "CyclicLR")
        if step_size_down is not None:
            _check_positive_int(step_size_down, "step_size_down", "CyclicLR")
        if not isinstance(exp_gamma, float):
            raise TypeError(f"CyclicLR(): 'exp_gamma' must be 'float', but received "
                            f"{type(exp_gamma).__name__}")
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError(f"CyclicLR(): 'mode' must be 'triangular', 'triangular2' or "
                             f"'exp_range' when scale_fn is not given, but received {mode!r}")
        if scale_mode not in ("cycle", "iterations"):
            raise ValueError(f"CyclicLR(): 'scale_mode' must be 'cycle' or 'iterations', but "
                             f"received {scale_mode!r}")
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.cycle_size = up + down
        self.step_up_pct = up / self.cycle_size
        self.max_lr = float(max_learning_rate)
        self.amplitude = self.max_lr - base_learning_rate
        self.mode = mode
        self.gamma = exp_gamma
        if scale_fn is not None:
            self.scale_fn, self.scale_mode = scale_fn, scale_mode
        elif mode == "triangular":
            self.scale_fn, self.scale_mode = (lambda cycle: 1.0), "cycle"
        elif mode == "triangular2":
            self.scale_fn, self.scale_mode = (lambda cycle: 1 / (2.0 ** (cycle - 1))), "cycle"
        else:
            self.scale_fn, self.scale_mode = (lambda it: self.gamma ** it), "iterations"
        super().__init__(base_learning_rate, last_epoch, verbose)

    def get_lr(self):
        iterations = self.last_epoch
        cycle = 1 + iterations // self.cycle_size
        fraction = 1.0 + iterations / self.cycle_size - cycle
        if fraction <= self.step_up_pct:
            height = fraction / self.step_up_pct
        else:
            height = (1 - fraction) / (1 - self.step_up_pct)
        scale_arg = cycle if self.scale_mode == "cycle" else iterations
        return self.base_lr + self.amplitude * height * self.scale_fn(scale_arg)


class LinearLR(LRScheduler):
    """From learning_rate * start_factor to learning_rate * end_factor linearly over
    total_steps steps (each step multiplies the previous rate, as Paddle computes it), then
    constant."""

    def __init__(self, learning_rate, total_steps, start_factor=1.0 / 3, end_factor=1.0,
                 last_epoch=-1, verbose=False):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError(f"LinearLR(): 'start_factor' must be in (0, 1], but received "
                             f"{start_factor}")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError(f"LinearLR(): 'end_factor' must be in [0, 1], but received "
                             f"{end_factor}")
        if total_steps <= 0:
            raise ValueError(f"LinearLR(): 'total_steps' must be greater than 0, but received "
                             f"{total_steps}")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_steps = total_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        if self.last_epoch == 0:
            return self.base_lr * self.start_factor
        if self.last_epoch > self.total_steps:
            return self.last_lr
        delta = self.end_factor - self.start_factor
        return self.last_lr * (1.0 + delta / (self.total_steps * self.start_factor +
                                              (self.last_epoch - 1) * delta))


class CosineAnnealingWarmRestarts(LRScheduler):
    """SGDR: cosine annealing from learning_rate to eta_min over T_i steps, restarting at
    learning_rate after each period; the period starts at T_0 and is multiplied by T_mult at
    every restart."""

    def __init__(self, learning_rate, T_0, T_mult=1, eta_min=0, last_epoch=-1, verbose=False):
        if not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"CosineAnnealingWarmRestarts(): 'T_0' must be a positive "
                             f"integer, but received {T_0}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"CosineAnnealingWarmRestarts(): 'T_mult' must be an integer "
                             f">= 1, but received {T_mult}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return (self.eta_min + (self.base_lr - self.eta_min) *
                (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2)

    def step(self, epoch=None):
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur -= self.T_i
                self.T_i *= self.T_mult
        elif epoch < 0:
            raise ValueError(f"CosineAnnealingWarmRestarts.step(): 'epoch' must be "
                             f"non-negative, but received {epoch}")
        elif epoch >= self.T_0:
            if self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:
                restarts = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult ** restarts - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult ** restarts
        else:
            self.T_i = self.T_0
            self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self.last_lr = self.get_lr()
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to "
                  f"{self.last_lr}.")
