"""The CPU kernels of group_norm, instance_norm, lrn and spectral_norm on inputs large enough for
their parallel paths and multi-block sums (the harness samples in op_db_norm.py are small), and
float32 accuracy on data far from zero."""
import numpy as np
import pytest

import paddle
import paddle.nn.functional as F
import op_db  # noqa: F401  (first: it extends itself with op_db_norm's entries)
from op_db_norm import gn_np, gn_np_grad, lrn_np, lrn_np_grad, sn_np, sn_np_grad

RNG = np.random.default_rng(8)


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_group_norm_large_input_forward_and_gradient(data_format):
    # 1,600 spatial positions: several 512-row blocks per (sample, channel) in either layout.
    shape = (3, 16, 40, 40) if data_format == "NCHW" else (3, 40, 40, 16)
    x, dy = RNG.standard_normal(shape), RNG.standard_normal(shape)
    scale, bias = RNG.uniform(0.5, 1.5, 16), RNG.standard_normal(16)
    xt = paddle.to_tensor(x, stop_gradient=False)
    st = paddle.to_tensor(scale, stop_gradient=False)
    bt = paddle.to_tensor(bias, stop_gradient=False)
    y, mean, variance = paddle._C_ops.group_norm(xt, st, bt, 1e-5, 4, data_format)
    expected = gn_np(x, scale, bias, 1e-5, 4, data_format)
    for got, want in zip((y, mean, variance), expected):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-9, atol=1e-9)
    (y * paddle.to_tensor(dy)).sum().backward()
    grads = gn_np_grad(x, scale, expected[1], expected[2], dy, 1e-5, 4, data_format)
    for got, want in zip((xt.grad, st.grad, bt.grad), grads):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-8, atol=1e-8)


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_group_norm_float32_is_accurate_far_from_zero(data_format):
    shape = (2, 8, 64, 64) if data_format == "NCHW" else (2, 64, 64, 8)
    x = 1e4 + RNG.standard_normal(shape)
    out = F.group_norm(paddle.to_tensor(x.astype("float32")), 2, data_format=data_format)
    np.testing.assert_allclose(out.numpy(), gn_np(x.astype("float32").astype("float64"),
                                                  groups=2, data_format=data_format)[0],
                               atol=2e-3)


def test_instance_norm_large_input():
    x = RNG.standard_normal((4, 32, 30, 30)).astype("float32")
    out = F.instance_norm(paddle.to_tensor(x))
    np.testing.assert_allclose(out.numpy(), gn_np(x.astype("float64"), groups=32)[0], atol=1e-4)


@pytest.mark.parametrize("data_format,n", [("NCHW", 5), ("NHWC", 5), ("NHWC", 4)])
def test_lrn_large_input_forward_and_gradient(data_format, n):
    shape = (4, 24, 20, 20) if data_format == "NCHW" else (4, 20, 20, 24)
    x, dy = RNG.standard_normal(shape), RNG.standard_normal(shape)
    xt = paddle.to_tensor(x, stop_gradient=False)
    out, mid = paddle._C_ops.lrn(xt, n, 1.5, 0.2, 0.75, data_format)
    expected = lrn_np(x, n, 1.5, 0.2, 0.75, data_format)
    np.testing.assert_allclose(out.numpy(), expected[0], rtol=1e-7)
    np.testing.assert_allclose(mid.numpy(), expected[1], rtol=1e-7)
    (out * paddle.to_tensor(dy)).sum().backward()
    want = lrn_np_grad(x, expected[0], expected[1], dy, n, 0.2, 0.75, data_format)
    np.testing.assert_allclose(xt.grad.numpy(), want, rtol=1e-6, atol=1e-9)


def test_spectral_norm_large_weight():
    weight = RNG.standard_normal((64, 32, 3, 3))
    u, v = RNG.standard_normal(32), RNG.standard_normal(64 * 9)
    dy = RNG.standard_normal(weight.shape)
    wt = paddle.to_tensor(weight, stop_gradient=False)
    out = paddle._C_ops.spectral_norm(wt, paddle.to_tensor(u), paddle.to_tensor(v), 1, 2, 1e-12)
    np.testing.assert_allclose(out.numpy(), sn_np(weight, u, v, 1, 2), rtol=1e-10)
    (out * paddle.to_tensor(dy)).sum().backward()
    np.testing.assert_allclose(wt.grad.numpy(), sn_np_grad(weight, u, v, dy, 1, 2), rtol=1e-8,
                               atol=1e-12)
