"""paddle.static.nn.cond and while_loop: the programs they build (Paddle's conditional_block,
while and select_input ops in sub-blocks), what the Executor computes from them, gradients
through both against finite differences and dygraph, training through cond, nesting, garbage
collection, and bad input."""

import numpy as np
import pytest

import paddle
from paddle.base import libpaddle
from static_testing import flags, new_programs, static_mode

cond = paddle.static.nn.cond
while_loop = paddle.static.nn.while_loop
STEP_SCOPES = 11


def run(main, feed, fetch, startup=None):
    exe = paddle.static.Executor()
    if startup is not None:
        exe.run(startup)
    return exe.run(main, feed=feed, fetch_list=fetch)


def data(name, shape, dtype="float64", grad=False):
    var = paddle.static.data(name, shape, dtype)
    var.stop_gradient = not grad
    return var


def numeric_grad(f, value, eps=1e-6):
    grad = np.zeros_like(value)
    for i in np.ndindex(value.shape):
        step = np.zeros_like(value)
        step[i] = eps
        grad[i] = (f(value + step) - f(value - step)) / (2 * eps)
    return grad


# ---- cond: programs and forward results -------------------------------------------------------

@pytest.mark.parametrize("x,expected", [([1.0, 2.0, 3.0], [2.0, 4.0, 6.0]),
                                        ([-1.0, -2.0, 0.5], [-2.0, -3.0, -0.5])])
def test_cond_runs_the_selected_branch(x, expected):
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            xv = data("x", [3])
            out = cond(paddle.sum(xv) > 0, lambda: xv * 2, lambda: xv - 1)
        assert out.shape == [3] and out.dtype == paddle.float64
        result, = run(main, {"x": np.array(x)}, [out])
        np.testing.assert_allclose(result, expected)


def test_cond_program_is_written_as_paddle_writes_it():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = data("x", [3])
            pred = paddle.sum(x) > 0
            out = cond(pred, lambda: x * 2, lambda: x - 1)
        ops = main.global_block().ops
        types = [op.type for op in ops]
        assert types[-5:] == ["conditional_block", "logical_not", "conditional_block", "cast",
                              "select_input"]
        true_op, false_op = ops[-5], ops[-3]
        assert true_op.input("Cond") == [pred.name]
        assert false_op.input("Cond") == [ops[-4].output("Out")[0]]
        for op in (true_op, false_op):
            assert op.input("Input") == ["x"]
            assert op.attr("is_scalar_condition") is True
            scope_var = main.global_block().var(op.output("Scope")[0])
            assert scope_var.type == STEP_SCOPES
            sub = main.block(op.attr("sub_block"))
            assert sub.parent_idx == 0
            # The branch result leaves the sub-block through an assign into the parent block.
            assert sub.ops[-1].type == "assign"
            assert op.output("Out") == sub.ops[-1].output("Out")
            assert main.global_block().has_var(op.output("Out")[0])
        select = ops[-1]
        assert select.input("X") == [false_op.output("Out")[0], true_op.output("Out")[0]]
        assert select.input("Mask") == [ops[-2].output("Out")[0]]
        assert ops[-2].attr("out_dtype") == 2  # int32
        assert select.output("Out") == [out.name]


def test_cond_program_survives_serialisation():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = data("x", [3])
            out = cond(paddle.sum(x) > 0, lambda: paddle.exp(x), lambda: x * x)
        loaded = paddle.static.Program.parse_from_string(main.desc.serialize_to_string())
        assert [b.parent_idx for b in loaded.blocks] == [-1, 0, 0]
        for value in ([1.0, 2.0, -1.0], [-3.0, 0.0, 1.0]):
            a = np.array(value)
            got, = run(loaded, {"x": a}, [out.name])
            np.testing.assert_allclose(got, np.exp(a) if a.sum() > 0 else a * a)


def test_inference_model_with_control_flow_round_trips(tmp_path):
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = data("x", [None, 3])
            h = paddle.nn.Linear(3, 3)(x)
            out = cond(paddle.mean(h) > 0, lambda: h * 2.0, lambda: paddle.tanh(h))
            i = paddle.full([1], 0, "int64")
            _, y = while_loop(lambda i, y: i < 3, lambda i, y: [i + 1, y + out], [i, out])
        exe = paddle.static.Executor()
        exe.run(startup)
        inputs = [np.full((2, 3), 0.7), np.full((2, 3), -0.7)]
        expected = [exe.run(main, feed={"x": v}, fetch_list=[y])[0] for v in inputs]
        prefix = str(tmp_path / "model")
        paddle.static.save_inference_model(prefix, [x], [y], exe, program=main)
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        types = [op.type for op in program.global_block().ops]
        assert {"conditional_block", "select_input", "while"} <= set(types)
        for v, e in zip(inputs, expected):
            np.testing.assert_allclose(exe.run(program, feed={feeds[0]: v},
                                               fetch_list=fetches)[0], e)


def test_type_promotion_inside_and_around_control_flow():
    # float32 parameters meet float64 data: the casts promotion inserts come before the ops
    # appended after them, and the variables they read count as the sub-blocks' inputs.
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = data("x", [3])
            w = paddle.static.create_parameter(
                [3], "float32", default_initializer=paddle.nn.initializer.Assign(W0))
            h = x * w
            out = cond(paddle.sum(h) > 0, lambda: h * w, lambda: x - w)
            i = paddle.full([1], 0, "int64")
            _, y = while_loop(lambda i, y: i < 2, lambda i, y: [i + 1, y * w], [i, out])
        w32 = W0.astype("float32").astype("float64")
        for value in ([1.0, 2.0, 3.0], [-1.0, -2.0, -3.0]):
            v = np.array(value)
            h_np = v * w32
            expected = (h_np * w32 if h_np.sum() > 0 else v - w32) * w32 * w32
            got, = run(main, {"x": v}, [y], startup)
            np.testing.assert_allclose(got, expected)


def test_cond_nested_structures():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = data("x", [2])
            pred = paddle.static.data("pred", [], "bool")

            def true_fn():
                return {"a": x + 1, "b": (x * 2, [x * 3])}, 7

            def false_fn():
                return {"b": (x - 2, [paddle.zeros([2], "float64")]), "a": x * 10}, 7

            result = cond(pred, true_fn, false_fn)
        assert isinstance(result, tuple) and result[1] == 7
        d = result[0]
        assert isinstance(d, dict) and isinstance(d["b"], tuple) and isinstance(d["b"][1], list)
        fetch = [d["a"], d["b"][0], d["b"][1][0]]
        a = np.array([1.0, 2.0])
        got = run(main, {"x": a, "pred": np.array(True)}, fetch)
        for g, e in zip(got, [a + 1, a * 2, a * 3]):
            np.testing.assert_allclose(g, e)
        got = run(main, {"x": a, "pred": np.array(False)}, fetch)
        for g, e in zip(got, [a * 10, a - 2, np.zeros(2)]):
            np.testing.assert_allclose(g, e)


def test_cond_results_may_differ_in_shape_and_mix_constants():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            pred = paddle.static.data("pred", [], "bool")
            out, number = cond(pred, lambda: (paddle.ones([2, 3]), 1),
                               lambda: (paddle.zeros([4, 3]), 2))
        assert out.shape == [-1, 3]
        ones, one = run(main, {"pred": np.array(True)}, [out, number])
        zeros, two = run(main, {"pred": np.array(False)}, [out, number])
        assert ones.shape == (2, 3) and (ones == 1).all() and one == 1
        assert zeros.shape == (4, 3) and (zeros == 0).all() and two == 2


def test_cond_without_results_runs_its_side_effects():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = data("x", [2])
            total = paddle.zeros([2], "float64")

            def add_x():
                paddle.assign(total + x, total)

            assert cond(paddle.sum(x) > 0, add_x) is None
            assert cond(paddle.sum(x) > 0, None, None) is None
            doubled = total * 2
        got, = run(main, {"x": np.array([1.0, 2.0])}, [doubled])
        np.testing.assert_allclose(got, [2.0, 4.0])
        got, = run(main, {"x": np.array([-1.0, -2.0])}, [doubled])
        np.testing.assert_allclose(got, [0.0, 0.0])


def test_cond_in_dygraph_calls_the_branch():
    x = paddle.to_tensor([1.0, 2.0])
    assert float(cond(paddle.sum(x) > 0, lambda: x.sum(), lambda: -x.sum())) == 3.0
    assert cond(paddle.sum(x) < 0, lambda: x) is None


@pytest.mark.parametrize("true_fn,false_fn,message", [
    (lambda: (1.0,), lambda: None, "true_fn returns non-None while false_fn returns None"),
    (lambda: None, lambda: 1.0, "true_fn returns None while false_fn returns non-None"),
    ("x2", "pair", "true fn returns 1 vars, but false fn returns 2 vars"),
    ("pair", "nested", "Incompatible return values of `no name` in true_fn and false_fn in cond"),
    ("dict", "dict_b", "don't have the same set of keys"),
])
def test_cond_rejects_mismatched_branches(true_fn, false_fn, message):
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = data("x", [2])
            fns = {"x2": lambda: x * 2, "pair": lambda: (x, x), "nested": lambda: (x, [x]),
                   "dict": lambda: {"a": x}, "dict_b": lambda: {"b": x}}
            with pytest.raises(ValueError, match=message):
                cond(paddle.sum(x) > 0, fns.get(true_fn, true_fn), fns.get(false_fn, false_fn))


def test_cond_rejects_bad_predicates_and_branches():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = data("x", [2])
            with pytest.raises(TypeError, match="data type of 'pred' in cond must be bool"):
                cond(paddle.sum(x), lambda: x, lambda: x)
            with pytest.raises(TypeError, match=r"shape as \[2\]"):
                cond(x > 0, lambda: x, lambda: x)
            with pytest.raises(TypeError, match="must be Variable"):
                cond(True, lambda: x, lambda: x)
            with pytest.raises(TypeError, match="true_fn in cond must be callable"):
                cond(paddle.sum(x) > 0, x, lambda: x)


def _raw_control_flow_program(op_type, cond_dtype, cond_shape):
    """A conditional_block or while op over an empty sub-block, conditioned on a fed variable."""
    main, _ = new_programs()
    with paddle.static.program_guard(main):
        c = paddle.static.data("c", cond_shape, cond_dtype)
        block = main.current_block()
        sub = main._create_block()
        main._rollback()
        scopes = block.create_var(type=STEP_SCOPES)
        if op_type == "while":
            block.append_op("while", inputs={"X": [], "Condition": [c]},
                            outputs={"Out": [c], "StepScopes": [scopes]},
                            attrs={"sub_block": sub, "is_test": False})
        else:
            block.append_op("conditional_block", inputs={"Cond": [c], "Input": []},
                            outputs={"Out": [], "Scope": [scopes]},
                            attrs={"sub_block": sub, "is_scalar_condition": True})
    return main


@pytest.mark.parametrize("op_type", ["conditional_block", "while"])
def test_run_rejects_conditions_that_are_not_one_bool(op_type):
    with static_mode():
        main = _raw_control_flow_program(op_type, "float32", [1])
        with pytest.raises(TypeError, match=f"op '{op_type}'.*must be a bool tensor"):
            run(main, {"c": np.ones([1], "float32")}, [])
        main = _raw_control_flow_program(op_type, "bool", [2])
        with pytest.raises(ValueError, match=rf"op '{op_type}'.*one element.*\[2\]"):
            run(main, {"c": np.array([True, False])}, [])


# ---- while_loop: programs and forward results -------------------------------------------------

def test_while_loop_trip_count_depends_on_the_data():
    # The smallest k with 2**k > x, and the sum 1 + 2 + ... + 2**(k-1).
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = data("x", [1])
            k = paddle.full([1], 0, "int64")
            power = paddle.full([1], 1.0, "float64")
            total = paddle.full([1], 0.0, "float64")
            k, power, total = while_loop(lambda k, p, s: p <= x,
                                         lambda k, p, s: [k + 1, p * 2, s + p],
                                         [k, power, total])
        for value in [0.5, 1.0, 5.0, 1000.0]:
            got = run(main, {"x": np.array([value])}, [k, power, total])
            steps = int(np.floor(np.log2(value))) + 1 if value >= 1 else 0
            assert got[0][0] == steps
            np.testing.assert_allclose(got[1], [2.0 ** steps])
            np.testing.assert_allclose(got[2], [2.0 ** steps - 1])


def test_while_program_is_written_as_paddle_writes_it():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = data("x", [2])
            i = paddle.full([1], 0, "int64")
            n = paddle.full([1], 3, "int64")
            i2, y = while_loop(lambda i, y: i < n, lambda i, y: [i + 1, y + x], [i, x * 1.0])
        op = main.global_block().ops[-1]
        assert op.type == "while"
        pre_cond = op.input("Condition")[0]
        assert main.global_block().var(pre_cond).dtype == paddle.bool
        assert sorted(op.output("Out")) == sorted([i.name, y.name, pre_cond])
        assert set(op.input("X")) == {i.name, y.name, "x", n.name}
        assert main.global_block().var(op.output("StepScopes")[0]).type == STEP_SCOPES
        assert op.attr("is_test") is False
        sub = main.block(op.attr("sub_block"))
        # The body's results, then the recomputed condition, are assigned to the loop variables.
        tail = sub.ops[-3:]
        assert [o.type for o in tail] == ["assign"] * 3
        assert [o.output("Out")[0] for o in tail] == [i.name, y.name, pre_cond]
        assert i2 is i
        got = run(main, {"x": np.array([1.0, 2.0])}, [i2, y])
        assert got[0][0] == 3
        np.testing.assert_allclose(got[1], [4.0, 8.0])


def test_while_loop_that_runs_no_step_returns_its_inputs():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = data("x", [2], grad=True)
            i = paddle.full([1], 5, "int64")
            _, y = while_loop(lambda i, y: i < 3, lambda i, y: [i + 1, y * y], [i, x * 1.0])
            gx, = paddle.static.gradients([paddle.sum(y * 3.0)], [x])
        got = run(main, {"x": np.array([1.5, 2.0])}, [y, gx])
        np.testing.assert_allclose(got[0], [1.5, 2.0])
        np.testing.assert_allclose(got[1], [3.0, 3.0])


def test_while_loop_nested_loop_variables():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            i = paddle.full([1], 0, "int64")
            pair = (paddle.full([2], 1.0, "float64"), paddle.full([2], 0.0, "float64"))
            acc = {"sum": paddle.full([1], 0.0, "float64")}

            def body(i, pair, acc):
                a, b = pair
                return i + 1, (a * 2, b + a), {"sum": acc["sum"] + paddle.sum(a)}

            i, pair, acc = while_loop(lambda i, pair, acc: i < 4, body, [i, pair, acc])
        assert isinstance(pair, tuple) and isinstance(acc, dict)
        got = run(main, {}, [pair[0], pair[1], acc["sum"]])
        np.testing.assert_allclose(got[0], [16.0, 16.0])
        np.testing.assert_allclose(got[1], [15.0, 15.0])
        np.testing.assert_allclose(got[2], [30.0])


def test_while_loop_body_may_permute_its_variables():
    # Fibonacci: (a, b) <- (b, a + b) reads a and b before either is overwritten.
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            i = paddle.full([1], 0, "int64")
            a = paddle.full([1], 0.0, "float64")
            b = paddle.full([1], 1.0, "float64")
            _, a, b = while_loop(lambda i, a, b: i < 10, lambda i, a, b: [i + 1, b, a + b],
                                 [i, a, b])
        got = run(main, {}, [a, b])
        assert got[0][0] == 55 and got[1][0] == 89


def test_while_loop_is_test_runs_the_same():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = data("x", [1])
            i = paddle.full([1], 0, "int64")
            _, y = while_loop(lambda i, y: i < 6, lambda i, y: [i + 1, y * x], [i, x * 1.0],
                              is_test=True)
        assert main.global_block().ops[-1].attr("is_test") is True
        np.testing.assert_allclose(run(main, {"x": np.array([2.0])}, [y])[0], [128.0])
        # As in Paddle, such a loop has no gradient.
        x.stop_gradient = False
        with paddle.static.program_guard(main):
            gx, = paddle.static.gradients([paddle.sum(y)], [x])
        with pytest.raises(RuntimeError, match="op 'while_grad'.*is_test=True"):
            run(main, {"x": np.array([2.0])}, [gx])


def test_while_loop_in_dygraph_runs_the_body():
    i, s = while_loop(lambda i, s: i < 4, lambda i, s: [i + 1, s + i],
                      [paddle.to_tensor(0), paddle.to_tensor(0)])
    assert int(i) == 4 and int(s) == 6


def test_while_loop_rejects_bad_arguments():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            i = paddle.full([1], 0, "int64")
            x = paddle.full([2], 1.0, "float64")
            with pytest.raises(TypeError, match="cond in while_loop should be callable"):
                while_loop(None, lambda i: [i + 1], [i])
            with pytest.raises(TypeError, match="body in while_loop should be callable"):
                while_loop(lambda i: i < 3, 1, [i])
            with pytest.raises(TypeError, match="'loop_vars' in static.nn.while_loop must be"):
                while_loop(lambda i: i < 3, lambda i: [i + 1], i)
            with pytest.raises(ValueError, match="loop_vars in while_loop should not be empty"):
                while_loop(lambda: i < 3, lambda: [], [])
            with pytest.raises(ValueError, match="should return the same arity"):
                while_loop(lambda i, x: i < 3, lambda i, x: [i + 1], [i, x])
            with pytest.raises(ValueError, match="should return the same arity"):
                while_loop(lambda i, x: i < 3, lambda i, x: [i + 1, (x, x)], [i, x])
            with pytest.raises(TypeError, match="must be bool"):
                while_loop(lambda i: i + 1, lambda i: [i + 1], [i])
            with pytest.raises(TypeError, match=r"shape as \[2\]"):
                while_loop(lambda i, x: x > 0, lambda i, x: [i + 1, x], [i, x])


# ---- gradients --------------------------------------------------------------------------------

W0 = np.array([0.5, -1.2, 0.8])


def _cond_model(x, w):
    """Works on static Variables and dygraph tensors alike, with the branch chosen by cond in
    static mode and by Python in dygraph."""
    branches = (lambda: paddle.tanh(x * w) * w, lambda: paddle.sin(x) * w + x)
    if paddle.in_dynamic_mode():
        out = branches[0]() if float(paddle.sum(x)) > 0 else branches[1]()
    else:
        out = cond(paddle.sum(x) > 0, *branches)
    return paddle.sum(out * out)


def _cond_model_np(x, w):
    out = np.tanh(x * w) * w if x.sum() > 0 else np.sin(x) * w + x
    return (out * out).sum()


def _while_model(x, w, steps):
    """y <- y * w + x, steps times (a fed trip count in static mode), then sum(y**2)."""
    if paddle.in_dynamic_mode():
        y = x * 1.0
        for _ in range(int(steps)):
            y = y * w + x
        return paddle.sum(y * y)
    i = paddle.full([1], 0, "int64")
    _, y = while_loop(lambda i, y: i < steps, lambda i, y: [i + 1, y * w + x], [i, x * 1.0])
    return paddle.sum(y * y)


def _while_model_np(x, w, steps):
    y = x.copy()
    for _ in range(steps):
        y = y * w + x
    return (y * y).sum()


def _static_grads(model, x_value, w_value, extra=None):
    """The model's loss and its gradients with respect to x (a fed input) and w (a
    parameter)."""
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = data("x", [3], grad=True)
            w = paddle.static.create_parameter(
                [3], "float64", default_initializer=paddle.nn.initializer.Assign(w_value))
            args = [x, w]
            feed = {"x": x_value}
            if extra is not None:
                args.append(paddle.static.data("n", [1], "int64"))
                feed["n"] = np.array([extra])
            loss = model(*args)
            gx, gw = paddle.static.gradients([loss], [x, w])
        return run(main, feed, [loss, gx, gw], startup)


def _dygraph_grads(model, x_value, w_value, extra=None):
    x = paddle.to_tensor(x_value, stop_gradient=False)
    w = paddle.to_tensor(w_value, stop_gradient=False)
    loss = model(x, w) if extra is None else model(x, w, extra)
    loss.backward()
    # A tensor no gradient reached (w in a loop of no steps) has a zero gradient in static mode.
    return [loss.numpy()] + [np.zeros_like(v) if t.grad is None else t.grad.numpy()
                             for t, v in ((x, x_value), (w, w_value))]


@pytest.mark.parametrize("x", [[0.3, 1.0, 2.0], [-0.7, 0.2, -1.5]])
def test_cond_gradients_match_finite_differences_and_dygraph(x):
    x = np.array(x)
    loss, gx, gw = _static_grads(_cond_model, x, W0)
    np.testing.assert_allclose(loss, _cond_model_np(x, W0))
    np.testing.assert_allclose(gx, numeric_grad(lambda v: _cond_model_np(v, W0), x), rtol=1e-6)
    np.testing.assert_allclose(gw, numeric_grad(lambda v: _cond_model_np(x, v), W0), rtol=1e-6)
    for s, d in zip([loss, gx, gw], _dygraph_grads(_cond_model, x, W0)):
        np.testing.assert_allclose(s, d, rtol=1e-12)


@pytest.mark.parametrize("steps", [0, 1, 4])
def test_while_gradients_add_up_over_the_steps(steps):
    x = np.array([0.4, -0.3, 1.1])
    loss, gx, gw = _static_grads(_while_model, x, W0, extra=steps)
    np.testing.assert_allclose(loss, _while_model_np(x, W0, steps))
    np.testing.assert_allclose(gx, numeric_grad(lambda v: _while_model_np(v, W0, steps), x),
                               rtol=1e-6, atol=1e-10)
    np.testing.assert_allclose(gw, numeric_grad(lambda v: _while_model_np(x, v, steps), W0),
                               rtol=1e-6, atol=1e-10)
    for s, d in zip([loss, gx, gw], _dygraph_grads(_while_model, x, W0, steps)):
        np.testing.assert_allclose(s, d, rtol=1e-12)


def test_while_gradient_flows_between_loop_variables():
    # Only b reaches the loss; a's gradient reaches x through b in earlier steps.
    def model(x, w):
        i = paddle.full([1], 0, "int64")
        _, a, b = while_loop(lambda i, a, b: i < 3,
                             lambda i, a, b: [i + 1, a * w, b + paddle.sin(a)],
                             [i, x * 1.0, paddle.zeros([3], "float64")])
        return paddle.sum(b * b)

    def model_np(x, w):
        a, b = x.copy(), np.zeros(3)
        for _ in range(3):
            a, b = a * w, b + np.sin(a)
        return (b * b).sum()

    x = np.array([0.4, -0.3, 1.1])
    loss, gx, gw = _static_grads(model, x, W0)
    np.testing.assert_allclose(loss, model_np(x, W0))
    np.testing.assert_allclose(gx, numeric_grad(lambda v: model_np(v, W0), x), rtol=1e-6)
    np.testing.assert_allclose(gw, numeric_grad(lambda v: model_np(x, v), W0), rtol=1e-6)


def test_gradient_with_respect_to_a_fed_loop_variable():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = data("x", [2], grad=True)
            i = paddle.full([1], 0, "int64")
            _, y = while_loop(lambda i, y: i < 3, lambda i, y: [i + 1, y * y], [i, x])
            gx, = paddle.static.gradients([paddle.sum(y)], [x])
        value = np.array([1.1, 0.9])
        got = run(main, {"x": value}, [y, gx])
        np.testing.assert_allclose(got[0], value ** 8)
        np.testing.assert_allclose(got[1], 8 * value ** 7)


def _nested_model_np(x, w):
    y = x.copy()
    for k in range(4):
        y = y * w if k % 2 == 1 else y + np.sin(y)
    if x.sum() > 0:
        z = w.copy()
        for _ in range(2):
            z = z * x
    else:
        z = w * 3.0
    return (y * y).sum() + (z * z).sum()


def _nested_model(x, w):
    """cond inside a while_loop body, and a while_loop inside a cond branch."""
    i = paddle.full([1], 0, "int64")

    def body(i, y):
        odd = paddle.reshape((i % 2) == 1, [])
        return [i + 1, cond(odd, lambda: y * w, lambda: y + paddle.sin(y))]

    _, y = while_loop(lambda i, y: i < 4, body, [i, x * 1.0])

    def loop_in_branch():
        j = paddle.full([1], 0, "int64")
        return while_loop(lambda j, z: j < 2, lambda j, z: [j + 1, z * x], [j, w * 1.0])[1]

    z = cond(paddle.sum(x) > 0, loop_in_branch, lambda: w * 3.0)
    return paddle.sum(y * y) + paddle.sum(z * z)


@pytest.mark.parametrize("x", [[1.0, 0.5, 0.3], [-0.2, -0.4, 0.1]])
def test_nested_control_flow_forward_and_gradients(x):
    x = np.array(x)
    loss, gx, gw = _static_grads(_nested_model, x, W0)
    np.testing.assert_allclose(loss, _nested_model_np(x, W0))
    np.testing.assert_allclose(gx, numeric_grad(lambda v: _nested_model_np(v, W0), x), rtol=1e-6)
    np.testing.assert_allclose(gw, numeric_grad(lambda v: _nested_model_np(x, v), W0), rtol=1e-6)


def test_gradient_program_uses_paddle_op_types():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = data("x", [3], grad=True)
            out = cond(paddle.sum(x) > 0, lambda: x * 2, lambda: x * 3)
            i = paddle.full([1], 0, "int64")
            _, y = while_loop(lambda i, y: i < 2, lambda i, y: [i + 1, y * out], [i, x * 1.0])
            paddle.static.append_backward(paddle.sum(y))
        types = [op.type for op in main.global_block().ops]
        assert "while_grad" in types and "select_output" in types
        assert types.count("conditional_block_grad") == 2
        for op in main.global_block().ops:
            if op.type in ("while_grad", "conditional_block_grad"):
                grad_block = main.block(op.attr("sub_block"))
                assert grad_block.forward_block_idx > 0
                assert grad_block.parent_idx == 0


# ---- training, executor settings and repeated runs -----------------------------------------

def _tiny_model_loss(x, y, w, b):
    h = paddle.matmul(x, w) + b
    branches = (lambda: paddle.nn.functional.relu(h) * 2.0, lambda: paddle.tanh(h))
    if paddle.in_dynamic_mode():
        out = branches[0]() if float(paddle.mean(h)) > 0 else branches[1]()
    else:
        out = cond(paddle.mean(h) > 0, *branches)
    return paddle.mean((out - y) ** 2)


def test_training_through_cond_matches_dygraph():
    rng = np.random.default_rng(0)
    w0 = rng.standard_normal((3, 2)) * 0.5
    b0 = np.array([0.3, -0.2])
    w_true = rng.standard_normal((3, 2))
    xs = [rng.standard_normal((8, 3)) + shift for shift in (1.0, -1.0, 0.0)]
    batches = [(x, np.tanh(x @ w_true)) for x in xs] * 8
    lr = 0.2

    w = paddle.to_tensor(w0, stop_gradient=False)
    b = paddle.to_tensor(b0, stop_gradient=False)
    dy_losses = []
    branches = set()
    for bx, by in batches:
        branches.add(float(np.mean(bx @ w.numpy() + b.numpy())) > 0)
        loss = _tiny_model_loss(paddle.to_tensor(bx), paddle.to_tensor(by), w, b)
        loss.backward()
        dy_losses.append(float(loss))
        with paddle.no_grad():
            w = paddle.to_tensor(w.numpy() - lr * w.grad.numpy(), stop_gradient=False)
            b = paddle.to_tensor(b.numpy() - lr * b.grad.numpy(), stop_gradient=False)
    assert branches == {True, False}

    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = data("x", [None, 3])
            y = data("y", [None, 2])
            Assign = paddle.nn.initializer.Assign
            ws = paddle.static.create_parameter([3, 2], "float64", default_initializer=Assign(w0))
            bs = paddle.static.create_parameter([2], "float64", default_initializer=Assign(b0))
            loss = _tiny_model_loss(x, y, ws, bs)
            paddle.optimizer.SGD(lr).minimize(loss)
        exe = paddle.static.Executor()
        exe.run(startup)
        st_losses = [float(exe.run(main, feed={"x": bx, "y": by}, fetch_list=[loss])[0])
                     for bx, by in batches]
    # The static SGD step takes its learning rate as a float32 variable.
    np.testing.assert_allclose(st_losses, dy_losses, rtol=1e-7)
    assert sum(st_losses[-3:]) < 0.5 * sum(st_losses[:3])


@pytest.mark.parametrize("gb", [-1.0, 0.0, 1.0])
def test_garbage_collection_settings_give_the_same_results(gb):
    x = np.array([0.9, -0.4, 0.7])
    expected = [_nested_model_np(x, W0),
                numeric_grad(lambda v: _nested_model_np(v, W0), x),
                numeric_grad(lambda v: _nested_model_np(x, v), W0)]
    with flags(eager_delete_tensor_gb=gb):
        for _ in range(2):
            got = _static_grads(_nested_model, x, W0)
            for g, e in zip(got, expected):
                np.testing.assert_allclose(g, e, rtol=1e-6)


def test_repeated_runs_alternate_branches_and_loop_lengths():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = data("x", [2], grad=True)
            n = paddle.static.data("n", [1], "int64")
            i = paddle.full([1], 0, "int64")
            _, y = while_loop(lambda i, y: i < n, lambda i, y: [i + 1, y * x], [i, x * 1.0])
            z = cond(paddle.sum(x) > 0, lambda: y * 2.0, lambda: -y)
            gx, = paddle.static.gradients([paddle.sum(z)], [x])
        exe = paddle.static.Executor()
        for value, steps in [([1.0, 2.0], 3), ([-1.0, 0.5], 1), ([0.5, 0.25], 0),
                             ([2.0, -3.0], 2), ([1.0, 2.0], 3)]:
            v = np.array(value)
            sign = 2.0 if v.sum() > 0 else -1.0
            got = exe.run(main, feed={"x": v, "n": np.array([steps])}, fetch_list=[z, gx])
            np.testing.assert_allclose(got[0], sign * v ** (steps + 1))
            np.testing.assert_allclose(got[1], sign * (steps + 1) * v ** steps)


def test_clone_for_test_runs_control_flow_without_gradients():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = data("x", [3])
            w = paddle.static.create_parameter(
                [3], "float64", default_initializer=paddle.nn.initializer.Assign(W0))
            loss = _cond_model(x, w)
            test_program = main.clone(for_test=True)
            paddle.optimizer.SGD(0.1).minimize(loss)
        exe = paddle.static.Executor()
        exe.run(startup)
        value = np.array([0.3, 1.0, 2.0])
        before, = exe.run(test_program, feed={"x": value}, fetch_list=[loss])
        np.testing.assert_allclose(before, _cond_model_np(value, W0))
        exe.run(main, feed={"x": value}, fetch_list=[loss])
        after, = exe.run(test_program, feed={"x": value}, fetch_list=[loss])
        assert after < before
        assert not any(op.type.endswith("_grad") for op in test_program.global_block().ops)


def test_control_flow_ops_are_registered_executor_instructions():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = data("x", [2])
            cond(paddle.sum(x) > 0, lambda: x, lambda: -x)
        prepared = libpaddle.NativeExecutor(paddle.CPUPlace()).prepare(main.desc, 0, [], True)
        assert prepared.size() == len(main.global_block().ops)


def test_sub_block_garbage_collection_frees_only_its_own_variables():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = data("x", [2])
            i = paddle.full([1], 0, "int64")
            while_loop(lambda i, y: i < 3, lambda i, y: [i + 1, paddle.exp(y * x) + 1.0],
                       [i, x * 1.0])
        sub = main.block(main.global_block().ops[-1].attr("sub_block"))
        executor = libpaddle.NativeExecutor(paddle.CPUPlace())
        prepared = executor.prepare(main.desc, sub.idx, [], True)
        freed = {name for k in range(prepared.size()) for name in prepared.dead_after(k)}
        assert freed and all(sub.has_var(name) for name in freed)
        assert not freed & set(main.global_block().vars)
