"""Benchmark workloads written against the paddle API, so the same code runs on this framework
and on PaddlePaddle (in another interpreter), plus PyTorch equivalents.

Run directly, it times every workload with whatever `paddle` it imports and prints JSON:
    python benchmarks/workloads.py [--filter NAME]
"""
import argparse
import json
import os
import sys
import time

import numpy as np


def best_time(fn, iterations, repeats=5):
    """Seconds per call: the best of `repeats` runs of `iterations` calls (the VM is noisy)."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(iterations):
            fn()
        best = min(best, (time.perf_counter() - start) / iterations)
    return best


def paddle_workloads():
    import paddle
    one_a = paddle.to_tensor([1.0])
    one_b = paddle.to_tensor([2.0])
    grad_a = paddle.to_tensor([1.0], stop_gradient=False)
    m11_a = paddle.to_tensor([[1.0]])
    m11_b = paddle.to_tensor([[2.0]])
    relu_in = paddle.to_tensor([-1.0])
    n = 1024
    big_a = paddle.to_tensor(np.random.rand(n, n).astype(np.float32))
    big_b = paddle.to_tensor(np.random.rand(n, n).astype(np.float32))

    paddle.seed(0)
    model = paddle.nn.Sequential(paddle.nn.Linear(784, 256), paddle.nn.ReLU(),
                                 paddle.nn.Linear(256, 10))
    opt = paddle.optimizer.Adam(learning_rate=1e-3, parameters=model.parameters())
    x = paddle.to_tensor(np.random.rand(64, 784).astype(np.float32))
    y = paddle.to_tensor(np.random.randint(0, 10, (64, 1)).astype(np.int64))

    def train_step():
        loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()

    def chain_eager(h):
        for _ in range(1000):
            h = paddle.scale(h, 1.0, 0.0)
        return h

    def matmul_big():
        paddle.matmul(big_a, big_b).numpy()  # numpy(): wait for the result

    return {
        "add_1elem_us": (lambda: paddle.add(one_a, one_b), 20000, 1e6),
        "add_1elem_grad_us": (lambda: paddle.add(grad_a, one_b), 20000, 1e6),
        "matmul_1x1_us": (lambda: paddle.matmul(m11_a, m11_b), 20000, 1e6),
        "relu_1elem_us": (lambda: paddle.nn.functional.relu(relu_in), 20000, 1e6),
        "matmul_1024_gflops": (matmul_big, 10, 2 * n ** 3 / 1e9),
        "mlp_train_step_ms": (train_step, 50, 1e3),
        # The same 1,000-op chain as static_1000_tiny_ops_us_per_op, run eagerly.
        "dygraph_1000_tiny_ops_us_per_op": (lambda: chain_eager(one_a), 200, 1e6 / 1000),
        # 16.8M draws from the CPU generator (the polar method, one mt19937_64 stream).
        "randn_4096x4096_ms": (lambda: paddle.randn([4096, 4096]).numpy(), 3, 1e3),
    }


def paddle_static_workloads():
    """Static-graph workloads; they switch paddle to static mode for good, so they run last."""
    import paddle
    paddle.enable_static()

    chain = paddle.static.Program()
    with paddle.static.program_guard(chain, paddle.static.Program()):
        h = paddle.static.data("x", [1], "float32")
        for _ in range(1000):
            h = paddle.scale(h, 1.0, 0.0)
    chain_exe = paddle.static.Executor(paddle.CPUPlace())
    one = np.ones(1, np.float32)

    paddle.seed(0)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [64, 784], "float32")
        y = paddle.static.data("y", [64, 1], "int64")
        model = paddle.nn.Sequential(paddle.nn.Linear(784, 256), paddle.nn.ReLU(),
                                     paddle.nn.Linear(256, 10))
        loss = paddle.nn.functional.cross_entropy(model(x), y)
        paddle.optimizer.Adam(learning_rate=1e-3).minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    feed = {"x": np.random.rand(64, 784).astype(np.float32),
            "y": np.random.randint(0, 10, (64, 1)).astype(np.int64)}

    return {
        # 1,000 one-element scale ops: per op, kernel included.
        "static_1000_tiny_ops_us_per_op": (
            lambda: chain_exe.run(chain, feed={"x": one}, fetch_list=[h]), 200, 1e6 / 1000),
        "static_mlp_train_step_ms": (lambda: exe.run(main, feed=feed, fetch_list=[loss]), 50,
                                     1e3),
    }


def torch_workloads():
    import torch
    torch.set_num_threads(2)
    one_a, one_b = torch.tensor([1.0]), torch.tensor([2.0])
    grad_a = torch.tensor([1.0], requires_grad=True)
    m11_a, m11_b = torch.tensor([[1.0]]), torch.tensor([[2.0]])
    relu_in = torch.tensor([-1.0])
    n = 1024
    big_a, big_b = torch.rand(n, n), torch.rand(n, n)
    model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.rand(64, 784)
    y = torch.randint(0, 10, (64,))

    def train_step():
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()

    return {
        "add_1elem_us": (lambda: torch.add(one_a, one_b), 20000, 1e6),
        "add_1elem_grad_us": (lambda: torch.add(grad_a, one_b), 20000, 1e6),
        "matmul_1x1_us": (lambda: torch.matmul(m11_a, m11_b), 20000, 1e6),
        "relu_1elem_us": (lambda: torch.relu(relu_in), 20000, 1e6),
        "matmul_1024_gflops": (lambda: torch.matmul(big_a, big_b), 10, 2 * n ** 3 / 1e9),
        "mlp_train_step_ms": (train_step, 50, 1e3),
        "randn_4096x4096_ms": (lambda: torch.randn(4096, 4096), 3, 1e3),
    }


# The CNN workloads of the vision op set (benchmarks/vision_models.py): name -> (model, batch,
# image size, training). Training steps use Adam and cross-entropy; inference runs in eval mode
# without gradients.
VISION = {
    "lenet_train_step_ms": ("lenet", 64, 28, True),
    "resnet18_train_step_ms": ("resnet18", 16, 112, True),
    "resnet50_infer_ms": ("resnet50", 1, 224, False),
}
VISION_ITERATIONS = {"lenet": 30, "resnet18": 3, "resnet50": 5}


def _wanted(names, name_filter):
    return [n for n in names if not name_filter or name_filter in n]


def paddle_vision_workloads(name_filter=None):
    import paddle
    import vision_models
    paddle.seed(0)
    layers = vision_models.PaddleLayers()
    workloads = {}
    for name in _wanted(VISION, name_filter):
        kind, batch, size, training = VISION[name]
        channels = 1 if kind == "lenet" else 3
        classes = 10 if kind == "lenet" else 1000
        model = (vision_models.lenet(layers) if kind == "lenet"
                 else vision_models.resnet(layers, int(kind[6:])))
        x = paddle.to_tensor(np.random.rand(batch, channels, size, size).astype(np.float32))
        y = paddle.to_tensor(np.random.randint(0, classes, (batch, 1)).astype(np.int64))
        if training:
            opt = paddle.optimizer.Adam(learning_rate=1e-3, parameters=model.parameters())

            def step(model=model, opt=opt, x=x, y=y):
                loss = paddle.nn.functional.cross_entropy(model(x), y)
                loss.backward()
                opt.step()
                opt.clear_grad()
        else:
            model.eval()

            def step(model=model, x=x):
                with paddle.no_grad():
                    model(x).numpy()
        workloads[name] = (step, VISION_ITERATIONS[kind], 1e3)
    return workloads


def torch_vision_workloads(name_filter=None):
    import torch
    import vision_models
    torch.manual_seed(0)
    layers = vision_models.TorchLayers()
    workloads = {}
    for name in _wanted(VISION, name_filter):
        kind, batch, size, training = VISION[name]
        channels = 1 if kind == "lenet" else 3
        classes = 10 if kind == "lenet" else 1000
        model = (vision_models.lenet(layers) if kind == "lenet"
                 else vision_models.resnet(layers, int(kind[6:])))
        x = torch.rand(batch, channels, size, size)
        y = torch.randint(0, classes, (batch,))
        if training:
            opt = torch.optim.Adam(model.parameters(), lr=1e-3)

            def step(model=model, opt=opt, x=x, y=y):
                loss = torch.nn.functional.cross_entropy(model(x), y)
                loss.backward()
                opt.step()
                opt.zero_grad()
        else:
            model.eval()

            def step(model=model, x=x):
                with torch.no_grad():
                    model(x)
        workloads[name] = (step, VISION_ITERATIONS[kind], 1e3)
    return workloads


# The Transformer workloads (benchmarks/transformer_models.py): name -> (builder per framework,
# iterations).
TRANSFORMER = {
    "bert_mini_train_step_ms": ({"paddle": "paddle_bert_step", "torch": "torch_bert_step"}, 5),
    "sdpa_512_fwd_gflops": ({"paddle": "paddle_sdpa_forward", "torch": "torch_sdpa_forward"}, 10),
}


def transformer_workloads(framework, name_filter=None):
    import transformer_models
    workloads = {}
    for name in _wanted(TRANSFORMER, name_filter):
        builders, iterations = TRANSFORMER[name]
        fn = getattr(transformer_models, builders[framework])()
        scale = transformer_models.sdpa_gflop() if name.endswith("gflops") else 1e3
        workloads[name] = (fn, iterations, scale)
    return workloads


MEMORY_WORKLOAD = "resnet18_step_peak_mb"


def resnet18_step_memory(framework):
    """Peak memory of ResNet-18 training steps: the growth of the process's peak RSS over the
    steps (comparable across frameworks), and the CPU allocator's high-water mark where the
    framework keeps one (this framework; PyTorch's CPU allocator keeps no statistics)."""
    import resource
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    build = paddle_vision_workloads if framework == "paddle" else torch_vision_workloads
    step = build("resnet18_train_step_ms")["resnet18_train_step_ms"][0]
    allocator = None
    if framework == "paddle":
        import paddle
        libpaddle = paddle.base.libpaddle
        if hasattr(libpaddle, "_max_memory_allocated"):
            allocator = libpaddle
            libpaddle._reset_max_memory_allocated(paddle.CPUPlace())
    for _ in range(2):
        step()
    results = {"resnet18_step_rss_growth_mb":
               (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) / 1024}
    if allocator is not None:
        results[MEMORY_WORKLOAD] = allocator._max_memory_allocated(paddle.CPUPlace()) / 2 ** 20
    return results


def measure(workloads, name_filter=None):
    results = {}
    for name, (fn, iterations, scale) in workloads.items():
        if name_filter and name_filter not in name:
            continue
        seconds = best_time(fn, iterations)
        # Throughput entries (GFLOP/s) divide the work by the time; latency entries scale it.
        results[name] = scale / seconds if name.endswith("gflops") else seconds * scale
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--framework", choices=["paddle", "torch"], default="paddle")
    parser.add_argument("--filter")
    args = parser.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    if args.filter == MEMORY_WORKLOAD:  # alone in its process: it reads the process's peak RSS
        results = resnet18_step_memory(args.framework)
    elif args.framework == "paddle":
        results = measure(paddle_workloads(), args.filter)
        results.update(measure(paddle_vision_workloads(args.filter), args.filter))
    else:
        results = measure(torch_workloads(), args.filter)
        results.update(measure(torch_vision_workloads(args.filter), args.filter))
    results.update(measure(transformer_workloads(args.framework, args.filter), args.filter))
    if args.framework == "paddle":
        results.update(measure(paddle_static_workloads(), args.filter))
    module = __import__(args.framework)
    results["version"] = f"{module.__version__} ({os.path.dirname(module.__file__)})"
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
