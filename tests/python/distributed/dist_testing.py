"""Runs dist_worker.py scenarios as separate processes on localhost, the way the launcher does,
with a hard timeout: a scenario that hangs is killed and fails its test."""
import json
import os
import socket
import subprocess
import sys

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dist_worker.py")


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rank_env(rank, world_size, port, **extra):
    env = dict(os.environ)
    env.update({
        "PADDLE_TRAINER_ID": str(rank),
        "PADDLE_TRAINERS_NUM": str(world_size),
        "PADDLE_MASTER": f"127.0.0.1:{port}",
        "PADDLE_CURRENT_ENDPOINT": "127.0.0.1:0",
        "OMP_NUM_THREADS": "1",
    })
    env.update({k: str(v) for k, v in extra.items()})
    return env


def run_ranks(scenario, world_size, *args, ranks=None, timeout=60, **extra_env):
    """Starts `ranks` (all by default) of a world of `world_size` on `scenario`; returns
    [(returncode, parsed last JSON line or None, output)] per started rank."""
    port = free_port()
    ranks = range(world_size) if ranks is None else ranks
    procs = [subprocess.Popen([sys.executable, WORKER, scenario, *map(str, args)],
                              env=rank_env(r, world_size, port, **extra_env),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for r in ranks]
    results = []
    for p in procs:
        try:
            out, _ = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            raise AssertionError(f"scenario {scenario} hung for {timeout} s")
        lines = [line for line in out.splitlines() if line.startswith("{")]
        results.append((p.returncode, json.loads(lines[-1]) if lines else None, out))
    return results


def check_ok(results):
    for code, value, out in results:
        assert code == 0 and value is not None, out
    return [value for _, value, _ in results]
