"""paddle.save of a static Program (its serialized ProgramDesc, as Paddle writes it) and
paddle.load of one, to files and BytesIO; paddle.load of a tensor in static mode (a tensor, not a
constant of the current program); and renaming a static Variable (Variable.name = ...)."""
import io

import numpy as np
import pytest

import paddle


@pytest.fixture(autouse=True)
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def _fc_program():
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x_static_save", [None, 6], "float32")
        out = paddle.static.nn.fc(x, 3)
    return main, startup, out


def test_saved_program_loads_back_and_runs(tmp_path):
    main, startup, out = _fc_program()
    path = str(tmp_path / "example" / "main_program.pdmodel")
    paddle.save(main, path)
    with open(path, "rb") as f:
        assert f.read() == main.desc.serialize_to_string()
    loaded = paddle.load(path)
    assert isinstance(loaded, paddle.static.Program)
    assert [op.type for op in loaded.global_block().ops] == [
        op.type for op in main.global_block().ops]
    assert sorted(v.name for v in loaded.list_vars()) == sorted(v.name for v in main.list_vars())

    exe = paddle.static.Executor(paddle.CPUPlace())
    x = np.random.default_rng(0).standard_normal((2, 6)).astype("float32")
    with paddle.static.scope_guard(paddle.static.Scope()):
        exe.run(startup)
        expected = exe.run(main, feed={"x_static_save": x}, fetch_list=[out])[0]
        got = exe.run(loaded, feed={"x_static_save": x}, fetch_list=[out.name])[0]
    np.testing.assert_array_equal(got, expected)


def test_program_through_bytesio_and_a_corrupt_file_still_fails(tmp_path):
    main, _, _ = _fc_program()
    buffer = io.BytesIO()
    paddle.save(main, buffer)
    buffer.seek(0)
    loaded = paddle.load(buffer)
    assert [op.type for op in loaded.global_block().ops] == [
        op.type for op in main.global_block().ops]

    path = str(tmp_path / "bad.pdmodel")
    with open(path, "wb") as f:
        f.write(main.desc.serialize_to_string()[:-7])
    with pytest.raises(ValueError, match="truncated or corrupt"):
        paddle.load(path)


def test_loading_a_tensor_in_static_mode_gives_its_values_and_appends_nothing(tmp_path):
    main, startup, _ = _fc_program()
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope), paddle.static.program_guard(main, startup):
        exe.run(startup)
        weight = next(v for v in main.list_vars() if list(v.shape) == [6, 3])
        tensor = scope.find_var(weight.name).get_tensor()
        path = str(tmp_path / "tensor.pdtensor")
        paddle.save(tensor, path)
        ops_before = len(main.global_block().ops)
        loaded = paddle.load(path)
        np.testing.assert_array_equal(np.array(loaded), np.array(tensor))
        state = main.state_dict("param")
        paddle.save(state, str(tmp_path / "model.pdparams"))
        loaded_state = paddle.load(str(tmp_path / "model.pdparams"))
        assert sorted(loaded_state) == sorted(state)
        assert len(main.global_block().ops) == ops_before


def test_renaming_a_static_variable_renames_it_in_its_ops():
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 2], "float32")
        y = x * 2.0
        z = y + 1.0
        y.name = "doubled"
        x.name = "input"
    block = main.global_block()
    assert block.var("doubled") is y and block.var("input") is x
    assert not block.has_var("x")
    assert y.name == "doubled" and block.desc.find_var("doubled") is not None
    names = {n for op in block.ops for n in op.input_arg_names + op.output_arg_names}
    assert {"input", "doubled"} <= names and "x" not in names

    exe = paddle.static.Executor(paddle.CPUPlace())
    value = np.array([[1.0, 2.0]], "float32")
    out_y, out_z = exe.run(main, feed={"input": value}, fetch_list=[y, z])
    np.testing.assert_array_equal(out_y, value * 2)
    np.testing.assert_array_equal(out_z, value * 2 + 1)

    with pytest.raises(ValueError, match="already has a variable"):
        y.name = z.name
    with pytest.raises(TypeError, match="non-empty str"):
        y.name = ""
