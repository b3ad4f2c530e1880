"""ParallelExecutor benchmark: static-graph training step time on one CPU place (the whole
batch) against two CPU places (half the batch each, gradients all-reduced in process), for an
MLP (4x1024, batch 512, SGD) and ResNet-18 on 32x32 images (batch 32, Momentum).

Each configuration runs in its own process, so OMP_NUM_THREADS applies to it:
  one place,  OMP_NUM_THREADS=2: the kernels use both cores
  one place,  OMP_NUM_THREADS=1
  two places, OMP_NUM_THREADS=1: one core per place, the places' ops run at once
  two places, OMP_NUM_THREADS=2: the places split the 2 intra-op threads (1 each)
PaddlePaddle 3.x has no ParallelExecutor (it dropped with_data_parallel), so there is no
side-by-side column.

    python benchmarks/parallel_executor_bench.py [--json benchmarks/results/parallel_executor.json]
        [--quick]
"""
import argparse
import json
import os
import subprocess
import sys
import time

WORKLOADS = {"mlp": "MLP 4x1024 (+1024x1), batch 512, SGD",
             "resnet18": "ResNet-18, 3x32x32 images, 10 classes, batch 32, Momentum"}
CONFIGS = [(1, 2), (1, 1), (2, 1), (2, 2)]  # (places, OMP threads)


def build(workload):
    """(main, startup, loss, feed) of a workload."""
    import numpy as np
    import paddle
    import paddle.static as static
    rng = np.random.default_rng(0)
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        if workload == "mlp":
            x = static.data("x", [None, 1024], "float32")
            y = static.data("y", [None, 1], "float32")
            hidden = x
            for _ in range(4):
                hidden = static.nn.fc(hidden, 1024, activation="relu")
            loss = paddle.mean(paddle.square(static.nn.fc(hidden, 1) - y))
            paddle.optimizer.SGD(1e-3).minimize(loss)
            feed = {"x": rng.standard_normal((512, 1024)).astype("float32"),
                    "y": rng.standard_normal((512, 1)).astype("float32")}
        else:
            x = static.data("x", [None, 3, 32, 32], "float32")
            y = static.data("y", [None, 1], "int64")
            logits = paddle.vision.models.resnet18(num_classes=10)(x)
            loss = paddle.nn.functional.cross_entropy(logits, y)
            paddle.optimizer.Momentum(0.01, 0.9).minimize(loss)
            feed = {"x": rng.standard_normal((32, 3, 32, 32)).astype("float32"),
                    "y": rng.integers(0, 10, (32, 1)).astype("int64")}
    return main, startup, loss, feed


def worker(workload, places, steps):
    import numpy as np
    import paddle
    import paddle.static as static
    paddle.enable_static()
    main, startup, loss, feed = build(workload)
    exe = static.Executor()
    exe.run(startup)
    program = main
    if places > 1:
        program = static.CompiledProgram(main).with_data_parallel(
            loss_name=loss.name, places=static.cpu_places(places))
    times = []
    # Ten warm-up steps: each worker thread's first kernels build its per-thread state (oneDNN
    # primitives and scratch memory), and the pool has 4 threads per place.
    for step in range(steps + 10):
        start = time.perf_counter()
        exe.run(program, feed=feed, fetch_list=[loss])
        if step >= 10:
            times.append(time.perf_counter() - start)
    print(json.dumps(dict(step_ms=1e3 * float(np.median(times)),
                          min_ms=1e3 * float(np.min(times)))))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", default=None)
    parser.add_argument("--quick", action="store_true", help="fewer steps")
    parser.add_argument("--workloads", default=",".join(WORKLOADS))
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    steps = 5 if args.quick else 20
    if args.worker is not None:
        workload, places = args.worker.split(":")
        return worker(workload, int(places), steps)
    me = [sys.executable, os.path.abspath(__file__)] + (["--quick"] if args.quick else [])
    rows = []
    for workload in args.workloads.split(","):
        print(f"{WORKLOADS[workload]}: static graph, ms per training step (median of {steps})")
        print(f"{'places':>7} {'OMP threads':>12} {'ms/step':>9} {'min ms':>8} {'speedup':>8}")
        baseline = None
        for places, threads in CONFIGS:
            env = dict(os.environ, OMP_NUM_THREADS=str(threads), CPU_NUM=str(places))
            out = subprocess.run(me + ["--worker", f"{workload}:{places}"], capture_output=True,
                                 text=True, check=True, env=env).stdout
            r = json.loads(out.strip().splitlines()[-1])
            baseline = baseline or r["step_ms"]  # one place, 2 threads
            r.update(workload=workload, places=places, omp_threads=threads,
                     speedup_over_one_place_2_threads=baseline / r["step_ms"])
            rows.append(r)
            print(f"{places:>7} {threads:>12} {r['step_ms']:>9.1f} {r['min_ms']:>8.1f} "
                  f"{r['speedup_over_one_place_2_threads']:>7.2f}x")
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(dict(workloads=WORKLOADS, rows=rows), f, indent=1)


if __name__ == "__main__":
    main()
