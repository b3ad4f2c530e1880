"""The ParallelExecutor on two GPU places: gradients all-reduced with NCCL (and, with
ReduceStrategy.Reduce, reduced onto an owner and the parameter broadcast) train to the
parameters of one GPU place on the whole batch. Skipped unless two GPUs are visible."""
import numpy as np
import pytest

import paddle
import paddle.static as static
from test_parallel_executor import batches, build_mlp, initial_state

pytestmark = pytest.mark.skipif(paddle.device.cuda.device_count() < 2,
                                reason="needs 2 GPUs")


@pytest.fixture(autouse=True)
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def train_on_gpu(main, startup, loss, state, feeds, places=None, build_strategy=None):
    """Trains from `state` in a fresh scope with an executor on gpu:0; returns (losses per step,
    final parameters)."""
    scope = static.Scope()
    with static.scope_guard(scope):
        exe = static.Executor(static.CUDAPlace(0))
        exe.run(startup)
        static.set_program_state(main, state)
        program = main
        if places is not None:
            program = static.CompiledProgram(main, build_strategy).with_data_parallel(
                loss_name=loss.name, places=places)
        losses = [exe.run(program, feed=feed, fetch_list=[loss])[0] for feed in feeds]
        params = {name: np.array(scope.find_var(name).get_tensor()) for name in state}
    return losses, params


@pytest.mark.parametrize("reduce_strategy", ["AllReduce", "Reduce"])
@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_two_gpu_places_train_as_one_place_with_the_whole_batch(reduce_strategy, optimizer):
    main, startup, loss, _ = build_mlp(optimizer)
    state = initial_state(main, startup)
    feeds = batches(4, 8)
    single_losses, single = train_on_gpu(main, startup, loss, state, feeds)
    strategy = static.BuildStrategy()
    strategy.reduce_strategy = getattr(static.BuildStrategy.ReduceStrategy, reduce_strategy)
    multi_losses, multi = train_on_gpu(main, startup, loss, state, feeds,
                                       places=static.cuda_places([0, 1]),
                                       build_strategy=strategy)
    for name in state:
        np.testing.assert_allclose(multi[name], single[name], rtol=1e-4, atol=1e-5,
                                   err_msg=name)
    for multi_loss, single_loss in zip(multi_losses, single_losses):
        np.testing.assert_allclose(np.mean(multi_loss), single_loss, rtol=1e-4, atol=1e-5)
