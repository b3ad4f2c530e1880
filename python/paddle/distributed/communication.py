"""The collectives of paddle.distributed, with Paddle's signatures: each runs on the C++ process
group of `group` (the default group when None), in place on the given tensors; sync_op=False
returns a task whose wait() blocks until the operation finished. `src` and `dst` are global
ranks, as in Paddle. The list forms (all_gather, reduce_scatter, scatter, alltoall) pack the
list into one contiguous tensor here and unpack the result, so the C++ side only sees flat
buffers.
"""
import pickle

import numpy as np

from ..base import libpaddle
from ..tensor.creation import empty, to_tensor
from ..tensor.manipulation import concat, reshape, split
from .parallel_env import _get_global_group

ReduceOp = libpaddle.distributed.ReduceOp


class _DoneTask:
    """The task of an operation this rank takes no part in (not a member of the group)."""

    def wait(self):
        return True

    def is_completed(self):
        return True


def _group(group, api):
    return _get_global_group() if group is None else group


def _check_tensor(tensor, api, arg="tensor"):
    if not isinstance(tensor, libpaddle.Tensor):
        raise TypeError(f"paddle.distributed.{api}: `{arg}` must be a paddle.Tensor, received "
                        f"{type(tensor).__name__}")


def _group_rank(group, rank, api, arg):
    if not isinstance(rank, int) or isinstance(rank, bool):
        raise TypeError(f"paddle.distributed.{api}: `{arg}` must be an int rank, received "
                        f"{type(rank).__name__}")
    r = group.get_group_rank(rank)
    if r < 0:
        raise ValueError(f"paddle.distributed.{api}: `{arg}`={rank} is not a rank of the group "
                         f"(ranks {group.ranks})")
    return r


def _check_op(op, api):
    if not isinstance(op, ReduceOp):
        try:
            op = ReduceOp(int(op))
        except (TypeError, ValueError):
            raise ValueError(f"paddle.distributed.{api}: `op` must be a ReduceOp (SUM, MAX, MIN, "
                             f"PROD, AVG), received {op!r}") from None
    return op


def _flat(tensors, api, arg):
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise ValueError(f"paddle.distributed.{api}: `{arg}` must be a non-empty list of tensors")
    for t in tensors:
        _check_tensor(t, api, arg)
    first = tensors[0]
    for t in tensors:
        if t.shape != first.shape or t.dtype != first.dtype:
            raise ValueError(f"paddle.distributed.{api}: every tensor of `{arg}` must have the "
                             f"shape and dtype of the first ({first.shape}, {first.dtype}), "
                             f"received {t.shape}, {t.dtype}")
    return concat([reshape(t.detach(), [-1]) for t in tensors])


def all_reduce(tensor, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduces `tensor` over the ranks of the group with `op`; every rank gets the result."""
    _check_tensor(tensor, "all_reduce")
    group = _group(group, "all_reduce")
    if not group.is_member():
        return _DoneTask()
    return group.process_group.all_reduce(tensor, _check_op(op, "all_reduce"), sync_op)


def broadcast(tensor, src, group=None, sync_op=True):
    """Copies rank `src`'s tensor into every rank's `tensor`."""
    _check_tensor(tensor, "broadcast")
    group = _group(group, "broadcast")
    if not group.is_member():
        return _DoneTask()
    return group.process_group.broadcast(tensor, _group_rank(group, src, "broadcast", "src"),
                                         sync_op)


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduces `tensor` over the ranks into rank `dst`'s tensor."""
    _check_tensor(tensor, "reduce")
    group = _group(group, "reduce")
    if not group.is_member():
        return _DoneTask()
    return group.process_group.reduce(tensor, _group_rank(group, dst, "reduce", "dst"),
                                      _check_op(op, "reduce"), sync_op)


def all_gather(tensor_list, tensor, group=None, sync_op=True):
    """Fills `tensor_list` (cleared first) with every rank's `tensor`, in rank order."""
    _check_tensor(tensor, "all_gather")
    if not isinstance(tensor_list, list):
        raise TypeError(f"paddle.distributed.all_gather: `tensor_list` must be a list, received "
                        f"{type(tensor_list).__name__}")
    group = _group(group, "all_gather")
    if not group.is_member():
        return _DoneTask()
    n = group.nranks
    out = empty([n * max(tensor.size, 0)], dtype=tensor.dtype)
    task = group.process_group.all_gather(out, tensor, True)
    tensor_list.clear()
    parts = split(out, n) if tensor.size > 0 else [empty([0], tensor.dtype) for _ in range(n)]
    tensor_list.extend(reshape(p, tensor.shape) for p in parts)
    return task


def gather(tensor, gather_list=None, dst=0, group=None, sync_op=True):
    """Rank `dst` gets every rank's `tensor` in `gather_list` (cleared first), in rank order.
    It runs as an all_gather (every rank receives the data): simpler than a rooted gather and,
    on the ring, the same number of steps."""
    _check_tensor(tensor, "gather")
    group = _group(group, "gather")
    if not group.is_member():
        return _DoneTask()
    root = _group_rank(group, dst, "gather", "dst")
    if group.rank == root and not isinstance(gather_list, list):
        raise TypeError(f"paddle.distributed.gather: the destination rank needs `gather_list`, "
                        f"a list, received {type(gather_list).__name__}")
    parts = []
    task = all_gather(parts, tensor, group)
    if group.rank == root:
        gather_list.clear()
        gather_list.extend(parts)
    return task


def _object_to_tensor(obj):
    data = np.frombuffer(pickle.dumps(obj), dtype=np.uint8)
    return to_tensor(data, dtype="uint8"), data.size


def all_gather_object(object_list, obj, group=None):
    """Fills `object_list` (cleared first) with every rank's picklable `obj`, in rank order."""
    if not isinstance(object_list, list):
        raise TypeError(f"paddle.distributed.all_gather_object: `object_list` must be a list, "
                        f"received {type(object_list).__name__}")
    group = _group(group, "all_gather_object")
    if not group.is_member():
        return
    data, size = _object_to_tensor(obj)
    sizes = []
    all_gather(sizes, to_tensor([size], dtype="int64"), group)
    longest = max(int(s.numpy()[0]) for s in sizes)
    padded = to_tensor(np.pad(data.numpy(), (0, longest - size)), dtype="uint8")
    gathered = []
    all_gather(gathered, padded, group)
    object_list.clear()
    for part, s in zip(gathered, sizes):
        object_list.append(pickle.loads(part.numpy()[:int(s.numpy()[0])].tobytes()))


def broadcast_object_list(object_list, src, group=None):
    """Replaces `object_list`'s items with rank `src`'s (picklable objects)."""
    group = _group(group, "broadcast_object_list")
    if not group.is_member():
        return
    data, size = _object_to_tensor(list(object_list))
    length = to_tensor([size], dtype="int64")
    broadcast(length, src, group)
    buffer = data if group.rank == group.get_group_rank(src) else empty(
        [int(length.numpy()[0])], dtype="uint8")
    broadcast(buffer, src, group)
    object_list[:] = pickle.loads(buffer.numpy().tobytes())


def reduce_scatter(tensor, tensor_list, op=ReduceOp.SUM, group=None, sync_op=True):
    """Reduces tensor_list[i] over the ranks into rank i's `tensor`."""
    _check_tensor(tensor, "reduce_scatter")
    group = _group(group, "reduce_scatter")
    if not group.is_member():
        return _DoneTask()
    if len(tensor_list) != group.nranks:
        raise ValueError(f"paddle.distributed.reduce_scatter: `tensor_list` must hold one tensor "
                         f"per rank ({group.nranks}), received {len(tensor_list)}")
    flat = _flat(tensor_list, "reduce_scatter", "tensor_list")
    return group.process_group.reduce_scatter(tensor, flat, _check_op(op, "reduce_scatter"),
                                              sync_op)


def scatter(tensor, tensor_list=None, src=0, group=None, sync_op=True):
    """Rank `src` sends tensor_list[i] to rank i, which receives it in `tensor`."""
    _check_tensor(tensor, "scatter")
    group = _group(group, "scatter")
    if not group.is_member():
        return _DoneTask()
    root = _group_rank(group, src, "scatter", "src")
    if group.rank == root:
        if tensor_list is None or len(tensor_list) != group.nranks:
            raise ValueError(f"paddle.distributed.scatter: the source rank needs `tensor_list` "
                             f"with one tensor per rank ({group.nranks}), received "
                             f"{None if tensor_list is None else len(tensor_list)}")
        flat = _flat(tensor_list, "scatter", "tensor_list")
    else:
        flat = tensor
    return group.process_group.scatter(tensor, flat, root, sync_op)


def alltoall(out_tensor_list, in_tensor_list, group=None, sync_op=True):
    """Sends in_tensor_list[j] to rank j; out_tensor_list (cleared first) gets, at position i,
    what rank i sent to this rank."""
    group = _group(group, "alltoall")
    if not group.is_member():
        return _DoneTask()
    if not isinstance(out_tensor_list, list):
        raise TypeError(f"paddle.distributed.alltoall: `out_tensor_list` must be a list, "
                        f"received {type(out_tensor_list).__name__}")
    if len(in_tensor_list) != group.nranks:
        raise ValueError(f"paddle.distributed.alltoall: `in_tensor_list` must hold one tensor "
                         f"per rank ({group.nranks}), received {len(in_tensor_list)}")
    flat = _flat(in_tensor_list, "alltoall", "in_tensor_list")
    out = empty(flat.shape, dtype=flat.dtype)
    task = group.process_group.alltoall(out, flat, True)
    shape = in_tensor_list[0].shape
    out_tensor_list.clear()
    out_tensor_list.extend(reshape(p, shape) for p in split(out, group.nranks))
    return task


def send(tensor, dst=0, group=None, sync_op=True):
    """Sends `tensor` to rank `dst`, which receives it with recv/irecv."""
    _check_tensor(tensor, "send")
    group = _group(group, "send")
    if not group.is_member():
        return _DoneTask()
    return group.process_group.send(tensor, _group_rank(group, dst, "send", "dst"), sync_op)


def recv(tensor, src=0, group=None, sync_op=True):
    """Receives into `tensor` what rank `src` sent."""
    _check_tensor(tensor, "recv")
    group = _group(group, "recv")
    if not group.is_member():
        return _DoneTask()
    return group.process_group.recv(tensor, _group_rank(group, src, "recv", "src"), sync_op)


def isend(tensor, dst, group=None):
    """send without waiting; returns the task."""
    return send(tensor, dst, group, sync_op=False)


def irecv(tensor, src=None, group=None):
    """recv without waiting; returns the task."""
    return recv(tensor, 0 if src is None else src, group, sync_op=False)


def barrier(group=None):
    """Returns once every rank of the group has called barrier."""
    group = _group(group, "barrier")
    if group.is_member():
        group.process_group.barrier()


def wait(tensor, group=None, use_calc_stream=True):
    """On the CPU every synchronous collective has finished when it returns; kept for Paddle's
    API (on GPUs it orders the streams)."""
    _check_tensor(tensor, "wait")
