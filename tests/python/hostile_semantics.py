"""NumPy semantics on hostile inputs: each harness entry's first sample, with one float argument
made zero-size along one dimension or 0-D, must give what the entry's NumPy reference gives, or
raise a typed error; filled with NaN or inf, it must give what NumPy gives where the reference is
a NumPy function (np.exp, np.maximum, ...), and otherwise return or raise a typed error (the
references written for the tests are not all meant for non-finite input).
ops/test_hostile_inputs.py runs `check` in a worker process (tools/hostile_cases.py), so a crash
names the entry and the variant instead of ending the run."""
import builtins

import numpy as np

from harness import (assert_close, cast_sample, flat_outputs, reference, run_dtypes, run_forward,
                     to_numpy)
from hostile_cases import INTERNAL_ERROR, TYPED_ERRORS  # tools/, on the worker's path
from op_db import OP_DB

TYPED_ERROR_CLASSES = tuple(getattr(builtins, name) for name in TYPED_ERRORS)
BY_NAME = {info.name: info for info in OP_DB}


def is_numpy_function(ref):
    """Whether the reference is NumPy's own (np.exp, np.maximum, ...): then its results on NaN and
    inf are NumPy's semantics, not the test's, and are compared too."""
    return isinstance(ref, np.ufunc) or getattr(ref, "__module__", "").startswith("numpy")


def entries():
    """The entries with a NumPy reference and a float argument to make hostile."""
    out = []
    for info in OP_DB:
        if info.ref is None or info.check is not None or "float64" not in run_dtypes(info):
            continue
        sample = info.samples(np.random.default_rng(0))[0]
        if any(isinstance(a, np.ndarray) and a.dtype.kind == "f" for a in sample.args):
            out.append(info.name)
    return out


def variants(sample):
    """[(label, args)] of hostile versions of the sample's float arguments, one at a time."""
    out = []
    for i, a in enumerate(sample.args):
        if not (isinstance(a, np.ndarray) and a.dtype.kind == "f"):
            continue
        for d in range(a.ndim):
            shape = list(a.shape)
            shape[d] = 0
            out.append((f"arg {i} zero-size in dim {d}", i, np.zeros(shape)))
        if a.ndim:
            out.append((f"arg {i} 0-D", i, np.asarray(a.reshape(-1)[0])))
        for fill in (np.nan, np.inf, -np.inf):
            out.append((f"arg {i} filled with {fill}", i, np.full(a.shape, fill)))
    return out


def count(name):
    info = BY_NAME[name]
    return len(variants(info.samples(np.random.default_rng(0))[0]))


def check(name, index):
    """Runs variant `index` of entry `name` in float64 against the reference: "ok", "raised"
    (both raised), or an AssertionError saying how they differ."""
    info = BY_NAME[name]
    sample = info.samples(np.random.default_rng(0))[0]
    label, position, value = variants(sample)[index]
    args = list(sample.args)
    args[position] = value
    hostile = cast_sample(type(sample)(args, dict(sample.kwargs), sample.grad_args), "float64")
    try:
        with np.errstate(all="ignore"):
            expected = reference(info, hostile, "float64")
    except Exception:
        expected = None  # NumPy defines no result here: any result or typed error will do
    try:
        result = run_forward(info, hostile, "float64")
    except TYPED_ERROR_CLASSES as error:
        assert str(error), f"{name} ({label}): {type(error).__name__} without a message"
        assert INTERNAL_ERROR not in str(error), f"{name} ({label}): {error}"
        return "raised"
    if expected is None or ("filled" in label and (info.nonfinite_reason or
                                                   not is_numpy_function(info.ref))):
        return "ok"
    actual = to_numpy(flat_outputs(result)) if not hasattr(result, "numpy") else to_numpy(result)
    if isinstance(expected, (list, tuple)) and not isinstance(actual, (list, tuple)):
        actual = [actual]
    assert_close(actual, expected, 1e-6, 1e-6, f"{name} ({label})")
    return "ok"
