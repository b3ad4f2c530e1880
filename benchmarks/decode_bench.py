"""Viterbi decoding benchmark: paddle.text.viterbi_decode on sequence-labelling shapes, under
this framework and PaddlePaddle (PADDLE_REFERENCE_PYTHON), each in its own process, then a table
and JSON. PyTorch has no such op. (The LoD beam search ops run in Paddle's legacy programs only,
so they are not compared.)

    python benchmarks/decode_bench.py [--out results/decode.json]

Times are the best of several runs, in milliseconds, with OMP_NUM_THREADS threads (default 2).
"""
import argparse
import json
import sys

import numpy as np

from bench_common import best_ms, print_side_by_side, reference_pythons, run_script, write_json

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


def run_here():
    return {"x".join(map(str, shape[:3])) + ("" if shape[3] else " no bos/eos"):
            best_ms(step_function(*shape)) for shape in SHAPES}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--here", action="store_true", help="time the paddle this imports")
    parser.add_argument("--out")
    args = parser.parse_args()
    if args.here:
        print(json.dumps(run_here()))
        return
    pythons = {"this": sys.executable, **reference_pythons()}
    results = {framework: run_script(python, __file__, "--here")
               for framework, python in pythons.items()}
    print_side_by_side("viterbi_decode, ms (B x T x N)", results, results["this"], 40)
    if args.out:
        write_json(args.out, results)


if __name__ == "__main__":
    main()
