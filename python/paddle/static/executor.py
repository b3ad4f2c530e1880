"""paddle.static.Executor, global_scope and scope_guard.

Executor.run feeds the inputs into the scope, runs the program through the C++ executor
(paddle/framework/executor.h), and copies the fetched variables out. Each (program, feed names,
fetch names) is prepared once and cached: kernels chosen, variables bound, the last-use table
for garbage collection and the in-place pairs decided.
"""
import contextlib

import numpy as np

from ..base import libpaddle
from ..base.framework import convert_dtype, to_numpy_dtype
from .compiler import CompiledProgram
from .program import FEED_MINIBATCH, FETCH_LIST, Program, Variable, default_main_program

__all__ = ["Executor", "global_scope", "scope_guard"]

Tensor = libpaddle.Tensor

_global_scope = libpaddle.Scope()


def global_scope():
    """The scope programs run in by default: parameters live here between runs."""
    return _global_scope


@contextlib.contextmanager
def scope_guard(scope):
    """Makes `scope` the global scope inside the block."""
    global _global_scope
    if not isinstance(scope, libpaddle.Scope):
        raise TypeError(f"scope_guard(): expected a paddle.static.Scope, received "
                        f"{type(scope).__name__}")
    saved = _global_scope
    _global_scope = scope
    try:
        yield
    finally:
        _global_scope = saved


def _place_of(place):
    from ..device import _resolve_place
    if place is None:
        return libpaddle._default_place()
    return _resolve_place(place)


class Executor:
    """Runs static programs on one place (CPU by default, or the current device), or on several
    for a CompiledProgram with_data_parallel."""

    def __init__(self, place=None):
        self.place = _place_of(place)
        self._native = libpaddle.NativeExecutor(self.place)
        self._cache = {}
        self._feed_fetch_cache = {}

    def close(self):
        self._cache.clear()
        self._feed_fetch_cache.clear()

    def run(self, program=None, feed=None, fetch_list=None, feed_var_name="feed",
            fetch_var_name="fetch", scope=None, return_numpy=True, use_program_cache=True,
            use_prune=False, return_merged=True):
        program = default_main_program() if program is None else program
        enable_inplace = True
        if isinstance(program, CompiledProgram) and program._data_parallel is not None:
            return self._run_data_parallel(program, feed, fetch_list, scope, return_numpy,
                                           return_merged)
        if isinstance(program, CompiledProgram):
            enable_inplace = bool(program._build_strategy.enable_inplace)
            program = program._program_to_run()
        if not isinstance(program, Program):
            raise TypeError(f"Executor.run(): 'program' must be a paddle.static.Program, but "
                            f"received {type(program).__name__}")
        feed = {} if feed is None else feed
        if isinstance(feed, list) and len(feed) == 1 and isinstance(feed[0], dict):
            feed = feed[0]  # one dict per place, as DataLoader(return_list=False) yields them
        if not isinstance(feed, dict):
            raise TypeError(f"Executor.run(): 'feed' must be a dict of name to data, but "
                            f"received {type(feed).__name__}")
        scope = global_scope() if scope is None else scope
        fetch_names = _fetch_names(program, fetch_list)
        block = program.global_block()
        if program.lr_scheduler is not None and program._lr_var_name:
            self._set_lr(program, scope)

        feed_ops, fetch_ops = self._feed_fetch_ops(program)
        if feed_ops or fetch_ops:
            return self._run_with_feed_fetch_ops(program, feed, fetch_names, feed_ops,
                                                 fetch_ops, scope, return_numpy, enable_inplace)

        tensors = {name: _feed_tensor(block, name, value, self.place)
                   for name, value in feed.items()}
        prepared = self._prepared(program, sorted(tensors), fetch_names, enable_inplace)
        for name, tensor in tensors.items():
            libpaddle._set_scope_tensor(scope.var(name), tensor)
        self._native.run(prepared, scope)
        return [_fetch_result(scope, name, return_numpy) for name in fetch_names]

    def _run_data_parallel(self, compiled, feed, fetch_list, scope, return_numpy,
                           return_merged):
        """A CompiledProgram with_data_parallel: the feed split across its places, the fetched
        values concatenated along axis 0 (`return_merged`) or one array per place."""
        program = compiled._program
        scope = global_scope() if scope is None else scope
        fetch_names = _fetch_names(program, fetch_list)
        if program.lr_scheduler is not None and program._lr_var_name:
            self._set_lr(program, scope)
        return compiled._data_parallel.run(compiled, self, {} if feed is None else feed,
                                           fetch_names, scope, return_numpy, return_merged)

    def _feed_fetch_ops(self, program):
        """The program's feed and fetch ops, looked up once per program revision."""
        key = (id(program.desc), program.desc.revision())
        found = self._feed_fetch_cache.get(key)
        if found is None:
            ops = program.global_block().ops
            found = self._feed_fetch_cache[key] = (
                [op for op in ops if op.type == "feed"],
                [op for op in ops if op.type in ("fetch", "fetch_v2")])
        return found

    def _prepared(self, program, feed_names, fetch_names, enable_inplace=True):
        key = (id(program.desc), tuple(feed_names), tuple(fetch_names), enable_inplace)
        entry = self._cache.get(key)
        if entry is None or entry[0] is not program.desc or \
                entry[1].revision() != program.desc.revision():
            prepared = self._native.prepare(program.desc, 0, list(feed_names) + fetch_names,
                                            enable_inplace)
            entry = self._cache[key] = (program.desc, prepared)
        return entry[1]

    def _set_lr(self, program, scope):
        lr = program.lr_scheduler()
        var = program.global_block().var(program._lr_var_name)
        value = np.array([lr], dtype=to_numpy_dtype(var.dtype))
        libpaddle._set_scope_tensor(scope.var(var.name),
                                    libpaddle._tensor_from_numpy(value, self.place, var.dtype))

    def _run_with_feed_fetch_ops(self, program, feed, fetch_names, feed_ops, fetch_ops, scope,
                                 return_numpy, enable_inplace):
        """A program with feed/fetch ops (a loaded inference model): inputs go into the feed
        list at each feed op's column, results come from the fetch list."""
        block = program.global_block()
        columns = {op.output("Out")[0]: op.attr("col") for op in feed_ops}
        unknown = sorted(set(feed) - set(columns))
        if unknown:
            raise ValueError(f"Executor.run(): {unknown} are not inputs of the program; its "
                             f"feed targets are {sorted(columns)}")
        missing = sorted(set(columns) - set(feed))
        if missing:
            raise ValueError(f"Executor.run(): no data fed for {missing}")
        feed_list = [None] * (max(columns.values()) + 1 if columns else 0)
        for name, col in columns.items():
            feed_list[col] = _feed_tensor(block, name, feed[name], self.place)
        feed_holder = feed_ops[0].input("X")[0] if feed_ops else "feed"
        scope.var(feed_holder).set_tensor_list(feed_list)
        fetch_columns = {op.input("X")[0]: op.attr("col") for op in fetch_ops}
        for name in fetch_names:
            if name not in fetch_columns:
                raise ValueError(f"Executor.run(): '{name}' is not a fetch target of the "
                                 f"program; its fetch targets are {sorted(fetch_columns)}")
        prepared = self._prepared(program, [], [], enable_inplace)
        self._native.run(prepared, scope)
        fetch_holder = fetch_ops[0].output("Out")[0] if fetch_ops else "fetch"
        results = scope.find_var(fetch_holder).get_tensor_list()
        out = []
        for name in fetch_names or sorted(fetch_columns, key=fetch_columns.get):
            t = results[fetch_columns[name]]
            out.append(t.numpy() if return_numpy else t)
        return out


def _fetch_names(program, fetch_list):
    if fetch_list is None:
        return []
    if not isinstance(fetch_list, (list, tuple)):
        fetch_list = [fetch_list]
    names = []
    for item in fetch_list:
        if isinstance(item, Variable):
            name = item.name
        elif isinstance(item, str):
            name = item
        else:
            raise TypeError(f"Executor.run(): fetch_list items must be Variables or names, "
                            f"but received {type(item).__name__}")
        if program.global_block()._find_var_recursive(name) is None:
            raise ValueError(f"Executor.run(): fetch target '{name}' is not a variable of the "
                             f"program")
        names.append(name)
    return names


def _feed_tensor(block, name, value, place):
    """`value` as a tensor for variable `name`, checked against its declared dtype and shape."""
    var = block._find_var_recursive(name)
    if var is None:
        raise ValueError(f"Executor.run(): feed target '{name}' is not a variable of the program")
    if var.type in (FEED_MINIBATCH, FETCH_LIST):
        raise ValueError(f"Executor.run(): '{name}' is a feed/fetch holder, not an input")
    if isinstance(value, Tensor) and not isinstance(value, Variable):
        array = value.numpy()
    else:
        array = np.asarray(value) if isinstance(value, np.ndarray) else \
            np.asarray(value, dtype=to_numpy_dtype(var.dtype))
    expected = convert_dtype(var.dtype)
    if array.dtype != to_numpy_dtype(expected):
        raise ValueError(f"The data type of fed Variable '{name}' must be "
                         f"'{expected.name}', but received '{array.dtype}'")
    shape = var.shape
    if var.desc.need_check_feed():
        compatible = len(shape) == array.ndim and all(
            d < 0 or d == a for d, a in zip(shape, array.shape))
        if not compatible:
            raise ValueError(f"The fed Variable '{name}' should have dimensions = {len(shape)}, "
                             f"shape = {tuple(shape)}, but received fed shape "
                             f"{list(array.shape)}")
    return libpaddle._tensor_from_numpy(array, place, expected)


def _fetch_result(scope, name, return_numpy):
    var = scope.find_var(name)
    if var is None or not var.is_initialized():
        raise RuntimeError(f"Executor.run(): fetch target '{name}' holds no data after the run")
    tensor = var.get_tensor()
    array = tensor.numpy()
    if return_numpy:
        return array
    return libpaddle._tensor_from_numpy(array, tensor.place, tensor.dtype)
