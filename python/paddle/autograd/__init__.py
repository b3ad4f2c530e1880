"""Autograd: backward, grad (also paddle.grad), no_grad and hooks."""
import functools

from ..base import libpaddle
from ..tensor._helpers import Tensor

__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled"]


def _as_list(value, api, arg):
    if value is None:
        return None
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            if v is not None and not isinstance(v, Tensor):
                raise TypeError(f"{api}(): {arg}[{i}] must be a Tensor, not {type(v).__name__}")
        return list(value)
    raise TypeError(f"{api}(): argument '{arg}' must be a Tensor or a list of Tensors, not "
                    f"{type(value).__name__}")


def backward(tensors, grad_tensors=None, retain_graph=False):
    """Accumulates the gradients of `tensors` into the `.grad` of the leaves they depend on."""
    tensors = _as_list(tensors, "backward", "tensors")
    grads = _as_list(grad_tensors, "backward", "grad_tensors") or [None] * len(tensors)
    libpaddle._run_backward(tensors, grads, bool(retain_graph))


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=False, no_grad_vars=None):
    """The gradients of `outputs` with respect to `inputs`, without touching any `.grad`."""
    outputs = _as_list(outputs, "grad", "outputs")
    inputs = _as_list(inputs, "grad", "inputs")
    grad_outputs = _as_list(grad_outputs, "grad", "grad_outputs") or [None] * len(outputs)
    no_grad_vars = _as_list(no_grad_vars, "grad", "no_grad_vars") or []
    if retain_graph is None:
        retain_graph = create_graph
    return libpaddle._run_grad(outputs, inputs, grad_outputs, bool(retain_graph),
                               bool(create_graph), bool(allow_unused), no_grad_vars)


def is_grad_enabled():
    return libpaddle.is_grad_enabled()


class set_grad_enabled:
    """Context manager (and decorator) that turns gradient recording on or off."""

    def __init__(self, mode):
        self._previous = libpaddle.is_grad_enabled()
        libpaddle.set_grad_enabled(bool(mode))
        self._mode = bool(mode)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        libpaddle.set_grad_enabled(self._previous)
        return False


class _GradModeContext:
    _enabled = None

    def __enter__(self):
        self._previous = libpaddle.is_grad_enabled()
        libpaddle.set_grad_enabled(self._enabled)
        return self

    def __exit__(self, *exc):
        libpaddle.set_grad_enabled(self._previous)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return fn(*args, **kwargs)
        return wrapper


class no_grad(_GradModeContext):
    """Ops inside do not record gradients (context manager or decorator)."""
    _enabled = False


class enable_grad(_GradModeContext):
    _enabled = True


from .jacobian import Hessian, Jacobian, hessian, jacobian  # noqa: E402,F401

__all__ += ["jacobian", "hessian"]
from .py_layer import PyLayer, PyLayerContext  # noqa: E402,F401

__all__ += ["PyLayer", "PyLayerContext"]
