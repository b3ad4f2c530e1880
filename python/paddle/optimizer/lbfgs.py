"""L-BFGS (Nocedal & Wright, Algorithm 7.5): a quasi-Newton method that builds the search
direction from the last history_size parameter and gradient differences, with an optional
strong-Wolfe line search (Algorithms 3.5 and 3.6). As in Paddle it is dygraph only and driven by
a closure that recomputes the loss and its gradients:

    def closure():
        opt.clear_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        return loss
    opt.step(closure)

One step() runs up to max_iter iterations (and max_eval closure calls). The parameters are
treated as one flat vector; the vectors of the history stay tensors, the scalars of the line
search are Python floats. As in Paddle, weight_decay and grad_clip are accepted but not applied:
the line search compares losses, which a decay added to the gradients alone would contradict.
state_dict() is {"state": {...}} with Paddle's keys (func_evals,
n_iter, d, alpha, old_yk, old_sk, ro, H_diag, prev_flat_grad, prev_loss, al).
"""
import collections
import numbers

import numpy as np

from .. import _C_ops
from ..autograd import enable_grad, no_grad
from ..base import libpaddle
from .optimizer import Optimizer

__all__ = ["LBFGS"]


def _dot(x, y):
    """x . y of two flat vectors, as a Python float."""
    return float(_C_ops.sum(_C_ops.multiply(x, y)))


def _abs_max(x):
    return float(_C_ops.max(_C_ops.abs(x)))


def _cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimizer, clipped to `bounds` (default: between x1 and x2), of the cubic through
    (x1, f1) and (x2, f2) with slopes g1 and g2 (Nocedal & Wright, eq. 3.59); the middle of the
    bounds where the cubic has no minimum."""
    low, high = bounds if bounds is not None else (min(x1, x2), max(x1, x2))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 * d1 - g1 * g2
    if d2_square < 0:
        return (low + high) / 2.0
    d2 = d2_square ** 0.5
    if x1 <= x2:
        position = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        position = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(position, low), high)


def _strong_wolfe(evaluate, step, direction, loss, grad, slope, c1=1e-4, c2=0.9,
                  tolerance_change=1e-9, max_ls=25):
    """A step along `direction` satisfying the strong Wolfe conditions: bracketing, then zoom.
    evaluate(step) gives (loss, flat gradient) there; loss, grad and slope (grad . direction)
    are those at step 0. Returns (loss, grad, step, evaluations)."""
    direction_max = _abs_max(direction)
    new_loss, new_grad = evaluate(step)
    evaluations = 1
    new_slope = _dot(new_grad, direction)
    prev_step, prev_loss, prev_grad, prev_slope = 0.0, loss, grad, slope
    done = False
    iteration = 0
    bracket = bracket_loss = bracket_grad = bracket_slope = None
    while iteration < max_ls:
        if new_loss > loss + c1 * step * slope or (iteration > 1 and new_loss >= prev_loss):
            bracket, bracket_loss = [prev_step, step], [prev_loss, new_loss]
            bracket_grad, bracket_slope = [prev_grad, new_grad], [prev_slope, new_slope]
            break
        if abs(new_slope) <= -c2 * slope:
            bracket, bracket_loss, bracket_grad = [step], [new_loss], [new_grad]
            done = True
            break
        if new_slope >= 0:
            bracket, bracket_loss = [prev_step, step], [prev_loss, new_loss]
            bracket_grad, bracket_slope = [prev_grad, new_grad], [prev_slope, new_slope]
            break
        # Extrapolate: somewhere between a little and ten times past the current step.
        next_step = _cubic_minimum(prev_step, prev_loss, prev_slope, step, new_loss, new_slope,
                                   bounds=(step + 0.01 * (step - prev_step), step * 10))
        prev_step, prev_loss, prev_grad, prev_slope = step, new_loss, new_grad, new_slope
        step = next_step
        new_loss, new_grad = evaluate(step)
        evaluations += 1
        new_slope = _dot(new_grad, direction)
        iteration += 1
    if iteration == max_ls:
        bracket, bracket_loss, bracket_grad = [0.0, step], [loss, new_loss], [grad, new_grad]
        bracket_slope = [slope, new_slope]

    # Zoom: shrink the bracket until a point satisfies both conditions.
    insufficient_progress = False
    low, high = (0, 1) if bracket_loss[0] <= bracket_loss[-1] else (1, 0)
    while not done and iteration < max_ls:
        if abs(bracket[1] - bracket[0]) * direction_max < tolerance_change:
            break
        step = _cubic_minimum(bracket[0], bracket_loss[0], bracket_slope[0], bracket[1],
                              bracket_loss[1], bracket_slope[1])
        # Keep the trial point away from the bracket's ends (at least 10% of its width),
        # unless the previous trial already made progress there.
        margin = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - step, step - min(bracket)) < margin:
            if insufficient_progress or step >= max(bracket) or step <= min(bracket):
                if abs(step - max(bracket)) < abs(step - min(bracket)):
                    step = max(bracket) - margin
                else:
                    step = min(bracket) + margin
                insufficient_progress = False
            else:
                insufficient_progress = True
        else:
            insufficient_progress = False
        new_loss, new_grad = evaluate(step)
        evaluations += 1
        new_slope = _dot(new_grad, direction)
        iteration += 1
        if new_loss > loss + c1 * step * slope or new_loss >= bracket_loss[low]:
            bracket[high], bracket_loss[high] = step, new_loss
            bracket_grad[high], bracket_slope[high] = new_grad, new_slope
            low, high = (0, 1) if bracket_loss[0] <= bracket_loss[1] else (1, 0)
        else:
            if abs(new_slope) <= -c2 * slope:
                done = True
            elif new_slope * (bracket[high] - bracket[low]) >= 0:
                bracket[high], bracket_loss[high] = bracket[low], bracket_loss[low]
                bracket_grad[high], bracket_slope[high] = bracket_grad[low], bracket_slope[low]
            bracket[low], bracket_loss[low] = step, new_loss
            bracket_grad[low], bracket_slope[low] = new_grad, new_slope
    return bracket_loss[low], bracket_grad[low], bracket[low], evaluations


class LBFGS(Optimizer):
    def __init__(self, learning_rate=1.0, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        if isinstance(learning_rate, bool) or not isinstance(learning_rate, numbers.Real):
            raise TypeError(f"learning_rate of LBFGS should be a float, received "
                            f"{type(learning_rate).__name__}")
        if not learning_rate > 0:
            raise ValueError(f"Invalid learning rate: {learning_rate}, expect learning_rate > 0.")
        for arg, value in (("max_iter", max_iter), ("history_size", history_size)):
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"{arg} should be a positive integer, received {value!r}")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        for arg, value in (("tolerance_grad", tolerance_grad),
                           ("tolerance_change", tolerance_change)):
            if not value >= 0:
                raise ValueError(f"Invalid value of {arg}: {value}, expect {arg} >= 0.")
        if line_search_fn not in (None, "strong_wolfe"):
            raise ValueError(f"line_search_fn should be 'strong_wolfe' or None, received "
                             f"{line_search_fn!r}")
        if isinstance(parameters, libpaddle.Tensor):
            raise TypeError("parameters argument given to the optimizer should be an iterable "
                            "of Tensors or dicts, but got Tensor")
        # Paddle steps with the rate itself; the base class's rate stays 1.
        super().__init__(1.0, parameters, weight_decay, grad_clip, name)
        self.learning_rate = float(learning_rate)
        self.max_iter = max_iter
        self.max_eval = max_eval
        self.tolerance_grad = tolerance_grad
        self.tolerance_change = tolerance_change
        self.history_size = history_size
        self.line_search_fn = line_search_fn
        self.state = collections.defaultdict(dict)
        # The parameters it updates: the list, or the last parameter group's, as in Paddle.
        self._params = self._param_groups[-1]["params"] if self._grouped else self._parameter_list

    # ---- the parameters as one flat vector ------------------------------------------------
    def _flat_grad(self):
        """The gradients of the parameters (zeros for one without), concatenated."""
        return _C_ops.concat([_C_ops.reshape(p.grad if p.grad is not None
                                             else _C_ops.full_like(p, 0.0), [-1])
                              for p in self._params], 0)

    def _add_to_params(self, step, direction):
        """params += step * direction."""
        offset = 0
        for p in self._params:
            numel = int(np.prod(p.shape, dtype=np.int64))
            piece = _C_ops.reshape(_C_ops.slice(direction, [0], [offset], [offset + numel]),
                                   list(p.shape))
            p._set_value(_C_ops.add(p, _C_ops.scale(piece, float(step), 0.0, True)))
            offset += numel

    def _evaluate_at(self, closure, saved, step, direction):
        """The loss and flat gradient at saved + step * direction; the parameters are restored."""
        self._add_to_params(step, direction)
        loss = float(closure())
        grad = self._flat_grad()
        for p, value in zip(self._params, saved):
            p._set_value(value)
        return loss, grad

    # ---- stepping ---------------------------------------------------------------------------
    @no_grad()
    def step(self, closure):
        """Runs up to max_iter L-BFGS iterations; closure() must clear the gradients, compute
        the loss, call backward and return the loss. Returns the loss of the first call."""
        if libpaddle._in_static_mode():
            raise RuntimeError("LBFGS.step works in dygraph mode only (it calls a closure)")
        closure = enable_grad()(closure)
        state = self.state
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        first_loss = closure()
        loss = float(first_loss)
        evaluations = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if _abs_max(flat_grad) <= self.tolerance_grad:
            return first_loss

        direction = state.get("d")
        step = state.get("alpha")
        old_yk = state.get("old_yk")
        old_sk = state.get("old_sk")
        ro = state.get("ro")
        h_diag = state.get("H_diag")
        prev_flat_grad = state.get("prev_flat_grad")
        prev_loss = state.get("prev_loss")

        iteration = 0
        while iteration < self.max_iter:
            iteration += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                direction = _C_ops.scale(flat_grad, -1.0, 0.0, True)
                old_yk, old_sk, ro = [], [], []
                h_diag = 1.0
            else:
                direction, h_diag = self._direction(flat_grad, prev_flat_grad, direction, step,
                                                    old_yk, old_sk, ro, h_diag)
            prev_flat_grad = _C_ops.assign(flat_grad)
            prev_loss = loss
            # The first step is scaled down to a unit gradient sum.
            if state["n_iter"] == 1:
                step = min(1.0, 1.0 / float(_C_ops.sum(_C_ops.abs(flat_grad)))) * self.learning_rate
            else:
                step = self.learning_rate
            slope = _dot(flat_grad, direction)
            if slope > -self.tolerance_change:  # not a descent direction
                break

            line_evaluations = 0
            if self.line_search_fn is not None:
                saved = [_C_ops.assign(p) for p in self._params]
                loss, flat_grad, step, line_evaluations = _strong_wolfe(
                    lambda t: self._evaluate_at(closure, saved, t, direction), step, direction,
                    loss, flat_grad, slope)
                self._add_to_params(step, direction)
                converged = _abs_max(flat_grad) <= self.tolerance_grad
            else:
                self._add_to_params(step, direction)
                converged = False
                if iteration != self.max_iter:  # the last iteration's loss is not needed
                    loss = float(closure())
                    flat_grad = self._flat_grad()
                    converged = _abs_max(flat_grad) <= self.tolerance_grad
                    line_evaluations = 1
            evaluations += line_evaluations
            state["func_evals"] += line_evaluations

            if converged or iteration == self.max_iter or evaluations >= self.max_eval:
                break
            if _abs_max(direction) * abs(step) <= self.tolerance_change:
                break
            if abs(loss - prev_loss) < self.tolerance_change:
                break

        state.update({"d": direction, "alpha": step, "old_yk": old_yk, "old_sk": old_sk,
                      "ro": ro, "H_diag": h_diag, "prev_flat_grad": prev_flat_grad,
                      "prev_loss": prev_loss})
        return first_loss

    def _direction(self, flat_grad, prev_flat_grad, direction, step, old_yk, old_sk, ro, h_diag):
        """The next search direction by the two-loop recursion, after adding the last step's
        curvature pair to the history when it is positive (keeps H positive definite)."""
        y = _C_ops.subtract(flat_grad, prev_flat_grad)
        s = _C_ops.scale(direction, float(step), 0.0, True)
        ys = _dot(y, s)
        if ys > 1e-10:
            if len(old_yk) == self.history_size:
                old_yk.pop(0)
                old_sk.pop(0)
                ro.pop(0)
            old_yk.append(y)
            old_sk.append(s)
            ro.append(1.0 / ys)
            h_diag = ys / _dot(y, y)
        al = self.state.setdefault("al", [None] * self.history_size)
        q = _C_ops.scale(flat_grad, -1.0, 0.0, True)
        for i in range(len(old_yk) - 1, -1, -1):
            al[i] = _dot(old_sk[i], q) * ro[i]
            q = _C_ops.add(q, _C_ops.scale(old_yk[i], -al[i], 0.0, True))
        r = _C_ops.scale(q, float(h_diag), 0.0, True)
        for i in range(len(old_yk)):
            beta = _dot(old_yk[i], r) * ro[i]
            r = _C_ops.add(r, _C_ops.scale(old_sk[i], al[i] - beta, 0.0, True))
        return r, h_diag

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        raise NotImplementedError("LBFGS optimizer does not use this way to minimize loss. "
                                  "Please refer 'Examples' of LBFGS() for usage.")

    # ---- state ------------------------------------------------------------------------------
    def state_dict(self):
        """{"state": {...}}: the iteration counters, the last direction and step, and the
        history (Paddle's layout)."""
        return {"state": dict(self.state)}

    def set_state_dict(self, state_dict):
        """Restores what state_dict() returned, so that training resumes where it was."""
        if "state" not in state_dict:
            raise KeyError("LBFGS.set_state_dict: the state dict has no 'state' entry (it "
                           "should come from LBFGS.state_dict())")
        self.state = collections.defaultdict(dict, state_dict["state"])
