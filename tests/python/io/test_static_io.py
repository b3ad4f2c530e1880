"""paddle.static model and checkpoint files: save_inference_model / load_inference_model
(.pdmodel + .pdiparams), the in-memory serialize/deserialize pairs, save / load (.pdparams,
.pdopt), bad files, atomic writes, and (with PADDLE_REFERENCE_PYTHON set) files exchanged with
real PaddlePaddle."""
import os
import pickle
import struct
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
from paddle.base import libpaddle
from paddle.static import io as static_io
from paddle.utils import unique_name
from static_testing import scope_value, static_mode
from paddle_reference import REFERENCE, run_reference

X = np.random.RandomState(0).rand(5, 4).astype("float32")
Y = np.random.RandomState(1).rand(5, 2).astype("float32")


def build_mlp(hidden=8, optimizer=None):
    """Linear + relu + Linear with an MSE loss minimized by `optimizer` (SGD by default)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 4], "float32")
        y = paddle.static.data("y", [None, 2], "float32")
        hidden_out = F.relu(paddle.nn.Linear(4, hidden)(x))
        out = paddle.nn.Linear(hidden, 2)(hidden_out)
        loss = F.mse_loss(out, y)
        (optimizer or paddle.optimizer.SGD(0.1)).minimize(loss)
    return main, startup, x, hidden_out, out, loss


def train(main, startup, loss, steps=3):
    exe = paddle.static.Executor()
    exe.run(startup)
    for _ in range(steps):
        exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])
    return exe


def saved_mlp(prefix, hidden=8):
    """Trains the MLP a few steps and saves it for inference; returns its test-mode output."""
    main, startup, x, _, out, loss = build_mlp(hidden)
    exe = train(main, startup, loss)
    expected, = exe.run(main.clone(for_test=True), feed={"x": X}, fetch_list=[out])
    paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
    return exe, expected


def record(array):
    """Paddle's tensor record of a float32 array (tensor_io.h), built by hand."""
    desc = bytes([0x08, 5]) + b"".join(bytes([0x10, d]) for d in array.shape)
    return (struct.pack("<IQIi", 0, 0, 0, len(desc)) + desc
            + np.ascontiguousarray(array, "<f4").tobytes())


# ---- inference models -------------------------------------------------------------------------

def test_inference_model_round_trip(tmp_path):
    prefix = str(tmp_path / "mlp")
    with static_mode():
        exe, expected = saved_mlp(prefix)
        saved = {name: scope_value(name) for name in
                 ("linear_0.b_0", "linear_0.w_0", "linear_1.b_0", "linear_1.w_0")}
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feed_names, fetch_targets = paddle.static.load_inference_model(prefix, exe)
            got, = exe.run(program, feed={feed_names[0]: X}, fetch_list=fetch_targets)
            for name, value in saved.items():
                np.testing.assert_array_equal(scope_value(name), value)
    np.testing.assert_array_equal(got, expected)
    assert feed_names == ["x"]
    assert [v.name for v in fetch_targets] == ["elementwise_add_1.tmp_0"]

    with open(prefix + ".pdmodel", "rb") as f:
        parsed = paddle.static.deserialize_program(f.read())
    ops = parsed.global_block().ops
    assert [op.type for op in ops] == ["feed", "matmul_v2", "elementwise_add", "relu",
                                       "matmul_v2", "elementwise_add", "fetch"]
    assert (ops[0].input("X"), ops[0].output("Out"), ops[0].attr("col")) == (["feed"], ["x"], 0)
    assert (ops[-1].input("X"), ops[-1].output("Out"), ops[-1].attr("col")) == \
        (["elementwise_add_1.tmp_0"], ["fetch"], 0)
    block = parsed.global_block()
    assert block.var("feed").type == 9 and block.var("feed").persistable
    assert block.var("fetch").type == 10 and block.var("fetch").persistable
    # Pruned: no label, loss, gradients or learning rate.
    for name in ("y", "learning_rate_0", "reduce_mean_0.tmp_0", "linear_0.w_0@GRAD"):
        assert not block.has_var(name)
    assert not any(v.is_parameter or v.stop_gradient for v in block.vars.values())

    # The parameters file: the records of the persistables in byte-wise name order, no header.
    names = sorted(v.name for v in block.vars.values()
                   if v.persistable and v.type not in (9, 10))
    assert names == ["linear_0.b_0", "linear_0.w_0", "linear_1.b_0", "linear_1.w_0"]
    with open(prefix + ".pdiparams", "rb") as f:
        data = f.read()
    assert data == b"".join(record(saved[name]) for name in names)


def test_pdiparams_known_bytes(tmp_path):
    prefix = str(tmp_path / "tiny")
    value = np.arange(6, dtype="float32").reshape(2, 3) / 4
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 2], "float32")
            w = paddle.create_parameter([2, 3], "float32", name="w")
            out = paddle.matmul(x, w)
        exe = paddle.static.Executor()
        exe.run(startup)
        paddle.static.set_program_state(main, {"w": value})
        paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
    expected = (b"\x00\x00\x00\x00" + b"\x00" * 8      # tensor version, LoD level count
                + b"\x00\x00\x00\x00" + b"\x06\x00\x00\x00"  # data version, TensorDesc size
                + b"\x08\x05\x10\x02\x10\x03"           # data_type FP32, dims 2 and 3
                + value.astype("<f4").tobytes())
    with open(prefix + ".pdiparams", "rb") as f:
        assert f.read() == expected


def test_feed_and_fetch_columns(tmp_path):
    prefix = str(tmp_path / "two")
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            a = paddle.static.data("a", [None, 3], "float32")
            b = paddle.static.data("b", [None, 3], "float32")
            total = paddle.add(a, b)
            scaled = paddle.scale(total, 2.0)
        exe = paddle.static.Executor()
        with pytest.warns(UserWarning, match="no variable in your model"):
            paddle.static.save_inference_model(prefix, [a, b], [scaled, total], exe,
                                               program=main)
        program, feed_names, fetch_targets = paddle.static.load_inference_model(prefix, exe)
        ops = program.global_block().ops
        # Paddle prepends the feed ops one by one: they end up in reverse column order.
        assert [(op.type, op.attr("col")) for op in ops if op.type in ("feed", "fetch")] == \
            [("feed", 1), ("feed", 0), ("fetch", 0), ("fetch", 1)]
        assert feed_names == ["a", "b"]
        assert [v.name for v in fetch_targets] == [scaled.name, total.name]
        av, bv = X[:, :3], Y[:, :1].repeat(3, axis=1)
        got_scaled, got_total = exe.run(program, feed={"a": av, "b": bv},
                                        fetch_list=fetch_targets)
    np.testing.assert_array_equal(got_total, av + bv)
    np.testing.assert_array_equal(got_scaled, (av + bv) * 2)
    assert not os.path.exists(prefix + ".pdiparams")  # no persistables, no parameters file


def test_prune_from_an_intermediate_feed(tmp_path):
    prefix = str(tmp_path / "tail")
    with static_mode():
        main, startup, _, hidden_out, out, loss = build_mlp()
        exe = train(main, startup, loss)
        h = np.maximum(X[:, :1].repeat(8, axis=1) - 0.5, 0)
        expected = h @ scope_value("linear_1.w_0") + scope_value("linear_1.b_0")
        paddle.static.save_inference_model(prefix, [hidden_out], [out], exe, program=main)
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feed_names, fetch_targets = paddle.static.load_inference_model(prefix, exe)
            got, = exe.run(program, feed={feed_names[0]: h}, fetch_list=fetch_targets)
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    block = program.global_block()
    assert [op.type for op in block.ops] == ["feed", "matmul_v2", "elementwise_add", "fetch"]
    assert not block.has_var("x") and not block.has_var("linear_0.w_0")


def test_bad_feed_and_fetch_vars(tmp_path):
    prefix = str(tmp_path / "bad")
    with static_mode():
        main, startup, x, hidden_out, out, loss = build_mlp()
        exe = train(main, startup, loss, steps=0)
        other = paddle.static.Program()
        with paddle.static.program_guard(other):
            stranger = paddle.static.data("stranger", [None, 4], "float32")
        save = paddle.static.save_inference_model
        with pytest.raises(ValueError, match="'feed_vars' should be a Variable"):
            save(prefix, ["x"], [out], exe, program=main)
        with pytest.raises(ValueError, match="'fetch_vars' should be a Variable"):
            save(prefix, [x], np.ones(3), exe, program=main)
        with pytest.raises(ValueError, match="'fetch_vars' is empty"):
            save(prefix, [x], [], exe, program=main)
        with pytest.raises(ValueError, match="'stranger' is not a variable of the program"):
            save(prefix, [stranger], [out], exe, program=main)
        y = main.global_block().var("y")
        with pytest.raises(ValueError, match="'y' doesn't exist in pruned inference program"):
            save(prefix, [x, y], [out], exe, program=main)
        with pytest.raises(ValueError, match="should not be a directory"):
            save(str(tmp_path) + "/", [x], [out], exe, program=main)
        with pytest.raises(ValueError, match="doesn't support argument 'bogus'"):
            save(prefix, [x], [out], exe, program=main, bogus=1)
        with pytest.raises(TypeError, match="'executor' must be"):
            save(prefix, [x], [out], None, program=main)
    assert not os.listdir(tmp_path)


def test_in_memory_serialization():
    with static_mode():
        main, startup, x, _, out, loss = build_mlp()
        exe = train(main, startup, loss)
        expected, = exe.run(main.clone(for_test=True), feed={"x": X}, fetch_list=[out])
        program_bytes = paddle.static.serialize_program([x], [out], program=main)
        params_bytes = paddle.static.serialize_persistables([x], [out], exe, program=main)
        with paddle.static.scope_guard(paddle.static.Scope()):
            program = paddle.static.deserialize_program(program_bytes)
            paddle.static.deserialize_persistables(program, params_bytes, exe)
            got, = exe.run(program, feed={"x": X}, fetch_list=[out.name])
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feeds, fetches = paddle.static.load_inference_model(
                None, exe, model_filename=program_bytes, params_filename=params_bytes)
            got_again, = exe.run(program, feed={feeds[0]: X}, fetch_list=fetches)
        with paddle.static.scope_guard(paddle.static.Scope()):
            for data, message in ((params_bytes[:-5], "variable 'linear_1.w_0'.*truncated"),
                                  (params_bytes + b"\0", "1 extra bytes.*does not match"),
                                  (params_bytes[:30], "serialized persistables, variable "
                                                      "'linear_0.b_0'")):
                with pytest.raises(ValueError, match=message):
                    paddle.static.deserialize_persistables(program, data, exe)
            assert paddle.static.global_scope().find_var("linear_0.w_0") is None
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got_again, expected)


def test_directory_with_file_names(tmp_path):
    with static_mode():
        exe, expected = saved_mlp(str(tmp_path / "model"))
        with paddle.static.scope_guard(paddle.static.Scope()):
            # Paddle accepts the names with or without their suffixes.
            program, feeds, fetches = paddle.static.load_inference_model(
                str(tmp_path), exe, model_filename="model", params_filename="model.pdiparams")
            got, = exe.run(program, feed={feeds[0]: X}, fetch_list=fetches)
    np.testing.assert_array_equal(got, expected)


def test_one_file_per_variable(tmp_path):
    """The layout of models saved without params_filename: `__model__` and one `save`-op file
    per persistable variable, named after it."""
    with static_mode():
        exe, expected = saved_mlp(str(tmp_path / "m"))
        program = paddle.static.deserialize_program(open(tmp_path / "m.pdmodel", "rb").read())
        for var in program.list_vars():
            if var.persistable and var.type == 7:
                libpaddle._save_tensor(str(tmp_path / var.name),
                                       paddle.static.global_scope().find_var(var.name)
                                       .get_tensor())
        os.replace(tmp_path / "m.pdmodel", tmp_path / "__model__")
        with paddle.static.scope_guard(paddle.static.Scope()):
            program, feeds, fetches = paddle.static.load_inference_model(
                str(tmp_path), exe, model_filename=None, params_filename=None)
            got, = exe.run(program, feed={feeds[0]: X}, fetch_list=fetches)
        os.remove(tmp_path / "linear_1.w_0")
        with pytest.raises(FileNotFoundError, match="'.*linear_1.w_0' of variable"):
            paddle.static.load_inference_model(str(tmp_path), exe, model_filename=None)
    np.testing.assert_array_equal(got, expected)


# ---- bad files --------------------------------------------------------------------------------

def _truncate(path):
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data[:len(data) // 2])


def _overwrite(path, data):
    with open(path, "wb") as f:
        f.write(data)


def _append(path, data):
    with open(path, "ab") as f:
        f.write(data)


def _other_model_params(prefix):
    """Replaces the parameters with those of the same network with 16 hidden units."""
    other = prefix + "_other"
    with unique_name.guard():
        saved_mlp(other, hidden=16)
    os.replace(other + ".pdiparams", prefix + ".pdiparams")


BAD_FILES = {
    "missing model": (lambda p: os.remove(p + ".pdmodel"), FileNotFoundError,
                      r"model file '.*m\.pdmodel' does not exist"),
    "truncated model": (lambda p: _truncate(p + ".pdmodel"), ValueError,
                        r"m\.pdmodel: not a valid serialized ProgramDesc"),
    "random model": (lambda p: _overwrite(p + ".pdmodel",
                                          np.random.RandomState(3).bytes(700)),
                     ValueError, r"m\.pdmodel"),
    "missing params": (lambda p: os.remove(p + ".pdiparams"), FileNotFoundError,
                       r"parameters file '.*m\.pdiparams' does not exist"),
    "truncated params": (lambda p: _truncate(p + ".pdiparams"), ValueError,
                         r"m\.pdiparams', variable 'linear_0\.w_0' .*truncated"),
    "params with extra bytes": (lambda p: _append(p + ".pdiparams", b"\0" * 7), ValueError,
                                r"m\.pdiparams' has 7 extra bytes.*does not match the model"),
    "params of another model": (_other_model_params, ValueError,
                                r"m\.pdiparams: variable 'linear_0\.b_0' has shape \[16\] in "
                                r"the file, but the model declares shape \[8\]"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_files_raise_naming_the_file(tmp_path, case):
    damage, error, message = BAD_FILES[case]
    prefix = str(tmp_path / "m")
    with static_mode():
        exe, _ = saved_mlp(prefix)
        damage(prefix)
        with paddle.static.scope_guard(paddle.static.Scope()):
            with pytest.raises(error, match=message):
                paddle.static.load_inference_model(prefix, exe)
            # All or nothing: a failed load stores no value.
            assert paddle.static.global_scope().local_var_names() == []


def test_bad_file_in_a_subprocess_raises_without_crashing(tmp_path):
    prefix = str(tmp_path / "m")
    with static_mode():
        saved_mlp(prefix)
    _truncate(prefix + ".pdiparams")
    script = textwrap.dedent("""
        import sys, paddle
        paddle.enable_static()
        try:
            paddle.static.load_inference_model(sys.argv[1], paddle.static.Executor())
        except ValueError as error:
            print("raised:", error)
    """)
    result = subprocess.run([sys.executable, "-c", script, prefix], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "raised:" in result.stdout and "m.pdiparams" in result.stdout


# ---- atomic writes ----------------------------------------------------------------------------

def _contents(directory):
    return {name: open(os.path.join(directory, name), "rb").read()
            for name in sorted(os.listdir(directory))}


def test_failed_saves_leave_the_earlier_files(tmp_path, monkeypatch):
    prefix = str(tmp_path / "m")
    with static_mode():
        main, startup, x, _, out, loss = build_mlp()
        exe = train(main, startup, loss)
        paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
        before = _contents(tmp_path)
        exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])  # new values to save

        # A variable without a value: found before any file is touched.
        with paddle.static.scope_guard(paddle.static.Scope()):
            with pytest.raises(ValueError, match="'linear_0.b_0' has no value in the scope"):
                paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
        assert _contents(tmp_path) == before

        # The disk fails while the model file is written, after the parameters were staged.
        def failing_write(path, write):
            raise OSError(28, "No space left on device")
        monkeypatch.setattr(static_io, "_atomic_write", failing_write)
        with pytest.raises(OSError, match="No space left"):
            paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
        monkeypatch.undo()
        assert _contents(tmp_path) == before

        # The parameters file's path is taken by a directory.
        os.remove(prefix + ".pdiparams")
        os.mkdir(prefix + ".pdiparams")
        with pytest.raises(ValueError, match="is an existing directory"):
            paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
        assert open(prefix + ".pdmodel", "rb").read() == before["m.pdmodel"]


# ---- checkpoints ------------------------------------------------------------------------------

def test_save_and_load_checkpoint(tmp_path):
    prefix = str(tmp_path / "ckpt" / "m")
    with static_mode():
        main, startup, x, _, out, loss = build_mlp(optimizer=paddle.optimizer.Adam(0.01))
        exe = train(main, startup, loss)
        paddle.static.save(main, prefix)
        names = [v.name for v in main.list_vars() if v.persistable]
        saved = {name: scope_value(name) for name in names}
        next_loss, = exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])

        with open(prefix + ".pdparams", "rb") as f:
            raw = f.read()
        params = pickle.loads(raw)
        assert raw[:2] == b"\x80\x04"  # protocol 4
        assert sorted(params) == ["linear_0.b_0", "linear_0.w_0", "linear_1.b_0",
                                  "linear_1.w_0"]
        assert all(type(v) is np.ndarray for v in params.values())
        with open(prefix + ".pdopt", "rb") as f:
            opt = pickle.load(f)
        assert "learning_rate_0" in opt and "linear_0.w_0_moment1_0" in opt
        assert not set(opt) & set(params)
        program = paddle.static.deserialize_program(open(prefix + ".pdmodel", "rb").read())
        assert any(op.type == "adam" for op in program.global_block().ops)

        # load: parameters and optimizer state come back, training continues identically.
        with paddle.static.scope_guard(paddle.static.Scope()):
            paddle.static.load(main, prefix + ".pdparams", exe)
            for name, value in saved.items():
                np.testing.assert_array_equal(scope_value(name), value)
            again, = exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])
        np.testing.assert_array_equal(again, next_loss)

        # load_program_state / set_program_state.
        state = paddle.static.load_program_state(prefix)
        assert sorted(state) == sorted(saved)
        with paddle.static.scope_guard(paddle.static.Scope()):
            exe.run(startup)
            paddle.static.set_program_state(main, state)
            for name, value in saved.items():
                np.testing.assert_array_equal(scope_value(name), value)
            with pytest.warns(UserWarning, match="not found in program. There are: extra"):
                paddle.static.set_program_state(main, {"extra": np.ones(2)})
            bad = dict(state, **{"linear_0.w_0": np.ones((3, 3), "float32")})
            with pytest.raises(ValueError, match=r"shape does not match.*\(\(4, 8\)\).*"
                                                 r"linear_0.w_0 \]\) has a shape of  ?\(\(3, 3\)\)"):
                paddle.static.set_program_state(main, bad)


def test_checkpoint_errors(tmp_path, monkeypatch):
    prefix = str(tmp_path / "m")
    with static_mode():
        main, startup, x, _, out, loss = build_mlp()
        exe = train(main, startup, loss)
        paddle.static.save(main, prefix)
        before = _contents(tmp_path)
        with paddle.static.scope_guard(paddle.static.Scope()):
            with pytest.raises(ValueError, match="has no value in the scope"):
                paddle.static.save(main, prefix)
        assert _contents(tmp_path) == before

        # The disk fails on the second of the three files: none of them is replaced.
        exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])
        written = []
        real_write = static_io._atomic_write

        def write_then_fail(path, write):
            if written:
                raise OSError(28, "No space left on device")
            written.append(path)
            real_write(path, write)
        monkeypatch.setattr(static_io, "_atomic_write", write_then_fail)
        with pytest.raises(OSError, match="No space left"):
            paddle.static.save(main, prefix)
        monkeypatch.undo()
        assert written and _contents(tmp_path) == before

        with unique_name.guard():
            wide_main = build_mlp(hidden=16)[0]
        with paddle.static.scope_guard(paddle.static.Scope()):
            with pytest.raises(ValueError, match=r"m\.pdparams': variable 'linear_0\.\w_0' has "
                                                 r"shape \[(4, )?8\] in the file, but the "
                                                 r"program declares \[(4, )?16\]"):
                paddle.static.load(wide_main, prefix, exe)
            assert paddle.static.global_scope().local_var_names() == []
        _truncate(prefix + ".pdparams")
        with pytest.raises(ValueError, match=r"cannot parse the checkpoint file '.*m\.pdparams'"):
            paddle.static.load(main, prefix, exe)
        with pytest.raises(FileNotFoundError, match=r"'.*nothere\.pdparams' does not exist"):
            paddle.static.load_program_state(str(tmp_path / "nothere"))


# ---- against real PaddlePaddle ----------------------------------------------------------------

REFERENCE_SAVE = r"""
import sys, numpy as np, paddle
import paddle.nn.functional as F
paddle.enable_static()
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data("x", [None, 4], "float32")
    w = paddle.create_parameter([4, 3], "float32", name="fc_w")
    b = paddle.create_parameter([3], "float32", name="fc_b", is_bias=True)
    out = F.softmax(paddle.scale(F.relu(F.linear(x, w, b)), 2.0, 0.5))
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
rng = np.random.RandomState(5)
for name, shape in (("fc_w", [4, 3]), ("fc_b", [3])):
    paddle.static.global_scope().find_var(name).get_tensor().set(
        rng.randn(*shape).astype("float32"), paddle.CPUPlace())
paddle.static.save_inference_model(sys.argv[1], [x], [out], exe, program=main)
np.save(sys.argv[1] + ".out.npy", exe.run(main, feed={"x": np.load(sys.argv[2])},
                                          fetch_list=[out])[0])
"""

REFERENCE_LOAD = r"""
import sys, numpy as np, paddle
import paddle.inference as infer
paddle.enable_static()
exe = paddle.static.Executor(paddle.CPUPlace())
program, feeds, fetches = paddle.static.load_inference_model(sys.argv[1], exe)
x = np.load(sys.argv[2])
np.save(sys.argv[1] + ".ref.npy", exe.run(program, feed={feeds[0]: x}, fetch_list=fetches)[0])
config = infer.Config(sys.argv[1] + ".pdmodel", sys.argv[1] + ".pdiparams")
config.disable_gpu()
config.disable_glog_info()
predictor = infer.create_predictor(config)
handle = predictor.get_input_handle(predictor.get_input_names()[0])
handle.reshape(x.shape)
handle.copy_from_cpu(x)
predictor.run()
np.save(sys.argv[1] + ".predictor.npy",
        predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu())
"""


@pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")
def test_paddlepaddle_model_loads_here(tmp_path):
    prefix = str(tmp_path / "ref")
    np.save(str(tmp_path / "x.npy"), X)
    run_reference(REFERENCE_SAVE, prefix, str(tmp_path / "x.npy"))
    # FLAGS_enable_pir_api=0 makes PaddlePaddle 3 write the old-IR .pdmodel, not PIR's .json.
    assert os.path.exists(prefix + ".pdmodel") and not os.path.exists(prefix + ".json")
    with static_mode():
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        assert [op.type for op in program.global_block().ops] == [
            "feed", "matmul_v2", "elementwise_add", "relu", "scale", "softmax", "fetch"]
        got, = exe.run(program, feed={feeds[0]: X}, fetch_list=fetches)
        # Saved again here, the parameters file is byte for byte PaddlePaddle's.
        block = program.global_block()
        paddle.static.save_inference_model(str(tmp_path / "again"), [block.var(feeds[0])],
                                           fetches, exe, program=program)
    np.testing.assert_allclose(got, np.load(prefix + ".out.npy"), rtol=1e-6, atol=1e-7)
    assert open(str(tmp_path / "again.pdiparams"), "rb").read() == \
        open(prefix + ".pdiparams", "rb").read()


@pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")
def test_model_saved_here_loads_in_paddlepaddle(tmp_path):
    prefix = str(tmp_path / "ours")
    np.save(str(tmp_path / "x.npy"), X)
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 4], "float32")
            hidden = F.relu(paddle.nn.Linear(4, 8)(x))
            out = F.softmax(paddle.scale(paddle.nn.Linear(8, 3)(hidden), 2.0, 0.5))
        exe = paddle.static.Executor()
        exe.run(startup)
        expected, = exe.run(main, feed={"x": X}, fetch_list=[out])
        paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
    run_reference(REFERENCE_LOAD, prefix, str(tmp_path / "x.npy"))
    np.testing.assert_allclose(np.load(prefix + ".ref.npy"), expected, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(np.load(prefix + ".predictor.npy"), expected, rtol=1e-6,
                               atol=1e-7)


CHECKPOINT = r"""
import sys, numpy as np, paddle
paddle.enable_static()
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data("x", [None, 4], "float32")
    loss = paddle.mean(paddle.nn.Linear(4, 2)(x))
    paddle.optimizer.Adam(0.01).minimize(loss)
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
scope = paddle.static.global_scope()
names = sorted(v.name for v in main.list_vars() if v.persistable)
mode, prefix = sys.argv[1:]
if mode == "save":
    exe.run(main, feed={"x": np.ones((3, 4), "float32")}, fetch_list=[loss])
    paddle.static.save(main, prefix)
    np.savez(prefix + ".npz", **{n: np.array(scope.find_var(n).get_tensor()) for n in names})
else:
    paddle.static.load(main, prefix, exe)
    expected = np.load(prefix + ".npz")
    assert sorted(expected.files) == names, (expected.files, names)
    for n in names:
        # The learning rate is 0-d in PaddlePaddle 3 and [1] here.
        np.testing.assert_array_equal(np.array(scope.find_var(n).get_tensor()).ravel(),
                                      expected[n].ravel(), err_msg=n)
"""


@pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")
@pytest.mark.parametrize("writer", ["ours", "reference"])
def test_checkpoints_interoperate_with_paddlepaddle(tmp_path, writer):
    prefix = str(tmp_path / "ckpt")
    for mode, role in (("save", writer), ("load", {"ours": "reference",
                                                   "reference": "ours"}[writer])):
        if role == "reference":
            run_reference(CHECKPOINT, mode, prefix)
        else:
            result = subprocess.run([sys.executable, "-c", CHECKPOINT, mode, prefix],
                                    capture_output=True, text=True, timeout=300)
            assert result.returncode == 0, result.stderr[-4000:]
