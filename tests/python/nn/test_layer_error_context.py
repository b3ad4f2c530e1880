"""A ValueError, TypeError or IndexError raised in a layer's forward names the failing layer by
its path in the outermost layer called, its configuration and its input shapes, after the op's
own message (paddle/nn/layer/_error_context.py)."""
import pytest

import paddle
from paddle import nn


class Block(nn.Layer):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 4)

    def forward(self, x):
        return self.proj(x)


class Model(nn.Layer):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 8), Block())
        self.detached = nn.Linear(3, 3)

    def forward(self, x):
        return self.body(x)


def test_a_lone_layer_is_described_by_its_configuration():
    conv = nn.Conv2D(3, 8, 3)
    with pytest.raises(ValueError) as raised:
        conv(paddle.zeros([1, 2, 8, 8]))
    message = str(raised.value)
    assert message.startswith("conv2d")
    assert message.endswith("\n  [in layer Conv2D(3, 8, kernel_size=[3, 3]), given input of "
                            "shape [1, 2, 8, 8]]")


def test_a_nested_layer_is_named_by_its_path_from_the_outermost_call():
    with pytest.raises(ValueError) as raised:
        Model()(paddle.zeros([2, 5]))
    assert str(raised.value).endswith(
        "\n  [in layer body.0 of Model: Linear(in_features=6, out_features=8, dtype=float32), "
        "given input of shape [2, 5]]")

    # Called from inside, the same layer is named from the layer that was called.
    with pytest.raises(ValueError, match=r"\[in layer 0 of Sequential: Linear\(in_features=6"):
        Model().body(paddle.zeros([2, 5]))


def test_the_message_is_rewritten_once_per_error_not_stacked():
    with pytest.raises(ValueError) as raised:
        Model()(paddle.zeros([2, 5]))
    assert str(raised.value).count("[in layer") == 1


class Caller(nn.Layer):
    """Calls a layer that is not one of its sublayers."""

    def __init__(self, other):
        super().__init__()
        self._other = [other]  # a list, so that it is not registered

    def forward(self, x):
        return self._other[0](x)


def test_a_layer_called_without_being_registered_is_named_by_its_class():
    with pytest.raises(ValueError, match=r"\[in layer <Linear> of Caller: Linear"):
        Caller(nn.Linear(3, 3))(paddle.zeros([1, 4]))


def test_an_error_with_a_non_message_argument_is_left_alone():
    class Raiser(nn.Layer):
        def forward(self, x):
            raise ValueError(42)

    with pytest.raises(ValueError) as raised:
        nn.Sequential(Raiser())(paddle.zeros([1]))
    assert raised.value.args == (42,)
