"""CompiledProgram with BuildStrategy/ExecutionStrategy: how the Executor runs a program.

BuildStrategy carries Paddle 3.3.1's attributes with its defaults. The switches that change the
program here are applied by `CompiledProgram` to a copy of the program when the Executor runs it
(paddle/static/build_passes.py): `fuse_elewise_add_act_ops` fuses an elementwise_add and its
activation (and their grad ops) into fused_elemwise_add_activation(_grad),
`fuse_all_optimizer_ops` merges the per-parameter optimizer ops of one kind into one
multi-tensor op, `fuse_bn_act_ops` fuses a channel-last batch_norm and its relu (and their grad
ops) into fused_batch_norm_act(_grad), and `debug_graphviz_path` writes the program graph as Graphviz files.
`enable_inplace` decides whether ops that declare an in-place pair may write into their input's
buffer. `with_data_parallel` runs the program on several places (parallel_executor.py):
`gradient_scale_strategy` seeds the loss gradient, `fuse_all_reduce_ops` buckets the gradients
all-reduced between places, and `reduce_strategy` Reduce updates each parameter on one place
and broadcasts it (sync_batch_norm, num_trainers > 1 and _NoReduce are NotImplementedError
there). The NCCL/BKCL settings and the CUDA-only fusions are accepted and checked for
compatibility; they change nothing here.
"""
import enum

__all__ = ["BuildStrategy", "ExecutionStrategy", "CompiledProgram"]


class _Attribute:
    """One strategy attribute: its default and the check a new value passes."""

    def __init__(self, default, check):
        self.default = default
        self.check = check


def _boolean(owner, name, value):
    # Paddle's binding converts ints to bool; anything else is a TypeError.
    if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
        return bool(value)
    raise TypeError(f"{owner}.{name} must be a bool, but received {type(value).__name__} "
                    f"{value!r}")


def _optional_boolean(owner, name, value):
    if value is None or isinstance(value, bool):
        return value
    raise ValueError(f"{owner}.{name} must be set to None, False or True, but received "
                     f"{value!r}")


def _count(minimum):
    def check(owner, name, value):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{owner}.{name} must be an int, but received "
                            f"{type(value).__name__} {value!r}")
        if value < minimum:
            raise ValueError(f"{owner}.{name} must be >= {minimum}, but received {value}")
        return value
    return check


def _string(owner, name, value):
    if not isinstance(value, str):
        raise TypeError(f"{owner}.{name} must be a str, but received {type(value).__name__} "
                        f"{value!r}")
    return value


def _strings(kind):
    def check(owner, name, value):
        if not isinstance(value, (list, tuple, set)) or \
                not all(isinstance(v, str) for v in value):
            raise TypeError(f"{owner}.{name} must be a {kind.__name__} of str, but received "
                            f"{value!r}")
        return kind(value)
    return check


def _member_of(enum_type):
    def check(owner, name, value):
        if not isinstance(value, enum_type):
            raise TypeError(f"{owner}.{name} must be a {owner}.{enum_type.__name__} "
                            f"({', '.join(enum_type.__members__)}), but received {value!r}")
        return value
    return check


class _Strategy:
    """Attributes declared in `_ATTRIBUTES`: each starts at its default, a new value is checked,
    and a name that is not declared raises AttributeError (a typo would otherwise be ignored)."""

    _ATTRIBUTES = {}

    def __init__(self):
        for name, attribute in self._ATTRIBUTES.items():
            default = attribute.default
            object.__setattr__(self, name, type(default)(default) if isinstance(
                default, (list, set)) else default)

    def __setattr__(self, name, value):
        attribute = self._ATTRIBUTES.get(name)
        if attribute is None:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        object.__setattr__(self, name, attribute.check(type(self).__name__, name, value))

    def __repr__(self):
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._ATTRIBUTES)
        return f"{type(self).__name__}({fields})"


class BuildStrategy(_Strategy):
    """How the program is built before it runs: Paddle 3.3.1's BuildStrategy attributes."""

    class ReduceStrategy(enum.IntEnum):
        AllReduce = 0
        Reduce = 1
        _NoReduce = 2

    class GradientScaleStrategy(enum.IntEnum):
        CoeffNumDevice = 0
        One = 1
        Customized = 2

    _ATTRIBUTES = {
        "allow_cuda_graph_capture": _Attribute(False, _boolean),
        "async_mode": _Attribute(False, _boolean),
        "bkcl_comm_num": _Attribute(1, _count(1)),
        "build_cinn_pass": _Attribute(False, _boolean),
        "cache_runtime_context": _Attribute(False, _boolean),
        "debug_graphviz_path": _Attribute("", _string),
        "enable_addto": _Attribute(False, _boolean),
        "enable_auto_fusion": _Attribute(False, _boolean),
        "enable_backward_optimizer_op_deps": _Attribute(True, _boolean),
        "enable_inplace": _Attribute(True, _boolean),
        "fuse_adamw": _Attribute(False, _boolean),
        "fuse_all_optimizer_ops": _Attribute(False, _boolean),
        "fuse_all_reduce_ops": _Attribute(True, _optional_boolean),
        "fuse_bn_act_ops": _Attribute(False, _boolean),
        "fuse_bn_add_act_ops": _Attribute(True, _boolean),
        "fuse_broadcast_ops": _Attribute(True, _optional_boolean),
        "fuse_dot_product_attention": _Attribute(False, _boolean),
        "fuse_elewise_add_act_ops": _Attribute(False, _boolean),
        "fuse_gemm_epilogue": _Attribute(False, _boolean),
        "fuse_relu_depthwise_conv": _Attribute(False, _boolean),
        "fuse_resunit": _Attribute(False, _boolean),
        "fused_attention": _Attribute(False, _boolean),
        "fused_feedforward": _Attribute(False, _boolean),
        "gradient_scale_strategy": _Attribute(GradientScaleStrategy.CoeffNumDevice,
                                              _member_of(GradientScaleStrategy)),
        "hierarchical_allreduce_inter_nranks": _Attribute(0, _count(0)),
        "memory_optimize": _Attribute(None, _optional_boolean),
        "mkldnn_enabled_op_types": _Attribute(set(), _strings(set)),
        "nccl_comm_num": _Attribute(1, _count(1)),
        "num_trainers": _Attribute(1, _count(1)),
        "onednn_enabled_op_types": _Attribute(set(), _strings(set)),
        "reduce_strategy": _Attribute(ReduceStrategy.AllReduce, _member_of(ReduceStrategy)),
        "sequential_run": _Attribute(False, _boolean),
        "sync_batch_norm": _Attribute(False, _boolean),
        "trainer_id": _Attribute(0, _count(0)),
        "trainers_endpoints": _Attribute([], _strings(list)),
        "use_hierarchical_allreduce": _Attribute(False, _boolean),
    }

    def _passes_key(self):
        """What of the strategy changes the program the Executor runs."""
        return (self.fuse_elewise_add_act_ops, self.fuse_all_optimizer_ops,
                self.debug_graphviz_path, self.fuse_bn_act_ops)


class ExecutionStrategy(_Strategy):
    """How the built program is executed (Paddle 2.x's ExecutionStrategy, which Paddle 3 dropped
    with ParallelExecutor). With several places (with_data_parallel) num_threads sizes the
    thread pool that runs the ops (0: 4 per place) and the places' temporaries are dropped
    every num_iteration_per_drop_scope runs; one place runs the ops in order, where they change
    nothing."""

    _ATTRIBUTES = {
        "num_threads": _Attribute(0, _count(0)),
        "num_iteration_per_drop_scope": _Attribute(100, _count(1)),
        "num_iteration_per_run": _Attribute(1, _count(1)),
        "use_thread_barrier": _Attribute(False, _boolean),
        "allow_op_delay": _Attribute(False, _boolean),
    }


class CompiledProgram:
    """A program with the BuildStrategy it runs under. The Executor runs `_program_to_run()`:
    the program itself, or the copy the strategy's passes rewrote (made once per program
    revision and strategy, and shared by CompiledPrograms of the same program)."""

    def __init__(self, program_or_graph, build_strategy=None):
        from .program import Program
        if not isinstance(program_or_graph, Program):
            raise TypeError(f"CompiledProgram(): expected a paddle.static.Program, but received "
                            f"{type(program_or_graph).__name__}")
        if build_strategy is not None and not isinstance(build_strategy, BuildStrategy):
            raise TypeError(f"CompiledProgram(): build_strategy must be a "
                            f"paddle.static.BuildStrategy, but received "
                            f"{type(build_strategy).__name__}")
        self._program = program_or_graph
        self._build_strategy = build_strategy or BuildStrategy()
        self._data_parallel = None

    def with_data_parallel(self, loss_name=None, build_strategy=None, exec_strategy=None,
                           share_vars_from=None, places=None):
        """Runs the program data-parallel on `places` (default: CPU_NUM CPU places, or every
        visible GPU when the Executor runs on a GPU); returns self."""
        from .parallel_executor import _DataParallel
        if self._data_parallel is not None:
            raise RuntimeError("with_data_parallel(): the program is already compiled with "
                               "data parallelism")
        if build_strategy is not None:
            if not isinstance(build_strategy, BuildStrategy):
                raise TypeError(f"with_data_parallel(): build_strategy must be a "
                                f"paddle.static.BuildStrategy, but received "
                                f"{type(build_strategy).__name__}")
            self._build_strategy = build_strategy
        self._data_parallel = _DataParallel(loss_name, exec_strategy, share_vars_from, places)
        return self

    def _program_to_run(self):
        from .build_passes import apply_build_passes
        key = self._build_strategy._passes_key()
        if not any(key):
            return self._program
        cache = self._program.__dict__.setdefault("_compiled_copies", {})
        revision = self._program.desc.revision()
        entry = cache.get(key)
        if entry is None or entry[0] != revision:
            entry = cache[key] = (revision, apply_build_passes(self._program,
                                                               self._build_strategy))
        return entry[1]
