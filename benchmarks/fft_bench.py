"""FFT benchmark: paddle.fft.fft of 2^20 complex64 points (and its inverse, rfft of 2^20
float32 points and irfft back to them), and paddle.signal.stft of 60 s of 16 kHz audio with
speech settings (n_fft 512, hop 160, win 400, Hann window), forward and forward + backward, on
this framework, PaddlePaddle (PADDLE_REFERENCE_PYTHON) and NumPy (numpy.fft, pocketfft; stft by
framing with stride tricks), side by side, then a table and JSON.

    OMP_NUM_THREADS=2 python benchmarks/fft_bench.py [--out results/fft.json] [--repeats 10]

Times are the best of --repeats runs, in milliseconds: wall-clock time, and the process's CPU
time (all its threads), which a machine shared with other work disturbs less. Each framework
runs in its own process (PaddlePaddle is imported as `paddle` too), with OMP_NUM_THREADS threads
(default 2).
"""
import argparse
import json
import os
import sys

import numpy as np

from bench_common import (best_wall_and_cpu_ms, compared_frameworks, module_version, print_table,
                          report_versions, run_script, wall_and_cpu_rows, write_results)

HERE = os.path.dirname(os.path.abspath(__file__))
POINTS = 1 << 20
SAMPLE_RATE, SECONDS = 16000, 60
N_FFT, HOP, WIN = 512, 160, 400


def inputs():
    rng = np.random.default_rng(0)
    signal = (rng.standard_normal(POINTS) + 1j * rng.standard_normal(POINTS)).astype(np.complex64)
    real = rng.standard_normal(POINTS).astype(np.float32)
    half = np.fft.rfft(real).astype(np.complex64)
    audio = rng.standard_normal((1, SAMPLE_RATE * SECONDS)).astype(np.float32)
    # The periodic Hann window of WIN points.
    window = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(WIN) / WIN)).astype(np.float32)
    return signal, real, half, audio, window


def paddle_cases():
    import paddle
    signal, real, half, audio, window = (paddle.to_tensor(a) for a in inputs())
    audio_grad = paddle.to_tensor(audio.numpy(), stop_gradient=False)

    def stft(x):
        return paddle.signal.stft(x, N_FFT, HOP, WIN, window=window)

    def stft_train():
        paddle.abs(stft(audio_grad)).sum().backward()
        audio_grad.clear_gradient()

    return {"fft 2^20 complex64": lambda: paddle.fft.fft(signal).numpy(),
            "ifft 2^20 complex64": lambda: paddle.fft.ifft(signal).numpy(),
            "rfft 2^20 float32": lambda: paddle.fft.rfft(real).numpy(),
            "irfft to 2^20 float32": lambda: paddle.fft.irfft(half).numpy(),
            "stft 60 s 16 kHz": lambda: stft(audio).numpy(),
            "stft 60 s 16 kHz forward+backward": stft_train}


def numpy_cases():
    signal, real, half, audio, window = inputs()
    padded_window = np.pad(window, ((N_FFT - WIN) // 2, N_FFT - WIN - (N_FFT - WIN) // 2))

    def stft(x):
        x = np.pad(x, [(0, 0), (N_FFT // 2, N_FFT // 2)], mode="reflect")
        frames = np.lib.stride_tricks.sliding_window_view(x, N_FFT, axis=-1)[:, ::HOP]
        return np.fft.rfft(frames * padded_window, axis=-1).transpose(0, 2, 1)

    return {"fft 2^20 complex64": lambda: np.fft.fft(signal),
            "ifft 2^20 complex64": lambda: np.fft.ifft(signal),
            "rfft 2^20 float32": lambda: np.fft.rfft(real),
            "irfft to 2^20 float32": lambda: np.fft.irfft(half),
            "stft 60 s 16 kHz": lambda: stft(audio)}


def measure(framework, repeats):
    cases = paddle_cases() if framework == "paddle" else numpy_cases()
    results = {name: best_wall_and_cpu_ms(fn, repeats) for name, fn in cases.items()}
    results["version"] = module_version(framework)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--framework", choices=["paddle", "numpy"])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--out", default=os.path.join(HERE, "results", "fft.json"))
    args = parser.parse_args()
    if args.framework:  # one framework, in this process: print its JSON
        print(json.dumps(measure(args.framework, args.repeats)))
        return
    runs = compared_frameworks()
    runs["numpy"] = (sys.executable, "numpy")
    results = {name: run_script(python, __file__, "--framework", framework,
                                "--repeats", args.repeats)
               for name, (python, framework) in runs.items()}
    versions = report_versions(results)
    print(f"stft: n_fft {N_FFT}, hop {HOP}, win {WIN} (Hann), {SECONDS} s at {SAMPLE_RATE} Hz; "
          f"best of {args.repeats}, ms (ratio: their time / ours, > 1 means we are faster)")
    print_table(["workload"] + list(results), wall_and_cpu_rows(results))
    write_results(args.out, results, versions=versions)


if __name__ == "__main__":
    main()
