"""paddle.distributed's collectives, each rank a separate process, checked against NumPy inside
the ranks (dist_worker.collectives: all_reduce over every dtype and op, AVG, broadcast, reduce,
all_gather, gather, all_gather_object, broadcast_object_list, reduce_scatter, scatter, alltoall,
send/recv, isend/irecv, new_group, barrier)."""
import pytest

from dist_testing import check_ok, run_ranks


@pytest.mark.parametrize("world_size", [2, 4])
def test_collectives_match_numpy(world_size):
    values = check_ok(run_ranks("collectives", world_size, timeout=90))
    assert sorted(v["rank"] for v in values) == list(range(world_size))


def test_shape_and_dtype_mismatch_raise_on_every_rank():
    values = check_ok(run_ranks("mismatch", 2))
    for v in values:
        assert "rank 1 passed float32[4]" in v["message"] or "rank 0 passed float32[3]" in \
            v["message"], v["message"]
        assert "float64" in v["dtype_message"] and "float32" in v["dtype_message"]


def test_size_op_and_collective_mismatch_raise_naming_the_other_rank():
    values = check_ok(run_ranks("mismatch_kinds", 2))
    for v in values:
        other = 1 - v["rank"]
        assert f"rank {other} passed float32[{4 if other == 0 else 1 << 20}]" in v["size"], v
        assert f"rank {other} passed float32[{300001 if other == 0 else 1 << 20}]" in \
            v["medium_sizes"], v
        assert f"rank {other} passed float32[{1 << 20 if other == 0 else (1 << 21) + 1}]" in \
            v["medium_vs_ring"], v
        assert f"rank {other} passed ReduceOp.{'SUM' if other == 0 else 'MAX'}" in v["op"], v
        assert f"rank {other} called {'all_reduce' if other == 0 else 'broadcast'}" in \
            v["collective"], v


@pytest.mark.parametrize("world_size", [2, 3])
def test_medium_all_reduce_reduce_scatters_in_the_check_then_all_gathers(world_size):
    values = check_ok(run_ranks("medium_all_reduce", world_size, timeout=90))
    assert sorted(v["rank"] for v in values) == list(range(world_size))
