"""FFT benchmark: paddle.fft.fft of 2^20 complex64 points (and its inverse, and rfft of 2^20
float32 points), and paddle.signal.stft of 60 s of 16 kHz audio with speech settings (n_fft 512,
hop 160, win 400, Hann window), forward and forward + backward, on this framework, PaddlePaddle
(PADDLE_REFERENCE_PYTHON) and NumPy (numpy.fft, pocketfft; stft by framing with stride tricks),
side by side, then a table and JSON.

    OMP_NUM_THREADS=2 python benchmarks/fft_bench.py [--out results/fft.json] [--repeats 10]

Times are the best of --repeats runs, in milliseconds: wall-clock time, and the process's CPU
time (all its threads), which a machine shared with other work disturbs less. Each framework
runs in its own process (PaddlePaddle is imported as `paddle` too), with OMP_NUM_THREADS threads
(default 2).
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
POINTS = 1 << 20
SAMPLE_RATE, SECONDS = 16000, 60
N_FFT, HOP, WIN = 512, 160, 400


def best_ms(fn, repeats):
    """(best wall-clock ms, best CPU ms) of `repeats` calls."""
    fn()
    wall = cpu = float("inf")
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall * 1e3, cpu * 1e3


def inputs():
    rng = np.random.default_rng(0)
    signal = (rng.standard_normal(POINTS) + 1j * rng.standard_normal(POINTS)).astype(np.complex64)
    real = rng.standard_normal(POINTS).astype(np.float32)
    audio = rng.standard_normal((1, SAMPLE_RATE * SECONDS)).astype(np.float32)
    # The periodic Hann window of WIN points.
    window = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(WIN) / WIN)).astype(np.float32)
    return signal, real, audio, window


def paddle_cases():
    import paddle
    signal, real, audio, window = (paddle.to_tensor(a) for a in inputs())
    audio_grad = paddle.to_tensor(audio.numpy(), stop_gradient=False)

    def stft(x):
        return paddle.signal.stft(x, N_FFT, HOP, WIN, window=window)

    def stft_train():
        paddle.abs(stft(audio_grad)).sum().backward()
        audio_grad.clear_gradient()

    return {"fft 2^20 complex64": lambda: paddle.fft.fft(signal).numpy(),
            "ifft 2^20 complex64": lambda: paddle.fft.ifft(signal).numpy(),
            "rfft 2^20 float32": lambda: paddle.fft.rfft(real).numpy(),
            "stft 60 s 16 kHz": lambda: stft(audio).numpy(),
            "stft 60 s 16 kHz forward+backward": stft_train}


def numpy_cases():
    signal, real, audio, window = inputs()
    padded_window = np.pad(window, ((N_FFT - WIN) // 2, N_FFT - WIN - (N_FFT - WIN) // 2))

    def stft(x):
        x = np.pad(x, [(0, 0), (N_FFT // 2, N_FFT // 2)], mode="reflect")
        frames = np.lib.stride_tricks.sliding_window_view(x, N_FFT, axis=-1)[:, ::HOP]
        return np.fft.rfft(frames * padded_window, axis=-1).transpose(0, 2, 1)

    return {"fft 2^20 complex64": lambda: np.fft.fft(signal),
            "ifft 2^20 complex64": lambda: np.fft.ifft(signal),
            "rfft 2^20 float32": lambda: np.fft.rfft(real),
            "stft 60 s 16 kHz": lambda: stft(audio)}


def measure(framework, repeats):
    cases = paddle_cases() if framework == "paddle" else numpy_cases()
    results = {name: best_ms(fn, repeats) for name, fn in cases.items()}
    module = __import__(framework)
    results["version"] = f"{module.__version__} ({os.path.dirname(module.__file__)})"
    return results


def run(python, framework, repeats, keep_pythonpath=True):
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2"))
    if not keep_pythonpath:  # the reference interpreter imports its own paddle
        env.pop("PYTHONPATH", None)
    out = subprocess.run([python, os.path.abspath(__file__), "--framework", framework,
                          "--repeats", str(repeats)],
                         check=True, capture_output=True, text=True, env=env, cwd="/")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--framework", choices=["paddle", "numpy"])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--out", default=os.path.join(HERE, "results", "fft.json"))
    args = parser.parse_args()
    if args.framework:  # one framework, in this process: print its JSON
        print(json.dumps(measure(args.framework, args.repeats)))
        return
    results = {"ours": run(sys.executable, "paddle", args.repeats)}
    reference = os.environ.get("PADDLE_REFERENCE_PYTHON")
    if reference:
        results["paddlepaddle"] = run(reference, "paddle", args.repeats, keep_pythonpath=False)
    results["numpy"] = run(sys.executable, "numpy", args.repeats)
    versions = {k: v.pop("version") for k, v in results.items()}
    print("versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    print(f"stft: n_fft {N_FFT}, hop {HOP}, win {WIN} (Hann), {SECONDS} s at {SAMPLE_RATE} Hz; "
          f"best of {args.repeats}, ms (ratio: their time / ours, > 1 means we are faster)")
    others = [k for k in results if k != "ours"]
    header = ["workload", "ours"] + others
    rows = []
    for name, (ours, ours_cpu) in results["ours"].items():
        for clock, index, mine in (("wall", 0, ours), ("cpu", 1, ours_cpu)):
            row = [f"{name} ({clock})", f"{mine:.2f}"]
            for o in others:
                theirs = results[o].get(name)
                row.append(f"{theirs[index]:.2f} ({theirs[index] / mine:.2f}x)" if theirs else "-")
            rows.append(row)
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    for r in [header] + rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"date": datetime.datetime.now().isoformat(timespec="seconds"),
                   "machine": platform.processor() or platform.machine(),
                   "cpus": os.cpu_count(), "versions": versions, "results": results}, f, indent=1)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
