"""all_reduce bandwidth on localhost, 2 processes, float32, 4 KiB .. 64 MiB:
paddle.distributed.all_reduce (with the default shape/dtype check, and unchecked with
PADDLE_DISTRIBUTED_CHECK=0, which changes the code only above 8 MiB) against Gloo's own loop
(benchmarks/cpp/gloo_allreduce.cc, compiled here with the system compiler if needed) with the
three algorithms it offers: gloo::allreduce (the current API, ring, buffers registered per call;
what the framework calls above 8 MiB) and the algorithm classes Gloo's benchmark runs,
AllreduceRingChunked and AllreduceHalvingDoubling (built once per size, buffers registered once).
The framework sends a small tensor with its shape/dtype check in one message, and up to 8 MiB
reduce-scatters in the check's message then all-gathers (see docs/distributed.md).

Like for like: every configuration reduces one float32 buffer allocated once, sums, uses the
same TCP device on 127.0.0.1, makes 2 warm-up calls then about 128 MiB of payload per size (5 to
300 calls), and times each call. Each size reports the per-call median, as Gloo's benchmark
does (its table gives per-call percentiles), and the mean per call, which also carries the
scheduler's stalls: on 2 cores with 2 processes of 2 busy threads each, 1-2% of calls wait a
scheduler tick (about 4 ms) whatever the algorithm, and one such call moves a 1 MiB mean by 30%.
Bandwidth = bytes / time (the bus bandwidth too, as 2(n-1)/n = 1 for 2 ranks). A single run
varies by up to 2x, so the configurations run in interleaved rounds and each figure is the
median over rounds; run it under /tmp/quiet.sh where available. "vs gloo" is paddle's bandwidth
over gloo::allreduce's, "vs best" over the best of the three Gloo algorithms at that size.

    python benchmarks/gloo_allreduce_bench.py [--rounds 5] [--json out.json] [--quick]
"""
import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from bench_common import write_json

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = [4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_two(command, extra_env=None, threads=1):
    """Runs `command` as ranks 0 and 1 on localhost; returns rank 0's output."""
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


def gloo_binary():
    binary = os.path.join(tempfile.gettempdir(), "paddle_gloo_allreduce_bench")
    source = os.path.join(HERE, "cpp", "gloo_allreduce.cc")
    if not os.path.exists(binary) or os.path.getmtime(binary) < os.path.getmtime(source):
        subprocess.run(["c++", "-O2", "-std=c++17", source, "-o", binary, "-lgloo", "-lpthread"],
                       check=True)
    return binary


GLOO_ALGORITHMS = ("allreduce", "ring_chunked", "halving_doubling")


def gloo_baseline(sizes, algorithm):
    binary = gloo_binary()
    store = tempfile.mkdtemp()
    try:
        procs = [subprocess.Popen([binary, algorithm, str(r), "2", store, *map(str, sizes)],
                                  stdout=subprocess.PIPE, text=True) for r in range(2)]
        out = [p.communicate(timeout=600)[0] for p in procs][0]
    finally:
        shutil.rmtree(store, ignore_errors=True)
    return {int(b): (float(mean), float(median))
            for b, mean, median in (line.split() for line in out.splitlines())}


def worker_all_reduce(sizes):
    import paddle
    import paddle.distributed as dist
    dist.init_parallel_env()
    result = {}
    for nbytes in sizes:
        t = paddle.ones([nbytes // 4], dtype="float32")
        iters = max(5, min(300, (128 << 20) // nbytes))
        dist.all_reduce(t)
        dist.all_reduce(t)
        seconds = []
        for _ in range(iters):
            start = time.perf_counter()
            dist.all_reduce(t)
            seconds.append(time.perf_counter() - start)
        result[nbytes] = (statistics.mean(seconds), statistics.median_high(seconds))
    if dist.get_rank() == 0:
        print(json.dumps(result))


def paddle_run(sizes, checked):
    command = [sys.executable, os.path.abspath(__file__), "--worker", "--sizes",
               ",".join(map(str, sizes))]
    env = None if checked else {"PADDLE_DISTRIBUTED_CHECK": "0"}
    return {int(k): tuple(v) for k, v in json.loads(run_two(command, env)).items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", default=None)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="every other size, 3 rounds")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--sizes", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    sizes = SIZES[::2] + SIZES[-1:] if args.quick else SIZES
    if args.sizes:
        sizes = [int(s) for s in args.sizes.split(",")]
    if args.worker:
        return worker_all_reduce(sizes)
    rounds = 3 if args.quick else args.rounds
    configs = [f"gloo {a}" for a in GLOO_ALGORITHMS] + ["paddle", "unchecked"]
    runs = {name: [] for name in configs}
    for _ in range(rounds):
        for algorithm in GLOO_ALGORITHMS:
            runs[f"gloo {algorithm}"].append(gloo_baseline(sizes, algorithm))
        runs["paddle"].append(paddle_run(sizes, checked=True))
        runs["unchecked"].append(paddle_run(sizes, checked=False))
    names = ["allreduce", "ring_chunk", "halv_doub", "paddle", "unchecked"]
    keys = [c.replace(" ", "_") for c in configs]
    rows = [dict(bytes=b, rounds={k: [r[b] for r in runs[c]] for k, c in zip(keys, configs)})
            for b in sizes]
    for statistic, index in (("median", 1), ("mean", 0)):
        print(f"\nall_reduce float32, 2 processes on localhost, {statistic} per call, median of "
              f"{rounds} interleaved rounds: microseconds and GB/s (bytes / time; for 2 ranks "
              "also the bus bandwidth)")
        print(f"{'bytes':>9} " + " ".join(f"{n:>10}" for n in names) + " | " +
              " ".join(f"{n:>10}" for n in names) + " | vs gloo  vs best  unchecked vs best")
        for row in rows:
            b = row["bytes"]
            t = [statistics.median(r[b][index] for r in runs[c]) for c in configs]
            row.update({f"{k}_{statistic}_s": x for k, x in zip(keys, t)})
            best = min(t[:3])
            print(f"{b:>9} " + " ".join(f"{x * 1e6:>10.0f}" for x in t) + " | " +
                  " ".join(f"{b / x / 1e9:>10.2f}" for x in t) +
                  f" | {t[0] / t[3]:>7.0%} {best / t[3]:>7.0%} {best / t[4]:>7.0%}")
    if args.json:
        write_json(args.json, dict(all_reduce=rows, rounds=rounds))


if __name__ == "__main__":
    main()
