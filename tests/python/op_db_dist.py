"""Harness entries (op_db.py) of the static-graph collective ops (paddle/ops/yaml/
collective.yaml). The harness runs in one process, a world of one rank, where each collective on
ring 0 is a copy of its input; tests/python/distributed/test_static_collectives.py runs them on
2 ranks against NumPy."""
import numpy as np

from harness import ErrorSample, OpInfo, Sample
from paddle import _C_ops

NO_GRAD = "no backward, as in Paddle: data-parallel programs append them after backward"


def samples(rng):
    return [Sample([rng.integers(-3, 4, size=(3, 4)).astype("float64")]),
            Sample([rng.integers(0, 5, size=(2, 1, 3)).astype("float64")])]


def _allreduce(name):
    op = getattr(_C_ops, name)
    return OpInfo(name, lambda x, ring_id=0: op(x, ring_id, False, False), lambda x, ring_id=0: x,
                  samples, grad=False, no_grad_reason=NO_GRAD,
                  errors=lambda: [ErrorSample([np.ones((2,), "float32")], {"ring_id": 7},
                                              RuntimeError, "ring_id 7 has no process group")])


DIST_OPS = [_allreduce(name) for name in ("c_allreduce_sum", "c_allreduce_max", "c_allreduce_min",
                                          "c_allreduce_prod")] + [
    OpInfo("c_broadcast", lambda x, root=0: _C_ops.c_broadcast(x, 0, root, False),
           lambda x, root=0: x, samples, grad=False, no_grad_reason=NO_GRAD,
           errors=lambda: [ErrorSample([np.ones((2,), "float32")], {"root": 1}, IndexError,
                                       "c_broadcast: attribute root must be in [0, 1)")]),
    OpInfo("c_allgather", lambda x, nranks=1: _C_ops.c_allgather(x, 0, nranks, False),
           lambda x, nranks=1: x, samples, grad=False, no_grad_reason=NO_GRAD,
           errors=lambda: [ErrorSample([np.ones((2,), "float32")], {"nranks": 0}, ValueError,
                                       "c_allgather: attribute nranks must be at least 1"),
                           ErrorSample([np.ones((2,), "float32")], {"nranks": 2}, RuntimeError,
                                       "ring_id 0 has no process group")]),
    OpInfo("c_reducescatter", lambda x, nranks=1: _C_ops.c_reducescatter(x, 0, nranks, False),
           lambda x, nranks=1: x, samples, grad=False, no_grad_reason=NO_GRAD,
           errors=lambda: [ErrorSample([np.ones((3,), "float32")], {"nranks": 2}, ValueError,
                                       "first dimension of X (3) must be divisible by nranks (2)")]),
]
