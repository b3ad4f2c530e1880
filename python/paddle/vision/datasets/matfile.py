"""A reader for the numeric arrays of MATLAB level 5 .mat files, the format of the Flowers
dataset's imagelabels.mat and setid.mat. PaddlePaddle reads them with scipy.io.loadmat; scipy is
not a dependency of this project, and those files hold nothing but numeric matrices, so this
small reader covers them: little- or big-endian files, compressed (miCOMPRESSED) or plain
elements, the small-element form, and the numeric classes. Cell arrays, structs, objects,
character, sparse and complex arrays are reported as unsupported. MATLAB v7.3 files are HDF5
and are reported as such."""
import struct
import zlib

import numpy as np

__all__ = ["loadmat"]

_MI_INT8, _MI_UINT8, _MI_INT16, _MI_UINT16, _MI_INT32, _MI_UINT32 = 1, 2, 3, 4, 5, 6
_MI_SINGLE, _MI_DOUBLE, _MI_INT64, _MI_UINT64 = 7, 9, 12, 13
_MI_MATRIX, _MI_COMPRESSED = 14, 15

_ELEMENT_DTYPES = {_MI_INT8: "i1", _MI_UINT8: "u1", _MI_INT16: "i2", _MI_UINT16: "u2",
                   _MI_INT32: "i4", _MI_UINT32: "u4", _MI_SINGLE: "f4", _MI_DOUBLE: "f8",
                   _MI_INT64: "i8", _MI_UINT64: "u8"}
# mxCLASS -> the dtype the array has (scipy's loadmat gives the class's dtype).
_CLASS_DTYPES = {6: "f8", 7: "f4", 8: "i1", 9: "u1", 10: "i2", 11: "u2", 12: "i4", 13: "u4",
                 14: "i8", 15: "u8"}
_CLASS_NAMES = {1: "cell", 2: "struct", 3: "object", 4: "char", 5: "sparse"}
_COMPLEX_FLAG = 0x0800


class _Reader:
    def __init__(self, data, endian, path):
        self.data = data
        self.endian = endian
        self.path = path

    def error(self, message):
        return ValueError(f"loadmat: {self.path}: {message}")

    def elements(self, offset=0, end=None):
        """(type, payload bytes) of each data element in data[offset:end]."""
        end = len(self.data) if end is None else end
        while offset < end:
            if end - offset < 8:
                raise self.error(f"truncated element tag at byte {offset}")
            first, second = struct.unpack_from(self.endian + "II", self.data, offset)
            if first >> 16:
                # Small element: size in the upper half, type in the lower, data in the next 4 bytes.
                kind, size = first & 0xFFFF, first >> 16
                yield kind, self.data[offset + 4:offset + 4 + size]
                offset += 8
                continue
            kind, size = first, second
            start = offset + 8
            if start + size > end:
                raise self.error(f"element at byte {offset} needs {size} bytes, {end - start} "
                                 f"remain (the file is truncated)")
            yield kind, self.data[start:start + size]
            # Elements are padded to 8 bytes, except compressed ones.
            offset = start + (size if kind == _MI_COMPRESSED else (size + 7) // 8 * 8)

    def numeric(self, kind, payload):
        if kind not in _ELEMENT_DTYPES:
            raise self.error(f"unsupported data type {kind}")
        return np.frombuffer(payload, np.dtype(_ELEMENT_DTYPES[kind]).newbyteorder(self.endian))

    def matrix(self, payload):
        """(name, array) of an miMATRIX element."""
        sub = _Reader(payload, self.endian, self.path)
        parts = list(sub.elements())
        if len(parts) < 3:
            raise self.error("incomplete matrix element")
        flags = sub.numeric(*parts[0])
        mx_class = int(flags[0]) & 0xFF
        shape = tuple(int(d) for d in sub.numeric(*parts[1]))
        name = bytes(parts[2][1]).decode("ascii", "replace")
        if mx_class not in _CLASS_DTYPES:
            kind = _CLASS_NAMES.get(mx_class, f"class {mx_class}")
            raise self.error(f"variable {name!r} is a {kind} array; only numeric arrays are "
                             f"supported")
        if int(flags[0]) & _COMPLEX_FLAG:
            raise self.error(f"variable {name!r} is complex; only real arrays are supported")
        if len(parts) < 4:
            raise self.error(f"variable {name!r} has no data")
        values = sub.numeric(*parts[3])
        if values.size != int(np.prod(shape)):
            raise self.error(f"variable {name!r} holds {values.size} values for shape {shape}")
        array = values.astype(_CLASS_DTYPES[mx_class]).reshape(shape, order="F")
        return name, array


def loadmat(path):
    """{name: numpy array} of the numeric variables of a level 5 .mat file, each with the shape
    MATLAB gives it (at least 2-D) and its class's dtype, as scipy.io.loadmat returns them."""
    with open(path, "rb") as stream:
        data = stream.read()
    if data[:8] == b"\x89HDF\r\n\x1a\n" or data[512:520] == b"\x89HDF\r\n\x1a\n":
        raise ValueError(f"loadmat: {path} is a MATLAB v7.3 (HDF5) file; only level 5 files are "
                         f"supported")
    if len(data) < 128:
        raise ValueError(f"loadmat: {path} is not a MATLAB level 5 file (only {len(data)} bytes)")
    indicator = data[126:128]
    if indicator == b"IM":
        endian = "<"
    elif indicator == b"MI":
        endian = ">"
    else:
        raise ValueError(f"loadmat: {path} is not a MATLAB level 5 file (no endian indicator)")
    reader = _Reader(data, endian, path)
    variables = {}
    for kind, payload in reader.elements(128):
        if kind == _MI_COMPRESSED:
            try:
                payload = zlib.decompress(payload)
            except zlib.error as error:
                raise reader.error(f"corrupt compressed element: {error}") from error
            inner = _Reader(payload, endian, path)
            elements = list(inner.elements())
            if not elements:
                continue
            kind, payload = elements[0]
        if kind == _MI_MATRIX:
            name, array = reader.matrix(payload)
            variables[name] = array
    return variables
