"""paddle.DataParallel: data-parallel training of a Layer over the default (or a given) group.

At construction the parameters are broadcast from rank 0 and grouped into buckets as Paddle's
assign_group_by_size does: in parameter order, per dtype, the first bucket up to
last_comm_buffer_size MB and the others up to comm_buffer_size MB; buckets are launched in the
reverse order, the order backward produces gradients. The C++ Reducer hooks the parameters'
gradient accumulation: when a bucket's last gradient is accumulated its all-reduce (average)
starts on the communication thread while backward goes on. An Embedding(sparse=True) weight gets
a SelectedRows gradient: every rank's rows and values are gathered, averaged and merged, as
Paddle does. Under no_sync() gradients only
accumulate locally; the next synchronised backward averages the accumulated gradients.
"""
import contextlib

from ..base import libpaddle
from ..nn.layer.embedding import Embedding
from ..nn.layer.layers import Layer
from .communication import broadcast
from .parallel_env import _get_global_group, get_world_size

_MB = 1024 * 1024


def _assign_buckets(params, small_limit, limit, sparse=None):
    """Bucket indices (lists of parameter indices), in launch (backward) order. A parameter with
    a sparse gradient gets a bucket of its own, as in Paddle."""
    buckets, open_buckets, bucket_count = [], {}, 0
    for i, p in enumerate(params):
        if sparse is not None and sparse[i]:
            buckets.append([i])
            bucket_count += 1
            continue
        key = p.dtype
        nbytes = p.size * p.element_size()
        current = open_buckets.get(key)
        if current is None:
            current = open_buckets[key] = [[], 0, small_limit if bucket_count == 0 else limit]
            bucket_count += 1
        current[0].append(i)
        current[1] += nbytes
        if current[1] >= current[2]:
            buckets.append(current[0])
            del open_buckets[key]
    buckets.extend(b[0] for b in open_buckets.values())
    buckets.sort(key=lambda b: b[0])
    return list(reversed(buckets))


def _tensors_in(outputs):
    if isinstance(outputs, libpaddle.Tensor):
        yield outputs
    elif isinstance(outputs, (list, tuple)):
        for o in outputs:
            yield from _tensors_in(o)
    elif isinstance(outputs, dict):
        for o in outputs.values():
            yield from _tensors_in(o)


class DataParallel(Layer):
    """Runs `layers` on this rank's data and averages the gradients over the group's ranks."""

    def __init__(self, layers, strategy=None, comm_buffer_size=25, last_comm_buffer_size=1,
                 find_unused_parameters=False, group=None):
        super().__init__(layers.full_name() + "_data_parallel")
        if not isinstance(layers, Layer):
            raise TypeError(f"DataParallel: `layers` must be a paddle.nn.Layer, received "
                            f"{type(layers).__name__}")
        for name, value in (("comm_buffer_size", comm_buffer_size),
                            ("last_comm_buffer_size", last_comm_buffer_size)):
            if not value > 0:
                raise ValueError(f"DataParallel: {name} (MB) must be positive, received {value}")
        self._layers = layers
        self.find_unused_parameters = find_unused_parameters
        self.grad_need_sync = True
        self._group = group
        self._reducer = None
        self.comm_buffer_size = int(comm_buffer_size * _MB)
        self.last_comm_buffer_size = int(last_comm_buffer_size * _MB)
        nranks = get_world_size(group) if group is not None else get_world_size()
        if nranks > 1:
            group = group if group is not None else _get_global_group()
            self._group = group
            self._sync_params_buffers()
            sparse_weights = {id(sub.weight) for sub in layers.sublayers(include_self=True)
                              if isinstance(sub, Embedding) and sub._sparse}
            params, sparse = [], []
            seen = set()
            for _, p in layers.named_parameters():
                if not p.stop_gradient and id(p) not in seen:
                    seen.add(id(p))
                    params.append(p)
                    sparse.append(id(p) in sparse_weights)
            buckets = _assign_buckets(params, self.last_comm_buffer_size, self.comm_buffer_size,
                                      sparse)
            self._reducer = libpaddle.distributed.Reducer(params, buckets, sparse,
                                                          group.process_group,
                                                          find_unused_parameters)

    def _sync_params_buffers(self):
        src = self._group.ranks[0]
        for p in self._layers.parameters():
            broadcast(p, src, self._group)
        for b in self._layers.buffers():
            broadcast(b, src, self._group)

    def forward(self, *inputs, **kwargs):
        outputs = self._layers(*inputs, **kwargs)
        if self._reducer is not None and self.grad_need_sync and libpaddle.is_grad_enabled():
            self._reducer.prepare_for_backward(list(_tensors_in(outputs)))
        return outputs

    @contextlib.contextmanager
    def no_sync(self):
        """Gradients of the backward passes inside accumulate locally and are not averaged; the
        next backward outside averages the accumulated gradients."""
        previous = self.grad_need_sync
        self.grad_need_sync = False
        try:
            yield
        finally:
            self.grad_need_sync = previous

    def state_dict(self, destination=None, include_sublayers=True, structured_name_prefix="",
                   use_hook=True):
        return self._layers.state_dict(destination=destination,
                                       include_sublayers=include_sublayers,
                                       structured_name_prefix=structured_name_prefix,
                                       use_hook=use_hook)

    def set_state_dict(self, state_dict, use_structured_name=True):
        return self._layers.set_state_dict(state_dict, use_structured_name=use_structured_name)

    set_dict = set_state_dict
    load_dict = set_state_dict

    @property
    def last_unoverlapped_seconds(self):
        """Seconds the last synchronised backward waited for the all-reduces after its last
        bucket started: the communication backward did not hide."""
        return 0.0 if self._reducer is None else self._reducer.last_wait_seconds

    @property
    def last_bucket_timeline(self):
        """The last synchronised backward, in seconds after the end of its forward: `launched`
        and `finished` of each bucket's all-reduce (launch order), `last_gradient` (when
        backward's last gradient was accumulated) and `launched_before_last_gradient` (how many
        buckets started while backward was still computing). None on a single process."""
        return None if self._reducer is None else self._reducer.last_timeline
