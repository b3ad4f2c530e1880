"""Recurrent network benchmark: a 2-layer LSTM (and GRU) with hidden size 256 over sequences of
64 steps, batch 32, input size 256, forward and forward + backward (the gradients of the input and
of every weight), on this framework, on PaddlePaddle (PADDLE_REFERENCE_PYTHON) and on PyTorch
(TORCH_PYTHON, or torch in this interpreter), side by side, then a table and JSON.

    OMP_NUM_THREADS=2 python benchmarks/rnn_bench.py [--out results/rnn.json] [--repeats 10]

Times are the best of --repeats runs, in milliseconds: wall-clock time, and the process's CPU
time (all its threads), which a machine shared with other work disturbs less (with one thread
it is the time the work itself took). Each framework runs in its own process (PaddlePaddle is
imported as `paddle` too), with OMP_NUM_THREADS threads (default 2).
"""
import argparse
import datetime
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
BATCH, STEPS, INPUT, HIDDEN, LAYERS = 32, 64, 256, 256, 2
# 2 GEMM flops per multiply-add: per layer and step the input and the hidden projection.
GATES = {"lstm": 4, "gru": 3}


def best_ms(fn, repeats):
    """(best wall-clock ms, best CPU ms) of `repeats` calls."""
    fn()
    wall = cpu = float("inf")
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall * 1e3, cpu * 1e3


def forward_gflop(kind):
    per_step = 0
    for layer in range(LAYERS):
        in_size = INPUT if layer == 0 else HIDDEN
        per_step += 2 * BATCH * GATES[kind] * HIDDEN * (in_size + HIDDEN)
    return per_step * STEPS / 1e9


def paddle_cases():
    import paddle
    paddle.seed(0)
    x_np = np.random.default_rng(0).standard_normal((BATCH, STEPS, INPUT)).astype(np.float32)
    cases = {}
    for kind, cls in (("lstm", paddle.nn.LSTM), ("gru", paddle.nn.GRU)):
        model = cls(INPUT, HIDDEN, num_layers=LAYERS)
        x = paddle.to_tensor(x_np, stop_gradient=False)

        def forward(model=model, x=x):
            with paddle.no_grad():
                model(x)

        def train(model=model, x=x):
            out, _ = model(x)
            out.mean().backward()
            model.clear_gradients()
            x.clear_gradient()
        cases[f"{kind} forward"] = forward
        cases[f"{kind} forward+backward"] = train
    return cases


def torch_cases():
    import torch
    torch.manual_seed(0)
    x_np = np.random.default_rng(0).standard_normal((BATCH, STEPS, INPUT)).astype(np.float32)
    cases = {}
    for kind, cls in (("lstm", torch.nn.LSTM), ("gru", torch.nn.GRU)):
        model = cls(INPUT, HIDDEN, num_layers=LAYERS, batch_first=True)
        x = torch.tensor(x_np, requires_grad=True)

        def forward(model=model, x=x):
            with torch.no_grad():
                model(x)

        def train(model=model, x=x):
            out, _ = model(x)
            out.mean().backward()
            model.zero_grad(set_to_none=False)
            x.grad = None
        cases[f"{kind} forward"] = forward
        cases[f"{kind} forward+backward"] = train
    return cases


def measure(framework, repeats):
    cases = paddle_cases() if framework == "paddle" else torch_cases()
    results = {name: best_ms(fn, repeats) for name, fn in cases.items()}
    module = __import__(framework)
    results["version"] = f"{module.__version__} ({os.path.dirname(module.__file__)})"
    return results


def run(python, framework, repeats, keep_pythonpath=True):
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2"))
    if not keep_pythonpath:  # the reference interpreter imports its own paddle
        env.pop("PYTHONPATH", None)
    out = subprocess.run([python, os.path.abspath(__file__), "--framework", framework,
                          "--repeats", str(repeats)],
                         check=True, capture_output=True, text=True, env=env, cwd="/")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--framework", choices=["paddle", "torch"])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--out", default=os.path.join(HERE, "results", "rnn.json"))
    args = parser.parse_args()
    if args.framework:  # one framework, in this process: print its JSON
        print(json.dumps(measure(args.framework, args.repeats)))
        return
    results = {"ours": run(sys.executable, "paddle", args.repeats)}
    reference = os.environ.get("PADDLE_REFERENCE_PYTHON")
    if reference:
        results["paddlepaddle"] = run(reference, "paddle", args.repeats, keep_pythonpath=False)
    torch_python = os.environ.get("TORCH_PYTHON")
    if torch_python:
        results["torch"] = run(torch_python, "torch", args.repeats, keep_pythonpath=False)
    elif importlib.util.find_spec("torch") is not None:
        results["torch"] = run(sys.executable, "torch", args.repeats)
    versions = {k: v.pop("version") for k, v in results.items()}
    print("versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    print(f"{LAYERS} layers, hidden {HIDDEN}, {STEPS} steps, batch {BATCH}, input {INPUT}; "
          f"best of {args.repeats}, ms (ratio: their time / ours, > 1 means we are faster)")
    others = [k for k in results if k != "ours"]
    header = ["workload", "ours"] + others + ["ours GFLOP/s"]
    rows = []
    for name, (ours, ours_cpu) in results["ours"].items():
        kind, what = name.split(" ")
        gflop = forward_gflop(kind) * (3 if what == "forward+backward" else 1)
        for clock, index, mine in (("wall", 0, ours), ("cpu", 1, ours_cpu)):
            row = [f"{name} ({clock})", f"{mine:.2f}"]
            for o in others:
                theirs = results[o].get(name)
                row.append(f"{theirs[index]:.2f} ({theirs[index] / mine:.2f}x)" if theirs else "-")
            row.append(f"{gflop / (mine / 1e3):.0f}")
            rows.append(row)
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    for r in [header] + rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"date": datetime.datetime.now().isoformat(timespec="seconds"),
                   "machine": platform.processor() or platform.machine(),
                   "cpus": os.cpu_count(), "versions": versions, "results": results}, f, indent=1)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
