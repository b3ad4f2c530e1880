"""AMP benchmark: one training step (forward, backward, Adam update) of an MLP (batch 256,
1024 -> 2048 -> 2048 -> 1024 -> 10, ReLU, cross entropy) and of a VGG-style CNN (batch 64 of
3x32x32 images; 3x3 convolutions without bias 3 -> 32 -> 64 (stride 2) -> 128 (stride 2) ->
128, ReLU, global average pool, linear to 10) in float32 and in bfloat16 mixed
precision (auto_cast O1; O2 with decorate's bfloat16 parameters and float32 master weights),
with whatever `paddle` the interpreter imports, on PaddlePaddle when PADDLE_REFERENCE_PYTHON
names an interpreter that has it (its CPU auto_cast turns itself off with a warning, so its
"bf16" rows run float32), and on PyTorch (torch.autocast("cpu", torch.bfloat16); its O2 row is
the model cast to bfloat16) when TORCH_PYTHON names one. Prints a table and JSON; times are the
best of several steps, in milliseconds, with OMP_NUM_THREADS threads (default 2).

    python benchmarks/amp_bench.py [--out results/amp.json]

Measured 2026-11-26 on the 2-core AMD EPYC build machine (AVX512-BF16, no AMX), other processes
paused, OMP_NUM_THREADS=2, ms per step (ours / PaddlePaddle 3.3.1 / PyTorch 2.15):
    mlp fp32 78.0 / 872 / 97.5     bf16 O1 47.1 / 894 / 52.4     bf16 O2 50.2 / 852 / 38.2
    cnn fp32 54.5 / 590 / 45.2     bf16 O1 37.7 / 653 / 35.6     bf16 O2 38.3 / 647 / 35.2
"""
import argparse
import json
import os
import subprocess
import sys
import time
import warnings

import numpy as np

BATCH, SIZES, CLASSES = 256, (1024, 2048, 2048, 1024), 10
CNN_BATCH, IMAGE = 64, (3, 32, 32)
# (in, out, stride) of the CNN's 3x3 convolutions
CNN_CONVS = ((3, 32, 1), (32, 64, 2), (64, 128, 2), (128, 128, 1))


def best_ms(fn, repeats=8):
    fn()
    fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def _data():
    rng = np.random.default_rng(0)
    return (rng.standard_normal((BATCH, SIZES[0])).astype(np.float32),
            rng.integers(0, CLASSES, BATCH).astype(np.int64))


def _images():
    rng = np.random.default_rng(1)
    return (rng.standard_normal((CNN_BATCH,) + IMAGE).astype(np.float32),
            rng.integers(0, CLASSES, CNN_BATCH).astype(np.int64))


def measure_paddle():
    import paddle
    warnings.simplefilter("ignore")
    x_np, y_np = _data()
    x, y = paddle.to_tensor(x_np), paddle.to_tensor(y_np)

    def mlp():
        paddle.seed(0)
        layers = []
        for fan_in, fan_out in zip(SIZES, SIZES[1:]):
            layers += [paddle.nn.Linear(fan_in, fan_out), paddle.nn.ReLU()]
        return paddle.nn.Sequential(*layers, paddle.nn.Linear(SIZES[-1], CLASSES))

    def cnn():
        paddle.seed(0)
        layers = []
        for fan_in, fan_out, stride in CNN_CONVS:
            layers += [paddle.nn.Conv2D(fan_in, fan_out, 3, stride, 1, bias_attr=False),
                       paddle.nn.ReLU()]
        return paddle.nn.Sequential(*layers, paddle.nn.AdaptiveAvgPool2D(1),
                                    paddle.nn.Flatten(), paddle.nn.Linear(CNN_CONVS[-1][1],
                                                                          CLASSES))

    def step_fn(make, inputs, labels, level):
        model = make()
        opt = paddle.optimizer.Adam(1e-3, parameters=model.parameters())
        if level == "O2":
            model, opt = paddle.amp.decorate(model, opt, level="O2", dtype="bfloat16")

        def step():
            with paddle.amp.auto_cast(enable=level is not None, level=level or "O1",
                                      dtype="bfloat16"):
                logits = model(inputs)
            loss = paddle.nn.functional.cross_entropy(logits.astype("float32"), labels)
            loss.backward()
            opt.step()
            opt.clear_grad()
            float(loss)
        return step

    images, image_labels = (paddle.to_tensor(a) for a in _images())
    results = {}
    for name, make, inputs, labels in (("mlp", mlp, x, y), ("cnn", cnn, images, image_labels)):
        results[f"{name}_train_step_fp32_ms"] = best_ms(step_fn(make, inputs, labels, None))
        results[f"{name}_train_step_bf16_o1_ms"] = best_ms(step_fn(make, inputs, labels, "O1"))
        results[f"{name}_train_step_bf16_o2_ms"] = best_ms(step_fn(make, inputs, labels, "O2"))
    return results


def measure_torch():
    import torch
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "2")))
    x_np, y_np = _data()
    x, y = torch.from_numpy(x_np), torch.from_numpy(y_np)

    def mlp():
        torch.manual_seed(0)
        layers = []
        for fan_in, fan_out in zip(SIZES, SIZES[1:]):
            layers += [torch.nn.Linear(fan_in, fan_out), torch.nn.ReLU()]
        return torch.nn.Sequential(*layers, torch.nn.Linear(SIZES[-1], CLASSES))

    def cnn():
        torch.manual_seed(0)
        layers = []
        for fan_in, fan_out, stride in CNN_CONVS:
            layers += [torch.nn.Conv2d(fan_in, fan_out, 3, stride, 1, bias=False),
                       torch.nn.ReLU()]
        return torch.nn.Sequential(*layers, torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
                                   torch.nn.Linear(CNN_CONVS[-1][1], CLASSES))

    def step_fn(make, data, labels, mode):
        model = make()
        inputs = data
        if mode == "O2":
            model = model.to(torch.bfloat16)
            inputs = data.to(torch.bfloat16)
        opt = torch.optim.Adam(model.parameters(), 1e-3)

        def step():
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=mode == "O1"):
                logits = model(inputs)
            loss = torch.nn.functional.cross_entropy(logits.float(), labels)
            loss.backward()
            opt.step()
            opt.zero_grad()
            float(loss)
        return step

    images, image_labels = (torch.from_numpy(a) for a in _images())
    results = {}
    for name, make, data, labels in (("mlp", mlp, x, y), ("cnn", cnn, images, image_labels)):
        results[f"{name}_train_step_fp32_ms"] = best_ms(step_fn(make, data, labels, None))
        results[f"{name}_train_step_bf16_o1_ms"] = best_ms(step_fn(make, data, labels, "O1"))
        results[f"{name}_train_step_bf16_o2_ms"] = best_ms(step_fn(make, data, labels, "O2"))
    return results


def _run_other(python, framework):
    env = dict(os.environ, GLOG_minloglevel="2")
    env.pop("PYTHONPATH", None)
    out = subprocess.run([python, os.path.abspath(__file__), "--json-only", framework], env=env,
                         cwd="/", capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out")
    parser.add_argument("--json-only", choices=["paddle", "torch"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    if args.json_only:
        print(json.dumps(measure_torch() if args.json_only == "torch" else measure_paddle()))
        return
    results = {"ours": measure_paddle()}
    if os.environ.get("PADDLE_REFERENCE_PYTHON"):
        results["paddlepaddle"] = _run_other(os.environ["PADDLE_REFERENCE_PYTHON"], "paddle")
    if os.environ.get("TORCH_PYTHON"):
        results["pytorch"] = _run_other(os.environ["TORCH_PYTHON"], "torch")
    print(f"{'workload (ms per step)':32s}" + "".join(f"{k:>14s}" for k in results))
    for name in results["ours"]:
        print(f"{name:32s}" + "".join(f"{r[name]:14.2f}" for r in results.values()))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)
    print(json.dumps(results))


if __name__ == "__main__":
    sys.exit(main())
