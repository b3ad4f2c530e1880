"""Distributed benchmarks on localhost (2 processes):

1. all_reduce bandwidth, float32, 4 KiB .. 64 MiB: paddle.distributed.all_reduce (with the
   default shape/dtype check and with PADDLE_DISTRIBUTED_CHECK=0) against Gloo's own loop
   (benchmarks/cpp/gloo_allreduce.cc, compiled here with the system compiler if needed).
   Bus bandwidth = bytes * 2(n-1)/n / time, the ring all-reduce's traffic per rank.
2. DataParallel step time of an MLP: one process on the whole batch against two processes on
   half each, and the share of the all-reduce time that backward hid: 1 - (backward time -
   backward time under no_sync) / the standalone all-reduce time of all gradients.

    python benchmarks/gloo_allreduce_bench.py [--json out.json] [--quick]
"""
import argparse
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = [4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20]
MLP = dict(width=1024, depth=4, batch=256, steps=10)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_two(command, extra_env=None, threads=1):
    port = free_port()
    procs = []
    for rank in range(2):
        env = dict(os.environ, PADDLE_TRAINER_ID=str(rank), PADDLE_TRAINERS_NUM="2",
                   PADDLE_MASTER=f"127.0.0.1:{port}", PADDLE_CURRENT_ENDPOINT="127.0.0.1:0",
                   OMP_NUM_THREADS=str(threads), **(extra_env or {}))
        procs.append(subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True))
    outs = [p.communicate(timeout=600)[0] for p in procs]
    for p, out in zip(procs, outs):
        if p.returncode != 0:
            raise RuntimeError(f"{command} failed:\n{out}")
    return outs[0]


def gloo_baseline(sizes):
    binary = os.path.join(tempfile.gettempdir(), "paddle_gloo_allreduce_bench")
    source = os.path.join(HERE, "cpp", "gloo_allreduce.cc")
    if not os.path.exists(binary) or os.path.getmtime(binary) < os.path.getmtime(source):
        subprocess.run(["c++", "-O2", "-std=c++17", source, "-o", binary, "-lgloo", "-lpthread"],
                       check=True)
    store = tempfile.mkdtemp()
    try:
        procs = [subprocess.Popen([binary, str(r), "2", store, *map(str, sizes)],
                                  stdout=subprocess.PIPE, text=True) for r in range(2)]
        out = [p.communicate(timeout=600)[0] for p in procs][0]
    finally:
        shutil.rmtree(store, ignore_errors=True)
    return {int(b): float(s) for b, s in (line.split() for line in out.splitlines())}


def worker_all_reduce(sizes):
    import paddle
    import paddle.distributed as dist
    dist.init_parallel_env()
    result = {}
    for nbytes in sizes:
        t = paddle.ones([nbytes // 4], dtype="float32")
        iters = max(5, min(2000, (256 << 20) // nbytes))
        dist.all_reduce(t)
        dist.all_reduce(t)
        start = time.perf_counter()
        for _ in range(iters):
            dist.all_reduce(t)
        result[nbytes] = (time.perf_counter() - start) / iters
    if dist.get_rank() == 0:
        print(json.dumps(result))


def mlp(width, depth):
    import paddle
    paddle.seed(0)
    layers = []
    for _ in range(depth):
        layers += [paddle.nn.Linear(width, width), paddle.nn.ReLU()]
    return paddle.nn.Sequential(*layers, paddle.nn.Linear(width, 1))


def worker_data_parallel(width, depth, batch, steps, buffer_mb):
    import numpy as np
    import paddle
    import paddle.distributed as dist
    dist.init_parallel_env()
    n = dist.get_world_size()
    model = mlp(width, depth)
    if n > 1:
        model = paddle.DataParallel(model, comm_buffer_size=buffer_mb)
    opt = paddle.optimizer.SGD(learning_rate=1e-3, parameters=model.parameters())
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal((batch // n, width)), "float32")
    y = paddle.zeros([batch // n, 1])
    times, waits, backward, local_backward = [], [], [], []
    local = model.no_sync if n > 1 else contextlib.nullcontext
    for step in range(2 * steps + 2):
        synced = step % 2 == 0  # alternate, so that both see the same machine load
        with contextlib.nullcontext() if synced else local():
            start = time.perf_counter()
            loss = paddle.nn.functional.mse_loss(model(x), y)
            mid = time.perf_counter()
            loss.backward()
            end_backward = time.perf_counter()
        opt.step()
        opt.clear_grad()
        if step < 2:
            continue
        if synced:
            times.append(time.perf_counter() - start)
            backward.append(end_backward - mid)
            waits.append(model.last_unoverlapped_seconds if n > 1 else 0.0)
        else:
            local_backward.append(end_backward - mid)
    comm = 0.0
    if n > 1:  # the all-reduce time of every gradient, alone
        flat = paddle.zeros([sum(p.size for p in model.parameters())], dtype="float32")
        dist.all_reduce(flat)
        start = time.perf_counter()
        for _ in range(5):
            dist.all_reduce(flat, op=dist.ReduceOp.AVG)
        comm = (time.perf_counter() - start) / 5
    if dist.get_rank() == 0:
        print(json.dumps(dict(step_ms=1e3 * float(np.median(times)),
                              backward_ms=1e3 * float(np.median(backward)),
                              local_backward_ms=1e3 * float(np.median(local_backward)),
                              wait_ms=1e3 * float(np.median(waits)), allreduce_ms=1e3 * comm)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", default=None)
    parser.add_argument("--quick", action="store_true", help="fewer sizes and steps")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--buffer_mb", type=float, default=25, help=argparse.SUPPRESS)
    args = parser.parse_args()
    sizes = SIZES[::2] if args.quick else SIZES
    if args.worker == "all_reduce":
        return worker_all_reduce(sizes)
    if args.worker == "data_parallel":
        return worker_data_parallel(**MLP, buffer_mb=args.buffer_mb)
    me = [sys.executable, os.path.abspath(__file__)] + (["--quick"] if args.quick else [])
    gloo = gloo_baseline(sizes)
    ours = {int(k): v for k, v in json.loads(run_two(me + ["--worker", "all_reduce"])).items()}
    unchecked = {int(k): v for k, v in json.loads(run_two(
        me + ["--worker", "all_reduce"], {"PADDLE_DISTRIBUTED_CHECK": "0"})).items()}
    print("all_reduce float32, 2 processes on localhost (bus bandwidth GB/s = bytes / time; "
          "2(n-1)/n = 1)")
    print(f"{'bytes':>10} {'gloo us':>10} {'paddle us':>10} {'unchecked':>10} {'gloo GB/s':>10} "
          f"{'paddle GB/s':>11}")
    rows = []
    for b in sizes:
        rows.append(dict(bytes=b, gloo_s=gloo[b], paddle_s=ours[b], paddle_unchecked_s=unchecked[b]))
        print(f"{b:>10} {gloo[b] * 1e6:>10.1f} {ours[b] * 1e6:>10.1f} {unchecked[b] * 1e6:>10.1f} "
              f"{b / gloo[b] / 1e9:>10.2f} {b / ours[b] / 1e9:>11.2f}")
    one = {}
    for threads in (2, 1):
        one[threads] = json.loads(subprocess.run(
            me + ["--worker", "data_parallel"], capture_output=True, text=True, check=True,
            env=dict(os.environ, PADDLE_TRAINERS_NUM="1", OMP_NUM_THREADS=str(threads))).stdout)
    print(f"\nDataParallel MLP {MLP['depth']}x{MLP['width']} (+{MLP['width']}x1), batch "
          f"{MLP['batch']}, SGD:")
    for threads, r in one.items():
        print(f"  one process ({threads} thread{'s' if threads > 1 else ''}, whole batch): "
              f"{r['step_ms']:.1f} ms/step, backward {r['backward_ms']:.1f} ms")
    two = {}
    for buffer_mb in (25, 4):
        r = two[buffer_mb] = json.loads(run_two(me + ["--worker", "data_parallel", "--buffer_mb",
                                                      str(buffer_mb)]))
        # Backward with the all-reduces against backward without them (no_sync, same steps):
        # what the all-reduce added; the rest of its standalone time was hidden.
        added = max(0.0, r["backward_ms"] - r["local_backward_ms"])
        r["hidden_share"] = max(0.0, 1 - added / r["allreduce_ms"])
        print(f"  two processes (1 thread each, half the batch), comm_buffer_size={buffer_mb} MB: "
              f"{r['step_ms']:.1f} ms/step; backward {r['backward_ms']:.1f} ms "
              f"({r['local_backward_ms']:.1f} ms under no_sync); all-reduce of all gradients "
              f"alone {r['allreduce_ms']:.1f} ms, of which backward hid "
              f"{100 * r['hidden_share']:.0f}% (wait after the last bucket started "
              f"{r['wait_ms']:.1f} ms)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(all_reduce=rows, data_parallel=dict(one=one, two=two)), f, indent=1)


if __name__ == "__main__":
    main()
