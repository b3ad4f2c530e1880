"""The NCCL backend (all_reduce with every op, broadcast and barrier against NumPy, one GPU per
rank; run where a build with CUDA sees two GPUs, skipped elsewhere) and the
checks of device ids: the launcher refuses ids that repeat or do not exist, naming the local
rank, and init_parallel_env on nccl refuses a GPU that is not there, naming the rank."""
import pytest

from dist_testing import check_ok, run_ranks

from paddle.base import libpaddle
from paddle.distributed.launch import main as launch_main

GPUS = libpaddle.get_cuda_device_count() if libpaddle.is_compiled_with_cuda() else 0


@pytest.mark.skipif(GPUS < 2, reason="needs a build with CUDA and two GPUs")
def test_nccl_collectives_match_numpy():
    for value in check_ok(run_ranks("nccl_collectives", 2, timeout=120,
                                    PADDLE_DISTRI_BACKEND="nccl")):
        assert value["backend"] == "nccl", value


@pytest.mark.skipif(not libpaddle.is_compiled_with_cuda(), reason="needs a build with CUDA")
def test_nccl_on_a_missing_gpu_names_the_rank():
    (code, value, out), = run_ranks("nccl_missing_gpu", 2, ranks=[1], timeout=30,
                                    PADDLE_DISTRI_BACKEND="nccl", FLAGS_selected_gpus=GPUS + 1)
    assert code == 0 and value is not None, out
    assert f"rank 1 is to use GPU {GPUS + 1}" in value["message"], value["message"]
    assert f"{GPUS} GPU(s) are visible" in value["message"], value["message"]


def plan(*argv):
    return launch_main._plan(launch_main._parser().parse_args([*argv, "train.py"]))


def test_launch_refuses_more_devices_than_exist(monkeypatch):
    monkeypatch.setattr(launch_main, "_visible_gpus", lambda: 2)
    assert plan("--devices", "0,1")[3] == ["0", "1"]
    with pytest.raises(SystemExit, match=r"local rank 2 was given device 2 .* has 2 GPU\(s\)"):
        plan("--devices", "0,1,2")


def test_launch_refuses_bad_device_ids(monkeypatch):
    monkeypatch.setattr(launch_main, "_visible_gpus", lambda: 0)
    assert plan("--devices", "0,5")[3] == ["0", "5"]  # CPU processes: the ids are labels
    with pytest.raises(SystemExit, match=r"entry 1 \(local rank 1\) .* received 'x'"):
        plan("--devices", "0,x")
    with pytest.raises(SystemExit, match="device 1 for local ranks 0 and 1"):
        plan("--devices", "1,1")
