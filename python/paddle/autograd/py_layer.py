"""paddle.autograd.PyLayer: a function with a forward and a backward written in Python.

The forward runs without recording. Its outputs are then joined to the graph through a zero
that depends on every input needing a gradient (the sum of an empty slice of each, exactly 0
whatever the values, so inf and nan inputs stay out of the outputs). Gradient hooks do the
rest: those on the outputs record the gradients reaching them, the one on the zero, which runs
after all of them, calls `backward`, and those on the inputs' copies hand its results over."""
from .. import _C_ops
from ..base import libpaddle
from ..base.framework import is_floating
from ..tensor._helpers import Tensor

__all__ = ["PyLayer", "PyLayerContext"]


class PyLayerContext:
    """What forward leaves for backward: saved tensors and the flags Paddle's context has."""

    def __init__(self):
        self.container = ()
        self.not_inplace_tensors = ()
        self.non_differentiable = ()
        self.materialize_grads = True

    def save_for_backward(self, *tensors):
        self.container = tensors

    def saved_tensor(self):
        return self.container

    def mark_not_inplace(self, *tensors):
        self.not_inplace_tensors = tensors

    def mark_non_differentiable(self, *tensors):
        self.non_differentiable = tensors

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)


def _differentiable(value):
    return isinstance(value, Tensor) and (is_floating(value.dtype) or value.is_complex())


class PyLayer:
    """Subclass it with static `forward(ctx, *args, **kwargs)` and `backward(ctx, *grads)` and
    call `apply`: backward gets one gradient per Tensor output of forward and returns one per
    Tensor argument of forward (None for no gradient)."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("PyLayer subclasses must define forward(ctx, ...)")

    @staticmethod
    def backward(ctx, *args):
        raise NotImplementedError("PyLayer subclasses must define backward(ctx, ...)")

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = PyLayerContext()
        with _no_grad():
            outputs = cls.forward(ctx, *args, **kwargs)
        inputs = [a for a in list(args) + list(kwargs.values()) if isinstance(a, Tensor)]
        tracked = [i for i, t in enumerate(inputs) if not t.stop_gradient]
        single = not isinstance(outputs, (tuple, list))
        results = [outputs] if single else list(outputs)
        excluded = {id(t) for t in ctx.non_differentiable}
        joined = [i for i, out in enumerate(results)
                  if _differentiable(out) and id(out) not in excluded]
        if not libpaddle.is_grad_enabled() or not tracked or not joined:
            for out in results:
                if isinstance(out, Tensor):
                    out.stop_gradient = True
            return outputs

        copies = {i: _C_ops.scale(inputs[i], 1.0, 0.0, True) for i in tracked}
        zero = None
        for copy in copies.values():
            part = _C_ops.sum(_C_ops.reshape(copy, [-1])[0:0], [], copy.dtype, False)
            zero = part if zero is None else _C_ops.add(zero, _C_ops.cast(part, zero.dtype))
        output_grads = {}
        input_grads = {}

        def record(index):
            def hook(grad):
                output_grads[index] = grad
            return hook

        def run_backward(grad):
            grads = []
            for i in joined:
                value = output_grads.pop(i, None)
                if value is None and ctx.materialize_grads:
                    value = _C_ops.full_like(results[i], 0, results[i].dtype)
                grads.append(value)
            with _no_grad():
                returned = cls.backward(ctx, *grads)
            returned = list(returned) if isinstance(returned, (tuple, list)) else [returned]
            if len(returned) != len(inputs):
                raise ValueError(f"{cls.__name__}.backward returned {len(returned)} gradients, "
                                 f"but forward took {len(inputs)} Tensor arguments")
            input_grads.update({i: returned[i] for i in tracked})

        def deliver(index):
            def hook(grad):
                value = input_grads.pop(index, None)
                return _C_ops.full_like(grad, 0, grad.dtype) if value is None else value
            return hook

        for i, copy in copies.items():
            copy.register_hook(deliver(i))
        zero.register_hook(run_backward)
        for i in joined:
            out = _C_ops.add(results[i], _C_ops.cast(zero, results[i].dtype))
            out.register_hook(record(i))
            results[i] = out
        return results[0] if single else type(outputs)(results)


def _no_grad():
    from . import no_grad
    return no_grad()
