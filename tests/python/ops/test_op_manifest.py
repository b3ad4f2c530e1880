"""The op declarations (paddle/ops/yaml) against what the build made of them: the kernel registry
holds exactly the declared dtypes, every op is in the schema, and each declared Python name exists
and is the generated or the hand-written function the declaration says."""
import importlib
import inspect

import numpy as np
import pytest

import paddle
from paddle.base import generated_api
from paddle.utils import ops as ops_tool

MANIFEST = ops_tool.manifest()
REGISTRY = {row["name"]: row for row in paddle.base.libpaddle._op_registry_info()}


def test_the_schema_holds_exactly_the_declared_ops():
    assert sorted(REGISTRY) == sorted(op["name"] for op in MANIFEST)


@pytest.mark.parametrize("op", MANIFEST, ids=[op["name"] for op in MANIFEST])
def test_registered_kernels_are_the_declared_dtypes(op):
    row = REGISTRY[op["name"]]
    for backend in ("cpu", "gpu"):
        declared = op["dtypes"][backend]
        registered = list(row[backend])
        if backend == "gpu" and not paddle.is_compiled_with_cuda():
            assert registered == [], f"{op['name']}: GPU kernels in a build without CUDA"
            continue
        assert sorted(registered) == sorted(declared), (
            f"{op['name']} ({op['yaml']}) declares {backend} dtypes {declared}, the registry "
            f"holds {registered}")
    assert bool(row["backward"]) == bool(op["backward"])
    assert row["python"] == op["python_visible"]


def _resolve(public_name):
    """The object a public name such as 'paddle.nn.functional.relu' or 'paddle.Tensor.exp_'
    refers to."""
    if public_name.startswith("paddle.Tensor."):
        return getattr(paddle.Tensor, public_name[len("paddle.Tensor."):])
    module, _, name = public_name.rpartition(".")
    return getattr(importlib.import_module(module), name)


SURFACES = [op for op in MANIFEST if op["python"]]


@pytest.mark.parametrize("op", SURFACES, ids=[op["name"] for op in SURFACES])
def test_declared_python_names_exist_and_come_from_where_declared(op):
    surface = op["python"]
    for public_name in surface["public_names"]:
        try:
            function = _resolve(public_name)
        except AttributeError:
            pytest.fail(f"{op['yaml']}: op '{op['name']}' declares {public_name}, which does not "
                        "exist")
        if surface["written_in"] is None:
            generated = getattr(generated_api, public_name.rsplit(".", 1)[1])
            assert function is generated, f"{public_name} is not the generated function"
        elif not public_name.startswith("paddle.Tensor."):
            assert function.__module__ == surface["written_in"], (
                f"{public_name} comes from {function.__module__}, but {op['yaml']} says it is "
                f"written in {surface['written_in']}")


def test_generated_functions_take_the_declared_arguments():
    signature = inspect.signature(paddle.max)
    assert list(signature.parameters) == ["x", "axis", "keepdim", "name"]
    assert signature.parameters["axis"].default is None
    assert signature.parameters["keepdim"].default is False
    assert "max(x, axis=None, keepdim=False, name=None)" in paddle.max.__doc__
    assert list(inspect.signature(paddle.nn.functional.softplus).parameters) == [
        "x", "beta", "threshold", "name"]


def test_generated_functions_normalise_arguments_like_the_hand_written_ones():
    x = paddle.to_tensor([[1.0, 5.0], [3.0, 2.0]])
    assert paddle.max(x, axis=paddle.to_tensor([1])).tolist() == [5.0, 3.0]
    assert paddle.transpose(x, (1, 0)).tolist() == [[1.0, 3.0], [5.0, 2.0]]
    assert paddle.flatten(x, start_axis=paddle.to_tensor(0)).shape == [4]
    with pytest.raises(TypeError, match=r"tril\(\): argument 'diagonal' must be an int, not bool"):
        paddle.tril(x, True)
    with pytest.raises(TypeError, match=r"exp\(\): argument 'x' must be a Tensor, not list"):
        paddle.exp([1.0])


def test_generated_in_place_variants_write_into_their_input():
    x = paddle.to_tensor([0.0, 1.0])
    out = paddle.exp_(x)
    np.testing.assert_allclose(x.numpy(), np.exp([0.0, 1.0]), rtol=1e-6)
    np.testing.assert_array_equal(out.numpy(), x.numpy())
    y = paddle.to_tensor([-1.0, 2.0])
    y.relu_()
    assert y.tolist() == [0.0, 2.0]
    z = paddle.to_tensor([4.0])
    paddle.nn.functional.tanh_(z)
    np.testing.assert_allclose(z.numpy(), np.tanh([4.0]), rtol=1e-6)
