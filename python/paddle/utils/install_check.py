"""paddle.utils.run_check(): trains a tiny model for one step on each kind of device."""
import numpy as np

__all__ = ["run_check"]


def _train_one_step(device):
    """One forward/backward/Adam step of Linear(2, 4) on `device`; checks the numbers."""
    # Imported here: paddle.nn and paddle.optimizer import paddle.utils themselves.
    import paddle
    from ..nn import Linear, ParamAttr
    from ..nn.initializer import Constant
    from ..optimizer import Adam
    from . import unique_name

    previous = paddle.get_device()
    paddle.set_device(device)
    try:
        # A private name scope, so the check neither clashes with nor shifts the user's
        # parameter names ("weight"/"bias" are fixed names here, as in Paddle's check).
        with unique_name.guard():
            linear = Linear(2, 4, weight_attr=ParamAttr(name="weight",
                                                        initializer=Constant(0.5)),
                            bias_attr=ParamAttr(name="bias", initializer=Constant(1.0)))
            data = np.arange(6, dtype="float32").reshape([3, 2])
            out = linear(paddle.to_tensor(data)).sum()
            out.backward()
            Adam(learning_rate=0.001, parameters=linear.parameters()).step()
        expected_out = float((data @ np.full([2, 4], 0.5) + 1.0).sum())
        expected_grad = np.tile(data.sum(0, keepdims=True).T, [1, 4])
        if not np.isclose(out.item(), expected_out, rtol=1e-5):
            raise RuntimeError(f"forward on {device} gave {out.item()}, expected {expected_out}")
        grad = linear.weight.grad
        if grad is None or not np.allclose(grad.numpy(), expected_grad, rtol=1e-5):
            raise RuntimeError(f"backward on {device} gave a wrong weight gradient")
        # Adam's first step moves every weight by -lr (the gradients are all positive).
        if not np.allclose(linear.weight.numpy(), 0.5 - 0.001, atol=1e-6):
            raise RuntimeError(f"the Adam step on {device} did not update the weight as "
                               f"expected")
    finally:
        paddle.set_device(previous)


# The CPU features that decide which kernels oneDNN and OpenBLAS pick.
_CPU_FEATURES = ("avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16", "amx_bf16", "amx_tile")


def cpu_report():
    """One line on the CPU: its model, the features the kernels use, and the instruction set
    oneDNN's JIT kernels run on with the size of the thread pool."""
    from ..base import libpaddle
    model, flags = "unknown CPU", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and model == "unknown CPU":
                    model = value.strip()
                elif key.strip() == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    features = " ".join(f for f in _CPU_FEATURES if f in flags) or "none of " + "/".join(
        _CPU_FEATURES)
    info = libpaddle._onednn_info()
    return (f"CPU: {model}; features: {features}; oneDNN {info['version']} on "
            f"{info['isa']} with {info['threads']} threads")


def run_check():
    """Checks that the installation works: prints what it verified and raises RuntimeError
    naming the device and the cause if something is wrong."""
    import paddle
    print("Running verify PaddlePaddle program ... ")
    print(cpu_report())
    gpu_count = paddle.device.cuda.device_count() if paddle.is_compiled_with_cuda() else 0
    devices = ["cpu"] + [f"gpu:{i}" for i in range(gpu_count)]
    for device in devices:
        try:
            _train_one_step(device)
        except Exception as error:
            raise RuntimeError(f"PaddlePaddle meets some problem on {device}: "
                               f"{type(error).__name__}: {error}") from error
        if device == "cpu":
            print("PaddlePaddle works well on 1 CPU.")
        elif device == "gpu:0":
            print("PaddlePaddle works well on 1 GPU.")
    if gpu_count > 1:
        print(f"PaddlePaddle works well on {gpu_count} GPUs.")
    if gpu_count == 0:
        support = "compiled with CUDA" if paddle.is_compiled_with_cuda() else "compiled without CUDA"
        print(f"PaddlePaddle sees 0 GPUs ({support}); it runs on the CPU.")
    print("PaddlePaddle is installed successfully! Let's start deep learning with PaddlePaddle "
          "now.")
