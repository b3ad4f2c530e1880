"""Sparse embedding benchmark: one training step (lookup, backward, update) on a 10^6 x 64
float32 table, with Embedding(sparse=True) against the dense gradient, for SGD, Adagrad and Adam
(lazy and not), under this framework and, when PADDLE_REFERENCE_PYTHON names its interpreter,
PaddlePaddle running the same code. Also records the gradient's size and, here, the peak bytes
the backward allocates (the allocator's statistics). Then a table and JSON.

    python benchmarks/sparse_embedding_bench.py [--rows 1000000] [--out results/sparse.json]

Times are the best of several steps, in milliseconds, with OMP_NUM_THREADS threads.
"""
import argparse
import json
import os
import sys

import numpy as np

from bench_common import best_ms, print_table, reference_pythons, run_script, write_results

HERE = os.path.dirname(os.path.abspath(__file__))
OPTIMIZERS = {
    "sgd": lambda paddle, p: paddle.optimizer.SGD(0.1, parameters=p),
    "adagrad": lambda paddle, p: paddle.optimizer.Adagrad(0.1, parameters=p),
    "adam_lazy": lambda paddle, p: paddle.optimizer.Adam(0.01, parameters=p, lazy_mode=True),
    "adam": lambda paddle, p: paddle.optimizer.Adam(0.01, parameters=p),
}


def measure(rows, dim, batch, repeats):
    """{workload: {step_ms, grad_bytes[, backward_peak_bytes]}} with the paddle imported here."""
    import paddle
    stats = getattr(paddle.base.libpaddle, "_reset_max_memory_allocated", None)
    ids = paddle.to_tensor(np.random.default_rng(0).integers(0, rows, size=batch))
    results = {}
    for sparse in (True, False):
        emb = paddle.nn.Embedding(rows, dim, sparse=sparse, weight_attr=paddle.ParamAttr(
            initializer=paddle.nn.initializer.Constant(0.01)))
        for name, make in OPTIMIZERS.items():
            opt = make(paddle, emb.parameters())

            def step():
                emb(ids).sum().backward()
                opt.step()
                opt.clear_grad()
            entry = {"step_ms": best_ms(step, repeats)}
            out = emb(ids)
            if stats is not None:
                place = paddle.base.libpaddle.CPUPlace()
                before = paddle.base.libpaddle._memory_allocated(place)
                stats(place)
            out.sum().backward()
            if stats is not None:
                entry["backward_peak_bytes"] = (
                    paddle.base.libpaddle._max_memory_allocated(place) - before)
            grad = emb.weight.grad
            entry["grad_bytes"] = int(np.prod(grad.shape)) * 4
            opt.clear_grad()
            results[f"{'sparse' if sparse else 'dense'} {name}"] = entry
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**6)
    parser.add_argument("--dim", type=int, default=64)
    parser.add_argument("--batch", type=int, default=640)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", default=os.path.join(HERE, "results", "sparse_embedding.json"))
    args = parser.parse_args()
    if args.json_only:  # the child run under another interpreter
        print(json.dumps(measure(args.rows, args.dim, args.batch, args.repeats)))
        return

    frameworks = {"ours": measure(args.rows, args.dim, args.batch, args.repeats)}
    reference = reference_pythons().get("paddle")
    if reference:
        frameworks["paddle"] = run_script(reference, __file__, "--json-only", "--rows", args.rows,
                                          "--dim", args.dim, "--batch", args.batch,
                                          "--repeats", args.repeats)

    header = ["workload"] + [f"{f} step ms" for f in frameworks] + ["grad MB", "bwd peak MB"]
    rows = []
    for name, entry in frameworks["ours"].items():
        peak = entry.get("backward_peak_bytes")
        rows.append([name] + [f"{frameworks[f][name]['step_ms']:.2f}" for f in frameworks] +
                    [f"{entry['grad_bytes'] / 2**20:.2f}",
                     "-" if peak is None else f"{peak / 2**20:.2f}"])
    print(f"table {args.rows} x {args.dim} float32, {args.batch} ids, "
          f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'default')}")
    print_table(header, rows)
    write_results(args.out, frameworks, rows=args.rows, dim=args.dim, batch=args.batch,
                  omp_num_threads=os.environ.get("OMP_NUM_THREADS"),
                  load_average=os.getloadavg(), python=sys.version.split()[0])


if __name__ == "__main__":
    main()
