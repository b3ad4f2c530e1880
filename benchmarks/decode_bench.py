"""Viterbi decoding benchmark: paddle.text.viterbi_decode on sequence-labelling shapes, under
this framework and PaddlePaddle (PADDLE_REFERENCE_PYTHON), each in its own process, then a table
and JSON. PyTorch has no such op. (The LoD beam search ops run in Paddle's legacy programs only,
so they are not compared.)

    python benchmarks/decode_bench.py [--out results/decode.json]

Times are the best of several runs, in milliseconds, with OMP_NUM_THREADS threads (default 2).
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

# (batch, steps, tags, include_bos_eos_tag)
SHAPES = [(64, 50, 20, True), (8, 200, 60, False)]


def step_function(batch, steps, tags, include_bos_eos_tag):
    import paddle
    rng = np.random.default_rng(0)
    potentials = paddle.to_tensor(rng.standard_normal((batch, steps, tags)).astype(np.float32))
    transitions = paddle.to_tensor(rng.standard_normal((tags, tags)).astype(np.float32))
    lengths = paddle.to_tensor(rng.integers(1, steps + 1, batch).astype(np.int64))

    def step():
        paddle.text.viterbi_decode(potentials, transitions, lengths, include_bos_eos_tag)[1].numpy()
    return step


def best_ms(fn, repeats=10):
    fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def run_here():
    return {"x".join(map(str, shape[:3])) + ("" if shape[3] else " no bos/eos"):
            best_ms(step_function(*shape)) for shape in SHAPES}


def run_in(python, framework):
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2"))
    if framework != "this":
        env.pop("PYTHONPATH", None)
    result = subprocess.run([python, os.path.abspath(__file__), "--here"], capture_output=True,
                            text=True, env=env, cwd="/", timeout=600)
    if result.returncode != 0:
        raise RuntimeError(f"{framework}: {result.stderr[-2000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--here", action="store_true", help="time the paddle this imports")
    parser.add_argument("--out")
    args = parser.parse_args()
    if args.here:
        print(json.dumps(run_here()))
        return
    results = {"this": run_in(sys.executable, "this")}
    if os.environ.get("PADDLE_REFERENCE_PYTHON"):
        results["paddle"] = run_in(os.environ["PADDLE_REFERENCE_PYTHON"], "paddle")
    names = list(results)
    print("viterbi_decode, ms (B x T x N)".ljust(40) + "".join(n.rjust(10) for n in names))
    for shape in results["this"]:
        print(shape.ljust(40) + "".join(f"{results[n][shape]:10.2f}" for n in names))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
