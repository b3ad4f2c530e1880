"""The op test harness (DESIGN.md, Tests): one database entry per op (op_db.py) drives generic
checks of forward values against NumPy in every dtype the op's kernels register, float64 numeric
gradients of first and second order, and declared error inputs. ops/test_ops.py runs them;
coverage of ops and of (op, dtype) pairs is enforced there.

The harness must not pass silently: every registered dtype is compared by some entry, a gradient
check that finds nothing to check fails unless its entry says why, and a GPU comparison that
cannot run is a skip that names the missing kernel."""
import contextlib
import dataclasses
import functools
from typing import Callable, Collection, Dict, List, Optional, Sequence

import numpy as np

import paddle
from paddle.utils import ops as ops_tool

FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")
INTEGER_DTYPES = ("int8", "uint8", "int16", "int32", "int64")
COMPLEX_DTYPES = ("complex64", "complex128")
ALL_DTYPES = ("bool",) + INTEGER_DTYPES + FLOAT_DTYPES + COMPLEX_DTYPES


@functools.lru_cache(maxsize=None)
def _registry():
    """Each op's declaration by name, from the manifest generated from paddle/ops/yaml (the
    dtypes to expect per backend, whether it has a backward). ops/test_op_manifest.py checks the
    kernel registry holds exactly what it declares."""
    return {op["name"]: {"cpu": op["dtypes"]["cpu"], "gpu": op["dtypes"]["gpu"],
                         "backward": op["backward"]}
            for op in ops_tool.manifest()}


def registered_ops():
    return sorted(_registry())


def registered_dtypes(op_name, backend):
    """The dtypes `op_name` has a kernel for on `backend` ("cpu" or "gpu")."""
    assert backend in ("cpu", "gpu"), backend
    return tuple(_registry()[op_name][backend])


def has_backward(op_name):
    return bool(_registry()[op_name]["backward"])


class _DtypeUnderTest:
    """The placeholder for the dtype a forward run is in (see DTYPE)."""

    def __repr__(self):
        return "DTYPE"


# In a sample, stands for the name of the dtype under test: creation ops (full, arange, ...)
# take their kernel's dtype from an argument rather than from an input tensor.
DTYPE = _DtypeUnderTest()


@dataclasses.dataclass
class Sample:
    """Positional inputs (NumPy arrays become tensors; other values pass through) and keyword
    arguments for one call."""
    args: Sequence
    kwargs: Dict = dataclasses.field(default_factory=dict)
    # Indices of args to differentiate (default: every floating array). [] opts the sample out
    # of the gradient checks; a comment beside it says why.
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
    # The forward test runs every dtype the first covered op registers on the CPU; a filter
    # narrows that to the registered dtypes it names (another entry must compare the rest).
    only_dtypes: Optional[Collection[str]] = None
    grad: bool = True              # float64 numeric gradient check
    second_order: bool = False     # float64 numeric check of the gradient's gradient
    # Why no gradient is checked: required when grad=False for an op with a backward, and the
    # only way a gradient check that finds nothing to differentiate may pass.
    no_grad_reason: Optional[str] = None
    # Why the first-order gradient does not depend on the inputs (a linear op): the only way
    # the second-order check may find no second derivative (it then checks it is zero).
    no_second_order_reason: Optional[str] = None
    # Why the op's results on NaN or inf differ from its NumPy reference's, which the hostile
    # variants (hostile_semantics.py) then do not compare.
    nonfinite_reason: Optional[str] = None
    # Why the complex128 gradient check (run where the op registers complex128) does not apply.
    no_complex_grad_reason: Optional[str] = None
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


def run_dtypes(info, backend="cpu"):
    """The dtypes the entry runs in on `backend`: those its first covered op registers there,
    narrowed by its filter."""
    registered = registered_dtypes(info.covered_ops[0], backend)
    if info.only_dtypes is None:
        return list(registered)
    return [d for d in registered if d in info.only_dtypes]


def compared_pairs(info):
    """The (op, dtype) pairs the entry's forward test compares with its reference (or checks
    with `check`, for random ops)."""
    return {(op, dtype) for op in info.covered_ops for dtype in run_dtypes(info)
            if dtype in registered_dtypes(op, "cpu")}


@contextlib.contextmanager
def on_device(device):
    """New tensors (inputs, constants and the results of creation ops) go to `device`."""
    previous = paddle.device.get_device()
    paddle.device.set_device(device)
    try:
        yield
    finally:
        paddle.device.set_device(previous)


def to_paddle(value, dtype=None, requires_grad=False):
    if isinstance(value, np.ndarray):
        array = value
        if dtype is not None and array.dtype.kind == "c":
            t = paddle.to_tensor(array.astype(np.complex128), dtype=dtype)
        elif dtype is not None and array.dtype.kind == "f":
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
    if dtype in ("float32", "complex64"):
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
    elif expected.dtype.kind == "c" or actual.dtype.kind == "c":
        assert actual.dtype.kind == expected.dtype.kind, (
            f"{what}: a {actual.dtype} result where the reference is {expected.dtype}")
        np.testing.assert_allclose(actual.astype(np.complex128), expected.astype(np.complex128),
                                   atol=atol, rtol=rtol, err_msg=what, equal_nan=True)
    else:
        np.testing.assert_allclose(actual.astype(np.float64), expected.astype(np.float64),
                                   atol=atol, rtol=rtol, err_msg=what, equal_nan=True)


def sample_values(array, dtype):
    """A floating sample array as the values a run in `dtype` sees: rounded through 16- and
    32-bit floats (kept as float64 for the reference); for integer dtypes integral values stay
    and others are spread (x10) so that they do not all round to 0, unsigned dtypes taking the
    magnitudes; for bool, True where positive; for the complex dtypes, the array as real parts
    and its values reversed (halved, so that they differ from the real ones) as imaginary parts,
    rounded through complex64 for that dtype."""
    if dtype in COMPLEX_DTYPES:
        values = array.astype(np.float64)
        values = values + 0.5j * values.reshape(-1)[::-1].reshape(values.shape)
        return np.asarray(values, dtype=dtype).astype(np.complex128)
    if dtype in ("float16", "bfloat16", "float32"):
        return to_numpy(paddle.to_tensor(array, dtype=dtype)).astype(np.float64)
    if dtype == "float64":
        return array.astype(np.float64)
    if dtype == "bool":
        return np.asarray(array > 0)
    values = array if np.array_equal(array, np.round(array)) else np.round(array * 10)
    if dtype.startswith("uint"):
        values = np.abs(values)
    return np.asarray(values).astype(dtype)


def follows_dtype(sample):
    """Whether the sample runs in the dtype under test: it has a floating array (which
    cast_sample converts) or a DTYPE placeholder."""
    def converted(v):
        if isinstance(v, (list, tuple)):
            return any(converted(x) for x in v)
        return v is DTYPE or (isinstance(v, np.ndarray) and v.dtype.kind == "f")
    return converted(list(sample.args) + list(sample.kwargs.values()))


def cast_sample(sample, dtype):
    """The sample for a run in `dtype`: its floating arrays converted by sample_values and its
    DTYPE placeholders replaced by the dtype's name."""
    def convert(v):
        if v is DTYPE:
            return dtype
        if isinstance(v, np.ndarray) and v.dtype.kind == "f":
            return sample_values(v, dtype)
        if isinstance(v, (list, tuple)) and v and all(isinstance(x, np.ndarray) for x in v):
            return type(v)(convert(x) for x in v)
        return v
    return Sample([convert(a) for a in sample.args],
                  {k: convert(v) for k, v in sample.kwargs.items()}, sample.grad_args)


def run_forward(info, sample, dtype):
    args = [to_paddle(a, dtype) for a in sample.args]
    kwargs = {k: to_paddle(v, dtype) for k, v in sample.kwargs.items()}
    return info.api(*args, **kwargs)


def reference(info, sample, dtype):
    args = list(sample.args)
    result = info.ref(*args, **sample.kwargs)
    if dtype in ("float16", "float32", "bfloat16", "complex64"):
        # Elementwise references run in float64 or complex128; round the expectation like the
        # op's output.
        def round_to(x):
            x = np.asarray(x)
            if x.dtype == np.complex128:
                return x.astype(np.complex64)
            return x.astype(np.float32) if x.dtype == np.float64 else x
        result = [round_to(r) for r in result] if isinstance(result, (list, tuple)) else round_to(result)
    return result


def grad_indices(sample):
    if sample.grad_args is not None:
        return list(sample.grad_args)
    return [i for i, a in enumerate(sample.args)
            if isinstance(a, np.ndarray) and a.dtype.kind in "fc"]


def _has_size(sample):
    return all(not isinstance(a, np.ndarray) or a.size > 0 for a in sample.args)


def gradient_samples(info, samples, reason):
    """The samples a gradient check differentiates, with their indices: those with elements that
    do not opt out (grad_args=[]). A check left with none checks nothing, which fails unless the
    entry gives `reason` (its no_grad_reason or no_second_order_reason)."""
    chosen = [(k, s) for k, s in enumerate(samples)
              if _has_size(s) and (s.grad_args is None or len(s.grad_args))]
    assert chosen or reason, (
        f"{info.name}: every sample is empty or opts out of the gradient check, so it checks "
        f"nothing; add a sample to differentiate or give the entry a reason")
    return chosen


def loss_weights(outputs, rng):
    """Random weights of the differentiated outputs: real for real outputs, complex for complex
    ones (whose weighted sum's real part is the loss)."""
    weights = []
    for o in outputs:
        if o.dtype in (paddle.float32, paddle.float64):
            weights.append(rng.standard_normal(o.shape))
        elif o.dtype in (paddle.complex64, paddle.complex128):
            weights.append(rng.standard_normal(o.shape) + 1j * rng.standard_normal(o.shape))
        else:
            weights.append(None)
    return weights


def weighted_sum(outputs, weights):
    """The real loss sum(o * w) over the outputs (its real part for complex outputs)."""
    total = None
    for o, w in zip(outputs, weights):
        if w is None or o.size == 0:
            continue
        term = (o * paddle.to_tensor(w, dtype=o.dtype)).sum()
        if term.dtype in (paddle.complex64, paddle.complex128):
            term = paddle.real(term)
        total = term if total is None else total + term
    return total


def numeric_gradient(f, arrays, index, eps=1e-6):
    """Central differences of the scalar f(arrays) with respect to arrays[index]. For a complex
    array it is Paddle's gradient dL/dRe(x) + i dL/dIm(x), each part by its own differences."""
    x = arrays[index]
    grad = np.zeros_like(x)
    flat = x.reshape(-1)
    gflat = grad.reshape(-1)
    steps = (eps, 1j * eps) if x.dtype.kind == "c" else (eps,)
    for i in range(flat.size):
        old = flat[i]
        for step in steps:
            flat[i] = old + step
            plus = f(arrays)
            flat[i] = old - step
            minus = f(arrays)
            flat[i] = old
            gflat[i] += (plus - minus) / (2 * eps) * (step / eps)
    return grad


def gradient_dtype(info):
    """float64, or complex128 for an op that registers complex but no float64 kernel (real,
    imag, as_real)."""
    registered = registered_dtypes(info.covered_ops[0], "cpu")
    return "complex128" if "float64" not in registered and "complex128" in registered else "float64"


def check_gradient(info, sample, second_order=False, dtype="float64"):
    """Compares autograd's gradients in `dtype` (float64 or complex128) of a random projection of
    the outputs with central differences."""
    sample = cast_sample(sample, dtype)
    indices = grad_indices(sample)
    if not indices:
        assert info.no_grad_reason, (
            f"{info.name}: the sample has no floating argument, so its gradient check checks "
            f"nothing; give it one or give the entry a no_grad_reason")
        return
    rng = np.random.default_rng(1234)
    base_args = [a.copy() if isinstance(a, np.ndarray) else a for a in sample.args]
    probe = flat_outputs(run_forward(info, sample, dtype))
    weights = loss_weights(probe, rng)
    if info.grad_outputs is not None:
        weights = [w if k in info.grad_outputs else None for k, w in enumerate(weights)]
    direction = [rng.standard_normal(base_args[i].shape) for i in indices]

    def build(arrays):
        tensors = [to_paddle(a, dtype, requires_grad=(j in indices))
                   for j, a in enumerate(arrays)]
        kwargs = {k: to_paddle(v, dtype) for k, v in sample.kwargs.items()}
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
        # The gradient does not depend on the inputs: the second derivative must be zero.
        assert info.no_second_order_reason, (
            f"{info.name}: the first-order gradient does not depend on the inputs, so there is "
            f"no second order to check; give the entry a no_second_order_reason or drop "
            f"second_order")
        second = [None] * len(indices)
    else:
        second = paddle.grad([total], [tensors[i] for i in indices], allow_unused=True)
    for k, i in enumerate(indices):
        numeric = numeric_gradient(projected, base_args, i)
        analytic = np.zeros_like(numeric) if second[k] is None else second[k].numpy()
        assert_close(analytic, numeric, 1e-4, 1e-3, f"{info.name}: second order d/d(arg {i})")
