"""paddle.distributed.fleet, collective mode (data parallelism): fleet.init(is_collective=True)
initialises the default group; fleet.distributed_model wraps a Layer in DataParallel (dygraph);
fleet.distributed_optimizer returns an optimizer whose static-graph minimize() all-reduces and
averages every gradient with c_allreduce_sum + scale after backward and broadcasts the
parameters from rank 0 in the startup program, as Paddle's collective meta-optimizer does for
plain data parallelism. Parameter-server mode and the hybrid-parallel strategies are not here.
"""
from ..communication import barrier
from ..parallel import DataParallel
from ..parallel_env import ParallelEnv, get_rank, get_world_size, init_parallel_env
from ...static.backward import append_backward
from ...static.program import (OP_ROLE_OPTIMIZE, _op_role_guard, default_startup_program,
                               program_guard)
from ...static.program import Variable as _StaticVariable

__all__ = ["DistributedStrategy", "init", "worker_index", "worker_num", "is_first_worker",
           "worker_endpoints", "barrier_worker", "distributed_model", "distributed_optimizer",
           "is_worker", "is_server"]


class DistributedStrategy:
    """The strategy settings data parallelism reads: fuse_grad_size_in_MB (DataParallel's
    comm_buffer_size), last_comm_group_size_MB, find_unused_parameters."""

    def __init__(self):
        self.fuse_all_reduce_ops = True
        self.fuse_grad_size_in_MB = 32
        self.last_comm_group_size_MB = 1
        self.find_unused_parameters = False
        self.without_graph_optimization = True


class _Fleet:
    def __init__(self):
        self._strategy = None
        self._collective = False

    def init(self, role_maker=None, is_collective=False, strategy=None, log_level="INFO"):
        if not is_collective:
            raise NotImplementedError("fleet.init: only collective mode (is_collective=True) is "
                                      "supported; parameter-server mode is not")
        self._collective = True
        self._strategy = strategy or DistributedStrategy()
        init_parallel_env()

    def _check(self, api):
        if not self._collective:
            raise RuntimeError(f"fleet.{api}: call fleet.init(is_collective=True) first")

    def worker_index(self):
        return get_rank()

    def worker_num(self):
        return get_world_size()

    def is_first_worker(self):
        return get_rank() == 0

    def is_worker(self):
        return True

    def is_server(self):
        return False

    def worker_endpoints(self, to_string=False):
        endpoints = ParallelEnv().trainer_endpoints
        return ",".join(endpoints) if to_string else endpoints

    def barrier_worker(self):
        barrier()

    def distributed_model(self, model):
        """DataParallel over the default group, with the strategy's bucket sizes."""
        self._check("distributed_model")
        s = self._strategy
        return DataParallel(model, comm_buffer_size=s.fuse_grad_size_in_MB,
                            last_comm_buffer_size=s.last_comm_group_size_MB,
                            find_unused_parameters=s.find_unused_parameters)

    def distributed_optimizer(self, optimizer, strategy=None):
        self._check("distributed_optimizer")
        if strategy is not None:
            self._strategy = strategy
        return _DataParallelOptimizer(optimizer)


class _DataParallelOptimizer:
    """The user's optimizer; in a static program, minimize() adds the gradient averaging. In
    dygraph DataParallel has averaged the gradients already, so every call passes through."""

    def __init__(self, optimizer):
        self._inner = optimizer

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        if not isinstance(loss, _StaticVariable) or get_world_size() == 1:
            return self._inner.minimize(loss, startup_program, parameters, no_grad_set)
        inner = self._inner
        params = parameters or inner._parameter_list or None
        params_grads = append_backward(loss, params, no_grad_set)
        program = loss.block.program
        block = program.global_block()
        nranks = get_world_size()
        for _, grad in params_grads:
            block.append_op("c_allreduce_sum", {"X": [grad]}, {"Out": [grad]},
                            {"ring_id": 0, "use_calc_stream": True, "use_model_parallel": False})
            block.append_op("scale", {"X": [grad]}, {"Out": [grad]},
                            {"scale": 1.0 / nranks, "bias": 0.0, "bias_after_scale": True})
        startup = startup_program or default_startup_program()
        for param, _ in params_grads:
            startup.global_block().append_op("c_broadcast", {"X": [param.name]},
                                             {"Out": [param.name]},
                                             {"ring_id": 0, "root": 0, "use_calc_stream": True})
        first = len(block.ops)
        with program_guard(program, startup_program), _op_role_guard(OP_ROLE_OPTIMIZE):
            inner._apply_optimize(params_grads, {})
        return block.ops[first:], params_grads


_fleet = _Fleet()
init = _fleet.init
worker_index = _fleet.worker_index
worker_num = _fleet.worker_num
is_first_worker = _fleet.is_first_worker
is_worker = _fleet.is_worker
is_server = _fleet.is_server
worker_endpoints = _fleet.worker_endpoints
barrier_worker = _fleet.barrier_worker
distributed_model = _fleet.distributed_model
distributed_optimizer = _fleet.distributed_optimizer
