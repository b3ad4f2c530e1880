"""paddle.static.append_backward and paddle.static.gradients: gradient ops built in C++ from
the backward schema (paddle/framework/backward_builder.h)."""
from ..base import libpaddle
from .program import Parameter, Variable

__all__ = ["append_backward", "gradients"]


def _no_grad_names(no_grad_set):
    names = set()
    for item in no_grad_set or ():
        names.add(item if isinstance(item, str) else item.name)
    return names


def _check_variable(var, api, arg):
    if not isinstance(var, Variable):
        raise TypeError(f"{api}(): '{arg}' must be a static Variable, but received "
                        f"{type(var).__name__}")


def append_backward(loss, parameter_list=None, no_grad_set=None, callbacks=None,
                    checkpoints=None, distop_context=None):
    """Appends the gradient ops of `loss` to its program; returns [(parameter, gradient)] for
    the trainable parameters (or `parameter_list`) a gradient reaches."""
    _check_variable(loss, "append_backward", "loss")
    block = loss.block
    program = block.program
    if block.idx != 0:
        raise ValueError("append_backward(): the loss must be in the global block")
    grads = libpaddle._append_backward(block.desc, [loss.name], [], _no_grad_names(no_grad_set))
    program._sync_with_cpp()
    if parameter_list is None:
        params = [p for p in program.global_block().all_parameters() if p.trainable]
    else:
        params = [block.var(p) if isinstance(p, str) else p for p in parameter_list]
    return [(p, block.var(grads[p.name])) for p in params if p.name in grads]


def gradients(targets, inputs, target_gradients=None, no_grad_set=None):
    """The gradients of the sum of `targets` with respect to each of `inputs` (None where no
    gradient reaches), built as ops of the targets' program."""
    targets = list(targets) if isinstance(targets, (list, tuple)) else [targets]
    inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    for t in targets:
        _check_variable(t, "gradients", "targets")
    for x in inputs:
        _check_variable(x, "gradients", "inputs")
    seeds = []
    if target_gradients is not None:
        target_gradients = (list(target_gradients)
                            if isinstance(target_gradients, (list, tuple))
                            else [target_gradients])
        if len(target_gradients) != len(targets):
            raise ValueError(f"gradients(): {len(targets)} targets but "
                             f"{len(target_gradients)} target_gradients")
        seeds = ["" if g is None else g.name for g in target_gradients]
    block = targets[0].block
    # Inputs asked for are differentiated even when they would stop the gradient (data).
    restore = [(x, x.stop_gradient) for x in inputs if not isinstance(x, Parameter)]
    for x, _ in restore:
        x.stop_gradient = False
    try:
        grads = libpaddle._append_backward(block.desc, [t.name for t in targets], seeds,
                                           _no_grad_names(no_grad_set))
    finally:
        for x, stop in restore:
            x.stop_gradient = stop
    block.program._sync_with_cpp()
    return [block._var_recursive(grads[x.name]) if x.name in grads else None for x in inputs]
