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
import sys

import numpy as np

from bench_common import best_ms, print_side_by_side, reference_pythons, run_script, write_json

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


def run_here(framework):
    return {"x".join(map(str, shape)): best_ms(step_function(framework, *inputs(*shape)))
            for shape in SHAPES}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--framework", choices=["this", "paddle", "torch"])
    parser.add_argument("--out")
    args = parser.parse_args()
    if args.framework:
        print(json.dumps(run_here(args.framework)))
        return
    pythons = {"this": sys.executable, **reference_pythons(torch=True)}
    results = {framework: run_script(python, __file__, "--framework", framework)
               for framework, python in pythons.items()}
    print_side_by_side("ctc_loss forward + backward, ms (T x B x C x L)", results,
                       results["this"], 48)
    if args.out:
        write_json(args.out, results)


if __name__ == "__main__":
    main()
