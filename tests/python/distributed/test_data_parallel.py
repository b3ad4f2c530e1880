"""paddle.DataParallel: 2 and 4 ranks, each on its share of every batch, end with the parameters
one process reaches on the whole batch (gradient averaging in buckets, parameters broadcast from
rank 0, no_sync accumulation); spawn and launch start working ranks."""
import subprocess
import sys

import numpy as np
import pytest

import paddle
from dist_testing import WORKER, check_ok, free_port, rank_env, run_ranks

sys.path.insert(0, __import__("os").path.dirname(WORKER))
import dist_worker  # noqa: E402


def reference():
    params = dist_worker.train_mlp(dist_worker.mlp(), dist_worker.mlp_batches(4, 16), 0, 1)
    accumulated = dist_worker.train_mlp(dist_worker.mlp(), dist_worker.mlp_batches(2, 16), 0, 1)
    return params, accumulated


@pytest.mark.parametrize("world_size", [2, 4])
def test_data_parallel_matches_one_process(world_size):
    params, accumulated = reference()
    for value in check_ok(run_ranks("data_parallel", world_size, timeout=90)):
        for got, want in zip(value["params"], params):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        for got, want in zip(value["accumulated"], accumulated):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_data_parallel_single_process_is_the_layer():
    model = paddle.DataParallel(dist_worker.mlp())
    out = model(paddle.ones([2, 8]))
    assert out.shape == [2, 1]
    assert list(model.state_dict()) == list(dist_worker.mlp().state_dict())


def joined(context, timeout=60):
    """Joins spawned processes within a hard timeout (they are terminated if they hang)."""
    try:
        finished = context.join(timeout)
    finally:
        for p in context.processes:
            if p.is_alive():
                p.terminate()
    assert finished, f"spawned processes hung for {timeout} s"


def test_spawn(tmp_path):
    import paddle.distributed as dist
    joined(dist.spawn(dist_worker.spawned_all_reduce, args=(str(tmp_path / "out"),), nprocs=2,
                      join=False))
    assert [float((tmp_path / f"out.{r}").read_text()) for r in range(2)] == [3.0, 3.0]


def test_spawn_reports_the_failing_process():
    import paddle.distributed as dist
    with pytest.raises(RuntimeError, match="process 1 raised"):
        joined(dist.spawn(dist_worker.fails_on_rank_1, nprocs=2, join=False))


def test_launch_writes_worker_logs(tmp_path):
    env = rank_env(0, 1, free_port())
    result = subprocess.run([sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node",
                             "2", "--log_dir", str(tmp_path), WORKER, "launched"], env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    for r in range(2):
        log = (tmp_path / f"workerlog.{r}").read_text()
        assert f'"rank": {r}' in log and '"world_size": 2' in log, log


def test_find_unused_parameters():
    values = check_ok(run_ranks("unused_parameters", 2))
    by_rank = {v["rank"]: v["grads"] for v in values}
    assert by_rank[0] == by_rank[1]
    # rank 1's input is 2, the batch has 2 rows: d(sum)/d(b.weight) = 4 there, 0 on rank 0
    np.testing.assert_allclose(np.array(by_rank[0]["_layers.b.weight"]).ravel(), [2.0] * 4)
    # a.weight: (2 + 4) / 2
    np.testing.assert_allclose(np.array(by_rank[0]["_layers.a.weight"]).ravel(), [3.0] * 4)
    for v in values:
        assert "gave no gradient to parameter(s) linear_" in v["message"], v["message"]
        assert "find_unused_parameters=True" in v["message"], v["message"]


def test_launch_plans_ranks_node_by_node():
    from paddle.distributed.launch.main import _parser, _plan
    args = _parser().parse_args(["--ips", "10.0.0.1,10.0.0.2", "--rank", "1",
                                 "--nproc_per_node", "2", "train.py"])
    endpoints, first_rank, nproc, devices = _plan(args)
    assert endpoints == ["10.0.0.1:6170", "10.0.0.1:6171", "10.0.0.2:6170", "10.0.0.2:6171"]
    assert (first_rank, nproc, devices) == (2, 2, None)
    args = _parser().parse_args(["--devices", "0,1", "--master", "127.0.0.1:7000", "train.py"])
    endpoints, first_rank, nproc, devices = _plan(args)
    assert endpoints[0] == "127.0.0.1:7000" and len(endpoints) == 2
    assert devices == ["0", "1"] and first_rank == 0
    with pytest.raises(SystemExit, match="--rank must be in"):
        _plan(_parser().parse_args(["--ips", "10.0.0.1,10.0.0.2", "--rank", "2", "train.py"]))
