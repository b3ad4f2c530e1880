"""Loads and serves corrupted model and checkpoint files for a time budget, each in a worker
process.

    python3 tools/fuzz_model_files.py --seconds 60 [--seed 0] [--out model-fuzz-failures]

It writes a small inference model (paddle.static.save_inference_model: .pdmodel, .pdiparams)
and a state dict (paddle.save: .pdparams), then, again and again, corrupts one of them (a
truncation, flipped bytes, a span overwritten with random bytes or repeated, extreme length
fields, an empty file) and loads it: paddle.static.load_inference_model followed by running the
loaded program on a feed, or a paddle.inference predictor created from the files and run on it,
or paddle.load. A load must return or raise a typed error (see
tools/hostile_cases.py); one that kills its worker, hangs or raises anything else is kept in --out
with its corrupted files and a reproducer script, and the run exits with status 1.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_cases  # noqa: E402

WRITE_FILES = r'''
import os, sys
import numpy as np
import paddle
directory = sys.argv[1]
paddle.enable_static()
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    x = paddle.static.data("x", [None, 4], "float32")
    hidden = paddle.static.nn.fc(x, 8, activation="relu")
    out = paddle.nn.functional.softmax(paddle.static.nn.fc(hidden, 3))
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
paddle.static.save_inference_model(os.path.join(directory, "model"), [x], [out], exe, program=main)
paddle.disable_static()
paddle.save({"weight": paddle.randn([4, 3]), "step": 7}, os.path.join(directory, "state.pdparams"))
'''

# Loads the model with the prefix and runs it on a [2, 4] feed.
SERVE = ("(lambda loaded, exe: exe.run(loaded[0], feed={{loaded[1][0]: np.ones([2, 4], 'float32')}}, "
         "fetch_list=loaded[2]))(paddle.static.load_inference_model({prefix!r}, "
         "paddle.static.Executor(paddle.CPUPlace())), paddle.static.Executor(paddle.CPUPlace()))")
# The same through paddle.inference (libpaddle_inference's Predictor).
PREDICT = ("(lambda p: (p.get_input_handle(p.get_input_names()[0]).copy_from_cpu("
           "np.ones([2, 4], 'float32')), p.run(), p.get_output_handle(p.get_output_names()[0])"
           ".copy_to_cpu()))(paddle.inference.create_predictor(paddle.inference.Config("
           "{prefix!r} + '.pdmodel', {prefix!r} + '.pdiparams')))")
LOAD_STATE = "paddle.load({path!r})"


def corrupt(data, rng):
    """`data` with one random corruption."""
    data = bytearray(data)
    kind = rng.choice(("truncate", "flip", "overwrite", "repeat", "extreme", "empty"))
    if kind == "empty" or not data:
        return b""
    if kind == "truncate":
        return bytes(data[:rng.randrange(len(data))])
    if kind == "flip":
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        return bytes(data)
    start = rng.randrange(len(data))
    length = rng.randint(1, 16)
    if kind == "overwrite":
        data[start:start + length] = bytes(rng.randrange(256) for _ in range(length))
    elif kind == "repeat":
        data[start:start] = data[start:start + length] * rng.randint(1, 4)
    else:  # varint and length bytes at their extremes (protobuf lengths, pickle sizes)
        data[start:start + length] = rng.choice((b"\xff", b"\x80", b"\x7f", b"\x00")) * length
    return bytes(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="model-fuzz-failures")
    parser.add_argument("--timeout", type=float, default=20.0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="model-fuzz-")
    subprocess.run([sys.executable, "-c", WRITE_FILES, work], check=True, cwd="/")
    originals = {name: open(os.path.join(work, name), "rb").read()
                 for name in ("model.pdmodel", "model.pdiparams", "state.pdparams")}
    runner = hostile_cases.Runner(timeout=args.timeout)
    deadline = time.monotonic() + args.seconds
    loads, failures = 0, []
    try:
        while time.monotonic() < deadline:
            case_dir = os.path.join(work, f"case{loads}")
            os.makedirs(case_dir)
            target = rng.choice(sorted(originals))
            for name, data in originals.items():
                with open(os.path.join(case_dir, name), "wb") as f:
                    f.write(corrupt(data, rng) if name == target else data)
            if target == "state.pdparams":
                source = LOAD_STATE.format(path=os.path.join(case_dir, target))
            else:
                serve = rng.choice((SERVE, PREDICT))
                source = serve.format(prefix=os.path.join(case_dir, "model"))
            outcome, detail = runner.run({"source": source})
            loads += 1
            if hostile_cases.is_failure(outcome):
                kept = os.path.join(args.out, f"case_{args.seed}_{loads}")
                shutil.copytree(case_dir, kept)
                kept_source = source.replace(case_dir, kept)
                with open(os.path.join(kept, "repro.py"), "w") as f:
                    f.write(hostile_cases.reproducer({"source": kept_source},
                                                     f"{outcome}: {detail.splitlines()[0]}"))
                failures.append((outcome, target, detail, kept))
            shutil.rmtree(case_dir)
    finally:
        runner.close()
        shutil.rmtree(work, ignore_errors=True)
    print(f"fuzz_model_files: {loads} loads of corrupted files in {args.seconds:.0f} s "
          f"(seed {args.seed}): {len(failures)} failures")
    for outcome, target, detail, kept in failures:
        print(f"  {outcome}: corrupted {target}\n    {detail.splitlines()[0]}\n    -> {kept}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
