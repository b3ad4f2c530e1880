"""paddle.save / paddle.load in PaddlePaddle's pickle format (.pdparams, .pdopt, ...).

The layout is Paddle's, so files move both ways between this framework and PaddlePaddle:

* A state dict (a dict whose values are tensors, or dicts holding no tensor such as the
  optimizer's "LR_Scheduler") is pickled as {key: numpy array, ...} plus the entry
  "StructuredToParameterName@@": {key: tensor name}. With pickle protocol 2 or 3, arrays over
  1 GiB are split into "key@@.0", "key@@.1", ... parts described by "UnpackBigParamInfor@@".
* Any other object (a tensor, nested lists/dicts/tuples mixing tensors and Python values) is
  pickled with each tensor replaced by the tuple (tensor.name, numpy array).

Loading reverses this and returns tensors (or the arrays with return_numpy=True). Writes go to a
temporary file in the target directory that is fsync'ed and then renamed over the target, so a
failed save (an unpicklable object, a full disk, a crash) leaves any previous file intact.
"""
import collections
import errno
import io
import math
import os
import pickle
import tempfile
import warnings

import numpy as np

from ..base import libpaddle
from ..device import _resolve_place
from ..tensor.creation import to_tensor

__all__ = ["save", "load"]

Tensor = libpaddle.Tensor

_NAME_TABLE_KEY = "StructuredToParameterName@@"
_UNPACK_INFO_KEY = "UnpackBigParamInfor@@"


def _umask():
    # Read once at import: os.umask can only be read by setting it.
    mask = os.umask(0)
    os.umask(mask)
    return mask


_FILE_MODE = 0o666 & ~_umask()


def _is_memory_buffer(path):
    return isinstance(path, io.BytesIO)


def _check_protocol(protocol):
    if not isinstance(protocol, int) or isinstance(protocol, bool):
        raise ValueError(f"The 'protocol' MUST be `int`, but received {type(protocol)}")
    if protocol < 2 or protocol > 4:
        raise ValueError(f"Expected 1<'protocol'<5, but received protocol={protocol}")


def _tensor_to_numpy(tensor):
    if not tensor._is_initialized():
        raise ValueError(f"The saved tensor {tensor.name!r} is not initialized.")
    # bfloat16 comes out as its uint16 bit patterns, which is how Paddle stores it too.
    return np.array(tensor.numpy(), copy=True)


def _contains(obj, condition):
    if condition(obj):
        return True
    if type(obj) in (dict, collections.OrderedDict):
        return any(_contains(v, condition) for v in obj.values())
    if type(obj) in (list, tuple):
        return any(_contains(v, condition) for v in obj)
    return False


def _is_layer(obj):
    from ..nn import Layer
    return isinstance(obj, Layer)


def _is_state_dict(obj):
    """Paddle's rule: a dict whose values are tensors, or dicts that hold no tensor or layer."""
    if not isinstance(obj, dict):
        return False
    for value in obj.values():
        if isinstance(value, dict):
            if any(_contains(v, lambda x: isinstance(x, Tensor) or _is_layer(x))
                   for v in value.values()):
                return False
        elif not isinstance(value, Tensor):
            return False
    return True


def _build_saved_state_dict(state_dict):
    saved, name_table = {}, {}
    for key, value in state_dict.items():
        if isinstance(value, Tensor):
            saved[key] = _tensor_to_numpy(value)
            name_table[key] = value.name
        else:
            saved[key] = value
    saved[_NAME_TABLE_KEY] = name_table
    return saved


def _unpack_saved_dict(saved, protocol):
    """Pickle protocols 2 and 3 cannot hold an object over 4 GiB: split big arrays in parts."""
    if protocol >= 4:
        return saved
    unpack_info = {}
    for key, value in list(saved.items()):
        if not isinstance(value, np.ndarray):
            continue
        max_elements = int((2 ** 30 - 1) / value.dtype.itemsize)
        if value.size <= max_elements:
            continue
        flat = value.flatten()
        parts = []
        for i in range(int(math.ceil(value.size / max_elements))):
            part = f"{key}@@.{i}"
            saved[part] = flat[i * max_elements:(i + 1) * max_elements]
            parts.append(part)
        del saved[key]
        unpack_info[key] = {"OriginShape": value.shape, "slices": parts}
    if unpack_info:
        saved[_UNPACK_INFO_KEY] = unpack_info
    return saved


class _Pickler(pickle.Pickler):
    """Pickles each tensor as (name, numpy array), like Paddle; refuses Layers."""

    def reducer_override(self, obj):
        if isinstance(obj, Tensor):
            return tuple, ((obj.name, _tensor_to_numpy(obj)),)
        if _is_layer(obj):
            raise ValueError("paddle do not support saving `paddle.nn.Layer` object.")
        return NotImplemented


class _ProgramBytes(bytes):
    """A Program's serialized ProgramDesc, which save writes as it is."""


def _write(obj, f, protocol, as_state_dict):
    if isinstance(obj, _ProgramBytes):
        f.write(obj)
    elif as_state_dict:
        pickle.dump(_unpack_saved_dict(_build_saved_state_dict(obj), protocol), f,
                    protocol=protocol)
    else:
        _Pickler(f, protocol).dump(obj)


def _atomic_write(path, write):
    """Calls write(file) on a temporary file next to `path`, then renames it over `path`."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp_path = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path) + ".",
                                    suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        # mkstemp creates the file private (0600); give it the mode a plain open() would.
        os.chmod(tmp_path, os.stat(path).st_mode & 0o7777 if os.path.exists(path)
                 else _FILE_MODE)
        os.replace(tmp_path, path)
    except BaseException:
        if os.path.exists(tmp_path):
            os.unlink(tmp_path)
        raise
    # Make the rename itself durable.
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def save(obj, path, protocol=4, **configs):
    """Saves `obj` (a Layer/Optimizer state dict, a tensor, or nested lists/dicts/tuples of
    tensors and Python values) to the file `path` (or a BytesIO). Recommended suffixes:
    .pdparams for a layer's state dict, .pdopt for an optimizer's."""
    for key in configs:
        if key not in ("use_binary_format", "pickle_protocol"):
            raise ValueError(f"The additional config ({key}) of `paddle.save` is not "
                             f"supported.")
    if configs.get("use_binary_format", False):
        raise NotImplementedError("paddle.save(..., use_binary_format=True) is not supported "
                                  "yet; save without it (pickle format)")
    if configs.get("pickle_protocol") is not None:
        protocol = configs["pickle_protocol"]
        warnings.warn("'pickle_protocol' is a deprecated argument. Please use 'protocol' "
                      "instead.")
    _check_protocol(protocol)

    from ..static.program import Program
    if isinstance(obj, Program):
        # As Paddle: the program's serialized ProgramDesc (what a .pdmodel holds), not a pickle.
        data = obj.desc.serialize_to_string()
        if _is_memory_buffer(path):
            path.write(data)
            return
        obj = _ProgramBytes(data)

    as_state_dict = _is_state_dict(obj)
    if as_state_dict and len(obj) == 0:
        warnings.warn("The input state dict is empty, no need to save.")

    if _is_memory_buffer(path):
        _write(obj, path, protocol, as_state_dict)
        return
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str):
        raise ValueError(f"only supports saving objects to file and `BytesIO`, but got "
                         f"{type(path)}")
    if os.path.basename(path) == "":
        raise ValueError("The input path MUST be format of dirname/filename [dirname\\filename "
                         "in Windows system], but received filename is empty string.")
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    _atomic_write(path, lambda f: _write(obj, f, protocol, as_state_dict))


def _ndarray_to_tensor(array, return_numpy):
    if return_numpy:
        return array
    if array.dtype == np.uint16:
        # NumPy has no bfloat16; Paddle stores bfloat16 tensors as uint16 bit patterns.
        return libpaddle._tensor_from_numpy(np.ascontiguousarray(array), _resolve_place(None),
                                            libpaddle.DataType.BFLOAT16)
    if libpaddle._in_static_mode():
        # A tensor with the values, as a scope variable holds them (Paddle returns a
        # DenseTensor), not a constant appended to the current program.
        return libpaddle._tensor_from_numpy(np.ascontiguousarray(array), _resolve_place(None))
    return to_tensor(array)


def _is_saved_tensor(obj):
    """A tensor pickled by the generic path: (name, array)."""
    return (isinstance(obj, tuple) and len(obj) == 2 and isinstance(obj[0], str)
            and isinstance(obj[1], np.ndarray))


def _tuple_to_tensor(obj, return_numpy):
    if return_numpy:
        return obj[1]
    tensor = _ndarray_to_tensor(obj[1], False)
    tensor.name = obj[0]
    return tensor


def _convert_every(obj, condition, convert):
    """Replaces each part of `obj` (through dicts, lists, tuples and sets) matching condition."""
    if condition(obj):
        return convert(obj)
    if type(obj) in (dict, collections.OrderedDict):
        for key in list(obj.keys()):
            obj[key] = _convert_every(obj[key], condition, convert)
        return obj
    if type(obj) is list:
        return [_convert_every(v, condition, convert) for v in obj]
    if type(obj) is tuple:
        return tuple(_convert_every(v, condition, convert) for v in obj)
    if type(obj) is set:
        return {_convert_every(v, condition, convert) for v in obj}
    return obj


def _pack_loaded_dict(obj):
    """Joins the parts written by _unpack_saved_dict."""
    info = obj.pop(_UNPACK_INFO_KEY, None)
    if info:
        for key, value in info.items():
            parts = [obj.pop(part) for part in value["slices"]]
            obj[key] = np.concatenate(parts).reshape(value["OriginShape"])
    return obj


def _restore(obj, return_numpy, keep_name_table):
    if isinstance(obj, dict) and _NAME_TABLE_KEY in obj:
        obj = _pack_loaded_dict(obj)
        for key, name in obj[_NAME_TABLE_KEY].items():
            if isinstance(obj.get(key), np.ndarray):
                obj[key] = _ndarray_to_tensor(obj[key], return_numpy)
                if not return_numpy:
                    obj[key].name = name
        if not keep_name_table:
            del obj[_NAME_TABLE_KEY]
        return obj
    if isinstance(obj, dict):
        obj = _pack_loaded_dict(obj)
    # Tensors saved by the generic path are (name, array) tuples; a file without any holds
    # plain arrays (older Paddle formats), which become tensors themselves.
    if _contains(obj, _is_saved_tensor):
        return _convert_every(obj, _is_saved_tensor, lambda t: _tuple_to_tensor(t, return_numpy))
    return _convert_every(obj, lambda a: isinstance(a, np.ndarray),
                          lambda a: _ndarray_to_tensor(a, return_numpy))


def load(path, **configs):
    """Loads an object written by paddle.save (here or by PaddlePaddle) from a file path or a
    BytesIO. Tensors come back as paddle.Tensor on the current device, or as NumPy arrays with
    return_numpy=True.

    Raises FileNotFoundError when the file does not exist and ValueError naming the file when
    its content cannot be parsed (truncated, corrupt, or not a paddle.save file)."""
    for key in configs:
        if key not in ("model_filename", "params_filename", "keep_name_table", "return_numpy"):
            raise ValueError(f"The additional config ({key}) of `paddle.load` is not "
                             f"supported.")
    return_numpy = bool(configs.get("return_numpy", False))
    keep_name_table = bool(configs.get("keep_name_table", False))

    if _is_memory_buffer(path):
        return _load_bytes(path.read(), "<BytesIO>", return_numpy, keep_name_table)
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str):
        raise ValueError(f"only supports loading objects from a file path or `BytesIO`, but "
                         f"got {type(path)}")
    if os.path.isdir(path):
        raise ValueError(f"paddle.load(): '{path}' is a directory; loading the directory and "
                         f"prefix formats of paddle.jit.save / save_inference_model is not "
                         f"supported here, give the path of a file written by paddle.save")
    if not os.path.exists(path):
        hint = ""
        for suffix in (".pdparams", ".pdopt"):
            if os.path.exists(path + suffix):
                hint = (f" (but '{path + suffix}' exists: please specify the full file name, "
                        f"not just the prefix)")
        raise FileNotFoundError(errno.ENOENT, f"paddle.load(): no such file: '{path}'{hint}",
                                path)
    with open(path, "rb") as f:
        data = f.read()
    return _load_bytes(data, path, return_numpy, keep_name_table)


def _load_bytes(data, path, return_numpy, keep_name_table):
    """A paddle.save pickle, else a saved Program (a serialized ProgramDesc), from `data`."""
    try:
        obj = _unpickle(io.BytesIO(data), path)
    except ValueError as not_a_pickle:
        from ..static.program import Program
        try:
            return Program.parse_from_string(data)
        except Exception:
            pass  # neither: the pickle's error says what is wrong with the file
        raise not_a_pickle
    return _restore(obj, return_numpy, keep_name_table)


def _unpickle(f, path):
    try:
        return pickle.load(f, encoding="latin1")
    except OSError:
        raise
    except Exception as error:
        # Corrupt or truncated data can make the unpickler raise almost anything (EOFError,
        # UnpicklingError, ValueError, KeyError, MemoryError for a bogus length, ...).
        raise ValueError(f"paddle.load(): cannot parse the file '{path}' ({type(error).__name__}: "
                         f"{error}); it is truncated or corrupt, or was not written by "
                         f"paddle.save") from error
