"""bincount and histogram: the output dtypes PaddlePaddle 3.3.1 gives (the harness runs the
weights in the input's dtype), and its values on the same inputs."""
import numpy as np

import paddle


def test_bincount_dtype_follows_the_weights_as_paddle():
    x = paddle.to_tensor([1, 2, 1, 4, 5])
    assert paddle.bincount(x).dtype == paddle.int64
    weighted = paddle.bincount(x, weights=paddle.to_tensor([2.1, 0.4, 0.1, 0.5, 0.5]))
    assert weighted.dtype == paddle.float32
    np.testing.assert_allclose(weighted.numpy(), [0.0, 2.2, 0.4, 0.0, 0.5, 0.5], rtol=1e-6)
    for dtype in ("float64", "int32", "int64"):
        w = paddle.to_tensor([1, 2, 3, 4, 5], dtype=dtype)
        assert paddle.bincount(x, weights=w).dtype == paddle.float64
    np.testing.assert_array_equal(x.bincount(minlength=8).numpy(), [0, 2, 1, 0, 1, 1, 0, 0])


def test_histogram_is_int64_counts_or_float32_with_weight_or_density():
    data = paddle.to_tensor([1.0, 2.0, 1.0, 4.0], dtype="float64")
    counts = paddle.histogram(data, bins=4, min=0, max=4)
    assert counts.dtype == paddle.int64
    np.testing.assert_array_equal(counts.numpy(), [0, 2, 1, 1])
    weighted = paddle.histogram(data, bins=4, min=0, max=4,
                                weight=paddle.to_tensor([1.0, 2.0, 3.0, 4.0], dtype="float64"))
    assert weighted.dtype == paddle.float32
    np.testing.assert_array_equal(weighted.numpy(), [0.0, 4.0, 2.0, 4.0])
    density = data.histogram(bins=4, min=0, max=4, density=True)
    assert density.dtype == paddle.float32
    np.testing.assert_array_equal(density.numpy(), [0.0, 0.5, 0.25, 0.25])
    np.testing.assert_array_equal(paddle.histogram(paddle.to_tensor([3.0, 3.0, 3.0]), bins=4).numpy(),
                                  [0, 0, 3, 0])


def test_histogram_leaves_nan_out_and_refuses_an_infinite_range_as_paddle():
    with_nan = paddle.to_tensor([1.0, float("nan"), 2.0])
    np.testing.assert_array_equal(paddle.histogram(with_nan, bins=2).numpy(), [1, 1])
    np.testing.assert_array_equal(paddle.histogram(with_nan, bins=2, min=0, max=3).numpy(), [1, 1])
    with np.testing.assert_raises(ValueError):
        paddle.histogram(paddle.to_tensor([1.0, float("inf")]), bins=2)


def test_histogram_bin_edges_as_paddle():
    data = paddle.to_tensor([1.0, 2.0, 1.0, 4.0])
    edges = paddle.histogram_bin_edges(data, bins=4)
    assert edges.dtype == paddle.float32
    np.testing.assert_array_equal(edges.numpy(), [1.0, 1.75, 2.5, 3.25, 4.0])
    # One value: widened by 0.5 each side (histogram widens by 1), as in PaddlePaddle 3.3.1.
    np.testing.assert_array_equal(paddle.histogram_bin_edges(paddle.to_tensor([3, 3]), bins=2).numpy(),
                                  [2.5, 3.0, 3.5])
    np.testing.assert_array_equal(data.histogram_bin_edges(bins=2, min=0, max=4).numpy(),
                                  [0.0, 2.0, 4.0])
    assert np.isnan(paddle.histogram_bin_edges(paddle.to_tensor([1.0, float("nan")]), bins=2)
                    .numpy()).all()
    with np.testing.assert_raises(ValueError):
        paddle.histogram_bin_edges(data, bins=2, min=3, max=1)
    with np.testing.assert_raises(TypeError):
        paddle.histogram_bin_edges(paddle.to_tensor([True]))
