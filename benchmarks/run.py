"""Benchmark runner: times the workloads in workloads.py on this framework, and on PaddlePaddle
and PyTorch where they are available, then prints a table and writes JSON.

    python benchmarks/run.py [--out results.json] [--filter add]

PaddlePaddle is imported as `paddle` too, so it runs in its own interpreter: set
PADDLE_REFERENCE_PYTHON to a Python that has paddlepaddle installed (e.g. a venv's bin/python).
PyTorch runs in TORCH_PYTHON when that is set, else in this interpreter if it can import torch.
"""
import argparse
import datetime
import importlib.util
import json
import os
import platform
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Lower is better for latencies, higher for throughput.
HIGHER_IS_BETTER = {"matmul_1024_gflops", "sdpa_512_fwd_gflops"}
MEMORY_WORKLOAD = "resnet18_step_peak_mb"
# The 2-core fp32 peak of reference/build-probe.md.
PEAK_GFLOPS = 203.0
# A bound is a number, the name of another of our workloads, or "torch" (PyTorch's result). The
# executor target is "at most 1 us per op beyond the kernels"; the workload times the kernels
# too, so meeting 1 us meets it.
TARGETS = {"add_1elem_us": ("<=", 5.0), "matmul_1024_gflops": (">=", 150.0),
           "static_1000_tiny_ops_us_per_op": ("<=", 1.0),
           "static_mlp_train_step_ms": ("<=", "mlp_train_step_ms"),
           # The sequence-model issue's: the BERT-mini step no slower than PyTorch's in the same
           # run ("torch" names its result), attention at half the matmul peak.
           "bert_mini_train_step_ms": ("<=", "torch"), "sdpa_512_fwd_gflops": (">=", 100.0)}


def run_workloads(python, framework, name_filter, keep_pythonpath=True):
    cmd = [python, os.path.join(HERE, "workloads.py"), "--framework", framework]
    if name_filter:
        cmd += ["--filter", name_filter]
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2"))
    if not keep_pythonpath:
        # The reference interpreter must import its own paddle, not this checkout's.
        env.pop("PYTHONPATH", None)
    # Start from a neutral directory so `import paddle` finds the installed package.
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env, cwd="/")
    return json.loads(out.stdout)


def run_all(python, framework, name_filter, keep_pythonpath=True):
    """The timed workloads, then the memory workload in a process of its own."""
    results = run_workloads(python, framework, name_filter, keep_pythonpath)
    if not name_filter or name_filter in MEMORY_WORKLOAD:
        memory = run_workloads(python, framework, MEMORY_WORKLOAD, keep_pythonpath)
        memory.pop("version")
        results.update(memory)
    return results


def peak_fractions(results):
    """Each vision workload's speed as a fraction of the 2-core fp32 peak."""
    sys.path.insert(0, HERE)
    import vision_models
    from workloads import VISION
    lines = []
    for name, (kind, batch, size, training) in VISION.items():
        gflop = vision_models.flops(kind, batch, size) * (3 if training else 1) / 1e9
        cells = [f"{k} {gflop / (r[name] / 1e3) / PEAK_GFLOPS:.0%}" for k, r in results.items()
                 if r.get(name)]
        if cells:
            lines.append(f"  {name} ({gflop:.1f} GFLOP): " + ", ".join(cells))
    return lines


def ratio(name, ours, other):
    if other is None or ours is None:
        return None
    # How many times faster we are (> 1 is better for us).
    return ours / other if name in HIGHER_IS_BETTER else other / ours


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(HERE, "results", "latest.json"))
    parser.add_argument("--filter")
    args = parser.parse_args()

    results = {"ours": run_all(sys.executable, "paddle", args.filter)}
    reference = os.environ.get("PADDLE_REFERENCE_PYTHON")
    if reference:
        results["paddlepaddle"] = run_all(reference, "paddle", args.filter,
                                          keep_pythonpath=False)
    torch_python = os.environ.get("TORCH_PYTHON")
    if torch_python:
        results["torch"] = run_all(torch_python, "torch", args.filter, keep_pythonpath=False)
    elif importlib.util.find_spec("torch") is not None:
        results["torch"] = run_all(sys.executable, "torch", args.filter)

    versions = {k: v.pop("version") for k, v in results.items()}
    print("versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    others = [k for k in results if k != "ours"]
    header = ["workload", "ours"] + [f"{o} (x faster)" for o in others] + ["target"]
    rows = []
    for name, value in results["ours"].items():
        row = [name, f"{value:.3f}"]
        for o in others:
            theirs = results[o].get(name)
            r = ratio(name, value, theirs)
            row.append(f"{theirs:.3f} ({r:.2f}x)" if theirs is not None else "-")
        if name in TARGETS:
            op, bound = TARGETS[name]
            if bound == "torch":
                limit = results.get("torch", {}).get(name)
            else:
                limit = results["ours"].get(bound) if isinstance(bound, str) else bound
            if limit is None:  # the workload it is measured against was filtered out
                row.append("")
            else:
                met = value <= limit if op == "<=" else value >= limit
                row.append(f"{op} {bound} {'met' if met else 'NOT met'}")
        else:
            row.append("")
        rows.append(row)
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for r in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))

    fractions = peak_fractions(results)
    if fractions:
        print(f"\nfraction of the 2-core fp32 peak ({PEAK_GFLOPS:.0f} GFLOP/s):")
        print("\n".join(fractions))

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    record = {"date": datetime.datetime.now().isoformat(timespec="seconds"),
              "machine": platform.processor() or platform.machine(), "cpus": os.cpu_count(),
              "versions": versions, "results": results}
    with open(args.out, "w") as f:
        json.dump(record, f, indent=1)
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()
