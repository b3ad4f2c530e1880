"""paddle.static.CompiledProgram with BuildStrategy/ExecutionStrategy: Paddle's attribute names
and defaults, checked values, and the passes (fuse_all_optimizer_ops, debug_graphviz_path)
rewriting the program while training gives the results of the program as written."""
import numpy as np
import pytest

import paddle
import paddle.static as static

# BuildStrategy() of PaddlePaddle 3.3.1 (its wheel's dir() and values), attribute by attribute.
PADDLE_BUILD_STRATEGY_DEFAULTS = {
    "allow_cuda_graph_capture": False, "async_mode": False, "bkcl_comm_num": 1,
    "build_cinn_pass": False, "cache_runtime_context": False, "debug_graphviz_path": "",
    "enable_addto": False, "enable_auto_fusion": False,
    "enable_backward_optimizer_op_deps": True, "enable_inplace": True, "fuse_adamw": False,
    "fuse_all_optimizer_ops": False, "fuse_all_reduce_ops": True, "fuse_bn_act_ops": False,
    "fuse_bn_add_act_ops": True, "fuse_broadcast_ops": True,
    "fuse_dot_product_attention": False, "fuse_elewise_add_act_ops": False,
    "fuse_gemm_epilogue": False, "fuse_relu_depthwise_conv": False, "fuse_resunit": False,
    "fused_attention": False, "fused_feedforward": False,
    "hierarchical_allreduce_inter_nranks": 0, "memory_optimize": None,
    "mkldnn_enabled_op_types": set(), "nccl_comm_num": 1, "num_trainers": 1,
    "onednn_enabled_op_types": set(), "sequential_run": False, "sync_batch_norm": False,
    "trainer_id": 0, "trainers_endpoints": [], "use_hierarchical_allreduce": False,
}


@pytest.fixture(autouse=True)
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def test_build_strategy_attributes_and_defaults_match_paddle():
    strategy = static.BuildStrategy()
    for name, default in PADDLE_BUILD_STRATEGY_DEFAULTS.items():
        assert getattr(strategy, name) == default, name
    assert strategy.reduce_strategy == static.BuildStrategy.ReduceStrategy.AllReduce
    assert int(static.BuildStrategy.ReduceStrategy.Reduce) == 1
    assert strategy.gradient_scale_strategy == \
        static.BuildStrategy.GradientScaleStrategy.CoeffNumDevice
    strategy.reduce_strategy = static.BuildStrategy.ReduceStrategy.Reduce
    strategy.gradient_scale_strategy = static.BuildStrategy.GradientScaleStrategy.One
    strategy.fuse_all_optimizer_ops = True
    strategy.memory_optimize = False
    strategy.trainers_endpoints = ["127.0.0.1:6170"]
    assert strategy.reduce_strategy == static.BuildStrategy.ReduceStrategy.Reduce
    assert strategy.fuse_all_optimizer_ops is True and strategy.memory_optimize is False
    assert strategy.trainers_endpoints == ["127.0.0.1:6170"]
    # Each instance has its own containers.
    assert static.BuildStrategy().trainers_endpoints == []


def test_execution_strategy_attributes():
    strategy = static.ExecutionStrategy()
    assert (strategy.num_threads, strategy.num_iteration_per_drop_scope,
            strategy.num_iteration_per_run, strategy.use_thread_barrier,
            strategy.allow_op_delay) == (0, 100, 1, False, False)
    strategy.num_threads = 4
    strategy.use_thread_barrier = True
    assert strategy.num_threads == 4 and strategy.use_thread_barrier is True


@pytest.mark.parametrize("make, name, value, error", [
    (static.BuildStrategy, "fuse_all_optimizer_op", True, AttributeError),
    (static.BuildStrategy, "enable_inplace", "yes", TypeError),
    (static.BuildStrategy, "memory_optimize", 1.5, ValueError),
    (static.BuildStrategy, "reduce_strategy", 3, TypeError),
    (static.BuildStrategy, "gradient_scale_strategy",
     static.BuildStrategy.ReduceStrategy.Reduce, TypeError),
    (static.BuildStrategy, "debug_graphviz_path", 3, TypeError),
    (static.BuildStrategy, "num_trainers", 0, ValueError),
    (static.BuildStrategy, "trainers_endpoints", "host:1", TypeError),
    (static.ExecutionStrategy, "num_threads", -1, ValueError),
    (static.ExecutionStrategy, "num_threads", 2.0, TypeError),
    (static.ExecutionStrategy, "num_iteration_per_drop_scope", 0, ValueError),
    (static.ExecutionStrategy, "num_thread", 2, AttributeError),
])
def test_bad_values_raise_naming_the_attribute(make, name, value, error):
    strategy = make()
    with pytest.raises(error, match=name):
        setattr(strategy, name, value)


def test_compiled_program_checks_its_arguments():
    with pytest.raises(TypeError, match="Program"):
        static.CompiledProgram("main")
    with pytest.raises(TypeError, match="build_strategy"):
        static.CompiledProgram(static.Program(), static.ExecutionStrategy())


def _build(optimizer):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [None, 4], "float32")
        y = static.data("y", [None, 1], "float32")
        hidden = static.nn.fc(x, 8, activation="relu")
        hidden = static.nn.fc(hidden, 8, activation="tanh")
        out = static.nn.fc(hidden, 1)
        loss = paddle.mean((out - y) ** 2)
        optimizer().minimize(loss)
    return main, startup, loss


def _train(optimizer, strategy, steps=5):
    """Losses and final parameters of `steps` steps of the program under `strategy` (None: the
    program itself), and the program that ran."""
    paddle.seed(7)
    main, startup, loss = _build(optimizer)
    exe = static.Executor()
    scope = static.Scope()
    target = main if strategy is None else static.CompiledProgram(main, strategy)
    rng = np.random.default_rng(0)
    losses = []
    with static.scope_guard(scope):
        exe.run(startup)
        for _ in range(steps):
            x = rng.standard_normal((16, 4)).astype("float32")
            y = np.sin(x).sum(1, keepdims=True).astype("float32")
            losses.append(exe.run(target, feed={"x": x, "y": y}, fetch_list=[loss])[0])
        params = [np.array(scope.find_var(p.name).get_tensor()) for p in main.all_parameters()]
    ran = main if strategy is None else target._program_to_run()
    return np.array(losses), params, ran


def _op_counts(program):
    counts = {}
    for op in program.global_block().ops:
        counts[op.type] = counts.get(op.type, 0) + 1
    return counts


OPTIMIZERS = {
    "momentum": (lambda: paddle.optimizer.Momentum(0.05, momentum=0.9), "momentum",
                 "merged_momentum"),
    "momentum_l2_nesterov": (lambda: paddle.optimizer.Momentum(
        0.05, momentum=0.9, use_nesterov=True, weight_decay=paddle.regularizer.L2Decay(1e-3)),
        "momentum", "merged_momentum"),
    "adam": (lambda: paddle.optimizer.Adam(0.01), "adam", "merged_adam"),
}


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_fuse_all_optimizer_ops_merges_the_updates_and_trains_alike(name):
    optimizer, single, merged = OPTIMIZERS[name]
    losses, params, plain = _train(optimizer, None)
    strategy = static.BuildStrategy()
    strategy.fuse_all_optimizer_ops = True
    fused_losses, fused_params, fused = _train(optimizer, strategy)
    before, after = _op_counts(plain), _op_counts(fused)
    assert before[single] == 6 and merged not in before
    assert after.get(single, 0) == 0 and after[merged] == 1
    np.testing.assert_allclose(fused_losses, losses, rtol=1e-6, atol=1e-7)
    assert len(params) == len(fused_params) == 6
    for fused_value, value in zip(fused_params, params):
        np.testing.assert_allclose(fused_value, value, rtol=1e-6, atol=1e-7)
    # The program as written is left alone.
    assert _op_counts(plain) == before


def test_fuse_all_optimizer_ops_keeps_sgd_and_the_program_without_the_switch():
    strategy = static.BuildStrategy()
    _, _, ran = _train(lambda: paddle.optimizer.SGD(0.1), strategy, steps=1)
    assert "merged_momentum" not in _op_counts(ran)
    strategy.fuse_all_optimizer_ops = True
    losses, _, _ = _train(lambda: paddle.optimizer.SGD(0.1), None)
    fused_losses, _, ran = _train(lambda: paddle.optimizer.SGD(0.1), strategy)
    assert _op_counts(ran)["sgd"] == 6  # Paddle has no merged sgd op
    np.testing.assert_allclose(fused_losses, losses)


def test_debug_graphviz_path_writes_the_graphs(tmp_path):
    strategy = static.BuildStrategy()
    strategy.fuse_all_optimizer_ops = True
    strategy.debug_graphviz_path = str(tmp_path / "viz" / "train")
    _train(lambda: paddle.optimizer.Momentum(0.05), strategy, steps=1)
    original = (tmp_path / "viz" / "train_original_graph.dot").read_text()
    fused = (tmp_path / "viz" / "train_fused_graph.dot").read_text()
    for text in (original, fused):
        assert text.startswith("digraph G {") and text.rstrip().endswith("}")
        assert '[label="matmul_v2",shape=box' in text
    assert original.count('[label="momentum",shape=box') == 6
    assert '[label="merged_momentum",shape=box' in fused
    assert '[label="momentum",shape=box' not in fused
    # Parameters are filled ellipses; an edge per input slot.
    assert "style=filled" in original and '[label="Param"]' in original


def _residual_model():
    """fc layers with relu, tanh and sigmoid (each bias add + activation: act(x + y)), a
    residual x + relu(y) and a bias add with a broadcast axis."""
    x = static.data("x", [None, 4], "float32")
    y = static.data("y", [None, 1], "float32")
    hidden = static.nn.fc(x, 8, activation="relu")
    hidden = static.nn.fc(hidden, 8, activation="tanh")
    gate = static.nn.fc(hidden, 8, activation="sigmoid")
    branch = static.nn.fc(gate, 8, bias_attr=False)
    hidden = hidden + paddle.nn.functional.relu(branch)
    out = static.nn.fc(hidden, 1)
    return x, y, paddle.mean((out - y) ** 2)


def _train_model(model, strategy, steps=5):
    paddle.seed(11)
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        _, _, loss = model()
        paddle.optimizer.Momentum(0.05, momentum=0.9).minimize(loss)
    exe = static.Executor()
    scope = static.Scope()
    target = static.CompiledProgram(main, strategy)
    rng = np.random.default_rng(3)
    losses = []
    with static.scope_guard(scope):
        exe.run(startup)
        for _ in range(steps):
            x = rng.standard_normal((16, 4)).astype("float32")
            y = np.cos(x).sum(1, keepdims=True).astype("float32")
            losses.append(exe.run(target, feed={"x": x, "y": y}, fetch_list=[loss])[0])
        params = [np.array(scope.find_var(p.name).get_tensor()) for p in main.all_parameters()]
    return np.array(losses), params, main, target._program_to_run()


def test_fuse_elewise_add_act_ops_fuses_forward_and_backward_and_trains_alike():
    losses, params, plain, _ = _train_model(_residual_model, static.BuildStrategy())
    strategy = static.BuildStrategy()
    strategy.fuse_elewise_add_act_ops = True
    fused_losses, fused_params, _, fused = _train_model(_residual_model, strategy)
    before, after = _op_counts(plain), _op_counts(fused)
    # Four adds with an activation (three fc biases, the residual), forward and backward.
    assert after["fused_elemwise_add_activation"] == 4
    assert after["fused_elemwise_add_activation_grad"] == 4
    for act in ("relu", "tanh", "sigmoid"):
        assert after.get(act, 0) == 0 and after.get(act + "_grad", 0) == 0
    assert after["elementwise_add"] == before["elementwise_add"] - 4
    assert after["elementwise_add_grad"] == before["elementwise_add_grad"] - 4
    functors = sorted(tuple(op.attr("functor_list")) for op in fused.global_block().ops
                      if op.type == "fused_elemwise_add_activation")
    assert functors == [("elementwise_add", "relu"), ("relu", "elementwise_add"),
                        ("sigmoid", "elementwise_add"), ("tanh", "elementwise_add")]
    np.testing.assert_allclose(fused_losses, losses, rtol=1e-5, atol=1e-6)
    for fused_value, value in zip(fused_params, params):
        np.testing.assert_allclose(fused_value, value, rtol=1e-5, atol=1e-6)


def test_fuse_elewise_add_act_ops_keeps_an_intermediate_that_is_read():
    def model():
        x, y, _ = _residual_model()
        pre = static.nn.fc(x, 1)  # its bias add's result is read twice
        out = paddle.tanh(pre) + pre * 0.5
        return x, y, paddle.mean((out - y) ** 2)
    losses, params, _, _ = _train_model(model, static.BuildStrategy())
    strategy = static.BuildStrategy()
    strategy.fuse_elewise_add_act_ops = True
    strategy.fuse_all_optimizer_ops = True
    fused_losses, fused_params, _, fused = _train_model(model, strategy)
    saved = [op for op in fused.global_block().ops if op.type == "fused_elemwise_add_activation"
             and op.attr("save_intermediate_out")]
    assert len(saved) == 1 and saved[0].attr("functor_list") == ["tanh", "elementwise_add"]
    assert _op_counts(fused)["merged_momentum"] == 1
    np.testing.assert_allclose(fused_losses, losses, rtol=1e-5, atol=1e-6)
    for fused_value, value in zip(fused_params, params):
        np.testing.assert_allclose(fused_value, value, rtol=1e-5, atol=1e-6)


def test_fuse_all_optimizer_ops_with_weight_decay_ops():
    # L2Decay on Adam adds a scale and an add per param before the updates.
    def adam():
        return paddle.optimizer.Adam(0.01, weight_decay=paddle.regularizer.L2Decay(0.01))
    losses, params, plain = _train(adam, None)
    strategy = static.BuildStrategy()
    strategy.fuse_all_optimizer_ops = True
    fused_losses, fused_params, fused = _train(adam, strategy)
    assert _op_counts(plain)["adam"] == 6 and "scale" in _op_counts(plain)
    assert _op_counts(fused)["merged_adam"] == 1 and "adam" not in _op_counts(fused)
    np.testing.assert_allclose(fused_losses, losses, rtol=1e-6, atol=1e-7)
    for fused_value, value in zip(fused_params, params):
        np.testing.assert_allclose(fused_value, value, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("read_param, fused", [(-1, True), (0, False)])
def test_fuse_all_optimizer_ops_merges_where_no_op_in_between_sees_it(read_param, fused):
    """An op between the first and the last update that reads a later update's param (which
    it read before that update either way) lets them merge; one reading the first update's
    param (which it would read before the update once merged) keeps them apart."""
    main, _, _ = _build(lambda: paddle.optimizer.Momentum(0.05, momentum=0.9))
    block = main.global_block()
    updates = [i for i, op in enumerate(block.ops) if op.type == "momentum"]
    param = block.ops[updates[read_param]].input("Param")[0]
    copy = block.create_var(name="param_copy", shape=block.var(param).shape, dtype="float32")
    block._insert_op(updates[0] + 1, "scale", inputs={"X": [param]}, outputs={"Out": [copy]},
                     attrs={"scale": 1.0, "bias": 0.0, "bias_after_scale": True})
    strategy = static.BuildStrategy()
    strategy.fuse_all_optimizer_ops = True
    counts = _op_counts(static.CompiledProgram(main, strategy)._program_to_run())
    assert counts.get("merged_momentum", 0) == (1 if fused else 0)
    assert counts.get("momentum", 0) == (0 if fused else 6)
