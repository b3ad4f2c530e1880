"""Fault handling: a rank that dies or never joins makes the others fail in time with an error
naming it; bad environment values and an unreachable master raise clear errors."""
import subprocess
import sys

import pytest

import paddle.distributed as dist
from dist_testing import free_port, rank_env, run_ranks


@pytest.mark.parametrize("world_size", [2, 4])
def test_dead_rank_is_named(world_size):
    # a short group timeout, so that a rank the failure did not reach could not hang the test
    results = run_ranks("dead_peer", world_size, timeout=60, PADDLE_PG_TIMEOUT=20000)
    assert results[1][0] == -9  # SIGKILL
    for rank, (code, value, out) in enumerate(results):
        if rank == 1:
            continue
        assert code == 0 and value is not None, out
        assert f"failed on rank {rank} of {world_size}: rank 1 has exited" in value["message"], \
            value["message"]
        assert value["seconds"] < 10


def test_never_joining_rank_times_out_naming_it():
    (code, value, out), = run_ranks("never_joins", 2, 2.0, ranks=[0], timeout=30)
    assert code == 0 and value is not None, out
    assert "rank(s) 1 did not join" in value["message"], value["message"]
    assert 1.5 < value["seconds"] < 10


def test_missing_master_times_out_naming_it():
    port = free_port()  # nobody listens there
    (code, value, out), = run_ranks("never_joins", 2, 1.0, ranks=[1], timeout=30,
                                    PADDLE_MASTER=f"127.0.0.1:{port}")
    assert code == 0 and value is not None, out
    assert f"127.0.0.1:{port}" in value["message"] and "rank 1" in value["message"]


@pytest.mark.parametrize("env, pattern", [
    ({"PADDLE_TRAINER_ID": "2", "PADDLE_TRAINERS_NUM": "2"}, r"PADDLE_TRAINER_ID .* received 2"),
    ({"PADDLE_TRAINER_ID": "0", "PADDLE_TRAINERS_NUM": "0"}, r"at least 1, received 0"),
    ({"PADDLE_TRAINER_ID": "x", "PADDLE_TRAINERS_NUM": "2"}, r"PADDLE_TRAINER_ID .* 'x'"),
    ({"PADDLE_TRAINER_ID": "1", "PADDLE_TRAINERS_NUM": "2", "PADDLE_MASTER": "127.0.0.1"},
     r"'ip:port'.*'127.0.0.1'"),
    ({"PADDLE_TRAINER_ID": "1", "PADDLE_TRAINERS_NUM": "2",
      "PADDLE_MASTER": "no-such-host.invalid:1234"}, r"cannot resolve .*'no-such-host.invalid'"),
])
def test_bad_environment_raises_value_error(monkeypatch, env, pattern):
    for key in ("MASTER_ADDR", "MASTER_PORT", "PADDLE_MASTER", "PADDLE_TRAINER_ENDPOINTS"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(ValueError, match=pattern):
        dist.init_parallel_env(timeout=1)
    assert not dist.is_initialized()


def test_collective_before_init_raises():
    with pytest.raises(RuntimeError, match="init_parallel_env"):
        dist.all_reduce(__import__("paddle").ones([1]))


def test_killed_rank_under_launch_stops_the_job(tmp_path):
    script = tmp_path / "dies.py"
    script.write_text(
        "import os, paddle, paddle.distributed as dist\n"
        "dist.init_parallel_env()\n"
        "if dist.get_rank() == 1:\n"
        "    os._exit(5)\n"
        "dist.all_reduce(paddle.ones([4]))\n")
    env = rank_env(0, 1, free_port())
    result = subprocess.run([sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node",
                             "2", "--log_dir", str(tmp_path / "log"), str(script)], env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "process 1 exited with code 5" in result.stderr or "rank 1 has exited" in (
        tmp_path / "log" / "workerlog.0").read_text(), result.stderr


def test_dead_rank_during_data_parallel_backward():
    results = run_ranks("dead_peer_in_backward", 2, timeout=60)
    code, value, out = results[0]
    assert code == 0 and value is not None, out
    assert "all_reduce failed on rank 0 of 2: rank 1 has exited" in value["message"], \
        value["message"]
    assert value["seconds"] < 10


def test_stuck_rank_times_out():
    (code, value, out), _ = run_ranks("stuck_peer", 2, timeout=60)
    assert code == 0 and value is not None, out
    assert "did not take part within the timeout of 2 s" in value["message"], value["message"]
    assert 1.5 < value["seconds"] < 4
