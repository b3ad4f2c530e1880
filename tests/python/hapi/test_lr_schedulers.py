"""The learning-rate schedulers against PaddlePaddle 3.3.1's values (recorded by
tools/record_paddle_hapi.py) and closed forms, and their argument checks."""
import json
import math
import os

import numpy as np
import pytest

import paddle
from hapi_cases import JUMP_EPOCHS, lr_cases, run_lr, run_lr_epochs

REFERENCE = json.load(open(os.path.join(os.path.dirname(__file__),
                                        "paddle_hapi_reference.json")))
lr = paddle.optimizer.lr


@pytest.mark.parametrize("name", sorted(lr_cases(paddle)))
def test_schedule_matches_paddle(name):
    build = lr_cases(paddle)[name]
    np.testing.assert_allclose(run_lr(build()), REFERENCE["lr"][name], rtol=1e-12, atol=1e-15)
    if name in REFERENCE["lr_epochs"]:
        np.testing.assert_allclose(run_lr_epochs(build(), JUMP_EPOCHS),
                                   REFERENCE["lr_epochs"][name], rtol=1e-12, atol=1e-15)


def test_every_paddle_scheduler_is_exported():
    expected = {"LRScheduler", "NoamDecay", "PiecewiseDecay", "NaturalExpDecay",
                "InverseTimeDecay", "PolynomialDecay", "LinearWarmup", "ExponentialDecay",
                "MultiStepDecay", "StepDecay", "LambdaDecay", "ReduceOnPlateau",
                "CosineAnnealingDecay", "MultiplicativeDecay", "OneCycleLR", "CyclicLR",
                "LinearLR", "CosineAnnealingWarmRestarts"}
    assert set(lr.__all__) == expected
    assert all(hasattr(lr, name) for name in expected)


def test_one_cycle_closed_form():
    scheduler = lr.OneCycleLR(max_learning_rate=0.1, total_steps=10, phase_pct=0.5,
                              anneal_strategy="linear", end_learning_rate=0.0)
    values = run_lr(scheduler, 10)
    # Rises from 0.1 / 25 to 0.1 over steps 0..4, then falls to 0 over steps 4..9.
    rise = np.linspace(0.004, 0.1, 5)
    fall = np.linspace(0.1, 0.0, 6)
    np.testing.assert_allclose(values, np.concatenate([rise, fall[1:]]), rtol=1e-12, atol=1e-15)


def test_cyclic_triangular_closed_form():
    values = run_lr(lr.CyclicLR(0.0, 1.0, step_size_up=2), 9)
    np.testing.assert_allclose(values, [0, 0.5, 1, 0.5, 0, 0.5, 1, 0.5, 0], atol=1e-15)


def test_warm_restarts_closed_form():
    values = run_lr(lr.CosineAnnealingWarmRestarts(1.0, T_0=4), 8)
    period = [(1 + math.cos(math.pi * t / 4)) / 2 for t in range(4)]
    np.testing.assert_allclose(values, period * 2, rtol=1e-12)


def test_linear_lr_reaches_end_factor_and_stays():
    values = run_lr(lr.LinearLR(0.3, total_steps=4, start_factor=0.5, end_factor=1.0), 7)
    np.testing.assert_allclose(values, [0.15, 0.1875, 0.225, 0.2625, 0.3, 0.3, 0.3], rtol=1e-12)


def test_scheduler_drives_an_optimizer():
    linear = paddle.nn.Linear(2, 1)
    scheduler = lr.CyclicLR(0.01, 0.1, step_size_up=2)
    optimizer = paddle.optimizer.SGD(scheduler, parameters=linear.parameters())
    seen = []
    for _ in range(4):
        seen.append(optimizer.get_lr())
        scheduler.step()
    np.testing.assert_allclose(seen, [0.01, 0.055, 0.1, 0.055], rtol=1e-12)


def test_state_dict_round_trip():
    scheduler = lr.CosineAnnealingWarmRestarts(0.5, T_0=3)
    run_lr(scheduler, 5)
    restored = lr.CosineAnnealingWarmRestarts(0.5, T_0=3)
    restored.set_state_dict(scheduler.state_dict())
    assert restored.last_epoch == scheduler.last_epoch
    assert restored() == scheduler()


@pytest.mark.parametrize("make, error, words", [
    (lambda: lr.OneCycleLR("1", 10), TypeError, "max_learning_rate"),
    (lambda: lr.OneCycleLR(1.0, 0), ValueError, "total_steps"),
    (lambda: lr.OneCycleLR(1.0, 10, phase_pct=1), TypeError, "phase_pct"),
    (lambda: lr.OneCycleLR(1.0, 10, phase_pct=0.6, three_phase=True), ValueError, "phase_pct"),
    (lambda: lr.OneCycleLR(1.0, 10, anneal_strategy="exp"), ValueError, "anneal_strategy"),
    (lambda: lr.CyclicLR(0.1, 1.0, step_size_up=0), ValueError, "step_size_up"),
    (lambda: lr.CyclicLR(0.1, 1.0, 2, step_size_down=1.5), TypeError, "step_size_down"),
    (lambda: lr.CyclicLR(0.1, 1.0, 2, mode="sine"), ValueError, "mode"),
    (lambda: lr.CyclicLR(0.1, 1.0, 2, exp_gamma=1), TypeError, "exp_gamma"),
    (lambda: lr.CyclicLR(0.1, 1.0, 2, scale_mode="epoch"), ValueError, "scale_mode"),
    (lambda: lr.LinearLR(0.1, 10, start_factor=0), ValueError, "start_factor"),
    (lambda: lr.LinearLR(0.1, 10, end_factor=2), ValueError, "end_factor"),
    (lambda: lr.LinearLR(0.1, 0), ValueError, "total_steps"),
    (lambda: lr.CosineAnnealingWarmRestarts(0.1, T_0=0), ValueError, "T_0"),
    (lambda: lr.CosineAnnealingWarmRestarts(0.1, T_0=2, T_mult=0), ValueError, "T_mult"),
])
def test_bad_arguments(make, error, words):
    with pytest.raises(error, match=words):
        make()


def test_one_cycle_past_total_steps():
    scheduler = lr.OneCycleLR(1.0, total_steps=2)
    scheduler.step()
    scheduler.step()
    with pytest.raises(ValueError, match="total_steps"):
        scheduler.step()


def test_warm_restarts_negative_epoch():
    with pytest.raises(ValueError, match="epoch"):
        lr.CosineAnnealingWarmRestarts(0.1, T_0=2).step(-1)
