"""CTC loss benchmark: F.ctc_loss forward + backward (mean reduction) on speech-recognition
shapes, under this framework, PaddlePaddle (PADDLE_REFERENCE_PYTHON, its warp-ctc binding) and
PyTorch (TORCH_PYTHON, or torch if importable; log_softmax + its ctc_loss), each in its own
process, then a table and JSON.

    python benchmarks/ctc_bench.py [--out results/ctc.json]

Times are the best of several runs, in milliseconds, with OMP_NUM_THREADS threads (default 2).
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

# (frames, batch, classes with the blank, label length)
SHAPES = [(150, 16, 40, 30), (100, 8, 1000, 20)]


def inputs(frames, batch, classes, label_length):
    rng = np.random.default_rng(0)
    logits = rng.standard_normal((frames, batch, classes)).astype(np.float32)
    labels = rng.integers(1, classes, (batch, label_length)).astype(np.int32)
    lengths = rng.integers(frames // 2, frames + 1, batch).astype(np.int64)
    label_lengths = rng.integers(label_length // 2, label_length + 1, batch).astype(np.int64)
    return logits, labels, lengths, label_lengths


def step_function(framework, logits, labels, lengths, label_lengths):
    if framework == "torch":
        import torch
        torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "2")))
        x = torch.tensor(logits, requires_grad=True)
        args = (torch.tensor(labels.astype(np.int64)), torch.tensor(lengths),
                torch.tensor(label_lengths))

        def step():
            torch.nn.functional.ctc_loss(x.log_softmax(-1), *args).backward()
            x.grad = None
        return step
    import paddle
    x = paddle.to_tensor(logits, stop_gradient=False)
    args = [paddle.to_tensor(a) for a in (labels, lengths, label_lengths)]

    def step():
        paddle.nn.functional.ctc_loss(x, *args).backward()
        x.clear_gradient()
    return step


def best_ms(fn, repeats=10):
    fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def run_here(framework):
    return {"x".join(map(str, shape)): best_ms(step_function(framework, *inputs(*shape)))
            for shape in SHAPES}


def run_in(python, framework):
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2"))
    if framework != "this":
        env.pop("PYTHONPATH", None)
    result = subprocess.run([python, os.path.abspath(__file__), "--framework", framework],
                            capture_output=True, text=True, env=env, cwd="/", timeout=600)
    if result.returncode != 0:
        raise RuntimeError(f"{framework}: {result.stderr[-2000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--framework", choices=["this", "paddle", "torch"])
    parser.add_argument("--out")
    args = parser.parse_args()
    if args.framework:
        print(json.dumps(run_here(args.framework)))
        return
    results = {"this": run_in(sys.executable, "this")}
    if os.environ.get("PADDLE_REFERENCE_PYTHON"):
        results["paddle"] = run_in(os.environ["PADDLE_REFERENCE_PYTHON"], "paddle")
    torch_python = os.environ.get("TORCH_PYTHON")
    if torch_python:
        results["torch"] = run_in(torch_python, "torch")
    names = list(results)
    print("ctc_loss forward + backward, ms (T x B x C x L)".ljust(48) + "".join(
        n.rjust(10) for n in names))
    for shape in results["this"]:
        print(shape.ljust(48) + "".join(f"{results[n][shape]:10.2f}" for n in names))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
