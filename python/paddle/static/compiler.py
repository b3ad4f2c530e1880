"""CompiledProgram with BuildStrategy/ExecutionStrategy: how the Executor runs a program.

The executor already prepares each program once; the strategies carry the switches Paddle
users set. `enable_inplace` decides whether ops that declare an in-place pair may write into
their input's buffer; the other fields are accepted for compatibility and have no effect on a
single place.
"""

__all__ = ["BuildStrategy", "ExecutionStrategy", "CompiledProgram"]


class BuildStrategy:
    def __init__(self):
        self.enable_inplace = True
        self.memory_optimize = None
        self.fuse_all_reduce_ops = None
        self.fuse_elewise_add_act_ops = False
        self.fuse_bn_act_ops = False
        self.enable_addto = False
        self.debug_graphviz_path = ""


class ExecutionStrategy:
    def __init__(self):
        self.num_threads = 1
        self.num_iteration_per_drop_scope = 100


class CompiledProgram:
    def __init__(self, program_or_graph, build_strategy=None):
        from .program import Program
        if not isinstance(program_or_graph, Program):
            raise TypeError(f"CompiledProgram(): expected a paddle.static.Program, but received "
                            f"{type(program_or_graph).__name__}")
        self._program = program_or_graph
        self._build_strategy = build_strategy or BuildStrategy()
