"""Harness entries (op_db.py) of the update ops of Adadelta, Adamax, RMSProp, Lamb, NAdam, RAdam,
ASGD and Rprop (optimizer_extra.yaml), each called in place as its optimizer calls it. The NumPy
references were checked against PaddlePaddle 3.3.1's kernels (its float attributes aside);
tests/python/optimizer/test_more_optimizers.py checks whole optimizers against the wheel."""
import numpy as np

import paddle
from harness import ErrorSample, OpInfo, Sample
from op_db import uniform


def _scalar(x):
    return np.asarray(x).reshape(-1)[0]


def _present(outputs):
    return [o for o in outputs if o is not None]


def np_adadelta(param, grad, avg_squared_grad, avg_squared_update, learning_rate, rho=0.95,
                epsilon=1e-6):
    eg = rho * avg_squared_grad + (1 - rho) * grad * grad
    update = -np.sqrt((avg_squared_update + epsilon) / (eg + epsilon)) * grad
    eu = rho * avg_squared_update + (1 - rho) * update * update
    return [param + _scalar(learning_rate) * update, eg, eu]


def np_adamax(param, grad, learning_rate, moment, inf_norm, beta1_pow, beta1=0.9, beta2=0.999,
              epsilon=1e-8):
    m = beta1 * moment + (1 - beta1) * grad
    n = np.maximum(beta2 * inf_norm + epsilon, np.abs(grad))
    lr = _scalar(learning_rate) / (1 - _scalar(beta1_pow))
    return [param - lr * m / n, m, n]


def np_rmsprop(param, mean_square, grad, moment, learning_rate, mean_grad=None, epsilon=1e-10,
               decay=0.9, momentum=0.0, centered=False):
    ms = decay * mean_square + (1 - decay) * grad * grad
    denom = ms + epsilon
    outputs = []
    if centered:
        mg = decay * mean_grad + (1 - decay) * grad
        denom = denom - mg * mg
        outputs = [mg]
    mom = momentum * moment + _scalar(learning_rate) * grad / np.sqrt(denom)
    return [param - mom, mom, ms] + outputs


def np_lamb(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow,
            weight_decay=0.01, beta1=0.9, beta2=0.999, epsilon=1e-6, always_adapt=False):
    m1 = beta1 * moment1 + (1 - beta1) * grad
    m2 = beta2 * moment2 + (1 - beta2) * grad * grad
    r = ((m1 / (1 - _scalar(beta1_pow))) / (np.sqrt(m2 / (1 - _scalar(beta2_pow))) + epsilon)
         + weight_decay * param)
    p_norm, r_norm = np.linalg.norm(param), np.linalg.norm(r)
    adapt = p_norm > 0 and r_norm > 0 and (weight_decay != 0 or always_adapt)
    ratio = p_norm / r_norm if adapt else 1.0
    return [param - _scalar(learning_rate) * ratio * r, m1, m2, beta1_pow * beta1,
            beta2_pow * beta2]


def np_nadam(param, grad, learning_rate, momentum_decay_pow, beta2_pow, mu_product, moment1,
             moment2, beta1=0.9, beta2=0.999, epsilon=1e-8, momentum_decay=0.004):
    decay_pow = momentum_decay_pow * 0.96
    b2_pow = beta2_pow * beta2
    mu = beta1 * (1 - 0.5 * decay_pow ** momentum_decay)
    mu_next = beta1 * (1 - 0.5 * (decay_pow * 0.96) ** momentum_decay)
    mu_prod = mu_product * mu
    m1 = beta1 * moment1 + (1 - beta1) * grad
    m2 = beta2 * moment2 + (1 - beta2) * grad * grad
    m_hat = mu_next * m1 / (1 - mu_prod * mu_next) + (1 - mu) * grad / (1 - mu_prod)
    v_hat = m2 / (1 - b2_pow)
    param = param - _scalar(learning_rate) * m_hat / (np.sqrt(v_hat) + epsilon)
    return [param, decay_pow, b2_pow, mu_prod, m1, m2]


def np_radam(param, grad, learning_rate, beta1_pow, beta2_pow, rho, moment1, moment2, beta1=0.9,
             beta2=0.999, epsilon=1e-8):
    b1_pow = beta1_pow * beta1
    b2_pow = beta2_pow * beta2
    rho_inf = 2 / (1 - beta2) - 1
    rho = (rho * (beta2 - b2_pow) + b2_pow) / (1 - b2_pow)
    m1 = beta1 * moment1 + (1 - beta1) * grad
    m2 = beta2 * moment2 + (1 - beta2) * grad * grad
    rho_t = rho_inf - 2 * rho
    rectified = rho_t > 5
    safe_rho_t = np.where(rectified, rho_t, 6.0)  # r_t is only used where rho_t > 5
    r_t = np.sqrt((safe_rho_t - 4) * (safe_rho_t - 2) * rho_inf
                  / ((rho_inf - 4) * (rho_inf - 2) * safe_rho_t))
    adaptive = r_t * np.sqrt(1 - b2_pow) / (np.sqrt(m2) + epsilon)
    step = m1 / (1 - b1_pow) * np.where(rectified, adaptive, 1.0)
    return [param - _scalar(learning_rate) * step, b1_pow, b2_pow, rho, m1, m2]


def np_asgd(param, grad, learning_rate, d, y, n):
    d = d - y + grad
    return [param - _scalar(learning_rate) * d / _scalar(n), d, grad]


def np_rprop(param, grad, prev, learning_rate, learning_rate_range, etas):
    lr_min, lr_max = np.asarray(learning_rate_range).reshape(-1)
    eta_negative, eta_positive = np.asarray(etas).reshape(-1)
    agreement = grad * prev
    eta = np.where(agreement > 0, eta_positive, np.where(agreement < 0, eta_negative, 1.0))
    grad = np.where(agreement < 0, 0.0, grad)
    learning_rate = np.clip(learning_rate * eta, lr_min, lr_max)
    return [param - np.sign(grad) * learning_rate, grad, learning_rate]


def adadelta_api(param, grad, avg_squared_grad, avg_squared_update, learning_rate, **kwargs):
    return _present(paddle._C_ops.adadelta_(param, grad, avg_squared_grad, avg_squared_update,
                                            learning_rate, None, **kwargs))


def adamax_api(param, grad, learning_rate, moment, inf_norm, beta1_pow, **kwargs):
    return _present(paddle._C_ops.adamax_(param, grad, learning_rate, moment, inf_norm,
                                          beta1_pow, None, **kwargs))


def rmsprop_api(param, mean_square, grad, moment, learning_rate, mean_grad=None, **kwargs):
    outputs = paddle._C_ops.rmsprop_(param, mean_square, grad, moment, learning_rate, mean_grad,
                                     None, **kwargs)
    # Without centered a given mean_grad passes through: compare only what the reference gives.
    return _present(outputs)[:4 if kwargs.get("centered") else 3]


def lamb_api(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow, **kwargs):
    return _present(paddle._C_ops.lamb_(param, grad, learning_rate, moment1, moment2, beta1_pow,
                                        beta2_pow, None, None, **kwargs))


def nadam_api(*args, **kwargs):
    return _present(paddle._C_ops.nadam_(*args, None, **kwargs))


def radam_api(*args, **kwargs):
    return _present(paddle._C_ops.radam_(*args, None, **kwargs))


def asgd_api(param, grad, learning_rate, d, y, n):
    return _present(paddle._C_ops.asgd_(param, grad, learning_rate, d, y, n, None))


def rprop_api(param, grad, prev, learning_rate, learning_rate_range, etas):
    return _present(paddle._C_ops.rprop_(param, grad, prev, learning_rate, None,
                                         learning_rate_range, etas))


def _state(rng, shape, n, low=-1.0, high=1.0):
    return [uniform(rng, shape, low, high) for _ in range(n)]


def _adadelta_samples(rng):
    return [Sample([uniform(rng, (3, 4)), uniform(rng, (3, 4)), *_state(rng, (3, 4), 2, 0, 1),
                    np.array([0.5])]),
            Sample([uniform(rng, (6,)), uniform(rng, (6,)), *_state(rng, (6,), 2, 0, 1),
                    np.array([1.0])], {"rho": 0.8, "epsilon": 1e-3}),
            Sample([uniform(rng, ()), uniform(rng, ()), *_state(rng, (), 2, 0, 1),
                    np.array(0.5)]),
            Sample([uniform(rng, (2, 0)), uniform(rng, (2, 0)), *_state(rng, (2, 0), 2),
                    np.array([0.1])])]


def _adamax_samples(rng):
    def sample(shape, kwargs=None):
        return Sample([uniform(rng, shape), uniform(rng, shape), np.array([0.05]),
                       uniform(rng, shape), uniform(rng, shape, 0.1, 1.0), np.array([0.9 ** 3])],
                      kwargs or {})
    return [sample((3, 4)), sample((5,), {"beta1": 0.8, "beta2": 0.99, "epsilon": 1e-3}),
            sample(()), sample((2, 0))]


def _rmsprop_samples(rng):
    def sample(shape, kwargs=None, centered=False):
        args = [uniform(rng, shape), uniform(rng, shape, 0.5, 1.0), uniform(rng, shape),
                uniform(rng, shape), np.array([0.01])]
        kwargs = dict(kwargs or {})
        if centered:  # mean_grad^2 stays below mean_square
            kwargs["mean_grad"] = uniform(rng, shape, -0.3, 0.3)
        return Sample(args, kwargs)
    return [sample((3, 4)),
            sample((6,), {"epsilon": 1e-6, "decay": 0.95, "momentum": 0.9}),
            sample((2, 3), {"momentum": 0.5, "centered": True}, centered=True),
            sample((4,), {"momentum": 0.5}, centered=True),  # mean_grad given, not centered
            sample(()), sample((2, 0))]


def _lamb_samples(rng):
    def sample(shape, kwargs=None):
        return Sample([uniform(rng, shape), uniform(rng, shape), np.array([0.05]),
                       uniform(rng, shape), uniform(rng, shape, 0.0, 1.0), np.array([0.9 ** 3]),
                       np.array([0.999 ** 3])], kwargs or {})
    return [sample((3, 4)), sample((6,), {"weight_decay": 0.1, "beta1": 0.8, "epsilon": 1e-4}),
            sample((2, 3), {"weight_decay": 0.0}),
            sample((2, 3), {"weight_decay": 0.0, "always_adapt": True}), sample(())]


def _nadam_samples(rng):
    def sample(shape, step, kwargs=None):
        pows = [np.full(shape, 0.96 ** step), np.full(shape, 0.999 ** step),
                np.full(shape, 0.45 ** step)]
        return Sample([uniform(rng, shape), uniform(rng, shape), np.array([0.05]), *pows,
                       uniform(rng, shape), uniform(rng, shape, 0.0, 1.0)], kwargs or {})
    return [sample((3, 4), 0), sample((5,), 3, {"beta1": 0.8, "momentum_decay": 0.01}),
            sample((), 2), sample((2, 0), 1)]


def _radam_rho(beta2, steps):
    rho, beta2_pow = 1.0, 1.0
    for _ in range(steps):
        beta2_pow *= beta2
        rho = (rho * (beta2 - beta2_pow) + beta2_pow) / (1 - beta2_pow)
    return rho, beta2_pow


def _radam_samples(rng):
    def sample(shape, step, beta2=0.999, kwargs=None):
        rho, beta2_pow = _radam_rho(beta2, step)
        pows = [np.full(shape, 0.9 ** step), np.full(shape, beta2_pow), np.full(shape, rho)]
        return Sample([uniform(rng, shape), uniform(rng, shape), np.array([0.05]), *pows,
                       uniform(rng, shape), uniform(rng, shape, 0.0, 1.0)],
                      dict(kwargs or {}, beta2=beta2))
    return [sample((3, 4), 0),  # the first step: rho_t <= 5, the unrectified update
            sample((3, 4), 9),  # rho_t > 5: rectified
            sample((5,), 4, 0.99, {"beta1": 0.8, "epsilon": 1e-6}), sample((), 20)]


def _asgd_samples(rng):
    def sample(shape, n):
        return Sample([uniform(rng, shape), uniform(rng, shape), np.array([0.05]),
                       uniform(rng, shape), uniform(rng, shape), n])
    return [sample((3, 4), np.array([3.0])), sample((5,), np.array([2], np.int64)),
            sample((), np.array([1.0])), sample((2, 0), np.array([1.0]))]


def _rprop_samples(rng):
    def sample(shape, prev=None):
        prev = uniform(rng, shape) if prev is None else prev
        return Sample([uniform(rng, shape), uniform(rng, shape), prev,
                       uniform(rng, shape, 0.001, 0.1), np.array([0.01, 0.05]),
                       np.array([0.5, 1.2])])
    return [sample((3, 4)), sample((6,), np.zeros(6)), sample(()), sample((2, 0))]


def _mismatch_errors(ok, index, bad, name):
    """An error sample: `ok` with argument `index` replaced by `bad`, naming `name`."""
    args = list(ok)
    args[index] = bad
    return ErrorSample(args, {}, ValueError, name)


def _adadelta_errors():
    ok = [np.zeros((2, 3))] * 4 + [np.array([0.1])]
    return [_mismatch_errors(ok, 3, np.zeros((3, 2)), "avg_squared_update"),
            _mismatch_errors(ok, 4, np.array([0.1, 0.2]), "learning_rate")]


def _adamax_errors():
    ok = [np.zeros((2, 3)), np.zeros((2, 3)), np.array([0.1]), np.zeros((2, 3)),
          np.zeros((2, 3)), np.array([0.9])]
    return [_mismatch_errors(ok, 4, np.zeros((2,)), "inf_norm"),
            _mismatch_errors(ok, 5, np.zeros((2, 3)), "beta1_pow")]


def _rmsprop_errors():
    ok = [np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 3)),
          np.array([0.1])]
    return [_mismatch_errors(ok, 1, np.zeros((3,)), "mean_square"),
            ErrorSample(ok, {"centered": True}, ValueError, "mean_grad")]


def _lamb_errors():
    ok = [np.zeros((2, 3)), np.zeros((2, 3)), np.array([0.1]), np.zeros((2, 3)),
          np.zeros((2, 3)), np.array([0.9]), np.array([0.999])]
    return [_mismatch_errors(ok, 4, np.zeros((3, 3)), "moment2"),
            _mismatch_errors(ok, 6, np.zeros((2,)), "beta2_pow")]


def _nadam_errors():
    ok = [np.zeros((2, 3)), np.zeros((2, 3)), np.array([0.1])] + [np.ones((2, 3))] * 5
    return [_mismatch_errors(ok, 5, np.ones((1,)), "mu_product"),
            _mismatch_errors(ok, 2, np.zeros((2, 3)), "learning_rate")]


def _radam_errors():
    ok = [np.zeros((2, 3)), np.zeros((2, 3)), np.array([0.1])] + [np.ones((2, 3))] * 5
    return [_mismatch_errors(ok, 5, np.ones((3, 2)), "rho")]


def _asgd_errors():
    ok = [np.zeros((2, 3)), np.zeros((2, 3)), np.array([0.1]), np.zeros((2, 3)),
          np.zeros((2, 3)), np.array([1.0])]
    return [_mismatch_errors(ok, 4, np.zeros((3, 2, 3)), "'y'"),
            _mismatch_errors(ok, 5, np.array([1.0, 2.0]), "'n'")]


def _rprop_errors():
    ok = [np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 3)),
          np.array([0.01, 1.0]), np.array([0.5, 1.2])]
    return [_mismatch_errors(ok, 2, np.zeros((2,)), "prev"),
            _mismatch_errors(ok, 5, np.array([0.5, 1.2, 2.0]), "etas"),
            _mismatch_errors(ok, 4, np.array([0.01]), "learning_rate_range")]


OPTIM_OPS = [
    OpInfo("adadelta", adadelta_api, np_adadelta, _adadelta_samples, grad=False,
           errors=_adadelta_errors),
    OpInfo("adamax", adamax_api, np_adamax, _adamax_samples, grad=False, errors=_adamax_errors),
    OpInfo("rmsprop", rmsprop_api, np_rmsprop, _rmsprop_samples, grad=False,
           errors=_rmsprop_errors),
    OpInfo("lamb", lamb_api, np_lamb, _lamb_samples, grad=False, errors=_lamb_errors),
    OpInfo("nadam", nadam_api, np_nadam, _nadam_samples, grad=False, errors=_nadam_errors),
    # rho's update divides by 1 - beta2^t: at the first steps the float32 rounding of beta2
    # shows in its fifth digit.
    OpInfo("radam", radam_api, np_radam, _radam_samples, grad=False, errors=_radam_errors,
           rtol=1e-4),
    OpInfo("asgd", asgd_api, np_asgd, _asgd_samples, grad=False, errors=_asgd_errors),
    OpInfo("rprop", rprop_api, np_rprop, _rprop_samples, grad=False, errors=_rprop_errors),
]


# ---- loss scaling (amp.yaml) -----------------------------------------------------------------
# The gradient list comes last, one argument each (the harness feeds top-level arrays).
def np_check_finite_and_unscale(scale, *x):
    found = not all(np.all(np.isfinite(t)) for t in x)
    return [t / _scalar(scale) for t in x] + [np.array([found])]


def check_finite_and_unscale_api(scale, *x):
    out, found_infinite = paddle._C_ops.check_finite_and_unscale(list(x), scale)
    return list(out) + [found_infinite]


def np_update_loss_scaling(found_infinite, prev_loss_scaling, in_good_steps, in_bad_steps, *x,
                           incr_every_n_steps, decr_every_n_nan_or_inf, incr_ratio, decr_ratio,
                           stop_update=False):
    found = bool(_scalar(found_infinite))
    scaling = float(_scalar(prev_loss_scaling))
    good, bad = int(_scalar(in_good_steps)), int(_scalar(in_bad_steps))
    if not stop_update:
        if found:
            good, bad = 0, bad + 1
            if bad == decr_every_n_nan_or_inf:
                scaling, bad = max(scaling * decr_ratio, 1.0), 0
        else:
            good, bad = good + 1, 0
            if good == incr_every_n_steps:
                scaling, good = scaling * incr_ratio, 0
    out = [np.zeros_like(t) if found else t for t in x]
    return out + [np.full(np.shape(prev_loss_scaling), scaling),
                  np.full(np.shape(in_good_steps), good, np.int32),
                  np.full(np.shape(in_bad_steps), bad, np.int32)]


def update_loss_scaling_api(found_infinite, prev_loss_scaling, in_good_steps, in_bad_steps, *x,
                            **kwargs):
    out, *rest = paddle._C_ops.update_loss_scaling(list(x), found_infinite, prev_loss_scaling,
                                                   in_good_steps, in_bad_steps, **kwargs)
    return list(out) + rest


def _check_finite_samples(rng):
    inf_grad = uniform(rng, (2, 3))
    inf_grad[1, 2] = np.inf
    nan_grad = uniform(rng, (4,))
    nan_grad[0] = np.nan
    return [Sample([np.array([1024.0]), uniform(rng, (3, 4)), uniform(rng, (5,))]),
            Sample([np.array([0.5]), uniform(rng, (2, 2))]),
            Sample([np.array([8.0]), uniform(rng, (3,)), inf_grad]),
            Sample([np.array([2.0]), nan_grad])]


def _loss_scaling_sample(rng, found, scale, good, bad, **attrs):
    kwargs = dict(incr_every_n_steps=3, decr_every_n_nan_or_inf=2, incr_ratio=2.0,
                  decr_ratio=0.5)
    kwargs.update(attrs)
    return Sample([np.array([found]), np.array([scale]), np.array([good], np.int32),
                   np.array([bad], np.int32), uniform(rng, (2, 3)), uniform(rng, (4,))], kwargs)


def _update_loss_scaling_samples(rng):
    return [_loss_scaling_sample(rng, False, 8.0, 0, 0),  # one more good step
            _loss_scaling_sample(rng, False, 8.0, 2, 0),  # the third: the scaling doubles
            _loss_scaling_sample(rng, True, 8.0, 2, 0),  # a bad step resets the good ones
            _loss_scaling_sample(rng, True, 8.0, 0, 1),  # the second bad one: halved
            _loss_scaling_sample(rng, True, 1.5, 0, 1),  # ... but not below 1
            _loss_scaling_sample(rng, True, 8.0, 0, 1, stop_update=True)]


def _check_finite_errors():
    return [ErrorSample([np.array([1.0, 2.0]), np.zeros((2, 3))], {}, ValueError, "scale"),
            ErrorSample([np.array([1.0]), np.zeros((2, 3)), np.zeros((2,), np.int32)], {},
                        TypeError, "x")]


def _update_loss_scaling_errors():
    ok = [np.array([False]), np.array([8.0]), np.array([0], np.int32), np.array([0], np.int32),
          np.zeros((2, 3))]
    attrs = dict(incr_every_n_steps=3, decr_every_n_nan_or_inf=2, incr_ratio=2.0, decr_ratio=0.5)
    bad_counter = list(ok)
    bad_counter[2] = np.array([0.0])
    return [ErrorSample(ok, dict(attrs, decr_ratio=1.5), ValueError, "decr_ratio"),
            ErrorSample(ok, dict(attrs, incr_every_n_steps=0), ValueError, "incr_every_n_steps"),
            ErrorSample(bad_counter, attrs, TypeError, "in_good_steps")]


OPTIM_OPS += [
    OpInfo("check_finite_and_unscale", check_finite_and_unscale_api, np_check_finite_and_unscale,
           _check_finite_samples, grad=False, errors=_check_finite_errors,
           nonfinite_reason="the op's purpose is to detect inf and nan, which the samples hold"),
    OpInfo("update_loss_scaling", update_loss_scaling_api, np_update_loss_scaling,
           _update_loss_scaling_samples, grad=False, errors=_update_loss_scaling_errors),
]
