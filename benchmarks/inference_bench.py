"""Inference benchmark: ResNet-50 batch-1 float32 latency through the predictor
(paddle.inference, which binds the C++ paddle_infer::Predictor) with IR optimisation on and off,
its creation time and the process's resident memory; with PADDLE_REFERENCE_PYTHON set, the same
model files through PaddlePaddle's own predictor; with TORCH_PYTHON (or torch importable), the
same network in PyTorch eager under no_grad. Prints a table (with each predictor's largest
difference from ours with IR optimisation off, relative to the largest output) and writes JSON.

    python benchmarks/inference_bench.py [--out results/inference.json] [--runs 20]

The model files are written once by this framework (paddle.static.save_inference_model) into a
temporary folder, so every predictor serves the same .pdmodel/.pdiparams pair.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from bench_common import best_ms, reference_pythons, run_script, write_results

HERE = os.path.dirname(os.path.abspath(__file__))
# 4.1 GFLOP (multiply-adds of ResNet-50 at 224x224) at the 2-core fp32 peak of build-probe.md.
PEAK_GFLOPS = 203.0


def save_model(prefix):
    import numpy as np
    import paddle
    import vision_models
    paddle.seed(0)
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [1, 3, 224, 224], "float32")
        model = vision_models.resnet(vision_models.PaddleLayers(), 50)
        model.eval()
        out = model(x)
    exe = paddle.static.Executor()
    exe.run(startup)
    paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
    image = np.random.default_rng(0).random((1, 3, 224, 224), dtype=np.float32)
    np.save(prefix + ".input.npy", image)


def resident_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def predictor_times(prefix, runs, ir_optim):
    """(creation seconds, best run ms, RSS MB after creation, RSS MB after the runs, output) of
    one predictor."""
    import numpy as np
    import paddle.inference as inference
    x = np.load(prefix + ".input.npy")
    start = time.perf_counter()
    config = inference.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    config.disable_gpu()
    config.set_cpu_math_library_num_threads(int(os.environ.get("OMP_NUM_THREADS", "2")))
    config.switch_ir_optim(ir_optim)
    predictor = inference.create_predictor(config)
    created = time.perf_counter() - start
    rss = resident_mb()
    handle = predictor.get_input_handle(predictor.get_input_names()[0])
    output = predictor.get_output_handle(predictor.get_output_names()[0])

    def run():
        handle.reshape(list(x.shape))
        handle.copy_from_cpu(x)
        predictor.run()
        return output.copy_to_cpu()

    result = run()  # the warm-up run, whose output is compared
    return created, best_ms(run, runs, warmup=False), rss, resident_mb(), result


def torch_ms(runs):
    import torch
    import vision_models
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "2")))
    model = vision_models.resnet(vision_models.TorchLayers(), 50).eval()
    x = torch.rand(1, 3, 224, 224)
    with torch.no_grad():
        return best_ms(lambda: model(x), runs)


def worker(args):
    """Runs one measurement in this process and prints it as JSON."""
    if args.worker == "torch":
        print(json.dumps({"run_ms": torch_ms(args.runs)}))
        return
    created, best, rss, rss_run, result = predictor_times(args.prefix, args.runs,
                                                          args.worker == "ir_on")
    import numpy as np
    np.save(args.prefix + f".{args.tag}.out.npy", result)
    print(json.dumps({"create_s": created, "run_ms": best, "rss_mb": rss,
                      "rss_after_runs_mb": rss_run}))


def measure(python, worker_name, prefix, runs, tag):
    """The JSON of this script's --worker `worker_name` run under `python`."""
    return run_script(python, __file__, "--worker", worker_name, "--prefix", prefix,
                      "--runs", runs, "--tag", tag)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(HERE, "results", "inference.json"))
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--worker", choices=["ir_on", "ir_off", "torch"])
    parser.add_argument("--prefix")
    parser.add_argument("--tag", default="")
    args = parser.parse_args()
    sys.path.insert(0, HERE)
    if args.worker:
        return worker(args)

    import numpy as np
    folder = tempfile.mkdtemp(prefix="inference_bench_")
    prefix = os.path.join(folder, "resnet50")
    subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {HERE!r}); "
                    f"import inference_bench; inference_bench.save_model({prefix!r})"],
                   check=True, cwd="/")
    results = {"ours, IR optim on": measure(sys.executable, "ir_on", prefix, args.runs, "on"),
               "ours, IR optim off": measure(sys.executable, "ir_off", prefix, args.runs, "off")}
    references = reference_pythons(torch=True)
    if "paddle" in references:
        results["PaddlePaddle predictor, IR optim on"] = measure(
            references["paddle"], "ir_on", prefix, args.runs, "paddle")
    if "torch" in references:
        results["PyTorch eager, no_grad"] = measure(references["torch"], "torch", prefix,
                                                    args.runs, "t")
    reference_out = np.load(prefix + ".off.out.npy")
    compared = (("on", "ours, IR optim on"), ("paddle", "PaddlePaddle predictor, IR optim on"))
    for tag, name in compared:
        if os.path.exists(prefix + f".{tag}.out.npy") and name in results:
            got = np.load(prefix + f".{tag}.out.npy")
            results[name]["max_rel_diff_vs_ir_off"] = float(
                np.abs(got - reference_out).max() / max(np.abs(reference_out).max(), 1e-30))

    flop = 2 * 4.1e9
    print(f"ResNet-50, batch 1, float32, {os.environ.get('OMP_NUM_THREADS', '2')} threads "
          f"(physical limit {flop / PEAK_GFLOPS / 1e6:.0f} ms at {PEAK_GFLOPS:.0f} GFLOP/s)")
    print(f"{'':40} {'run ms':>8} {'create s':>9} {'RSS MB':>8} {'after run':>9} "
          f"{'of peak':>8} {'vs IR off':>10}")
    for name, r in results.items():
        create = f"{r['create_s']:.2f}" if "create_s" in r else "-"
        rss = f"{r['rss_mb']:.0f}" if "rss_mb" in r else "-"
        rss_run = f"{r['rss_after_runs_mb']:.0f}" if "rss_after_runs_mb" in r else "-"
        peak = flop / (r["run_ms"] / 1e3) / 1e9 / PEAK_GFLOPS
        diff = (f"{r['max_rel_diff_vs_ir_off']:.1e}" if "max_rel_diff_vs_ir_off" in r
                else "-")
        print(f"{name:40} {r['run_ms']:8.1f} {create:>9} {rss:>8} {rss_run:>9} {peak:8.0%} "
              f"{diff:>10}")
    write_results(args.out, results)


if __name__ == "__main__":
    main()
