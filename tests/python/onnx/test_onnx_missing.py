"""paddle.onnx.export without the onnx package: a clear ImportError, and paddle imports."""
import sys

import pytest

import paddle
from paddle.static import InputSpec


def test_missing_onnx_package_raises_import_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnx", None)
    with pytest.raises(ImportError, match="pip install onnx"):
        paddle.onnx.export(paddle.nn.Linear(2, 2), str(tmp_path / "m"),
                           input_spec=[InputSpec([None, 2])])
    assert not (tmp_path / "m.onnx").exists()
