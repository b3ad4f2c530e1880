"""The op test harness (DESIGN.md, Tests): one database entry per op (op_db.py) drives generic
checks of forward values against NumPy, every claimed dtype, float64 numeric gradients of first
and second order, and declared error inputs. test_ops.py runs them; coverage is enforced there."""
import dataclasses
from typing import Callable, Dict, List, Optional, Sequence

import numpy as np

import paddle

FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")


@dataclasses.dataclass
class Sample:
    """Positional inputs (NumPy arrays become tensors; other values pass through) and keyword
    arguments for one call."""
    args: Sequence
    kwargs: Dict = dataclasses.field(default_factory=dict)
    # Indices of args to differentiate (default: every floating array).
    grad_args: Optional[Sequence[int]] = None


@dataclasses.dataclass
class ErrorSample:
    args: Sequence
    kwargs: Dict
    error: type
    match: str  # a substring the message must contain (the op or argument name)


@dataclasses.dataclass
class OpInfo:
    name: str                      # the entry's name (usually the op's)
    api: Callable                  # the Python call under test
    ref: Optional[Callable]        # NumPy reference taking the same args; None: checked by `check`
    samples: Callable[[np.random.Generator], List[Sample]]
    covers: Sequence[str] = ()     # schema ops this entry exercises (default: [name])
    dtypes: Sequence[str] = ("float32", "float64")  # dtypes to run forward in
    grad: bool = True              # float64 numeric gradient check
    second_order: bool = False     # float64 numeric check of the gradient's gradient
    errors: Callable[[], List[ErrorSample]] = lambda: []
    atol: float = 1e-5
    rtol: float = 1e-5
    # For ops whose results are random or otherwise not comparable elementwise.
    check: Optional[Callable] = None
    # Outputs the gradient check differentiates (default: all); Paddle treats some outputs as
    # intermediate, with no gradient of their own.
    grad_outputs: Optional[Sequence[int]] = None

    @property
    def covered_ops(self):
        return list(self.covers) or [self.name]


def to_paddle(value, dtype=None, requires_grad=False):
    if isinstance(value, np.ndarray):
        array = value
        if dtype is not None and array.dtype.kind == "f":
            t = paddle.to_tensor(array.astype(np.float64), dtype=dtype)
        else:
            t = paddle.to_tensor(array)
        t.stop_gradient = not requires_grad
        return t
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, np.ndarray) for v in value):
        return type(value)(to_paddle(v, dtype, requires_grad) for v in value)
    return value


def to_numpy(value):
    """Float64 NumPy for results; bfloat16 data arrives as uint16 bits."""
    if isinstance(value, paddle.Tensor):
        array = value.numpy()
        if value.dtype == paddle.bfloat16:
            array = np.asarray(array.astype(np.uint32) << 16).view(np.float32)
        return array
    if isinstance(value, (list, tuple)):
        return type(value)(to_numpy(v) for v in value)
    return value


def flat_outputs(result):
    if isinstance(result, paddle.Tensor):
        return [result]
    out = []
    for r in result:
        out.extend(flat_outputs(r))
    return out


def tolerance(info, dtype):
    if dtype in ("float16", "bfloat16"):
        return (5e-2, 5e-2) if dtype == "bfloat16" else (1e-2, 1e-2)
    if dtype == "float32":
        return max(info.atol, 1e-5), max(info.rtol, 1e-5)
    return info.atol, info.rtol


def assert_close(actual, expected, atol, rtol, what):
    if isinstance(expected, (list, tuple)):
        assert isinstance(actual, (list, tuple)) and len(actual) == len(expected), (
            f"{what}: expected {len(expected)} outputs, got {actual!r}")
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_close(a, e, atol, rtol, f"{what}[{i}]")
        return
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    assert actual.shape == expected.shape, (
        f"{what}: shape {actual.shape} differs from the reference {expected.shape}")
    if expected.dtype.kind in "biu":
        np.testing.assert_array_equal(actual, expected, err_msg=what)
    else:
        np.testing.assert_allclose(actual.astype(np.float64), expected.astype(np.float64),
                                   atol=atol, rtol=rtol, err_msg=what, equal_nan=True)


def cast_sample(sample, dtype):
    """The sample with its floating arrays converted to `dtype` (as NumPy float64 for the
    reference, rounded through the dtype so both sides see the same values)."""
    def convert(v):
        if isinstance(v, np.ndarray) and v.dtype.kind == "f":
            if dtype in ("float16", "bfloat16", "float32"):
                return to_numpy(paddle.to_tensor(v, dtype=dtype)).astype(np.float64)
            if dtype in ("float64", None):
                return v.astype(np.float64)
            # Integer and bool runs: spread the values so they are not all 0 after rounding.
            return np.asarray(np.round(v * 10)).astype(dtype)
        if isinstance(v, (list, tuple)) and v and all(isinstance(x, np.ndarray) for x in v):
            return type(v)(convert(x) for x in v)
        return v
    return Sample([convert(a) for a in sample.args],
                  {k: convert(v) for k, v in sample.kwargs.items()}, sample.grad_args)


def run_forward(info, sample, dtype, place=None):
    args = [to_paddle(a, dtype) for a in sample.args]
    kwargs = {k: to_paddle(v, dtype) for k, v in sample.kwargs.items()}
    if place is not None:
        args = [a._copy_to(place) if isinstance(a, paddle.Tensor) else a for a in args]
    return info.api(*args, **kwargs)


def reference(info, sample, dtype):
    args = list(sample.args)
    result = info.ref(*args, **sample.kwargs)
    if dtype in ("float16", "float32", "bfloat16"):
        # Elementwise references run in float64; round the expectation like the op's output.
        def round_to(x):
            x = np.asarray(x)
            return x.astype(np.float32) if x.dtype == np.float64 else x
        result = [round_to(r) for r in result] if isinstance(result, (list, tuple)) else round_to(result)
    return result


def grad_indices(sample):
    if sample.grad_args is not None:
        return list(sample.grad_args)
    return [i for i, a in enumerate(sample.args)
            if isinstance(a, np.ndarray) and a.dtype.kind == "f"]


def loss_weights(outputs, rng):
    return [rng.standard_normal(o.shape) if o.dtype in (paddle.float32, paddle.float64) else None
            for o in outputs]


def weighted_sum(outputs, weights):
    total = None
    for o, w in zip(outputs, weights):
        if w is None or o.size == 0:
            continue
        term = (o * paddle.to_tensor(w, dtype=o.dtype)).sum()
        total = term if total is None else total + term
    return total


def numeric_gradient(f, arrays, index, eps=1e-6):
    """Central differences of the scalar f(arrays) with respect to arrays[index]."""
    x = arrays[index]
    grad = np.zeros_like(x)
    flat = x.reshape(-1)
    gflat = grad.reshape(-1)
    for i in range(flat.size):
        old = flat[i]
        flat[i] = old + eps
        plus = f(arrays)
        flat[i] = old - eps
        minus = f(arrays)
        flat[i] = old
        gflat[i] = (plus - minus) / (2 * eps)
    return grad


def check_gradient(info, sample, second_order=False):
    """Compares autograd's float64 gradients of a random projection of the outputs with
    central differences."""
    sample = cast_sample(sample, "float64")
    indices = grad_indices(sample)
    if not indices:
        return
    rng = np.random.default_rng(1234)
    base_args = [a.copy() if isinstance(a, np.ndarray) else a for a in sample.args]
    probe = flat_outputs(run_forward(info, sample, "float64"))
    weights = loss_weights(probe, rng)
    if info.grad_outputs is not None:
        weights = [w if k in info.grad_outputs else None for k, w in enumerate(weights)]
    direction = [rng.standard_normal(base_args[i].shape) for i in indices]

    def build(arrays):
        tensors = [to_paddle(a, "float64", requires_grad=(j in indices))
                   for j, a in enumerate(arrays)]
        kwargs = {k: to_paddle(v, "float64") for k, v in sample.kwargs.items()}
        outputs = flat_outputs(info.api(*tensors, **kwargs))
        return tensors, weighted_sum(outputs, weights)

    def first_order(arrays, create_graph):
        tensors, loss = build(arrays)
        grads = paddle.grad([loss], [tensors[i] for i in indices], create_graph=create_graph,
                            allow_unused=True)
        return tensors, grads

    if not second_order:
        def scalar(arrays):
            _, loss = build(arrays)
            return float(loss.numpy())
        _, grads = first_order(base_args, False)
        for k, i in enumerate(indices):
            numeric = numeric_gradient(scalar, base_args, i)
            analytic = np.zeros_like(numeric) if grads[k] is None else grads[k].numpy()
            assert_close(analytic, numeric, 1e-5, 1e-4, f"{info.name}: d/d(arg {i})")
        return

    # Second order: the gradient of <first-order gradient, direction>.
    def projected(arrays):
        _, grads = first_order(arrays, False)
        return sum(float((g.numpy() * d).sum()) for g, d in zip(grads, direction)
                   if g is not None)

    tensors, grads = first_order(base_args, True)
    total = None
    for g, d in zip(grads, direction):
        if g is None or g.stop_gradient:
            continue
        term = (g * paddle.to_tensor(d)).sum()
        total = term if total is None else total + term
    if total is None:
        return  # the gradient does not depend on the inputs (a linear op)
    second = paddle.grad([total], [tensors[i] for i in indices], allow_unused=True)
    for k, i in enumerate(indices):
        numeric = numeric_gradient(projected, base_args, i)
        analytic = np.zeros_like(numeric) if second[k] is None else second[k].numpy()
        assert_close(analytic, numeric, 1e-4, 1e-3, f"{info.name}: second order d/d(arg {i})")
