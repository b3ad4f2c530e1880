"""paddle.amp.GradScaler (through check_finite_and_unscale and update_loss_scaling) and
paddle.amp.decorate, on the CPU."""
import warnings

import numpy as np
import pytest

import paddle


def _model_and_opt(opt_class=paddle.optimizer.SGD):
    paddle.seed(11)
    model = paddle.nn.Linear(3, 2)
    return model, opt_class(0.1, parameters=model.parameters())


def _backward(scaler, model, scale_inputs=1.0):
    x = paddle.full([4, 3], scale_inputs)
    with paddle.amp.auto_cast(dtype="float16"):
        loss = model(x).mean()
    scaler.scale(loss).backward()
    return loss


def test_scale_multiplies_and_step_unscales():
    model, opt = _model_and_opt()
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0)
    w0 = model.weight.numpy().copy()
    _backward(scaler, model)
    scaled_grad = model.weight.grad.numpy().copy()
    np.testing.assert_allclose(scaled_grad, np.full((3, 2), 1024.0 / 2), rtol=1e-3)
    scaler.step(opt)
    scaler.update()
    # The step used the unscaled gradient, 1/2 per weight.
    np.testing.assert_allclose(model.weight.numpy(), w0 - 0.1 * 0.5, rtol=1e-5)
    np.testing.assert_allclose(model.weight.grad.numpy(), np.full((3, 2), 0.5), rtol=1e-3)


def test_an_inf_gradient_skips_the_step_and_shrinks_the_scale():
    model, opt = _model_and_opt()
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0, decr_every_n_nan_or_inf=2)
    w0 = model.weight.numpy().copy()
    for expected_scale in (1024.0, 512.0):
        _backward(scaler, model, scale_inputs=np.inf)
        scaler.step(opt)
        scaler.update()
        opt.clear_grad()
        np.testing.assert_array_equal(model.weight.numpy(), w0)  # skipped
        assert scaler.state_dict()["scale"][0] == expected_scale
    assert scaler.state_dict()["decr_count"] == 0


def test_the_scale_grows_after_incr_every_n_finite_steps():
    model, opt = _model_and_opt()
    scaler = paddle.amp.GradScaler(init_loss_scaling=8.0, incr_every_n_steps=3, incr_ratio=4.0)
    scales = []
    for _ in range(4):
        _backward(scaler, model)
        scaler.step(opt)
        scaler.update()
        opt.clear_grad()
        scales.append(float(scaler.state_dict()["scale"][0]))
    assert scales == [8.0, 8.0, 32.0, 32.0]
    assert scaler.state_dict()["incr_count"] == 1


def test_minimize_and_state_dict_round_trip():
    model, opt = _model_and_opt(paddle.optimizer.Adam)
    scaler = paddle.amp.GradScaler(init_loss_scaling=256.0, incr_every_n_steps=2)
    loss = _backward(scaler, model)
    scaler.minimize(opt, scaler.scale(loss))
    state = scaler.state_dict()
    assert sorted(state) == sorted(["scale", "incr_ratio", "decr_ratio", "incr_every_n_steps",
                                    "decr_every_n_nan_or_inf", "incr_count", "decr_count",
                                    "use_dynamic_loss_scaling"])
    assert state["incr_count"] == 1
    other = paddle.amp.GradScaler()
    other.load_state_dict(state)
    assert other.state_dict()["scale"][0] == 256.0
    assert other.get_incr_every_n_steps() == 2
    assert other.state_dict()["incr_count"] == 1
    with pytest.raises(RuntimeError, match="empty"):
        other.load_state_dict({})


def test_unscale_then_step_and_the_order_errors():
    model, opt = _model_and_opt()
    scaler = paddle.amp.GradScaler(init_loss_scaling=64.0)
    _backward(scaler, model)
    scaler.unscale_(opt)
    np.testing.assert_allclose(model.weight.grad.numpy(), np.full((3, 2), 0.5), rtol=1e-3)
    with pytest.raises(RuntimeError, match="unscale_"):
        scaler.unscale_(opt)
    scaler.step(opt)  # does not unscale again
    np.testing.assert_allclose(model.weight.grad.numpy(), np.full((3, 2), 0.5), rtol=1e-3)
    with pytest.raises(RuntimeError, match="step"):
        scaler.step(opt)
    scaler.update()


def test_disabled_and_bfloat16_scalers_pass_through():
    model, opt = _model_and_opt()
    disabled = paddle.amp.GradScaler(enable=False)
    loss = paddle.to_tensor([2.0])
    assert disabled.scale(loss) is loss
    assert disabled.state_dict() == {}
    scaler = paddle.amp.GradScaler()
    with paddle.amp.auto_cast(dtype="bfloat16"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert scaler.scale(loss) is loss
    assert not scaler.is_enable()
    assert any("bfloat16" in str(w.message) for w in caught)


@pytest.mark.parametrize("kwargs,word", [(dict(incr_ratio=0.5), "incr_ratio"),
                                         (dict(decr_ratio=1.5), "decr_ratio"),
                                         (dict(incr_every_n_steps=0), "incr_every_n_steps"),
                                         (dict(init_loss_scaling=-1.0), "init_loss_scaling")])
def test_bad_scaler_arguments(kwargs, word):
    with pytest.raises(ValueError, match=word):
        paddle.amp.GradScaler(**kwargs)


def test_decorate_o2_casts_all_but_norm_layers_and_keeps_master_weights():
    paddle.seed(2)
    model = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.LayerNorm(8),
                                 paddle.nn.Linear(8, 2))
    opt = paddle.optimizer.AdamW(0.01, parameters=model.parameters())
    w_fp32 = model[0].weight.numpy().copy()
    model, opt = paddle.amp.decorate(model, opt, level="O2", dtype="bfloat16",
                                     save_dtype="float32")
    assert model[0].weight.dtype == paddle.bfloat16
    assert model[1].weight.dtype == paddle.float32
    x = paddle.randn([16, 4])
    for _ in range(3):
        with paddle.amp.auto_cast(level="O2", dtype="bfloat16"):
            loss = model(x).astype("float32").pow(2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
    state = opt.state_dict()
    master = state["master_weights"][model[0].weight.name]
    assert master.dtype == paddle.float32
    # The parameter is its master weight rounded, and the master moved off the start.
    np.testing.assert_array_equal(model[0].weight.astype("float32").numpy(),
                                  master.astype("bfloat16").astype("float32").numpy())
    assert not np.allclose(master.numpy(), w_fp32)
    moment = state[[k for k in state if k.startswith(model[0].weight.name + "_moment1")][0]]
    assert moment.dtype == paddle.float32
    assert all(v.dtype == paddle.float32 for v in model.state_dict().values())  # save_dtype


def test_decorate_o1_changes_nothing_and_checks_its_arguments():
    model = paddle.nn.Linear(2, 2)
    assert paddle.amp.decorate(model, level="O1") is model
    assert model.weight.dtype == paddle.float32
    with pytest.raises(TypeError, match="Layer"):
        paddle.amp.decorate("model", level="O2")
    with pytest.raises(ValueError, match="level"):
        paddle.amp.decorate(model, level="O5")
    with pytest.raises(ValueError, match="save_dtype"):
        paddle.amp.decorate(model, level="O2", save_dtype="int8")
