"""Hostile op calls, derived from each op's declaration, and a crash-proof way to run them.

Used by tools/fuzz_ops.py (random calls on a time budget) and by the hostile-input harness
(tests/python/ops/test_hostile_inputs.py, every op systematically). A case is data:

    {"api": "_C_ops.softmax", "args": [<spec>, ...], "kwargs": {"axis": <spec>}}

where a spec describes one argument:

    {"tensor": {"shape": [2, 0, 3], "dtype": "float64", "fill": "nan", "view": null}}
    {"tensors": [<tensor spec>, ...]}            a list of tensors
    {"value": <JSON value>}                      a Python value (lists, ints, strings, None, ...)
    {"float": "nan"}                             nan, inf or -inf
    {"object": "dict"}                           a Python object no op takes

so a case runs in a worker process (a crash or a hang is a result naming the op and the case, not
a dead test runner) and can be written out as a standalone reproducer script. A case may instead
carry its whole call as `{"source": "<Python expression over paddle and np>"}`
(tools/fuzz_model_files.py).

A case passes when the call returns, or raises one of the typed errors the framework maps its
error codes to (TypeError, ValueError, IndexError, KeyError, NotImplementedError, MemoryError,
RuntimeError) with a message, and the error is not an internal one ("this is a bug in the
framework"). It fails when the worker dies (a signal), stops answering (a hang), or raises
anything else.
"""
import json
import os
import select
import subprocess
import sys
import tempfile
import time

DTYPES = ("bool", "int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
          "float64", "complex64", "complex128")
TYPED_ERRORS = ("TypeError", "ValueError", "IndexError", "KeyError", "NotImplementedError",
                "MemoryError", "RuntimeError")
INTERNAL_ERROR = "this is a bug in the framework"
INT64_MAX = 2 ** 63 - 1
INT32_MIN = -2 ** 31

# Fills of a tensor's elements (integer dtypes take the integer meaning of each).
FILLS = ("random", "zeros", "ones", "nan", "inf", "neg_inf", "min", "max", "neg_one", "range",
         "large")


# ------------------------------------------------------------------------------ specs
def tensor(shape, dtype="float32", fill="random", view=None, place=None):
    spec = {"shape": list(shape), "dtype": dtype, "fill": fill, "view": view}
    if place is not None:
        spec["place"] = place  # "gpu": the tensor is copied to the first GPU
    return {"tensor": spec}


def value(v):
    return {"value": v}


def special_float(name):
    return {"float": name}


def python_object(name):
    return {"object": name}


def _np_dtype(dtype):
    return "float32" if dtype == "bfloat16" else dtype


def _array_source(spec):
    """NumPy source of a tensor spec's data (for bfloat16, float32 data cast by to_tensor)."""
    shape, dtype, fill = spec["shape"], _np_dtype(spec["dtype"]), spec["fill"]
    if fill == "random":
        if dtype == "bool":
            return f"np.random.default_rng(0).random({shape}) > 0.5"
        if dtype.startswith("float"):
            return f"np.random.default_rng(0).standard_normal({shape}).astype({dtype!r})"
        return f"np.random.default_rng(0).integers(-3, 4, size={shape}).astype({dtype!r})"
    if fill == "range":
        return f"np.arange(int(np.prod({shape}, dtype=np.int64))).reshape({shape}).astype({dtype!r})"
    if fill in ("min", "max"):
        info = "np.finfo" if dtype.startswith("float") else "np.iinfo"
        if dtype == "bool":
            return f"np.full({shape}, {fill == 'max'}, dtype='bool')"
        return f"np.full({shape}, {info}({dtype!r}).{fill}, dtype={dtype!r})"
    constant = {"zeros": "0", "ones": "1", "neg_one": "-1", "large": "10 ** 9",
                "nan": "np.nan", "inf": "np.inf", "neg_inf": "-np.inf"}[fill]
    if not dtype.startswith("float") and fill in ("nan", "inf", "neg_inf"):
        constant = "0"
    if dtype == "bool":
        constant = "True" if fill not in ("zeros",) else "False"
    if dtype == "uint8" and fill == "neg_one":
        constant = "255"
    if fill == "large" and dtype in ("int8", "uint8", "int16", "float16"):
        constant = "100"
    return f"np.full({shape}, {constant}, dtype={dtype!r})"


def source(spec):
    """A Python expression that builds the argument a spec describes."""
    if "tensor" in spec:
        t = spec["tensor"]
        shape = t["shape"]
        if t["view"] == "transposed" and len(shape) >= 2:
            stored = dict(t, shape=shape[::-1])
            return (f"paddle.transpose(paddle.to_tensor({_array_source(stored)}, "
                    f"dtype={t['dtype']!r}), {list(range(len(shape)))[::-1]})")
        if t["view"] == "expanded" and len(shape) >= 1 and shape[0] >= 1:
            stored = dict(t, shape=[1] + shape[1:])
            return (f"paddle.expand(paddle.to_tensor({_array_source(stored)}, "
                    f"dtype={t['dtype']!r}), {shape})")
        built = f"paddle.to_tensor({_array_source(t)}, dtype={t['dtype']!r})"
        return built + ".cuda()" if t.get("place") == "gpu" else built
    if "tensors" in spec:
        return "[" + ", ".join(source(s) for s in spec["tensors"]) + "]"
    if "float" in spec:
        return {"nan": "float('nan')", "inf": "float('inf')", "-inf": "float('-inf')"}[spec["float"]]
    if "object" in spec:
        return {"dict": "{'a': 1}", "object": "object()", "bytes": "b'x'", "ndarray":
                "np.zeros((2, 3), 'float32')", "complex": "1 + 2j", "set": "{1, 2}"}[spec["object"]]
    return repr(spec["value"])


def call_source(case):
    """The Python expression a case evaluates: paddle.<api>(args), or its own `source`."""
    if "source" in case:
        return case["source"]
    args = [source(a) for a in case["args"]]
    args += [f"{k}={source(v)}" for k, v in case.get("kwargs", {}).items()]
    return f"paddle.{case['api']}({', '.join(args)})"


def reproducer(case, outcome):
    """A standalone script that replays the case."""
    return (f'"""Reproducer written by tools/fuzz_ops.py: {outcome}."""\n'
            "import numpy as np\n\nimport paddle\n\n"
            f"print({call_source(case)})\n")


# ------------------------------------------------------------------------------ generation
def _base_dtype(op):
    cpu = op["dtypes"]["cpu"]
    for d in ("float32", "float64", "int64", "int32"):
        if d in cpu:
            return d
    return cpu[0] if cpu else "float32"


def _parse_default(arg):
    d, t = arg["default"], arg["type"]
    if d is None:
        return None
    if t == "bool":
        return d == "true"
    if t in ("int", "int64_t"):
        return int(d)
    if t in ("float", "double", "Scalar"):
        return float(d) if any(c in d for c in ".e") else int(d)
    if t.endswith("[]"):
        return json.loads(d.replace("'", '"')) if d != "[]" else []
    if t == "str":
        return d.strip('"')
    if t == "DataType":
        return None if d == "UNDEFINED" else d
    return None  # Place: the default place


def baseline(op):
    """A plausible call of the op: [2, 3] tensors of its first float (or int) dtype, defaults for
    the attributes and small values where there is none."""
    dtype = _base_dtype(op)
    args = []
    for a in op["args"]:
        t = a["type"]
        if t == "Tensor":
            args.append(tensor([2, 3], dtype))
        elif t == "Tensor?":
            args.append(value(None))
        elif t == "Tensor[]":
            args.append({"tensors": [tensor([2, 3], dtype), tensor([2, 3], dtype)]})
        elif a["default"] is not None:
            args.append(value(_parse_default(a)))
        else:
            args.append(value({"bool": False, "int": 1, "int64_t": 1, "float": 1.0, "double": 1.0,
                               "str": "", "int[]": [0], "int64_t[]": [1], "float[]": [1.0],
                               "double[]": [1.0], "str[]": [], "Scalar": 1,
                               "DataType": dtype, "Place": None}[t]))
    return args


def hostile_values(arg, dtype):
    """Arguments worth trying where `arg` belongs."""
    t = arg["type"]
    if t in ("Tensor", "Tensor?"):
        values = [tensor(s, dtype) for s in ([0], [2, 0], [0, 3], [2, 0, 3], [], [1], [1] * 9)]
        values += [tensor([3, 4], dtype, fill) for fill in FILLS if fill != "random"]
        values += [tensor([2, 3], d) for d in DTYPES if d != dtype]
        values += [tensor([], d, "min") for d in ("int32", "int64")]
        values += [tensor([3, 2], dtype, view="transposed"), tensor([4, 3], dtype, view="expanded")]
        values += [value([1.0, 2.0]), value(1), value(1.5), value("x"), value(True),
                   python_object("ndarray"), python_object("dict")]
        if t == "Tensor":
            values.append(value(None))
        return values
    if t == "Tensor[]":
        return [{"tensors": []}, {"tensors": [tensor([2, 0], dtype)]},
                {"tensors": [tensor([], dtype), tensor([], dtype)]},
                {"tensors": [tensor([2, 3], dtype), tensor([3, 2], dtype)]},
                {"tensors": [tensor([2, 3], dtype), tensor([2, 3], "int8")]},
                {"tensors": [tensor([2, 3], dtype)] * 40},
                value(None), value([1, 2]), tensor([2, 3], dtype), python_object("object")]
    ints = [0, -1, -2, 7, 2 ** 31 - 1, INT32_MIN, INT64_MAX, -INT64_MAX - 1, 2 ** 70]
    scalars = [value(v) for v in ints] + [special_float(f) for f in ("nan", "inf", "-inf")]
    wrong = [value("x"), value(None), value(True), value(1.5), value([1]),
             tensor([], "int64", "ones"), tensor([], "float32", "ones"), tensor([3], "int64"),
             python_object("dict"), python_object("complex")]
    if t in ("int", "int64_t"):
        return [value(v) for v in ints] + wrong
    if t in ("float", "double", "Scalar"):
        return scalars + wrong
    if t.endswith("[]"):
        return [value([]), value([-1]), value([0, 0]), value([2 ** 31]), value([-2 ** 40]),
                value([INT64_MAX]), value(list(range(100))), value([[1]]), value([1.5]),
                value(["x"]), value(None), value(3), tensor([2], "int64"), tensor([2], "float32"),
                value("abc")]
    if t == "str":
        return [value(""), value("NCHW"), value("garbage" * 20), value(3), value(None),
                value(["x"])]
    if t == "DataType":
        return [value(d) for d in DTYPES] + [value("complex32"), value("foo"), value(3),
                                             value(None)]
    if t == "bool":
        return [value(2), value(-1), value("x"), value(None), value(1.5)]
    return [value("gpu:9"), value(3), value(None)]


def systematic_cases(op, api, gpu=False):
    """The op's baseline call with each argument replaced in turn by each of its hostile values,
    the call with every tensor in each dtype, all tensors zero-size, and all tensors 0-D. With
    `gpu` (a GPU is present), also each tensor input alone on the GPU: inputs on mismatched
    places."""
    dtype = _base_dtype(op)
    base = baseline(op)
    cases = [{"api": api, "args": base}]
    for i, arg in enumerate(op["args"]):
        for v in hostile_values(arg, dtype):
            args = list(base)
            args[i] = v
            cases.append({"api": api, "args": args})
    tensor_positions = [i for i, a in enumerate(op["args"]) if a["type"] == "Tensor"]
    for shape in ([0], [2, 0, 3], []):
        args = list(base)
        for i in tensor_positions:
            args[i] = tensor(shape, dtype)
        cases.append({"api": api, "args": args})
    for d in DTYPES:
        args = list(base)
        for i in tensor_positions:
            args[i] = tensor([2, 3], d)
        cases.append({"api": api, "args": args})
    if gpu:
        for i in tensor_positions:
            args = list(base)
            args[i] = tensor([2, 3], dtype, place="gpu")
            cases.append({"api": api, "args": args})
    return cases


def _plausible(arg, op, rng, rank):
    """A random argument of the right kind, mostly valid: tensors of small random shapes in a
    dtype the op registers, small ints and axes, lists of those."""
    t = arg["type"]
    dtype = rng.choice(op["dtypes"]["cpu"] or list(DTYPES))
    shape = [rng.choice((0, 1, 2, 3, 4)) for _ in range(rank)]
    if t in ("Tensor", "Tensor?"):
        fill = rng.choice(("random", "random", "random", "range", "zeros", "nan", "min", "max"))
        return tensor(shape if rng.random() < 0.8 else [], dtype, fill)
    if t == "Tensor[]":
        return {"tensors": [tensor(shape, dtype) for _ in range(rng.randint(1, 3))]}
    if t in ("int", "int64_t"):
        return value(rng.randint(-rank - 1, rank + 1))
    if t.endswith("[]") and t.startswith("int"):
        return value([rng.randint(-rank - 1, rank + 1) for _ in range(rng.randint(0, rank + 1))])
    if t in ("float", "double", "Scalar"):
        return value(rng.choice((0, 1, -1, 0.5, 2.5, -3.0)))
    if t == "DataType":
        return value(rng.choice(DTYPES))
    if t == "bool":
        return value(rng.random() < 0.5)
    return rng.choice(hostile_values(arg, dtype))


def random_case(op, api, rng):
    """Either mostly valid arguments of random small shapes (to reach deep into the kernels) or
    the baseline call with one to three arguments replaced by hostile values."""
    if rng.random() < 0.5:
        rank = rng.randint(0, 4)
        return {"api": api, "args": [_plausible(a, op, rng, rank) for a in op["args"]]}
    dtype = rng.choice(DTYPES) if rng.random() < 0.3 else _base_dtype(op)
    args = baseline(op)
    positions = list(range(len(args)))
    if not positions:
        return {"api": api, "args": args}
    for i in rng.sample(positions, min(len(positions), rng.randint(1, 3))):
        args[i] = rng.choice(hostile_values(op["args"][i], dtype))
    if rng.random() < 0.2:
        args = args[:rng.randint(0, len(args))] + [value(None)] * rng.randint(0, 2)
    return {"api": api, "args": args}


def public_api_case(name, parameters, rng):
    """A call of a public function (paddle.X, paddle.nn.functional.X) with random hostile values
    for its parameters, whatever their types: tensors where lists belong and the reverse."""
    pool = ([tensor(s, d) for s in ([2, 3], [0], [], [2, 0, 3]) for d in ("float32", "int64")] +
            [tensor([3], "int32", f) for f in ("min", "neg_one", "zeros")] +
            [tensor([2, 2], "float64", f) for f in ("nan", "inf")] +
            [value(v) for v in (0, -1, 1, 2 ** 31, -2 ** 63, 1.5, "x", None, True, [], [0, 1],
                                [-1], [2 ** 40])] + [python_object("dict")])
    count = rng.randint(0, len(parameters))
    return {"api": name, "args": [rng.choice(pool) for _ in range(count)]}


# ------------------------------------------------------------------------------ running
WORKER = r'''
import json, resource, sys
limit = int(sys.argv[1])
if limit:
    # Giant requests then fail as MemoryError at once instead of waking the OOM killer.
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
import numpy as np
import paddle
sys.path.insert(0, sys.argv[2])
from hostile_cases import INTERNAL_ERROR, TYPED_ERRORS, call_source


def summary(result):
    """What came back: per tensor its shape, dtype and (up to 64) values, flattened."""
    if isinstance(result, paddle.Tensor):
        values = result.numpy().reshape(-1) if result.size <= 64 else None
        if values is not None and result.dtype == paddle.bfloat16:
            values = values.astype(np.uint32) << 16
        return {"shape": list(result.shape), "dtype": str(result.dtype).split(".")[-1].lower(),
                "values": None if values is None else np.asarray(values, dtype=object).tolist()}
    if isinstance(result, (list, tuple)):
        return [summary(r) for r in result]
    return repr(result)[:200]
for number, line in enumerate(sys.stdin):
    case = json.loads(line)
    print("START", number, flush=True)
    try:
        result = eval(call_source(case), {"paddle": paddle, "np": np})
        outcome = ["ok", json.dumps(summary(result))]
    except BaseException as e:
        name, message = type(e).__name__, str(e)
        if name in TYPED_ERRORS and message and INTERNAL_ERROR not in message:
            outcome = ["typed", name + ": " + message[:300]]
        else:
            outcome = ["error", name + ": " + message[:2000]]
    print("END", number, json.dumps(outcome), flush=True)
'''


_DIED = object()


class Runner:
    """Runs cases in a worker process, one at a time. A case that kills the worker or outlives
    `timeout` seconds is a failure of its own; the next case starts a fresh worker."""

    def __init__(self, timeout=20.0, memory_limit=None, threads=1, python_path=()):
        """`python_path`: folders the worker also imports from (a `source` case's modules)."""
        self.timeout = timeout
        sanitized = "asan" in os.environ.get("LD_PRELOAD", "")
        # AddressSanitizer reserves terabytes of address space: no limit under it.
        self.memory_limit = 0 if sanitized else (memory_limit or 4 << 30)
        self.env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        if python_path:
            self.env["PYTHONPATH"] = os.pathsep.join(
                list(python_path) + [p for p in [os.environ.get("PYTHONPATH")] if p])
        self.worker = None
        self.stderr = None
        self.sent = 0  # cases the current worker has been given

    def _start(self):
        here = os.path.dirname(os.path.abspath(__file__))
        # The worker's stderr goes to a file: a pipe nobody reads would fill and block it.
        self.stderr = tempfile.TemporaryFile(mode="w+")
        self.worker = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(self.memory_limit), here],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, env=self.env,
            cwd="/")
        self.sent = 0
        self.buffer = b""

    def _await(self, marker, deadline):
        """Reads the worker's output up to a line starting with `marker` and returns that line's
        rest; None when the deadline passes first, _DIED when the output ends (the worker died).
        Other lines (anything an op prints) are skipped. The pipe is read with os.read into our
        own buffer: select() does not see lines a buffered reader has already taken in."""
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                text = line.decode(errors="replace") + "\n"
                if text.startswith(marker):
                    return text[len(marker):]
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([self.worker.stdout], [], [], remaining)
            if ready:
                chunk = os.read(self.worker.stdout.fileno(), 65536)
                if not chunk:
                    return _DIED
                self.buffer += chunk

    def _stop(self):
        """Ends the worker: (its exit status, the end of its stderr)."""
        if self.worker is None:
            return None, ""
        self.worker.kill()
        self.worker.wait()
        code = self.worker.returncode
        self.stderr.seek(0)
        stderr = self.stderr.read()[-20000:]
        self.stderr.close()
        self.worker = None
        return code, stderr

    def run(self, case):
        """(outcome, detail): outcome is ok (detail: the JSON summary of what came back, per
        tensor its shape, dtype and up to 64 values), typed, error, crash or hang."""
        if self.worker is None:
            self._start()
        number = self.sent
        self.sent += 1
        self.worker.stdin.write((json.dumps(case) + "\n").encode())
        self.worker.stdin.flush()
        # The first case of a worker also waits for `import paddle`.
        answer = self._await(f"START {number}\n", time.monotonic() + self.timeout + 60)
        if answer is not None and answer is not _DIED:
            answer = self._await(f"END {number} ", time.monotonic() + self.timeout)
        if answer is None:
            self._stop()
            return "hang", f"no answer within {self.timeout:.0f} s"
        if answer is not _DIED:
            return tuple(json.loads(answer))
        try:
            self.worker.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        code, stderr = self._stop()
        # A sanitizer's report names the defect in one line; it leads the detail.
        report = [line.strip() for line in stderr.splitlines()
                  if "runtime error:" in line or "ERROR: AddressSanitizer" in line
                  or line.startswith("SUMMARY:")]
        return "crash", (f"worker died (exit status {code}): " + " | ".join(report[:3]) +
                         "\n" + stderr.strip()[-2000:])

    def close(self):
        self._stop()


def is_failure(outcome):
    return outcome in ("error", "crash", "hang")


def load_manifest():
    """The installed package's op manifest, read without importing paddle here."""
    code = ("import json, os, paddle.utils.ops as o; print(json.dumps(o.manifest()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd="/")
    return json.loads(out.stdout)


def op_api(op):
    """The name a case calls the op by, paddle._C_ops.<op>, or None when Python cannot see it."""
    return f"_C_ops.{op['name']}" if op["python_visible"] else None


def public_functions():
    """[(name relative to paddle, parameter names)] of the public functions to fuzz."""
    code = r'''
import inspect, json, paddle
out = []
for module, prefix in ((paddle, ""), (paddle.nn.functional, "nn.functional.")):
    for name in sorted(dir(module)):
        fn = getattr(module, name, None)
        if name.startswith("_") or not inspect.isfunction(fn):
            continue
        if not fn.__module__.startswith(("paddle.tensor", "paddle.nn.functional",
                                         "paddle.base.generated_api")):
            continue
        params = [p.name for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name != "name"]
        out.append([prefix + name, params])
print(json.dumps(out))
'''
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd="/")
    skip = {"set_device", "seed", "set_flags", "enable_static", "disable_static", "save", "load",
            "set_default_dtype", "set_grad_enabled", "is_compiled_with_cuda"}
    return [(n, p) for n, p in json.loads(out.stdout) if n.rsplit(".", 1)[-1] not in skip]
