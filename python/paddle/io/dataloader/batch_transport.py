"""How a batch travels from a worker process to the main one. The worker takes the numpy arrays
and Tensors out of the batch (leaving numbered slots in its structure) and writes them into one
shared-memory file (/dev/shm where it exists); the main process maps the file, unlinks it at
once (the mapping keeps the pages until the arrays are dropped), copies the arrays into Tensors
and puts them back into the slots. Without shared memory the arrays are pickled through the
pipe instead."""
import mmap
import os
import tempfile
from collections.abc import Mapping, Sequence

import numpy as np

from ...base.libpaddle import Tensor

_ALIGN = 64


def shm_dir():
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) \
        else tempfile.gettempdir()


class Slot:
    """Where the i-th array of a batch goes back."""
    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index

    def __reduce__(self):
        return Slot, (self.index,)


def take_arrays(batch, arrays):
    """The batch's structure with every Tensor and numeric numpy array replaced by a Slot (the
    array appended to `arrays`); tuples become lists, as the DataLoader returns them."""
    if isinstance(batch, Tensor) or (isinstance(batch, np.ndarray) and batch.dtype.kind in "biufc"):
        arrays.append(batch)
        return Slot(len(arrays) - 1)
    if isinstance(batch, (str, bytes)):
        return batch
    if isinstance(batch, Mapping):
        return {key: take_arrays(value, arrays) for key, value in batch.items()}
    if isinstance(batch, Sequence):
        return [take_arrays(item, arrays) for item in batch]
    return batch


def put_back(structure, tensors):
    if isinstance(structure, Slot):
        return tensors[structure.index]
    if isinstance(structure, dict):
        return {key: put_back(value, tensors) for key, value in structure.items()}
    if isinstance(structure, list):
        return [put_back(item, tensors) for item in structure]
    return structure


class SharedArrays:
    """Arrays written to one shared-memory file, described by (path, [(dtype, shape, offset)])."""

    def __init__(self, path, layout, nbytes):
        self.path = path
        self.layout = layout
        self.nbytes = nbytes

    @staticmethod
    def write(arrays, path):
        """`arrays`: numpy arrays (Tensors converted by the caller)."""
        layout, offset = [], 0
        for array in arrays:
            array = np.ascontiguousarray(array)
            layout.append((array.dtype.str, array.shape, offset))
            offset += (array.nbytes + _ALIGN - 1) // _ALIGN * _ALIGN
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
        try:
            os.ftruncate(fd, max(offset, 1))
            with mmap.mmap(fd, max(offset, 1)) as buffer:
                for array, (_, _, start) in zip(arrays, layout):
                    array = np.ascontiguousarray(array)
                    view = np.frombuffer(buffer, dtype=np.uint8, count=array.nbytes, offset=start)
                    view[:] = array.reshape(-1).view(np.uint8)
                    del view
        except BaseException:
            os.unlink(path)
            raise
        finally:
            os.close(fd)
        return SharedArrays(path, layout, max(offset, 1))

    def read(self):
        """Maps the file and unlinks it; the arrays view the mapping."""
        fd = os.open(self.path, os.O_RDONLY)
        try:
            os.unlink(self.path)
            buffer = mmap.mmap(fd, self.nbytes, access=mmap.ACCESS_READ)
        finally:
            os.close(fd)
        return [np.frombuffer(buffer, dtype=np.dtype(dtype), count=int(np.prod(shape)),
                              offset=offset).reshape(shape)
                for dtype, shape, offset in self.layout]

    def discard(self):
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass
