"""Loss benchmark: forward + backward of the op-backed losses (binary_cross_entropy_with_logits,
nll_loss, smooth_l1_loss, kl_div) and of a composed one (triplet_margin_loss) on float32 inputs
of about a million elements, with whatever `paddle` the interpreter imports, and the same on
PaddlePaddle when PADDLE_REFERENCE_PYTHON names an interpreter that has it. Prints a table and
JSON; times are the best of several runs, in milliseconds, with OMP_NUM_THREADS threads
(default 2).

    python benchmarks/loss_bench.py [--out results/losses.json]
"""
import argparse
import json
import os
import sys

import numpy as np

from bench_common import best_ms, print_side_by_side, reference_pythons, run_script, write_json


def measure():
    import paddle
    F = paddle.nn.functional
    rng = np.random.default_rng(0)

    def tensor(array):
        return paddle.to_tensor(array.astype(np.float32), stop_gradient=False)
    logits = tensor(rng.standard_normal((256, 4096)))
    targets = paddle.to_tensor(rng.uniform(size=(256, 4096)).astype(np.float32))
    pos_weight = paddle.to_tensor(rng.uniform(0.5, 2, 4096).astype(np.float32))
    scores = tensor(rng.standard_normal((1024, 1000)))
    classes = paddle.to_tensor(rng.integers(0, 1000, 1024))
    distribution = paddle.to_tensor(rng.dirichlet(np.ones(1000), 1024).astype(np.float32))
    anchor, positive, negative = (tensor(rng.standard_normal((4096, 256))) for _ in range(3))

    def step(loss_fn, *leaves):
        def run():
            loss = loss_fn()
            loss.backward()
            for leaf in leaves:
                leaf.clear_gradient()
        return run
    workloads = {
        "bce_with_logits_pos_weight_256x4096": step(
            lambda: F.binary_cross_entropy_with_logits(logits, targets, pos_weight=pos_weight),
            logits),
        "nll_loss_log_softmax_1024x1000": step(
            lambda: F.nll_loss(F.log_softmax(scores, axis=-1), classes), scores),
        "smooth_l1_256x4096": step(lambda: F.smooth_l1_loss(logits, targets), logits),
        "kl_div_batchmean_1024x1000": step(
            lambda: F.kl_div(F.log_softmax(scores, axis=-1), distribution, "batchmean"), scores),
        "triplet_margin_4096x256": step(
            lambda: F.triplet_margin_loss(anchor, positive, negative),
            anchor, positive, negative),
    }
    return {name: best_ms(fn) for name, fn in workloads.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out")
    parser.add_argument("--json-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    ours = measure()
    if args.json_only:
        print(json.dumps(ours))
        return
    results = {"ours": ours}
    reference = reference_pythons().get("paddle")
    if reference:
        results["paddlepaddle"] = run_script(reference, __file__, "--json-only")
    print_side_by_side("workload (ms, fwd + bwd)", results, ours, 40, 14)
    if args.out:
        write_json(args.out, results)
    print(json.dumps(results))


if __name__ == "__main__":
    sys.exit(main())
