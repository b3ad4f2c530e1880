"""Memory: the peak of a static-graph ResNet-18 training step with garbage collection and in-place
reuse on against both off, PyTorch's peak for the same step, and the caching allocator's
allocation/free throughput against malloc/free for the sizes a training step allocates.

    OMP_NUM_THREADS=2 python benchmarks/memory_bench.py [--size 112] [--steps 2]
        [--alloc-bench build/pip/benchmarks/cpp/alloc_bench] [--out results/memory.json]

Each configuration runs in a fresh process: ResNet-18 (benchmarks/vision_models.py, batch 32,
`--size`x`--size` images, Adam 1e-3, cross-entropy), built as a static program and run by the
Executor `--steps` times. Two peaks are measured per configuration:

- allocator peak: paddle.device.max_memory_allocated('cpu') over the last step, i.e. the most
  bytes live at once (parameters, optimizer state and activations), exact to the byte;
- RSS growth: the process's peak resident set (getrusage ru_maxrss) after the steps less its
  resident set just before the first step. This is the figure PyTorch gets too (its CPU
  allocator keeps no statistics), run as an eager training step of the same model
  (TORCH_PYTHON, or torch in this interpreter).

GC+inplace "on" is FLAGS_eager_delete_tensor_gb=0 (free each variable after its last use) and
BuildStrategy.enable_inplace=True; "off" is FLAGS_eager_delete_tensor_gb=-1 (keep every variable
in the scope until the run ends, Paddle's meaning of a negative value) and enable_inplace=False.

The allocator figures come from benchmarks/cpp/alloc_bench (built with
-DPADDLE_BUILD_BENCHMARKS=ON): nanoseconds per allocate+free pair of ResNet-18's step trace,
untouched and with each block's pages written once.
"""
import argparse
import datetime
import json
import os
import platform
import resource
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
BATCH = 32
RATIO_TARGET = 0.7


def _rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20


def _max_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def paddle_static_step(size, steps, gc_inplace):
    sys.path.insert(0, HERE)
    import paddle
    import vision_models
    paddle.enable_static()
    paddle.seed(0)
    paddle.set_flags({"FLAGS_eager_delete_tensor_gb": 0.0 if gc_inplace else -1.0})
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        model = vision_models.resnet(vision_models.PaddleLayers(), 18)
        x = paddle.static.data("x", [BATCH, 3, size, size])
        y = paddle.static.data("y", [BATCH, 1], dtype="int64")
        loss = paddle.nn.functional.cross_entropy(model(x), y)
        paddle.optimizer.Adam(learning_rate=1e-3).minimize(loss)
    exe = paddle.static.Executor()
    exe.run(startup)
    strategy = paddle.static.BuildStrategy()
    strategy.enable_inplace = gc_inplace
    program = paddle.static.CompiledProgram(main, strategy)
    rng = np.random.default_rng(0)
    feed = {"x": rng.random((BATCH, 3, size, size), dtype=np.float32),
            "y": rng.integers(0, 1000, (BATCH, 1)).astype(np.int64)}
    rss_before = _rss_mb()
    for step in range(steps):
        if step == steps - 1:
            paddle.device.reset_max_memory_allocated("cpu")
        (value,) = exe.run(program, feed=feed, fetch_list=[loss])
    return {"allocator_peak_mb": paddle.device.max_memory_allocated("cpu") / 2 ** 20,
            "reserved_peak_mb": paddle.device.max_memory_reserved("cpu") / 2 ** 20,
            "rss_growth_mb": _max_rss_mb() - rss_before, "loss": float(value),
            "version": "ours"}


def torch_step(size, steps):
    sys.path.insert(0, HERE)
    import torch
    import vision_models
    torch.manual_seed(0)
    model = vision_models.resnet(vision_models.TorchLayers(), 18)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    rng = np.random.default_rng(0)
    x = torch.from_numpy(rng.random((BATCH, 3, size, size), dtype=np.float32))
    y = torch.from_numpy(rng.integers(0, 1000, (BATCH,)).astype(np.int64))
    rss_before = _rss_mb()
    for _ in range(steps):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    return {"rss_growth_mb": _max_rss_mb() - rss_before, "loss": float(loss),
            "version": torch.__version__}


def run(python, args, *extra, keep_pythonpath=True):
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "2")
    if not keep_pythonpath:
        env.pop("PYTHONPATH", None)
    out = subprocess.run([python, os.path.abspath(__file__), "--size", str(args.size),
                          "--steps", str(args.steps), *extra],
                         capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def alloc_bench(path):
    if not path or not os.path.exists(path):
        return None
    out = subprocess.run([path, "300"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=112)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--worker", choices=["on", "off", "torch"])
    parser.add_argument("--alloc-bench", default=os.path.join(
        HERE, "..", "build", "pip", "benchmarks", "cpp", "alloc_bench"))
    parser.add_argument("--out", default=os.path.join(HERE, "results", "memory.json"))
    args = parser.parse_args()
    if args.worker == "torch":
        print(json.dumps(torch_step(args.size, args.steps)))
        return
    if args.worker:
        print(json.dumps(paddle_static_step(args.size, args.steps, args.worker == "on")))
        return

    results = {"gc_inplace_on": run(sys.executable, args, "--worker", "on"),
               "gc_inplace_off": run(sys.executable, args, "--worker", "off")}
    torch_python = os.environ.get("TORCH_PYTHON")
    if torch_python:
        results["torch"] = run(torch_python, args, "--worker", "torch", keep_pythonpath=False)
    elif importlib_has("torch"):
        results["torch"] = run(sys.executable, args, "--worker", "torch")
    allocator = alloc_bench(args.alloc_bench)

    on, off = results["gc_inplace_on"], results["gc_inplace_off"]
    ratio = on["allocator_peak_mb"] / off["allocator_peak_mb"]
    rss_ratio = on["rss_growth_mb"] / off["rss_growth_mb"]
    print(f"ResNet-18 static training step, batch {BATCH}, {args.size}x{args.size}, "
          f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '2')}")
    print(f"{'configuration':<22}{'allocator peak MB':>19}{'RSS growth MB':>15}{'loss':>10}")
    for name, r in results.items():
        peak = r.get("allocator_peak_mb")
        peak_text = f"{peak:.1f}" if peak is not None else "-"
        print(f"{name:<22}{peak_text:>19}{r['rss_growth_mb']:>15.1f}{r['loss']:>10.4f}")
    print(f"GC+inplace on / off: allocator peak {ratio:.3f}, RSS growth {rss_ratio:.3f} "
          f"(target <= {RATIO_TARGET})")
    if "torch" in results:
        print(f"ours (on) / torch RSS growth: "
              f"{on['rss_growth_mb'] / results['torch']['rss_growth_mb']:.3f}")
    if allocator:
        print(f"allocator, ns per allocate+free pair of a training step's "
              f"{allocator['allocations_per_step']} allocations:")
        for touched in ("", "_touched"):
            m = allocator[f"malloc{touched}_ns"]
            for strategy in ("auto_growth", "naive_best_fit"):
                ns = allocator[f"{strategy}{touched}_ns"]
                print(f"  {strategy + touched:<26}{ns:>14.1f}   malloc {m:>14.1f}   "
                      f"x{m / ns:.1f}")

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    versions = {k: v.pop("version") for k, v in results.items()}
    with open(args.out, "w") as f:
        json.dump({"date": datetime.datetime.now().isoformat(timespec="seconds"),
                   "machine": platform.processor() or platform.machine(),
                   "cpus": os.cpu_count(), "size": args.size, "batch": BATCH,
                   "steps": args.steps, "versions": versions, "results": results,
                   "peak_ratio": ratio, "rss_ratio": rss_ratio, "allocator": allocator}, f,
                  indent=1)


def importlib_has(name):
    import importlib.util
    return importlib.util.find_spec(name) is not None


if __name__ == "__main__":
    main()
