"""Pooling benchmark: pool2d forward and forward + backward on ResNet shapes, against a
straightforward NumPy implementation (strided window views; the backward scatters each gradient
to its window's first maximum, or spreads it over the window), then a table and JSON.

    python benchmarks/pool_bench.py [--batch 32] [--out results/pool.json]

float32 runs oneDNN's pooling primitives (the max backward recomputes the forward for oneDNN's
workspace, which the op does not keep); float64 runs the framework's own loops. Times are the
best of several runs, in milliseconds, with OMP_NUM_THREADS threads (default 2).
"""
import argparse
import os

import numpy as np

from bench_common import best_ms, print_table, write_results

HERE = os.path.dirname(os.path.abspath(__file__))


def numpy_windows(x, k, s, p):
    """The [N, C, OH, OW, k, k] windows of x padded with -inf, and the padded shape."""
    padded = np.pad(x, [(0, 0), (0, 0), (p, p), (p, p)], constant_values=-np.inf)
    view = np.lib.stride_tricks.sliding_window_view(padded, (k, k), axis=(2, 3))
    return view[:, :, ::s, ::s], padded.shape


def numpy_max_pool(x, k, s, p):
    windows, _ = numpy_windows(x, k, s, p)
    return windows.max(axis=(4, 5))


def numpy_max_pool_grad(x, dy, k, s, p):
    """The gradient scattered to each window's first maximum."""
    windows, padded_shape = numpy_windows(x, k, s, p)
    n, c, oh, ow = windows.shape[:4]
    first = windows.reshape(n, c, oh, ow, k * k).argmax(axis=-1)
    rows = np.arange(oh)[:, None] * s + first // k
    cols = np.arange(ow)[None, :] * s + first % k
    grad = np.zeros(padded_shape[:2] + (padded_shape[2] * padded_shape[3],), x.dtype)
    flat = rows * padded_shape[3] + cols
    for i in range(n):
        for j in range(c):
            np.add.at(grad[i, j], flat[i, j].ravel(), dy[i, j].ravel())
    grad = grad.reshape(padded_shape)
    return grad[:, :, p:p + x.shape[2], p:p + x.shape[3]]


def numpy_global_avg(x):
    return x.mean(axis=(2, 3), keepdims=True)


def numpy_global_avg_grad(x, dy):
    return np.broadcast_to(dy / (x.shape[2] * x.shape[3]), x.shape).copy()


def workloads(batch):
    import paddle
    import paddle.nn.functional as F
    rng = np.random.default_rng(0)
    stem = rng.standard_normal((batch, 64, 112, 112)).astype(np.float32)
    head = rng.standard_normal((batch, 2048, 7, 7)).astype(np.float32)

    def ours(array, pool):
        x = paddle.to_tensor(array, stop_gradient=False)
        dy = paddle.to_tensor(np.ones(pool(x).shape, array.dtype))

        # CPU kernels return when their result is written, so nothing waits for a copy.
        def forward():
            pool(x)

        def forward_backward():
            paddle.grad([pool(x)], [x], grad_outputs=[dy])
        return forward, forward_backward

    def maxpool(x):
        return F.max_pool2d(x, 3, 2, 1)

    def maxpool_nhwc(x):
        return F.max_pool2d(x, 3, 2, 1, data_format="NHWC")

    def global_avg(x):
        return F.adaptive_avg_pool2d(x, 1)

    stem_dy = np.ones((batch, 64, 56, 56), np.float32)
    head_dy = np.ones((batch, 2048, 1, 1), np.float32)
    cases = {
        "max3x3s2 N x 64x112x112 float32": (ours(stem, maxpool), (
            lambda: numpy_max_pool(stem, 3, 2, 1),
            lambda: numpy_max_pool_grad(stem, stem_dy, 3, 2, 1))),
        "max3x3s2 N x 112x112x64 NHWC float32": (
            ours(np.ascontiguousarray(stem.transpose(0, 2, 3, 1)), maxpool_nhwc), None),
        "max3x3s2 N x 64x112x112 float64 (loops)": (ours(stem.astype(np.float64), maxpool), None),
        "global avg N x 2048x7x7 float32": (ours(head, global_avg), (
            lambda: numpy_global_avg(head), lambda: numpy_global_avg_grad(head, head_dy))),
        "global avg N x 2048x7x7 float64 (loops)": (ours(head.astype(np.float64), global_avg),
                                                    None),
    }
    return cases


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--out", default=os.path.join(HERE, "results", "pool.json"))
    args = parser.parse_args()

    rows, results = [], {}
    for name, ((forward, forward_backward), baseline) in workloads(args.batch).items():
        entry = {"forward_ms": best_ms(forward, args.repeats),
                 "forward_backward_ms": best_ms(forward_backward, args.repeats)}
        if baseline is not None:
            np_forward, np_backward = baseline
            entry["numpy_forward_ms"] = best_ms(np_forward, 2)
            entry["numpy_forward_backward_ms"] = entry["numpy_forward_ms"] + best_ms(np_backward, 2)
        results[name] = entry
        speedup = (f"{entry['numpy_forward_backward_ms'] / entry['forward_backward_ms']:.1f}x"
                   if baseline is not None else "-")
        rows.append([name, f"{entry['forward_ms']:.2f}", f"{entry['forward_backward_ms']:.2f}",
                     f"{entry.get('numpy_forward_ms', float('nan')):.2f}",
                     f"{entry.get('numpy_forward_backward_ms', float('nan')):.2f}", speedup])
    header = ["workload", "fwd ms", "fwd+bwd ms", "numpy fwd ms", "numpy fwd+bwd ms",
              "fwd+bwd vs numpy"]
    print(f"batch {args.batch}, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'default')}")
    print_table(header, rows)
    write_results(args.out, results, batch=args.batch,
                  omp_num_threads=os.environ.get("OMP_NUM_THREADS"),
                  load_average=os.getloadavg())


if __name__ == "__main__":
    main()
