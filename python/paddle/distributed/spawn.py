"""paddle.distributed.spawn: runs func(*args) in `nprocs` new processes on this machine, each
with the environment the launcher would give it (PADDLE_TRAINER_ID, PADDLE_TRAINERS_NUM,
PADDLE_TRAINER_ENDPOINTS, PADDLE_CURRENT_ENDPOINT, PADDLE_MASTER) on free localhost ports. A
process that raises makes join() terminate the others and raise its traceback.
"""
import multiprocessing
import os
import socket
import time
import traceback


def _free_ports(count, host="127.0.0.1"):
    sockets, ports = [], []
    for _ in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((host, 0))
        sockets.append(s)
        ports.append(s.getsockname()[1])
    for s in sockets:
        s.close()
    return ports


def _worker_env(rank, nprocs, endpoints, local_rank=None):
    return {
        "PADDLE_TRAINER_ID": str(rank),
        "PADDLE_TRAINERS_NUM": str(nprocs),
        "PADDLE_GLOBAL_RANK": str(rank),
        "PADDLE_GLOBAL_SIZE": str(nprocs),
        "PADDLE_LOCAL_RANK": str(rank if local_rank is None else local_rank),
        "PADDLE_RANK_IN_NODE": str(rank if local_rank is None else local_rank),
        "PADDLE_TRAINER_ENDPOINTS": ",".join(endpoints),
        "PADDLE_CURRENT_ENDPOINT": endpoints[rank],
        "PADDLE_MASTER": endpoints[0],
        "PADDLE_DISTRI_BACKEND": "gloo",
    }


def _run(func, args, env, errors, rank):
    os.environ.update(env)
    try:
        func(*args)
    except BaseException:  # report any failure, KeyboardInterrupt included, to the parent
        errors.put((rank, traceback.format_exc()))
        raise SystemExit(1)


class MultiprocessContext:
    """The spawned processes; join() waits for them and raises the first failure."""

    def __init__(self, processes, errors):
        self.processes = processes
        self._errors = errors

    def join(self, timeout=None):
        """Waits for every process (at most `timeout` seconds); returns True when all ended."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            alive = [p for p in self.processes if p.is_alive()]
            failed = [p for p in self.processes if p.exitcode not in (None, 0)]
            if failed:
                for p in alive:
                    p.terminate()
                for p in self.processes:
                    p.join()
                rank = self.processes.index(failed[0])
                message = f"process {rank} exited with code {failed[0].exitcode}"
                if not self._errors.empty():
                    rank, trace = self._errors.get()
                    message = f"process {rank} raised:\n{trace}"
                raise RuntimeError(f"paddle.distributed.spawn: {message}")
            if not alive:
                return True
            if deadline is not None and time.monotonic() >= deadline:
                return False
            alive[0].join(0.05)


def spawn(func, args=(), nprocs=-1, join=True, daemon=False, **options):
    """Starts nprocs processes running func(*args); see the module's docstring. nprocs=-1 uses
    the number of CPUs, as Paddle does for the gloo backend."""
    if nprocs == -1:
        nprocs = multiprocessing.cpu_count()
    if not isinstance(nprocs, int) or nprocs < 1:
        raise ValueError(f"paddle.distributed.spawn: nprocs must be a positive int, received "
                         f"{nprocs!r}")
    backend = options.get("backend", "gloo")
    if backend not in ("gloo", "auto"):
        raise ValueError(f"paddle.distributed.spawn: backend must be 'gloo' on the CPU, received "
                         f"'{backend}'")
    host = options.get("ips", "127.0.0.1").split(",")[0]
    endpoints = [f"{host}:{port}" for port in _free_ports(nprocs)]
    context = multiprocessing.get_context("spawn")
    errors = context.SimpleQueue()
    processes = []
    for rank in range(nprocs):
        process = context.Process(target=_run, daemon=daemon,
                                  args=(func, tuple(args), _worker_env(rank, nprocs, endpoints),
                                        errors, rank))
        process.start()
        processes.append(process)
    result = MultiprocessContext(processes, errors)
    if join:
        result.join()
    return result
