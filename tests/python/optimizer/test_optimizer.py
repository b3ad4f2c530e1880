"""Optimizers, gradient clipping and LR schedulers against NumPy re-implementations of Paddle's
update formulas, on a small least-squares problem in float64."""
import math

import numpy as np
import pytest

import paddle
import paddle.nn as nn
import paddle.optimizer as optim
from paddle.nn import initializer as I
from paddle.nn.param_attr import ParamAttr
from paddle.optimizer import lr as lr_sched
from paddle.regularizer import L1Decay, L2Decay
from paddle.utils import unique_name

RNG = np.random.RandomState(7)
X = RNG.randn(8, 3)
Y = RNG.randn(8, 2)
W0 = RNG.randn(3, 2) * 0.5
B0 = RNG.randn(2) * 0.1
STEPS = 5


def np_grads(w, b):
    """Gradients of sum((X w + b - Y)^2) / N."""
    r = X @ w + b - Y
    return 2.0 / len(X) * X.T @ r, 2.0 / len(X) * r.sum(0)


def make_params(weight_attr=None, bias_attr=None):
    w = paddle.create_parameter([3, 2], "float64", attr=weight_attr,
                                default_initializer=I.Assign(W0))
    b = paddle.create_parameter([2], "float64", attr=bias_attr, is_bias=True,
                                default_initializer=I.Assign(B0))
    return w, b


def loss_of(w, b):
    r = paddle.to_tensor(X) @ w + b - paddle.to_tensor(Y)
    return (r * r).sum() / len(X)


def run_paddle(make_optimizer, steps=STEPS, weight_attr=None, bias_attr=None):
    """Trajectory of (w, b) under the optimizer make_optimizer([w, b])."""
    with unique_name.guard():
        w, b = make_params(weight_attr, bias_attr)
        opt = make_optimizer([w, b])
        out = []
        for _ in range(steps):
            loss_of(w, b).backward()
            opt.step()
            opt.clear_grad()
            out.append((w.numpy().copy(), b.numpy().copy()))
    return out


def run_numpy(update, steps=STEPS):
    """Trajectory under update(params, grads, state, t) -> None (updates params in place)."""
    params = [W0.copy(), B0.copy()]
    state = [{}, {}]
    out = []
    for t in range(1, steps + 1):
        grads = np_grads(*params)
        for i in range(2):
            update(params, grads, state, i, t)
        out.append((params[0].copy(), params[1].copy()))
    return out


def assert_same(paddle_traj, numpy_traj, rtol=1e-10, atol=1e-12):
    for (pw, pb), (nw, nb) in zip(paddle_traj, numpy_traj):
        np.testing.assert_allclose(pw, nw, rtol=rtol, atol=atol)
        np.testing.assert_allclose(pb, nb, rtol=rtol, atol=atol)


def test_sgd_with_weight_decay():
    def update(p, g, s, i, t):
        p[i] -= 0.1 * (g[i] + 0.01 * p[i])
    assert_same(run_paddle(lambda ps: optim.SGD(0.1, parameters=ps, weight_decay=0.01)),
                run_numpy(update))


@pytest.mark.parametrize("nesterov", [False, True])
def test_momentum(nesterov):
    lr, mu, wd, rescale = 0.05, 0.9, 0.02, 0.5

    def update(p, g, s, i, t):
        grad = rescale * g[i] + wd * p[i]
        v = s[i]["v"] = mu * s[i].get("v", 0.0) + grad
        p[i] -= lr * (grad + mu * v) if nesterov else lr * v

    assert_same(run_paddle(lambda ps: optim.Momentum(lr, mu, ps, use_nesterov=nesterov,
                                                     weight_decay=wd, rescale_grad=rescale)),
                run_numpy(update))


def _np_adam(lr, b1=0.9, b2=0.999, eps=1e-8, l2=0.0, amsgrad=False):
    def update(p, g, s, i, t):
        grad = g[i] + l2 * p[i]
        m1 = s[i]["m1"] = b1 * s[i].get("m1", 0.0) + (1 - b1) * grad
        m2 = s[i]["m2"] = b2 * s[i].get("m2", 0.0) + (1 - b2) * grad ** 2
        if amsgrad:
            m2 = s[i]["m2max"] = np.maximum(s[i].get("m2max", 0.0), m2)
        lr_t = lr * math.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        p[i] -= lr_t * m1 / (np.sqrt(m2) + eps * math.sqrt(1 - b2 ** t))
    return update


@pytest.mark.parametrize("amsgrad", [False, True])
def test_adam(amsgrad):
    assert_same(run_paddle(lambda ps: optim.Adam(0.1, 0.8, 0.99, 1e-6, parameters=ps,
                                                 weight_decay=0.05, amsgrad=amsgrad)),
                run_numpy(_np_adam(0.1, 0.8, 0.99, 1e-6, l2=0.05, amsgrad=amsgrad)))


def test_adamw_decoupled_decay_selected_params():
    lr, coeff = 0.05, 0.1
    adam = _np_adam(lr)

    def update(p, g, s, i, t):
        if i == 0:  # only the weight is selected for decay
            p[i] *= 1 - lr * coeff
        adam(p, g, s, i, t)

    traj = run_paddle(lambda ps: optim.AdamW(lr, parameters=ps, weight_decay=coeff,
                                             apply_decay_param_fun=lambda n: n.endswith(".w_0")))
    assert_same(traj, run_numpy(update))

    # lr_ratio scales both the step and the decay of a parameter.
    adam_half = _np_adam(lr * 0.5)

    def update_ratio(p, g, s, i, t):
        p[i] *= 1 - lr * 0.5 * coeff
        adam_half(p, g, s, i, t)

    assert_same(run_paddle(lambda ps: optim.AdamW(lr, parameters=ps, weight_decay=coeff,
                                                  lr_ratio=lambda p: 0.5)),
                run_numpy(update_ratio))


def test_parameter_regularizer_and_learning_rate_attrs():
    # The bias's own L1Decay wins over the optimizer's L2 weight decay; the weight trains at
    # half the learning rate.
    def update(p, g, s, i, t):
        if i == 0:
            p[i] -= 0.1 * 0.5 * (g[i] + 0.01 * p[i])
        else:
            p[i] -= 0.1 * (g[i] + 0.3 * np.sign(p[i]))

    traj = run_paddle(lambda ps: optim.SGD(0.1, parameters=ps, weight_decay=L2Decay(0.01)),
                      weight_attr=ParamAttr(learning_rate=0.5),
                      bias_attr=ParamAttr(regularizer=L1Decay(0.3)))
    assert_same(traj, run_numpy(update))


def test_parameter_groups():
    def update(p, g, s, i, t):
        p[i] -= (1.0 if i == 0 else 0.1) * 0.2 * g[i]

    traj = run_paddle(lambda ps: optim.SGD(0.2, parameters=[
        {"params": [ps[0]]}, {"params": [ps[1]], "learning_rate": 0.1}]))
    assert_same(traj, run_numpy(update))

    # Adam hyperparameters per group.
    adam_w, adam_b = _np_adam(0.1), _np_adam(0.1, b1=0.5)

    def update_adam(p, g, s, i, t):
        (adam_w if i == 0 else adam_b)(p, g, s, i, t)

    traj = run_paddle(lambda ps: optim.Adam(0.1, parameters=[
        {"params": [ps[0]]}, {"params": [ps[1]], "beta1": 0.5}]))
    assert_same(traj, run_numpy(update_adam))


def test_clip_grad_by_global_norm_skips_need_clip_false():
    clip_norm = 0.3

    def update(p, g, s, i, t):
        if i == 0:
            norm = np.sqrt((g[0] ** 2).sum())  # the bias does not count: need_clip=False
            p[0] -= 0.5 * g[0] * clip_norm / max(norm, clip_norm)
        else:
            p[1] -= 0.5 * g[1]

    traj = run_paddle(lambda ps: optim.SGD(0.5, parameters=ps,
                                           grad_clip=nn.ClipGradByGlobalNorm(clip_norm)),
                      bias_attr=ParamAttr(need_clip=False))
    assert_same(traj, run_numpy(update))

    def update_all(p, g, s, i, t):
        norm = np.sqrt(sum((gi ** 2).sum() for gi in g))
        p[i] -= 0.5 * g[i] * clip_norm / max(norm, clip_norm)

    traj = run_paddle(lambda ps: optim.SGD(0.5, parameters=ps,
                                           grad_clip=nn.ClipGradByGlobalNorm(clip_norm)))
    assert_same(traj, run_numpy(update_all))


def test_clip_by_norm_and_value():
    def update_norm(p, g, s, i, t):
        norm = np.sqrt((g[i] ** 2).sum())
        p[i] -= 0.5 * g[i] * 0.2 / max(norm, 0.2)

    assert_same(run_paddle(lambda ps: optim.SGD(0.5, parameters=ps,
                                                grad_clip=nn.ClipGradByNorm(0.2))),
                run_numpy(update_norm))

    def update_value(p, g, s, i, t):
        p[i] -= 0.5 * np.clip(g[i], -0.1, 0.05)

    assert_same(run_paddle(lambda ps: optim.SGD(0.5, parameters=ps,
                                                grad_clip=nn.ClipGradByValue(0.05, -0.1))),
                run_numpy(update_value))


def test_minimize_applies_existing_gradients():
    with unique_name.guard():
        w, b = make_params()
        opt = optim.SGD(0.1, parameters=[w, b])
        loss = loss_of(w, b)
        loss.backward()
        _, params_grads = opt.minimize(loss)
    gw, gb = np_grads(W0, B0)
    assert len(params_grads) == 2
    np.testing.assert_allclose(w.numpy(), W0 - 0.1 * gw, rtol=1e-12)
    np.testing.assert_allclose(b.numpy(), B0 - 0.1 * gb, rtol=1e-12)


def test_scheduler_drives_learning_rate():
    sched = lr_sched.StepDecay(0.1, step_size=2, gamma=0.5)
    rates = []

    def make(ps):
        return optim.SGD(sched, parameters=ps)

    def update(p, g, s, i, t):
        p[i] -= 0.1 * 0.5 ** ((t - 1) // 2) * g[i]

    with unique_name.guard():
        w, b = make_params()
        opt = make([w, b])
        traj = []
        for _ in range(STEPS):
            rates.append(opt.get_lr())
            loss_of(w, b).backward()
            opt.step()
            opt.clear_grad()
            sched.step()
            traj.append((w.numpy().copy(), b.numpy().copy()))
    assert rates == pytest.approx([0.1, 0.1, 0.05, 0.05, 0.025])
    assert_same(traj, run_numpy(update))
    with pytest.raises(RuntimeError):
        opt.set_lr(0.3)


def _values(scheduler, n=8):
    out = []
    for _ in range(n):
        out.append(scheduler())
        scheduler.step()
    return out


def test_lr_scheduler_values():
    approx = pytest.approx
    assert _values(lr_sched.StepDecay(0.5, 2, 0.1), 6) == approx(
        [0.5, 0.5, 0.05, 0.05, 0.005, 0.005])
    assert _values(lr_sched.MultiStepDecay(1.0, [2, 4], 0.5), 6) == approx(
        [1, 1, 0.5, 0.5, 0.25, 0.25])
    assert _values(lr_sched.ExponentialDecay(1.0, 0.9), 4) == approx([1, 0.9, 0.81, 0.729])
    assert _values(lr_sched.PiecewiseDecay([2, 4], [1.0, 0.5, 0.1]), 6) == approx(
        [1, 1, 0.5, 0.5, 0.1, 0.1])
    assert _values(lr_sched.LambdaDecay(2.0, lambda e: 0.5 ** e), 3) == approx([2, 1, 0.5])
    assert _values(lr_sched.NaturalExpDecay(1.0, 0.5), 3) == approx(
        [1, math.exp(-0.5), math.exp(-1)])
    assert _values(lr_sched.InverseTimeDecay(1.0, 0.5), 3) == approx([1, 1 / 1.5, 0.5])
    assert _values(lr_sched.PolynomialDecay(1.0, 4, end_lr=0.0, power=1.0), 6) == approx(
        [1, 0.75, 0.5, 0.25, 0, 0])
    assert _values(lr_sched.MultiplicativeDecay(1.0, lambda e: 0.5), 3) == approx(
        [1, 0.5, 0.25])
    cosine = _values(lr_sched.CosineAnnealingDecay(1.0, T_max=4, eta_min=0.1), 5)
    assert cosine == approx([0.1 + 0.9 * (1 + math.cos(math.pi * e / 4)) / 2
                             for e in range(5)])
    assert _values(lr_sched.LinearWarmup(0.5, 4, 0.0, 0.5), 6) == approx(
        [0, 0.125, 0.25, 0.375, 0.5, 0.5])
    warm = lr_sched.LinearWarmup(lr_sched.StepDecay(0.5, 1, 0.5), 2, 0.0, 0.5)
    assert _values(warm, 5) == approx([0, 0.25, 0.5, 0.25, 0.125])
    noam = lr_sched.NoamDecay(d_model=16, warmup_steps=2)
    assert _values(noam, 4) == approx([0.0, 16 ** -0.5 * 2 ** -1.5, 16 ** -0.5 * 2 ** -0.5,
                                       16 ** -0.5 * 3 ** -0.5])


def test_reduce_on_plateau():
    sched = lr_sched.ReduceOnPlateau(1.0, patience=1, factor=0.5)
    for metric in (1.0, 0.5, 0.6, 0.7, 0.7, 0.7):
        sched.step(paddle.to_tensor(metric))
    assert sched() == pytest.approx(0.25)
    assert sched.state_dict()["best"] == pytest.approx(0.5)


def test_scheduler_state_dict_round_trip():
    sched = lr_sched.LinearWarmup(lr_sched.CosineAnnealingDecay(0.5, 10), 3, 0.0, 0.5)
    for _ in range(6):
        sched.step()
    state = sched.state_dict()
    assert state["last_epoch"] == 6 and "LinearWarmup_LR" in state
    fresh = lr_sched.LinearWarmup(lr_sched.CosineAnnealingDecay(0.5, 10), 3, 0.0, 0.5)
    fresh.set_state_dict(state)
    assert _values(fresh, 3) == pytest.approx(_values(sched, 3))


def test_optimizer_state_dict_round_trip():
    def build():
        w, b = make_params()
        sched = lr_sched.ExponentialDecay(0.1, 0.9)
        return w, b, sched, optim.Adam(sched, parameters=[w, b])

    def train(w, b, sched, opt, steps):
        for _ in range(steps):
            loss_of(w, b).backward()
            opt.step()
            opt.clear_grad()
            sched.step()

    with unique_name.guard():
        w, b, sched, opt = build()
        train(w, b, sched, opt, 3)
        state = opt.state_dict()
    assert sorted(k for k in state if k != "LR_Scheduler") == sorted(
        f"{p}_{acc}_0" for p in ("create_parameter_0.w_0", "create_parameter_1.b_0")
        for acc in ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc"))
    assert state["LR_Scheduler"] == {"last_epoch": 3, "last_lr": pytest.approx(0.1 * 0.9 ** 3)}
    np.testing.assert_allclose(state["create_parameter_0.w_0_beta1_pow_acc_0"].numpy(),
                               [0.9 ** 4])
    saved = {k: (v.numpy().copy() if hasattr(v, "numpy") else dict(v)) for k, v in state.items()}

    # A fresh process would name everything the same way; unique_name.guard() does it here.
    with unique_name.guard():
        w2, b2, sched2, opt2 = build()
        w2.set_value(w.numpy())
        b2.set_value(b.numpy())
        opt2.set_state_dict(saved)  # before the accumulators exist: applied at first step
        assert sched2.last_epoch == 3
        train(w, b, sched, opt, 2)
        train(w2, b2, sched2, opt2, 2)
    np.testing.assert_allclose(w2.numpy(), w.numpy(), rtol=1e-12)
    np.testing.assert_allclose(b2.numpy(), b.numpy(), rtol=1e-12)
    # After the accumulators exist, set_state_dict writes into them in place.
    moment = opt2._accumulators["moment1"][w2.name]
    opt2.set_state_dict(saved)
    np.testing.assert_allclose(moment.numpy(), saved["create_parameter_0.w_0_moment1_0"])


def test_optimizer_argument_errors():
    w = paddle.create_parameter([2], "float32")
    with pytest.raises(AttributeError):
        optim.SGD(0.1)
    with pytest.raises(TypeError):
        optim.SGD(0.1, parameters=w)
    with pytest.raises(TypeError):
        optim.SGD("0.1", parameters=[w])
    with pytest.raises(TypeError):
        optim.SGD(0.1, parameters=[w], grad_clip=1.0)
    with pytest.raises(ValueError):
        optim.Adam(0.1, beta1=1.5, parameters=[w])
    opt = optim.Adam(0.1, parameters=[w])
    opt.set_lr(0.5)
    assert opt.get_lr() == 0.5


def test_clear_grad_and_frozen_parameters():
    with unique_name.guard():
        w, b = make_params(bias_attr=ParamAttr(trainable=False))
        opt = optim.SGD(0.1, parameters=[w, b])
        loss_of(w, b).backward()
        assert b.grad is None
        opt.step()
        np.testing.assert_array_equal(b.numpy(), B0)  # frozen
        opt.clear_grad()
        np.testing.assert_array_equal(w.grad.numpy(), np.zeros([3, 2]))
        opt.clear_grad(set_to_zero=False)
        assert w.grad is None


def test_group_weight_decay_replaces_parameter_regularizer():
    # As in Paddle, a group's weight_decay (by default the optimizer's) is what regularizes
    # its parameters, even one that has a ParamAttr regularizer.
    def update(p, g, s, i, t):
        p[i] -= 0.1 * (g[i] + (0.5 if i == 0 else 0.01) * p[i])

    traj = run_paddle(lambda ps: optim.SGD(0.1, weight_decay=0.01, parameters=[
        {"params": [ps[0]], "weight_decay": 0.5}, {"params": [ps[1]]}]),
        bias_attr=ParamAttr(regularizer=L1Decay(0.3)))
    assert_same(traj, run_numpy(update))

    # AdamW: a group's weight_decay is its decoupled coefficient.
    adam = _np_adam(0.05)

    def update_adamw(p, g, s, i, t):
        if i == 1:
            p[i] *= 1 - 0.05 * 0.1
        adam(p, g, s, i, t)

    traj = run_paddle(lambda ps: optim.AdamW(0.05, weight_decay=0.1, parameters=[
        {"params": [ps[0]], "weight_decay": 0.0}, {"params": [ps[1]]}]))
    assert_same(traj, run_numpy(update_adamw))


def test_plain_tensors_as_parameters():
    a = paddle.to_tensor([1.0, -2.0], stop_gradient=False)
    b = paddle.to_tensor([3.0], stop_gradient=False)
    opt = optim.Adam(0.1, parameters=[a, b])
    (a.sum() + b.sum()).backward()
    opt.step()
    assert a.name and b.name and a.name != b.name  # accumulators are keyed by name
    assert len(opt.state_dict()) == 8
    # Adam's first step moves each element by lr against the sign of its gradient.
    np.testing.assert_allclose(a.numpy(), [0.9, -2.1], rtol=1e-6)
    np.testing.assert_allclose(b.numpy(), [2.9], rtol=1e-6)
