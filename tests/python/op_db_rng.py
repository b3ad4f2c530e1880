"""Harness entries (op_db.py) of the random ops of random.yaml: randint, randperm, bernoulli,
poisson, multinomial, truncated_gaussian_random and exponential. Their values are compared with
PaddlePaddle's bit for bit in tests/python/random/test_random_parity.py; here `check` tests
what any draw must satisfy (range, support, moments) in every registered dtype, and the error
cases."""
import numpy as np

import paddle
from harness import DTYPE, ErrorSample, OpInfo, Sample, to_numpy
from paddle import _C_ops

# Paddle's poisson and exponential_ gradients are zero (test_random_grads.py checks them); a
# finite difference of a random draw has no meaning.
ZERO_GRAD = "a random draw: Paddle's gradient is zero, which test_random_grads.py checks"


def _values(result):
    return to_numpy(result).astype(np.float64)


def randint_check(result, sample):
    kw = sample.kwargs
    low, high = (0, kw["low"]) if "high" not in kw else (kw["low"], kw["high"])
    values = _values(result)
    assert list(result.shape) == list(kw["shape"])
    assert np.all(values == np.floor(values)) and values.min() >= low and values.max() < high
    if values.size >= 50 * (high - low):  # every value turns up
        assert set(values.astype(np.int64).ravel().tolist()) == set(range(low, high))


def randperm_check(result, sample):
    n = sample.args[0]
    assert np.array_equal(np.sort(_values(result)), np.arange(n))


def bernoulli_check(result, sample):
    p = np.asarray(sample.args[0], dtype=np.float64)
    values = _values(result)
    assert values.shape == p.shape and set(np.unique(values)) <= {0.0, 1.0}
    assert np.all(values[p == 0] == 0) and np.all(values[p == 1] == 1)
    if p.size >= 1000:
        assert abs(values.mean() - p.mean()) < 0.05


def poisson_check(result, sample):
    rate = np.asarray(sample.args[0], dtype=np.float64)
    values = _values(result)
    assert values.shape == rate.shape and np.all(values >= 0)
    assert np.all(values == np.floor(values)) and np.all(values[rate == 0] == 0)
    # The mean and variance of the counts both equal the rate.
    assert abs((values - rate).mean()) < 4 * np.sqrt(rate.mean() / rate.size) + 0.05


def multinomial_check(result, sample):
    probs = np.asarray(sample.args[0], dtype=np.float64)
    num_samples = sample.kwargs.get("num_samples", 1)
    replacement = sample.kwargs.get("replacement", False)
    values = to_numpy(result).astype(np.int64).reshape(-1, num_samples)
    rows = probs.reshape(-1, probs.shape[-1])
    assert list(result.shape) == list(probs.shape[:-1]) + [num_samples]
    for row, drawn in zip(rows, values):
        assert np.all(row[drawn] > 0), "a category of probability 0 was drawn"
        if not replacement:
            assert len(set(drawn.tolist())) == num_samples


def truncated_gaussian_check(result, sample):
    kw = sample.kwargs
    values = _values(result)
    assert list(result.shape) == list(kw["shape"])
    assert values.min() >= kw["a"] and values.max() <= kw["b"]
    if kw["a"] == -kw["b"] and kw["mean"] == 0:  # symmetric: mean 0
        assert abs(values.mean()) < 0.05 * kw["std"] * 4


def _truncated(**kwargs):
    """truncated_gaussian_random's keyword arguments: N(0, 1) cut to [-2, 2] unless given."""
    return {"shape": [3], "mean": 0.0, "std": 1.0, "seed": 0, "a": -2.0, "b": 2.0, **kwargs}


def exponential_check(result, sample):
    lam = sample.args[1] if len(sample.args) > 1 else 1.0
    values = _values(result)
    assert values.shape == np.shape(sample.args[0]) and np.all(values >= 0)
    assert abs(values.mean() * lam - 1.0) < 0.1


RNG_OPS = [
    OpInfo("randint", paddle.randint, None, lambda rng: [
        Sample([], {"low": -3, "high": 5, "shape": [40, 20], "dtype": DTYPE}),
        Sample([], {"low": 6, "shape": [500], "dtype": DTYPE}),
        Sample([], {"low": -2**31, "high": 2**31 - 1, "shape": [7], "dtype": DTYPE})],
        grad=False, check=randint_check,
        errors=lambda: [
            ErrorSample([], {"low": 4, "high": 4, "shape": [2]}, ValueError, "randint"),
            ErrorSample([], {"low": 0, "high": 5, "shape": [2], "dtype": "float32"}, ValueError,
                        "randint: argument 'dtype'"),
            ErrorSample([], {"low": 0, "high": 2**40, "shape": [2]}, ValueError,
                        "randint(): argument 'high'"),
            ErrorSample([], {"low": 0.5, "high": 3, "shape": [2]}, TypeError, "'low'")]),
    OpInfo("randperm", paddle.randperm, None, lambda rng: [
        Sample([1], {"dtype": DTYPE}), Sample([2], {"dtype": DTYPE}),
        Sample([9], {"dtype": DTYPE}), Sample([200], {"dtype": DTYPE})],
        grad=False, check=randperm_check,
        errors=lambda: [
            ErrorSample([-1], {}, ValueError, "randperm: argument 'n'"),
            ErrorSample([3], {"dtype": "bool"}, ValueError, "randperm: argument 'dtype'"),
            ErrorSample([2.5], {}, TypeError, "randperm(): argument 'n'")]),
    OpInfo("bernoulli", paddle.bernoulli, None, lambda rng: [
        Sample([rng.uniform(0.0, 1.0, size=(40, 50))]),
        Sample([np.array([0.0, 1.0, 0.0, 1.0, 0.5])])],
        grad=False, check=bernoulli_check,
        errors=lambda: [
            ErrorSample([np.array([0.5, 1.5])], {}, ValueError, "bernoulli: the probabilities"),
            ErrorSample([np.array([1, 0], dtype=np.int64)], {}, ValueError, "bernoulli"),
            ErrorSample([[0.5]], {}, TypeError, "bernoulli")]),
    OpInfo("poisson", paddle.poisson, None, lambda rng: [
        Sample([rng.uniform(0.0, 8.0, size=(30, 40))]),
        Sample([rng.uniform(12.0, 60.0, size=(600,))]),
        Sample([np.array([0.0, 0.0, 250.0])])],
        grad=False, no_grad_reason=ZERO_GRAD, check=poisson_check,
        errors=lambda: [
            ErrorSample([np.array([1.0, -2.0])], {}, ValueError, "poisson: the rates"),
            ErrorSample([np.array([1.0, np.inf])], {}, ValueError, "poisson: the rates"),
            ErrorSample([[1.0]], {}, TypeError, "poisson")]),
    OpInfo("multinomial", paddle.multinomial, None, lambda rng: [
        Sample([rng.uniform(0.0, 1.0, size=(6,))], {"num_samples": 30, "replacement": True}),
        Sample([rng.uniform(0.1, 1.0, size=(3, 8))], {"num_samples": 8}),
        Sample([np.array([0.0, 2.0, 0.0, 1.0, 3.0])], {"num_samples": 3})],
        grad=False, check=multinomial_check,
        errors=lambda: [
            ErrorSample([np.array([0.5, 0.5])], {"num_samples": 3}, ValueError,
                        "multinomial: without replacement 'num_samples'"),
            ErrorSample([np.array([0.0, 1.0, 0.0])], {"num_samples": 2}, ValueError,
                        "nonzero categories"),
            ErrorSample([np.array([0.5, -0.5])], {}, ValueError, "multinomial: the probabilities"),
            ErrorSample([np.zeros(3)], {}, ValueError, "positive finite sum"),
            ErrorSample([np.ones((2, 2, 2))], {}, ValueError, "multinomial: argument 'x'"),
            ErrorSample([np.ones(3)], {"num_samples": 0}, ValueError, "'num_samples'")]),
    OpInfo("truncated_gaussian_random", _C_ops.truncated_gaussian_random, None,
           lambda rng: [Sample([], _truncated(shape=[60, 50], dtype=DTYPE)),
                        Sample([], _truncated(shape=[300], mean=0.5, std=2.0, a=-1.0, b=3.0,
                                              seed=5, dtype=DTYPE))],
           grad=False, check=truncated_gaussian_check,
           errors=lambda: [
               ErrorSample([], _truncated(a=2.0, b=-2.0), ValueError,
                           "truncated_gaussian_random: argument 'a'"),
               ErrorSample([], _truncated(std=0.0), ValueError,
                           "truncated_gaussian_random: argument 'std'")]),
    OpInfo("exponential", lambda x, lam=1.0: x.exponential_(lam), None, lambda rng: [
        Sample([np.zeros((50, 40))]), Sample([np.ones(3000), 4.0]), Sample([np.ones(2000), 0.5])],
        grad=False, no_grad_reason=ZERO_GRAD, check=exponential_check,
        errors=lambda: [
            ErrorSample([np.ones(3), 0.0], {}, ValueError, "exponential_: argument 'lam'"),
            ErrorSample([np.ones(3), "x"], {}, TypeError, "exponential_(): argument 'lam'")]),
]
