"""Framework-wide state: the default dtype, dtype conversion and the execution mode."""
import numpy as np

from . import libpaddle
from .libpaddle import DataType

_default_dtype = DataType.FLOAT32

_NUMPY_TO_DTYPE = {
    np.dtype("bool"): DataType.BOOL,
    np.dtype("int8"): DataType.INT8,
    np.dtype("uint8"): DataType.UINT8,
    np.dtype("int16"): DataType.INT16,
    np.dtype("int32"): DataType.INT32,
    np.dtype("int64"): DataType.INT64,
    np.dtype("float16"): DataType.FLOAT16,
    np.dtype("float32"): DataType.FLOAT32,
    np.dtype("float64"): DataType.FLOAT64,
    np.dtype("complex64"): DataType.COMPLEX64,
    np.dtype("complex128"): DataType.COMPLEX128,
}
_DTYPE_TO_NUMPY = {v: k for k, v in _NUMPY_TO_DTYPE.items()}
_DTYPE_TO_NUMPY[DataType.BFLOAT16] = np.dtype("uint16")  # NumPy has no bfloat16


def convert_dtype(dtype):
    """Returns the DataType for a paddle dtype, a NumPy dtype or type, or a name ('float32')."""
    if isinstance(dtype, DataType):
        return dtype
    if isinstance(dtype, str):
        if dtype.startswith("paddle."):
            dtype = dtype[len("paddle."):]
        return DataType(DataType.__members__[_name_to_member(dtype)])
    try:
        return _NUMPY_TO_DTYPE[np.dtype(dtype)]
    except (TypeError, KeyError):
        raise TypeError(f"unsupported data type {dtype!r}; expected a paddle dtype, a NumPy "
                        f"dtype or a name such as 'float32'") from None


def _name_to_member(name):
    aliases = {"float": "float32", "double": "float64", "half": "float16", "int": "int64",
               "long": "int64", "uint16": "bfloat16"}
    name = aliases.get(name, name)
    member = name.upper()
    if member not in DataType.__members__ or member == "UNDEFINED":
        raise TypeError(f"unsupported data type {name!r}; expected one of bool, int8, uint8, "
                        f"int16, int32, int64, float16, bfloat16, float32, float64, complex64, "
                        f"complex128")
    return member


def to_numpy_dtype(dtype):
    return _DTYPE_TO_NUMPY[convert_dtype(dtype)]


def is_floating(dtype):
    return convert_dtype(dtype) in (DataType.FLOAT16, DataType.BFLOAT16, DataType.FLOAT32,
                                    DataType.FLOAT64)


def is_integer(dtype):
    return convert_dtype(dtype) in (DataType.INT8, DataType.UINT8, DataType.INT16,
                                    DataType.INT32, DataType.INT64)


def is_complex(dtype):
    return convert_dtype(dtype) in (DataType.COMPLEX64, DataType.COMPLEX128)


def default_complex_dtype():
    """The dtype of complex tensors made from Python complex numbers: the complex type whose
    parts have the default float dtype (complex128 for float64, complex64 otherwise)."""
    return DataType.COMPLEX128 if _default_dtype == DataType.FLOAT64 else DataType.COMPLEX64


def get_default_dtype():
    """The dtype of floating-point tensors made from Python floats, as a string ('float32')."""
    return _default_dtype.name


def set_default_dtype(d):
    global _default_dtype
    dtype = convert_dtype(d)
    if dtype not in (DataType.FLOAT16, DataType.BFLOAT16, DataType.FLOAT32, DataType.FLOAT64):
        raise TypeError(f"set_default_dtype only supports floating-point dtypes, "
                        f"received {dtype.name}")
    _default_dtype = dtype


def default_float_dtype():
    return _default_dtype


def in_dynamic_mode():
    """True in dygraph (eager) mode, the default; False after paddle.enable_static()."""
    return not libpaddle._in_static_mode()
