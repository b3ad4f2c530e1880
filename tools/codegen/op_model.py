"""Parses paddle/ops/ops.yaml and backward.yaml into validated records.

Every error names the YAML file and line. Unknown keys are errors, never ignored.
"""
import dataclasses
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
              "bfloat16", "float32", "float64"}
PLACES = {"cpu", "undefined"}

# ops::kMaxPromotedInputs in paddle/ops/op_schema.h.
MAX_PROMOTED_INPUTS = 4

OP_KEYS = {"op", "args", "output", "infer_meta", "kernel", "data_type", "promote", "backward",
           "inplace", "view", "legacy", "python"}
BACKWARD_KEYS = {"backward", "forward", "args", "output", "no_need_buffer"}
LEGACY_KEYS = {"type", "inputs", "outputs", "attrs", "extra_attrs"}


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
class Op:
    name: str
    line: int
    inputs: List[Arg]
    attrs: List[Arg]
    outputs: List[Output]
    infer_meta: str
    infer_meta_params: List[str]
    kernel: str
    data_type: str
    promote: List[str]
    backward: Optional[str]
    inplace: List[tuple]
    view: List[tuple]
    legacy: Dict
    python: bool


@dataclasses.dataclass
class Backward:
    name: str
    line: int
    forward: Op
    args: List[str]
    outputs: List[str]
    no_need_buffer: List[str]


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
        arg = Arg(m.group(1), m.group(2), m.group(3))
        arg.type, arg.name = m.group(1), m.group(2)
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


def parse_ops(path):
    ops = {}
    for entry in _load(path):
        line = entry.pop("__line__")
        unknown = set(entry) - OP_KEYS
        if unknown:
            _fail(path, line, f"unknown key(s) {sorted(unknown)}; allowed: {sorted(OP_KEYS)}")
        for key in ("op", "args", "output", "infer_meta"):
            if key not in entry:
                _fail(path, line, f"missing required key '{key}'")
        name = entry["op"]
        if name in ops:
            _fail(path, line, f"op '{name}' is defined twice (first at line {ops[name].line})")
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
        for x, out in inplace + view:
            if x not in input_names or out not in output_names:
                _fail(path, line, f"pair ({x} -> {out}) must map an input to an output")
        legacy = entry.get("legacy", {})
        if legacy:
            legacy = dict(legacy)
            legacy.pop("__line__", None)
            unknown = set(legacy) - LEGACY_KEYS
            if unknown:
                _fail(path, line, f"unknown legacy key(s) {sorted(unknown)}; allowed: {sorted(LEGACY_KEYS)}")
            if "type" not in legacy:
                _fail(path, line, "legacy needs 'type'")
            for key, pool in (("inputs", input_names), ("outputs", output_names),
                              ("attrs", [a.name for a in attrs])):
                mapping = dict(legacy.get(key, {}))
                mapping.pop("__line__", None)
                for k in mapping:
                    if k not in pool:
                        _fail(path, line, f"legacy {key} maps '{k}', which is not one of {pool}")
                legacy[key] = mapping
            extra = dict(legacy.get("extra_attrs", {}))
            extra.pop("__line__", None)
            legacy["extra_attrs"] = extra
        infer_meta = entry["infer_meta"]
        if isinstance(infer_meta, dict):
            infer_meta = dict(infer_meta)
            infer_meta.pop("__line__", None)
            if set(infer_meta) != {"func", "param"}:
                _fail(path, line, "infer_meta as a mapping needs exactly 'func' and 'param'")
            params = list(infer_meta["param"])
            for p in params:
                if p not in [a.name for a in args]:
                    _fail(path, line, f"infer_meta param '{p}' is not an argument")
            infer_meta = infer_meta["func"]
        else:
            params = [a.name for a in args]
        python = entry.get("python", True)
        if python not in (True, False):
            _fail(path, line, "python must be yes or no")
        ops[name] = Op(name, line, inputs, attrs, outputs, infer_meta, params,
                       entry.get("kernel", name), data_type, promote, entry.get("backward"),
                       inplace, view, legacy, python)
    return ops


def parse_backward(path, ops):
    backwards = {}
    for entry in _load(path):
        line = entry.pop("__line__")
        unknown = set(entry) - BACKWARD_KEYS
        if unknown:
            _fail(path, line, f"unknown key(s) {sorted(unknown)}; allowed: {sorted(BACKWARD_KEYS)}")
        for key in ("backward", "forward", "args", "output"):
            if key not in entry:
                _fail(path, line, f"missing required key '{key}'")
        name = entry["backward"]
        if name in backwards:
            _fail(path, line, f"backward '{name}' is defined twice")
        forward = ops.get(entry["forward"])
        if forward is None:
            _fail(path, line, f"forward op '{entry['forward']}' is not in ops.yaml")
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
        backwards[name] = Backward(name, line, forward, args, outputs, no_need_buffer)
    for op in ops.values():
        if op.backward and op.backward not in backwards:
            raise SchemaError(f"ops.yaml:{op.line}: op '{op.name}' names backward "
                              f"'{op.backward}', which backward.yaml does not define")
    return backwards
