"""How libgomp's barrier spin count behaves when other processes compete for the cores.

    python benchmarks/openmp_contention_bench.py [--steps 200] [--busy 4] [--out FILE]

A LeNet training step (batch 64, Adam) runs on OMP_NUM_THREADS threads (default 2), first on
the machine as it is, then beside --busy processes that spin in a Python loop (what DataLoader
workers or a parallel build do to a small machine). Each spin setting runs in its own process,
because libgomp reads GOMP_SPINCOUNT and OMP_WAIT_POLICY once, when it is loaded. "ours" is what
`import paddle` picks when the user sets neither. Prints a table and writes JSON.
"""
import argparse
import os
import subprocess
import sys

from bench_common import write_results

HERE = os.path.dirname(os.path.abspath(__file__))

SETTINGS = {
    "libgomp default (300000 spins)": {"GOMP_SPINCOUNT": "300000"},
    "10000 spins": {"GOMP_SPINCOUNT": "10000"},
    "ours (5000 spins)": {},
    "OMP_WAIT_POLICY=passive": {"OMP_WAIT_POLICY": "passive"},
}

STEP_SCRIPT = """
import sys, time
import paddle
from paddle.vision.models import LeNet
paddle.seed(0)
net = LeNet()
opt = paddle.optimizer.Adam(parameters=net.parameters())
x = paddle.randn([64, 1, 28, 28])
y = paddle.randint(0, 10, [64, 1])

def step():
    loss = paddle.nn.functional.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    opt.clear_grad()

for _ in range(5):
    step()
steps = int(sys.argv[1])
start = time.perf_counter()
for _ in range(steps):
    step()
print(1000 * (time.perf_counter() - start) / steps)
"""


def step_ms(setting_env, steps):
    env = {k: v for k, v in os.environ.items() if k not in ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY")}
    env.setdefault("OMP_NUM_THREADS", "2")
    env.update(setting_env)
    out = subprocess.run([sys.executable, "-c", STEP_SCRIPT, str(steps)], env=env, check=True,
                         capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


def measure(steps, busy):
    results = {}
    for name, setting_env in SETTINGS.items():
        results[name] = {"idle_ms": step_ms(setting_env, steps)}
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(busy)]
    try:
        for name, setting_env in SETTINGS.items():
            # Fewer steps under load: a step can take 50x longer there.
            results[name]["busy_ms"] = step_ms(setting_env, max(steps // 10, 10))
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--busy", type=int, default=4)
    parser.add_argument("--out", default=os.path.join(HERE, "results", "openmp_contention.json"))
    args = parser.parse_args()
    results = measure(args.steps, args.busy)
    print(f"LeNet training step, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '2')}")
    print(f"{'setting':<32} {'idle':>10} {f'beside {args.busy} busy':>18}")
    for name, row in results.items():
        print(f"{name:<32} {row['idle_ms']:>7.2f} ms {row['busy_ms']:>15.2f} ms")
    write_results(args.out, results, busy_processes=args.busy)


if __name__ == "__main__":
    main()
