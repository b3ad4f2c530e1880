"""bfloat16 convolutions: on oneDNN's bf16 kernels where the CPU has AVX512-BF16 or AMX, through
the float32 path elsewhere (both accumulate in float32 and round each result once); and conv2d
under auto_cast(dtype='bfloat16'), which puts it on AMP's white list, in a small CNN's training
step: its forward in bf16, its loss and gradients close to the float32 run's."""
import os
import subprocess
import sys

import numpy as np
import pytest

import paddle
import paddle.nn.functional as F


def _bf16(array):
    return paddle.to_tensor(array.astype("float32")).astype("bfloat16")


def _f32(tensor):
    return tensor.astype("float32").numpy()


def _assert_one_rounding(actual, expected):
    # One bf16 rounding of a float32-accumulated result: within 2^-8 relative to the output's
    # scale.
    np.testing.assert_allclose(actual, expected, rtol=2 ** -8,
                               atol=2 ** -8 * np.abs(expected).max())


@pytest.mark.parametrize("shape,filter_shape,kwargs", [
    ((2, 8, 12, 12), (16, 8, 3, 3), dict(stride=1, padding=1)),
    ((2, 8, 11, 9), (6, 4, 3, 2), dict(stride=(2, 1), padding=[1, 2], dilation=(1, 2), groups=2)),
    ((1, 10, 9, 8), (10, 1, 3, 3), dict(padding="SAME", groups=10, data_format="NHWC")),
    ((3, 16, 7, 7), (32, 16, 1, 1), dict()),
])
def test_bf16_conv2d_and_its_gradients_match_float32_on_the_same_operands(shape, filter_shape,
                                                                          kwargs):
    rng = np.random.default_rng(sum(shape))
    if kwargs.get("data_format") == "NHWC":
        shape = (shape[0], shape[2], shape[3], shape[1])
    x, w = _bf16(rng.standard_normal(shape)), _bf16(rng.standard_normal(filter_shape))
    x32, w32 = x.astype("float32"), w.astype("float32")
    for t in (x, w, x32, w32):
        t.stop_gradient = False
    out = F.conv2d(x, w, **kwargs)
    out32 = F.conv2d(x32, w32, **kwargs)
    assert out.dtype == paddle.bfloat16
    _assert_one_rounding(_f32(out), out32.numpy())
    out_grad = rng.standard_normal(out.shape)
    (out.astype("float32") * paddle.to_tensor(out_grad.astype("float32"))).sum().backward()
    (out32 * paddle.to_tensor(_f32(_bf16(out_grad)))).sum().backward()
    assert x.grad.dtype == w.grad.dtype == paddle.bfloat16
    _assert_one_rounding(_f32(x.grad), x32.grad.numpy())
    _assert_one_rounding(_f32(w.grad), w32.grad.numpy())


def test_bf16_conv2d_transpose_matches_float32_on_the_same_operands():
    rng = np.random.default_rng(3)
    x, w = _bf16(rng.standard_normal((2, 8, 5, 6))), _bf16(rng.standard_normal((8, 4, 3, 3)))
    out = F.conv2d_transpose(x, w, stride=2, padding=1, output_padding=1)
    assert out.dtype == paddle.bfloat16
    expected = F.conv2d_transpose(x.astype("float32"), w.astype("float32"), stride=2, padding=1,
                                  output_padding=1)
    _assert_one_rounding(_f32(out), expected.numpy())


def test_bf16_conv2d_takes_the_float32_path_without_native_bf16():
    # oneDNN capped below AVX512-BF16 reports no native bf16, as a CPU without it would: the
    # convolution then runs on float32 and rounds, with the same results.
    script = (
        "import numpy as np, paddle, paddle.nn.functional as F\n"
        "from paddle.base import libpaddle\n"
        "assert libpaddle._onednn_info()['isa'] == 'avx512_core', libpaddle._onednn_info()\n"
        "rng = np.random.default_rng(0)\n"
        "x = paddle.to_tensor(rng.standard_normal((2, 4, 6, 6)).astype('float32'))\n"
        "w = paddle.to_tensor(rng.standard_normal((5, 4, 3, 3)).astype('float32'))\n"
        "x, w = x.astype('bfloat16'), w.astype('bfloat16')\n"
        "out = F.conv2d(x, w, padding=1)\n"
        "assert out.dtype == paddle.bfloat16\n"
        "expected = F.conv2d(x.astype('float32'), w.astype('float32'), padding=1).numpy()\n"
        "np.testing.assert_allclose(out.astype('float32').numpy(), expected, rtol=2 ** -8,\n"
        "                           atol=2 ** -8 * np.abs(expected).max())\n")
    from paddle.base import libpaddle
    isa = libpaddle._onednn_info()["isa"]
    if "bf16" not in isa and "amx" not in isa:
        pytest.skip("this CPU takes the float32 path in every test already")
    env = dict(os.environ, ONEDNN_MAX_CPU_ISA="AVX512_CORE")
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr


class SmallCNN(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv1 = paddle.nn.Conv2D(3, 8, 3, padding=1)
        self.conv2 = paddle.nn.Conv2D(8, 16, 3, stride=2, padding=1)
        self.fc = paddle.nn.Linear(16 * 8 * 8, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        return self.fc(paddle.flatten(x, 1))


def _train(amp, steps=5):
    paddle.seed(2024)
    model = SmallCNN()
    optimizer = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
    rng = np.random.default_rng(7)
    x = paddle.to_tensor(rng.standard_normal((8, 3, 16, 16)).astype("float32"))
    label = paddle.to_tensor(rng.integers(0, 10, (8, 1)).astype("int64"))
    losses = []
    for _ in range(steps):
        with paddle.amp.auto_cast(enable=amp, dtype="bfloat16", level="O1"):
            logits = model(x)
            loss = F.cross_entropy(logits, label)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(float(loss))
    return model, losses


def test_auto_cast_bf16_runs_conv2d_in_bf16():
    conv = paddle.nn.Conv2D(3, 4, 3, bias_attr=False)
    x = paddle.randn([2, 3, 10, 10])
    with paddle.amp.auto_cast(dtype="bfloat16"):
        out = conv(x)
        biased = paddle.nn.Conv2D(3, 4, 3)(x)
    assert out.dtype == paddle.bfloat16
    # The bias add sees a bf16 and a float32 operand and, off both lists, runs in float32.
    assert biased.dtype == paddle.float32
    with paddle.amp.auto_cast(dtype="bfloat16", custom_black_list={"conv2d"}):
        assert conv(x).dtype == paddle.float32
    # An op off both lists with only bf16 inputs runs in bf16 where it has a bf16 kernel, and in
    # float32 where it has none (pool2d here), as Paddle runs its unsupported ops.
    with paddle.amp.auto_cast(dtype="bfloat16"):
        assert F.relu(out).dtype == paddle.bfloat16
        assert F.avg_pool2d(out, 2).dtype == paddle.float32
    # The float32 filter keeps its dtype and receives a float32 gradient through the cast.
    out.astype("float32").sum().backward()
    assert conv.weight.grad.dtype == paddle.float32


def test_bf16_amp_cnn_training_follows_the_float32_run():
    model32, losses32 = _train(amp=False)
    model16, losses16 = _train(amp=True)
    assert losses16[-1] < losses16[0]
    np.testing.assert_allclose(losses16, losses32, rtol=3e-2, atol=3e-2)
    for p16, p32 in zip(model16.parameters(), model32.parameters()):
        assert p16.dtype == paddle.float32
        np.testing.assert_allclose(p16.numpy(), p32.numpy(), atol=2e-2)
