"""Dygraph memory: backward frees the activations it saved as it passes them, and in-place APIs
bump the inplace version that backward checks."""
import numpy as np
import paddle
import pytest

MiB = 1 << 20


def _peak_of_backward(retain_graph):
    """(peak bytes above the start of backward, bytes left above it after) for a stack of
    linear + relu layers whose activations (1 MiB each) outweigh their weights (256 KiB)."""
    paddle.seed(0)
    layers = [paddle.nn.Linear(256, 256) for _ in range(6)]
    x = paddle.to_tensor(np.random.default_rng(0).random((1024, 256), dtype=np.float32))
    h = x
    for layer in layers:
        h = paddle.nn.functional.relu(layer(h))
    loss = h.mean()
    del h
    base = paddle.device.memory_allocated("cpu")
    paddle.device.reset_max_memory_allocated("cpu")
    loss.backward(retain_graph=retain_graph)
    peak = paddle.device.max_memory_allocated("cpu") - base
    left = paddle.device.memory_allocated("cpu") - base
    grads = sum(p.grad.numpy().nbytes for layer in layers for p in layer.parameters())
    return peak, left, grads


def test_backward_frees_saved_activations_as_it_goes():
    kept_peak, kept_left, grads = _peak_of_backward(retain_graph=True)
    freed_peak, freed_left, _ = _peak_of_backward(retain_graph=False)
    activations = 6 * MiB  # each relu's output, saved for its own and the next linear's gradient
    # Kept: the parameter gradients come on top of every activation.
    assert kept_left == grads
    # Freed: each relu output goes once the gradients that read it are computed, so what is
    # left is exactly the gradients less the activations, and the peak (early in the pass,
    # before the first activations go) is at least one activation lower.
    assert freed_left == grads - activations
    assert freed_peak <= kept_peak - MiB


@pytest.mark.parametrize("modify", [
    lambda t: t.add_(paddle.ones([4])),
    lambda t: t.subtract_(paddle.ones([4])),
    lambda t: t.multiply_(paddle.full([4], 2.0)),
    lambda t: t.scale_(2.0),
    lambda t: t.relu_(),
    lambda t: t.clip_(0.0, 1.0),
    lambda t: paddle.clip_(t, max=0.5),
    lambda t: t.exp_(),
    lambda t: t.tanh_(),
    lambda t: t.zero_(),
    lambda t: t.fill_(1.0),
], ids=["add_", "subtract_", "multiply_", "scale_", "relu_", "clip_", "paddle.clip_", "exp_",
        "tanh_", "zero_", "fill_"])
def test_modifying_a_saved_tensor_in_place_fails_backward_clearly(modify):
    x = paddle.to_tensor(np.array([0.2, 0.7, 1.5, -0.3], dtype="float32"), stop_gradient=False)
    y = x * 1.0
    z = y * y  # multiply saves y for its gradient
    version = y.inplace_version
    modify(y)
    assert y.inplace_version == version + 1
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()


def test_in_place_on_a_tensor_nobody_saved_keeps_gradients_right():
    x = paddle.to_tensor(np.array([0.2, 0.7, 1.5, -0.3], dtype="float32"), stop_gradient=False)
    y = x * 2.0  # scale saves nothing
    y.clip_(0.0, 1.0)
    y.sum().backward()
    # 2x is [0.4, 1.4, 3.0, -0.6]: only the first lies inside [0, 1] (as in Paddle).
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 0.0, 0.0, 0.0])


def test_clip_in_place_writes_the_tensor():
    x = paddle.to_tensor(np.array([-1.0, 0.5, 3.0], dtype="float32"))
    out = x.clip_(0.0, 1.0)
    assert out is x
    np.testing.assert_array_equal(x.numpy(), [0.0, 0.5, 1.0])
    n = paddle.to_tensor(np.array([-5, 2, 9], dtype="int64"))
    paddle.clip_(n, min=0)
    np.testing.assert_array_equal(n.numpy(), [0, 2, 9])
    with pytest.raises(TypeError, match="clip_"):
        paddle.clip_(np.zeros(3), 0, 1)
