"""Calls random ops with random hostile arguments for a time budget, each in a worker process.

    python3 tools/fuzz_ops.py --seconds 60 [--seed 0] [--out fuzz-failures] [--workers 2]

Every op of the installed package is called through paddle._C_ops with arguments from
tools/hostile_cases.py (zero-size and 0-D tensors, extreme integers, NaN and inf, every dtype,
wrong Python types, huge or negative sizes, axes and indices), and every public function of
paddle and paddle.nn.functional with random values of any type. A call must return or raise a
typed error; a call that kills its worker, hangs, raises an internal or untyped error is written
to --out as a standalone reproducer script, and the run exits with status 1. The seed fixes the
sequence of cases, so a CI run is repeatable.
"""
import argparse
import concurrent.futures
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_cases  # noqa: E402


def fuzz(seed, deadline, ops, functions, out_dir, timeout):
    rng = random.Random(seed)
    runner = hostile_cases.Runner(timeout=timeout)
    calls, failures = 0, []
    try:
        while time.monotonic() < deadline:
            if functions and rng.random() < 0.25:
                name, params = rng.choice(functions)
                case = hostile_cases.public_api_case(name, params, rng)
            else:
                op = rng.choice(ops)
                case = hostile_cases.random_case(op, hostile_cases.op_api(op), rng)
            outcome, detail = runner.run(case)
            calls += 1
            if hostile_cases.is_failure(outcome):
                path = os.path.join(out_dir, f"repro_{seed}_{calls}.py")
                summary = f"{outcome}: {detail.splitlines()[0]}" if detail else outcome
                with open(path, "w") as f:
                    f.write(hostile_cases.reproducer(case, summary))
                failures.append((outcome, hostile_cases.call_source(case), detail, path))
    finally:
        runner.close()
    return calls, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, required=True, help="the time budget")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2, help="worker processes in parallel")
    parser.add_argument("--out", default="fuzz-failures", help="where reproducers are written")
    parser.add_argument("--timeout", type=float, default=20.0,
                        help="seconds a call may take before it counts as a hang")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    manifest = hostile_cases.load_manifest()
    ops = [op for op in manifest if hostile_cases.op_api(op)]
    functions = hostile_cases.public_functions()
    deadline = time.monotonic() + args.seconds
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(args.workers) as pool:
        futures = [pool.submit(fuzz, args.seed * 1000 + k, deadline, ops, functions, args.out,
                               args.timeout) for k in range(args.workers)]
        results = [f.result() for f in futures]
    calls = sum(r[0] for r in results)
    failures = [f for r in results for f in r[1]]
    elapsed = time.monotonic() - start
    print(f"fuzz_ops: {calls} calls of {len(ops)} ops and {len(functions)} public functions in "
          f"{elapsed:.0f} s (seed {args.seed}, {args.workers} workers): {len(failures)} failures")
    for outcome, call, detail, path in failures:
        print(f"  {outcome}: {call}\n    {detail.splitlines()[0] if detail else ''}\n    -> {path}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
