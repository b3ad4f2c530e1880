"""The launcher's work (see the package docstring): parse the arguments, compute every rank's
endpoint, start this node's processes and watch them."""
import argparse
import os
import signal
import socket
import subprocess
import sys
import time

from ..spawn import _free_ports, _worker_env

DEFAULT_PORT = 6170


def _parser():
    p = argparse.ArgumentParser(prog="python -m paddle.distributed.launch",
                                description="Start one training process per rank of this node.")
    p.add_argument("--nproc_per_node", type=int, default=None,
                   help="processes on this node (default: the number of --devices, else 1)")
    p.add_argument("--devices", "--gpus", dest="devices", default=None,
                   help="device ids, one process each (sets FLAGS_selected_gpus)")
    p.add_argument("--ips", default=None, help="comma-separated addresses of all nodes")
    p.add_argument("--master", default=None,
                   help="ip:port of the store master (default: the first of --ips, or a free "
                        "localhost port)")
    p.add_argument("--nnodes", type=int, default=None, help="number of nodes (len(--ips))")
    p.add_argument("--rank", type=int, default=None, help="this node's rank among the nodes")
    p.add_argument("--log_dir", default=None, help="write process i's output to workerlog.i")
    p.add_argument("--job_id", default="default", help="a name for the job (in the log)")
    p.add_argument("training_script", help="the script every process runs")
    p.add_argument("training_script_args", nargs=argparse.REMAINDER)
    return p


def _local_addresses():
    addresses = {"127.0.0.1", "localhost", socket.gethostname()}
    try:
        addresses.update(info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None))
    except socket.gaierror:
        pass
    return addresses


def _visible_gpus():
    from ...base import libpaddle
    return libpaddle.get_cuda_device_count() if libpaddle.is_compiled_with_cuda() else 0


def _check_devices(devices):
    """Device ids are distinct non-negative integers and, where GPUs are visible, exist: a bad
    one stops the launch naming the local rank it was meant for."""
    for local, device in enumerate(devices):
        if not device.strip().isdigit():
            raise SystemExit(f"launch: --devices entry {local} (local rank {local}) must be a "
                             f"non-negative device id, received '{device}'")
        if devices.index(device) != local:
            raise SystemExit(f"launch: --devices names device {device} for local ranks "
                             f"{devices.index(device)} and {local}; each rank needs its own")
    count = _visible_gpus()
    if count == 0:
        return  # CPU training (Gloo): the ids only label the processes
    for local, device in enumerate(devices):
        if int(device) >= count:
            raise SystemExit(f"launch: local rank {local} was given device {device} (--devices "
                             f"{','.join(devices)}), but this machine has {count} GPU(s), ids "
                             f"0 to {count - 1}")


def _plan(args):
    """(endpoints of all ranks, this node's first global rank, processes on this node, devices)"""
    devices = args.devices.split(",") if args.devices else None
    nproc = args.nproc_per_node or (len(devices) if devices else 1)
    if nproc < 1:
        raise SystemExit(f"launch: --nproc_per_node must be at least 1, received {nproc}")
    if devices is not None and len(devices) != nproc:
        raise SystemExit(f"launch: --devices names {len(devices)} devices for "
                         f"--nproc_per_node={nproc}")
    if devices is not None:
        _check_devices(devices)
    ips = args.ips.split(",") if args.ips else None
    if ips is None and args.nnodes not in (None, 1):
        raise SystemExit("launch: several nodes need --ips (every node's address)")
    if ips is None or len(ips) == 1:
        host = ips[0] if ips else "127.0.0.1"
        ports = _free_ports(nproc) if args.master is None else None
        if args.master is not None:
            master_host, _, master_port = args.master.rpartition(":")
            ports = [int(master_port)] + _free_ports(nproc - 1)
            host = master_host if ips is None else host
        return [f"{host}:{p}" for p in ports], 0, nproc, devices
    node = args.rank
    if node is None:
        local = _local_addresses()
        matches = [i for i, ip in enumerate(ips) if ip in local]
        if len(matches) != 1:
            raise SystemExit(f"launch: cannot tell which of --ips {ips} is this node; pass --rank")
        node = matches[0]
    if not 0 <= node < len(ips):
        raise SystemExit(f"launch: --rank must be in [0, {len(ips)}), received {node}")
    port = DEFAULT_PORT
    if args.master is not None:
        port = int(args.master.rpartition(":")[2])
    endpoints = [f"{ip}:{port + local}" for ip in ips for local in range(nproc)]
    return endpoints, node * nproc, nproc, devices


def launch(argv=None):
    args = _parser().parse_args(argv)
    endpoints, first_rank, nproc, devices = _plan(args)
    world = len(endpoints)
    if args.log_dir:
        os.makedirs(args.log_dir, exist_ok=True)
    processes, logs = [], []
    for local in range(nproc):
        rank = first_rank + local
        env = dict(os.environ)
        env.update(_worker_env(rank, world, endpoints, local_rank=local))
        env["PADDLE_NNODES"] = str(world // nproc)
        env["PADDLE_LOCAL_SIZE"] = str(nproc)
        env["PADDLE_JOB_ID"] = args.job_id
        if devices is not None:
            env["FLAGS_selected_gpus"] = devices[local]
        # --devices means one GPU per process: NCCL where the GPUs are (auto), unless the user
        # chose a backend; without it, CPU processes on Gloo.
        env["PADDLE_DISTRI_BACKEND"] = os.environ.get("PADDLE_DISTRI_BACKEND") or (
            "auto" if devices is not None else "gloo")
        command = [sys.executable, "-u", args.training_script] + args.training_script_args
        out = None
        if args.log_dir:
            out = open(os.path.join(args.log_dir, f"workerlog.{local}"), "w")
            logs.append(out)
        processes.append(subprocess.Popen(command, env=env, stdout=out,
                                          stderr=subprocess.STDOUT if out else None))
    return _watch(processes, logs, args.log_dir)


def _watch(processes, logs, log_dir):
    try:
        while True:
            codes = [p.poll() for p in processes]
            failed = [i for i, c in enumerate(codes) if c not in (None, 0)]
            if failed:
                i = failed[0]
                where = f" (see {log_dir}/workerlog.{i})" if log_dir else ""
                print(f"launch: process {i} exited with code {codes[i]}{where}; stopping the "
                      "others", file=sys.stderr)
                _stop(processes)
                return codes[i]
            if all(c == 0 for c in codes):
                return 0
            time.sleep(0.1)
    except KeyboardInterrupt:
        _stop(processes)
        return 130
    finally:
        for f in logs:
            f.close()


def _stop(processes):
    for p in processes:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 5
    for p in processes:
        try:
            p.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
