"""GroupNorm, InstanceNorm1D/2D/3D, LocalResponseNorm, SpectralNorm and SyncBatchNorm: Paddle's
constructor arguments, defaults, parameter names and shapes (so state dicts interchange), the
layers against their functionals and NumPy, training against eval, and static programs holding
the legacy ops. The ops themselves (values, gradients, errors) are covered by their harness
entries (tests/python/op_db_norm.py)."""
import numpy as np
import pytest

import paddle
import paddle.nn as nn
import paddle.nn.functional as F
import op_db  # noqa: F401  (first: it extends itself with op_db_norm's entries)
from op_db_norm import gn_np, in_np, lrn_np, sn_np
from static_testing import new_programs, static_mode

RNG = np.random.RandomState(11)


def tensor(shape, dtype="float32"):
    return paddle.to_tensor(RNG.randn(*shape).astype(dtype))


def parameter_table(layer):
    return [(name, p.shape) for name, p in layer.named_parameters()]


# ---------------------------------------------------------------- GroupNorm
def test_group_norm_parameters_and_defaults():
    layer = nn.GroupNorm(num_groups=2, num_channels=6)
    assert parameter_table(layer) == [("weight", [6]), ("bias", [6])]
    np.testing.assert_array_equal(layer.weight.numpy(), np.ones(6))
    np.testing.assert_array_equal(layer.bias.numpy(), np.zeros(6))
    assert not layer.weight.stop_gradient and not layer.bias.stop_gradient
    assert layer._epsilon == 1e-05 and layer._data_format == "NCHW"
    assert repr(layer) == "GroupNorm(num_groups=2, num_channels=6, epsilon=1e-05)"


def test_group_norm_attr_false_keeps_a_fixed_parameter():
    """As in Paddle, weight_attr=False still creates the weight (fixed at 1, no gradient), so the
    state dict keeps both keys."""
    layer = nn.GroupNorm(2, 4, weight_attr=False, bias_attr=False)
    assert list(layer.state_dict().keys()) == ["weight", "bias"]
    assert layer.weight.stop_gradient and layer.bias.stop_gradient
    x = paddle.to_tensor(RNG.randn(2, 4, 3).astype("float32"), stop_gradient=False)
    layer(x).sum().backward()
    assert layer.weight.grad is None and x.grad is not None
    frozen = nn.GroupNorm(2, 4, weight_attr=paddle.ParamAttr(learning_rate=0.0))
    assert frozen.weight.stop_gradient and not frozen.bias.stop_gradient


def test_group_norm_matches_functional_and_numpy_in_each_layout():
    x = RNG.randn(2, 6, 3, 4)
    layer = nn.GroupNorm(3, 6, epsilon=1e-3)
    w, b = RNG.rand(6) + 0.5, RNG.randn(6)
    layer.weight.set_value(paddle.to_tensor(w.astype("float32")))
    layer.bias.set_value(paddle.to_tensor(b.astype("float32")))
    xt = paddle.to_tensor(x.astype("float32"))
    out = layer(xt)
    np.testing.assert_allclose(out.numpy(), gn_np(x, w, b, 1e-3, 3)[0], atol=1e-5)
    np.testing.assert_array_equal(
        out.numpy(), F.group_norm(xt, 3, 1e-3, layer.weight, layer.bias).numpy())
    last = nn.GroupNorm(3, 6, epsilon=1e-3, data_format="NHWC")
    last.set_state_dict(layer.state_dict())
    out_last = last(paddle.to_tensor(x.transpose(0, 2, 3, 1).astype("float32")))
    np.testing.assert_allclose(out_last.numpy().transpose(0, 3, 1, 2), out.numpy(), atol=1e-5)


def test_group_norm_errors():
    with pytest.raises(ValueError, match="unsupported data layout"):
        nn.GroupNorm(2, 4, data_format="NWC")
    with pytest.raises(ValueError, match="divisible by 'groups'"):
        nn.GroupNorm(3, 4)(paddle.zeros([2, 4, 5]))
    with pytest.raises(ValueError, match="group_norm: argument 'scale'"):
        nn.GroupNorm(2, 4)(paddle.zeros([2, 6, 5]))


def test_group_norm_trains_a_small_model():
    """A few SGD steps through conv-free features lower the loss (the gradients reach x,
    weight and bias)."""
    paddle.seed(3)
    model = nn.Sequential(nn.Linear(8, 12), nn.GroupNorm(3, 12), nn.Linear(12, 1))
    optimizer = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
    x, target = tensor((16, 8)), tensor((16, 1))
    losses = []
    for _ in range(20):
        loss = ((model(x) - target) ** 2).mean()
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(float(loss.numpy()))
    assert losses[-1] < 0.7 * losses[0]


# ---------------------------------------------------------------- InstanceNorm
@pytest.mark.parametrize("cls,shape,default_format", [
    (nn.InstanceNorm1D, (2, 3, 5), "NCL"),
    (nn.InstanceNorm2D, (2, 3, 4, 2), "NCHW"),
    (nn.InstanceNorm3D, (2, 3, 2, 2, 3), "NCDHW"),
])
def test_instance_norm_layers(cls, shape, default_format):
    layer = cls(3)
    assert layer._data_format == default_format and layer._momentum == 0.9
    assert parameter_table(layer) == [("scale", [3]), ("bias", [3])]
    assert list(layer.state_dict().keys()) == ["scale", "bias"]
    np.testing.assert_array_equal(layer.scale.numpy(), np.ones(3))
    assert repr(layer) == f"{cls.__name__}(num_features=3, epsilon=1e-05)"
    x = RNG.randn(*shape)
    w, b = RNG.rand(3) + 0.5, RNG.randn(3)
    layer.scale.set_value(paddle.to_tensor(w.astype("float32")))
    layer.bias.set_value(paddle.to_tensor(b.astype("float32")))
    xt = paddle.to_tensor(x.astype("float32"))
    out = layer(xt)
    np.testing.assert_allclose(out.numpy(), in_np(x, w, b)[0], atol=1e-5)
    layer.eval()  # no running statistics: eval normalizes the same way
    np.testing.assert_array_equal(layer(xt).numpy(), out.numpy())
    with pytest.raises(ValueError, match=r"input \(got 6D input\)"):
        layer(paddle.zeros([1, 3, 1, 1, 1, 1]))


def test_instance_norm_without_affine_parameters():
    layer = nn.InstanceNorm2D(4, epsilon=1e-3, weight_attr=False, bias_attr=False)
    assert layer.scale is None and layer.bias is None and layer.parameters() == []
    x = RNG.randn(2, 4, 3, 3)
    np.testing.assert_allclose(layer(paddle.to_tensor(x)).numpy(), in_np(x, epsilon=1e-3)[0],
                               atol=1e-6)
    with pytest.raises(ValueError, match="at the same time"):
        nn.InstanceNorm2D(4, weight_attr=False)


def test_instance_norm_1d_takes_2d_input():
    x = RNG.randn(3, 4)
    out = nn.InstanceNorm1D(4, weight_attr=False, bias_attr=False)(paddle.to_tensor(x))
    np.testing.assert_allclose(out.numpy(), np.zeros((3, 4)), atol=1e-12)  # one element each


# ---------------------------------------------------------------- LocalResponseNorm
def test_local_response_norm_layer():
    layer = nn.LocalResponseNorm(3, alpha=0.3, k=2.0)
    assert layer.parameters() == [] and (layer.beta, layer.data_format) == (0.75, "NCHW")
    assert repr(layer) == "LocalResponseNorm(size=3, alpha=0.3, beta=0.75, k=2.0)"
    x = RNG.randn(2, 5, 3, 3)
    out = layer(paddle.to_tensor(x))
    np.testing.assert_allclose(out.numpy(), lrn_np(x, 3, 2.0, 0.1, 0.75)[0], atol=1e-7)
    last = nn.LocalResponseNorm(3, alpha=0.3, k=2.0, data_format="NHWC")
    assert "data_format=NHWC" in repr(last)
    out_last = last(paddle.to_tensor(x.transpose(0, 2, 3, 1)))
    np.testing.assert_allclose(out_last.numpy().transpose(0, 3, 1, 2), out.numpy(), atol=1e-12)


# ---------------------------------------------------------------- SpectralNorm
def test_spectral_norm_parameters_and_result():
    layer = nn.SpectralNorm([3, 4, 2], dim=1, power_iters=4, dtype="float64")
    assert parameter_table(layer) == [("weight_u", [4]), ("weight_v", [6])]
    assert layer.weight_u.stop_gradient and layer.weight_v.stop_gradient
    u0, v0 = layer.weight_u.numpy().copy(), layer.weight_v.numpy().copy()
    weight = RNG.randn(3, 4, 2)
    out = layer(paddle.to_tensor(weight))
    np.testing.assert_allclose(out.numpy(), sn_np(weight, u0, v0, 1, 4), rtol=1e-10)
    # u and v stay as they are (Paddle's op copies them before iterating).
    np.testing.assert_array_equal(layer.weight_u.numpy(), u0)
    many = nn.SpectralNorm([3, 4, 2], dim=1, power_iters=50, dtype="float64")
    top = np.linalg.svd(np.moveaxis(weight, 1, 0).reshape(4, -1), compute_uv=False)[0]
    np.testing.assert_allclose(many(paddle.to_tensor(weight)).numpy(), weight / top, rtol=1e-8)


def test_spectral_norm_gradient_reaches_the_weight():
    weight = paddle.to_tensor(RNG.randn(4, 5), stop_gradient=False)
    layer = nn.SpectralNorm([4, 5], power_iters=2, dtype="float64")
    (layer(weight) ** 2).sum().backward()
    assert weight.grad.shape == [4, 5] and layer.weight_u.grad is None


def test_spectral_norm_errors():
    with pytest.raises(ValueError, match="cannot be equal to 0"):
        nn.SpectralNorm([3, 0])
    with pytest.raises(ValueError, match="received dim=2"):
        nn.SpectralNorm([3, 4], dim=2)
    with pytest.raises(ValueError, match="spectral_norm: argument 'u'"):
        nn.SpectralNorm([3, 4])(paddle.zeros([4, 4]))


# ---------------------------------------------------------------- SyncBatchNorm
def test_sync_batch_norm_is_batch_norm_in_one_process():
    sync, plain = nn.SyncBatchNorm(3, momentum=0.8), nn.BatchNorm2D(3, momentum=0.8)
    assert parameter_table(sync) == parameter_table(plain)
    assert list(sync.state_dict().keys()) == ["weight", "bias", "_mean", "_variance"]
    assert repr(sync) == "SyncBatchNorm(num_features=3, momentum=0.8, epsilon=1e-05)"
    x = tensor((4, 3, 2, 5))
    for _ in range(2):  # training: batch statistics, which update the running ones
        np.testing.assert_allclose(sync(x).numpy(), plain(x).numpy(), atol=1e-6)
    np.testing.assert_allclose(sync._mean.numpy(), plain._mean.numpy(), atol=1e-7)
    np.testing.assert_allclose(sync._variance.numpy(), plain._variance.numpy(), atol=1e-6)
    sync.eval()
    plain.eval()
    np.testing.assert_allclose(sync(x).numpy(), plain(x).numpy(), atol=1e-6)
    np.testing.assert_allclose(sync._mean.numpy(), plain._mean.numpy(), atol=1e-7)


def test_sync_batch_norm_layouts_ranks_and_gradients():
    x = RNG.randn(4, 5, 3)
    xt = paddle.to_tensor(x.astype("float32"), stop_gradient=False)
    out = nn.SyncBatchNorm(3, data_format="NLC")(xt)
    mu, var = x.mean(axis=(0, 1)), x.var(axis=(0, 1))
    np.testing.assert_allclose(out.numpy(), (x - mu) / np.sqrt(var + 1e-5), atol=1e-5)
    out.sum().backward()
    np.testing.assert_allclose(xt.grad.numpy(), np.zeros(x.shape), atol=1e-5)
    with pytest.raises(ValueError, match="for data_format"):
        nn.SyncBatchNorm(3, data_format="CHW")(paddle.zeros([2, 3]))


def test_sync_batch_norm_attr_false_keeps_a_fixed_parameter():
    layer = nn.SyncBatchNorm(2, weight_attr=False, bias_attr=False)
    assert set(layer.state_dict().keys()) == {"weight", "bias", "_mean", "_variance"}
    assert layer.weight.stop_gradient and layer.bias.stop_gradient
    np.testing.assert_array_equal(layer.weight.numpy(), np.ones(2))


def test_convert_sync_batchnorm_keeps_parameters_and_statistics():
    model = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1D(3),
                          nn.Sequential(nn.BatchNorm1D(3, data_format="NC")))
    model(tensor((5, 4)))  # move the running statistics off their initial values
    first = model[1]
    converted = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    assert converted is model
    assert isinstance(model[1], nn.SyncBatchNorm) and isinstance(model[2][0], nn.SyncBatchNorm)
    assert isinstance(model[0], nn.Linear)
    assert model[1].weight is first.weight and model[1]._mean is first._mean
    assert model[2][0]._data_format == "NC"
    x = tensor((6, 4))
    model.eval()
    expected = F.batch_norm(model[0](x), first._mean, first._variance, first.weight, first.bias)
    np.testing.assert_allclose(model[1](model[0](x)).numpy(), expected.numpy(), atol=1e-6)
    named = nn.BatchNorm1D(3, weight_attr=paddle.ParamAttr(name="bn_w"))
    sync = nn.SyncBatchNorm.convert_sync_batchnorm(named)
    assert isinstance(sync, nn.SyncBatchNorm) and sync.weight.name == "bn_w"


# ---------------------------------------------------------------- static programs
def _run_static(build, feeds):
    """Builds a program with `build(*data)` over float32 data named after `feeds`, runs it and
    returns (fetched arrays, op types)."""
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            data = [paddle.static.data(name, [None] + list(v.shape[1:]), "float32")
                    for name, v in feeds.items()]
            outs = build(*data)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        got = exe.run(main, feed=feeds, fetch_list=outs)
        return got, [op.type for op in main.global_block().ops]


def test_static_programs_hold_paddles_legacy_ops():
    x = RNG.randn(2, 4, 3, 3).astype("float32")

    def build(data):
        return [F.group_norm(data, 2), F.instance_norm(data), F.local_response_norm(data, 3),
                nn.SyncBatchNorm(4)(data)]

    (gn, inorm, lrn, sbn), types = _run_static(build, {"x": x})
    for op in ("group_norm", "instance_norm", "lrn", "sync_batch_norm"):
        assert op in types, types
    x64 = x.astype("float64")
    np.testing.assert_allclose(gn, gn_np(x64, groups=2)[0], atol=1e-5)
    np.testing.assert_allclose(inorm, in_np(x64)[0], atol=1e-5)
    np.testing.assert_allclose(lrn, lrn_np(x64, 3, 1.0, 1e-4 / 3, 0.75)[0], atol=1e-6)
    mu, var = x64.mean(axis=(0, 2, 3)), x64.var(axis=(0, 2, 3))
    expected = (x64 - mu[:, None, None]) / np.sqrt(var[:, None, None] + 1e-5)
    np.testing.assert_allclose(sbn, expected, atol=1e-5)


def test_legacy_attribute_names_in_the_program():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 4, 3, 4], "float32")
            F.group_norm(x, 2, data_format="NHWC")
            F.local_response_norm(x, 5, alpha=0.5, k=2.0)
        ops = {op.type: op for op in main.global_block().ops}
        group_norm, lrn = ops["group_norm"], ops["lrn"]
        assert (group_norm.attr("groups"), group_norm.attr("data_layout")) == (2, "NHWC")
        assert group_norm.input("X") and group_norm.output("Mean") and group_norm.output("Variance")
        assert (lrn.attr("n"), lrn.attr("k")) == (5, 2.0)
        assert lrn.attr("alpha") == pytest.approx(0.1)
        assert lrn.output("MidOut")


def test_saved_inference_model_with_the_new_ops_round_trips(tmp_path):
    x = RNG.randn(3, 4, 2, 2).astype("float32")
    prefix = str(tmp_path / "model")
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            data = paddle.static.data("x", [None, 4, 2, 2], "float32")
            hidden = nn.GroupNorm(2, 4)(data)
            hidden = nn.InstanceNorm2D(4)(hidden)
            out = F.local_response_norm(hidden, 3, alpha=0.5)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        expected, = exe.run(main, feed={"x": x}, fetch_list=[out])
        paddle.static.save_inference_model(prefix, [data], [out], exe, program=main)
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        types = [op.type for op in program.global_block().ops]
        got, = exe.run(program, feed={feeds[0]: x}, fetch_list=fetches)
    assert {"group_norm", "instance_norm", "lrn"} <= set(types), types
    np.testing.assert_allclose(got, expected, rtol=1e-6)
