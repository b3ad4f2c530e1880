"""tools/check_layers.py: the dependency rules of DESIGN.md, which tools/lint.sh enforces."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
CHECK = os.path.join(ROOT, "tools", "check_layers.py")


def run(root):
    return subprocess.run([sys.executable, CHECK, str(root)], capture_output=True, text=True)


def test_the_source_tree_keeps_the_rules():
    result = run(ROOT)
    assert result.returncode == 0, result.stdout


def test_an_include_of_a_later_layer_fails_naming_both_layers(tmp_path):
    (tmp_path / "paddle" / "kernels" / "cpu").mkdir(parents=True)
    (tmp_path / "paddle" / "ops").mkdir()
    (tmp_path / "paddle" / "kernels" / "cpu" / "x_kernels.h").write_text(
        '#include "paddle/core/dense_tensor.h"\n#include "paddle/ops/infermeta/reduce.h"\n')
    (tmp_path / "paddle" / "ops" / "fine.cc").write_text('#include "paddle/kernels/kernel_registry.h"\n')
    result = run(tmp_path)
    assert result.returncode == 1
    assert ("paddle/kernels/cpu/x_kernels.h:2: layer 'kernels' includes "
            "paddle/ops/infermeta/reduce.h from layer 'ops', which comes after it") in result.stdout
    assert "fine.cc" not in result.stdout


def test_python_outside_pybind_fails(tmp_path):
    (tmp_path / "paddle" / "framework").mkdir(parents=True)
    (tmp_path / "paddle" / "pybind").mkdir()
    (tmp_path / "paddle" / "framework" / "executor.cc").write_text("#include <pybind11/pybind11.h>\n")
    (tmp_path / "paddle" / "pybind" / "module.cc").write_text("#include <pybind11/pybind11.h>\n")
    result = run(tmp_path)
    assert result.returncode == 1
    assert "paddle/framework/executor.cc:1: includes Python" in result.stdout
    assert "module.cc" not in result.stdout


def test_an_unknown_folder_under_paddle_must_be_placed_in_a_layer(tmp_path):
    (tmp_path / "paddle" / "vision").mkdir(parents=True)
    result = run(tmp_path)
    assert result.returncode == 1 and "paddle/vision: not a layer of DESIGN.md" in result.stdout
