"""The ParallelExecutor (CompiledProgram.with_data_parallel, paddle.static.ParallelExecutor):
training on 2 and 3 CPU places gives the parameters of one place training on the whole batch,
every run gives the same bits, the feed is split (or given per place) and fetches are merged as
in Paddle 2.x, the strategies change what they should, and bad places, flags and batches raise
errors that name them."""
import numpy as np
import pytest

import paddle
import paddle.static as static

BATCH_FEATURES = 6


@pytest.fixture(autouse=True)
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def build_mlp(optimizer="sgd", lr=0.1, batch_norm=False):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [None, BATCH_FEATURES], "float32")
        y = static.data("y", [None, 1], "float32")
        hidden = static.nn.fc(x, 16, activation="relu")
        if batch_norm:
            hidden = static.nn.batch_norm(hidden)
        hidden = static.nn.fc(hidden, 8, activation="tanh")
        pred = static.nn.fc(hidden, 1)
        loss = paddle.mean(paddle.square(pred - y))
        opt = paddle.optimizer.Adam(lr) if optimizer == "adam" else paddle.optimizer.SGD(lr)
        opt.minimize(loss)
    return main, startup, loss, pred


def batches(steps, batch, seed=0):
    rng = np.random.RandomState(seed)
    return [{"x": rng.randn(batch, BATCH_FEATURES).astype("float32"),
             "y": rng.randn(batch, 1).astype("float32")} for _ in range(steps)]


def initial_state(main, startup):
    """The startup program's parameter values, once, so every run starts from them."""
    scope = static.Scope()
    with static.scope_guard(scope):
        static.Executor().run(startup)
        return {p.name: np.array(scope.find_var(p.name).get_tensor())
                for p in main.global_block().all_parameters()}


def train(main, startup, loss, state, feeds, places=None, build_strategy=None,
          exec_strategy=None, fetch=None):
    """Trains from `state` in a fresh scope; returns (fetched per step, final parameters)."""
    scope = static.Scope()
    with static.scope_guard(scope):
        exe = static.Executor()
        exe.run(startup)
        static.set_program_state(main, state)
        program = main
        if places is not None:
            program = static.CompiledProgram(main, build_strategy).with_data_parallel(
                loss_name=loss.name, exec_strategy=exec_strategy, places=places)
        fetched = [exe.run(program, feed=feed, fetch_list=fetch or [loss]) for feed in feeds]
        params = {name: np.array(scope.find_var(name).get_tensor()) for name in state}
    return fetched, params


@pytest.mark.parametrize("num_places, optimizer", [(2, "sgd"), (2, "adam"), (3, "sgd"),
                                                   (3, "adam")])
def test_training_on_places_equals_one_place_with_the_whole_batch(num_places, optimizer):
    main, startup, loss, _ = build_mlp(optimizer)
    state = initial_state(main, startup)
    feeds = batches(5, 4 * num_places)
    single_losses, single = train(main, startup, loss, state, feeds)
    multi_losses, multi = train(main, startup, loss, state, feeds,
                                places=static.cpu_places(num_places))
    for name in state:
        np.testing.assert_allclose(multi[name], single[name], rtol=1e-5, atol=1e-6,
                                   err_msg=name)
        assert not np.array_equal(single[name], state[name]), name  # it did train
    for (per_place,), (whole,) in zip(multi_losses, single_losses):
        # One loss per place (each the mean of its equal share), merged along axis 0.
        assert per_place.shape == (num_places,)
        np.testing.assert_allclose(per_place.mean(), whole, rtol=1e-5)


def test_every_run_gives_the_same_bits():
    main, startup, loss, _ = build_mlp("adam")
    state = initial_state(main, startup)
    feeds = batches(4, 8)
    exec_strategy = static.ExecutionStrategy()
    exec_strategy.num_threads = 6
    runs = [train(main, startup, loss, state, feeds, places=static.cpu_places(2),
                  exec_strategy=exec_strategy) for _ in range(3)]
    for losses, params in runs[1:]:
        for name in state:
            np.testing.assert_array_equal(params[name], runs[0][1][name], err_msg=name)
        for a, b in zip(losses, runs[0][0]):
            np.testing.assert_array_equal(a[0], b[0])


def test_one_thread_and_unfused_buckets_give_the_same_parameters():
    main, startup, loss, _ = build_mlp("sgd")
    state = initial_state(main, startup)
    feeds = batches(3, 8)
    _, default = train(main, startup, loss, state, feeds, places=static.cpu_places(2))
    exec_strategy = static.ExecutionStrategy()
    exec_strategy.num_threads = 1
    build_strategy = static.BuildStrategy()
    build_strategy.fuse_all_reduce_ops = False
    _, other = train(main, startup, loss, state, feeds, places=static.cpu_places(2),
                     build_strategy=build_strategy, exec_strategy=exec_strategy)
    for name in state:
        np.testing.assert_array_equal(other[name], default[name], err_msg=name)


def native_executor(compiled):
    (_, _, native), = compiled._data_parallel.executors.values()
    return native


def test_fused_buckets_follow_the_flags():
    main, startup, loss, _ = build_mlp("sgd")
    state = initial_state(main, startup)
    grads = sorted(name + "@GRAD" for name in state)

    def buckets(fuse, groups_size=None):
        build_strategy = static.BuildStrategy()
        build_strategy.fuse_all_reduce_ops = fuse
        saved = paddle.get_flags(["FLAGS_fuse_parameter_groups_size"])
        if groups_size is not None:
            paddle.set_flags({"FLAGS_fuse_parameter_groups_size": groups_size})
        try:
            scope = static.Scope()
            with static.scope_guard(scope):
                exe = static.Executor()
                exe.run(startup)
                compiled = static.CompiledProgram(main, build_strategy).with_data_parallel(
                    loss_name=loss.name, places=static.cpu_places(2))
                exe.run(compiled, feed=batches(1, 4)[0], fetch_list=[loss])
                return native_executor(compiled).buckets()
        finally:
            paddle.set_flags(saved)

    unfused = buckets(False)
    assert [len(b) for b in unfused] == [1] * len(grads)
    assert sorted(sum(unfused, [])) == grads
    assert [sorted(b) for b in buckets(True)] == [grads]  # default flags: one bucket
    assert [len(b) for b in buckets(True, 4)] == [4, 2]
    # Backward reaches the output layer first: its gradients are reduced first.
    output_layer = [p.name + "@GRAD" for p in main.global_block().all_parameters()][-2:]
    assert sorted(unfused[0] + unfused[1]) == sorted(output_layer)


def test_fetches_are_merged_along_axis_0_or_returned_per_place():
    main, startup, loss, pred = build_mlp("sgd", lr=0.0)
    state = initial_state(main, startup)
    feed = batches(1, 6)[0]
    (single,), _ = train(main, startup, loss, state, [feed], fetch=[pred])
    (merged,), _ = train(main, startup, loss, state, [feed], places=static.cpu_places(3),
                         fetch=[pred])
    np.testing.assert_allclose(merged[0], single[0], rtol=1e-6)
    scope = static.Scope()
    with static.scope_guard(scope):
        exe = static.Executor()
        exe.run(startup)
        static.set_program_state(main, state)
        compiled = static.CompiledProgram(main).with_data_parallel(
            loss_name=loss.name, places=static.cpu_places(3))
        per_place_pred, per_place_loss = exe.run(compiled, feed=feed, fetch_list=[pred, loss],
                                                 return_merged=False)
        merged_tensor, = exe.run(compiled, feed=feed, fetch_list=[pred], return_numpy=False)
    assert [p.shape for p in per_place_pred] == [(2, 1)] * 3
    np.testing.assert_allclose(np.concatenate(per_place_pred), single[0], rtol=1e-6)
    assert len(per_place_loss) == 3 and all(p.shape == () for p in per_place_loss)
    assert isinstance(merged_tensor, paddle.Tensor)
    np.testing.assert_allclose(np.array(merged_tensor), single[0], rtol=1e-6)


def test_a_list_of_per_place_feeds_equals_the_split_feed():
    main, startup, loss, _ = build_mlp("adam")
    state = initial_state(main, startup)
    feeds = batches(3, 8)
    per_place = [[{k: v[:4] for k, v in f.items()}, {k: v[4:] for k, v in f.items()}]
                 for f in feeds]
    split_losses, split = train(main, startup, loss, state, feeds, places=static.cpu_places(2))
    list_losses, listed = train(main, startup, loss, state, per_place,
                                places=static.cpu_places(2))
    for name in state:
        np.testing.assert_array_equal(listed[name], split[name], err_msg=name)
    np.testing.assert_array_equal(np.array(list_losses), np.array(split_losses))


def test_an_uneven_batch_splits_as_paddle_does():
    main, startup, loss, pred = build_mlp("sgd", lr=0.0)
    state = initial_state(main, startup)
    feed = batches(1, 5)[0]
    (single,), _ = train(main, startup, loss, state, [feed], fetch=[pred])
    (merged,), _ = train(main, startup, loss, state, [feed], places=static.cpu_places(2),
                         fetch=[pred])
    np.testing.assert_allclose(merged[0], single[0], rtol=1e-6)  # chunks of 3 and 2


@pytest.mark.parametrize("batch, num_places", [(1, 2), (4, 3), (0, 2)])
def test_a_batch_that_leaves_a_place_without_samples_is_an_error(batch, num_places):
    main, startup, loss, _ = build_mlp("sgd")
    with static.scope_guard(static.Scope()):
        exe = static.Executor()
        exe.run(startup)
        compiled = static.CompiledProgram(main).with_data_parallel(
            loss_name=loss.name, places=static.cpu_places(num_places))
        with pytest.raises(ValueError, match=f"'x' has {batch} samples.*{num_places} places"):
            exe.run(compiled, feed=batches(1, batch)[0], fetch_list=[loss])


def test_a_feed_list_of_the_wrong_length_is_an_error():
    main, startup, loss, _ = build_mlp("sgd")
    with static.scope_guard(static.Scope()):
        exe = static.Executor()
        exe.run(startup)
        compiled = static.CompiledProgram(main).with_data_parallel(
            loss_name=loss.name, places=static.cpu_places(2))
        with pytest.raises(ValueError, match="list of 3 dicts.*2 places"):
            exe.run(compiled, feed=batches(3, 2), fetch_list=[loss])


def test_cpu_places_follow_cpu_num(monkeypatch):
    monkeypatch.setenv("CPU_NUM", "3")
    assert len(static.cpu_places()) == 3
    assert len(static.cpu_places(2)) == 2
    for bad in ["0", "-2", "two", "1.5", ""]:
        monkeypatch.setenv("CPU_NUM", bad)
        with pytest.raises(ValueError, match=f"CPU_NUM must be a positive integer.*{bad!r}"):
            static.cpu_places()
    with pytest.raises(ValueError, match="device_count must be >= 1, but received 0"):
        static.cpu_places(0)
    with pytest.raises(TypeError, match="device_count must be an int"):
        static.cpu_places("2")


def test_places_that_do_not_exist_are_errors():
    gpus = paddle.device.cuda.device_count()
    with pytest.raises(ValueError, match=f"GPU {gpus} does not exist: {gpus} GPU"):
        static.cuda_places([gpus])
    main, startup, loss, _ = build_mlp("sgd")
    with pytest.raises(ValueError, match=f"does not exist: {gpus} GPU"):
        static.CompiledProgram(main).with_data_parallel(
            loss_name=loss.name, places=[static.CUDAPlace(gpus)])
    with pytest.raises(ValueError, match="places must be CPUPlace or CUDAPlace.*'npu:0'"):
        static.CompiledProgram(main).with_data_parallel(loss_name=loss.name,
                                                        places=["npu:0"])
    with pytest.raises(ValueError, match="places is empty"):
        static.CompiledProgram(main).with_data_parallel(loss_name=loss.name, places=[])
    with pytest.raises(TypeError, match="exec_strategy must be"):
        static.CompiledProgram(main).with_data_parallel(loss_name=loss.name,
                                                        exec_strategy="fast")
    compiled = static.CompiledProgram(main).with_data_parallel(loss_name=loss.name)
    with pytest.raises(RuntimeError, match="already compiled with data parallelism"):
        compiled.with_data_parallel(loss_name=loss.name)


@pytest.mark.parametrize("attribute, value", [
    ("reduce_strategy", static.BuildStrategy.ReduceStrategy._NoReduce),
    ("sync_batch_norm", True), ("num_trainers", 2)])
def test_unsupported_strategies_are_named(attribute, value):
    main, startup, loss, _ = build_mlp("sgd")
    build_strategy = static.BuildStrategy()
    setattr(build_strategy, attribute, value)
    with static.scope_guard(static.Scope()):
        exe = static.Executor()
        exe.run(startup)
        compiled = static.CompiledProgram(main, build_strategy).with_data_parallel(
            loss_name=loss.name, places=static.cpu_places(2))
        with pytest.raises(NotImplementedError, match=attribute):
            exe.run(compiled, feed=batches(1, 4)[0], fetch_list=[loss])


def test_gradient_scale_one_sums_the_places_gradients():
    # The sum of two places' mean gradients is twice the whole batch's: SGD with lr 0.05 on
    # two places with scale One equals lr 0.1 on one place.
    main, startup, loss, _ = build_mlp("sgd", lr=0.05)
    state = initial_state(main, startup)
    feeds = batches(3, 8)
    build_strategy = static.BuildStrategy()
    build_strategy.gradient_scale_strategy = static.BuildStrategy.GradientScaleStrategy.One
    _, multi = train(main, startup, loss, state, feeds, places=static.cpu_places(2),
                     build_strategy=build_strategy)
    lr_name, = [v.name for v in main.list_vars() if v.name.startswith("learning_rate")]
    _, single = train(main, startup, loss, dict(state, **{lr_name: np.array([0.1], "float32")}),
                      feeds)
    for name in state:
        np.testing.assert_allclose(multi[name], single[name], rtol=1e-5, atol=1e-6)


def test_gradient_scale_customized_takes_the_fed_loss_gradient():
    main, startup, loss, _ = build_mlp("sgd")
    state = initial_state(main, startup)
    feeds = batches(3, 8)
    _, coeff = train(main, startup, loss, state, feeds, places=static.cpu_places(2))
    build_strategy = static.BuildStrategy()
    build_strategy.gradient_scale_strategy = \
        static.BuildStrategy.GradientScaleStrategy.Customized
    seed = np.array(0.5, dtype="float32")
    grad_name = loss.name + "@GRAD"
    per_place = [[{"x": f["x"][:4], "y": f["y"][:4], grad_name: seed},
                  {"x": f["x"][4:], "y": f["y"][4:], grad_name: seed}] for f in feeds]
    _, custom = train(main, startup, loss, state, per_place, places=static.cpu_places(2),
                      build_strategy=build_strategy)
    for name in state:
        np.testing.assert_allclose(custom[name], coeff[name], rtol=1e-6, atol=1e-7)
    with static.scope_guard(static.Scope()):
        exe = static.Executor()
        exe.run(startup)
        compiled = static.CompiledProgram(main, build_strategy).with_data_parallel(
            loss_name=loss.name, places=static.cpu_places(2))
        with pytest.raises(ValueError, match=f"'{grad_name}' must be fed on every place"):
            exe.run(compiled, feed=feeds[0], fetch_list=[loss])


def test_scopes_of_temporaries_are_dropped_every_n_iterations():
    main, startup, loss, _ = build_mlp("sgd")
    exec_strategy = static.ExecutionStrategy()
    exec_strategy.num_iteration_per_drop_scope = 2
    with static.scope_guard(static.Scope()):
        exe = static.Executor()
        exe.run(startup)
        compiled = static.CompiledProgram(main).with_data_parallel(
            loss_name=loss.name, exec_strategy=exec_strategy, places=static.cpu_places(2))
        feed = batches(1, 4)[0]
        exe.run(compiled, feed=feed, fetch_list=[loss])
        native = native_executor(compiled)
        kept = native.exec_scope(1).local_var_names()
        assert "x" in kept and loss.name in kept
        exe.run(compiled, feed=feed, fetch_list=[loss])
        # Dropped after the 2nd run: the place keeps only its parameter replicas.
        params = sorted(p.name for p in main.global_block().all_parameters())
        assert native.exec_scope(1).local_var_names() == params
        exe.run(compiled, feed=feed, fetch_list=[loss])
        assert native.exec_scope(1).local_var_names() == kept


def test_parallel_executor_class_trains_like_compiled_program(monkeypatch):
    monkeypatch.setenv("CPU_NUM", "2")
    main, startup, loss, _ = build_mlp("adam")
    state = initial_state(main, startup)
    feeds = batches(3, 8)
    _, compiled = train(main, startup, loss, state, feeds, places=static.cpu_places())
    scope = static.Scope()
    with static.scope_guard(scope):
        exe = static.Executor()
        exe.run(startup)
        static.set_program_state(main, state)
        pe = static.ParallelExecutor(use_cuda=False, loss_name=loss.name, main_program=main)
        assert pe.device_count == 2
        for feed in feeds:
            (loss_value,) = pe.run(fetch_list=[loss.name], feed=feed)
            assert loss_value.shape == (2,)
        for name in state:
            np.testing.assert_array_equal(np.array(scope.find_var(name).get_tensor()),
                                          compiled[name])
        # A test program sharing the trained replicas evaluates on both places.
        test_program = main.clone(for_test=True)
        test_pe = static.ParallelExecutor(use_cuda=False, main_program=test_program,
                                          share_vars_from=pe)
        (value,) = test_pe.run(fetch_list=[loss.name], feed=feeds[0])
        (whole,) = exe.run(test_program, feed=feeds[0], fetch_list=[loss.name])
        np.testing.assert_allclose(value.mean(), whole, rtol=1e-5)


def test_batch_norm_statistics_are_per_place():
    # As Paddle without sync_batch_norm: each place normalises its share with its own batch
    # statistics, so place 0's output is that of one place fed only the first half.
    main, startup, loss, pred = build_mlp("sgd", lr=0.0, batch_norm=True)
    state = initial_state(main, startup)
    feed = batches(1, 8)[0]
    half = {k: v[:4] for k, v in feed.items()}
    (first_half,), _ = train(main, startup, loss, state, [half], fetch=[pred])
    (whole,), _ = train(main, startup, loss, state, [feed], fetch=[pred])
    (merged,), _ = train(main, startup, loss, state, [feed], places=static.cpu_places(2),
                         fetch=[pred])
    np.testing.assert_allclose(merged[0][:4], first_half[0], rtol=1e-5, atol=1e-6)
    assert not np.allclose(merged[0], whole[0], atol=1e-4)


@pytest.mark.parametrize("gc_gb", [-1.0, 1.0])
def test_garbage_collection_settings_give_the_same_parameters(gc_gb):
    main, startup, loss, _ = build_mlp("adam")
    state = initial_state(main, startup)
    feeds = batches(3, 8)
    _, default = train(main, startup, loss, state, feeds, places=static.cpu_places(2))
    saved = paddle.get_flags(["FLAGS_eager_delete_tensor_gb"])
    paddle.set_flags({"FLAGS_eager_delete_tensor_gb": gc_gb})
    try:
        _, other = train(main, startup, loss, state, feeds, places=static.cpu_places(2))
    finally:
        paddle.set_flags(saved)
    for name in state:
        np.testing.assert_array_equal(other[name], default[name], err_msg=name)


def test_a_learning_rate_scheduler_reaches_every_place():
    def build():
        main, startup = static.Program(), static.Program()
        with static.program_guard(main, startup):
            x = static.data("x", [None, BATCH_FEATURES], "float32")
            y = static.data("y", [None, 1], "float32")
            loss = paddle.mean(paddle.square(static.nn.fc(x, 1) - y))
            scheduler = paddle.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
            paddle.optimizer.SGD(scheduler).minimize(loss)
        return main, startup, loss, scheduler

    results = []
    for places in (None, static.cpu_places(2)):
        main, startup, loss, scheduler = build()
        with static.scope_guard(static.Scope()):
            exe = static.Executor()
            exe.run(startup)
            param = main.global_block().all_parameters()[0].name
            static.set_program_state(main, {param: np.full((BATCH_FEATURES, 1), 0.5, "float32")})
            program = main if places is None else static.CompiledProgram(
                main).with_data_parallel(loss_name=loss.name, places=places)
            for feed in batches(3, 8):
                exe.run(program, feed=feed, fetch_list=[loss])
                scheduler.step()
            results.append(np.array(static.global_scope().find_var(param).get_tensor()))
    np.testing.assert_allclose(results[1], results[0], rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_reduce_strategy_updates_each_parameter_on_one_place(optimizer):
    # Each gradient is summed onto one place, which alone updates that parameter and sends it
    # to the others: the same parameters as AllReduce, with the work spread over the places.
    main, startup, loss, _ = build_mlp(optimizer)
    state = initial_state(main, startup)
    feeds = batches(4, 12)
    _, all_reduce = train(main, startup, loss, state, feeds, places=static.cpu_places(3))
    build_strategy = static.BuildStrategy()
    build_strategy.reduce_strategy = static.BuildStrategy.ReduceStrategy.Reduce
    scope = static.Scope()
    with static.scope_guard(scope):
        exe = static.Executor()
        exe.run(startup)
        static.set_program_state(main, state)
        compiled = static.CompiledProgram(main, build_strategy).with_data_parallel(
            loss_name=loss.name, places=static.cpu_places(3))
        for feed in feeds:
            exe.run(compiled, feed=feed, fetch_list=[loss])
        owners = native_executor(compiled).parameter_owners()
        assert sorted(owners) == sorted(state) and set(owners.values()) == {0, 1, 2}
        (_, place_scopes), = compiled._data_parallel.place_scopes.values()
        for name in state:
            np.testing.assert_allclose(np.array(scope.find_var(name).get_tensor()),
                                       all_reduce[name], rtol=1e-5, atol=1e-6, err_msg=name)
            for place in (1, 2):  # the replicas got the owner's values
                replica = place_scopes.local_scope(place).find_var(name).get_tensor()
                np.testing.assert_array_equal(np.array(replica),
                                              np.array(scope.find_var(name).get_tensor()))


def test_an_error_on_a_place_reaches_the_caller_and_the_next_run_works():
    main, startup, loss, _ = build_mlp("sgd")
    with static.scope_guard(static.Scope()):
        exe = static.Executor()
        exe.run(startup)
        compiled = static.CompiledProgram(main).with_data_parallel(
            loss_name=loss.name, places=static.cpu_places(2))
        feed = batches(1, 4)[0]
        with pytest.raises(RuntimeError, match="input variable 'y' holds no data"):
            exe.run(compiled, feed={"x": feed["x"]}, fetch_list=[loss])
        (value,) = exe.run(compiled, feed=feed, fetch_list=[loss])
        assert value.shape == (2,) and np.isfinite(value).all()


@pytest.mark.parametrize("groups_size", [0, -2])
def test_an_impossible_bucket_flag_is_an_error(groups_size):
    main, startup, loss, _ = build_mlp("sgd")
    saved = paddle.get_flags(["FLAGS_fuse_parameter_groups_size"])
    paddle.set_flags({"FLAGS_fuse_parameter_groups_size": groups_size})
    try:
        with static.scope_guard(static.Scope()):
            exe = static.Executor()
            exe.run(startup)
            compiled = static.CompiledProgram(main).with_data_parallel(
                loss_name=loss.name, places=static.cpu_places(2))
            with pytest.raises(ValueError, match=f"FLAGS_fuse_parameter_groups_size must be -1 "
                                                 f".*received {groups_size}"):
                exe.run(compiled, feed=batches(1, 4)[0], fetch_list=[loss])
    finally:
        paddle.set_flags(saved)
