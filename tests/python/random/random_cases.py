"""The random draws compared with PaddlePaddle's bit for bit. Each case seeds the generator
with paddle.seed and returns the arrays a few calls draw, in order, so a case also checks that
the stream carries on from one call to the next. The same code runs under PaddlePaddle
(tools/record_paddle_random.py records it) and under this framework (test_random_parity.py)."""
import numpy as np

SEEDS = (1, 2023, 90210, 2**40 + 7)   # the last: paddle.seed keeps the low 32 bits
FLOATS = ("float32", "float64")


def _probabilities(shape, dtype, seed):
    return np.random.default_rng(seed).uniform(0.0, 1.0, size=shape).astype(dtype)


def _initializers(paddle, dtype):
    init = paddle.nn.initializer
    made = []
    for initializer, shape in [
            (init.Normal(0.5, 2.0), [7, 5]), (init.Uniform(-0.3, 0.7), [7, 5]),
            (init.XavierNormal(), [6, 4]), (init.XavierUniform(), [6, 4]),
            (init.KaimingNormal(), [3, 2, 3, 3]), (init.KaimingUniform(), [3, 2, 3, 3]),
            (init.TruncatedNormal(), [300]), (init.TruncatedNormal(0.5, 2.0, -1.0, 3.0), [7, 5]),
            (init.TruncatedNormal(0.0, 0.02, -0.04, 0.04), [64])]:
        made.append(paddle.create_parameter(shape, dtype, default_initializer=initializer))
    paddle.set_default_dtype(dtype)
    try:
        linear = paddle.nn.Linear(9, 4)
        conv = paddle.nn.Conv2D(2, 3, 3)
    finally:
        paddle.set_default_dtype("float32")
    made += [linear.weight, linear.bias, conv.weight, conv.bias]
    return made


def _dropouts(paddle, dtype):
    F = paddle.nn.functional
    x = paddle.to_tensor(np.arange(1.0, 61.0).reshape(3, 4, 5).astype(dtype))
    return [F.dropout(x, 0.3), F.dropout(x, 0.5, mode="downscale_in_infer"),
            F.dropout(x, 0.4, axis=1), F.dropout(x, 0.2, axis=[0, 2]),
            paddle.nn.Dropout(0.25)(x),
            F.rrelu(paddle.to_tensor(np.linspace(-2.0, 1.0, 24).astype(dtype)), 0.1, 0.4)]


def _rng_state_round_trip(paddle, dtype):
    paddle.rand([3], dtype)
    state = paddle.get_rng_state()
    first = [paddle.randn([5], dtype), paddle.randint(0, 100, [4])]
    paddle.rand([17], dtype)
    paddle.set_rng_state(state)
    again = [paddle.randn([5], dtype), paddle.randint(0, 100, [4])]
    return first + again


def cases():
    """name -> (seed, draw(paddle) -> list of tensors)."""
    table = {}
    for dtype in FLOATS:
        for seed in SEEDS:
            table[f"rand/{dtype}/{seed}"] = (seed, lambda p, d=dtype: [
                p.rand([4], d), p.rand([3, 5], d), p.rand([1001], d)])
            table[f"randn/{dtype}/{seed}"] = (seed, lambda p, d=dtype: [
                p.randn([5], d), p.randn([2, 3], d), p.randn([1001], d)])
        seed = SEEDS[1]
        table[f"uniform/{dtype}"] = (seed, lambda p, d=dtype: [
            p.uniform([10, 3], d, min=-2.0, max=3.0), p.uniform([7], d),
            p.uniform([6], d, min=0.5, max=0.75, seed=77)])
        table[f"normal/{dtype}"] = (seed, lambda p, d=dtype: [
            p.normal(1.5, 0.25, [9]).astype(d), p.standard_normal([3, 3], d),
            p.tensor.random.gaussian([7], mean=-1.0, std=3.0, dtype=d),
            p.tensor.random.gaussian([3], std=0.0, dtype=d),
            p.randn([4], d)])
        table[f"bernoulli/{dtype}"] = (seed, lambda p, d=dtype: [
            p.bernoulli(p.to_tensor(_probabilities([40], d, 1))),
            p.bernoulli(p.to_tensor(_probabilities([5, 6], d, 2))),
            p.bernoulli(p.full([9], 0.5, d))])
        table[f"multinomial/{dtype}"] = (seed, lambda p, d=dtype: [
            p.multinomial(p.to_tensor(_probabilities([6], d, 3)), 20, replacement=True),
            p.multinomial(p.to_tensor(_probabilities([6], d, 4)), 6),
            p.multinomial(p.to_tensor(_probabilities([3, 9], d, 5)), 4),
            p.multinomial(p.to_tensor(np.array([0.0, 3.0, 0.0, 1.0], d)), 2),
            p.multinomial(p.to_tensor(_probabilities([4, 5], d, 6)), 7, replacement=True)])
        table[f"poisson/{dtype}"] = (seed, lambda p, d=dtype: [
            p.poisson(p.to_tensor(np.array([0.0, 0.3, 1.0, 5.5, 11.9, 12.0, 12.5, 30.0, 250.0,
                                            7000.0, 1.5e6], d))),
            p.poisson(p.to_tensor((_probabilities([50], d, 7) * 40).astype(d)))])
        table[f"exponential_/{dtype}"] = (seed, lambda p, d=dtype: [
            p.ones([30], d).exponential_(), p.zeros([4, 5], d).exponential_(0.5),
            p.ones([7], d).exponential_(3.0)])
        table[f"dropout/{dtype}"] = (seed, lambda p, d=dtype: _dropouts(p, d))
        table[f"initializers/{dtype}"] = (seed, lambda p, d=dtype: _initializers(p, d))
        table[f"rng_state/{dtype}"] = (seed, lambda p, d=dtype: _rng_state_round_trip(p, d))
        table[f"mixed/{dtype}"] = (SEEDS[2], lambda p, d=dtype: [
            p.rand([3], d), p.randn([3], d), p.randint(0, 10, [5]), p.randn([2], d),
            p.randperm(5), p.uniform([2], d), p.bernoulli(p.full([3], 0.5, d)),
            p.rand([1], d)])
    for dtype in ("float16", "bfloat16"):  # drawn in float32 and rounded; compared as float32
        table[f"half/{dtype}"] = (SEEDS[1], lambda p, d=dtype: [
            t.astype("float32") for t in (p.rand([20], d), p.randn([21], d),
                                          p.uniform([20], d, min=-2.0, max=3.0))])
    for seed in SEEDS:
        table[f"randint/{seed}"] = (seed, lambda p: [
            p.randint(0, 10, [12]), p.randint(-5, 1000003, [4, 3]), p.randint(7, shape=[6]),
            p.randint(-2**31, 2**31 - 1, [5]), p.randint(0, 2, [9], dtype="int32"),
            p.randint(3, 4, [3])])
        table[f"randperm/{seed}"] = (seed, lambda p: [
            p.randperm(1), p.randperm(2), p.randperm(7), p.randperm(10, "int32"),
            p.randperm(6, "float32"), p.randperm(5, "float64"), p.randperm(1000)])
    return table


def run(paddle, seed, draw):
    paddle.seed(seed)
    return [np.asarray(t.numpy()) for t in draw(paddle)]
