"""Hostile input never crashes: every op is called with arguments derived from its declaration
(tools/hostile_cases.py: zero-size and 0-D tensors, every dtype, NaN, inf and the integer
extremes, huge and negative sizes, axes and indices, transposed and broadcast inputs, tensors
and Python objects where lists and numbers belong, and inputs on mismatched places where a GPU
exists) in a worker process, so a crash or a hang fails the test naming the op and the
call instead of ending the test run. Each call must return or raise a typed error."""
import json
import os
import sys

import pytest

import paddle
from paddle.utils import ops as ops_tool

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
HELPERS = os.path.join(ROOT, "tests", "python")
sys.path.insert(0, os.path.join(ROOT, "tools"))
import hostile_cases as hc  # noqa: E402
import hostile_semantics  # noqa: E402

OPS = [op for op in ops_tool.manifest() if hc.op_api(op)]
HAS_GPU = paddle.device.cuda.device_count() > 0


@pytest.fixture(scope="module")
def runner():
    r = hc.Runner(timeout=30, python_path=[HELPERS])
    yield r
    r.close()


def run(runner, api, *args, **kwargs):
    case = {"api": api, "args": list(args), "kwargs": kwargs}
    outcome, detail = runner.run(case)
    assert not hc.is_failure(outcome), f"{hc.call_source(case)}: {outcome}: {detail}"
    return outcome, json.loads(detail) if outcome == "ok" else detail


@pytest.mark.parametrize("op", OPS, ids=[op["name"] for op in OPS])
def test_hostile_arguments_return_or_raise_a_typed_error(runner, op):
    failures = []
    for case in hc.systematic_cases(op, hc.op_api(op), gpu=HAS_GPU):
        outcome, detail = runner.run(case)
        if hc.is_failure(outcome):
            failures.append(f"{outcome}: {hc.call_source(case)}\n    {detail[:500]}")
    assert not failures, f"{op['name']} ({op['yaml']}): {len(failures)} hostile calls failed:\n" + \
        "\n".join(failures[:10])


SEMANTIC_ENTRIES = hostile_semantics.entries()


@pytest.mark.parametrize("name", SEMANTIC_ENTRIES)
def test_hostile_variants_of_the_samples_follow_numpy(runner, name):
    """Zero-size and 0-D variants of the entry's first sample give the NumPy reference's result
    or a typed error; NaN and inf variants return or raise a typed error (hostile_semantics.py)."""
    failures = []
    for index in range(hostile_semantics.count(name)):
        case = {"source": f"__import__('hostile_semantics').check({name!r}, {index})"}
        outcome, detail = runner.run(case)
        if hc.is_failure(outcome):
            failures.append(f"variant {index}: {outcome}: {detail[:800]}")
    assert not failures, f"{name}:\n" + "\n".join(failures[:5])


# ---------------------------------------------------------------- the crashes of the issue
def test_int_min_remainder_by_minus_one_is_zero(runner):
    for dtype in ("int32", "int64"):
        _, result = run(runner, "remainder", hc.tensor([3], dtype, "min"), hc.tensor([], dtype, "neg_one"))
        assert result == {"shape": [3], "dtype": dtype, "values": [0, 0, 0]}


def test_int_min_floor_divide_by_minus_one_wraps_to_int_min(runner):
    for dtype, minimum in (("int32", -2 ** 31), ("int64", -2 ** 63)):
        _, result = run(runner, "floor_divide", hc.tensor([3], dtype, "min"),
                        hc.tensor([], dtype, "neg_one"))
        assert result["values"] == [minimum] * 3
        _, result = run(runner, "_C_ops.divide", hc.tensor([2], dtype, "min"),
                        hc.tensor([], dtype, "neg_one"))
        assert result["values"] == [minimum] * 2


@pytest.mark.parametrize("api", ["nn.functional.softmax", "nn.functional.log_softmax"])
@pytest.mark.parametrize("shape,axis", [([2, 0, 3], 0), ([2, 0, 3], -1), ([2, 0], -2), ([0], 0)])
def test_softmax_of_a_zero_size_tensor_is_empty(runner, api, shape, axis):
    _, result = run(runner, api, hc.tensor(shape, "float64", "zeros"), hc.value(axis))
    assert result["shape"] == shape and result["dtype"] == "float64"


def test_gather_on_a_0d_tensor_raises_index_error_naming_the_axis(runner):
    outcome, detail = run(runner, "gather", hc.tensor([], "int64", "zeros"),
                          hc.tensor([], "int32", "zeros"))
    assert outcome == "typed" and detail.startswith("IndexError: gather: argument 'axis'")


def test_index_select_on_a_0d_tensor_raises_index_error(runner):
    outcome, detail = run(runner, "index_select", hc.tensor([], "uint8", "zeros"),
                          hc.tensor([3], "int64", "neg_one"))
    assert outcome == "typed" and detail.startswith("IndexError: index_select:")


def test_slice_with_tensors_and_junk_where_lists_belong_raises_type_error(runner):
    outcome, detail = run(runner, "slice", hc.tensor([3], "float32"), hc.tensor([], "float32", "ones"),
                          hc.value([0]), hc.value([1]), hc.value("junk"))
    assert outcome == "typed" and detail.startswith("TypeError: slice()")
    outcome, detail = run(runner, "slice", hc.tensor([], "float32"), hc.tensor([], "float32", "ones"),
                          hc.value([0]), hc.value([1]))
    assert outcome == "typed" and "axes" in detail


def test_a_huge_shape_raises_memory_error_with_its_size(runner):
    outcome, detail = run(runner, "eye", hc.value(2 ** 31))
    assert outcome == "typed" and detail.startswith("MemoryError") and "2147483648" in detail
    outcome, detail = run(runner, "_C_ops.eye", hc.value(2 ** 63 - 1), hc.value(-1),
                          hc.value("float32"))
    assert outcome == "typed" and detail.startswith("MemoryError") and "2^64 bytes" in detail


def test_uniform_with_an_infinite_bound_raises_instead_of_hanging(runner):
    outcome, detail = run(runner, "_C_ops.uniform", hc.value([1]), hc.value("float32"),
                          hc.value(-1.0), hc.special_float("inf"))
    assert outcome == "typed" and "must be finite" in detail
