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
