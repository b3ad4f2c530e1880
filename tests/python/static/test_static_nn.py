"""paddle.static.nn layers: fc, embedding and batch_norm against NumPy, their parameters and
startup initialisation, training with minimize, batch_norm's running statistics across runs and
in a program cloned for test."""

import numpy as np
import pytest

import paddle
from paddle.nn.initializer import Assign, Constant
from static_testing import new_programs, scope_value, static_mode

EXECUTOR = paddle.static.Executor(paddle.CPUPlace())


# ---- fc ----------------------------------------------------------------------------------------

def test_fc_matches_numpy_and_names_its_parameters_like_paddle():
    rng = np.random.default_rng(0)
    w = rng.standard_normal((6, 4)).astype("float32")
    xv = rng.standard_normal((5, 2, 3)).astype("float32")
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 2, 3])
            out = paddle.static.nn.fc(x, 4, weight_attr=Assign(w), bias_attr=Constant(0.5),
                                      activation="relu")
            plain = paddle.static.nn.fc(x, 3, bias_attr=False)
        assert out.shape == [-1, 4] and plain.shape == [-1, 3]
        params = {p.name: p for p in main.all_parameters()}
        assert sorted(params) == ["fc_0.b_0", "fc_0.w_0", "fc_1.w_0"]
        assert params["fc_0.w_0"].shape == [6, 4] and params["fc_0.b_0"].shape == [4]
        assert all(p.trainable and p.persistable for p in params.values())
        assert [op.type for op in startup.global_block().ops] == [
            "assign_value", "fill_constant", "uniform_random"]
        EXECUTOR.run(startup)
        got, got_plain = EXECUTOR.run(main, feed={"x": xv}, fetch_list=[out, plain])
        w1 = scope_value("fc_1.w_0")
    np.testing.assert_allclose(got, np.maximum(xv.reshape(5, 6) @ w + 0.5, 0), rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(got_plain, xv.reshape(5, 6) @ w1, rtol=1e-5, atol=1e-6)


def test_fc_of_several_inputs_sums_their_products():
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((4, 4))
    av, bv = rng.standard_normal((2, 5, 3)), rng.standard_normal((2, 5, 2, 2))
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 5, 3], "float64")
            y = paddle.static.data("y", [None, 5, 2, 2], "float64")
            out = paddle.static.nn.fc([x, y], 4, num_flatten_dims=2,
                                      weight_attr=[Assign(a), Assign(b)], name="joint")
            last = paddle.static.nn.fc(y, 3, num_flatten_dims=-1)
        assert out.shape == [-1, 5, 4] and last.shape == [-1, 5, 2, 3]
        assert sorted(p.name for p in main.all_parameters()) == [
            "fc_0.b_0", "fc_0.w_0", "joint.b_0", "joint.w_0", "joint.w_1"]
        EXECUTOR.run(startup)
        got, got_last = EXECUTOR.run(main, feed={"x": av, "y": bv}, fetch_list=[out, last])
        w_last, b_last = scope_value("fc_0.w_0"), scope_value("fc_0.b_0")
    np.testing.assert_allclose(got, av @ a + bv.reshape(2, 5, 4) @ b, rtol=1e-12)
    np.testing.assert_allclose(got_last, bv @ w_last + b_last, rtol=1e-12)


def test_fc_rejects_bad_input():
    with pytest.raises(AssertionError, match="only supported in static graph mode"):
        paddle.static.nn.fc(paddle.ones([2, 3]), 4)
    with static_mode():
        with paddle.static.program_guard(*new_programs()):
            x = paddle.static.data("x", [2, None])
            with pytest.raises(ValueError, match="must be known"):
                paddle.static.nn.fc(x, 4)
            with pytest.raises(ValueError, match="num_flatten_dims"):
                paddle.static.nn.fc(paddle.static.data("y", [2, 3]), 4, num_flatten_dims=2)
            with pytest.raises(TypeError, match="floating-point"):
                paddle.static.nn.fc(paddle.static.data("ids", [2, 3], "int64"), 4)
            with pytest.raises(ValueError, match="activation"):
                paddle.static.nn.fc(paddle.static.data("z", [2, 3]), 4, activation="swish2")


def test_training_an_fc_model_with_minimize_matches_dygraph():
    rng = np.random.default_rng(2)
    w_true = rng.standard_normal((4, 1))
    batches = []
    for _ in range(20):
        xb = rng.standard_normal((8, 4)).astype("float32")
        batches.append((xb, (np.tanh(xb) @ w_true).astype("float32")))
    w1 = (rng.standard_normal((4, 8)) * 0.5).astype("float32")
    w2 = (rng.standard_normal((8, 1)) * 0.5).astype("float32")

    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 4])
            y = paddle.static.data("y", [None, 1])
            hidden = paddle.static.nn.fc(x, 8, weight_attr=Assign(w1), activation="tanh")
            pred = paddle.static.nn.fc(hidden, 1, weight_attr=Assign(w2))
            loss = paddle.mean(paddle.square(pred - y))
            paddle.optimizer.Adam(0.05).minimize(loss)
        EXECUTOR.run(startup)
        static_losses = [float(EXECUTOR.run(main, feed={"x": xb, "y": yb}, fetch_list=[loss])[0])
                         for xb, yb in batches]

    first = paddle.nn.Linear(4, 8, weight_attr=Assign(w1))
    second = paddle.nn.Linear(8, 1, weight_attr=Assign(w2))
    params = first.parameters() + second.parameters()
    opt = paddle.optimizer.Adam(0.05, parameters=params)
    dygraph_losses = []
    for xb, yb in batches:
        pred = second(paddle.tanh(first(paddle.to_tensor(xb))))
        loss = paddle.mean(paddle.square(pred - paddle.to_tensor(yb)))
        loss.backward()
        opt.step()
        opt.clear_grad()
        dygraph_losses.append(float(loss))
    np.testing.assert_allclose(static_losses, dygraph_losses, rtol=1e-4, atol=1e-6)
    assert static_losses[-1] < 0.2 * static_losses[0]


# ---- embedding ---------------------------------------------------------------------------------

def test_embedding_matches_numpy():
    table = np.random.default_rng(3).standard_normal((6, 3)).astype("float32")
    ids = np.array([[0, 2], [5, 2], [1, 0]], dtype="int64")
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("ids", [None, 2], "int64")
            out = paddle.static.nn.embedding(x, [6, 3], padding_idx=-1,
                                             param_attr=paddle.ParamAttr(name="table",
                                                                         initializer=Assign(table)))
            default = paddle.static.nn.embedding(x, (6, 2), dtype="float64")
        assert out.shape == [-1, 2, 3] and default.dtype == paddle.float64
        # As in Paddle, every call takes a layer name, whether or not its parameter is named.
        assert sorted(p.name for p in main.all_parameters()) == ["embedding_1.w_0", "table"]
        lookup = [op for op in main.global_block().ops if op.type == "lookup_table_v2"][0]
        assert lookup.attr("padding_idx") == 5
        EXECUTOR.run(startup)
        got, got_default = EXECUTOR.run(main, feed={"ids": ids}, fetch_list=[out, default])
        default_table = scope_value("embedding_1.w_0")
    expected = np.where((ids == 5)[..., None], 0.0, table[ids])
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got_default, default_table[ids])
    with static_mode():
        with paddle.static.program_guard(*new_programs()):
            x = paddle.static.data("ids", [3], "int64")
            with pytest.raises(ValueError, match="size"):
                paddle.static.nn.embedding(x, 6)
            with pytest.raises(TypeError, match="dtype"):
                paddle.static.nn.embedding(x, [6, 3], dtype="int32")


# ---- batch_norm --------------------------------------------------------------------------------

def _np_batch_norm(x, mean, variance, scale, bias, axis, epsilon=1e-5):
    shape = [-1 if i == axis else 1 for i in range(x.ndim)]
    return ((x - mean.reshape(shape)) / np.sqrt(variance.reshape(shape) + epsilon)
            * scale.reshape(shape) + bias.reshape(shape))


def test_batch_norm_updates_running_statistics_and_test_clone_uses_them():
    rng = np.random.default_rng(4)
    batches = [rng.standard_normal((4, 3, 2, 2)) * 2 + 1 for _ in range(3)]
    momentum = 0.8
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 3, 2, 2], "float64")
            out = paddle.static.nn.batch_norm(x, momentum=momentum,
                                              param_attr=Constant(2.0), bias_attr=Constant(0.5),
                                              moving_mean_name="mean", moving_variance_name="var")
        params = {p.name: p for p in main.all_parameters()}
        assert sorted(params) == ["batch_norm_0.b_0", "batch_norm_0.w_0", "mean", "var"]
        assert params["batch_norm_0.w_0"].trainable and params["batch_norm_0.b_0"].trainable
        assert not params["mean"].trainable and not params["var"].trainable
        assert params["mean"].persistable and params["var"].persistable
        (op,) = [op for op in main.global_block().ops if op.type == "batch_norm"]
        assert op.output("MeanOut") == ["mean"] and op.output("VarianceOut") == ["var"]
        assert op.attr("is_test") is False
        test_program = main.clone(for_test=True)
        (test_op,) = [op for op in test_program.global_block().ops if op.type == "batch_norm"]
        assert test_op.attr("is_test") is True

        EXECUTOR.run(startup)
        np.testing.assert_array_equal(scope_value("mean"), np.zeros(3))
        np.testing.assert_array_equal(scope_value("var"), np.ones(3))
        running_mean, running_var = np.zeros(3), np.ones(3)
        for xb in batches:
            (got,) = EXECUTOR.run(main, feed={"x": xb}, fetch_list=[out])
            mu, var = xb.mean(axis=(0, 2, 3)), xb.var(axis=(0, 2, 3))
            np.testing.assert_allclose(got, _np_batch_norm(xb, mu, var, np.full(3, 2.0),
                                                           np.full(3, 0.5), 1), rtol=1e-10)
            running_mean = momentum * running_mean + (1 - momentum) * mu
            running_var = momentum * running_var + (1 - momentum) * var
            # The program stores momentum as a float32 attribute, as Paddle does.
            np.testing.assert_allclose(scope_value("mean"), running_mean, rtol=1e-6)
            np.testing.assert_allclose(scope_value("var"), running_var, rtol=1e-6)

        # The test program normalizes with the running statistics and leaves them alone.
        probe = rng.standard_normal((2, 3, 2, 2))
        (got,) = EXECUTOR.run(test_program, feed={"x": probe}, fetch_list=[out.name])
        np.testing.assert_allclose(got, _np_batch_norm(probe, running_mean, running_var,
                                                       np.full(3, 2.0), np.full(3, 0.5), 1),
                                   rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(scope_value("mean"), running_mean, rtol=1e-6)
        np.testing.assert_allclose(scope_value("var"), running_var, rtol=1e-6)


def test_batch_norm_nhwc_is_test_and_global_stats():
    rng = np.random.default_rng(5)
    xv = rng.standard_normal((2, 2, 2, 3)).astype("float32")
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 2, 2, 3])
            train = paddle.static.nn.batch_norm(x, data_layout="NHWC", act="relu")
            frozen = paddle.static.nn.batch_norm(x, data_layout="NHWC", is_test=True)
            global_stats = paddle.static.nn.batch_norm(x, data_layout="NHWC",
                                                       use_global_stats=True)
        EXECUTOR.run(startup)
        got = EXECUTOR.run(main, feed={"x": xv}, fetch_list=[train, frozen, global_stats])
        stats = {n: scope_value(f"batch_norm_{i}.w_{j}") for n, i, j in (
            ("trained mean", 0, 1), ("frozen mean", 1, 1), ("frozen var", 1, 2))}
    mu, var = xv.mean(axis=(0, 1, 2)), xv.var(axis=(0, 1, 2))
    ones, zeros = np.ones(3), np.zeros(3)
    np.testing.assert_allclose(got[0], np.maximum(_np_batch_norm(xv, mu, var, ones, zeros, 3), 0),
                               rtol=1e-4, atol=1e-5)
    identity = _np_batch_norm(xv, zeros, ones, ones, zeros, 3)  # running statistics 0 and 1
    np.testing.assert_allclose(got[1], identity, rtol=1e-5)
    np.testing.assert_allclose(got[2], identity, rtol=1e-5)
    np.testing.assert_allclose(stats["trained mean"], 0.1 * mu, rtol=1e-5, atol=1e-7)
    np.testing.assert_array_equal(stats["frozen mean"], zeros)
    np.testing.assert_array_equal(stats["frozen var"], ones)


def test_training_through_batch_norm_trains_scale_and_bias_only():
    rng = np.random.default_rng(6)
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 4])
            y = paddle.static.data("y", [None, 1])
            hidden = paddle.static.nn.batch_norm(paddle.static.nn.fc(x, 6), act="relu")
            loss = paddle.mean(paddle.square(paddle.static.nn.fc(hidden, 1) - y))
            _, params_grads = paddle.optimizer.SGD(0.1).minimize(loss)
        trained = sorted(p.name for p, _ in params_grads)
        assert trained == ["batch_norm_0.b_0", "batch_norm_0.w_0", "fc_0.b_0", "fc_0.w_0",
                           "fc_1.b_0", "fc_1.w_0"]
        EXECUTOR.run(startup)
        scale_before = scope_value("batch_norm_0.w_0").copy()
        losses = []
        for _ in range(30):
            xb = rng.standard_normal((16, 4)).astype("float32")
            yb = xb.sum(axis=1, keepdims=True).astype("float32")
            losses.append(float(EXECUTOR.run(main, feed={"x": xb, "y": yb}, fetch_list=[loss])[0]))
        assert losses[-1] < 0.3 * losses[0]
        assert not np.allclose(scope_value("batch_norm_0.w_0"), scale_before)
        assert np.all(scope_value("batch_norm_0.w_2") > 0)  # running variance


def test_batch_norm_rejects_bad_input():
    with static_mode():
        with paddle.static.program_guard(*new_programs()):
            with pytest.raises(ValueError, match="data layout"):
                paddle.static.nn.batch_norm(paddle.static.data("x", [2, 3]), data_layout="NC")
            with pytest.raises(ValueError, match="channel dim"):
                paddle.static.nn.batch_norm(paddle.static.data("y", [2, None, 4]))
            with pytest.raises(TypeError, match="floating-point"):
                paddle.static.nn.batch_norm(paddle.static.data("z", [2, 3], "int32"))
