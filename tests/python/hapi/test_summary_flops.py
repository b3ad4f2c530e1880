"""paddle.summary and paddle.flops print PaddlePaddle 3.3.1's tables (text recorded by
tools/record_paddle_hapi.py) and return its totals."""
import json
import os

import numpy as np
import pytest

import paddle
from hapi_cases import NETS, capture, run_nets, run_static_flops

REFERENCE = json.load(open(os.path.join(os.path.dirname(__file__),
                                        "paddle_hapi_reference.json")))


@pytest.fixture(scope="module")
def results():
    return run_nets(paddle)


@pytest.mark.parametrize("name", sorted(NETS))
def test_summary_text_and_totals(results, name):
    expected = REFERENCE["nets"][name]
    assert results[name]["summary"] == expected["summary"]
    assert results[name]["total_params"] == expected["total_params"]
    assert results[name]["trainable_params"] == expected["trainable_params"]


@pytest.mark.parametrize("name", sorted(n for n in NETS if NETS[n][2] is not None))
def test_flops_text_and_total(results, name):
    expected = REFERENCE["nets"][name]
    assert results[name]["flops"] == expected["flops"]
    assert results[name]["total_flops"] == expected["total_flops"]


def test_flops_of_a_static_program():
    assert run_static_flops(paddle) == REFERENCE["static_flops"]


def _mlp():
    return paddle.nn.Sequential(paddle.nn.Linear(3, 5), paddle.nn.Tanh(), paddle.nn.Linear(5, 2))


def test_summary_input_forms_agree():
    net = _mlp()
    by_size, info = capture(lambda: paddle.summary(net, (4, 3)))
    by_spec, _ = capture(lambda: paddle.summary(net, paddle.static.InputSpec([None, 3])))
    by_tensor, _ = capture(lambda: paddle.summary(net, input=paddle.rand([4, 3])))
    assert by_size == by_tensor
    assert by_spec == by_size.replace("[4, ", "[1, ")
    assert (int(info["total_params"]), int(info["trainable_params"])) == (32, 32)


def test_summary_keeps_training_mode_and_dtypes():
    net = paddle.nn.Sequential(paddle.nn.Embedding(10, 4), paddle.nn.Linear(4, 2))
    net.train()
    text, _ = capture(lambda: paddle.summary(net, (2, 3), dtypes="int64"))
    assert "Embedding-1" in text and "[[2, 3]]" in text and "[2, 3, 2]" in text
    assert net.training


def test_flops_custom_ops_and_training_mode():
    net = _mlp()
    net.train()

    def count_tanh(layer, inputs, output):
        layer.total_ops += int(np.prod(output.shape)) * 7

    text, total = capture(lambda: paddle.flops(net, [4, 3],
                                               custom_ops={paddle.nn.Tanh: count_tanh}))
    # Linear: in_features * output elements; tanh: 7 per element.
    assert total == 3 * 4 * 5 + 4 * 5 * 7 + 5 * 4 * 2
    assert "Customize Function has been applied to <class 'paddle.nn.layer.activation.Tanh'>" \
        in text
    assert text.endswith(f"Total Flops: {total}     Total Params: 32\n")
    assert net.training


@pytest.mark.parametrize("call, error, words", [
    (lambda: paddle.summary(_mlp()), ValueError, "input_size and input"),
    (lambda: paddle.summary(_mlp(), (None, None)), ValueError, "batch dimension"),
    (lambda: paddle.summary(_mlp(), (0, 3)), ValueError, "greater than zero"),
    (lambda: paddle.summary("net", (1, 3)), TypeError, "net"),
    (lambda: paddle.flops("net", [1, 3]), TypeError, "net"),
    (lambda: paddle.flops(_mlp(), 3), TypeError, "input_size"),
])
def test_bad_arguments(call, error, words):
    with pytest.raises(error, match=words):
        call()
