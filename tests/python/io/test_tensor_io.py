"""Paddle's tensor record format through libpaddle: .pdiparams (save_combine) files, single-tensor
files and in-memory records. Byte layout, round trips, errors that name the file and, when
PADDLE_REFERENCE_PYTHON names an interpreter with PaddlePaddle, files exchanged with it."""
import os
import re
import subprocess

import numpy as np
import pytest

import paddle
from paddle.base import libpaddle as core

REFERENCE = os.environ.get("PADDLE_REFERENCE_PYTHON")

# Sorted by name, the order Paddle's save_combine callers use.
ARRAYS = {
    "a_fp32": np.arange(6, dtype=np.float32).reshape([2, 3]) / 7,
    "b_fp64": np.array([[1e300, -2.5]], dtype=np.float64),
    "c_fp16": np.array([1.5, -0.25, 65504], dtype=np.float16),
    "d_int64": np.array(-3, dtype=np.int64),
    "e_int32": np.arange(-4, 4, dtype=np.int32).reshape([2, 2, 2]),
    "f_int16": np.array([-7, 7], dtype=np.int16),
    "g_int8": np.array([-128, 127], dtype=np.int8),
    "h_uint8": np.array([0, 255], dtype=np.uint8),
    "i_bool": np.array([[True, False, True]]),
    "j_empty": np.zeros([0, 3], dtype=np.float32),
    "k_complex64": np.array([[1 + 2j, -0.5j], [3, 0]], dtype=np.complex64),
    "l_complex128": np.array([1e300 - 1e-300j, -2.5 + 0j], dtype=np.complex128),
}
NAMES = sorted(ARRAYS)
HEADER = b"\0" * 16  # version 0, no LoD levels, version 0


def tensors():
    return [paddle.to_tensor(ARRAYS[name]) for name in NAMES]


def assert_same(tensor, array):
    np.testing.assert_array_equal(tensor.numpy(), array, strict=True)


def test_records_have_paddles_byte_layout():
    record = core._serialize_tensor(paddle.to_tensor(np.array([1.0, 2.0], dtype=np.float32)))
    # desc_size 4; TensorDesc {data_type: FP32 (5), dims: [2]}; two little-endian floats.
    assert record == HEADER + b"\x04\0\0\0" + b"\x08\x05\x10\x02" + b"\0\0\x80\x3f\0\0\0\x40"
    record = core._serialize_tensor(paddle.to_tensor(np.array(3, dtype=np.int64)))
    # A 0-d tensor has no dims.
    assert record == HEADER + b"\x02\0\0\0" + b"\x08\x03" + b"\x03" + b"\0" * 7


@pytest.mark.parametrize("name", NAMES)
def test_records_round_trip(name):
    record = core._serialize_tensor(paddle.to_tensor(ARRAYS[name]))
    assert_same(core._deserialize_tensor(record, name), ARRAYS[name])


def test_deserialize_rejects_corrupt_records():
    record = core._serialize_tensor(paddle.to_tensor(ARRAYS["a_fp32"]))
    with pytest.raises(ValueError, match="weights: the record is truncated"):
        core._deserialize_tensor(record[:-1], "weights")
    with pytest.raises(ValueError, match="weights: 2 extra bytes after the tensor record"):
        core._deserialize_tensor(record + b"xx", "weights")
    with pytest.raises(ValueError, match="unsupported tensor version 1"):
        core._deserialize_tensor(b"\x01" + record[1:], "weights")
    corrupt_desc = record[:20] + b"\xff" * 4 + record[24:]
    with pytest.raises(ValueError, match="not a valid framework.proto TensorDesc"):
        core._deserialize_tensor(corrupt_desc, "weights")


def test_save_combine_round_trip(tmp_path):
    path = str(tmp_path / "model.pdiparams")
    core._save_combine(path, NAMES, tensors())
    with open(path, "rb") as f:
        assert f.read() == b"".join(core._serialize_tensor(t) for t in tensors())
    for name, tensor in zip(NAMES, core._load_combine(path, NAMES)):
        assert_same(tensor, ARRAYS[name])
    assert os.listdir(tmp_path) == ["model.pdiparams"]


def test_single_tensor_files_round_trip(tmp_path):
    path = str(tmp_path / "x.pdtensor")
    core._save_tensor(path, paddle.to_tensor(ARRAYS["e_int32"]))
    assert_same(core._load_tensor(path), ARRAYS["e_int32"])


def test_truncated_file_names_the_file_and_variable(tmp_path):
    path = str(tmp_path / "model.pdiparams")
    core._save_combine(path, NAMES, tensors())
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data[:-5])
    count = len(NAMES)
    expected = f"file '{path}', variable '{NAMES[-1]}' ({count} of {count}): the record is truncated"
    with pytest.raises(ValueError, match=re.escape(expected)):
        core._load_combine(path, NAMES)


def test_extra_bytes_mean_a_mismatched_model(tmp_path):
    path = str(tmp_path / "model.pdiparams")
    core._save_combine(path, NAMES, tensors())
    with pytest.raises(ValueError, match=re.escape(path) + ".*does not match the model"):
        core._load_combine(path, NAMES[:-1])


def test_missing_file_is_named(tmp_path):
    path = str(tmp_path / "absent.pdiparams")
    with pytest.raises(KeyError, match=re.escape(path)):
        core._load_combine(path, NAMES)
    with pytest.raises(KeyError, match=re.escape(path)):
        core._load_tensor(path)


def test_failed_save_names_the_file_and_keeps_no_partial_file(tmp_path):
    path = str(tmp_path / "missing_dir" / "model.pdiparams")
    with pytest.raises(RuntimeError, match=re.escape(path)):
        core._save_combine(path, NAMES, tensors())
    assert os.listdir(tmp_path) == []
    with pytest.raises(ValueError, match="2 names but 1 tensors"):
        core._save_combine(str(tmp_path / "x"), ["a", "b"], [paddle.ones([1])])


REFERENCE_SCRIPT = r"""
import sys
import numpy as np
from paddle.base import core

mode, directory = sys.argv[1], sys.argv[2]
arrays = dict(np.load(directory + "/arrays.npz"))
names = sorted(arrays)


def dense(array):
    tensor = core.DenseTensor()
    tensor.set(array, core.CPUPlace())
    return tensor


if mode == "write":
    core.save_combine_func([dense(arrays[n]) for n in names], names,
                           directory + "/theirs.pdiparams", True, False, False)
    core.save_func(dense(arrays[names[0]]), names[0], directory + "/theirs.pdtensor", True, False)
    for n in names:
        with open(directory + "/theirs_" + n + ".record", "wb") as f:
            f.write(core.save_dense_tensor_to_memory(dense(arrays[n])))
else:
    loaded = [dense(np.zeros([1], np.float32)) for _ in names]
    core.load_combine_func(directory + "/ours.pdiparams", names, loaded, False, core.CPUPlace())
    single = dense(np.zeros([1], np.float32))
    core.load_func(directory + "/ours.pdtensor", -1, [], False, single, core.CPUPlace())
    results = {n: np.array(t) for n, t in zip(names, loaded)}
    results["single"] = np.array(single)
    np.savez(directory + "/loaded.npz", **results)
"""


def run_reference(mode, directory):
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    subprocess.run([REFERENCE, "-c", REFERENCE_SCRIPT, mode, str(directory)], check=True,
                   env=env, cwd="/")


@pytest.mark.skipif(not REFERENCE, reason="PADDLE_REFERENCE_PYTHON is not set")
def test_files_interoperate_with_paddlepaddle(tmp_path):
    np.savez(tmp_path / "arrays.npz", **ARRAYS)

    # Theirs -> ours: every record and the combined file byte for byte, and loadable.
    run_reference("write", tmp_path)
    for name, tensor in zip(NAMES, tensors()):
        assert core._serialize_tensor(tensor) == (tmp_path / f"theirs_{name}.record").read_bytes()
    ours = tmp_path / "ours.pdiparams"
    core._save_combine(str(ours), NAMES, tensors())
    assert ours.read_bytes() == (tmp_path / "theirs.pdiparams").read_bytes()
    for name, tensor in zip(NAMES, core._load_combine(str(tmp_path / "theirs.pdiparams"), NAMES)):
        assert_same(tensor, ARRAYS[name])
    assert_same(core._load_tensor(str(tmp_path / "theirs.pdtensor")), ARRAYS[NAMES[0]])

    # Ours -> theirs.
    core._save_tensor(str(tmp_path / "ours.pdtensor"), paddle.to_tensor(ARRAYS["e_int32"]))
    run_reference("read", tmp_path)
    loaded = np.load(tmp_path / "loaded.npz")
    for name in NAMES:
        np.testing.assert_array_equal(loaded[name], ARRAYS[name], strict=True)
    np.testing.assert_array_equal(loaded["single"], ARRAYS["e_int32"], strict=True)
