"""Harness entries of the ops BuildStrategy's passes write (paddle.static.CompiledProgram):
merged_momentum and merged_adam, checked against the single-param NumPy updates of op_db, and
fused_elemwise_add_activation against fused_elemwise_activation's reference, with its
gradient."""
import numpy as np

import paddle
from harness import ErrorSample, OpInfo, Sample
from op_db import np_adam, np_fused_elemwise_activation, np_momentum, uniform


# The harness feeds top-level arrays: the shared learning rate comes first, then each param's
# arrays in a group of `width`.
def _groups(arrays, width):
    return [list(arrays[i:i + width]) for i in range(0, len(arrays), width)]


def np_merged_momentum(learning_rate, *tensors, mu, regularization_method=(),
                       regularization_coeff=(), **kwargs):
    params, velocities = [], []
    for i, (param, grad, velocity) in enumerate(_groups(tensors, 3)):
        method = regularization_method[i] if regularization_method else ""
        coeff = regularization_coeff[i] if regularization_coeff else 0.0
        p, v = np_momentum(param, grad, velocity, learning_rate, mu=mu,
                           regularization_method=method, regularization_coeff=coeff, **kwargs)
        params.append(p)
        velocities.append(v)
    return params + velocities


def merged_momentum_api(learning_rate, *tensors, mu, **kwargs):
    params, grads, velocities = zip(*_groups(tensors, 3)) if tensors else ((), (), ())
    param_out, velocity_out, _ = paddle._C_ops.merged_momentum(
        list(params), list(grads), list(velocities), [learning_rate], [], mu, **kwargs)
    return list(param_out) + list(velocity_out)


def np_merged_adam(learning_rate, *tensors, use_global_beta_pow=False, **kwargs):
    outputs = [[] for _ in range(5)]
    for param, grad, moment1, moment2, beta1_pow, beta2_pow in _groups(tensors, 6):
        results = np_adam(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow,
                          **kwargs)
        if use_global_beta_pow:  # the powers are advanced elsewhere, once per step
            results[3:5] = [beta1_pow, beta2_pow]
        for collected, value in zip(outputs, results):
            collected.append(value)
    return [value for collected in outputs for value in collected]


def merged_adam_api(learning_rate, *tensors, **kwargs):
    columns = [list(c) for c in zip(*_groups(tensors, 6))]
    params, grads, moment1, moment2, beta1_pow, beta2_pow = columns
    outputs = paddle._C_ops.merged_adam(params, grads, [learning_rate] * len(params), moment1,
                                        moment2, beta1_pow, beta2_pow, [], **kwargs)
    return [value for collected in outputs[:5] for value in collected]


def _momentum_group(rng, shape):
    return [uniform(rng, shape), uniform(rng, shape), uniform(rng, shape)]


def _merged_momentum_samples(rng):
    return [
        Sample([np.array([0.1])] + _momentum_group(rng, (3, 4)) + _momentum_group(rng, (5,)),
               {"mu": 0.9}),
        Sample([np.array([0.05])] + _momentum_group(rng, (2, 3)) + _momentum_group(rng, ())
               + _momentum_group(rng, (4,)),
               {"mu": 0.8, "use_nesterov": True, "rescale_grad": 0.5,
                "regularization_method": ["l2_decay", "", "l2_decay"],
                "regularization_coeff": [0.01, 0.5, 0.1]}),
        Sample([np.array([0.1])] + _momentum_group(rng, (2, 0)), {"mu": 0.9})]


def _merged_momentum_errors():
    group = [np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 3))]
    bad_velocity = [np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((3,))]
    return [ErrorSample([np.array([0.1])] + group + bad_velocity, {"mu": 0.9}, ValueError,
                        "velocity"),
            ErrorSample([np.array([0.1])] + group + group,
                        {"mu": 0.9, "regularization_method": ["l2_decay"]}, ValueError,
                        "regularization_method")]


def _adam_group(rng, shape, step):
    return [uniform(rng, shape), uniform(rng, shape), uniform(rng, shape),
            uniform(rng, shape, 0.0, 1.0), np.array([0.9 ** step]), np.array([0.999 ** step])]


def _merged_adam_samples(rng):
    return [
        Sample([np.array([0.05])] + _adam_group(rng, (3, 4), 3) + _adam_group(rng, (6,), 1)),
        Sample([np.array([0.01])] + _adam_group(rng, (2, 3), 2) + _adam_group(rng, (), 5)
               + _adam_group(rng, (4,), 2),
               {"beta1": 0.8, "beta2": 0.99, "epsilon": 1e-6}),
        Sample([np.array([0.05])] + _adam_group(rng, (2, 2), 4),
               {"use_global_beta_pow": True})]


def _merged_adam_errors():
    ok = [np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 3)),
          np.array([0.9]), np.array([0.999])]
    bad_moment = list(ok)
    bad_moment[2] = np.zeros((3, 2))
    bad_pow = list(ok)
    bad_pow[4] = np.array([0.9, 0.9])
    return [ErrorSample([np.array([0.1])] + ok + bad_moment, {}, ValueError, "moment1"),
            ErrorSample([np.array([0.1])] + bad_pow, {}, ValueError, "beta1_pow")]


def _fused_add_act_samples(rng):
    # Inputs away from relu's kink, where the numeric gradient is exact.
    def away_from_zero(shape):
        values = uniform(rng, shape, 0.2, 1.0)
        return values * np.where(rng.random(shape) < 0.5, -1.0, 1.0)
    return [
        Sample([uniform(rng, (2, 3, 4)), away_from_zero((4,)) * 0.1,
                ["relu", "elementwise_add"], -1, 0.0, True]),
        Sample([uniform(rng, (3, 4)), uniform(rng, (3, 4)), ["tanh", "elementwise_add"], -1,
                0.0, False]),
        Sample([uniform(rng, (2, 3, 4)), uniform(rng, (3,)), ["sigmoid", "elementwise_add"], 1,
                0.0, True]),
        Sample([uniform(rng, (4, 3)), away_from_zero((3,)), ["elementwise_add", "relu"], -1,
                0.0, True]),
        Sample([uniform(rng, (2, 3)), uniform(rng, (2, 3)), ["elementwise_add", "tanh"], -1,
                0.0, False]),
        Sample([uniform(rng, (4, 2)), uniform(rng, (1, 2)), ["scale", "elementwise_add"], -1,
                0.5, False]),
        Sample([uniform(rng, (2, 5)), uniform(rng, (5,)), ["elementwise_add", "sigmoid"], -1,
                0.0, True])]


def _fused_add_act_errors():
    return [ErrorSample([np.zeros((2, 3)), np.zeros((2, 3)), ["relu", "elementwise_mul"], -1,
                         0.0, False], {}, ValueError, "functor_list"),
            ErrorSample([np.zeros((2, 3)), np.zeros((4,)), ["relu", "elementwise_add"], 1, 0.0,
                         False], {}, ValueError, "broadcast")]


COMPILED_OPS = [
    OpInfo("fused_elemwise_add_activation", paddle._C_ops.fused_elemwise_add_activation,
           lambda *a: np_fused_elemwise_activation(*a), _fused_add_act_samples,
           errors=_fused_add_act_errors),
    OpInfo("merged_momentum", merged_momentum_api, np_merged_momentum, _merged_momentum_samples,
           grad=False, errors=_merged_momentum_errors),
    OpInfo("merged_adam", merged_adam_api, np_merged_adam, _merged_adam_samples, grad=False,
           errors=_merged_adam_errors),
]
