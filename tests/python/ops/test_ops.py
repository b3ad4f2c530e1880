"""Generic op tests driven by the op database (op_db.py); see harness.py."""
import numpy as np
import pytest

import paddle
from harness import (ALL_DTYPES, assert_close, cast_sample, check_gradient, compared_pairs,
                     flat_outputs, follows_dtype, gradient_dtype, gradient_samples, has_backward,
                     on_device, reference, registered_dtypes, registered_ops, run_dtypes,
                     run_forward, to_numpy, tolerance)
from op_db import OP_DB


def _cases(predicate=lambda info: True):
    return [pytest.param(info, id=info.name) for info in OP_DB if predicate(info)]


def _forward_cases():
    return [pytest.param(info, dtype, id=f"{info.name}-{dtype}")
            for info in OP_DB for dtype in run_dtypes(info)]


def test_every_registered_op_has_a_harness_entry():
    covered = {op for info in OP_DB for op in info.covered_ops}
    missing = sorted(set(registered_ops()) - covered)
    assert not missing, f"ops registered without a harness entry in op_db.py: {missing}"
    unknown = sorted(covered - set(registered_ops()))
    assert not unknown, f"op_db.py covers ops that are not registered: {unknown}"


def test_every_registered_dtype_is_compared():
    """Each dtype an op's CPU kernel registers is run and compared by some entry; an entry's
    dtype filter leaves the others to another entry."""
    compared = set().union(*(compared_pairs(info) for info in OP_DB))
    missing = [f"{op}[{dtype}]" for op in registered_ops()
               for dtype in registered_dtypes(op, "cpu") if (op, dtype) not in compared]
    assert not missing, f"registered (op, dtype) pairs no harness entry compares: {missing}"


@pytest.mark.parametrize("info", _cases())
def test_dtype_filter_selects_registered_dtypes(info):
    """A filter names dtypes, and leaves the entry at least one to run (an entry that runs no
    dtype would pass without running)."""
    if info.only_dtypes is not None:
        unknown = sorted(set(info.only_dtypes) - set(ALL_DTYPES))
        assert not unknown, f"{info.name}: the dtype filter names unknown dtypes {unknown}"
    assert run_dtypes(info), (
        f"{info.name}: the filter {sorted(info.only_dtypes)} selects none of the dtypes "
        f"{info.covered_ops[0]} registers: {registered_dtypes(info.covered_ops[0], 'cpu')}")


@pytest.mark.parametrize("info", _cases())
def test_samples_follow_the_dtype_under_test(info):
    """An entry whose samples all keep their own dtypes would run the same values in each dtype
    it claims to compare."""
    samples = info.samples(np.random.default_rng(0))
    assert any(follows_dtype(s) for s in samples), (
        f"{info.name}: no sample has a floating array or DTYPE, so none runs in the dtype under test")


@pytest.mark.parametrize("info,dtype", _forward_cases())
def test_forward_matches_reference(info, dtype):
    rng = np.random.default_rng(0)
    for sample in info.samples(rng):
        sample = cast_sample(sample, dtype)
        result = run_forward(info, sample, dtype)
        if info.check is not None:
            info.check(result, sample)
            continue
        expected = reference(info, sample, dtype)
        atol, rtol = tolerance(info, dtype)
        assert_close(to_numpy(result), expected, atol, rtol, f"{info.name}[{dtype}]")


@pytest.mark.parametrize("info", _cases(lambda i: not i.grad))
def test_entry_without_gradient_check_says_why(info):
    """Ops with a backward have their gradients checked, or the entry says why not."""
    differentiable = [op for op in info.covered_ops if has_backward(op)]
    assert not differentiable or info.no_grad_reason, (
        f"{info.name}: {differentiable} have a backward but grad=False; check the gradient or "
        f"give a no_grad_reason")


@pytest.mark.parametrize("info", _cases(lambda i: i.grad))
def test_float64_gradient(info):
    """In float64, or in complex128 for an op that registers no float64 kernel (real, imag)."""
    rng = np.random.default_rng(1)
    for _, sample in gradient_samples(info, info.samples(rng), info.no_grad_reason):
        check_gradient(info, sample, dtype=gradient_dtype(info))


def _complex_gradient_cases():
    """Entries whose op registers complex128 besides float64 (the float64 test covers those with
    complex only), or that say why the complex check does not apply."""
    return _cases(lambda i: i.grad and gradient_dtype(i) == "float64"
                  and "complex128" in run_dtypes(i))


@pytest.mark.parametrize("info", _complex_gradient_cases())
def test_complex128_gradient(info):
    """Paddle's gradient of a real loss with respect to a complex input, dL/dRe + i dL/dIm,
    against central differences in each part."""
    if info.no_complex_grad_reason:
        pytest.skip(f"{info.name}: {info.no_complex_grad_reason}")
    rng = np.random.default_rng(1)
    for _, sample in gradient_samples(info, info.samples(rng), info.no_grad_reason):
        check_gradient(info, sample, dtype="complex128")


@pytest.mark.parametrize("info", _cases(lambda i: i.second_order))
def test_float64_second_order_gradient(info):
    rng = np.random.default_rng(2)
    for _, sample in gradient_samples(info, info.samples(rng)[:2], info.no_second_order_reason):
        check_gradient(info, sample, second_order=True)


@pytest.mark.parametrize("info", _cases(lambda i: bool(i.errors())))
def test_bad_input_raises_a_typed_error(info):
    for case in info.errors():
        args = [paddle.to_tensor(a) if isinstance(a, np.ndarray) else a for a in case.args]
        with pytest.raises(case.error) as raised:
            info.api(*args, **case.kwargs)
        assert case.match in str(raised.value), (
            f"{info.name}: the message {str(raised.value)!r} does not mention {case.match!r}")


def _no_gpu_comparison(info, dtype):
    """Why the entry cannot be compared on the GPU in `dtype` (None: it can)."""
    if info.check is not None:
        return (f"{info.name}: random results, checked by their statistics on the CPU and not "
                f"comparable elementwise")
    for op in info.covered_ops:
        gpu_dtypes = registered_dtypes(op, "gpu")
        if not gpu_dtypes:
            return f"{op} has no GPU kernel"
        if dtype not in gpu_dtypes:
            return f"{op} has no GPU kernel for {dtype}"
    return None


def _gpu_cases():
    """Every dtype the entry runs on the CPU, and those its op registers on the GPU only."""
    cases = []
    for info in OP_DB:
        cpu_dtypes = run_dtypes(info)
        for dtype in cpu_dtypes + [d for d in run_dtypes(info, "gpu") if d not in cpu_dtypes]:
            reason = _no_gpu_comparison(info, dtype)
            marks = [pytest.mark.skip(reason=reason)] if reason else []
            cases.append(pytest.param(info, dtype, id=f"{info.name}-{dtype}", marks=marks))
    return cases


@pytest.mark.skipif(paddle.device.cuda.device_count() == 0, reason="no GPU")
@pytest.mark.parametrize("info,dtype", _gpu_cases())
def test_gpu_matches_cpu(info, dtype):
    """The same samples with every tensor (inputs, constants, created results) on the GPU, against
    the CPU kernels, or the NumPy reference in a dtype only the GPU kernels register."""
    on_cpu_too = all(dtype in registered_dtypes(op, "cpu") for op in info.covered_ops)
    rng = np.random.default_rng(3)
    for sample in info.samples(rng):
        sample = cast_sample(sample, dtype)
        with on_device("gpu:0"):
            try:
                result = run_forward(info, sample, dtype)
            except NotImplementedError as e:
                if "no GPU kernel" not in str(e):
                    raise
                # The API also calls an op without a GPU kernel (the message names it).
                pytest.skip(f"{info.name}[{dtype}]: {e}")
        off_gpu = [k for k, t in enumerate(flat_outputs(result)) if not t.place.is_gpu_place()]
        assert not off_gpu, f"{info.name}[{dtype}]: outputs {off_gpu} were computed off the GPU"
        atol, rtol = tolerance(info, dtype)
        if on_cpu_too:
            cpu = flat_outputs(run_forward(info, sample, dtype))
            assert_close([to_numpy(g) for g in flat_outputs(result)], [to_numpy(c) for c in cpu],
                         atol, rtol, f"{info.name}[{dtype}] GPU vs CPU")
        else:
            assert_close(to_numpy(result), reference(info, sample, dtype), atol, rtol,
                         f"{info.name}[{dtype}] GPU vs the reference")


TYPED_ERRORS = (TypeError, ValueError, IndexError, NotImplementedError, RuntimeError)


def _unregistered_dtypes(info):
    registered = set(registered_dtypes(info.covered_ops[0], "cpu"))
    return [d for d in ALL_DTYPES if d not in registered]


@pytest.mark.parametrize("info", _cases(lambda i: i.check is None))
def test_unsupported_dtypes_work_or_raise_a_typed_error(info):
    """Bad input never crashes: every sample in every dtype the kernel lacks either runs (the
    Python API may cast) or raises one of the typed errors."""
    rng = np.random.default_rng(4)
    for dtype in _unregistered_dtypes(info):
        for sample in info.samples(rng)[:1]:
            sample = cast_sample(sample, dtype)
            try:
                run_forward(info, sample, dtype)
            except TYPED_ERRORS as e:
                assert str(e), f"{info.name}[{dtype}] raised {type(e).__name__} without a message"


def test_missing_kernel_dtype_names_the_op_and_dtype():
    x = paddle.to_tensor([1, 2, 3])
    with pytest.raises(NotImplementedError) as raised:
        paddle._C_ops.exp(x)
    message = str(raised.value)
    assert "exp" in message and "int64" in message and "float32" in message
