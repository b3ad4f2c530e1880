"""paddle.jit.to_static, save and load on three models (an MLP, a LeNet-style CNN, a
Transformer-encoder block): the dygraph forward, the traced program and the loaded model agree;
the saved files are an ordinary inference model; untraceable Python control flow is reported
with its file and line."""
import inspect
import os

import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
from paddle import nn
from example_models import MLP, MODELS
from paddle.static import InputSpec

TOL = 1e-5


def _model(kind):
    paddle.seed(7)
    cls, spec_shape, input_shape = MODELS[kind]
    layer = cls()
    layer.eval()
    if kind == "lenet":
        # Running statistics that are not the initial 0/1, so eval-mode BatchNorm matters.
        layer.bn1._mean.set_value(paddle.uniform([6], min=-0.5, max=0.5))
        layer.bn1._variance.set_value(paddle.uniform([6], min=0.5, max=2.0))
    return layer, InputSpec(spec_shape, "float32", "x"), input_shape


@pytest.mark.parametrize("kind", sorted(MODELS))
def test_dygraph_to_static_and_loaded_model_agree(kind, tmp_path):
    layer, spec, input_shape = _model(kind)
    x = paddle.randn(input_shape)
    with paddle.no_grad():
        expected = layer(x).numpy()
        static_layer = paddle.jit.to_static(layer, input_spec=[spec])
        np.testing.assert_allclose(static_layer(x).numpy(), expected, rtol=TOL, atol=TOL)
        assert isinstance(layer.forward, paddle.jit.StaticFunction)
        program = layer.forward.concrete_program.main_program
        assert any(op.type in ("matmul_v2", "conv2d") for op in program.global_block().ops)

        path = os.path.join(tmp_path, kind)
        paddle.jit.save(layer, path)
        assert os.path.isfile(path + ".pdmodel") and os.path.isfile(path + ".pdiparams")
        loaded = paddle.jit.load(path)
        assert isinstance(loaded, paddle.jit.TranslatedLayer)
        np.testing.assert_allclose(loaded(x).numpy(), expected, rtol=TOL, atol=TOL)

        # A batch size other than the traced one: the spec's batch dimension is None.
        other = paddle.randn([5] + input_shape[1:])
        np.testing.assert_allclose(static_layer(other).numpy(), layer.forward.dygraph_function(
            layer, other).numpy(), rtol=TOL, atol=TOL)
        np.testing.assert_allclose(loaded(other).numpy(), static_layer(other).numpy(),
                                   rtol=TOL, atol=TOL)


@pytest.mark.parametrize("kind", sorted(MODELS))
def test_saved_files_are_an_inference_model_for_the_executor(kind, tmp_path):
    layer, spec, input_shape = _model(kind)
    x = np.random.default_rng(0).standard_normal(input_shape).astype("float32")
    with paddle.no_grad():
        expected = layer(paddle.to_tensor(x)).numpy()
    path = os.path.join(tmp_path, kind)
    paddle.jit.save(layer, path, input_spec=[spec])
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feed_names, fetch_targets = paddle.static.load_inference_model(path, exe)
            assert feed_names == ["x"]
            (out,) = exe.run(program, feed={"x": x}, fetch_list=fetch_targets)
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(out, expected, rtol=TOL, atol=TOL)


def test_program_is_traced_once_and_follows_the_weights():
    calls = []

    class Counting(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 2)

        @paddle.jit.to_static
        def forward(self, x):
            calls.append(1)
            return self.fc(x)

    layer = Counting()
    x = paddle.randn([4, 3])
    with paddle.no_grad():
        first = layer(x)
        layer(x)
        assert len(calls) == 1  # the second call ran the program, not the Python forward
        layer.fc.weight.set_value(layer.fc.weight * 2.0)
        second = layer(x)
        assert len(calls) == 1
    expected = paddle.matmul(x, layer.fc.weight) + layer.fc.bias
    np.testing.assert_allclose(second.numpy(), expected.numpy(), rtol=TOL, atol=TOL)
    assert not np.allclose(first.numpy(), second.numpy())


def test_decorator_forms_and_plain_functions():
    @paddle.jit.to_static
    def add_relu(x, y):
        return F.relu(x + y), x * y

    @paddle.jit.to_static(input_spec=[InputSpec([None, 2]), InputSpec([None, 2])],
                          full_graph=True)
    def sub(x, y):
        return {"diff": x - y}

    x, y = paddle.randn([3, 2]), paddle.randn([3, 2])
    relu, prod = add_relu(x, y)
    np.testing.assert_allclose(relu.numpy(), np.maximum(x.numpy() + y.numpy(), 0), rtol=TOL)
    np.testing.assert_allclose(prod.numpy(), x.numpy() * y.numpy(), rtol=TOL)
    np.testing.assert_allclose(sub(x, y)["diff"].numpy(), x.numpy() - y.numpy(), rtol=TOL)
    assert isinstance(add_relu, paddle.jit.StaticFunction)
    assert add_relu.concrete_program.main_program.global_block().ops


def test_without_input_spec_each_new_shape_is_traced():
    layer = paddle.jit.to_static(MLP())
    with paddle.no_grad():
        for batch in (2, 6):
            x = paddle.randn([batch, 16])
            np.testing.assert_allclose(layer(x).numpy(),
                                       layer.forward.dygraph_function(layer, x).numpy(),
                                       rtol=TOL, atol=TOL)
    assert len(layer.forward._programs) == 2


def test_calls_that_need_gradients_run_the_dygraph_forward():
    layer = paddle.jit.to_static(MLP())
    x = paddle.randn([2, 16])
    out = layer(x)
    assert not out.stop_gradient
    out.sum().backward()
    assert layer.fc1.weight.grad is not None
    assert not layer.forward._programs  # nothing was traced


def test_train_and_eval_modes_get_their_own_programs():
    layer, spec, input_shape = _model("encoder")
    paddle.jit.to_static(layer, input_spec=[spec])
    x = paddle.randn(input_shape)
    with paddle.no_grad():
        eval_out = layer(x)
        layer.train()
        train_out = layer(x)
        layer.eval()
        again = layer(x)
    assert len(layer.forward._programs) == 2
    np.testing.assert_allclose(again.numpy(), eval_out.numpy(), rtol=TOL, atol=TOL)
    assert not np.allclose(train_out.numpy(), eval_out.numpy())  # dropout active in train


def test_translated_layer_api(tmp_path):
    layer, spec, input_shape = _model("mlp")
    path = os.path.join(tmp_path, "mlp")
    paddle.jit.save(layer, path, input_spec=[spec])
    loaded = paddle.jit.load(path)
    assert isinstance(loaded.program(), paddle.static.Program)
    assert loaded.train() is loaded and loaded.training
    loaded.eval()
    assert sorted(p.name for p in loaded.parameters()) == sorted(
        p.name for p in layer.parameters())
    with pytest.raises(ValueError, match="takes 1 inputs"):
        loaded(paddle.randn([2, 16]), paddle.randn([2, 16]))
    with pytest.raises(ValueError, match="method_name"):
        loaded.program("infer")


def test_save_keeps_the_outputs_output_spec_names(tmp_path):
    class TwoHeads(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 3)

        def forward(self, x):
            y = self.fc(x)
            return F.softmax(y), paddle.argmax(y, axis=-1)

    layer = TwoHeads()
    spec = [InputSpec([None, 4], "float32", "features")]
    path = os.path.join(tmp_path, "heads")
    paddle.jit.save(layer, path, input_spec=spec, output_spec=[1])
    loaded = paddle.jit.load(path)
    x = paddle.randn([5, 4])
    with paddle.no_grad():
        np.testing.assert_array_equal(loaded(x).numpy(), layer(x)[1].numpy())
    ops = [op.type for op in loaded.program().global_block().ops]
    assert "softmax" not in ops  # pruned to the kept output
    assert loaded._feed_names == ["features"]
    with pytest.raises(IndexError, match=r"output_spec\[0\] = 2 is out of range"):
        paddle.jit.save(layer, path, input_spec=spec, output_spec=[2])


def test_not_to_static_keeps_the_python_if():
    @paddle.jit.not_to_static
    def clip(x):
        if paddle.max(x) > 1.0:
            x = paddle.clip(x, max=1.0)
        return x

    static = paddle.jit.to_static(clip, full_graph=True)
    with paddle.no_grad(), pytest.raises(paddle.jit.ToStaticError, match="a Python if"):
        static(paddle.ones([2]))


def test_rollback_restores_the_dygraph_forward():
    layer = paddle.jit.to_static(MLP())
    forward = layer.forward.rollback()
    assert not isinstance(forward, paddle.jit.StaticFunction)
    assert not isinstance(layer.forward, paddle.jit.StaticFunction)


def test_enable_to_static_false_runs_dygraph():
    calls = []

    @paddle.jit.to_static
    def double(x):
        calls.append(1)
        return x * 2

    paddle.jit.enable_to_static(False)
    try:
        with paddle.no_grad():
            double(paddle.ones([2]))
            double(paddle.ones([2]))
    finally:
        paddle.jit.enable_to_static(True)
    assert len(calls) == 2 and not double._programs


# ---- errors ------------------------------------------------------------------------------------

class TensorIf(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        y = self.fc(x)
        if paddle.mean(y) > 0:
            y = y * 2
            z = y + 1
        else:
            z = y - 1
        return y + z


class ReturnInIf(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        y = self.fc(x)
        if paddle.mean(y) > 0:  # the line the report names
            return y * 2
        return y


def _line_of(layer_cls, text):
    lines, start = inspect.getsourcelines(layer_cls.forward)
    return start + next(i for i, line in enumerate(lines) if text in line)


def test_tensor_if_else_becomes_cond():
    layer = paddle.jit.to_static(TensorIf(), input_spec=[InputSpec([None, 4])],
                                 full_graph=True)
    program = layer.forward.concrete_program.main_program
    assert "conditional_block" in [op.type for op in program.global_block().ops]
    with paddle.no_grad():
        for offset in (5.0, -5.0):  # both branches, chosen when the program runs
            x = paddle.randn([3, 4]) + offset
            layer.fc.bias.set_value(paddle.full([4], offset))
            expected = layer.forward.dygraph_function(layer, x)
            np.testing.assert_allclose(layer(x).numpy(), expected.numpy(), rtol=TOL, atol=TOL)


class Gate(nn.Layer):
    def forward(self, x):
        if paddle.max(x) > 1.0:
            x = x / paddle.max(x)
        return x


class GatedMLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.gate = Gate()

    def forward(self, x):
        return self.gate(self.fc(x))


def test_tensor_if_in_a_user_sublayer_is_converted_too(tmp_path):
    layer = GatedMLP()
    paddle.jit.to_static(layer, input_spec=[InputSpec([None, 4])], full_graph=True)
    assert "forward" not in layer.gate.__dict__  # converted for the trace only
    with paddle.no_grad():
        for scale in (10.0, 0.01):
            x = paddle.randn([3, 4]) * scale
            np.testing.assert_allclose(layer(x).numpy(),
                                       layer.forward.dygraph_function(layer, x).numpy(),
                                       rtol=TOL, atol=TOL)
    paddle.jit.save(layer, os.path.join(tmp_path, "gated"))
    loaded = paddle.jit.load(os.path.join(tmp_path, "gated"))
    x = paddle.randn([2, 4]) * 10.0
    with paddle.no_grad():
        np.testing.assert_allclose(loaded(x).numpy(), layer(x).numpy(), rtol=TOL, atol=TOL)


def test_tensor_while_becomes_while_loop_and_python_conditions_stay_python(tmp_path):
    @paddle.jit.to_static(input_spec=[InputSpec([None])], full_graph=True)
    def grow(x):
        steps = 0
        while paddle.sum(x) < 100.0:
            x = x * 2 + 1
            steps = steps + 1
        if x.shape[0] is not None:  # a Python condition: plain Python
            x = x - 0.5
        return x, steps

    program = grow.concrete_program.main_program
    assert "while" in [op.type for op in program.global_block().ops]
    with paddle.no_grad():
        for start in ([1.0, 2.0], [0.5, 0.5, 0.5], [200.0]):
            x = paddle.to_tensor(start)
            out, steps = grow(x)
            expected, expected_steps = grow.dygraph_function(x)
            np.testing.assert_allclose(out.numpy(), expected.numpy(), rtol=TOL)
            assert int(steps.numpy()) == expected_steps
    with pytest.warns(UserWarning, match="no variable"):  # a function without parameters
        paddle.jit.save(grow, os.path.join(tmp_path, "grow"))
    loaded = paddle.jit.load(os.path.join(tmp_path, "grow"))
    out, steps = loaded(paddle.to_tensor([1.0, 2.0]))
    assert int(steps.numpy()) == 5


def test_if_elif_else_nested_in_a_tensor_while():
    @paddle.jit.to_static(input_spec=[InputSpec([None, 3])], full_graph=True)
    def accumulate(x):
        i = paddle.zeros([], "int64")
        acc = paddle.zeros_like(x)
        while i < 4:
            if paddle.mean(x) > 0:
                acc = acc + x
            elif paddle.mean(x) < -1:
                acc = acc - x
            else:
                acc = acc * 2 + 1
            i = i + 1
        return acc

    with paddle.no_grad():
        for offset in (3.0, -3.0, -0.5):  # each branch
            x = paddle.randn([2, 3]) * 0.1 + offset
            np.testing.assert_allclose(accumulate(x).numpy(),
                                       accumulate.dygraph_function(x).numpy(), rtol=TOL)
    assert len(accumulate._programs) == 1


def test_tensor_for_loops_become_while_loops_and_python_ranges_stay_python(tmp_path):
    """for over range() with a tensor bound, and over a tensor's rows (first dim unknown), each
    become a while_loop; a range of Python ints unrolls into the program."""
    @paddle.jit.to_static(input_spec=[InputSpec([None, 3]), InputSpec([], "int64")],
                          full_graph=True)
    def accumulate(x, n):
        acc = paddle.zeros([3])
        for i in range(1, n, 2):
            acc = acc + x[0] * i.astype("float32")
        for row in x:
            acc = acc + row
        for _ in range(3):
            acc = acc * 1.5
        return acc

    def expected(x, n):
        acc = np.zeros(3, "float32")
        for i in range(1, n, 2):
            acc = acc + x[0] * i
        for row in x:
            acc = acc + row
        return acc * 1.5 ** 3

    types = [op.type for op in accumulate.concrete_program.main_program.global_block().ops]
    assert types.count("while") == 2 and types.count("elementwise_mul") >= 3
    rng = np.random.default_rng(0)
    with paddle.no_grad():
        for rows, n in ((2, 6), (4, 0), (1, 5)):
            x = rng.random((rows, 3)).astype("float32")
            got = accumulate(paddle.to_tensor(x), paddle.to_tensor(n, "int64"))
            np.testing.assert_allclose(got.numpy(), expected(x, n), rtol=1e-5)
    with pytest.warns(UserWarning, match="no variable"):
        paddle.jit.save(accumulate, os.path.join(tmp_path, "accumulate"))
    loaded = paddle.jit.load(os.path.join(tmp_path, "accumulate"))
    x = rng.random((3, 3)).astype("float32")
    np.testing.assert_allclose(loaded(paddle.to_tensor(x), paddle.to_tensor(7, "int64")).numpy(),
                               expected(x, 7), rtol=1e-5)


def test_for_with_a_negative_step_and_over_a_list_of_tensors():
    @paddle.jit.to_static(input_spec=[InputSpec([2]), InputSpec([], "int64")], full_graph=True)
    def countdown(x, n):
        parts = [x, x * 2]
        for part in parts:  # a Python list: a Python loop
            x = x + part
        for i in range(n, 0, -1):
            x = x - i.astype("float32")
        return x

    with paddle.no_grad():
        got = countdown(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor(4, "int64"))
    np.testing.assert_allclose(got.numpy(), np.array([1.0, 2.0]) * 4 - 10)


def test_unconvertible_tensor_for_is_reported_with_file_and_line():
    @paddle.jit.to_static(input_spec=[InputSpec([None, 2]), InputSpec([], "int64")],
                          full_graph=True)
    def early_exit(x, n):
        for i in range(n):
            if i > 2:
                break
            x = x + 1
        return x

    @paddle.jit.to_static(input_spec=[InputSpec([None, 2])], full_graph=True)
    def rows_with_break(x):
        total = paddle.zeros([2])
        for row in x:
            total = total + row
            break
        return total

    for function, text in ((early_exit, "for i in range(n)"), (rows_with_break, "for row in x")):
        with paddle.no_grad(), pytest.raises(paddle.jit.ToStaticError,
                                             match="a Python for over a tensor's value") as info:
            function(paddle.ones([3, 2]), paddle.to_tensor(4, "int64")) \
                if function is early_exit else function(paddle.ones([3, 2]))
        lines, start = inspect.getsourcelines(function.dygraph_function)
        assert info.value.lineno == start + next(i for i, line in enumerate(lines)
                                                 if text in line)


def test_unconvertible_tensor_if_under_full_graph_is_reported_with_file_and_line():
    layer = paddle.jit.to_static(ReturnInIf(), full_graph=True)
    with paddle.no_grad(), pytest.raises(paddle.jit.ToStaticError) as info:
        layer(paddle.randn([2, 4]))
    error = info.value
    assert error.filename == __file__
    assert error.lineno == _line_of(ReturnInIf, "if paddle.mean(y) > 0")
    assert "a Python if on a tensor: use paddle.static.nn.cond" in str(error)
    assert f"{os.path.basename(__file__)}:{error.lineno}" in str(error)
    assert isinstance(error, TypeError)


def test_unconvertible_tensor_if_without_full_graph_falls_back_to_dygraph_with_a_warning():
    layer = paddle.jit.to_static(ReturnInIf())
    x = paddle.randn([2, 4])
    with paddle.no_grad():
        with pytest.warns(UserWarning, match="a Python if on a tensor"):
            out = layer(x)
        expected = layer.forward.dygraph_function(layer, x)
    np.testing.assert_allclose(out.numpy(), expected.numpy(), rtol=TOL)


def test_unconvertible_while_and_value_reads_are_reported():
    @paddle.jit.to_static(full_graph=True)
    def loop(x):
        while paddle.sum(x) < 10:
            x = x + 1
            if paddle.sum(x) > 5:
                break
        return x

    @paddle.jit.to_static(full_graph=True)
    def reads(x):
        return x * float(x.numpy().sum())

    @paddle.jit.to_static(full_graph=True)
    def one_branch_only(x):
        if paddle.sum(x) > 0:
            y = x + 1
        return y

    with paddle.no_grad():
        with pytest.raises(paddle.jit.ToStaticError, match="a Python while on a tensor: use "
                           "paddle.static.nn.while_loop"):
            loop(paddle.ones([2]))
        with pytest.raises(paddle.jit.ToStaticError, match=r"reading a tensor's value"):
            reads(paddle.ones([2]))
        with pytest.raises(paddle.jit.ToStaticError, match=r"branches give \['y'\]") as info:
            one_branch_only(paddle.ones([2]))
    assert info.value.lineno == inspect.getsourcelines(one_branch_only.dygraph_function)[1] + 2


def test_input_spec_of_the_wrong_rank_names_the_argument():
    layer = paddle.jit.to_static(MLP(), input_spec=[InputSpec([None, 4, 16], "float32")])
    with paddle.no_grad(), pytest.raises(ValueError, match=r"input_spec\[0\] of argument 'x' "
                                         r"has rank 3"):
        layer(paddle.randn([2, 16]))


def test_input_spec_dtype_mismatch_and_bad_types():
    layer = paddle.jit.to_static(MLP(), input_spec=[InputSpec([None, 16], "float64")])
    with paddle.no_grad(), pytest.raises(TypeError, match="dtype float64"):
        layer(paddle.randn([2, 16]))
    with pytest.raises(TypeError, match="'input_spec' must be a list"):
        paddle.jit.to_static(MLP(), input_spec=InputSpec([None, 16]))
    with pytest.raises(TypeError, match=r"input_spec\[0\] is str"):
        paddle.jit.to_static(MLP(), input_spec=["x"])


def test_build_strategy_and_backend():
    strategy = paddle.static.BuildStrategy()
    strategy.enable_inplace = False
    layer = paddle.jit.to_static(MLP(), build_strategy=strategy, backend="CINN")
    x = paddle.randn([2, 16])
    with paddle.no_grad():
        np.testing.assert_allclose(layer(x).numpy(),
                                   layer.forward.dygraph_function(layer, x).numpy(),
                                   rtol=TOL, atol=TOL)
    with pytest.raises(TypeError, match="'build_strategy' must be"):
        paddle.jit.to_static(MLP(), build_strategy="fast")
    with pytest.raises(ValueError, match="'backend' must be None or 'CINN'"):
        paddle.jit.to_static(MLP(), backend="tvm")


def test_save_errors(tmp_path):
    with pytest.raises(ValueError, match="'input_spec' is required"):
        paddle.jit.save(MLP(), os.path.join(tmp_path, "m"))
    with pytest.raises(ValueError, match="unknown config 'bogus'"):
        paddle.jit.save(MLP(), os.path.join(tmp_path, "m"), [InputSpec([None, 16])], bogus=1)
    with pytest.raises(TypeError, match="'layer' must be a Layer"):
        paddle.jit.save(3, os.path.join(tmp_path, "m"), [InputSpec([None, 16])])
    # A spec whose rank the forward cannot use fails in the op that rejects it.
    with pytest.raises(ValueError):
        paddle.jit.save(MLP(), os.path.join(tmp_path, "m"), [InputSpec([None, 8])])
    with pytest.raises(FileNotFoundError):
        paddle.jit.load(os.path.join(tmp_path, "missing"))
