"""BuildStrategy.fuse_bn_act_ops: batch_norm + relu and their grad ops become
fused_batch_norm_act(_grad) in the program CompiledProgram runs, and training gives the same
losses and parameters as the unfused program."""
import collections

import numpy as np
import paddle
import pytest
from paddle import static

from static_testing import static_mode as _static_mode


@pytest.fixture(autouse=True)
def static_mode():
    with _static_mode():
        yield


def _model(data_format="NHWC", extra_reader=False):
    """conv -> batch_norm -> relu twice, then a linear head; channels last by default."""
    shape = [None, 6, 6, 3] if data_format == "NHWC" else [None, 3, 6, 6]
    x = static.data("x", shape, "float32")
    y = static.data("y", [None, 1], "float32")
    h = x
    for cin, cout in ((3, 4), (4, 5)):
        h = paddle.nn.Conv2D(cin, cout, 3, padding=1, data_format=data_format)(h)
        pre = paddle.nn.BatchNorm2D(cout, data_format=data_format)(h)
        h = paddle.nn.functional.relu(pre)
    if extra_reader:
        h = h + pre  # batch_norm's output is read beyond the relu: that pair stays unfused
    out = paddle.nn.Linear(5, 1)(paddle.mean(h, axis=[1, 2] if data_format == "NHWC" else [2, 3]))
    return paddle.mean((out - y) ** 2)


def _train(strategy, steps=4, **model_args):
    paddle.seed(5)
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        loss = _model(**model_args)
        paddle.optimizer.Momentum(0.05, momentum=0.9).minimize(loss)
    exe = static.Executor()
    scope = static.Scope()
    target = static.CompiledProgram(main, strategy)
    rng = np.random.default_rng(2)
    layout = model_args.get("data_format", "NHWC")
    losses = []
    with static.scope_guard(scope):
        exe.run(startup)
        for _ in range(steps):
            x = rng.standard_normal((8, 6, 6, 3) if layout == "NHWC" else (8, 3, 6, 6))
            y = x.mean(axis=(1, 2, 3))[:, None]
            losses.append(exe.run(target, feed={"x": x.astype("float32"),
                                                "y": y.astype("float32")}, fetch_list=[loss])[0])
        # Parameters, running statistics and optimizer state, in program order (the names of
        # two programs differ by their counters).
        values = [np.array(scope.find_var(v.name).get_tensor()) for v in main.list_vars()
                  if v.persistable and scope.find_var(v.name) and v.name not in ("feed", "fetch")]
    return np.array(losses), values, main, target._program_to_run()


def _counts(program):
    return collections.Counter(op.type for op in program.global_block().ops)


def _strategy(fuse):
    strategy = static.BuildStrategy()
    strategy.fuse_bn_act_ops = fuse
    return strategy


def test_fuse_bn_act_ops_rewrites_forward_and_backward_and_trains_alike():
    losses, values, plain, _ = _train(_strategy(False))
    fused_losses, fused_values, _, fused = _train(_strategy(True))
    before, after = _counts(plain), _counts(fused)
    assert before["batch_norm"] == 2 and before["relu"] == 2
    assert after["fused_batch_norm_act"] == 2 and after["fused_batch_norm_act_grad"] == 2
    for gone in ("batch_norm", "relu", "batch_norm_grad", "relu_grad"):
        assert after.get(gone, 0) == 0, gone
    assert _counts(plain) == before, "the program as written is left alone"
    op = next(op for op in fused.global_block().ops if op.type == "fused_batch_norm_act")
    assert op.attr("act_type") == "relu" and abs(op.attr("momentum") - 0.9) < 1e-7
    assert sorted(op.input_names) == ["Bias", "Mean", "Scale", "Variance", "X"]
    assert {"Y", "MeanOut", "VarianceOut", "SavedMean", "SavedVariance", "ReserveSpace"} <= \
        set(op.output_names)
    assert op.input("Mean") == op.output("MeanOut"), "running statistics updated in place"
    np.testing.assert_allclose(fused_losses, losses, rtol=1e-5, atol=1e-6)
    assert len(values) == len(fused_values) > 10
    for fused_value, value in zip(fused_values, values):
        np.testing.assert_allclose(fused_value, value, rtol=1e-5, atol=1e-6)


def test_channel_first_batch_norm_stays_unfused():
    _, _, _, ran = _train(_strategy(True), steps=1, data_format="NCHW")
    counts = _counts(ran)
    assert counts.get("fused_batch_norm_act", 0) == 0 and counts["batch_norm"] == 2


def test_a_batch_norm_output_read_elsewhere_stays_unfused():
    losses, _, _, _ = _train(_strategy(False), extra_reader=True)
    fused_losses, _, _, ran = _train(_strategy(True), extra_reader=True)
    counts = _counts(ran)
    assert counts["fused_batch_norm_act"] == 1 and counts["batch_norm"] == 1
    assert counts["fused_batch_norm_act_grad"] == 1 and counts["batch_norm_grad"] == 1
    np.testing.assert_allclose(fused_losses, losses, rtol=1e-5, atol=1e-6)


def test_inference_program_fuses_the_forward_only():
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [None, 4, 4, 3], "float32")
        out = paddle.nn.functional.relu(paddle.nn.BatchNorm2D(3, data_format="NHWC")(x))
    exe = static.Executor()
    with static.scope_guard(static.Scope()):
        exe.run(startup)
        feed = {"x": np.random.default_rng(0).standard_normal((2, 4, 4, 3)).astype("float32")}
        (expected,) = exe.run(main, feed=feed, fetch_list=[out])
        target = static.CompiledProgram(main, _strategy(True))
        (value,) = exe.run(target, feed=feed, fetch_list=[out])
    assert _counts(target._program_to_run())["fused_batch_norm_act"] == 1
    np.testing.assert_allclose(value, expected, rtol=1e-6, atol=1e-6)
    assert value.min() == 0.0
