"""Data-parallel training of a static program on several places: paddle.static.ParallelExecutor,
CompiledProgram.with_data_parallel, cpu_places and cuda_places.

Written in Python because this is the argument handling Paddle does in Python (choosing the
places from CPU_NUM or the visible GPUs, splitting the feed across places, merging the fetched
values); the execution itself is the C++ ParallelExecutor (paddle/framework/parallel_executor.h):
one copy of the program per place, ops run by a thread pool as their inputs become ready, and
the parameter gradients summed across places in buckets before the optimizer runs.

As in Paddle, the gradient of the loss starts at 1/num_places on every place
(GradientScaleStrategy.CoeffNumDevice), so the summed gradients are those of the mean loss over
the whole batch; `One` keeps 1 (the sum of the places' gradients) and `Customized` drops the
op that seeds it, so the caller feeds `<loss>@GRAD` on every place. With
ReduceStrategy.Reduce each gradient is summed onto one place, which alone runs that
parameter's optimizer ops and then copies the parameter to the other places.
"""
import os
import sys

import numpy as np

from ..base import libpaddle
from .program import OP_ROLE_BACKWARD, OP_ROLE_LOSS

__all__ = ["ParallelExecutor", "cpu_places", "cuda_places"]


def _cpu_num():
    """The number of CPU places: the CPU_NUM environment variable, 1 when unset (as Paddle,
    which also sets it)."""
    value = os.environ.get("CPU_NUM")
    if value is None:
        if (os.cpu_count() or 1) > 1:
            sys.stderr.write("CPU_NUM is not set: running on 1 CPU place. Set CPU_NUM to the "
                             "number of CPU places to train on, e.g. export CPU_NUM=2\n")
        os.environ["CPU_NUM"] = "1"
        return 1
    try:
        count = int(value)
    except ValueError:
        count = 0
    if count < 1 or str(count) != value.strip():
        raise ValueError(f"The environment variable CPU_NUM must be a positive integer (the "
                         f"number of CPU places), but received {value!r}")
    return count


def cpu_places(device_count=None):
    """`device_count` CPUPlaces; None takes the count from the CPU_NUM environment variable."""
    if device_count is None:
        device_count = _cpu_num()
    if isinstance(device_count, bool) or not isinstance(device_count, int):
        raise TypeError(f"cpu_places(): device_count must be an int, but received "
                        f"{type(device_count).__name__} {device_count!r}")
    if device_count < 1:
        raise ValueError(f"cpu_places(): device_count must be >= 1, but received "
                         f"{device_count}")
    return [libpaddle.CPUPlace() for _ in range(device_count)]


def cuda_places(device_ids=None):
    """CUDAPlaces for `device_ids`; None takes every visible GPU (FLAGS_selected_gpus when
    set)."""
    count = libpaddle.get_cuda_device_count()
    if device_ids is None:
        selected = os.environ.get("FLAGS_selected_gpus", "")
        device_ids = [int(s) for s in selected.split(",") if s.strip()] if selected else \
            list(range(count))
    elif not isinstance(device_ids, (list, tuple)):
        device_ids = [device_ids]
    for device_id in device_ids:
        if isinstance(device_id, bool) or not isinstance(device_id, int):
            raise TypeError(f"cuda_places(): device ids must be ints, but received "
                            f"{device_id!r}")
        if not 0 <= device_id < count:
            raise ValueError(f"cuda_places(): GPU {device_id} does not exist: {count} GPU(s) "
                             f"visible")
    return [libpaddle.CUDAPlace(i) for i in device_ids]


def _check_places(places, executor_place=None):
    """The places to run on: `places` checked (each a CPUPlace or an existing CUDAPlace, all of
    one kind, the executor's kind when it is given), or the default for the executor's
    device."""
    if places is None:
        return cuda_places() if executor_place.is_gpu_place() else cpu_places()
    if isinstance(places, libpaddle.Place):
        places = [places]
    if not isinstance(places, (list, tuple)):
        raise TypeError(f"with_data_parallel(): places must be a list of places, but received "
                        f"{type(places).__name__}")
    if not places:
        raise ValueError("with_data_parallel(): places is empty; pass at least one place")
    count = libpaddle.get_cuda_device_count()
    for place in places:
        if not isinstance(place, libpaddle.Place) or not (place.is_cpu_place() or
                                                          place.is_gpu_place()):
            raise ValueError(f"with_data_parallel(): places must be CPUPlace or CUDAPlace "
                             f"objects, but received {place!r}")
        if place.is_gpu_place() and place.gpu_device_id() >= count:
            raise ValueError(f"with_data_parallel(): place {place} does not exist: {count} "
                             f"GPU(s) visible")
    if len({p.is_gpu_place() for p in places}) > 1:
        raise ValueError(f"with_data_parallel(): places mix CPU and GPU places: {places}")
    gpus = [p.gpu_device_id() for p in places if p.is_gpu_place()]
    if len(set(gpus)) != len(gpus):
        raise ValueError(f"with_data_parallel(): places name a GPU more than once: {places}")
    if executor_place is not None and places[0].is_gpu_place() != executor_place.is_gpu_place():
        raise ValueError(f"Executor.run(): the executor runs on {executor_place} but the "
                         f"program was compiled for {places[0]}")
    return list(places)


class _DataParallel:
    """What CompiledProgram.with_data_parallel adds: the settings, the per-place scopes of each
    scope it runs in, and a native executor per feed/fetch list."""

    def __init__(self, loss_name, exec_strategy, share_vars_from, places):
        from .compiler import CompiledProgram, ExecutionStrategy
        if loss_name is not None and not isinstance(loss_name, str):
            raise TypeError(f"with_data_parallel(): loss_name must be a str, but received "
                            f"{type(loss_name).__name__}")
        if exec_strategy is not None and not isinstance(exec_strategy, ExecutionStrategy):
            raise TypeError(f"with_data_parallel(): exec_strategy must be a "
                            f"paddle.static.ExecutionStrategy, but received "
                            f"{type(exec_strategy).__name__}")
        if share_vars_from is not None and not isinstance(share_vars_from, CompiledProgram):
            raise TypeError(f"with_data_parallel(): share_vars_from must be a CompiledProgram, "
                            f"but received {type(share_vars_from).__name__}")
        if places is not None:
            places = _check_places(places)
        self.loss_name = loss_name
        self.exec_strategy = exec_strategy or ExecutionStrategy()
        self.share_vars_from = share_vars_from
        self.requested_places = places
        self.places = None
        self.place_scopes = {}  # id(scope) -> (scope, PlaceScopes)
        self.executors = {}
        self.programs = {}

    def run(self, compiled, executor, feed, fetch_names, scope, return_numpy, return_merged):
        strategy = compiled._build_strategy
        _check_strategy(strategy)
        if self.places is None:
            self.places = _check_places(self.requested_places, executor.place)
        program = compiled._program_to_run()
        desc, gradients, loss_grad = self._parallel_program(program, strategy)
        feeds = self._split_feed(program, feed, executor)
        fed = sorted(feeds[0])
        if loss_grad is not None and loss_grad not in fed:
            raise ValueError(f"Executor.run(): with GradientScaleStrategy.Customized the "
                             f"gradient of the loss '{loss_grad}' must be fed on every place")
        native = self._executor(desc, scope, fed, fetch_names, gradients, strategy)
        for place, tensors in enumerate(feeds):
            exec_scope = native.exec_scope(place)
            for name, tensor in tensors.items():
                libpaddle._set_scope_tensor(exec_scope.var(name), tensor)
        fetched = native.run(fetch_names)
        results = []
        for name, per_place in zip(fetch_names, fetched):
            if any(not t._is_initialized() for t in per_place):
                raise RuntimeError(f"Executor.run(): fetch target '{name}' holds no data after "
                                   f"the run")
            arrays = [t.numpy() for t in per_place]
            if return_merged:
                merged = np.stack(arrays) if arrays[0].ndim == 0 else np.concatenate(arrays)
                results.append(merged if return_numpy else libpaddle._tensor_from_numpy(
                    merged, libpaddle.CPUPlace(), per_place[0].dtype))
            else:
                results.append(arrays if return_numpy else per_place)
        return results

    def _parallel_program(self, program, strategy):
        """The program each place runs: the loss gradient seeded with 1/num_places
        (CoeffNumDevice), 1 (One) or left to the feed (Customized); the gradients to
        all-reduce."""
        key = (id(program.desc), program.desc.revision(), int(strategy.gradient_scale_strategy))
        entry = self.programs.get(key)
        if entry is not None and entry[0] is program.desc:
            return entry[1:]
        desc = libpaddle.ProgramDesc(program.desc)
        block = desc.block(0)
        loss_grad = None
        seed_role = OP_ROLE_BACKWARD | OP_ROLE_LOSS
        for i in range(block.op_size()):
            op = block.op(i)
            if op.has_attr("op_role") and op.attr("op_role") == seed_role and \
                    self.loss_name in op.input_arg_names():
                scale = strategy.gradient_scale_strategy
                if scale == scale.CoeffNumDevice:
                    op.set_attr("value", 1.0 / len(self.places))
                elif scale == scale.Customized:
                    loss_grad = op.output_arg_names()[0]
                    block._remove_op(i, i + 1)
                break
        # The parameters' gradients backward computes (a test clone keeps the variables but
        # not the ops).
        written = {name for i in range(block.op_size())
                   for name in block.op(i).output_arg_names()}
        gradients = [param.name + "@GRAD" for param in program.global_block().all_parameters()
                     if param.name + "@GRAD" in written]
        self.programs[key] = (program.desc, desc, gradients, loss_grad)
        return desc, gradients, loss_grad

    def _place_scopes(self, scope):
        entry = self.place_scopes.get(id(scope))
        if entry is not None and entry[0] is scope:
            return entry[1]
        if self.share_vars_from is not None:
            shared = self.share_vars_from._data_parallel
            entry = shared.place_scopes.get(id(scope)) if shared is not None else None
            if entry is None or entry[0] is not scope:
                raise RuntimeError("with_data_parallel(): the program of share_vars_from has "
                                   "not run in this scope yet, so it has no variables to "
                                   "share; run it first")
            if entry[1].size() != len(self.places):
                raise ValueError(f"with_data_parallel(): share_vars_from runs on "
                                 f"{entry[1].size()} places but this program on "
                                 f"{len(self.places)}")
            place_scopes = entry[1]
        else:
            place_scopes = libpaddle.PlaceScopes(scope, self.places)
        self.place_scopes[id(scope)] = (scope, place_scopes)
        return place_scopes

    def _executor(self, desc, scope, fed, fetch_names, gradients, strategy):
        key = (id(scope), id(desc), tuple(fed), tuple(fetch_names))
        entry = self.executors.get(key)
        if entry is not None and entry[0] is desc and entry[1] is scope:
            return entry[2]
        exec_strategy = self.exec_strategy
        native = libpaddle.NativeParallelExecutor(
            desc, self._place_scopes(scope), fed + list(fetch_names),
            bool(strategy.enable_inplace), exec_strategy.num_threads,
            exec_strategy.num_iteration_per_drop_scope, gradients,
            strategy.fuse_all_reduce_ops is not False,
            strategy.reduce_strategy == strategy.ReduceStrategy.Reduce)
        self.executors[key] = (desc, scope, native)
        return native

    def drop_local_exe_scopes(self):
        for _, _, native in self.executors.values():
            native.drop_local_exe_scopes()

    def _split_feed(self, program, feed, executor):
        """One dict of tensors per place: a dict's arrays split along axis 0 (Paddle's split:
        chunks of ceil(batch / places) samples, every place must get one), or a list with one
        dict per place fed as it is."""
        from .executor import _feed_tensor
        block = program.global_block()
        count = len(self.places)
        if isinstance(feed, (list, tuple)):
            if len(feed) != count:
                raise ValueError(f"Executor.run(): feed is a list of {len(feed)} dicts but the "
                                 f"program runs on {count} places; give one dict per place")
            per_place = []
            for place, item in zip(self.places, feed):
                if not isinstance(item, dict):
                    raise TypeError(f"Executor.run(): each item of a feed list must be a dict, "
                                    f"but received {type(item).__name__}")
                per_place.append({name: _feed_tensor(block, name, value, place)
                                  for name, value in item.items()})
            return per_place
        if not isinstance(feed, dict):
            raise TypeError(f"Executor.run(): 'feed' must be a dict of name to data or a list "
                            f"of one such dict per place, but received {type(feed).__name__}")
        per_place = [{} for _ in range(count)]
        for name, value in feed.items():
            array = value.numpy() if isinstance(value, libpaddle.Tensor) else np.asarray(value)
            if array.ndim == 0:
                raise ValueError(f"Executor.run(): feed '{name}' is a scalar and cannot be "
                                 f"split across {count} places; feed a list of one dict per "
                                 f"place")
            batch = array.shape[0]
            step = -(-batch // count)
            pieces = -(-batch // step) if batch else 0
            if pieces != count:
                raise ValueError(f"Executor.run(): feed '{name}' has {batch} samples, which in "
                                 f"chunks of {step} give {pieces} of the {count} places "
                                 f"data; every place needs samples, so feed a batch of at "
                                 f"least {count} that splits evenly enough, or a list of one "
                                 f"dict per place")
            for place_index, place in enumerate(self.places):
                piece = array[place_index * step:(place_index + 1) * step]
                per_place[place_index][name] = _feed_tensor(block, name, piece, place)
        return per_place


def _check_strategy(strategy):
    """The BuildStrategy settings the data-parallel executor does not implement."""
    if strategy.reduce_strategy == strategy.ReduceStrategy._NoReduce:
        raise NotImplementedError("BuildStrategy.reduce_strategy _NoReduce (places training "
                                  "without exchanging gradients) is not supported by the "
                                  "ParallelExecutor here; use AllReduce or Reduce")
    if strategy.sync_batch_norm:
        raise NotImplementedError("BuildStrategy.sync_batch_norm is not supported by the "
                                  "ParallelExecutor here: batch-norm statistics are per place")
    if strategy.num_trainers > 1:
        raise NotImplementedError(f"BuildStrategy.num_trainers {strategy.num_trainers}: "
                                  f"training across several nodes goes through "
                                  f"paddle.distributed (fleet), not the ParallelExecutor")


class ParallelExecutor:
    """Paddle 2.x's ParallelExecutor: runs `main_program` data-parallel on every CPU place
    (CPU_NUM) or every visible GPU. The same as Executor.run of
    CompiledProgram(main_program).with_data_parallel(...)."""

    def __init__(self, use_cuda, loss_name=None, main_program=None, share_vars_from=None,
                 exec_strategy=None, build_strategy=None, num_trainers=1, trainer_id=0,
                 scope=None):
        from .compiler import BuildStrategy, CompiledProgram
        from .executor import Executor, global_scope
        from .program import default_main_program
        if share_vars_from is not None and not isinstance(share_vars_from, ParallelExecutor):
            raise TypeError(f"ParallelExecutor(): share_vars_from must be a ParallelExecutor, "
                            f"but received {type(share_vars_from).__name__}")
        build_strategy = build_strategy or BuildStrategy()
        build_strategy.num_trainers = num_trainers
        build_strategy.trainer_id = trainer_id
        self._places = cuda_places() if use_cuda else cpu_places()
        self._scope = scope if scope is not None else global_scope()
        self._compiled_program = CompiledProgram(
            main_program if main_program is not None else default_main_program(),
            build_strategy).with_data_parallel(
                loss_name=loss_name, exec_strategy=exec_strategy,
                share_vars_from=share_vars_from._compiled_program if share_vars_from else None,
                places=self._places)
        self._exe = Executor(libpaddle.CUDAPlace(0) if use_cuda else libpaddle.CPUPlace())

    @property
    def device_count(self):
        return len(self._places)

    def run(self, fetch_list, feed=None, feed_dict=None, return_numpy=True):
        """Runs one step on every place; `feed` is a dict split across the places or a list of
        one dict per place; fetched values are concatenated across places."""
        if feed is None and feed_dict is not None:
            feed = feed_dict
        return self._exe.run(program=self._compiled_program, scope=self._scope, feed=feed,
                             fetch_list=fetch_list, return_numpy=return_numpy)

    def drop_local_exe_scopes(self):
        """Drops every place's scope of temporaries now."""
        self._compiled_program._data_parallel.drop_local_exe_scopes()
