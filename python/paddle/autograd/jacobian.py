"""paddle.autograd.jacobian and hessian, computed with paddle.grad (create_graph, so the results
are differentiable too). Paddle evaluates the rows lazily when the result is indexed; here they
are computed when it is created, which gives the same values."""
from .. import _C_ops
from ..tensor._helpers import Tensor

__all__ = ["jacobian", "hessian", "Jacobian", "Hessian"]


class Jacobian:
    """The Jacobian matrix of one output with respect to one input: index it (J[:], J[0, 1],
    ...) for its values. Its shape is [M, N] ([B, M, N] with a batch axis), without the
    dims of 0-d outputs or inputs."""

    def __init__(self, value):
        self._value = value

    @property
    def shape(self):
        return list(self._value.shape)

    def __getitem__(self, index):
        return self._value[index]


class Hessian(Jacobian):
    """The Hessian matrix of a scalar output with respect to one input, indexed as Jacobian."""


def _check_batch_axis(batch_axis):
    if batch_axis not in (None, 0):
        raise ValueError(f"batch_axis should be None or 0, but got {batch_axis}.")


def _check_tensors(value, api, arg):
    values = value if isinstance(value, (tuple, list)) else (value,)
    for v in values:
        if not isinstance(v, Tensor):
            raise TypeError(f"{api}(): '{arg}' must be a Tensor or a tuple of Tensors, but "
                            f"received {type(v).__name__}")


def _gradient(output, x, grad_output):
    """d(sum(output * grad_output))/dx, zeros where output does not depend on x."""
    from . import grad
    if output.stop_gradient:
        return _C_ops.full_like(x, 0, x.dtype)
    (result,) = grad([output], [x], [grad_output], retain_graph=True, create_graph=True,
                     allow_unused=True)
    return _C_ops.full_like(x, 0, x.dtype) if result is None else result


def _matrix(y, x, batch_axis):
    """The Jacobian of y with respect to x as a tensor: [M, N] (0-d dims left out), or [B, M, N]
    with batch_axis 0."""
    if batch_axis is None:
        if len(x.shape) > 1:
            raise ValueError(f"xs.ndim should be 0 or 1 when is_batched=False but got "
                             f"{len(x.shape)}")
        if len(y.shape) > 1:
            raise ValueError(f"ys.ndim should be 0 or 1 when is_batched=False but got "
                             f"{len(y.shape)}")
        rows = y.size if len(y.shape) else 1
        eye = _C_ops.eye(rows, rows, y.dtype, y.place)
        grads = [_gradient(y, x, _C_ops.reshape(eye[i], list(y.shape))) for i in range(rows)]
        return grads[0] if not y.shape else _C_ops.stack(grads, 0)
    for arg, t in (("xs", x), ("ys", y)):
        if len(t.shape) not in (1, 2):
            raise ValueError(f"{arg}.ndim should be 1 or 2 when is_batched=True but got "
                             f"{len(t.shape)}")
    y2 = y if len(y.shape) == 2 else _C_ops.unsqueeze(y, [1])
    columns = y2.shape[1]
    eye = _C_ops.eye(columns, columns, y.dtype, y.place)
    grads = [_gradient(y2, x, _C_ops.expand(_C_ops.unsqueeze(eye[i], [0]), list(y2.shape)))
             for i in range(columns)]
    return _C_ops.stack(grads, 1)


def jacobian(ys, xs, batch_axis=None):
    """The Jacobian of ys with respect to xs: a Jacobian, or (nested) tuples of them when ys or
    xs are tuples (J[i][j] for ys[i] and xs[j]). Without batch_axis ys and xs are 0-d or 1-D;
    with batch_axis=0 they are [B, M] / [B, N] (or [B]) and each sample is differentiated on
    its own."""
    _check_batch_axis(batch_axis)
    _check_tensors(ys, "jacobian", "ys")
    _check_tensors(xs, "jacobian", "xs")

    def over_xs(y):
        if isinstance(xs, (tuple, list)):
            return tuple(Jacobian(_matrix(y, x, batch_axis)) for x in xs)
        return Jacobian(_matrix(y, xs, batch_axis))

    if isinstance(ys, (tuple, list)):
        return tuple(over_xs(y) for y in ys)
    return over_xs(ys)


def hessian(ys, xs, batch_axis=None):
    """The Hessian of a scalar ys (one value per sample, [B] or [B, 1], with batch_axis=0) with
    respect to xs: a Hessian, or a tuple of tuples of them (H[i][j] for xs[i] and xs[j])."""
    _check_batch_axis(batch_axis)
    _check_tensors(ys, "hessian", "ys")
    _check_tensors(xs, "hessian", "xs")
    if isinstance(ys, (tuple, list)):
        raise TypeError("hessian(): 'ys' must be a single Tensor")
    if batch_axis is None and ys.size != 1:
        raise ValueError(f"Only support ys.numel()({ys.size})==1 when batch_axis is None.")
    if batch_axis == 0 and not (len(ys.shape) == 1 or (len(ys.shape) == 2 and ys.shape[1] == 1)):
        raise ValueError(f"Only support ys shape [B] or [B, 1] when batch_axis is 0, but got "
                         f"{list(ys.shape)}.")
    ones = _C_ops.full_like(ys, 1, ys.dtype)
    inputs = tuple(xs) if isinstance(xs, (tuple, list)) else (xs,)
    first = [_gradient(ys, x, ones) for x in inputs]
    rows = tuple(tuple(Hessian(_matrix(g, x, batch_axis)) for x in inputs) for g in first)
    return rows if isinstance(xs, (tuple, list)) else rows[0][0]
