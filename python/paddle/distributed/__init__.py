"""paddle.distributed: process groups and collectives on Gloo (CPU), DataParallel, spawn and
launch. See docs/distributed.md."""
from .communication import (ReduceOp, all_gather, all_gather_object, all_reduce,  # noqa: F401
                            alltoall, barrier, broadcast, broadcast_object_list, gather, irecv,
                            isend, recv, reduce, reduce_scatter, scatter, send, wait)
from .parallel import DataParallel  # noqa: F401
from .parallel_env import (Group, ParallelEnv, destroy_process_group, get_group,  # noqa: F401
                           get_rank, get_world_size, init_parallel_env, is_initialized,
                           new_group)
from .spawn import spawn  # noqa: F401
from . import fleet, launch  # noqa: F401
