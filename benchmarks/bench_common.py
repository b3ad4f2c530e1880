"""What the benchmark scripts share: the timing loop, running a script again under another
interpreter, finding the reference frameworks' interpreters, the tables and the results JSON.

Every framework runs in a process of its own because PaddlePaddle is imported as `paddle` too: a
script runs itself again with a flag that makes it measure one framework and print the result as
JSON on its last stdout line (`run_script` reads it back).
"""
import datetime
import importlib
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time


def best_wall_and_cpu_ms(fn, repeats, warmup=True):
    """(best wall-clock ms, best CPU ms) of `repeats` calls of fn.

    The best, not the mean, because the machine is shared and other work only ever adds time. The
    process's CPU time (all its threads) is disturbed less by that work than the wall clock. The
    warm-up call, untimed, pays for first-call costs (kernel selection, allocator growth); pass
    warmup=False where each call is a whole run whose start-up belongs in the time."""
    if warmup:
        fn()
    wall = cpu = float("inf")
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall * 1e3, cpu * 1e3


def best_ms(fn, repeats=10, warmup=True):
    """The best wall-clock ms of `repeats` calls of fn (see best_wall_and_cpu_ms)."""
    return best_wall_and_cpu_ms(fn, repeats, warmup)[0]


def reference_pythons(torch=False):
    """{"paddle": interpreter, "torch": interpreter} of the reference frameworks available:
    PaddlePaddle in PADDLE_REFERENCE_PYTHON; with torch=True, PyTorch in TORCH_PYTHON, else in
    this interpreter when it can import torch."""
    pythons = {}
    if os.environ.get("PADDLE_REFERENCE_PYTHON"):
        pythons["paddle"] = os.environ["PADDLE_REFERENCE_PYTHON"]
    if torch:
        if os.environ.get("TORCH_PYTHON"):
            pythons["torch"] = os.environ["TORCH_PYTHON"]
        elif importlib.util.find_spec("torch") is not None:
            pythons["torch"] = sys.executable
    return pythons


def compared_frameworks(torch=False):
    """{result name: (interpreter, module it measures)} of the usual comparison: "ours" (the
    paddle this interpreter imports), then "paddlepaddle" and "torch" where reference_pythons
    finds them."""
    runs = {"ours": (sys.executable, "paddle")}
    pythons = reference_pythons(torch)
    if "paddle" in pythons:
        runs["paddlepaddle"] = (pythons["paddle"], "paddle")
    if "torch" in pythons:
        runs["torch"] = (pythons["torch"], "torch")
    return runs


def run_script(python, script, *args):
    """Runs `python script args...` and returns the JSON object on the last line of its stdout.

    The child starts in / so that `import paddle` finds the installed package, not a source
    folder in the working directory. An interpreter other than this one loses PYTHONPATH, which
    would make it import this checkout's paddle instead of its own. OMP_NUM_THREADS defaults to 2
    so that every framework gets the same number of threads."""
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "2")
    if python != sys.executable:
        env.pop("PYTHONPATH", None)
    command = [python, os.path.abspath(script), *map(str, args)]
    child = subprocess.run(command, capture_output=True, text=True, env=env, cwd="/")
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{child.stderr[-2000:]}")
    return json.loads(child.stdout.strip().splitlines()[-1])


def module_version(name):
    """"version (folder)" of an imported module, so that a result names the build it measured."""
    module = importlib.import_module(name)
    return f"{module.__version__} ({os.path.dirname(module.__file__)})"


def report_versions(results):
    """Moves the "version" entry out of each framework's results ({framework: {...}}), prints
    the versions on one line and returns them as {framework: version}."""
    versions = {name: result.pop("version") for name, result in results.items()}
    print("versions: " + ", ".join(f"{name} {version}" for name, version in versions.items()))
    return versions


def with_ratio(theirs, ours):
    """A time and how many times ours it is: > 1x means we are faster."""
    return f"{theirs:.2f} ({theirs / ours:.2f}x)"


def wall_and_cpu_rows(results, extra_cells=None):
    """Table rows of best_wall_and_cpu_ms times ({framework: {workload: (wall, cpu)}}), a
    wall-clock and a CPU row per workload of "ours": ours, then each other framework's time with
    its ratio to ours ("-" where it lacks the workload), then extra_cells(workload, our ms)."""
    others = [framework for framework in results if framework != "ours"]
    rows = []
    for name, times in results["ours"].items():
        for clock, index in (("wall", 0), ("cpu", 1)):
            ours = times[index]
            row = [f"{name} ({clock})", f"{ours:.2f}"]
            row += [with_ratio(results[other][name][index], ours) if name in results[other]
                    else "-" for other in others]
            rows.append(row + (extra_cells(name, ours) if extra_cells else []))
    return rows


def print_table(header, rows):
    """Prints the header and rows (lists of strings), each column as wide as its widest cell."""
    widths = [max(len(row[i]) for row in [header] + rows) for i in range(len(header))]
    for row in [header] + rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)))


def print_side_by_side(title, results, names, label_width, cell_width=10, decimals=2):
    """Prints `title` over one column per framework of `results` ({framework: {name: value}}),
    then a line per name of `names`: the name in `label_width` characters, then each framework's
    value in `cell_width`, with `decimals` decimals, or n/a where it has none."""
    print(title.ljust(label_width) + "".join(framework.rjust(cell_width) for framework in results))
    for name in names:
        values = [result.get(name) for result in results.values()]
        print(name.ljust(label_width) + "".join(
            "n/a".rjust(cell_width) if value is None else f"{value:{cell_width}.{decimals}f}"
            for value in values))


def write_json(path, data):
    """Writes data to path as JSON, making its folder if needed, and says so."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
    print(f"wrote {path}")


def write_results(path, results, **fields):
    """Writes results with what makes runs of different sessions comparable: when, on what
    processor and how many cores, then `fields` (the run's settings, versions)."""
    write_json(path, {"date": datetime.datetime.now().isoformat(timespec="seconds"),
                      "machine": platform.processor() or platform.machine(),
                      "cpus": os.cpu_count(), **fields, "results": results})
