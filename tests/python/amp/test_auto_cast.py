"""paddle.amp.auto_cast on the CPU: which dtype each op runs in at each level, the custom lists,
gradients through the casts, and the argument errors."""
import numpy as np
import pytest

import paddle

BF16, FP16, FP32 = paddle.bfloat16, paddle.float16, paddle.float32


def _inputs():
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.standard_normal((4, 6)).astype("float32"))
    w = paddle.to_tensor(rng.standard_normal((6, 3)).astype("float32"))
    return x, w


@pytest.mark.parametrize("dtype,low", [("bfloat16", BF16), ("float16", FP16)])
def test_o1_runs_white_ops_low_and_black_ops_in_float32(dtype, low):
    x, w = _inputs()
    with paddle.amp.auto_cast(dtype=dtype):
        y = paddle.matmul(x, w)  # white (matmul_v2)
        assert y.dtype == low
        assert paddle.nn.functional.relu(y).dtype == low  # gray: as its input
        assert paddle.nn.functional.softmax(y).dtype == FP32  # black
        assert paddle.exp(y).dtype == FP32  # black
        assert paddle.sum(y).dtype == FP32  # black (reduce_sum)
        assert paddle.add(y, x[:, :3]).dtype == FP32  # gray with mixed inputs: float32
        assert paddle.matmul(x.astype("float64"), w.astype("float64")).dtype == paddle.float64
    assert paddle.matmul(x, w).dtype == FP32  # off again after the block
    np.testing.assert_allclose(y.astype("float32").numpy(), (x.numpy() @ w.numpy()),
                               rtol=3e-2, atol=3e-2)


def test_linear_layer_output_is_low_precision_with_its_bias():
    layer = paddle.nn.Linear(6, 3)
    x, _ = _inputs()
    with paddle.amp.auto_cast(dtype="bfloat16"):
        out = layer(x)
    assert out.dtype == BF16
    np.testing.assert_allclose(out.astype("float32").numpy(), layer(x).numpy(), rtol=3e-2,
                               atol=3e-2)


def test_custom_lists_move_ops_across():
    x, w = _inputs()
    with paddle.amp.auto_cast(dtype="bfloat16", custom_black_list={"matmul_v2"},
                              custom_white_list={"exp"}):
        assert paddle.matmul(x, w).dtype == FP32
        assert paddle.exp(x).dtype == BF16
    # Our op names work as well as Paddle's types.
    with paddle.amp.auto_cast(dtype="bfloat16", custom_black_list=["matmul"]):
        assert paddle.matmul(x, w).dtype == FP32
    with pytest.raises(ValueError, match="overlap"):
        with paddle.amp.auto_cast(custom_white_list={"exp"}, custom_black_list={"exp"}):
            pass


def test_o2_runs_everything_low_but_the_black_list():
    x, w = _inputs()
    low_x = x.astype("bfloat16")
    with paddle.amp.auto_cast(level="O2", dtype="bfloat16"):
        assert paddle.matmul(x, w).dtype == BF16
        assert paddle.nn.functional.relu(low_x).dtype == BF16
        # use_promote: a float32 input keeps an op outside the white list in float32
        assert paddle.nn.functional.relu(x).dtype == FP32
        assert paddle.add(low_x, x).dtype == FP32
        assert paddle.sum(low_x).dtype == BF16  # reduce_sum is black at O1 only
    with paddle.amp.auto_cast(level="O2", dtype="bfloat16", use_promote=False):
        assert paddle.nn.functional.relu(x).dtype == BF16
        assert paddle.add(low_x, x).dtype == BF16


def test_od_runs_only_the_white_list_low():
    x, w = _inputs()
    with paddle.amp.auto_cast(level="OD", dtype="bfloat16"):
        y = paddle.matmul(x, w)
        assert y.dtype == BF16
        assert paddle.nn.functional.relu(y).dtype == FP32


def test_disabled_nested_and_restored_state():
    x, w = _inputs()
    with paddle.amp.auto_cast(enable=False, dtype="bfloat16"):
        assert paddle.matmul(x, w).dtype == FP32
        assert not paddle.amp.is_autocast_enabled()
    with paddle.amp.auto_cast(dtype="bfloat16"):
        assert paddle.amp.is_autocast_enabled()
        assert paddle.amp.get_autocast_dtype() == BF16
        with paddle.amp.auto_cast(enable=False):
            assert paddle.matmul(x, w).dtype == FP32
        assert paddle.matmul(x, w).dtype == BF16
    with pytest.raises(RuntimeError):
        with paddle.amp.auto_cast(dtype="bfloat16"):
            raise RuntimeError("leaves the block")
    assert not paddle.amp.is_autocast_enabled()
    assert paddle.amp.get_autocast_dtype() == FP32


@pytest.mark.parametrize("kwargs,word", [(dict(level="O3"), "level"),
                                         (dict(level=2), "level"),
                                         (dict(dtype="float32"), "dtype"),
                                         (dict(dtype="int8"), "dtype")])
def test_unknown_level_or_dtype_raises_value_error(kwargs, word):
    with pytest.raises(ValueError, match=word):
        with paddle.amp.auto_cast(**kwargs):
            pass


def _mlp():
    paddle.seed(3)
    return paddle.nn.Sequential(paddle.nn.Linear(8, 32), paddle.nn.ReLU(),
                                paddle.nn.Linear(32, 4))


def _train(level, steps=20):
    rng = np.random.default_rng(5)
    x = paddle.to_tensor(rng.standard_normal((64, 8)).astype("float32"))
    y = paddle.to_tensor(rng.standard_normal((64, 4)).astype("float32"))
    model = _mlp()
    opt = paddle.optimizer.Adam(0.01, parameters=model.parameters())
    losses = []
    for _ in range(steps):
        with paddle.amp.auto_cast(enable=level is not None, level=level or "O1",
                                  dtype="bfloat16"):
            loss = paddle.nn.functional.mse_loss(model(x), y)
        assert loss.dtype == FP32  # mse_loss's mean is on the black list
        loss.backward()
        assert all(p.grad.dtype == FP32 for p in model.parameters())
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return np.array(losses)


def test_bf16_o1_training_follows_float32_training():
    fp32, bf16 = _train(None), _train("O1")
    assert bf16[-1] < 0.8 * bf16[0]
    np.testing.assert_allclose(bf16, fp32, rtol=5e-2)


def test_backward_inside_auto_cast_gives_each_input_its_dtype():
    x, w = _inputs()
    w.stop_gradient = False
    with paddle.amp.auto_cast(dtype="bfloat16"):
        out = paddle.matmul(x, w)
        out.astype("float32").sum().backward()
    assert w.grad.dtype == FP32
    np.testing.assert_allclose(w.grad.numpy(), np.tile(x.numpy().sum(0)[:, None], (1, 3)),
                               rtol=2e-2, atol=2e-2)


def test_supported_dtypes_on_the_cpu():
    assert paddle.amp.is_bfloat16_supported("cpu")
    assert not paddle.amp.is_float16_supported("cpu")


def test_static_program_built_under_auto_cast_matches_dygraph():
    from paddle.utils import unique_name
    from static_testing import new_programs, static_mode
    rng = np.random.default_rng(7)
    x_np = rng.standard_normal((32, 8)).astype("float32")
    y_np = rng.standard_normal((32, 4)).astype("float32")

    def model():
        paddle.seed(9)
        return paddle.nn.Sequential(paddle.nn.Linear(8, 16), paddle.nn.ReLU(),
                                    paddle.nn.Linear(16, 4))

    with unique_name.guard():
        net = model()
        opt = paddle.optimizer.Adam(0.01, parameters=net.parameters())
        dygraph = []
        for _ in range(4):
            with paddle.amp.auto_cast(dtype="bfloat16"):
                loss = paddle.nn.functional.mse_loss(net(paddle.to_tensor(x_np)),
                                                     paddle.to_tensor(y_np))
            loss.backward()
            opt.step()
            opt.clear_grad()
            dygraph.append(float(loss))
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 8], "float32")
            y = paddle.static.data("y", [None, 4], "float32")
            with paddle.amp.auto_cast(dtype="bfloat16"):
                out = model()(x)
                loss = paddle.nn.functional.mse_loss(out, y)
            assert out.dtype == BF16 and loss.dtype == FP32
            paddle.optimizer.Adam(0.01).minimize(loss)
        matmuls = [op for op in main.global_block().ops if op.type == "matmul_v2"]
        block = main.global_block()
        assert all(block.var(op.input("X")[0]).dtype == BF16 for op in matmuls)
        exe = paddle.static.Executor()
        exe.run(startup)
        static = [float(exe.run(main, feed={"x": x_np, "y": y_np}, fetch_list=[loss])[0])
                  for _ in range(4)]
    np.testing.assert_allclose(static, dygraph, rtol=1e-5)
