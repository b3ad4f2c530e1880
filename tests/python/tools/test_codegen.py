"""tools/codegen/op_model.py: the schema parser's handling of `inplace` pairs."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "tools", "codegen"))
from op_model import SchemaError, parse_ops  # noqa: E402

ENTRY = """- op: update
  args: (Tensor param, Tensor grad, Tensor moment, Tensor? master)
  output: Tensor(param_out), Tensor(moment_out), Tensor(master_out)
  infer_meta: UpdateInferMeta
  inplace: {pairs}
"""


def parse(tmp_path, pairs):
    path = tmp_path / "ops.yaml"
    path.write_text(ENTRY.format(pairs=pairs))
    return parse_ops(str(path))["update"]


@pytest.mark.parametrize("pairs", [
    "(param -> param_out), (moment -> moment_out), (master -> master_out)",  # Paddle's spelling
    "(param -> param_out, moment -> moment_out, master -> master_out)",
])
def test_several_inplace_pairs(tmp_path, pairs):
    op = parse(tmp_path, pairs)
    assert op.inplace == [("param", "param_out"), ("moment", "moment_out"), ("master", "master_out")]


@pytest.mark.parametrize("pairs,message", [
    ("(param -> param_out), (param -> moment_out)", "input 'param' in more than one pair"),
    ("(param -> param_out), (moment -> param_out)", "output 'param_out' in more than one pair"),
    ("(param -> param_out), (grad => moment_out)", "cannot parse inplace pair"),
    ("(param -> param_out), (nothing -> moment_out)", "must map an input to an output"),
])
def test_bad_inplace_pairs_cite_the_line(tmp_path, pairs, message):
    with pytest.raises(SchemaError, match=message) as raised:
        parse(tmp_path, pairs)
    assert "ops.yaml:1:" in str(raised.value)


# ------------------------------------------------------------ whole-tree validation (gen_ops.py)
from op_model import load_families  # noqa: E402

OP = """- op: {name}
  args: (Tensor x)
  output: Tensor(out)
  infer_meta: UnchangedInferMeta
  dtypes: {dtypes}
{extra}"""


def write_family(directory, family, *entries):
    directory.mkdir(exist_ok=True)
    (directory / f"{family}.yaml").write_text("\n".join(entries))


def entry(name, dtypes="{cpu: [floats]}", extra=""):
    return OP.format(name=name, dtypes=dtypes, extra=extra)


def test_a_valid_tree_loads(tmp_path):
    write_family(tmp_path, "unary", entry("exp", extra="  python: {module: paddle, method: yes}\n"))
    (family,) = load_families(str(tmp_path))
    (op,) = family.ops
    assert op.dtypes == {"cpu": ["float16", "bfloat16", "float32", "float64"]}
    assert op.python.public_names() == ["paddle.exp", "paddle.Tensor.exp"]


def test_an_unknown_dtype_group_cites_the_file_and_line(tmp_path):
    write_family(tmp_path, "unary", entry("exp"), entry("log", dtypes="{cpu: [floating]}"))
    with pytest.raises(SchemaError) as raised:
        load_families(str(tmp_path))
    message = str(raised.value)
    assert "unary.yaml:7:" in message
    assert "unknown dtype or group 'floating'" in message and "floats" in message


def test_an_unknown_backend_is_rejected(tmp_path):
    write_family(tmp_path, "unary", entry("exp", dtypes="{cpu: [floats], tpu: [floats]}"))
    with pytest.raises(SchemaError, match=r"unary.yaml:1: .*unknown backend\(s\) \['tpu'\]"):
        load_families(str(tmp_path))


def test_a_python_name_claimed_twice_names_both_ops(tmp_path):
    write_family(tmp_path, "a", entry("exp", extra="  python: {module: paddle}\n"))
    write_family(tmp_path, "b", entry("exp2", extra="  python: {name: exp, module: paddle}\n"))
    with pytest.raises(SchemaError) as raised:
        load_families(str(tmp_path))
    message = str(raised.value)
    assert "b.yaml:1:" in message
    assert "python name 'paddle.exp' of op 'exp2' clashes with op 'exp'" in message
    assert "a.yaml:1" in message


def test_a_generated_in_place_variant_clashes_like_any_name(tmp_path):
    relu = entry("relu", extra="  inplace: (x -> out)\n  python: {module: paddle, method: yes}\n")
    relu_like = entry("relu_like", extra="  python: {name: relu_, module: paddle}\n")
    write_family(tmp_path, "a", relu, relu_like)
    with pytest.raises(SchemaError, match="python name 'paddle.relu_' of op 'relu_like' clashes"):
        load_families(str(tmp_path))


def test_an_inplace_output_that_does_not_exist_is_rejected(tmp_path):
    write_family(tmp_path, "unary", entry("exp", extra="  inplace: (x -> result)\n"))
    with pytest.raises(SchemaError) as raised:
        load_families(str(tmp_path))
    message = str(raised.value)
    assert "unary.yaml:1:" in message
    assert "'result' is not an output of 'exp' (outputs: ['out'])" in message


def test_an_op_without_dtypes_has_no_kernel_and_is_rejected(tmp_path):
    write_family(tmp_path, "unary", entry("exp").replace("  dtypes: {cpu: [floats]}\n", ""))
    with pytest.raises(SchemaError, match="unary.yaml:1: op 'exp' declares no kernel dtypes"):
        load_families(str(tmp_path))


def test_a_missing_kernel_header_names_the_file_to_write(tmp_path):
    from emit_kernels import registration_units
    write_family(tmp_path / "yaml", "unary", entry("exp"))
    (family,) = load_families(str(tmp_path / "yaml"))
    with pytest.raises(SchemaError) as raised:
        registration_units(family, "cpu", str(tmp_path / "kernels"))
    assert "paddle/kernels/cpu/unary_kernels.h must define ExpKernel" in str(raised.value)


def test_registrations_are_split_into_bounded_units(tmp_path):
    from emit_kernels import registration_units
    write_family(tmp_path / "yaml", "unary", "- family: unary\n  instantiations_per_unit: {cpu: 3}\n",
                 entry("exp"), entry("log", dtypes="{cpu: [float32]}"))
    (family,) = load_families(str(tmp_path / "yaml"))
    (tmp_path / "kernels" / "cpu").mkdir(parents=True)
    (tmp_path / "kernels" / "cpu" / "unary_kernels.h").write_text("")
    units = registration_units(family, "cpu", str(tmp_path / "kernels"))
    registered = [line for _, text in units for line in text.splitlines()
                  if line.startswith("PD_REGISTER_KERNEL")]
    assert [name for name, _ in units] == ["unary_0.cc", "unary_1.cc"]
    assert sum(line.count(",") - 2 for line in registered) == 5  # 4 exp dtypes + 1 log dtype
    assert "PD_REGISTER_KERNEL(log, CPU, paddle::LogKernel, float);" in registered


def test_ops_sharing_a_kernel_register_it_once(tmp_path):
    from emit_kernels import registration_units
    write_family(tmp_path / "yaml", "unary", entry("exp", extra="  kernel: exponential\n"),
                 entry("exp2", extra="  kernel: exponential\n"))
    (family,) = load_families(str(tmp_path / "yaml"))
    (tmp_path / "kernels" / "cpu").mkdir(parents=True)
    (tmp_path / "kernels" / "cpu" / "unary_kernels.h").write_text("")
    (unit,) = registration_units(family, "cpu", str(tmp_path / "kernels"))
    registered = [line for line in unit[1].splitlines() if line.startswith("PD_REGISTER_KERNEL")]
    assert registered == ["PD_REGISTER_KERNEL(exponential, CPU, paddle::ExponentialKernel, "
                          "::paddle::float16, ::paddle::bfloat16, float, double);"]


def test_family_settings_must_name_their_own_family(tmp_path):
    write_family(tmp_path, "unary", "- family: binary\n  instantiations_per_unit: {cpu: 3}\n",
                 entry("exp"))
    with pytest.raises(SchemaError, match="family: names 'binary', but the file declares family "
                                          "'unary'"):
        load_families(str(tmp_path))


def test_backward_rules_need_the_family_rule_file(tmp_path):
    from gen_ops import check_rule_files
    bw = "- backward: exp_grad\n  forward: exp\n  args: (out, out_grad)\n  output: (x_grad)\n"
    write_family(tmp_path / "yaml", "unary", entry("exp", extra="  backward: exp_grad\n"), bw)
    families = load_families(str(tmp_path / "yaml"))
    (tmp_path / "backward").mkdir()
    with pytest.raises(SchemaError, match="paddle/ops/backward/unary_grad.cc must define them"):
        check_rule_files(families, str(tmp_path / "backward"))
    (tmp_path / "backward" / "unary_grad.cc").write_text("")
    check_rule_files(families, str(tmp_path / "backward"))
