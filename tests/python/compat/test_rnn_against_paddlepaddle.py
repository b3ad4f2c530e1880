"""paddle.nn.LSTM / GRU / SimpleRNN against PaddlePaddle (PADDLE_REFERENCE_PYTHON), in float64:
PaddlePaddle's parameters are copied in by name and the outputs, final states and gradients
(input, initial states, every weight) must agree; models holding the `rnn` op saved by one
framework run in the other.

With sequence_length only the forward values are compared: PaddlePaddle 3.3.1's CPU rnn_grad
gives wrong weight and input gradients there (the reverse direction's, and the GRU's), which
central differences show; the harness (op_db_rnn.py) checks ours against them."""
import os
import subprocess

import numpy as np
import pytest

import paddle
from static_testing import static_mode

REFERENCE = os.environ.get("PADDLE_REFERENCE_PYTHON")
pytestmark = pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")

CONFIGS = {
    "lstm_bidirect": ("LSTM", {"num_layers": 2, "direction": "bidirect"}),
    "gru_bidirect": ("GRU", {"num_layers": 2, "direction": "bidirect"}),
    "rnn_tanh": ("SimpleRNN", {"num_layers": 2}),
    "rnn_relu_bidirect": ("SimpleRNN", {"direction": "bidirectional", "activation": "relu"}),
    "lstm_time_major": ("LSTM", {"time_major": True}),
}
LENGTHS = [5, 2, 4]

RECORD = r"""
import sys, numpy as np, paddle
paddle.set_default_dtype("float64")
configs, lengths = eval(sys.argv[2]), eval(sys.argv[3])
record = {}
for index, (key, (cls, kwargs)) in enumerate(sorted(configs.items())):
    for with_lengths in (False, True):
        tag = f"{key}/{int(with_lengths)}/"
        paddle.seed(index)
        net = getattr(paddle.nn, cls)(4, 6, **kwargs)
        rng = np.random.default_rng(index)
        time_major = kwargs.get("time_major", False)
        x_np = rng.standard_normal((5, 3, 4) if time_major else (3, 5, 4))
        units = kwargs.get("num_layers", 1) * (2 if kwargs.get("direction", "forward") != "forward" else 1)
        states = [paddle.to_tensor(rng.standard_normal((units, 3, 6)), stop_gradient=False)
                  for _ in range(2 if cls == "LSTM" else 1)]
        x = paddle.to_tensor(x_np, stop_gradient=False)
        seq = paddle.to_tensor(np.array(lengths, np.int64)) if with_lengths else None
        out, final = net(x, tuple(states) if len(states) == 2 else states[0], seq)
        finals = list(final) if isinstance(final, tuple) else [final]
        ((out * out).sum() + sum((f * f * 0.5).sum() for f in finals)).backward()
        record[tag + "x"] = x_np
        record[tag + "out"] = out.numpy()
        record[tag + "dx"] = x.grad.numpy()
        for i, (s, f) in enumerate(zip(states, finals)):
            record[tag + f"state{i}"] = s.numpy()
            record[tag + f"final{i}"] = f.numpy()
            record[tag + f"dstate{i}"] = s.grad.numpy()
        for name, p in net.named_parameters():
            record[tag + "param/" + name] = p.numpy()
            record[tag + "grad/" + name] = p.grad.numpy()
np.savez(sys.argv[1], **record)
"""

SAVE_MODEL = r"""
import sys, numpy as np, paddle
paddle.enable_static()
paddle.seed(1)
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data("x", [4, 5, 3], "float32")
    lstm = paddle.nn.LSTM(3, 6, num_layers=2, direction="bidirect")
    lstm.eval()
    y, (h, c) = lstm(x)
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
x_np = np.load(sys.argv[2])
np.savez(sys.argv[1] + ".out.npz", *exe.run(main, feed={"x": x_np}, fetch_list=[y, h, c]))
paddle.static.save_inference_model(sys.argv[1], [x], [y, h, c], exe, program=main)
"""

LOAD_MODEL = r"""
import sys, numpy as np, paddle
paddle.enable_static()
exe = paddle.static.Executor(paddle.CPUPlace())
program, feeds, fetches = paddle.static.load_inference_model(sys.argv[1], exe)
assert "rnn" in [op.type for op in program.global_block().ops]
np.savez(sys.argv[1] + ".ref.npz", *exe.run(program, feed={feeds[0]: np.load(sys.argv[2])},
                                            fetch_list=fetches))
"""


def run_reference(script, *args):
    env = dict(os.environ, FLAGS_enable_pir_api="0", GLOG_minloglevel="2")
    env.pop("PYTHONPATH", None)
    result = subprocess.run([REFERENCE, "-c", script, *map(str, args)], env=env, cwd="/",
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-4000:]


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path = tmp_path_factory.mktemp("rnn") / "record.npz"
    run_reference(RECORD, path, repr(CONFIGS), repr(LENGTHS))
    return np.load(path)


@pytest.mark.parametrize("with_lengths", [False, True])
@pytest.mark.parametrize("key", sorted(CONFIGS))
def test_values_and_gradients_match_paddlepaddle(record, key, with_lengths):
    cls, kwargs = CONFIGS[key]
    tag = f"{key}/{int(with_lengths)}/"
    previous = paddle.get_default_dtype()
    paddle.set_default_dtype("float64")
    try:
        net = getattr(paddle.nn, cls)(4, 6, **kwargs)
    finally:
        paddle.set_default_dtype(previous)
    for name, param in net.named_parameters():
        param.set_value(record[tag + "param/" + name])
    components = 2 if cls == "LSTM" else 1
    x = paddle.to_tensor(record[tag + "x"], stop_gradient=False)
    states = [paddle.to_tensor(record[tag + f"state{i}"], stop_gradient=False)
              for i in range(components)]
    seq = paddle.to_tensor(np.array(LENGTHS, np.int64)) if with_lengths else None
    out, final = net(x, tuple(states) if components == 2 else states[0], seq)
    finals = list(final) if components == 2 else [final]
    np.testing.assert_allclose(out.numpy(), record[tag + "out"], rtol=1e-10, atol=1e-12)
    for i, f in enumerate(finals):
        np.testing.assert_allclose(f.numpy(), record[tag + f"final{i}"], rtol=1e-10, atol=1e-12)
    if with_lengths:
        return
    ((out * out).sum() + sum((f * f * 0.5).sum() for f in finals)).backward()
    np.testing.assert_allclose(x.grad.numpy(), record[tag + "dx"], rtol=1e-9, atol=1e-11)
    for i, s in enumerate(states):
        np.testing.assert_allclose(s.grad.numpy(), record[tag + f"dstate{i}"], rtol=1e-9,
                                   atol=1e-11)
    for name, param in net.named_parameters():
        np.testing.assert_allclose(param.grad.numpy(), record[tag + "grad/" + name], rtol=1e-9,
                                   atol=1e-11, err_msg=name)


def test_paddlepaddle_lstm_model_runs_here(tmp_path):
    prefix = str(tmp_path / "lstm")
    x = np.random.default_rng(0).standard_normal((4, 5, 3)).astype("float32")
    np.save(str(tmp_path / "x.npy"), x)
    run_reference(SAVE_MODEL, prefix, tmp_path / "x.npy")
    expected = np.load(prefix + ".out.npz")
    with static_mode():
        exe = paddle.static.Executor()
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        assert "rnn" in [op.type for op in program.global_block().ops]
        got = exe.run(program, feed={feeds[0]: x}, fetch_list=fetches)
    for i, value in enumerate(got):
        np.testing.assert_allclose(value, expected[f"arr_{i}"], rtol=1e-5, atol=1e-6)


def test_lstm_model_saved_here_runs_in_paddlepaddle(tmp_path):
    prefix = str(tmp_path / "ours")
    x = np.random.default_rng(1).standard_normal((3, 4, 5)).astype("float32")
    np.save(str(tmp_path / "x.npy"), x)
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            data = paddle.static.data("x", [3, 4, 5], "float32")
            gru = paddle.nn.GRU(5, 6, num_layers=2, direction="bidirect")
            gru.eval()
            out, final = gru(data)
        exe = paddle.static.Executor()
        exe.run(startup)
        expected = exe.run(main, feed={"x": x}, fetch_list=[out, final])
        paddle.static.save_inference_model(prefix, [data], [out, final], exe, program=main)
    run_reference(LOAD_MODEL, prefix, tmp_path / "x.npy")
    got = np.load(prefix + ".ref.npz")
    for i, value in enumerate(expected):
        np.testing.assert_allclose(got[f"arr_{i}"], value, rtol=1e-5, atol=1e-6)
