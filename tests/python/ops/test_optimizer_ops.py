"""The fused optimizer update ops (_C_ops.sgd_, momentum_, adam_, adamw_) beyond the harness
samples of op_db.py: in-place writes of every declared pair, absent optional outputs,
skip_update, use_global_beta_pow, master weights of 16-bit params, and typed errors."""
import numpy as np
import pytest

import paddle
from paddle import _C_ops

RNG = np.random.RandomState(3)


def t(array, dtype="float64"):
    return paddle.to_tensor(np.asarray(array), dtype=dtype)


def adam_state(shape=(2, 3), dtype="float64", amsgrad=False):
    state = {
        "param": t(RNG.randn(*shape), dtype), "grad": t(RNG.randn(*shape), dtype),
        "lr": t([0.1], dtype), "m1": t(RNG.randn(*shape) * 0.1, dtype),
        "m2": t(RNG.rand(*shape) * 0.1, dtype), "b1p": t([0.9 ** 2], dtype),
        "b2p": t([0.999 ** 2], dtype),
        "m2max": t(RNG.rand(*shape) * 0.2, dtype) if amsgrad else None,
    }
    return state


def adam_args(s):
    return (s["param"], s["grad"], s["lr"], s["m1"], s["m2"], s["m2max"], s["b1p"], s["b2p"])


def np_adam(s, beta1=0.9, beta2=0.999, eps=1e-8, amsgrad=False):
    v = {k: (x.numpy().astype(np.float64) if x is not None else None) for k, x in s.items()}
    lr, b1p, b2p = v["lr"][0], v["b1p"][0], v["b2p"][0]
    m1 = beta1 * v["m1"] + (1 - beta1) * v["grad"]
    m2 = beta2 * v["m2"] + (1 - beta2) * v["grad"] ** 2
    denom = np.maximum(m2, v["m2max"]) if amsgrad else m2
    p = v["param"] - lr * np.sqrt(1 - b2p) / (1 - b1p) * m1 / (np.sqrt(denom) + eps * np.sqrt(1 - b2p))
    return {"param": p, "m1": m1, "m2": m2, "m2max": denom, "b1p": b1p * beta1, "b2p": b2p * beta2}


@pytest.mark.parametrize("amsgrad", [False, True])
def test_inplace_variant_writes_every_pair(amsgrad):
    s = adam_state(amsgrad=amsgrad)
    expected = np_adam(s, amsgrad=amsgrad)
    versions = {k: x.inplace_version for k, x in s.items() if x is not None}
    out = _C_ops.adam_(*adam_args(s), None, None, 0.9, 0.999, 1e-8, False, 1000, False, False,
                       amsgrad)
    assert len(out) == 7
    names = ["param", "m1", "m2", "m2max", "b1p", "b2p"]
    for name, result in zip(names, out):
        if s[name] is None:
            assert result is None
            continue
        np.testing.assert_allclose(s[name].numpy(), expected[name], rtol=1e-12)
        np.testing.assert_allclose(result.numpy(), expected[name], rtol=1e-12)
        assert s[name].inplace_version == versions[name] + 1, name
    assert out[6] is None  # master_param_out: no master_param given
    assert s["grad"].inplace_version == versions["grad"]
    assert s["lr"].inplace_version == versions["lr"]


def test_out_of_place_variant_leaves_its_inputs():
    s = adam_state()
    before = {k: x.numpy().copy() for k, x in s.items() if x is not None}
    expected = np_adam(s)
    out = _C_ops.adam(*adam_args(s), None, None)
    for name, result in zip(["param", "m1", "m2"], out[:3]):
        np.testing.assert_allclose(result.numpy(), expected[name], rtol=1e-12)
        np.testing.assert_array_equal(s[name].numpy(), before[name])
    np.testing.assert_allclose(out[4].numpy(), [expected["b1p"]], rtol=1e-12)
    np.testing.assert_array_equal(s["b1p"].numpy(), before["b1p"])
    assert out[3] is None and out[6] is None


def test_skip_update_keeps_every_value():
    for inplace in (True, False):
        s = adam_state(amsgrad=True)
        before = {k: x.numpy().copy() for k, x in s.items()}
        op = _C_ops.adam_ if inplace else _C_ops.adam
        out = op(*adam_args(s), None, paddle.to_tensor([True]), amsgrad=True)
        for name, result in zip(["param", "m1", "m2", "m2max", "b1p", "b2p"], out):
            np.testing.assert_array_equal(result.numpy(), before[name])


def test_use_global_beta_pow_leaves_the_powers():
    s = adam_state()
    expected = np_adam(s)
    _C_ops.adam_(*adam_args(s), None, None, use_global_beta_pow=True)
    np.testing.assert_allclose(s["param"].numpy(), expected["param"], rtol=1e-12)
    np.testing.assert_allclose(s["b1p"].numpy(), [0.9 ** 2], rtol=1e-15)
    np.testing.assert_allclose(s["b2p"].numpy(), [0.999 ** 2], rtol=1e-15)


def test_moment2_max_without_amsgrad_passes_through():
    s = adam_state(amsgrad=True)
    before = s["m2max"].numpy().copy()
    expected = np_adam(s, amsgrad=False)
    out = _C_ops.adam(*adam_args(s), None, None)
    np.testing.assert_allclose(out[0].numpy(), expected["param"], rtol=1e-12)
    np.testing.assert_array_equal(out[3].numpy(), before)


def test_float16_param_with_float32_master_and_state():
    s = adam_state(dtype="float32")
    master = s["param"]
    param16 = paddle.cast(master, "float16")
    expected = np_adam(s)
    version = master.inplace_version
    out = _C_ops.adam_(param16, paddle.cast(s["grad"], "float16"), s["lr"], s["m1"], s["m2"], None,
                       s["b1p"], s["b2p"], master, None, multi_precision=True)
    assert master.inplace_version == version + 1
    np.testing.assert_array_equal(out[6].numpy(), master.numpy())
    # The master copy is updated at float32 precision from the float16 gradient.
    g16 = paddle.cast(s["grad"], "float16").numpy().astype(np.float64)
    assert np.abs(g16 - s["grad"].numpy()).max() < 1e-2
    np.testing.assert_allclose(master.numpy(), expected["param"], rtol=1e-2, atol=1e-3)
    np.testing.assert_array_equal(param16.numpy(), master.numpy().astype(np.float16))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_16bit_params_with_16bit_state(dtype):
    p = t([1.0, -2.0, 0.5], dtype)
    v = t([0.0, 0.0, 0.0], dtype)
    _C_ops.momentum_(p, t([1.0, 1.0, -1.0], dtype), v, t([0.5], "float32"), None, 0.9)
    np.testing.assert_allclose(p.astype("float32").numpy(), [0.5, -2.5, 1.0])
    np.testing.assert_allclose(v.astype("float32").numpy(), [1.0, 1.0, -1.0])


def test_sgd_master_param():
    master = t([1.0, 2.0], "float32")
    p16 = paddle.cast(master, "float16")
    _C_ops.sgd_(p16, t([0.5], "float32"), t([1.0, -1.0], "float16"), master, True)
    np.testing.assert_array_equal(master.numpy(), [0.5, 2.5])
    np.testing.assert_array_equal(p16.numpy(), np.array([0.5, 2.5], np.float16))


def test_leaf_requiring_grad_is_updated_only_without_grad():
    w = paddle.create_parameter([2], "float64")
    grad, lr = t([1.0, 1.0]), t([0.1])
    with pytest.raises(ValueError, match="leaf"):
        _C_ops.sgd_(w, lr, grad, None)
    before = w.numpy().copy()
    with paddle.no_grad():
        _C_ops.sgd_(w, lr, grad, None)
    np.testing.assert_allclose(w.numpy(), before - 0.1)


@pytest.mark.parametrize("case,error,match", [
    ({"grad": t(np.zeros(3), "float32")}, TypeError, "grad"),
    ({"m1": t(np.zeros(3), "float32")}, TypeError, "moment1"),
    ({"b1p": t([1, 2])}, ValueError, "beta1_pow"),
    ({"lr": t([1], "int64")}, TypeError, "learning_rate"),
])
def test_bad_arguments_raise_naming_the_argument(case, error, match):
    s = adam_state(shape=(3,))
    s.update(case)
    with pytest.raises(error, match=match):
        _C_ops.adam_(*adam_args(s), None, None)


def test_bad_master_param_and_skip_update():
    s = adam_state(shape=(3,), dtype="float32")
    with pytest.raises(TypeError, match="master_param"):
        _C_ops.adam_(*adam_args(s), t(np.zeros(3), "float64"), None)
    with pytest.raises(ValueError, match="skip_update"):
        _C_ops.adam_(*adam_args(s), None, t([1.0], "float32"))


def test_momentum_requires_mu():
    s = adam_state(shape=(3,))
    with pytest.raises(TypeError, match="mu"):
        _C_ops.momentum_(s["param"], s["grad"], s["m1"], s["lr"], None)


def test_optimizer_follows_set_lr():
    w = paddle.create_parameter([2], "float64", default_initializer=paddle.nn.initializer.Constant(1.0))
    opt = paddle.optimizer.SGD(0.1, parameters=[w])
    for lr, expected in ((0.1, 0.9), (0.5, 0.4)):
        opt.set_lr(lr)
        (w * 1.0).sum().backward()
        opt.step()
        opt.clear_grad()
        np.testing.assert_allclose(w.numpy(), [expected, expected], rtol=1e-12)
