"""The process group state of paddle.distributed: ParallelEnv (the launch environment), the
global TCPStore, the default group and new_group, init_parallel_env and destroy_process_group.

init_parallel_env reads the variables `python -m paddle.distributed.launch` sets, as Paddle does:
PADDLE_TRAINER_ID (rank), PADDLE_TRAINERS_NUM (world size), the store master from
MASTER_ADDR/MASTER_PORT, else PADDLE_MASTER, else the first of PADDLE_TRAINER_ENDPOINTS, and
PADDLE_CURRENT_ENDPOINT (the address Gloo binds to, unless GLOO_SOCKET_IFNAME names an
interface). Rank 0 serves the store. Every group, the default one included, is a C++
ProcessGroupGloo, or ProcessGroupNCCL where a GPU is visible (PADDLE_DISTRI_BACKEND=gloo|nccl
chooses); a Gloo group announces each rank in the store before Gloo connects, so a rank that
never starts is named in the error after `timeout` seconds.
"""
import atexit
import datetime
import ipaddress
import os
import socket

from ..base import libpaddle

_core = libpaddle.distributed

# PADDLE_PG_TIMEOUT is in milliseconds, as in Paddle (default 30 minutes).
_DEFAULT_TIMEOUT_MS = 1800000


class ParallelEnv:
    """The parallel environment of this process, read from the launch variables."""

    def __init__(self):
        self._rank = int(os.getenv("PADDLE_TRAINER_ID", "0"))
        self._world_size = int(os.getenv("PADDLE_TRAINERS_NUM", "1"))
        self._device_type = "cpu"
        self._pg_timeout = int(os.getenv("PADDLE_PG_TIMEOUT", str(_DEFAULT_TIMEOUT_MS)))
        selected = os.getenv("FLAGS_selected_gpus", "0").split(",")[0].strip()
        if selected and not selected.isdigit():
            raise ValueError(f"ParallelEnv: FLAGS_selected_gpus must name device ids, received "
                             f"{os.getenv('FLAGS_selected_gpus')!r}")
        self._device_id = int(selected) if selected else 0
        self._trainer_endpoints = [e for e in os.getenv("PADDLE_TRAINER_ENDPOINTS", "").split(",") if e]
        self._current_endpoint = os.getenv("PADDLE_CURRENT_ENDPOINT", "")
        self._nrings = int(os.getenv("FLAGS_nccl_nrings", "1"))
        self._local_rank = int(os.getenv("PADDLE_LOCAL_RANK", str(self._rank)))

    @property
    def rank(self):
        return self._rank

    @property
    def world_size(self):
        return self._world_size

    @property
    def device_id(self):
        return self._device_id

    @property
    def device_type(self):
        return self._device_type

    @property
    def current_endpoint(self):
        return self._current_endpoint

    @property
    def trainer_endpoints(self):
        return self._trainer_endpoints

    @property
    def nrings(self):
        return self._nrings

    @property
    def pg_timeout(self):
        return self._pg_timeout

    @property
    def local_rank(self):
        return self._local_rank

    # Paddle's older names.
    nranks = world_size
    dev_id = device_id


class Group:
    """A group of ranks: `rank` is this process's rank in it (-1 when not a member), `ranks` the
    global ranks of its members, `process_group` the C++ group (None on non-members)."""

    def __init__(self, rank_in_group, id, ranks, pg=None, name=None):
        self._rank_in_group = rank_in_group
        self._world_size = len(ranks) if rank_in_group >= 0 else -1
        self._id = id
        self._ranks = list(ranks)
        self._pg = pg
        self._name = name

    @property
    def rank(self):
        return self._rank_in_group

    @property
    def ranks(self):
        return self._ranks

    @property
    def nranks(self):
        return len(self._ranks)

    @property
    def world_size(self):
        return self._world_size

    @property
    def id(self):
        return self._id

    @property
    def name(self):
        return self._name

    @property
    def process_group(self):
        return self._pg

    @property
    def backend(self):
        return self._pg.name() if self._pg is not None else None

    def is_member(self):
        return self._rank_in_group >= 0

    def get_group_rank(self, rank):
        """The rank in this group of global rank `rank`, -1 when it is not a member."""
        return self._ranks.index(rank) if rank in self._ranks else -1

    def __repr__(self):
        return (f"rank: {self.rank}, nranks: {self.nranks}, id: {self.id}, ranks: "
                f"{', '.join(map(str, self.ranks))}; name: {self.name}")


class _State:
    backend = "gloo"
    device_id = 0
    store = None
    default_group = None
    groups = {}
    next_group_id = 1
    hostname = None
    iface = ""
    check_tensors = True


def _timeout_seconds(timeout, what):
    if isinstance(timeout, datetime.timedelta):
        seconds = timeout.total_seconds()
    elif isinstance(timeout, (int, float)) and not isinstance(timeout, bool):
        seconds = float(timeout)
    else:
        raise TypeError(f"{what}: timeout must be a datetime.timedelta or a number of seconds, "
                        f"received {type(timeout).__name__}")
    if seconds <= 0:
        raise ValueError(f"{what}: timeout must be positive, received {seconds} s")
    return seconds


def _env_int(name, default, what):
    value = os.getenv(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{what}: environment variable {name} must be an integer, received "
                         f"'{value}'") from None


def _master_endpoint(world_size):
    addr, port = os.getenv("MASTER_ADDR"), os.getenv("MASTER_PORT")
    if addr and port:
        endpoint = f"{addr}:{port}"
    else:
        endpoint = os.getenv("PADDLE_MASTER") or (os.getenv("PADDLE_TRAINER_ENDPOINTS") or "").split(",")[0]
    if not endpoint:
        if world_size == 1:
            return "127.0.0.1", 0
        raise ValueError("init_parallel_env: no store master: set PADDLE_MASTER (ip:port), "
                         "MASTER_ADDR and MASTER_PORT, or PADDLE_TRAINER_ENDPOINTS, or start "
                         "the script with python -m paddle.distributed.launch")
    host, sep, port = endpoint.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"init_parallel_env: the master endpoint must be 'ip:port' with a port "
                         f"in [1, 65535], received '{endpoint}'")
    return host.strip("[]"), int(port)


def _bind_hostname(master_host):
    """The address this rank's Gloo pairs listen on."""
    current = os.getenv("PADDLE_CURRENT_ENDPOINT", "")
    if current:
        return current.rpartition(":")[0].strip("[]")
    try:
        if ipaddress.ip_address(master_host).is_loopback:
            return master_host
    except ValueError:
        if master_host == "localhost":
            return "127.0.0.1"
    return socket.gethostname()


def is_initialized():
    """True once init_parallel_env has made the default group."""
    return _State.default_group is not None


def _default_backend():
    """PADDLE_DISTRI_BACKEND when set, else nccl where a GPU is visible and gloo otherwise."""
    backend = os.getenv("PADDLE_DISTRI_BACKEND", "auto")
    if backend == "auto":
        has_gpu = libpaddle.is_compiled_with_cuda() and libpaddle.get_cuda_device_count() > 0
        return "nccl" if has_gpu else "gloo"
    if backend not in ("gloo", "nccl"):
        raise ValueError(f"init_parallel_env: PADDLE_DISTRI_BACKEND must be 'gloo', 'nccl' or "
                         f"'auto', received '{backend}'")
    return backend


def _new_process_group(rank, ranks, gid, timeout, backend):
    if backend == "nccl":
        if not hasattr(_core, "ProcessGroupNCCL"):
            raise ValueError("paddle.distributed: the nccl backend needs a build with CUDA "
                             "(WITH_GPU)")
        return _core.ProcessGroupNCCL(_State.store, rank, len(ranks), gid, list(ranks), timeout,
                                      _State.device_id)
    return _core.ProcessGroupGloo(_State.store, rank, len(ranks), gid, list(ranks), timeout,
                                  _State.iface, _State.hostname, _State.check_tensors)


def init_parallel_env(*, timeout=None):
    """Initialises the default group of all ranks (see the module's docstring); returns it.

    `timeout` (a datetime.timedelta or seconds; default PADDLE_PG_TIMEOUT ms, 30 minutes) bounds
    the wait for the other ranks here and in every collective of the group."""
    if _State.default_group is not None:
        return _State.default_group
    rank = _env_int("PADDLE_TRAINER_ID", 0, "init_parallel_env")
    world_size = _env_int("PADDLE_TRAINERS_NUM", 1, "init_parallel_env")
    if world_size < 1:
        raise ValueError(f"init_parallel_env: PADDLE_TRAINERS_NUM (the world size) must be at "
                         f"least 1, received {world_size}")
    if not 0 <= rank < world_size:
        raise ValueError(f"init_parallel_env: PADDLE_TRAINER_ID (the rank) must be in [0, "
                         f"{world_size}) for PADDLE_TRAINERS_NUM={world_size}, received {rank}")
    if timeout is None:
        seconds = _env_int("PADDLE_PG_TIMEOUT", _DEFAULT_TIMEOUT_MS, "init_parallel_env") / 1000.0
    else:
        seconds = _timeout_seconds(timeout, "init_parallel_env")
    host, port = _master_endpoint(world_size)
    _State.hostname = _bind_hostname(host)
    _State.iface = os.getenv("GLOO_SOCKET_IFNAME", "")
    _State.check_tensors = os.getenv("PADDLE_DISTRIBUTED_CHECK", "1") not in ("0", "false", "False")
    _State.backend = _default_backend()
    _State.device_id = ParallelEnv().device_id
    if _State.backend == "nccl":
        count = libpaddle.get_cuda_device_count() if libpaddle.is_compiled_with_cuda() else 0
        if not 0 <= _State.device_id < count:
            raise ValueError(f"init_parallel_env: rank {rank} is to use GPU {_State.device_id} "
                             f"(FLAGS_selected_gpus={os.getenv('FLAGS_selected_gpus', '0')!r}) "
                             f"for the nccl backend, but {count} GPU(s) are visible")
        from .. import device
        device.set_device(f"gpu:{_State.device_id}")
    _State.store = _core.TCPStore(host, port, rank == 0, rank, seconds)
    pg = _new_process_group(rank, range(world_size), 0, seconds, _State.backend)
    _core.register_ring(0, pg)  # the static-graph collectives' ring_id 0
    _State.default_group = Group(rank, 0, range(world_size), pg=pg, name="_default_pg")
    _State.groups = {0: _State.default_group}
    _State.next_group_id = 1
    return _State.default_group


def _get_global_group():
    if _State.default_group is None:
        raise RuntimeError("paddle.distributed: call paddle.distributed.init_parallel_env() "
                           "before using a collective or a group")
    return _State.default_group


def get_group(id=0):
    """The group with id `id` (0: the default group); None when there is none."""
    return _State.groups.get(id)


def new_group(ranks=None, backend=None, timeout=datetime.timedelta(seconds=1800)):
    """A group of the given global ranks (all ranks by default). Every rank of the default group
    calls new_group with the same arguments, members or not; non-members get a group whose rank
    is -1."""
    world = _get_global_group()
    if backend not in (None, "gloo", "nccl"):
        raise ValueError(f"new_group: backend must be 'gloo', 'nccl' or None, received "
                         f"'{backend}'")
    ranks = sorted(range(world.nranks) if ranks is None else ranks)
    if len(set(ranks)) != len(ranks):
        raise ValueError(f"new_group: ranks must be distinct, received {ranks}")
    for r in ranks:
        if not isinstance(r, int) or not 0 <= r < world.nranks:
            raise ValueError(f"new_group: every rank must be in [0, {world.nranks}), received {r}")
    seconds = _timeout_seconds(timeout, "new_group")
    gid = _State.next_group_id
    _State.next_group_id += 1
    me = world.rank
    if me in ranks:
        pg = _new_process_group(ranks.index(me), ranks, gid, seconds, backend or _State.backend)
        _core.register_ring(gid, pg)
        group = Group(ranks.index(me), gid, ranks, pg=pg, name=f"_pg_{gid}")
    else:
        group = Group(-1, gid, ranks, name=f"_pg_{gid}")
    _State.groups[gid] = group
    return group


def destroy_process_group(group=None):
    """Destroys `group`, or every group and the store when group is None."""
    if group is None:
        for gid in _State.groups:
            _core.register_ring(gid, None)
        _State.groups = {}
        _State.default_group = None
        _State.store = None
        return
    _State.groups.pop(group.id, None)
    _core.register_ring(group.id, None)
    if group is _State.default_group:
        _State.default_group = None


@atexit.register
def _release_rings():
    # The ring registry is a C++ static: empty it while Python runs, so that no process group
    # is left to a static destructor at exit.
    for gid in _State.groups:
        _core.register_ring(gid, None)


def get_rank(group=None):
    """This process's rank in `group` (the default group), or PADDLE_TRAINER_ID before init."""
    if group is not None:
        return group.rank
    if _State.default_group is not None:
        return _State.default_group.rank
    return int(os.getenv("PADDLE_TRAINER_ID", "0"))


def get_world_size(group=None):
    """The number of ranks in `group` (the default group), or PADDLE_TRAINERS_NUM before init."""
    if group is not None:
        return group.world_size
    if _State.default_group is not None:
        return _State.default_group.nranks
    return int(os.getenv("PADDLE_TRAINERS_NUM", "1"))
