"""paddle.static: building programs (static graph) and running them with an Executor."""
from ..base.libpaddle import Scope  # noqa: F401
from ..base.libpaddle import CPUPlace, CUDAPlace  # noqa: F401
from .backward import append_backward, gradients  # noqa: F401
from .compiler import BuildStrategy, CompiledProgram, ExecutionStrategy  # noqa: F401
from .executor import Executor, global_scope, scope_guard  # noqa: F401
from .parallel_executor import ParallelExecutor, cpu_places, cuda_places  # noqa: F401
from .input import InputSpec, data  # noqa: F401
from .io import (deserialize_persistables, deserialize_program, load,  # noqa: F401
                 load_from_file, load_inference_model, load_program_state,
                 normalize_program, save, save_inference_model, save_to_file,
                 serialize_persistables, serialize_program, set_program_state)
from .program import (Block, Operator, Parameter, Program, Variable,  # noqa: F401
                      default_main_program, default_startup_program, name_scope,
                      program_guard)
from ..metric import accuracy  # noqa: F401
from .tensor import create_global_var, create_parameter  # noqa: F401
from . import amp, nn  # noqa: F401
