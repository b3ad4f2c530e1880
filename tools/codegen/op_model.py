"""Parses the op declarations (paddle/ops/yaml/<family>.yaml) into validated records.

A family file holds `- op:` entries and the `- backward:` entries of their gradients; the keys are
documented in paddle/ops/yaml/README.md. Every error names the YAML file and line. Unknown keys
are errors, never ignored.
"""
import dataclasses
import os
import re
from typing import Dict, List, Optional

import yaml

ATTR_TYPES = {
    # schema spelling: (C++ value type, C++ parameter type, Attribute alternative index)
    "bool": ("bool", "bool", 0),
    "int": ("int32_t", "int32_t", 1),
    "int64_t": ("int64_t", "int64_t", 2),
    "float": ("float", "float", 3),
    "double": ("double", "double", 4),
    "str": ("std::string", "const std::string&", 5),
    "int[]": ("std::vector<int32_t>", "const std::vector<int32_t>&", 6),
    "int64_t[]": ("std::vector<int64_t>", "const std::vector<int64_t>&", 7),
    "float[]": ("std::vector<float>", "const std::vector<float>&", 8),
    "double[]": ("std::vector<double>", "const std::vector<double>&", 9),
    "str[]": ("std::vector<std::string>", "const std::vector<std::string>&", 10),
    "Scalar": ("Scalar", "const Scalar&", 11),
    "DataType": ("DataType", "DataType", 12),
    "Place": ("Place", "const Place&", 13),
}
TENSOR_TYPES = {"Tensor": "tensor", "Tensor?": "optional", "Tensor[]": "list"}
DATA_TYPES = {"UNDEFINED", "bool", "int8", "uint8", "int16", "int32", "int64", "float16",
              "bfloat16", "float32", "float64", "complex64", "complex128"}
PLACES = {"cpu", "undefined"}

# Kernel dtypes, in registration order, and the named groups a `dtypes` list may use. `all` is
# the real dtypes and bool: an op takes complex numbers only where it names `complex` (or
# complex64, complex128), which keeps kernels that have no complex meaning, and the compile time
# of their instantiations, out.
KERNEL_DTYPES = ("bool", "int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16",
                 "float32", "float64", "complex64", "complex128")
DTYPE_GROUPS = {
    "floats": ("float16", "bfloat16", "float32", "float64"),
    "integers": ("int8", "uint8", "int16", "int32", "int64"),
    "arithmetic": ("int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
                   "float64"),
    "complex": ("complex64", "complex128"),
    "all": KERNEL_DTYPES[:-2],
}
BACKENDS = ("cpu", "gpu")

# Modules a generated function may be exported from; each imports it from paddle.base.generated_api.
# paddle.vision.ops exports hand-written functions only (`written_in`).
PYTHON_MODULES = ("paddle", "paddle.nn.functional", "paddle.vision.ops")

# ops::kMaxPromotedInputs in paddle/ops/op_schema.h.
MAX_PROMOTED_INPUTS = 4

OP_KEYS = {"op", "args", "output", "infer_meta", "kernel", "data_type", "promote", "dtypes",
           "backward", "inplace", "view", "legacy", "python"}
BACKWARD_KEYS = {"backward", "forward", "args", "output", "no_need_buffer", "selected_rows"}
LEGACY_KEYS = {"type", "inputs", "outputs", "attrs", "extra_attrs"}
PYTHON_KEYS = {"module", "name", "method", "written_in", "doc"}
FAMILY_KEYS = {"family", "instantiations_per_unit"}


class SchemaError(Exception):
    pass


@dataclasses.dataclass
class Arg:
    name: str
    type: str
    default: Optional[str] = None

    @property
    def is_tensor(self):
        return self.type in TENSOR_TYPES


@dataclasses.dataclass
class Output:
    name: str
    is_list: bool


@dataclasses.dataclass
class PythonSurface:
    """Where an op appears in the public Python API."""
    name: str                   # the function's Python name
    modules: List[str]          # modules that export the function
    method: bool                # also paddle.Tensor.<name>
    written_in: Optional[str]   # the module of a hand-written implementation; None: generated
    inplace: bool               # generated <name>_ variants exist beside every name
    doc: Optional[str]          # the generated function's docstring summary

    def public_names(self):
        """Every public name: 'paddle.exp', 'paddle.Tensor.exp', and the in-place variants."""
        owners = self.modules + (["paddle.Tensor"] if self.method else [])
        names = [f"{owner}.{self.name}" for owner in owners]
        return names + [n + "_" for n in names] if self.inplace else names


@dataclasses.dataclass
class Op:
    name: str
    family: str
    path: str
    line: int
    inputs: List[Arg]
    attrs: List[Arg]
    outputs: List[Output]
    infer_meta: str
    infer_meta_params: List[str]
    kernel: str
    data_type: str
    promote: List[str]
    dtypes: Dict[str, List[str]]   # backend -> kernel dtypes, expanded, in KERNEL_DTYPES order
    backward: Optional[str]
    inplace: List[tuple]
    view: List[tuple]
    legacy: Dict
    python_visible: bool           # callable as paddle._C_ops.<name>
    python: Optional[PythonSurface]

    @property
    def args(self):
        return self.inputs + self.attrs

    @property
    def kernel_function(self):
        """The kernel template's name: `top_k` -> `TopKKernel`."""
        return "".join(word.capitalize() for word in self.kernel.split("_")) + "Kernel"


@dataclasses.dataclass
class Backward:
    name: str
    family: str
    line: int
    forward: Op
    args: List[str]
    outputs: List[str]
    no_need_buffer: List[str]
    # <input>_grad -> the forward bool attribute that makes that gradient a SelectedRows.
    selected_rows: Dict[str, str]


@dataclasses.dataclass
class Family:
    """The ops of one YAML file; they share a kernel header per backend and a generated shard."""
    name: str
    path: str
    ops: List[Op]
    backwards: List[Backward]
    # backend -> kernel instantiations per generated unit, where the family sets its own
    # (emit_kernels.BUDGET otherwise): heavy kernel templates need smaller units.
    instantiations_per_unit: Dict[str, int] = dataclasses.field(default_factory=dict)


class _LineLoader(yaml.SafeLoader):
    """Records the line of every mapping as the key '__line__'."""

    def construct_mapping(self, node, deep=False):
        mapping = super().construct_mapping(node, deep=deep)
        mapping["__line__"] = node.start_mark.line + 1
        return mapping


def _load(path):
    with open(path) as f:
        data = yaml.load(f, Loader=_LineLoader)
    if not isinstance(data, list):
        raise SchemaError(f"{path}: expected a list of entries")
    return data


def _fail(path, line, message):
    raise SchemaError(f"{path}:{line}: {message}")


def _plain(mapping):
    """A parsed YAML mapping without its '__line__' record."""
    out = dict(mapping)
    out.pop("__line__", None)
    return out


def _split_top_level(text):
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def _strip_parens(path, line, text, what):
    text = str(text).strip()
    if not (text.startswith("(") and text.endswith(")")):
        _fail(path, line, f"{what} must be written in parentheses, got {text!r}")
    return text[1:-1]


def _check_default(path, line, arg):
    d = arg.default
    t = arg.type
    ok = True
    if t == "bool":
        ok = d in ("true", "false")
    elif t in ("int", "int64_t"):
        ok = re.fullmatch(r"-?\d+", d) is not None
    elif t in ("float", "double", "Scalar"):
        ok = re.fullmatch(r"-?\d+(\.\d*)?(e-?\d+)?", d) is not None
    elif t.endswith("[]"):
        ok = d.startswith("[") and d.endswith("]")
    elif t == "str":
        ok = d.startswith('"') and d.endswith('"')
    elif t == "DataType":
        ok = d in DATA_TYPES
    elif t == "Place":
        ok = d in PLACES
    if not ok:
        _fail(path, line, f"default {d!r} is not a valid {t} for argument '{arg.name}'")


def _parse_args(path, line, text):
    args = []
    for part in _split_top_level(_strip_parens(path, line, text, "args")):
        m = re.fullmatch(r"(\S+)\s+(\w+)(?:\s*=\s*(.+))?", part)
        if not m:
            _fail(path, line, f"cannot parse argument {part!r}; expected 'Type name [= default]'")
        arg = Arg(m.group(2), m.group(1), m.group(3))
        if arg.type not in TENSOR_TYPES and arg.type not in ATTR_TYPES:
            _fail(path, line, f"unknown type {arg.type!r} of argument '{arg.name}'")
        if arg.default is not None:
            if arg.is_tensor:
                _fail(path, line, f"tensor argument '{arg.name}' cannot have a default")
            _check_default(path, line, arg)
        args.append(arg)
    return args


def _parse_outputs(path, line, text):
    outputs = []
    for part in _split_top_level(str(text)):
        m = re.fullmatch(r"Tensor(\[\])?\((\w+)\)", part)
        if not m:
            _fail(path, line, f"cannot parse output {part!r}; expected Tensor(name) or Tensor[](name)")
        outputs.append(Output(m.group(2), m.group(1) is not None))
    return outputs


def _parse_pairs(path, line, text, what):
    """Pairs written as Paddle does, '(x -> out), (y -> out2)', or as '(x -> out, y -> out2)'."""
    text = str(text).strip()
    groups = _split_top_level(text)
    if len(groups) == 1:
        groups = [text]
    pairs = []
    for group in groups:
        for part in _split_top_level(_strip_parens(path, line, group, what)):
            m = re.fullmatch(r"(\w+)\s*->\s*(\w+)", part)
            if not m:
                _fail(path, line, f"cannot parse {what} pair {part!r}; expected 'x -> out'")
            pairs.append((m.group(1), m.group(2)))
    for side, label in ((0, "input"), (1, "output")):
        names = [p[side] for p in pairs]
        for n in names:
            if names.count(n) > 1:
                _fail(path, line, f"{what} names {label} '{n}' in more than one pair")
    return pairs


def _check_pairs(path, line, op_name, what, pairs, input_names, output_names):
    for x, out in pairs:
        if x not in input_names:
            _fail(path, line, f"{what} pair ({x} -> {out}) must map an input to an output: "
                              f"'{x}' is not an input of '{op_name}' (inputs: {input_names})")
        if out not in output_names:
            _fail(path, line, f"{what} pair ({x} -> {out}) must map an input to an output: "
                              f"'{out}' is not an output of '{op_name}' (outputs: {output_names})")


def _parse_dtypes(path, line, value):
    if not isinstance(value, dict):
        _fail(path, line, "dtypes must map backends to dtype lists, e.g. "
                          "{cpu: [floats, int32], gpu: [floats]}")
    value = _plain(value)
    unknown = set(value) - set(BACKENDS)
    if unknown:
        _fail(path, line, f"dtypes names unknown backend(s) {sorted(unknown)}; known: {list(BACKENDS)}")
    dtypes = {}
    for backend, names in value.items():
        if not isinstance(names, list) or not names:
            _fail(path, line, f"dtypes.{backend} must be a non-empty list of dtypes or groups")
        chosen = set()
        for name in names:
            if name in DTYPE_GROUPS:
                chosen.update(DTYPE_GROUPS[name])
            elif name in KERNEL_DTYPES:
                chosen.add(name)
            else:
                _fail(path, line, f"dtypes.{backend}: unknown dtype or group {name!r}; groups: "
                                  f"{sorted(DTYPE_GROUPS)}, dtypes: {list(KERNEL_DTYPES)}")
        dtypes[backend] = [d for d in KERNEL_DTYPES if d in chosen]
    return dtypes


def _parse_python(path, line, name, value, inplace):
    """The `python` key: `no` (internal, not in paddle._C_ops), or the public surface."""
    if value is False:
        return False, None
    if not isinstance(value, dict):
        _fail(path, line, "python must be `no` or a mapping with keys " + str(sorted(PYTHON_KEYS)))
    value = _plain(value)
    unknown = set(value) - PYTHON_KEYS
    if unknown:
        _fail(path, line, f"unknown python key(s) {sorted(unknown)}; allowed: {sorted(PYTHON_KEYS)}")
    modules = value.get("module", [])
    modules = [modules] if isinstance(modules, str) else list(modules)
    for module in modules:
        if module not in PYTHON_MODULES:
            _fail(path, line, f"python.module {module!r} is not one of {list(PYTHON_MODULES)}")
    method = value.get("method", False)
    if method not in (True, False):
        _fail(path, line, "python.method must be yes or no")
    if not modules and not method:
        _fail(path, line, "python needs a module, method: yes, or both")
    py_name = value.get("name", name)
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", str(py_name)):
        _fail(path, line, f"python.name {py_name!r} is not a Python identifier")
    written_in = value.get("written_in")
    if written_in is not None and not re.fullmatch(r"paddle(\.[a-z_]+)+", str(written_in)):
        _fail(path, line, f"python.written_in {written_in!r} must be a module such as "
                          "paddle.tensor.math")
    if "paddle.vision.ops" in modules and written_in is None:
        _fail(path, line, "python.module paddle.vision.ops takes hand-written functions only; "
                          "name the module it is written in (written_in)")
    doc = value.get("doc")
    if doc is not None and written_in is not None:
        _fail(path, line, "python.doc documents a generated function; a hand-written one "
                          "(written_in) has its own docstring")
    # A hand-written API writes its own in-place variants, where Paddle has them.
    return True, PythonSurface(py_name, modules, method, written_in,
                               bool(inplace) and written_in is None, doc)


def _parse_op(path, family, line, entry):
    unknown = set(entry) - OP_KEYS
    if unknown:
        _fail(path, line, f"unknown key(s) {sorted(unknown)}; allowed: {sorted(OP_KEYS)}")
    for key in ("op", "args", "output", "infer_meta"):
        if key not in entry:
            _fail(path, line, f"missing required key '{key}'")
    name = entry["op"]
    args = _parse_args(path, line, entry["args"])
    inputs = [a for a in args if a.is_tensor]
    attrs = [a for a in args if not a.is_tensor]
    seen_attr = False
    for a in args:
        if not a.is_tensor:
            seen_attr = True
        elif seen_attr:
            _fail(path, line, f"input '{a.name}' comes after an attribute; inputs go first")
    seen_default = False
    for a in attrs:
        if a.default is not None:
            seen_default = True
        elif seen_default:
            _fail(path, line, f"attribute '{a.name}' without a default follows one with a default")
    outputs = _parse_outputs(path, line, entry["output"])
    names = [a.name for a in args] + [o.name for o in outputs]
    if len(set(names)) != len(names):
        _fail(path, line, f"argument and output names must be unique: {names}")
    input_names = [a.name for a in inputs]
    output_names = [o.name for o in outputs]
    data_type = entry.get("data_type", input_names[0] if input_names else None)
    if data_type is None:
        _fail(path, line, "an op without inputs needs 'data_type' naming its DataType attribute")
    if data_type not in input_names and not any(
            a.name == data_type and a.type == "DataType" for a in attrs):
        _fail(path, line, f"data_type '{data_type}' is neither an input nor a DataType attribute")
    promote = entry.get("promote", [])
    if len(promote) > MAX_PROMOTED_INPUTS:
        _fail(path, line, f"promote lists {len(promote)} inputs; at most "
                          f"{MAX_PROMOTED_INPUTS} (ops::kMaxPromotedInputs)")
    for p in promote:
        if p not in input_names:
            _fail(path, line, f"promote names '{p}', which is not an input")
    inplace = _parse_pairs(path, line, entry["inplace"], "inplace") if "inplace" in entry else []
    view = _parse_pairs(path, line, entry["view"], "view") if "view" in entry else []
    _check_pairs(path, line, name, "inplace", inplace, input_names, output_names)
    _check_pairs(path, line, name, "view", view, input_names, output_names)
    legacy = entry.get("legacy", {})
    if legacy:
        legacy = _plain(legacy)
        unknown = set(legacy) - LEGACY_KEYS
        if unknown:
            _fail(path, line, f"unknown legacy key(s) {sorted(unknown)}; allowed: {sorted(LEGACY_KEYS)}")
        if "type" not in legacy:
            _fail(path, line, "legacy needs 'type'")
        for key, pool in (("inputs", input_names), ("outputs", output_names),
                          ("attrs", [a.name for a in attrs])):
            mapping = _plain(legacy.get(key, {}))
            for k in mapping:
                if k not in pool:
                    _fail(path, line, f"legacy {key} maps '{k}', which is not one of {pool}")
            legacy[key] = mapping
        legacy["extra_attrs"] = _plain(legacy.get("extra_attrs", {}))
    infer_meta = entry["infer_meta"]
    if isinstance(infer_meta, dict):
        infer_meta = _plain(infer_meta)
        if set(infer_meta) != {"func", "param"}:
            _fail(path, line, "infer_meta as a mapping needs exactly 'func' and 'param'")
        params = list(infer_meta["param"])
        for p in params:
            if p not in [a.name for a in args]:
                _fail(path, line, f"infer_meta param '{p}' is not an argument")
        infer_meta = infer_meta["func"]
    else:
        params = [a.name for a in args]
    dtypes = _parse_dtypes(path, line, entry["dtypes"]) if "dtypes" in entry else {}
    python_visible, python = True, None
    if "python" in entry:
        python_visible, python = _parse_python(path, line, name, entry["python"], inplace)
    return Op(name, family, path, line, inputs, attrs, outputs, infer_meta, params,
              entry.get("kernel", name), data_type, promote, dtypes, entry.get("backward"),
              inplace, view, legacy, python_visible, python)


def _parse_backward(path, family, line, entry, ops):
    unknown = set(entry) - BACKWARD_KEYS
    if unknown:
        _fail(path, line, f"unknown key(s) {sorted(unknown)}; allowed: {sorted(BACKWARD_KEYS)}")
    for key in ("backward", "forward", "args", "output"):
        if key not in entry:
            _fail(path, line, f"missing required key '{key}'")
    name = entry["backward"]
    forward = ops.get(entry["forward"])
    if forward is None:
        _fail(path, line, f"forward op '{entry['forward']}' is not declared in {path}")
    if forward.backward != name:
        _fail(path, line, f"op '{forward.name}' names backward {forward.backward!r}, not '{name}'")
    known = ([a.name for a in forward.inputs] + [o.name for o in forward.outputs] +
             [o.name + "_grad" for o in forward.outputs] + [a.name for a in forward.attrs])
    args = [a.strip() for a in _strip_parens(path, line, entry["args"], "args").split(",") if a.strip()]
    for a in args:
        if a not in known:
            _fail(path, line, f"argument '{a}' is none of the forward's inputs, outputs, "
                              f"output grads or attributes: {known}")
    outputs = [o.strip() for o in _strip_parens(path, line, entry["output"], "output").split(",")]
    input_names = [a.name for a in forward.inputs]
    for o in outputs:
        if not o.endswith("_grad") or o[:-5] not in input_names:
            _fail(path, line, f"output '{o}' must be <input>_grad for an input of '{forward.name}'")
    no_need_buffer = entry.get("no_need_buffer", [])
    for n in no_need_buffer:
        if n not in input_names or n not in args:
            _fail(path, line, f"no_need_buffer '{n}' must be a forward input listed in args")
    selected_rows = _plain(entry.get("selected_rows", {}))
    bool_attrs = [a.name for a in forward.attrs if a.type == "bool"]
    for grad, attr in selected_rows.items():
        if grad not in outputs:
            _fail(path, line, f"selected_rows key '{grad}' must be one of the outputs {outputs}")
        if attr not in bool_attrs:
            _fail(path, line, f"selected_rows['{grad}'] must name a bool attribute of "
                              f"'{forward.name}': {bool_attrs}")
    return Backward(name, family, line, forward, args, outputs, no_need_buffer, selected_rows)


def _parse_family_settings(path, family, line, entry, previous):
    """The optional `- family: <name>` entry: compile settings of the family's kernel units."""
    if previous:
        _fail(path, line, "a file has at most one 'family:' entry")
    unknown = set(entry) - FAMILY_KEYS
    if unknown:
        _fail(path, line, f"unknown key(s) {sorted(unknown)}; allowed: {sorted(FAMILY_KEYS)}")
    if entry["family"] != family:
        _fail(path, line, f"family: names '{entry['family']}', but the file declares family "
                          f"'{family}'")
    budgets = _plain(entry.get("instantiations_per_unit", {}))
    for backend, value in budgets.items():
        if backend not in BACKENDS or not isinstance(value, int) or value < 1:
            _fail(path, line, f"instantiations_per_unit maps a backend of {list(BACKENDS)} to a "
                              f"positive int, got {backend}: {value!r}")
    return budgets


def parse_family(path, display_path=None):
    """The ops and backwards of one family file, checked on their own. Records and errors cite
    `display_path` (default: `path`)."""
    family = os.path.splitext(os.path.basename(path))[0]
    entries = _load(path)
    path = display_path or path
    ops, backwards, raw_backwards = {}, {}, []
    settings = {}
    for entry in entries:
        line = entry.pop("__line__")
        if "family" in entry:
            settings = _parse_family_settings(path, family, line, entry, settings)
        elif "op" in entry:
            op = _parse_op(path, family, line, entry)
            if op.name in ops:
                _fail(path, line, f"op '{op.name}' is defined twice (first at line {ops[op.name].line})")
            ops[op.name] = op
        elif "backward" in entry:
            raw_backwards.append((line, entry))
        else:
            _fail(path, line, "an entry must start with 'op:', 'backward:' or 'family:'")
    for line, entry in raw_backwards:
        bw = _parse_backward(path, family, line, entry, ops)
        if bw.name in backwards:
            _fail(path, line, f"backward '{bw.name}' is defined twice")
        backwards[bw.name] = bw
    for op in ops.values():
        if op.backward and op.backward not in backwards:
            _fail(path, op.line, f"op '{op.name}' names backward '{op.backward}', which {path} "
                                 "does not define")
    return Family(family, path, list(ops.values()), list(backwards.values()), settings)


def parse_ops(path):
    """The ops of one family file by name."""
    return {op.name: op for op in parse_family(path).ops}


def load_families(yaml_dir, root=None):
    """Every family of `yaml_dir`, sorted by name, checked across files: op names are unique, and
    no two ops claim the same public Python name. Paths in records and errors are relative to
    `root` when given (generated files then do not depend on where the checkout is)."""
    paths = sorted(os.path.join(yaml_dir, f) for f in os.listdir(yaml_dir) if f.endswith(".yaml"))
    if not paths:
        raise SchemaError(f"{yaml_dir}: no <family>.yaml files")
    families = [parse_family(p, os.path.relpath(p, root) if root else None) for p in paths]
    seen_ops, seen_names = {}, {}
    for family in families:
        for op in family.ops:
            if op.name in seen_ops:
                first = seen_ops[op.name]
                _fail(op.path, op.line, f"op '{op.name}' is also defined at {first.path}:{first.line}")
            seen_ops[op.name] = op
            if not op.dtypes:
                _fail(op.path, op.line, f"op '{op.name}' declares no kernel dtypes; add e.g. "
                                        "dtypes: {cpu: [floats]}")
            if op.python is None:
                continue
            for public in op.python.public_names():
                if public in seen_names:
                    other = seen_names[public]
                    _fail(op.path, op.line, f"python name '{public}' of op '{op.name}' clashes with "
                                            f"op '{other.name}' ({other.path}:{other.line})")
                seen_names[public] = op
    return families
