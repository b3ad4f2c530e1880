"""How a batch travels from a worker process to the main one. The worker takes the numpy arrays
and Tensors out of the batch (leaving numbered slots in its structure) and writes them into one of
its shared-memory files (under /dev/shm where it exists); the main process copies them out into
Tensors as soon as the batch arrives, puts those back into the slots and hands the file back to
the worker for a later batch. Without shared memory the arrays are pickled through the pipe
instead."""
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


class Segment:
    """Where a batch's arrays lie: a shared-memory file (`path`, `size` bytes) and one
    (dtype, shape, offset) per array."""

    def __init__(self, path, size, layout):
        self.path = path
        self.size = size
        self.layout = layout


class SegmentWriter:
    """A worker's shared-memory files, reused: the main process copies a batch out as soon as it
    arrives and hands the file back (`release`), so a worker cycles through about
    prefetch_factor + 1 files whose pages stay mapped on both sides. Writing into pages that are
    already there is a plain memcpy; a fresh file for every batch cost ten times that in page
    faults. The worker removes its files when it leaves (`close`)."""

    def __init__(self, prefix):
        self.prefix = prefix
        self._maps = {}
        self._free = []

    def write(self, arrays):
        """`arrays`: numpy arrays (Tensors converted by the caller)."""
        layout, size = [], 0
        for array in arrays:
            layout.append((array.dtype.str, array.shape, size))
            size += (array.nbytes + _ALIGN - 1) // _ALIGN * _ALIGN
        path = self._take(max(size, _ALIGN))
        buffer = self._maps[path]
        for array, (_, _, offset) in zip(arrays, layout):
            np.ndarray(array.shape, array.dtype, buffer=buffer, offset=offset)[...] = array
        return Segment(path, len(buffer), layout)

    def _take(self, size):
        """A free file of at least `size` bytes: one that is big enough, else a free one grown,
        else a new one."""
        fits = [path for path in self._free if len(self._maps[path]) >= size]
        if fits:
            self._free.remove(fits[0])
            return fits[0]
        if self._free:
            path = self._free.pop()
            self._maps.pop(path).close()
            flags = os.O_RDWR
        else:
            path = f"{self.prefix}{len(self._maps)}"
            flags = os.O_CREAT | os.O_EXCL | os.O_RDWR
        fd = os.open(path, flags, 0o600)
        try:
            os.ftruncate(fd, size)
            self._maps[path] = mmap.mmap(fd, size)
        finally:
            os.close(fd)
        return path

    def release(self, path):
        if path in self._maps:
            self._free.append(path)

    def close(self):
        for path, buffer in self._maps.items():
            buffer.close()
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
        self._maps, self._free = {}, []


class SegmentReader:
    """The main process's read-only mappings of the workers' files, kept between batches (a
    file grown by its worker is mapped again)."""

    def __init__(self):
        self._maps = {}

    def arrays(self, segment):
        """Views of the segment's arrays; they must be copied before the segment is released."""
        buffer = self._maps.get(segment.path)
        if buffer is None or len(buffer) < segment.size:
            fd = os.open(segment.path, os.O_RDONLY)
            try:
                buffer = self._maps[segment.path] = mmap.mmap(fd, segment.size,
                                                              access=mmap.ACCESS_READ)
            finally:
                os.close(fd)
        return [np.ndarray(shape, np.dtype(dtype), buffer=buffer, offset=offset)
                for dtype, shape, offset in segment.layout]

    def close(self):
        # Dropped rather than closed: a view still alive (an exception's frame) keeps its map.
        self._maps = {}
