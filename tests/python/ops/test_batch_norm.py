"""BatchNorm1D/2D/3D, the older BatchNorm and F.batch_norm: NumPy re-implementations of Paddle's
semantics (biased variance, running statistics updated in place with momentum), and, when
PADDLE_REFERENCE_PYTHON names an interpreter with PaddlePaddle, the same script run in both."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import paddle
import paddle.nn as nn
import paddle.nn.functional as F

RNG = np.random.RandomState(7)


def _np_batch_norm(x, mean, var, weight=None, bias=None, axis=1, epsilon=1e-5):
    shape = [-1 if i == axis else 1 for i in range(x.ndim)]
    out = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + epsilon)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out


def _batch_stats(x, axis=1):
    axes = tuple(i for i in range(x.ndim) if i != axis)
    return x.mean(axis=axes), x.var(axis=axes)  # the biased variance, as in Paddle


def test_training_normalizes_with_batch_stats_and_updates_running_stats_in_place():
    x = RNG.randn(4, 3, 2, 5)
    layer = nn.BatchNorm2D(3)
    layer.weight.set_value(paddle.to_tensor(np.array([1.0, 2.0, 0.5], dtype="float32")))
    layer.bias.set_value(paddle.to_tensor(np.array([0.0, -1.0, 3.0], dtype="float32")))
    running_mean, running_var = layer._mean, layer._variance
    out = layer(paddle.to_tensor(x.astype("float32")))
    mu, var = _batch_stats(x)
    expected = _np_batch_norm(x, mu, var, layer.weight.numpy(), layer.bias.numpy())
    np.testing.assert_allclose(out.numpy(), expected, atol=1e-5, rtol=1e-5)
    assert layer._mean is running_mean and layer._variance is running_var
    np.testing.assert_allclose(running_mean.numpy(), 0.1 * mu, atol=1e-6)
    np.testing.assert_allclose(running_var.numpy(), 0.9 + 0.1 * var, atol=1e-6)
    out = layer(paddle.to_tensor(x.astype("float32")))  # a second step compounds
    np.testing.assert_allclose(running_mean.numpy(), 0.19 * mu, atol=1e-6)
    np.testing.assert_allclose(running_var.numpy(), 0.81 + 0.19 * var, atol=1e-6)


def test_eval_normalizes_with_running_stats_and_leaves_them():
    layer = nn.BatchNorm1D(4, epsilon=1e-3)
    mean, var = RNG.randn(4), RNG.rand(4) + 0.5
    layer._mean.set_value(paddle.to_tensor(mean.astype("float32")))
    layer._variance.set_value(paddle.to_tensor(var.astype("float32")))
    layer.eval()
    x = RNG.randn(3, 4, 6)
    out = layer(paddle.to_tensor(x.astype("float32")))
    np.testing.assert_allclose(out.numpy(), _np_batch_norm(x, mean, var, epsilon=1e-3),
                               atol=1e-5, rtol=1e-5)
    np.testing.assert_allclose(layer._mean.numpy(), mean, rtol=1e-6)
    np.testing.assert_allclose(layer._variance.numpy(), var, rtol=1e-6)


def test_use_global_stats_overrides_the_mode():
    x = RNG.randn(5, 2).astype("float32")
    frozen = nn.BatchNorm1D(2, use_global_stats=True)  # training, but the running statistics
    np.testing.assert_allclose(frozen(paddle.to_tensor(x)).numpy(),
                               _np_batch_norm(x, np.zeros(2), np.ones(2)), atol=1e-5)
    np.testing.assert_allclose(frozen._mean.numpy(), np.zeros(2))
    live = nn.BatchNorm1D(2, use_global_stats=False)  # eval, but the batch's statistics
    live.eval()
    mu, var = _batch_stats(x)
    np.testing.assert_allclose(live(paddle.to_tensor(x)).numpy(), _np_batch_norm(x, mu, var),
                               atol=1e-5)
    np.testing.assert_allclose(live._mean.numpy(), 0.1 * mu, atol=1e-6)


def test_state_dict_holds_paddles_keys_and_round_trips():
    layer = nn.BatchNorm2D(3)
    assert list(layer.state_dict().keys()) == ["weight", "bias", "_mean", "_variance"]
    assert [n for n, _ in layer.named_parameters()] == ["weight", "bias", "_mean", "_variance"]
    assert not layer._mean.trainable and layer._mean.stop_gradient and layer._mean.persistable
    np.testing.assert_allclose(layer._variance.numpy(), np.ones(3))
    layer(paddle.to_tensor(RNG.randn(2, 3, 2, 2).astype("float32")))
    other = nn.BatchNorm2D(3)
    other.set_state_dict(layer.state_dict())
    np.testing.assert_allclose(other._mean.numpy(), layer._mean.numpy())
    np.testing.assert_allclose(other._variance.numpy(), layer._variance.numpy())
    assert repr(layer) == "BatchNorm2D(num_features=3, momentum=0.9, epsilon=1e-05)"


def test_running_stats_stay_out_of_autograd():
    layer = nn.BatchNorm1D(3)
    x = paddle.to_tensor(RNG.randn(4, 3).astype("float32"), stop_gradient=False)
    upstream = RNG.randn(4, 3).astype("float32")
    (layer(x) * paddle.to_tensor(upstream)).sum().backward()
    assert layer._mean.stop_gradient and layer._variance.stop_gradient
    assert layer._mean.grad is None
    assert x.grad.shape == [4, 3] and layer.weight.grad.shape == [3]
    np.testing.assert_allclose(layer.bias.grad.numpy(), upstream.sum(axis=0), rtol=1e-5)


def test_the_layer_can_run_twice_before_backward():
    layer = nn.BatchNorm1D(3)
    x = paddle.to_tensor(RNG.randn(4, 3).astype("float32"), stop_gradient=False)
    loss = layer(x).sum() + (layer(x * 2.0) ** 2).sum()
    loss.backward()
    assert x.grad.shape == [4, 3]


def test_channel_last_matches_channel_first():
    x = RNG.randn(2, 3, 4, 5)
    first = nn.BatchNorm2D(3)
    last = nn.BatchNorm2D(3, data_format="NHWC")
    for layer in (first, last):
        layer.weight.set_value(paddle.to_tensor(np.array([0.5, 1.5, 2.0], dtype="float32")))
    out_first = first(paddle.to_tensor(x.astype("float32")))
    out_last = last(paddle.to_tensor(x.transpose(0, 2, 3, 1).astype("float32")))
    np.testing.assert_allclose(out_last.numpy().transpose(0, 3, 1, 2), out_first.numpy(),
                               atol=1e-5)
    np.testing.assert_allclose(last._variance.numpy(), first._variance.numpy(), rtol=1e-6)
    assert "data_format=NHWC" in repr(last)
    x3 = RNG.randn(2, 5, 3)  # NLC
    out = F.batch_norm(paddle.to_tensor(x3), paddle.zeros([3], "float64"),
                       paddle.ones([3], "float64"), training=True, data_format="NLC")
    np.testing.assert_allclose(out.numpy(), _np_batch_norm(x3, *_batch_stats(x3, 2), axis=2),
                               atol=1e-6)


def test_3d_layer_and_absent_affine_parameters():
    layer = nn.BatchNorm3D(2, weight_attr=False, bias_attr=False)
    assert layer.weight is None and layer.bias is None
    assert list(layer.state_dict().keys()) == ["_mean", "_variance"]
    x = RNG.randn(2, 2, 3, 2, 2).astype("float32")
    np.testing.assert_allclose(layer(paddle.to_tensor(x)).numpy(),
                               _np_batch_norm(x, *_batch_stats(x)), atol=1e-5)


def test_layers_reject_wrong_ranks_and_formats():
    with pytest.raises(ValueError, match=r"expected 4D input \(got 3D input\)"):
        nn.BatchNorm2D(3)(paddle.zeros([2, 3, 4]))
    with pytest.raises(ValueError, match=r"expected 2D or 3D input \(got 4D input\)"):
        nn.BatchNorm1D(3)(paddle.zeros([2, 3, 4, 4]))
    with pytest.raises(ValueError, match="NCDHW, NDHWC"):
        nn.BatchNorm3D(3, data_format="NCL")(paddle.zeros([2, 3, 1, 1, 1]))
    with pytest.raises(ValueError, match="batch_norm: argument 'mean'"):
        F.batch_norm(paddle.zeros([2, 3]), paddle.zeros([4]), paddle.ones([3]))


def test_legacy_batch_norm_layer():
    layer = nn.BatchNorm(3, act="relu")
    x = RNG.randn(4, 3, 2)
    out = layer(paddle.to_tensor(x.astype("float32")))
    mu, var = _batch_stats(x)
    np.testing.assert_allclose(out.numpy(), np.maximum(_np_batch_norm(x, mu, var), 0), atol=1e-5)
    np.testing.assert_allclose(layer._mean.numpy(), 0.1 * mu, atol=1e-6)
    frozen = nn.BatchNorm(3, is_test=True, dtype="float64", moving_mean_name="bn_mean")
    assert frozen._mean.name == "bn_mean" and not frozen.training
    np.testing.assert_allclose(frozen(paddle.to_tensor(x)).numpy(),
                               _np_batch_norm(x, np.zeros(3), np.ones(3)), atol=1e-6)


# ---------------------------------------------------------------- against real PaddlePaddle
REFERENCE = os.environ.get("PADDLE_REFERENCE_PYTHON")

# Prints a JSON object of results: forward values and running statistics of F.batch_norm in each
# mode and format, the raw op's outputs, and gradients of a few training steps of BatchNorm2D.
SCRIPT = r"""
import json, numpy as np, paddle
import paddle.nn.functional as F
rng = np.random.RandomState(3)
results = {}

def record(name, value):
    if isinstance(value, paddle.Tensor):
        value = {"shape": list(value.shape), "dtype": str(value.dtype).replace("paddle.", ""),
                 "value": value.numpy().astype("float64").ravel().tolist()}
    results[name] = value

x4 = rng.randn(3, 4, 2, 5)
x3 = rng.randn(4, 4, 5)
mean0, var0, w, b = rng.randn(4), rng.rand(4) + 0.5, rng.rand(4) + 0.5, rng.randn(4)
cases = {
    "train_nchw": (x4, {"training": True}),
    "eval_nchw": (x4, {}),
    "train_nhwc": (x4.transpose(0, 2, 3, 1), {"training": True, "data_format": "NHWC"}),
    "train_momentum": (x4, {"training": True, "momentum": 0.6, "epsilon": 1e-3}),
    "train_global": (x4, {"training": True, "use_global_stats": True}),
    "eval_batch": (x4, {"use_global_stats": False}),
    "train_nlc": (x3.transpose(0, 2, 1), {"training": True, "data_format": "NLC"}),
    "train_nc": (x4[:, :, 0, 0], {"training": True, "data_format": "NC"}),
}
for name, (x, kwargs) in cases.items():
    for dtype in ("float32", "float64"):
        rm = paddle.to_tensor(mean0.astype(dtype))
        rv = paddle.to_tensor(var0.astype(dtype))
        out = F.batch_norm(paddle.to_tensor(x.astype(dtype)), rm, rv,
                           paddle.to_tensor(w.astype(dtype)), paddle.to_tensor(b.astype(dtype)),
                           **kwargs)
        record(f"{name}/{dtype}/out", out)
        record(f"{name}/{dtype}/running_mean", rm)
        record(f"{name}/{dtype}/running_var", rv)

outs = paddle._C_ops.batch_norm(paddle.to_tensor(x3), paddle.to_tensor(mean0),
                                paddle.to_tensor(var0), None, None, False, 0.9, 1e-5, "NCHW",
                                False, False)
for k, name in enumerate(["out", "mean_out", "variance_out", "saved_mean", "saved_variance",
                          "reserve_space"]):
    record("op/" + name, outs[k])

paddle.seed(5)
layer = paddle.nn.BatchNorm2D(4)
layer.weight.set_value(paddle.to_tensor(w.astype("float32")))
for step in range(2):
    xt = paddle.to_tensor((x4 * (step + 1)).astype("float32"), stop_gradient=False)
    out = layer(xt)
    (out * paddle.to_tensor(np.cos(np.arange(out.size)).reshape(out.shape).astype("float32"))
     ).sum().backward()
    record(f"layer/{step}/x_grad", xt.grad)
    record(f"layer/{step}/weight_grad", layer.weight.grad)
    record(f"layer/{step}/bias_grad", layer.bias.grad)
    layer.clear_gradients()
record("layer/state_dict", list(layer.state_dict().keys()))
record("layer/_mean", layer._mean)
record("layer/_variance", layer._variance)
record("layer/_mean.stop_gradient", layer._mean.stop_gradient)
layer.eval()
xt = paddle.to_tensor(x4.astype("float32"), stop_gradient=False)
out = layer(xt)
(out * out).sum().backward()
record("layer/eval_out", out)
record("layer/eval_x_grad", xt.grad)
record("layer/eval_weight_grad", layer.weight.grad)
print("RESULTS" + json.dumps(results))
"""


def _run(python, env):
    result = subprocess.run([python, "-c", SCRIPT], check=True, capture_output=True, text=True,
                            env=env, cwd="/")
    line = [ln for ln in result.stdout.splitlines() if ln.startswith("RESULTS")][-1]
    return json.loads(line[len("RESULTS"):])


@pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")
def test_results_match_paddlepaddle():
    ours = _run(sys.executable, dict(os.environ))
    reference_env = dict(os.environ)
    reference_env.pop("PYTHONPATH", None)
    theirs = _run(REFERENCE, reference_env)
    assert sorted(ours) == sorted(theirs)
    for name, expected in theirs.items():
        actual = ours[name]
        if isinstance(expected, dict):
            assert (actual["shape"], actual["dtype"]) == (expected["shape"], expected["dtype"]), name
            tol = 1e-4 if expected["dtype"] == "float32" else 1e-9
            np.testing.assert_allclose(actual["value"], expected["value"], rtol=tol, atol=tol,
                                       err_msg=name)
        else:
            assert actual == expected, name
