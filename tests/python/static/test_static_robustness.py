"""The executor and program classes against misuse and hand-built programs: scopes that come and
go, programs edited after a run, shared buffers, and malformed ops. Each case must give the
right result or a typed error naming the op or variable, never a crash."""
import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
from static_testing import new_programs, scope_value, static_mode

X = np.arange(6, dtype="float32").reshape(2, 3) - 2


def _hand_built(*names, shape=(2, 3), dtype="float32"):
    main, _ = new_programs()
    block = main.global_block()
    for name in names:
        block.create_var(name=name, shape=list(shape), dtype=dtype, need_check_feed=True)
    return main, block


def _run(main, feed, fetch):
    return paddle.static.Executor().run(main, feed=feed, fetch_list=fetch)


def test_each_new_scope_is_bound_afresh():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [3])
            y = paddle.scale(x, 2.0)
        exe = paddle.static.Executor()
        for i in range(20):  # new scopes may reuse the addresses of the ones freed before
            scope = paddle.static.Scope()
            (got,) = exe.run(main, feed={"x": np.full(3, i, "float32")}, fetch_list=[y],
                             scope=scope)
            np.testing.assert_array_equal(got, np.full(3, 2.0 * i))
            del scope
        scope = paddle.static.Scope()
        exe.run(main, feed={"x": np.ones(3, "float32")}, fetch_list=[y], scope=scope)
        scope.erase_vars([y.name])
        (got,) = exe.run(main, feed={"x": np.ones(3, "float32")}, fetch_list=[y], scope=scope)
        np.testing.assert_array_equal(got, np.full(3, 2.0))


def test_edits_after_a_run_are_seen_by_the_same_executor():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [3])
            y = paddle.scale(x, 2.0)
            z = F.relu(y)
        exe = paddle.static.Executor()
        feed = {"x": np.ones(3, "float32")}
        exe.run(main, feed=feed, fetch_list=[z])
        main.global_block().ops[0]._set_attr("scale", 5.0)
        y.persistable = True
        (got,) = exe.run(main, feed=feed, fetch_list=[z])
        np.testing.assert_array_equal(got, np.full(3, 5.0))
        assert paddle.static.global_scope().find_var(y.name).is_initialized()  # not collected


def test_removed_ops_and_variables_stay_safe_to_inspect():
    with static_mode():
        main, block = _hand_built("a", "b")
        op = block.append_op("relu", inputs={"X": ["a"]}, outputs={"Out": ["b"]})
        var = block.var("b")
        block._remove_op(0)
        block._remove_var("b")
        for i in range(50):
            block.create_var(name=f"filler_{i}", shape=[1], dtype="float32")
        assert op.type == "relu" and var.name == "b"
        with pytest.raises(IndexError, match="insert an op at index 5"):
            block._insert_op(5, "relu")
        with pytest.raises(IndexError, match="remove ops"):
            block._remove_op(0, 3)


def test_writing_a_variable_leaves_views_of_its_old_value_alone():
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3])
            linear = paddle.nn.Linear(3, 3, bias_attr=False)
            view = paddle.reshape(linear.weight, [9])
            loss = paddle.sum(linear(x))
            paddle.optimizer.SGD(0.5).minimize(loss)
        exe = paddle.static.Executor()
        exe.run(startup)
        before = scope_value(linear.weight.name).copy()
        (got,) = exe.run(main, feed={"x": np.ones((2, 3), "float32")}, fetch_list=[view])
        np.testing.assert_array_equal(got, before.reshape(9))
        assert not np.array_equal(scope_value(linear.weight.name), before)


def test_assign_into_a_viewed_variable_keeps_the_view():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [3])
            t = paddle.scale(x, 1.0)
            view = paddle.reshape(t, [3, 1])
            paddle.assign(paddle.scale(x, 5.0), output=t)
        (got,) = _run(main, {"x": np.array([1.0, 2.0, 3.0], "float32")}, [view])
        np.testing.assert_array_equal(got.reshape(3), [1.0, 2.0, 3.0])


@pytest.mark.parametrize("case, error, message", [
    ("two_outputs", ValueError, r"op 'relu'.*slot 'Out' takes one variable, but names 2"),
    ("two_inputs", ValueError, r"op 'relu'.*slot 'X' takes one variable, but names 2"),
    ("empty_forward_input", ValueError, r"op 'elementwise_add_grad'.*'X' names @EMPTY@"),
    ("grad_reads_nothing", RuntimeError, r"op 'relu_grad'.*'a', which the gradient reads, "
                                         r"holds no data"),
    ("dtype_differs", TypeError, r"op 'relu' \(block 0, op 1\): input 'i' holds int64"),
    ("axis_out_of_range", ValueError, r"op 'elementwise_add'.*'axis' is -7"),
    ("sub_block_cycle", ValueError, r"op 'conditional_block' \(block 2, op 0\).*'sub_block' "
                                    r"is 1"),
])
def test_malformed_ops_raise_typed_errors(case, error, message):
    with static_mode():
        main, block = _hand_built("x", "a", "c", "i", "y")
        feed, fetch = {"x": X}, ["c"]
        if case == "two_outputs":
            block.append_op("relu", inputs={"X": ["x"]}, outputs={"Out": ["a", "c"]})
        elif case == "two_inputs":
            block.append_op("relu", inputs={"X": ["x", "a"]}, outputs={"Out": ["c"]})
        elif case == "empty_forward_input":
            block.append_op("elementwise_add_grad",
                            inputs={"X": ["@EMPTY@"], "Y": ["x"], "Out@GRAD": ["x"]},
                            outputs={"X@GRAD": ["c"], "Y@GRAD": ["a"]}, attrs={"axis": -1})
        elif case == "grad_reads_nothing":
            block.append_op("relu_grad", inputs={"Out": ["a"], "Out@GRAD": ["x"]},
                            outputs={"X@GRAD": ["c"]})
        elif case == "dtype_differs":
            block.append_op("cast", inputs={"X": ["x"]}, outputs={"Out": ["i"]},
                            attrs={"in_dtype": 5, "out_dtype": 3})
            block.append_op("relu", inputs={"X": ["i"]}, outputs={"Out": ["c"]})
        elif case == "axis_out_of_range":
            block.append_op("elementwise_add", inputs={"X": ["x"], "Y": ["x"]},
                            outputs={"Out": ["c"]}, attrs={"axis": -7})
        elif case == "sub_block_cycle":
            first = main._create_block()
            main._rollback()
            second = main._create_block()
            main._rollback()
            block.create_var(name="cond", shape=[1], dtype="bool", need_check_feed=True)
            for owner, target, scope in ((block, first, "s0"), (first, second, "s1"),
                                         (second, first, "s2")):
                owner.append_op("conditional_block", inputs={"Cond": ["cond"], "Input": []},
                                outputs={"Out": [], "Scope": [scope]},
                                attrs={"sub_block": target, "is_scalar_condition": True})
            feed, fetch = {"cond": np.array([True])}, []
        with pytest.raises(error, match=message):
            _run(main, feed, fetch)


@pytest.mark.parametrize("grad_type, expected", [
    ("relu_grad", 1.0), ("tanh_grad", 0.75), ("sigmoid_grad", 0.25), ("softmax_grad", -0.25)])
def test_paddle_gradient_ops_without_their_forward_input(grad_type, expected):
    # PaddlePaddle writes these with Out and Out@GRAD only.
    with static_mode():
        main, block = _hand_built("o", "g", "dx")
        attrs = {"axis": -1} if grad_type == "softmax_grad" else {}
        block.append_op(grad_type, inputs={"Out": ["o"], "Out@GRAD": ["g"]},
                        outputs={"X@GRAD": ["dx"]}, attrs=attrs)
        (got,) = _run(main, {"o": np.full((2, 3), 0.5, "float32"),
                             "g": np.ones((2, 3), "float32")}, ["dx"])
        np.testing.assert_allclose(got, np.full((2, 3), expected), rtol=1e-6)


def test_variables_of_another_program_are_rejected():
    with static_mode():
        first, _ = new_programs()
        with paddle.static.program_guard(first):
            x = paddle.static.data("x", [3])
        second, _ = new_programs()
        with paddle.static.program_guard(second):
            with pytest.raises(ValueError, match="Variable 'x' of another program"):
                paddle.exp(x)
