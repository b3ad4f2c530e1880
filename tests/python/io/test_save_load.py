"""paddle.save / paddle.load: Paddle's on-disk layout, round trips, atomic writes and errors."""
import io
import os
import pickle

import numpy as np
import pytest

import paddle
import paddle.nn as nn
import paddle.optimizer as optim
from paddle.utils import unique_name


def _model():
    return nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))


def test_state_dict_round_trip_and_layout(tmp_path):
    with unique_name.guard():
        model = _model()
    path = str(tmp_path / "model.pdparams")
    paddle.save(model.state_dict(), path)

    # The raw file is Paddle's: {structured name: ndarray} + the name table.
    with open(path, "rb") as f:
        raw = pickle.load(f)
    assert raw["StructuredToParameterName@@"] == {
        "0.weight": "linear_0.w_0", "0.bias": "linear_0.b_0",
        "2.weight": "linear_1.w_0", "2.bias": "linear_1.b_0"}
    assert isinstance(raw["0.weight"], np.ndarray) and raw["0.weight"].dtype == np.float32

    loaded = paddle.load(path)
    assert list(loaded) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    for key, value in model.state_dict().items():
        assert isinstance(loaded[key], paddle.Tensor)
        assert loaded[key].name == value.name
        np.testing.assert_array_equal(loaded[key].numpy(), value.numpy())

    other = _model()
    other.set_state_dict(loaded)
    x = paddle.randn([5, 3])
    np.testing.assert_array_equal(other(x).numpy(), model(x).numpy())

    as_numpy = paddle.load(path, return_numpy=True)
    assert isinstance(as_numpy["2.bias"], np.ndarray)
    assert "StructuredToParameterName@@" in paddle.load(path, keep_name_table=True)


def test_optimizer_state_round_trip(tmp_path):
    model = _model()
    sched = optim.lr.StepDecay(0.1, 2)
    opt = optim.Adam(sched, parameters=model.parameters())
    model(paddle.randn([2, 3])).sum().backward()
    opt.step()
    path = str(tmp_path / "opt.pdopt")
    paddle.save(opt.state_dict(), path)
    loaded = paddle.load(path)
    assert loaded["LR_Scheduler"] == {"last_epoch": 0, "last_lr": 0.1}
    for key, value in opt.state_dict().items():
        if key != "LR_Scheduler":
            np.testing.assert_array_equal(loaded[key].numpy(), value.numpy())
    opt.set_state_dict(loaded)


def test_nested_objects_and_dtypes(tmp_path):
    weight = paddle.to_tensor(np.arange(6, dtype="float64").reshape(2, 3))
    weight.name = "w"
    obj = {
        "model": {"w": weight},
        "epoch": 3,
        "history": [paddle.to_tensor([1, 2], dtype="int64"), 1.5, "text"],
        "pair": (paddle.to_tensor(True), None),
        "array": np.ones(2, "float32"),
    }
    path = str(tmp_path / "ckpt.pd")
    paddle.save(obj, path)
    with open(path, "rb") as f:
        raw = pickle.load(f)
    # Tensors outside a flat state dict are pickled as (name, ndarray), as Paddle does.
    assert raw["model"]["w"][0] == "w" and isinstance(raw["model"]["w"][1], np.ndarray)

    loaded = paddle.load(path)
    assert loaded["epoch"] == 3 and loaded["history"][1:] == [1.5, "text"]
    assert loaded["model"]["w"].dtype == paddle.float64 and loaded["model"]["w"].name == "w"
    np.testing.assert_array_equal(loaded["model"]["w"].numpy(), weight.numpy())
    assert loaded["history"][0].dtype == paddle.int64
    assert loaded["pair"][0].dtype == paddle.bool and loaded["pair"][1] is None
    # A plain ndarray next to saved tensors stays an ndarray.
    assert isinstance(loaded["array"], np.ndarray)
    assert isinstance(paddle.load(path, return_numpy=True)["model"]["w"], np.ndarray)


def test_single_tensor_bytesio_and_protocols(tmp_path):
    t = paddle.to_tensor(np.random.RandomState(0).randn(3, 4).astype("float32"))
    buffer = io.BytesIO()
    paddle.save(t, buffer)
    buffer.seek(0)
    np.testing.assert_array_equal(paddle.load(buffer).numpy(), t.numpy())
    for protocol in (2, 3, 4):
        path = str(tmp_path / f"sd{protocol}.pdparams")
        paddle.save({"t": t}, path, protocol=protocol)
        np.testing.assert_array_equal(paddle.load(path)["t"].numpy(), t.numpy())
    with pytest.raises(ValueError):
        paddle.save(t, str(tmp_path / "x"), protocol=5)
    with pytest.raises(ValueError):
        paddle.save(t, str(tmp_path) + os.sep)
    # Missing parent directories are created.
    nested = tmp_path / "a" / "b" / "t.pdtensor"
    paddle.save(t, str(nested))
    assert nested.exists()


def test_bfloat16_round_trip(tmp_path):
    t = paddle.to_tensor([1.5, -2.0, 3.25]).astype("bfloat16")
    path = str(tmp_path / "bf16.pdparams")
    paddle.save({"t": t}, path)
    loaded = paddle.load(path)["t"]
    assert loaded.dtype == paddle.bfloat16
    np.testing.assert_array_equal(loaded.astype("float32").numpy(), [1.5, -2.0, 3.25])


def test_loads_a_file_written_by_paddlepaddle(tmp_path):
    # What PaddlePaddle 2.x writes for Linear(2, 1).state_dict() with protocol 2 and a big
    # parameter split in parts.
    w = np.arange(2, dtype="float32").reshape(2, 1)
    content = {"weight": w, "bias@@.0": np.array([0.5], "float32"),
               "UnpackBigParamInfor@@": {"bias": {"OriginShape": (1,), "slices": ["bias@@.0"]}},
               "StructuredToParameterName@@": {"weight": "linear_9.w_0",
                                               "bias": "linear_9.b_0"}}
    path = tmp_path / "paddle.pdparams"
    path.write_bytes(pickle.dumps(content, protocol=2))
    loaded = paddle.load(str(path))
    assert sorted(loaded) == ["bias", "weight"]
    assert loaded["weight"].name == "linear_9.w_0"
    np.testing.assert_array_equal(loaded["bias"].numpy(), [0.5])
    layer = nn.Linear(2, 1)
    assert layer.set_state_dict(loaded) == ([], [])


def test_failed_save_keeps_old_file(tmp_path):
    path = tmp_path / "model.pdparams"
    paddle.save({"a": paddle.ones([2])}, str(path))
    before = path.read_bytes()
    with pytest.raises(Exception):
        paddle.save({"a": paddle.ones([2]), "fn": lambda: None}, str(path))
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["model.pdparams"]  # no temporary left behind
    with pytest.raises(ValueError, match="Layer"):
        paddle.save({"layer": nn.Linear(1, 1)}, str(path))
    assert path.read_bytes() == before


def test_missing_file(tmp_path):
    path = str(tmp_path / "nope.pdparams")
    with pytest.raises(FileNotFoundError, match="nope.pdparams"):
        paddle.load(path)
    paddle.save({"a": paddle.ones([1])}, str(tmp_path / "m.pdparams"))
    with pytest.raises(FileNotFoundError, match="full file name"):
        paddle.load(str(tmp_path / "m"))


def test_truncated_or_corrupt_file(tmp_path):
    path = tmp_path / "model.pdparams"
    paddle.save(_model().state_dict(), str(path))
    data = path.read_bytes()
    for cut in (1, len(data) // 3, len(data) - 1):
        path.write_bytes(data[:cut])
        with pytest.raises(ValueError, match="model.pdparams") as info:
            paddle.load(str(path))
        assert "truncated or corrupt" in str(info.value)
    path.write_bytes(b"this is not a pickle at all")
    with pytest.raises(ValueError, match="model.pdparams"):
        paddle.load(str(path))
    path.write_bytes(b"")
    with pytest.raises(ValueError, match="model.pdparams"):
        paddle.load(str(path))
