"""paddle.scatter_ and Tensor.scatter_: scatter written into x's own storage."""
import numpy as np

import paddle


def test_scatter_in_place_writes_x_as_scatter_computes():
    x_values = np.arange(8, dtype="float32").reshape(4, 2)
    index = paddle.to_tensor([3, 0, 3])
    updates = paddle.to_tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    expected = paddle.scatter(paddle.to_tensor(x_values), index, updates, overwrite=False)
    x = paddle.to_tensor(x_values)
    out = paddle.scatter_(x, index, updates, overwrite=False)
    np.testing.assert_array_equal(x.numpy(), expected.numpy())
    np.testing.assert_array_equal(out.numpy(), expected.numpy())
    x.scatter_(paddle.to_tensor([1]), paddle.to_tensor([[9.0, 9.0]]))
    np.testing.assert_array_equal(x.numpy()[1], [9.0, 9.0])
