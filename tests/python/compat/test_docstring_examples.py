"""Runs the docstring examples of the tier-1 API under PaddlePaddle and under this framework and
compares what they compute.

It runs when PADDLE_REFERENCE_PYTHON names an interpreter that has PaddlePaddle installed. The
tier-1 names are parsed from the API summary (PADDLE_API_SUMMARY, by default
/work/shared/reference/paddle-api-summary.md); their docstrings, and the `>>>` examples in them,
are read from the installed PaddlePaddle wheel while the test runs, so none of that text lives in
this repository. Every example runs in both interpreters (one subprocess per framework for all
of them, ours from a directory outside the checkout) with paddle, NumPy and `random` seeded
before it. Each paddle.Tensor or NumPy array it leaves in its namespace (or in a list/tuple
there) is recorded by name with its dtype and shape. One test per name: every example that runs
under PaddlePaddle must run here and leave the same values. Differences that are deliberate or
not implemented yet are listed in docs/compatibility.md ("Docstring examples"), which this test
reads: those examples are reported as expected failures with the documented reason.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

REFERENCE = os.environ.get("PADDLE_REFERENCE_PYTHON")
SUMMARY = Path(os.environ.get("PADDLE_API_SUMMARY",
                              "/work/shared/reference/paddle-api-summary.md"))
COMPATIBILITY_DOC = Path(__file__).resolve().parents[3] / "docs" / "compatibility.md"

# The namespaces whose tier-1 names are checked, and names the brief adds beside the list.
MODULES = ("paddle", "paddle.Tensor", "paddle.nn.functional", "paddle.linalg", "paddle.fft",
           "paddle.amp", "paddle.autograd", "paddle.metric")
EXTRA_NAMES = ("paddle.autograd.jacobian", "paddle.autograd.hessian")

pytestmark = pytest.mark.skipif(not REFERENCE or not SUMMARY.exists(),
                                reason="PADDLE_REFERENCE_PYTHON or the API summary is missing")


def tier1_names():
    """The fully qualified tier-1 names of MODULES, in the summary's order."""
    if not SUMMARY.exists():
        return []
    text = SUMMARY.read_text()
    section = text.split("## Tier 1", 1)[1].split("\n## ", 1)[0]
    names = []
    for module, listed in re.findall(r"^- \*\*([\w.]+)\*\* \(\d+\): (.+)$", section, re.M):
        if module in MODULES:
            names += [f"{module}.{name.strip()}" for name in listed.split(",")]
    return names + [name for name in EXTRA_NAMES if name not in names]


def documented_exclusions():
    """{name: (example numbers or None for all, reason)} from the compatibility doc's table."""
    if not COMPATIBILITY_DOC.exists():
        return {}
    section = COMPATIBILITY_DOC.read_text().split("## Docstring examples", 1)
    if len(section) < 2:
        return {}
    exclusions = {}
    for name, examples, reason in re.findall(r"^\| `([\w.]+)` \| ([^|]+?) \| (.+?) \|$",
                                             section[1].split("\n## ", 1)[0], re.M):
        numbers = None if examples.strip() == "all" else {int(n) for n in examples.split(",")}
        exclusions[name] = (numbers, reason)
    return exclusions


# Runs in both interpreters. In "reference" mode it reads the docstrings and extracts the
# examples; in "ours" mode it gets them from the reference run. Results go to OUT/results.json
# (status and metadata) and OUT/values.npz (the arrays), so that no pickles cross NumPy versions.
RUNNER = r'''
import contextlib, io, json, random, signal, sys, traceback
import numpy as np
import paddle

request = json.load(sys.stdin)
SKIP_MARKERS = ("+REQUIRES(env:GPU", "+REQUIRES(env:XPU", "+REQUIRES(env:DISTRIBUTED",
                "+REQUIRES(env:CUSTOM", "+REQUIRES(env:IPU", "+REQUIRES(env:NPU")


def resolve(qualified):
    obj = paddle
    for part in qualified.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def extract(doc):
    """The examples of a docstring: the doctest source of each code-block, dedented."""
    segments = doc.split(".. code-block::")
    segments = segments[1:] if len(segments) > 1 else segments
    examples = []
    for segment in segments:
        lines, in_source = [], False
        for line in segment.splitlines():
            stripped = line.strip()
            if stripped.startswith(">>>"):
                lines.append(stripped[4:] if stripped.startswith(">>> ") else stripped[3:])
                in_source = True
            elif in_source and stripped.startswith("..."):
                lines.append(line.lstrip()[4:] if stripped.startswith("... ") else "")
                in_source = True
            else:
                in_source = False
        if lines:
            examples.append("\n".join(lines))
    return examples


def timeout(signum, frame):
    raise TimeoutError("the example ran for more than 60 s")


def collect(namespace, values, prefix):
    found = {}
    for key, value in namespace.items():
        if key.startswith("_"):
            continue
        items = [(key, value)]
        if isinstance(value, (list, tuple)) and len(value) <= 16:
            items = [(f"{key}[{i}]", v) for i, v in enumerate(value)]
        for label, item in items:
            try:
                if isinstance(item, paddle.Tensor):
                    dtype = str(item.dtype)
                    if "bfloat16" in dtype:
                        item = item.astype("float32")
                    array = np.asarray(item.numpy())
                elif isinstance(item, np.ndarray):
                    dtype, array = "numpy." + str(item.dtype), item
                else:
                    continue
            except Exception:
                continue
            if array.dtype == object:
                continue
            values[f"{prefix}|{label}"] = array
            found[label] = {"dtype": dtype, "shape": list(array.shape)}
    return found


signal.signal(signal.SIGALRM, timeout)
if request["mode"] == "reference":
    examples = {}
    for name in request["names"]:
        try:
            doc = resolve(name).__doc__ or ""
        except AttributeError:
            doc = ""
        examples[name] = extract(doc)
else:
    examples = request["examples"]

results, values = {}, {}
for name, sources in examples.items():
    results[name] = []
    for index, source in enumerate(sources):
        if any(marker in source for marker in SKIP_MARKERS):
            results[name].append({"status": "skipped"})
            continue
        paddle.seed(0)
        np.random.seed(0)
        random.seed(0)
        namespace = {"__name__": "__main__"}
        signal.alarm(60)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(source, f"<{name} example {index + 1}>", "exec"), namespace)
            status, error = "ok", None
        except BaseException as exc:  # noqa: B902 - examples may raise anything, SystemExit too
            status = "error"
            error = "".join(traceback.format_exception_only(type(exc), exc)).strip()[-600:]
        finally:
            signal.alarm(0)
        found = collect(namespace, values, f"{name}|{index}") if status == "ok" else {}
        results[name].append({"status": status, "error": error, "values": found})
        if not paddle.in_dynamic_mode():
            paddle.disable_static()
        paddle.set_default_dtype("float32")

out = request["out"]
np.savez(out + "/values.npz", **values)
with open(out + "/results.json", "w") as f:
    json.dump({"examples": examples, "results": results}, f)
'''


def run_examples(python, request, workdir):
    out = tempfile.mkdtemp(dir=workdir)
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.setdefault("OMP_NUM_THREADS", "2")
    process = subprocess.run([python, "-c", RUNNER], input=json.dumps({**request, "out": out}),
                             capture_output=True, text=True, env=env, cwd=out, timeout=1800)
    assert process.returncode == 0, f"{python} failed:\n{process.stderr[-4000:]}"
    with open(os.path.join(out, "results.json")) as f:
        report = json.load(f)
    with np.load(os.path.join(out, "values.npz")) as arrays:
        report["arrays"] = {key: arrays[key] for key in arrays.files}
    return report


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("docstring_examples")
    reference = run_examples(REFERENCE, {"mode": "reference", "names": tier1_names()}, workdir)
    ours = run_examples(sys.executable, {"mode": "ours", "examples": reference["examples"]},
                        workdir)
    return reference, ours


def tolerance(dtype):
    if "float16" in dtype or "bfloat16" in dtype:
        return {"rtol": 1e-2, "atol": 1e-2}
    return {"rtol": 1e-5, "atol": 1e-6}


def differences(name, reference, ours):
    """{example number: what differs} for the examples of `name` that ran under PaddlePaddle."""
    found = {}
    for index, (theirs, mine) in enumerate(zip(reference["results"][name],
                                               ours["results"][name])):
        if theirs["status"] != "ok":
            continue
        if mine["status"] != "ok":
            found[index + 1] = mine["error"]
            continue
        for label, meta in theirs["values"].items():
            other = mine["values"].get(label)
            if other is None:
                found[index + 1] = f"{label} is not a Tensor/array here"
            elif other["dtype"] != meta["dtype"] or other["shape"] != meta["shape"]:
                found[index + 1] = (f"{label}: {other['dtype']} {other['shape']} here, "
                                    f"{meta['dtype']} {meta['shape']} in PaddlePaddle")
            else:
                key = f"{name}|{index}|{label}"
                expected, actual = reference["arrays"][key], ours["arrays"][key]
                if expected.dtype.kind in "fc":
                    same = np.allclose(actual, expected, equal_nan=True,
                                       **tolerance(meta["dtype"]))
                else:
                    same = np.array_equal(actual, expected)
                if not same:
                    found[index + 1] = f"{label}: values differ"
            if index + 1 in found:
                break
    return found


@pytest.mark.parametrize("name", tier1_names())
def test_docstring_examples_match_paddlepaddle(name, reports):
    reference, ours = reports
    statuses = [result["status"] for result in reference["results"][name]]
    if "ok" not in statuses:
        pytest.skip(f"{name}: no example that runs under PaddlePaddle on this machine")
    found = differences(name, reference, ours)
    excluded, reason = documented_exclusions().get(name, (set(), ""))
    undocumented = {n: d for n, d in found.items() if excluded is not None and n not in excluded}
    assert not undocumented, f"{name}: examples that differ from PaddlePaddle: {undocumented}"
    if found:
        pytest.xfail(f"{name}: documented in docs/compatibility.md: {reason}")


def summarize():
    """Prints how many names, examples and matching examples there are (for reports)."""
    with tempfile.TemporaryDirectory() as workdir:
        reference = run_examples(REFERENCE, {"mode": "reference", "names": tier1_names()},
                                 workdir)
        ours = run_examples(sys.executable, {"mode": "ours", "examples": reference["examples"]},
                            workdir)
    counts = dict(names=0, with_examples=0, examples=0, run_by_paddle=0, same_here=0,
                  names_all_same=0)
    for name, results in reference["results"].items():
        counts["names"] += 1
        counts["with_examples"] += bool(results)
        counts["examples"] += len(results)
        ran = sum(result["status"] == "ok" for result in results)
        counts["run_by_paddle"] += ran
        found = differences(name, reference, ours)
        counts["same_here"] += ran - len(found)
        counts["names_all_same"] += bool(ran) and not found
        for number, what in sorted(found.items()):
            print(f"DIFF {name} #{number}: {what.splitlines()[-1] if what else what}")
        for index, result in enumerate(results):
            if result["status"] == "error":
                print(f"PADDLE-ERROR {name} #{index + 1}: {result['error'].splitlines()[-1]}")
    print(json.dumps(counts))


if __name__ == "__main__":
    summarize()
