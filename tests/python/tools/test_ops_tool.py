"""`python -m paddle.utils.ops`: the op table and its harness-coverage column."""
import json
import os
import subprocess
import sys

import paddle
from paddle.utils import ops as ops_tool

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def test_coverage_file_matches_the_harness():
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from update_op_coverage import coverage_text
    with open(ops_tool._COVERAGE_FILE) as f:
        assert f.read() == coverage_text(), (
            "python/paddle/utils/op_coverage.txt is stale: run tools/update_op_coverage.py")


def test_json_lists_every_op_with_its_kernels():
    out = subprocess.run([sys.executable, "-m", "paddle.utils.ops", "--json"], check=True,
                         capture_output=True, text=True).stdout
    rows = json.loads(out)
    names = {r["name"] for r in rows}
    assert {"add", "matmul", "cross_entropy_with_softmax"} <= names
    assert len(rows) == len(paddle.base.libpaddle._op_registry_info()) >= 60
    for row in rows:
        assert set(row) == {"name", "cpu", "gpu", "backward", "tested"}
    add = next(r for r in rows if r["name"] == "add")
    assert "float32" in add["cpu"] and add["backward"] and add["tested"]
    full = next(r for r in rows if r["name"] == "full")
    assert not full["backward"]


def test_table_has_one_row_per_op():
    out = subprocess.run([sys.executable, "-m", "paddle.utils.ops"], check=True,
                         capture_output=True, text=True).stdout
    lines = out.strip().splitlines()
    assert lines[0].split()[:2] == ["op", "CPU"]
    assert any(line.startswith("matmul ") for line in lines)
