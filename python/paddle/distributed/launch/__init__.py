"""python -m paddle.distributed.launch: starts one training process per rank of this node.

    python -m paddle.distributed.launch [--nproc_per_node N | --devices 0,1]
        [--ips ip1,ip2 [--rank R]] [--master ip:port] [--log_dir log] script.py [script args]

Each process gets Paddle's launch environment: PADDLE_TRAINER_ID / PADDLE_GLOBAL_RANK (its global
rank), PADDLE_TRAINERS_NUM / PADDLE_GLOBAL_SIZE, PADDLE_LOCAL_RANK, PADDLE_TRAINER_ENDPOINTS,
PADDLE_CURRENT_ENDPOINT, PADDLE_MASTER (the store master: rank 0's endpoint), PADDLE_NNODES and
FLAGS_selected_gpus (with --devices/--gpus: distinct ids, each an existing GPU where GPUs are
visible, else the launch stops naming the local rank) and PADDLE_DISTRI_BACKEND (the user's, else
auto with --devices, NCCL on GPUs, and gloo without). With --log_dir, process i writes
<log_dir>/workerlog.i (without it, the console). When one process fails,
the launcher stops the others and exits with its code.

Several machines: run the same command on every machine with the same --ips list (the machine's
own address selects its node rank, or pass --rank); ranks are numbered node by node, and the
store master listens on the first address at --master's port (default 6170, as Paddle's
started_port).
"""
