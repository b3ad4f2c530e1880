"""Static graph: programs, the op descriptions they hold, the Executor (prepare cache, garbage
collection, inplace), backward, optimizers, and bad input."""

import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
from paddle.base import libpaddle
from paddle.utils import unique_name
from static_testing import flags, new_programs, static_mode

CPU = paddle.CPUPlace()


# ---- programs and modes ---------------------------------------------------------------------

def test_enable_and_disable_static():
    assert paddle.in_dynamic_mode()
    with static_mode():
        assert not paddle.in_dynamic_mode()
        x = paddle.static.data("x", [2, 3])
        assert isinstance(x, paddle.static.Variable)
        assert isinstance(paddle.add(x, x), paddle.static.Variable)
    assert paddle.in_dynamic_mode()
    assert isinstance(paddle.add(paddle.ones([2]), paddle.ones([2])), paddle.Tensor)


def test_program_api():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            assert paddle.static.default_main_program() is main
            assert paddle.static.default_startup_program() is startup
            x = paddle.static.data("x", [None, 4], "float32")
            assert x.shape == [-1, 4] and x.dtype == paddle.float32 and x.stop_gradient
            linear = paddle.nn.Linear(4, 2)
            y = linear(x)
        assert main.num_blocks == 1
        assert main.global_block() is main.block(0)
        names = {v.name for v in main.list_vars()}
        assert {"x", linear.weight.name, linear.bias.name, y.name} <= names
        params = main.all_parameters()
        assert sorted(p.name for p in params) == sorted([linear.weight.name, linear.bias.name])
        assert all(p.persistable and p.trainable for p in params)
        text = str(main)
        assert "matmul_v2" in text and "elementwise_add" in text
        assert f"persist trainable param {linear.weight.name}" in text
        # The startup program initialises the parameters.
        assert [op.type for op in startup.global_block().ops] == ["uniform_random",
                                                                  "fill_constant"]
        clone = main.clone()
        assert [op.type for op in clone.global_block().ops] == \
            [op.type for op in main.global_block().ops]
        assert clone.desc.serialize_to_string() == main.desc.serialize_to_string()


def test_ops_use_paddle_legacy_names():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [3, 4])
            label = paddle.static.data("label", [3, 1], "int64")
            out = paddle.add(x, x)
            mm = paddle.matmul(x, x, transpose_y=True)
            loss = F.cross_entropy(out, label)
            r = paddle.reshape(out, [4, 3])
        ops = {}
        for op in main.global_block().ops:
            ops.setdefault(op.type, op)
        add = ops["elementwise_add"]
        assert add.input("X") == ["x"] and add.input("Y") == ["x"]
        assert add.output("Out") == [out.name] and add.attr("axis") == -1
        matmul = ops["matmul_v2"]
        assert matmul.output("Out") == [mm.name]
        assert matmul.attr("trans_x") is False and matmul.attr("trans_y") is True
        ce = ops["softmax_with_cross_entropy"]
        assert ce.input("Logits") == [out.name] and ce.input("Label") == ["label"]
        assert set(ce.output_names) == {"Loss", "Softmax"}
        assert ops["reshape2"].output("Out") == [r.name]
        assert loss.shape == []


def test_static_matches_dygraph_for_a_few_functions():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4)).astype("float32")
    b = rng.standard_normal((4,)).astype("float32")

    def f(x, y):
        z = paddle.maximum(x * 2.0 + y, paddle.exp(x) - 1)
        return [paddle.sum(z, axis=1), F.softmax(z), paddle.transpose(z, [1, 0]), z[1:, :2]]

    expected = [t.numpy() for t in f(paddle.to_tensor(a), paddle.to_tensor(b))]
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            outs = f(paddle.static.data("a", [3, 4]), paddle.static.data("b", [4]))
        got = paddle.static.Executor().run(main, feed={"a": a, "b": b}, fetch_list=outs)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-6)


# ---- training -------------------------------------------------------------------------------

def _train(static, make_model, make_opt, batches, loss_fn):
    """Trains from fixed initial parameters and returns the losses and final parameters."""
    paddle.seed(7)
    with unique_name.guard():
        if not static:
            model = make_model()
            opt = make_opt(model.parameters())
            losses = []
            for x, y in batches:
                loss = loss_fn(model(paddle.to_tensor(x)), paddle.to_tensor(y))
                loss.backward()
                opt.step()
                opt.clear_grad()
                losses.append(float(loss))
            return losses, {p.name: p.numpy() for p in model.parameters()}
        with static_mode():
            main, startup = new_programs()
            with paddle.static.program_guard(main, startup):
                x = paddle.static.data("x", [None] + list(batches[0][0].shape[1:]),
                                       batches[0][0].dtype.name)
                y = paddle.static.data("y", [None] + list(batches[0][1].shape[1:]),
                                       batches[0][1].dtype.name)
                model = make_model()
                loss = loss_fn(model(x), y)
                make_opt(None).minimize(loss)
            exe = paddle.static.Executor()
            exe.run(startup)
            losses = [float(exe.run(main, feed={"x": bx, "y": by}, fetch_list=[loss])[0])
                      for bx, by in batches]
            scope = paddle.static.global_scope()
            return losses, {p.name: scope.find_var(p.name).get_tensor().numpy()
                            for p in main.all_parameters()}


def test_linear_regression_static_matches_dygraph():
    rng = np.random.default_rng(1)
    w = rng.standard_normal((5, 1)).astype("float32")
    batches = []
    for _ in range(30):
        x = rng.standard_normal((16, 5)).astype("float32")
        batches.append((x, (x @ w + 0.5).astype("float32")))
    args = (lambda: paddle.nn.Linear(5, 1),
            lambda params: paddle.optimizer.SGD(0.1, parameters=params), batches, F.mse_loss)
    dy_losses, dy_params = _train(False, *args)
    st_losses, st_params = _train(True, *args)
    np.testing.assert_allclose(st_losses, dy_losses, rtol=1e-5, atol=1e-6)
    assert st_losses[-1] < 0.05 * st_losses[0]
    for name, value in dy_params.items():
        np.testing.assert_allclose(st_params[name], value, rtol=1e-5, atol=1e-6)


def test_mlp_classifier_static_matches_dygraph():
    rng = np.random.default_rng(2)
    centers = rng.standard_normal((3, 8)).astype("float32") * 3
    batches = []
    for _ in range(40):
        labels = rng.integers(0, 3, size=(32, 1))
        x = (centers[labels[:, 0]] + rng.standard_normal((32, 8))).astype("float32")
        batches.append((x, labels.astype("int64")))

    def make_model():
        return paddle.nn.Sequential(paddle.nn.Linear(8, 16), paddle.nn.ReLU(),
                                    paddle.nn.Linear(16, 3))

    args = (make_model, lambda params: paddle.optimizer.Adam(0.01, parameters=params), batches,
            F.cross_entropy)
    dy_losses, dy_params = _train(False, *args)
    st_losses, st_params = _train(True, *args)
    np.testing.assert_allclose(st_losses, dy_losses, rtol=1e-4, atol=1e-5)
    assert st_losses[-1] < 0.3 * st_losses[0]
    for name, value in dy_params.items():
        np.testing.assert_allclose(st_params[name], value, rtol=1e-4, atol=1e-5)


def test_lr_scheduler_in_static_mode():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 2])
            linear = paddle.nn.Linear(2, 1, bias_attr=False)
            loss = paddle.sum(linear(x))
            scheduler = paddle.optimizer.lr.StepDecay(1.0, step_size=1, gamma=0.5)
            paddle.optimizer.SGD(scheduler).minimize(loss)
        exe = paddle.static.Executor()
        exe.run(startup)
        scope = paddle.static.global_scope()
        ones = np.ones((2, 2), "float32")
        w0 = scope.find_var(linear.weight.name).get_tensor().numpy().copy()
        exe.run(main, feed={"x": ones})
        w1 = scope.find_var(linear.weight.name).get_tensor().numpy().copy()
        scheduler.step()
        exe.run(main, feed={"x": ones})
        w2 = scope.find_var(linear.weight.name).get_tensor().numpy().copy()
        # d(sum(x @ w))/dw = column sums of x = 2: steps of 2 * lr.
        np.testing.assert_allclose(w0 - w1, np.full((2, 1), 2.0), rtol=1e-6)
        np.testing.assert_allclose(w1 - w2, np.full((2, 1), 1.0), rtol=1e-6)


# ---- backward --------------------------------------------------------------------------------

def test_gradient_of_a_variable_used_twice_is_summed():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [3], "float64")
            x.stop_gradient = False
            y = paddle.sum(x * x + x)
            (gx,) = paddle.static.gradients([y], [x])
        types = [op.type for op in main.global_block().ops]
        assert "sum" in types  # the two contributions to x@GRAD meet in one sum op
        xv = np.array([1.0, -2.0, 0.5])
        (g,) = paddle.static.Executor().run(main, feed={"x": xv}, fetch_list=[gx])
        np.testing.assert_allclose(g, 2 * xv + 1)


def test_stop_gradient_set_on_an_intermediate_variable_cuts_the_gradient_through_it():
    # As Paddle's append_backward: y = 2x counts as a constant in z = sum(y * x), so dz/dx = y.
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [3], "float32")
            x.stop_gradient = False
            y = x * 2
            y.stop_gradient = True
            (gx,) = paddle.static.gradients(paddle.sum(y * x), [x])
        (g,) = paddle.static.Executor().run(main, feed={"x": np.array([1.0, 2.0, 3.0], "float32")},
                                            fetch_list=[gx])
        np.testing.assert_allclose(g, [2.0, 4.0, 6.0])


def test_append_backward_returns_parameter_gradients():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [4, 3])
            linear = paddle.nn.Linear(3, 2)
            loss = paddle.mean(linear(x))
            params_grads = paddle.static.append_backward(loss)
        assert sorted(p.name for p, _ in params_grads) == sorted(
            [linear.weight.name, linear.bias.name])
        exe = paddle.static.Executor()
        exe.run(startup)
        grads = exe.run(main, feed={"x": np.ones((4, 3), "float32")},
                        fetch_list=[g for _, g in params_grads])
        by_name = {p.name: g for (p, _), g in zip(params_grads, grads)}
        np.testing.assert_allclose(by_name[linear.weight.name], np.full((3, 2), 0.5))
        np.testing.assert_allclose(by_name[linear.bias.name], np.full((2,), 0.5))


def test_gradients_broadcast_and_target_gradients():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3], "float64")
            b = paddle.static.data("b", [3], "float64")
            seed = paddle.static.data("seed", [2, 3], "float64")
            y = x * b
            gx, gb = paddle.static.gradients([y], [x, b], target_gradients=[seed])
        xv = np.arange(6.0).reshape(2, 3)
        bv = np.array([1.0, 2.0, 3.0])
        sv = np.full((2, 3), 2.0)
        got = paddle.static.Executor().run(main, feed={"x": xv, "b": bv, "seed": sv},
                                           fetch_list=[gx, gb])
        np.testing.assert_allclose(got[0], sv * bv)
        np.testing.assert_allclose(got[1], (sv * xv).sum(axis=0))


# ---- executor: prepare cache, garbage collection, inplace -----------------------------------

def _matmul_chain(n, size):
    main, startup = new_programs()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [size, size])
        h = x
        for _ in range(n):
            h = paddle.matmul(h, x)
        out = paddle.mean(h)
    return main, out


def _peak_bytes(program, feed, fetch, **strategy):
    exe = paddle.static.Executor()
    target = program
    if strategy:
        build = paddle.static.BuildStrategy()
        for k, v in strategy.items():
            setattr(build, k, v)
        target = paddle.static.CompiledProgram(program, build)
    # A fresh scope: with garbage collection off, a second run would reuse the buffers of the
    # first and allocate nothing.
    with paddle.static.scope_guard(paddle.static.Scope()):
        base = libpaddle._memory_allocated(CPU)
        libpaddle._reset_max_memory_allocated(CPU)
        result = exe.run(target, feed=feed, fetch_list=fetch)
        peak = libpaddle._max_memory_allocated(CPU) - base
    return peak, result, exe


def test_program_is_prepared_once():
    with static_mode():
        main, out = _matmul_chain(2, 4)
        exe = paddle.static.Executor()
        feed = {"x": np.ones((4, 4), "float32")}
        exe.run(main, feed=feed, fetch_list=[out])
        (prepared_entry,) = exe._cache.values()
        exe.run(main, feed=feed, fetch_list=[out])
        assert list(exe._cache.values()) == [prepared_entry]
        # Changing the program invalidates the prepared form.
        with paddle.static.program_guard(main):
            extra = paddle.exp(out)
        (value,) = exe.run(main, feed=feed, fetch_list=[extra])
        assert len(exe._cache) == 2
        np.testing.assert_allclose(value, np.exp(16.0), rtol=1e-5)


def test_garbage_collection_lowers_peak_memory():
    size = 256  # 256 KiB per activation
    feed = {"x": np.full((size, size), 1.0 / size, "float32")}
    with static_mode():
        main, out = _matmul_chain(8, size)
        with flags(eager_delete_tensor_gb=-1.0):
            peak_off, result_off, _ = _peak_bytes(main, feed, [out])
        with flags(eager_delete_tensor_gb=0.0):
            peak_on, result_on, exe = _peak_bytes(main, feed, [out])
        with flags(eager_delete_tensor_gb=1.0):  # batched: nothing freed before 1 GiB
            peak_batched, result_batched, _ = _peak_bytes(main, feed, [out])
    activation = size * size * 4
    assert peak_off >= 8 * activation
    assert peak_on <= 3 * activation
    assert peak_batched >= 8 * activation
    np.testing.assert_array_equal(result_on[0], result_off[0])
    np.testing.assert_array_equal(result_batched[0], result_off[0])
    (_, prepared), = exe._cache.values()
    dead = [prepared.dead_after(i) for i in range(prepared.size())]
    assert dead[0] == []  # the first product is read by the next matmul
    assert any(dead)
    assert all("x" not in names for names in dead)  # fed variables are never collected


def test_inplace_shares_buffers_and_keeps_results():
    size = 128
    xv = np.random.default_rng(3).standard_normal((size, size)).astype("float32")
    with static_mode(), flags(eager_delete_tensor_gb=-1.0):
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [size, size])
            a = paddle.matmul(x, x)
            b = F.relu(a)       # relu declares (x -> out): may write into a's buffer
            c = paddle.scale(b, 2.0)
            out = paddle.sum(c)
        peak_inplace, got, exe = _peak_bytes(main, {"x": xv}, [out])
        (_, prepared), = exe._cache.values()
        assert (a.name, b.name) in prepared.inplace_pairs()
        assert (b.name, c.name) in prepared.inplace_pairs()
        scope = paddle.static.global_scope()
        exe.run(main, feed={"x": xv}, fetch_list=[out])
        address = scope.find_var(a.name)._data_address()
        assert address != 0
        assert scope.find_var(b.name)._data_address() == address
        assert scope.find_var(c.name)._data_address() == address
        peak_plain, expected, exe2 = _peak_bytes(main, {"x": xv}, [out], enable_inplace=False)
        (_, plain), = exe2._cache.values()
        assert plain.inplace_pairs() == []
    np.testing.assert_array_equal(got[0], expected[0])
    assert peak_inplace + 2 * size * size * 4 <= peak_plain


def test_inplace_skips_fetched_and_persistable_variables():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [4])
            a = paddle.exp(x)
            b = F.relu(a)
        exe = paddle.static.Executor()
        feed = {"x": np.ones(4, "float32")}
        got = exe.run(main, feed=feed, fetch_list=[a, b])
        (_, prepared), = exe._cache.values()
        assert prepared.inplace_pairs() == []  # a is fetched
        np.testing.assert_allclose(got[0], np.exp(np.ones(4)), rtol=1e-6)
        np.testing.assert_allclose(got[1], np.exp(np.ones(4)), rtol=1e-6)


def test_fetch_results_do_not_change_on_the_next_run():
    with static_mode():
        main, out = _matmul_chain(1, 2)
        exe = paddle.static.Executor()
        first = exe.run(main, feed={"x": np.ones((2, 2), "float32")}, fetch_list=[out],
                        return_numpy=False)[0]
        exe.run(main, feed={"x": np.full((2, 2), 3.0, "float32")}, fetch_list=[out])
        np.testing.assert_allclose(first.numpy(), 2.0)


# ---- bad input -------------------------------------------------------------------------------

def _simple_program():
    main, startup = new_programs()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 3], "float32")
        out = F.relu(x)
    return main, out


def test_feed_with_wrong_shape_or_dtype_names_the_variable():
    with static_mode():
        main, out = _simple_program()
        exe = paddle.static.Executor()
        with pytest.raises(ValueError, match="'x'.*shape"):
            exe.run(main, feed={"x": np.ones((2, 4), "float32")}, fetch_list=[out])
        with pytest.raises(ValueError, match="'x'.*float32.*float64"):
            exe.run(main, feed={"x": np.ones((2, 3))}, fetch_list=[out])
        with pytest.raises(ValueError, match="feed target 'nope'"):
            exe.run(main, feed={"nope": np.ones((2, 3), "float32")}, fetch_list=[out])


def test_fetching_an_unknown_name_raises():
    with static_mode():
        main, out = _simple_program()
        with pytest.raises(ValueError, match="fetch target 'nothing'"):
            paddle.static.Executor().run(main, feed={"x": np.ones((1, 3), "float32")},
                                         fetch_list=["nothing"])


def test_missing_feed_raises_naming_op_and_variable():
    with static_mode():
        main, out = _simple_program()
        with pytest.raises(RuntimeError, match="op 'relu'.*'x' holds no data"):
            paddle.static.Executor().run(main, fetch_list=[out])


def test_hand_built_programs_with_bad_ops_raise():
    with static_mode():
        main, startup = new_programs()
        block = main.global_block()
        a = block.create_var(name="a", shape=[2], dtype="float32")
        b = block.create_var(name="b", shape=[2], dtype="float32")
        # An op type with no implementation.
        block.append_op("no_such_op", inputs={"X": [a]}, outputs={"Out": [b]})
        with pytest.raises(NotImplementedError, match="no_such_op"):
            paddle.static.Executor().run(main)

        # A cycle: relu reads `d`, which only the next op writes.
        cyc, _ = new_programs()
        block = cyc.global_block()
        c = block.create_var(name="c", shape=[2], dtype="float32")
        d = block.create_var(name="d", shape=[2], dtype="float32")
        block.append_op("relu", inputs={"X": [d]}, outputs={"Out": [c]})
        block.append_op("relu", inputs={"X": [c]}, outputs={"Out": [d]})
        with pytest.raises(RuntimeError, match="op 'relu' \\(block 0, op 0\\).*'d'.*cycle"):
            paddle.static.Executor().run(cyc)

        # An undefined variable.
        undef, _ = new_programs()
        block = undef.global_block()
        e = block.create_var(name="e", shape=[2], dtype="float32")
        block.append_op("relu", inputs={"X": ["ghost"]}, outputs={"Out": [e]})
        with pytest.raises(KeyError, match="ghost"):
            paddle.static.Executor().run(undef)

        # A required attribute missing and a missing input slot.
        bad, _ = new_programs()
        block = bad.global_block()
        f = block.create_var(name="f", shape=[2], dtype="float32")
        block.append_op("relu", inputs={}, outputs={"Out": [f]})
        with pytest.raises(ValueError, match="op 'relu'.*'X' is missing"):
            paddle.static.Executor().run(bad)


def test_building_an_op_with_bad_shapes_raises_at_build_time():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3])
            y = paddle.static.data("y", [4, 5])
            with pytest.raises(ValueError, match="matmul"):
                paddle.matmul(x, y)
            with pytest.raises(TypeError, match="static Variable"):
                paddle._C_ops.relu(paddle.to_tensor([1.0]) if False else 1.0)


def test_variable_has_no_data_while_building():
    with static_mode():
        x = paddle.static.data("x", [2])
        with pytest.raises(RuntimeError, match="holds no data"):
            x.numpy()
        with pytest.raises(TypeError, match="truth value"):
            bool(x)


@pytest.mark.parametrize("make_opt", [
    lambda params: paddle.optimizer.Momentum(0.05, momentum=0.9, parameters=params,
                                             weight_decay=0.01),
    lambda params: paddle.optimizer.AdamW(0.01, parameters=params, weight_decay=0.1),
    lambda params: paddle.optimizer.Adam(
        0.01, parameters=params, grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5)),
    lambda params: paddle.optimizer.SGD(
        paddle.optimizer.lr.ExponentialDecay(0.1, 0.9), parameters=params),
], ids=["momentum_l2", "adamw", "adam_clip", "sgd_scheduler"])
def test_each_optimizer_in_static_mode_matches_dygraph(make_opt):
    rng = np.random.default_rng(4)
    batches = [(rng.standard_normal((8, 4)).astype("float32"),
                rng.standard_normal((8, 2)).astype("float32")) for _ in range(10)]

    def make_model():
        return paddle.nn.Sequential(paddle.nn.Linear(4, 6), paddle.nn.Tanh(),
                                    paddle.nn.Linear(6, 2))

    args = (make_model, make_opt, batches, F.mse_loss)
    dy_losses, dy_params = _train(False, *args)
    st_losses, st_params = _train(True, *args)
    np.testing.assert_allclose(st_losses, dy_losses, rtol=1e-4, atol=1e-6)
    for name, value in dy_params.items():
        np.testing.assert_allclose(st_params[name], value, rtol=1e-4, atol=1e-6)


def test_update_ops_are_paddle_optimizer_ops():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3])
            loss = paddle.mean(paddle.nn.Linear(3, 1)(x))
            ops, params_grads = paddle.optimizer.Adam(0.1).minimize(loss)
        assert [op.type for op in ops] == ["adam", "adam"]
        adam = ops[0]
        param = adam.input("Param")[0]
        assert adam.output("ParamOut") == [param]  # updates write the parameter in place
        assert adam.input("Moment1") == adam.output("Moment1Out")
        assert adam.attr("op_role") == 2
        lr = adam.input("LearningRate")[0]
        assert main.global_block().var(lr).persistable
        # Accumulators and the learning rate are initialised by the startup program.
        written = {n for op in startup.global_block().ops for n in op.output_arg_names}
        assert {lr, adam.input("Moment1")[0], adam.input("Beta1Pow")[0]} <= written


def test_clone_for_test_drops_training_ops():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3])
            out = paddle.nn.Linear(3, 1)(x)
            loss = paddle.mean(out)
            paddle.optimizer.SGD(0.1).minimize(loss)
        test = main.clone(for_test=True)
        types = [op.type for op in test.global_block().ops]
        assert types == ["matmul_v2", "elementwise_add", "reduce_mean"]
        exe = paddle.static.Executor()
        exe.run(startup)
        xv = np.ones((2, 3), "float32")
        before = exe.run(test, feed={"x": xv}, fetch_list=[out])[0]
        again = exe.run(test, feed={"x": xv}, fetch_list=[out])[0]
        np.testing.assert_array_equal(before, again)  # the test program does not train


def test_gc_flag_comes_from_the_environment():
    import subprocess
    import sys
    code = ("import paddle; print(paddle.get_flags('FLAGS_eager_delete_tensor_gb')"
            "['FLAGS_eager_delete_tensor_gb'])")
    env = dict(__import__("os").environ, FLAGS_eager_delete_tensor_gb="-1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert float(out.stdout.strip()) == -1.0


def test_elementwise_axis_of_older_programs_aligns_y():
    with static_mode():
        main, _ = new_programs()
        block = main.global_block()
        x = block.create_var(name="x", shape=[2, 3, 4], dtype="float32", need_check_feed=True)
        y = block.create_var(name="y", shape=[3], dtype="float32", need_check_feed=True)
        out = block.create_var(name="out", shape=[2, 3, 4], dtype="float32")
        block.append_op("elementwise_add", inputs={"X": [x], "Y": [y]}, outputs={"Out": [out]},
                        attrs={"axis": 1})
        xv = np.arange(24, dtype="float32").reshape(2, 3, 4)
        yv = np.array([100.0, 200.0, 300.0], "float32")
        (got,) = paddle.static.Executor().run(main, feed={"x": xv, "y": yv}, fetch_list=[out])
        np.testing.assert_array_equal(got, xv + yv[None, :, None])


def test_fill_constant_keeps_exact_values_in_str_value():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            a = paddle.full([2], 0.1, "float64")
            b = paddle.full([1], 2 ** 40 + 1, "int64")
        op = main.global_block().ops[0]
        assert op.type == "fill_constant" and op.attr("str_value") == "0.10000000000000001"
        got = paddle.static.Executor().run(main, fetch_list=[a, b])
        assert got[0][0] == 0.1 and got[1][0] == 2 ** 40 + 1


def test_temporaries_do_not_advance_layer_names():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3])
            first = paddle.nn.Linear(3, 3)
            y = paddle.add(first(x), x)
            second = paddle.nn.Linear(3, 3)
        assert first.weight.name == "linear_0.w_0" and second.weight.name == "linear_1.w_0"
        assert y.name == "elementwise_add_1.tmp_0"


def test_promotion_casts_are_recorded_in_program_order():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            a = paddle.static.data("a", [2], "float32")
            b = paddle.static.data("b", [2], "float64")
            c = paddle.add(a, b)
            out = main.global_block().create_var(name="out", shape=[2], dtype="float64")
            paddle.assign(c, out)
        types = [op.type for op in main.global_block().ops]
        assert types == ["cast", "elementwise_add", "assign"]
        assert types == [main.desc.block(0).op(i).type() for i in range(3)]
        got = paddle.static.Executor().run(
            main, feed={"a": np.ones(2, "float32"), "b": np.ones(2)}, fetch_list=[out])
        np.testing.assert_array_equal(got[0], [2.0, 2.0])


def test_scope_tensors_are_set_like_paddle_lod_tensors():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3])
            linear = paddle.nn.Linear(3, 2)
            y = linear(x)
        scope = paddle.static.global_scope()
        scope.var(linear.weight.name).get_tensor().set(np.ones((3, 2), "float32"), CPU)
        scope.var(linear.bias.name).get_tensor().set(np.array([0.5, -0.5], "float32"))
        (got,) = paddle.static.Executor().run(main, feed={"x": np.ones((2, 3), "float32")},
                                              fetch_list=[y])
        np.testing.assert_array_equal(got, [[3.5, 2.5], [3.5, 2.5]])
        np.testing.assert_array_equal(np.array(scope.find_var(linear.weight.name).get_tensor()),
                                      np.ones((3, 2)))


def test_missing_kernel_for_the_place_names_the_op():
    with static_mode():
        main, startup = new_programs()
        block = main.global_block()
        a = block.create_var(name="a", shape=[2], dtype="bool")
        b = block.create_var(name="b", shape=[2], dtype="bool")
        block.append_op("exp", inputs={"X": [a]}, outputs={"Out": [b]})
        with pytest.raises(NotImplementedError, match=r"op 'exp' \(block 0, op 0\).*kernel"):
            paddle.static.Executor().run(main)


def test_outputs_a_program_leaves_out_are_still_computed_safely():
    # Paddle's saved programs omit outputs nothing reads (layer_norm's Mean/Variance here).
    with static_mode():
        main, _ = new_programs()
        block = main.global_block()
        x = block.create_var(name="x", shape=[2, 4], dtype="float32", need_check_feed=True)
        y = block.create_var(name="y", shape=[2, 4], dtype="float32")
        block.append_op("layer_norm", inputs={"X": [x]}, outputs={"Y": [y]},
                        attrs={"begin_norm_axis": 1, "epsilon": 1e-5})
        xv = np.arange(8, dtype="float32").reshape(2, 4)
        (got,) = paddle.static.Executor().run(main, feed={"x": xv}, fetch_list=[y])
        mean = xv.mean(axis=1, keepdims=True)
        expected = (xv - mean) / np.sqrt(xv.var(axis=1, keepdims=True) + 1e-5)
        np.testing.assert_allclose(got, expected, rtol=1e-5)
