"""DataParallel on localhost: the step time of an MLP on one process (whole batch) against two
processes (half the batch each, Gloo), and the share of the gradient all-reduce that backward
hides.

The overlap comes from the reducer's timeline of each synchronised backward
(DataParallel.last_bucket_timeline): when each bucket's all-reduce was launched and finished,
and when backward accumulated its last gradient. The all-reduces run one at a time on the
communication thread, so bucket i runs from max(its launch, the previous bucket's finish) to its
finish; the hidden share is the part of those intervals before the last gradient, over their
total. The median over the measured steps is reported.

    python benchmarks/dataparallel_bench.py [--json out.json] [--steps 10]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gloo_allreduce_bench import run_two  # noqa: E402

MLP = dict(width=1024, depth=4, batch=256)


def mlp(width, depth):
    import paddle
    paddle.seed(0)
    layers = []
    for _ in range(depth):
        layers += [paddle.nn.Linear(width, width), paddle.nn.ReLU()]
    return paddle.nn.Sequential(*layers, paddle.nn.Linear(width, 1))


def hidden_share(timeline):
    """(seconds of all-reduce, seconds of it before backward's last gradient)."""
    busy = hidden = 0.0
    previous_end = float("-inf")
    for launched, finished in zip(timeline["launched"], timeline["finished"]):
        start = max(launched, previous_end)
        busy += max(0.0, finished - start)
        hidden += max(0.0, min(finished, timeline["last_gradient"]) - start)
        previous_end = finished
    return busy, hidden


def worker(width, depth, batch, steps, buffer_mb):
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
    steps_ms, backward_ms, busy_ms, hidden, launched_early, buckets = [], [], [], [], [], 0
    for step in range(steps + 2):
        start = time.perf_counter()
        loss = paddle.nn.functional.mse_loss(model(x), y)
        backward_start = time.perf_counter()
        loss.backward()
        backward_end = time.perf_counter()
        opt.step()
        opt.clear_grad()
        if step < 2:  # warm-up
            continue
        steps_ms.append(1e3 * (time.perf_counter() - start))
        backward_ms.append(1e3 * (backward_end - backward_start))
        if n > 1:
            timeline = model.last_bucket_timeline
            busy, hid = hidden_share(timeline)
            busy_ms.append(1e3 * busy)
            hidden.append(hid / busy if busy > 0 else 0.0)
            launched_early.append(timeline["launched_before_last_gradient"])
            buckets = len(timeline["launched"])
    if dist.get_rank() == 0:
        result = dict(step_ms=statistics.median(steps_ms), backward_ms=statistics.median(backward_ms))
        if n > 1:
            result.update(buckets=buckets, allreduce_ms=statistics.median(busy_ms),
                          hidden_share=statistics.median(hidden),
                          launched_before_last_gradient=min(launched_early))
        print(json.dumps(result))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", default=None)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--buffer_mb", type=float, default=25, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(**MLP, steps=args.steps, buffer_mb=args.buffer_mb)
    me = [sys.executable, os.path.abspath(__file__), "--worker", "--steps", str(args.steps)]
    print(f"DataParallel MLP {MLP['depth']}x Linear({MLP['width']}, {MLP['width']}) + ReLU, "
          f"Linear({MLP['width']}, 1), batch {MLP['batch']}, SGD, median of {args.steps} steps")
    one = {}
    for threads in (1, 2):
        one[threads] = json.loads(subprocess.run(
            me, capture_output=True, text=True, check=True,
            env=dict(os.environ, PADDLE_TRAINERS_NUM="1", PADDLE_TRAINER_ID="0",
                     OMP_NUM_THREADS=str(threads))).stdout)
        print(f"  one process, {threads} thread(s), whole batch: {one[threads]['step_ms']:.1f} "
              f"ms/step (backward {one[threads]['backward_ms']:.1f} ms)")
    two = {}
    for buffer_mb in (25, 4):
        r = two[buffer_mb] = json.loads(run_two(me + ["--buffer_mb", str(buffer_mb)]))
        print(f"  two processes, 1 thread each, half the batch, comm_buffer_size={buffer_mb} MB "
              f"({r['buckets']} buckets): {r['step_ms']:.1f} ms/step (backward "
              f"{r['backward_ms']:.1f} ms), {one[1]['step_ms'] / r['step_ms']:.2f}x "
              f"the 1-thread process; all-reduce {r['allreduce_ms']:.1f} ms of which "
              f"{100 * r['hidden_share']:.0f}% ran before backward's last gradient; "
              f"{r['launched_before_last_gradient']} bucket(s) launched during backward")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(one_process=one, two_processes=two, model=MLP), f, indent=1)


if __name__ == "__main__":
    main()
