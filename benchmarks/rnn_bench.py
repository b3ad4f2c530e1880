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
import json
import os

import numpy as np

from bench_common import (best_wall_and_cpu_ms, compared_frameworks, module_version, print_table,
                          report_versions, run_script, wall_and_cpu_rows, write_results)

HERE = os.path.dirname(os.path.abspath(__file__))
BATCH, STEPS, INPUT, HIDDEN, LAYERS = 32, 64, 256, 256, 2
# 2 GEMM flops per multiply-add: per layer and step the input and the hidden projection.
GATES = {"lstm": 4, "gru": 3}


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
    results = {name: best_wall_and_cpu_ms(fn, repeats) for name, fn in cases.items()}
    results["version"] = module_version(framework)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--framework", choices=["paddle", "torch"])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--out", default=os.path.join(HERE, "results", "rnn.json"))
    args = parser.parse_args()
    if args.framework:  # one framework, in this process: print its JSON
        print(json.dumps(measure(args.framework, args.repeats)))
        return
    results = {name: run_script(python, __file__, "--framework", framework,
                                "--repeats", args.repeats)
               for name, (python, framework) in compared_frameworks(torch=True).items()}
    versions = report_versions(results)
    print(f"{LAYERS} layers, hidden {HIDDEN}, {STEPS} steps, batch {BATCH}, input {INPUT}; "
          f"best of {args.repeats}, ms (ratio: their time / ours, > 1 means we are faster)")

    def gflops(name, ms):
        kind, what = name.split(" ")
        gflop = forward_gflop(kind) * (3 if what == "forward+backward" else 1)
        return [f"{gflop / (ms / 1e3):.0f}"]
    print_table(["workload"] + list(results) + ["ours GFLOP/s"],
                wall_and_cpu_rows(results, gflops))
    write_results(args.out, results, versions=versions)


if __name__ == "__main__":
    main()
