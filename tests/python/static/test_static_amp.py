"""Static AMP: paddle.static.amp.decorate rewrites a program by the AMP lists (white-list ops in
the low dtype through cast ops, the rest as dygraph's auto_cast runs them), scales the loss and
unscales the gradients in the program, and with dynamic loss scaling (float16) skips a step whose
gradients are not finite and adjusts the scale; GradScaler and Model.prepare(amp_configs) use it
in static mode."""
import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
from paddle.static import amp as static_amp

IN, HIDDEN, OUT, BATCH = 16, 32, 4, 8


@pytest.fixture(autouse=True)
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def _weights():
    rng = np.random.default_rng(0)
    return [(rng.standard_normal((IN, HIDDEN)) * 0.3).astype("float32"),
            (rng.standard_normal(HIDDEN) * 0.1).astype("float32"),
            (rng.standard_normal((HIDDEN, OUT)) * 0.3).astype("float32"),
            (rng.standard_normal(OUT) * 0.1).astype("float32")]


def _data():
    rng = np.random.default_rng(1)
    return (rng.standard_normal((BATCH, IN)).astype("float32"),
            rng.integers(0, OUT, (BATCH, 1)).astype("int64"))


def _mlp():
    w1, b1, w2, b2 = (paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(v))
                      for v in _weights())
    return paddle.nn.Sequential(paddle.nn.Linear(IN, HIDDEN, w1, b1), paddle.nn.ReLU(),
                                paddle.nn.Linear(HIDDEN, OUT, w2, b2))


def _static_program(decorate=None, optimizer=None):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, IN], "float32")
        y = paddle.static.data("y", [None, 1], "int64")
        model = _mlp()
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        opt = optimizer or paddle.optimizer.SGD(0.1)
        if decorate is not None:
            opt = static_amp.decorate(opt, **decorate)
        opt.minimize(loss)
    return main, startup, loss, logits, opt


def _train_static(steps, decorate=None, optimizer=None, feeds=None):
    main, startup, loss, logits, opt = _static_program(decorate, optimizer)
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    losses = []
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        x, y = _data()
        for step in range(steps):
            feed_x = feeds[step] if feeds is not None else x
            losses.append(float(exe.run(main, feed={"x": feed_x, "y": y},
                                        fetch_list=[loss])[0]))
        params = {p.name: np.array(scope.find_var(p.name).get_tensor())
                  for p in main.all_parameters()}
    return losses, params, main, opt, scope


def _train_dygraph(steps, amp):
    paddle.disable_static()
    try:
        model = _mlp()
        opt = paddle.optimizer.SGD(0.1, parameters=model.parameters())
        x, y = (paddle.to_tensor(a) for a in _data())
        losses = []
        for _ in range(steps):
            with paddle.amp.auto_cast(enable=amp, dtype="bfloat16", level="O1"):
                loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        return losses
    finally:
        paddle.enable_static()


def test_bf16_o1_program_runs_matmul_in_bf16_and_trains_like_dygraph_amp():
    main, _, loss, logits, _ = _static_program(dict(level="O1", dtype="bfloat16"))
    ops = main.global_block().ops
    matmuls = [op for op in ops if op.type == "matmul_v2"]
    assert len(matmuls) == 2
    for op in matmuls:
        for name in op.input_arg_names + op.output_arg_names:
            assert main.global_block().var(name).dtype == paddle.bfloat16
    # The bias adds (off both lists, one float32 operand) and the loss stay float32.
    assert logits.dtype == paddle.float32 and loss.dtype == paddle.float32
    assert sum(op.type == "cast" for op in ops) >= 4
    # bfloat16 needs no loss scaling by default: the scale is 1, no update_loss_scaling op.
    assert not any(op.type == "update_loss_scaling" for op in ops)

    static_losses = _train_static(6, dict(level="O1", dtype="bfloat16"))[0]
    fp32_losses = _train_static(6)[0]
    dygraph_losses = _train_dygraph(6, amp=True)
    assert static_losses[-1] < static_losses[0]
    np.testing.assert_allclose(static_losses, dygraph_losses, rtol=1e-2, atol=1e-2)
    np.testing.assert_allclose(static_losses, fp32_losses, rtol=3e-2, atol=3e-2)


def test_float16_dynamic_loss_scaling_skips_a_step_with_inf_and_halves_the_scale():
    x, _ = _data()
    bad = x.copy()
    bad[0, 0] = np.inf
    feeds = [x, bad, x]
    decorate = dict(level="O1", dtype="float16", init_loss_scaling=1024.0,
                    incr_every_n_steps=2, decr_every_n_nan_or_inf=1)
    main, startup, loss, _, opt = _static_program(decorate)
    ops = [op.type for op in main.global_block().ops]
    assert "check_finite_and_unscale" in ops and "update_loss_scaling" in ops
    scale_name = opt.get_loss_scaling().name
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    _, y = _data()
    with paddle.static.scope_guard(scope):
        exe.run(startup)

        def snapshot():
            return {p.name: np.array(scope.find_var(p.name).get_tensor())
                    for p in main.all_parameters()}

        def scale():
            return float(np.array(scope.find_var(scale_name).get_tensor())[0])

        before = snapshot()
        exe.run(main, feed={"x": feeds[0], "y": y}, fetch_list=[loss])
        after_good = snapshot()
        assert scale() == 1024.0
        assert any(not np.array_equal(before[k], after_good[k]) for k in before)
        exe.run(main, feed={"x": feeds[1], "y": y}, fetch_list=[loss])
        after_bad = snapshot()
        for name in before:  # the step with an inf gradient left every parameter as it was
            np.testing.assert_array_equal(after_bad[name], after_good[name])
        assert scale() == 512.0
        exe.run(main, feed={"x": feeds[2], "y": y}, fetch_list=[loss])
        exe.run(main, feed={"x": feeds[2], "y": y}, fetch_list=[loss])
        assert scale() == 1024.0  # two finite steps in a row: incr_every_n_steps=2


def test_adam_skips_its_moments_too_on_a_step_with_inf():
    x, y = _data()
    bad = x.copy()
    bad[1, 2] = np.nan
    main, startup, loss, _, opt = _static_program(
        dict(level="O1", dtype="float16", init_loss_scaling=8.0),
        optimizer=paddle.optimizer.Adam(0.01))
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    persistables = [v.name for v in main.list_vars() if v.persistable]
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        exe.run(main, feed={"x": x, "y": y}, fetch_list=[loss])
        state = {n: np.array(scope.find_var(n).get_tensor()) for n in persistables
                 if "moment" in n or "pow" in n or n.startswith("linear")}
        assert any("moment" in n for n in state) and any("pow" in n for n in state)
        exe.run(main, feed={"x": bad, "y": y}, fetch_list=[loss])
        for name, value in state.items():
            np.testing.assert_array_equal(np.array(scope.find_var(name).get_tensor()), value,
                                          err_msg=name)


def test_lists_move_ops_and_black_varnames_keep_ops_float32():
    lists = static_amp.AutoMixedPrecisionLists(custom_black_list={"matmul_v2"},
                                               dtype="bfloat16")
    assert "matmul_v2" in lists.black_list and "matmul_v2" not in lists.white_list
    main = _static_program(dict(amp_lists=lists, level="O1", dtype="bfloat16"))[0]
    assert all(main.global_block().var(name).dtype == paddle.float32
               for op in main.global_block().ops if op.type == "matmul_v2"
               for name in op.input_arg_names + op.output_arg_names)
    with pytest.raises(ValueError, match="overlaps"):
        static_amp.CustomOpLists(custom_white_list={"relu"}, custom_black_list={"relu"})

    # The first matmul reads x: with x a black varname it stays float32, the second does not.
    lists = static_amp.AutoMixedPrecisionLists(custom_black_varnames={"x"}, dtype="bfloat16")
    main = _static_program(dict(amp_lists=lists, level="O1", dtype="bfloat16"))[0]
    first, second = [op for op in main.global_block().ops if op.type == "matmul_v2"]
    assert main.global_block().var(first.output_arg_names[0]).dtype == paddle.float32
    assert main.global_block().var(second.output_arg_names[0]).dtype == paddle.bfloat16


def test_decorate_arguments():
    opt = static_amp.decorate(paddle.optimizer.SGD(0.1), use_bf16=True)
    assert opt._amp_dtype == "bfloat16" and not opt._use_dynamic_loss_scaling
    with pytest.warns(UserWarning, match="bfloat16"):
        opt = static_amp.decorate(paddle.optimizer.SGD(0.1), dtype="bfloat16",
                                  use_dynamic_loss_scaling=True)
    assert opt._init_loss_scaling == 1.0
    with pytest.raises(ValueError, match="level"):
        static_amp.decorate(paddle.optimizer.SGD(0.1), level="O3")
    with pytest.raises(ValueError, match="dtype"):
        static_amp.decorate(paddle.optimizer.SGD(0.1), dtype="float64")
    with pytest.raises(TypeError, match="use_fp32"):
        static_amp.decorate(paddle.optimizer.SGD(0.1), use_fp32=True)
    assert opt.get_lr() == 0.1  # the wrapped optimizer's methods


def test_grad_scaler_in_static_mode_scales_through_the_decorated_optimizer():
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, IN], "float32")
        y = paddle.static.data("y", [None, 1], "int64")
        loss = F.cross_entropy(_mlp()(x), y)
        scaler = paddle.amp.GradScaler(init_loss_scaling=256.0)
        scaled = scaler.scale(loss)
        with pytest.raises(TypeError, match="paddle.static.amp.decorate"):
            scaler.minimize(paddle.optimizer.SGD(0.1), scaled)
        opt = static_amp.decorate(paddle.optimizer.SGD(0.1), dtype="float16")
        scaler.minimize(opt, scaled)
    ops = [op.type for op in main.global_block().ops]
    assert ops.count("elementwise_mul") == 1  # scaled once, by the scaler's variable
    assert opt.get_loss_scaling() is scaler._scale
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    x_np, y_np = _data()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        first = exe.run(main, feed={"x": x_np, "y": y_np}, fetch_list=[loss])[0]
        for _ in range(3):
            last = exe.run(main, feed={"x": x_np, "y": y_np}, fetch_list=[loss])[0]
        assert float(last) < float(first)
        assert float(np.array(scope.find_var(scaler._scale.name).get_tensor())[0]) == 256.0


def test_model_prepare_amp_configs_in_static_mode():
    x_np, y_np = _data()

    class Data(paddle.io.Dataset):
        def __len__(self):
            return BATCH * 4

        def __getitem__(self, i):
            return x_np[i % BATCH], y_np[i % BATCH]

    inputs = [paddle.static.InputSpec([None, IN], "float32", "x")]
    labels = [paddle.static.InputSpec([None, 1], "int64", "y")]
    model = paddle.Model(_mlp(), inputs, labels)
    model.prepare(paddle.optimizer.SGD(0.1), paddle.nn.CrossEntropyLoss(),
                  amp_configs={"level": "O1", "dtype": "bfloat16"})
    train_ops = [op.type for op in model._adapter._progs["train"].global_block().ops]
    eval_ops = [op.type for op in model._adapter._progs["eval"].global_block().ops]
    assert "cast" in train_ops and "cast" in eval_ops
    first = model.train_batch([x_np], [y_np])[0]
    for _ in range(4):
        last = model.train_batch([x_np], [y_np])[0]
    assert float(np.ravel(last)[0]) < float(np.ravel(first)[0])
    result = model.evaluate(Data(), batch_size=BATCH, verbose=0)
    assert np.isfinite(result["loss"][0])
