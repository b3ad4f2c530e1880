"""The rank side of the distributed tests: `python dist_worker.py SCENARIO [ARGS]` runs one
scenario under the launch environment (PADDLE_TRAINER_ID, ...) and prints one JSON line,
{"rank": r, ...}, on success; a failed check raises (exit code 1)."""
import json
import os
import signal
import sys
import time
from contextlib import nullcontext

import numpy as np

import paddle
import paddle.distributed as dist


def report(**values):
    print(json.dumps(dict(rank=dist.get_rank(), **values)), flush=True)


def rank_data(rank, shape, dtype, seed=0):
    rng = np.random.default_rng(seed + 1000 * rank)
    if dtype == "bool":
        return rng.random(shape) > 0.5
    if dtype.startswith("complex"):
        return (rng.integers(-4, 5, shape) + 1j * rng.integers(-4, 5, shape)).astype(dtype)
    return rng.integers(1, 5, shape).astype("float32" if dtype == "bfloat16" else dtype)


def tensor(array, dtype):
    return paddle.to_tensor(array, dtype=dtype)


def as_numpy(t, dtype):
    a = t.numpy()
    if dtype == "bfloat16":  # bit patterns in uint16
        a = (a.astype(np.uint32) << 16).view(np.float32)
    return a


NP_REDUCE = {"SUM": lambda xs: np.sum(xs, axis=0), "MAX": lambda xs: np.max(xs, axis=0),
             "MIN": lambda xs: np.min(xs, axis=0), "PROD": lambda xs: np.prod(xs, axis=0)}


def collectives():
    dist.init_parallel_env()
    rank, n = dist.get_rank(), dist.get_world_size()
    assert dist.is_initialized() and dist.ParallelEnv().rank == rank
    # all_reduce over every dtype and op
    dtypes = ["float32", "float64", "float16", "bfloat16", "int8", "uint8", "int16", "int32",
              "int64", "bool", "complex64", "complex128"]
    for dtype in dtypes:
        ops = ["SUM", "PROD"] if dtype.startswith("complex") else ["SUM", "MAX", "MIN", "PROD"]
        for op in ops:
            every = [rank_data(r, (3, 5), dtype) for r in range(n)]
            t = tensor(every[rank], dtype)
            dist.all_reduce(t, getattr(dist.ReduceOp, op))
            expected = NP_REDUCE[op](np.stack(every))
            if dtype == "bool":
                expected = np.any(np.stack(every), 0) if op in ("SUM", "MAX") else np.all(
                    np.stack(every), 0)
            np.testing.assert_allclose(as_numpy(t, dtype), expected.astype(
                as_numpy(t, dtype).dtype), rtol=1e-2 if dtype in ("float16", "bfloat16") else 0)
    every = [rank_data(r, (4,), "float32") for r in range(n)]
    t = tensor(every[rank], "float32")
    task = dist.all_reduce(t, dist.ReduceOp.AVG, sync_op=False)
    task.wait()
    np.testing.assert_allclose(t.numpy(), np.mean(every, 0), rtol=1e-6)
    # broadcast from the last rank
    t = tensor(rank_data(rank, (2, 3), "float64"), "float64")
    dist.broadcast(t, src=n - 1)
    np.testing.assert_array_equal(t.numpy(), rank_data(n - 1, (2, 3), "float64"))
    # reduce into rank 1: other ranks keep their values
    t = tensor(rank_data(rank, (6,), "int64"), "int64")
    dist.reduce(t, dst=1, op=dist.ReduceOp.MAX)
    expected = np.max([rank_data(r, (6,), "int64") for r in range(n)], 0) if rank == 1 else \
        rank_data(rank, (6,), "int64")
    np.testing.assert_array_equal(t.numpy(), expected)
    # all_gather
    parts = []
    dist.all_gather(parts, tensor(rank_data(rank, (2, 2), "float32"), "float32"))
    assert len(parts) == n
    for r, p in enumerate(parts):
        np.testing.assert_array_equal(p.numpy(), rank_data(r, (2, 2), "float32"))
    gathered = []
    dist.gather(tensor(np.array([rank, 2 * rank], "int32"), "int32"),
                gathered if rank == n - 1 else None, dst=n - 1)
    if rank == n - 1:
        np.testing.assert_array_equal(np.stack([g.numpy() for g in gathered]),
                                      [[r, 2 * r] for r in range(n)])
    boxed = [{"from": rank}, rank] if rank == 0 else [None, None]
    dist.broadcast_object_list(boxed, src=0)
    assert boxed == [{"from": 0}, 0], boxed
    objects = []
    dist.all_gather_object(objects, {"rank": rank, "name": "x" * rank})
    assert objects == [{"rank": r, "name": "x" * r} for r in range(n)], objects
    # reduce_scatter: rank i gets the sum of every rank's tensor_list[i]
    lists = [[rank_data(r, (3,), "float32", seed=s) for s in range(n)] for r in range(n)]
    out = paddle.empty([3], dtype="float32")
    dist.reduce_scatter(out, [tensor(a, "float32") for a in lists[rank]])
    np.testing.assert_allclose(out.numpy(), np.sum([lists[r][rank] for r in range(n)], 0))
    # scatter from rank 0
    out = paddle.zeros([2], dtype="int32")
    chunks = [tensor(np.full([2], 10 * i, "int32"), "int32") for i in range(n)]
    dist.scatter(out, chunks if rank == 0 else None, src=0)
    np.testing.assert_array_equal(out.numpy(), np.full([2], 10 * rank))
    # alltoall: out[i] is what rank i sent to this rank
    received = []
    dist.alltoall(received, [tensor(np.array([100 * rank + j], "int64"), "int64")
                             for j in range(n)])
    np.testing.assert_array_equal(np.concatenate([t.numpy() for t in received]),
                                  [100 * i + rank for i in range(n)])
    # send/recv around the ring, and isend/irecv both ways at once
    right, left = (rank + 1) % n, (rank - 1) % n
    got = paddle.zeros([3], dtype="float32")
    if rank % 2 == 0:
        dist.send(tensor(np.full([3], rank, "float32"), "float32"), dst=right)
        dist.recv(got, src=left)
    else:
        dist.recv(got, src=left)
        dist.send(tensor(np.full([3], rank, "float32"), "float32"), dst=right)
    np.testing.assert_array_equal(got.numpy(), np.full([3], left))
    got = paddle.zeros([3], dtype="float32")
    tasks = [dist.isend(tensor(np.full([3], rank, "float32"), "float32"), dst=right),
             dist.irecv(got, src=left)]
    for task in tasks:
        task.wait()
    np.testing.assert_array_equal(got.numpy(), np.full([3], left))
    # a subgroup of ranks {0, n-1}; the others get a non-member group
    group = dist.new_group([0, n - 1])
    t = tensor(np.array([rank + 1.0]), "float32")
    dist.all_reduce(t, group=group)
    expected = 1.0 + n if rank in (0, n - 1) else rank + 1.0
    np.testing.assert_array_equal(t.numpy(), [expected])
    assert group.rank == ([0, n - 1].index(rank) if rank in (0, n - 1) else -1)
    dist.barrier()
    report(ok=True)


def mismatch():
    dist.init_parallel_env()
    rank = dist.get_rank()
    t = paddle.ones([3 + rank], dtype="float32")
    try:
        dist.all_reduce(t)
    except ValueError as e:
        message = str(e)
    else:
        raise AssertionError("a shape mismatch was not detected")
    t = paddle.ones([2], dtype="float32" if rank == 0 else "float64")
    try:
        dist.all_reduce(t)
    except ValueError as e:
        dtype_message = str(e)
    else:
        raise AssertionError("a dtype mismatch was not detected")
    t = paddle.ones([2], dtype="float32")
    dist.all_reduce(t)  # the group still works
    np.testing.assert_array_equal(t.numpy(), [2.0, 2.0])
    report(message=message, dtype_message=dtype_message)


def mismatch_kinds():
    """Mismatches the descriptor exchange catches besides shape and dtype, between all_reduces
    of every path: small (sent inline with the descriptor), medium (chunks sent after it) and
    large (descriptor only)."""
    dist.init_parallel_env()
    rank = dist.get_rank()
    messages = {}

    def expect_error(key, call):
        try:
            call()
        except ValueError as e:
            messages[key] = str(e)
        else:
            raise AssertionError(f"{key}: the mismatch was not detected")

    small_vs_large = paddle.ones([4 if rank == 0 else 1 << 20], dtype="float32")
    expect_error("size", lambda: dist.all_reduce(small_vs_large))
    # Both direct (their chunks sent as messages of their own, of different lengths), then direct
    # against the ring (descriptor only).
    medium = paddle.ones([300001 if rank == 0 else 1 << 20], dtype="float32")
    expect_error("medium_sizes", lambda: dist.all_reduce(medium))
    medium_vs_ring = paddle.ones([1 << 20 if rank == 0 else (1 << 21) + 1], dtype="float32")
    expect_error("medium_vs_ring", lambda: dist.all_reduce(medium_vs_ring))
    t = paddle.ones([4], dtype="float32")
    expect_error("op", lambda: dist.all_reduce(
        t, op=dist.ReduceOp.SUM if rank == 0 else dist.ReduceOp.MAX))
    expect_error("collective", lambda: dist.all_reduce(t) if rank == 0 else dist.broadcast(t, 0))
    dist.all_reduce(t)  # the group still works, at every size
    np.testing.assert_array_equal(t.numpy(), [2.0] * 4)
    for numel in (300001, 1 << 20, (1 << 21) + 1):
        big = paddle.ones([numel], dtype="float32")
        dist.all_reduce(big)
        np.testing.assert_array_equal(big.numpy(), np.full([numel], 2.0, "float32"))
    report(**messages)


def medium_all_reduce():
    """all_reduce between the inline and the ring sizes (the direct reduce-scatter and
    all-gather, chunks of unequal size for 3 ranks): repeated on one tensor, on a tensor that only
    some ranks reallocate, and over ops and dtypes."""
    dist.init_parallel_env()
    rank, n = dist.get_rank(), dist.get_world_size()
    shape = [3, 40001]  # 469 KiB of float32: above the inline limit
    kept = tensor(rank_data(rank, shape, "float32"), "float32")
    expected = sum(rank_data(r, shape, "float32") for r in range(n))
    for step in range(3):
        if rank == 0 and step > 0:  # a new allocation here, the same storage on the other ranks
            kept = tensor(kept.numpy(), "float32")
        dist.all_reduce(kept)
        np.testing.assert_array_equal(kept.numpy(), expected)
        expected = expected * n
    for dtype, op, fold in [("float64", dist.ReduceOp.MAX, np.maximum),
                            ("int32", dist.ReduceOp.MIN, np.minimum),
                            ("float32", dist.ReduceOp.PROD, np.multiply),
                            ("int64", dist.ReduceOp.SUM, np.add),
                            ("float32", dist.ReduceOp.AVG, None),
                            ("float16", dist.ReduceOp.SUM, np.add),
                            ("complex64", dist.ReduceOp.PROD, np.multiply),
                            ("bool", dist.ReduceOp.MAX, np.logical_or)]:
        # sizes across the inline, direct and ring paths (which one depends on the element size)
        for size in (70001, 300001, 1 << 20, (1 << 21) + 1):
            data = [rank_data(r, [size], dtype) for r in range(n)]
            t = tensor(data[rank], dtype)
            dist.all_reduce(t, op=op)
            if fold is None:
                expected = sum(data) / n
                np.testing.assert_allclose(t.numpy(), expected, rtol=1e-6)
            else:
                expected = data[0]
                for d in data[1:]:
                    expected = fold(expected, d)
                np.testing.assert_array_equal(t.numpy(), expected)
    report()


def dead_peer():
    dist.init_parallel_env()
    rank = dist.get_rank()
    t = paddle.ones([1000], dtype="float32")
    dist.all_reduce(t)
    if rank == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    start = time.time()
    try:
        for _ in range(3):
            dist.all_reduce(t)
    except RuntimeError as e:
        report(message=str(e), seconds=time.time() - start)
        return
    raise AssertionError("all_reduce with a dead peer did not fail")


def stuck_peer():
    """Rank 1 is alive but never calls the collective: rank 0 fails after the group's timeout.
    (The short timeout is the group's, not init's: a slow start is not what is tested.)"""
    dist.init_parallel_env(timeout=60)
    group = dist.new_group([0, 1], timeout=2)
    if dist.get_rank() == 1:
        time.sleep(4)
        return
    start = time.time()
    try:
        dist.all_reduce(paddle.ones([4]), group=group)
    except RuntimeError as e:
        report(message=str(e), seconds=time.time() - start)
        return
    raise AssertionError("all_reduce with a stuck peer did not time out")


def dead_peer_in_backward():
    dist.init_parallel_env()
    model = paddle.DataParallel(mlp(), comm_buffer_size=0.001, last_comm_buffer_size=0.0005)
    x = paddle.ones([4, 8])
    model(x).sum().backward()
    if dist.get_rank() == 1:
        os._exit(3)
    start = time.time()
    try:
        for _ in range(3):
            model(x).sum().backward()
    except RuntimeError as e:
        report(message=str(e), seconds=time.time() - start)
        return
    raise AssertionError("backward with a dead peer did not fail")


def never_joins():
    start = time.time()
    try:
        dist.init_parallel_env(timeout=float(sys.argv[2]))
    except RuntimeError as e:
        print(json.dumps(dict(rank=int(os.environ["PADDLE_TRAINER_ID"]), message=str(e),
                              seconds=time.time() - start)), flush=True)
        return
    raise AssertionError("init_parallel_env did not time out")


def mlp(seed=7):
    paddle.seed(seed)
    return paddle.nn.Sequential(paddle.nn.Linear(8, 16), paddle.nn.Tanh(), paddle.nn.Linear(16, 16),
                                paddle.nn.Tanh(), paddle.nn.Linear(16, 1))


def mlp_batches(steps, batch):
    rng = np.random.default_rng(0)
    return [(rng.standard_normal((batch, 8)).astype("float32"),
             rng.standard_normal((batch, 1)).astype("float32")) for _ in range(steps)]


def train_mlp(model, batches, rank, n, accumulate=1, no_sync=None):
    """SGD steps; rank takes its contiguous share of each batch; with accumulate > 1 each step
    sums the losses of `accumulate` micro-batches (the first ones under no_sync)."""
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    for x, y in batches:
        share = len(x) // n
        xs, ys = x[rank * share:(rank + 1) * share], y[rank * share:(rank + 1) * share]
        micro = len(xs) // accumulate
        for k in range(accumulate):
            sl = slice(k * micro, (k + 1) * micro)
            local = no_sync() if no_sync is not None and k < accumulate - 1 else nullcontext()
            with local:  # the forward too: it is where DataParallel arms the reducer
                loss = paddle.nn.functional.mse_loss(model(paddle.to_tensor(xs[sl])),
                                                     paddle.to_tensor(ys[sl])) / accumulate
                loss.backward()
        opt.step()
        opt.clear_grad()
    return [p.numpy().tolist() for p in model.parameters()]


def data_parallel():
    dist.init_parallel_env()
    rank, n = dist.get_rank(), dist.get_world_size()
    # a different init per rank: DataParallel broadcasts rank 0's parameters
    model = paddle.DataParallel(mlp(seed=7 if rank == 0 else 100 + rank),
                                comm_buffer_size=0.001, last_comm_buffer_size=0.0005)
    params = train_mlp(model, mlp_batches(4, 16), rank, n)
    model2 = paddle.DataParallel(mlp(), comm_buffer_size=0.001)
    accumulated = train_mlp(model2, mlp_batches(2, 16), rank, n, accumulate=2,
                            no_sync=model2.no_sync)
    assert list(model.state_dict().keys()) == list(mlp().state_dict().keys())
    report(params=params, accumulated=accumulated)


def bucket_timeline():
    """Several buckets: every one but the last (the first layer's) is launched while backward
    still computes the earlier layers' gradients."""
    dist.init_parallel_env()
    model = paddle.DataParallel(mlp(), comm_buffer_size=0.0005, last_comm_buffer_size=0.0005)
    x = paddle.ones([4, 8])
    model(x).sum().backward()
    timeline = model.last_bucket_timeline
    report(**timeline)


class SparseModel(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        paddle.seed(3)
        self.embedding = paddle.nn.Embedding(20, 4, sparse=True)
        self.linear = paddle.nn.Linear(4, 1)

    def forward(self, ids):
        return self.linear(self.embedding(ids)).sum(axis=1)


def sparse_batches(steps, batch):
    rng = np.random.default_rng(5)
    # ids from a small range, so that ranks share rows and rows repeat within a rank
    return [(rng.integers(0, 12, (batch, 3)).astype("int64"),
             rng.standard_normal((batch, 1)).astype("float32")) for _ in range(steps)]


def train_sparse(model, batches, rank, n):
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=model.parameters())
    kinds = []
    for ids, y in batches:
        share = len(ids) // n
        loss = paddle.nn.functional.mse_loss(
            model(paddle.to_tensor(ids[rank * share:(rank + 1) * share])),
            paddle.to_tensor(y[rank * share:(rank + 1) * share], paddle.get_default_dtype()))
        loss.backward()
        kinds.append(bool(model.parameters()[0].grad.is_selected_rows()))
        opt.step()
        opt.clear_grad()
    return [p.numpy().tolist() for p in model.parameters()], kinds


def sparse_data_parallel():
    paddle.set_default_dtype(sys.argv[2])
    dist.init_parallel_env()
    rank, n = dist.get_rank(), dist.get_world_size()
    model = paddle.DataParallel(SparseModel(), comm_buffer_size=0.001)
    params, kinds = train_sparse(model, sparse_batches(3, 8), rank, n)
    report(params=params, sparse_grads=kinds)


class TwoBranches(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.a = paddle.nn.Linear(4, 1)
        self.b = paddle.nn.Linear(4, 1)

    def forward(self, x, use_b):
        return self.a(x) + self.b(x) if use_b else self.a(x)


def unused_parameters():
    dist.init_parallel_env()
    rank = dist.get_rank()
    paddle.seed(1)
    model = paddle.DataParallel(TwoBranches(), find_unused_parameters=True)
    x = paddle.ones([2, 4]) * (rank + 1)
    # only rank 1 uses branch b: rank 0 contributes zeros to b's average
    model(x, use_b=rank == 1).sum().backward()
    grads = {name: p.grad.numpy().tolist() for name, p in model.named_parameters()}
    strict = paddle.DataParallel(TwoBranches())
    strict(x, use_b=False).sum().backward()
    try:
        strict(x, use_b=False)
    except RuntimeError as e:
        message = str(e)
    else:
        raise AssertionError("an unused parameter without find_unused_parameters was not reported")
    report(grads=grads, message=message)


def static_collectives():
    """Paddle's c_* ops in a static program, on ring 0 (the default group)."""
    dist.init_parallel_env()
    rank, n = dist.get_rank(), dist.get_world_size()
    from paddle import _C_ops
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2 * n, 3], "float32")
        fetches = [_C_ops.c_allreduce_sum(x, 0, True, False),
                   _C_ops.c_allreduce_max(x, 0, True, False),
                   _C_ops.c_allreduce_min(x, 0, True, False),
                   _C_ops.c_allreduce_prod(x, 0, True, False),
                   _C_ops.c_broadcast(x, 0, n - 1, True),
                   _C_ops.c_allgather(x, 0, n, True),
                   _C_ops.c_reducescatter(x, 0, n, True)]
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    every = [rank_data(r, (2 * n, 3), "float32") for r in range(n)]
    got = exe.run(main, feed={"x": every[rank]}, fetch_list=fetches)
    stacked = np.stack(every)
    expected = [stacked.sum(0), stacked.max(0), stacked.min(0), stacked.prod(0), every[n - 1],
                np.concatenate(every), stacked.sum(0)[2 * rank:2 * rank + 2]]
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-6)
    report(ok=True)


def fleet_static_train(rank, n, seed, use_fleet, steps=3, batch=16):
    from paddle.distributed import fleet
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        paddle.seed(seed)
        x = paddle.static.data("x", [None, 8], "float32")
        y = paddle.static.data("y", [None, 1], "float32")
        model = mlp(seed)
        loss = paddle.nn.functional.mse_loss(model(x), y)
        opt = paddle.optimizer.SGD(learning_rate=0.1)
        if use_fleet:
            opt = fleet.distributed_optimizer(opt)
        opt.minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    share = batch // n
    for step, (xs, ys) in enumerate(mlp_batches(steps, batch)):
        feed = {"x": xs[rank * share:(rank + 1) * share], "y": ys[rank * share:(rank + 1) * share]}
        params = exe.run(main, feed=feed, fetch_list=[p.name for p in model.parameters()])
    return [p.tolist() for p in params]


def fleet_collective():
    from paddle.distributed import fleet
    fleet.init(is_collective=True)
    rank, n = fleet.worker_index(), fleet.worker_num()
    # dygraph: distributed_model is DataParallel
    model = fleet.distributed_model(mlp(seed=7 if rank == 0 else 50))
    opt = fleet.distributed_optimizer(paddle.optimizer.SGD(learning_rate=0.1,
                                                           parameters=model.parameters()))
    dygraph = train_mlp(model, mlp_batches(4, 16), rank, n)
    del opt
    # static: the parameters start different per rank; the startup program broadcasts rank 0's
    static = fleet_static_train(rank, n, seed=7 if rank == 0 else 60, use_fleet=True)
    report(dygraph=dygraph, static=static, first=fleet.is_first_worker())


def nccl_collectives():
    """The NCCL group on one GPU per rank (PADDLE_DISTRI_BACKEND=nccl, FLAGS_selected_gpus)."""
    os.environ["FLAGS_selected_gpus"] = os.environ["PADDLE_TRAINER_ID"]
    dist.init_parallel_env()
    rank, n = dist.get_rank(), dist.get_world_size()
    every = [rank_data(r, (3, 5), "float32") for r in range(n)]
    for op in ("SUM", "MAX", "MIN", "PROD"):
        t = tensor(every[rank], "float32")
        dist.all_reduce(t, getattr(dist.ReduceOp, op))
        np.testing.assert_allclose(t.numpy(), NP_REDUCE[op](np.stack(every)), rtol=1e-6)
    t = tensor(every[rank], "float32")
    dist.all_reduce(t, dist.ReduceOp.AVG)
    np.testing.assert_allclose(t.numpy(), np.mean(every, 0), rtol=1e-6)
    t = tensor(every[rank], "float32")
    dist.broadcast(t, src=n - 1)
    np.testing.assert_array_equal(t.numpy(), every[n - 1])
    dist.barrier()
    report(ok=True, backend=dist.get_group(0).process_group.name())


def nccl_missing_gpu():
    try:
        dist.init_parallel_env(timeout=5)
    except ValueError as e:
        print(json.dumps(dict(rank=int(os.environ["PADDLE_TRAINER_ID"]), message=str(e))),
              flush=True)
        return
    raise AssertionError("init_parallel_env accepted a GPU that does not exist")


def spawned_all_reduce(path):
    dist.init_parallel_env()
    t = paddle.to_tensor([float(dist.get_rank() + 1)])
    dist.all_reduce(t)
    with open(f"{path}.{dist.get_rank()}", "w") as f:
        f.write(str(float(t.numpy()[0])))


def fails_on_rank_1():
    if int(os.environ["PADDLE_TRAINER_ID"]) == 1:
        raise ValueError("rank 1 fails on purpose")


def launched():
    dist.init_parallel_env()
    t = paddle.ones([2])
    dist.all_reduce(t)
    env = dist.ParallelEnv()
    assert env.current_endpoint == env.trainer_endpoints[env.rank]
    report(world_size=dist.get_world_size(), sum=float(t.numpy()[0]), local_rank=env.local_rank)


if __name__ == "__main__":
    globals()[sys.argv[1]]()
