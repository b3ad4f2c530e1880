"""The static-graph collective ops (c_allreduce_*, c_broadcast, c_allgather, c_reducescatter) on
2 ranks against NumPy, and fleet's collective mode: dygraph (distributed_model) and static
(distributed_optimizer's minimize) data parallelism reach one process's parameters."""
import sys

import numpy as np

from dist_testing import WORKER, check_ok, run_ranks

sys.path.insert(0, __import__("os").path.dirname(WORKER))
import dist_worker  # noqa: E402


def test_static_collectives_match_numpy():
    check_ok(run_ranks("static_collectives", 2))


def test_fleet_collective_matches_one_process():
    import paddle
    dygraph = dist_worker.train_mlp(dist_worker.mlp(), dist_worker.mlp_batches(4, 16), 0, 1)
    try:
        static = dist_worker.fleet_static_train(0, 1, seed=7, use_fleet=False)
    finally:
        paddle.disable_static()
    values = check_ok(run_ranks("fleet_collective", 2, timeout=90))
    assert sorted(v["first"] for v in values) == [False, True]
    for v in values:
        for got, want in zip(v["dygraph"], dygraph):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        for got, want in zip(v["static"], static):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
