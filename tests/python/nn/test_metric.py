"""paddle.metric.accuracy (also paddle.static.accuracy) in dygraph and in static programs."""
import numpy as np
import pytest

import paddle
from static_testing import new_programs, static_mode

SCORES = np.array([[0.1, 0.9, 0.0], [0.8, 0.15, 0.05], [0.3, 0.2, 0.5], [0.2, 0.3, 0.5]],
                  "float32")
LABELS = np.array([[1], [1], [1], [0]], "int64")


def test_accuracy_top1_top2_and_counts():
    x, y = paddle.to_tensor(SCORES), paddle.to_tensor(LABELS)
    correct, total = paddle.zeros([1], "int32"), paddle.zeros([1], "int32")
    top1 = paddle.metric.accuracy(x, y, correct=correct, total=total)
    assert top1.shape == [] and top1.dtype == paddle.float32
    assert float(top1) == pytest.approx(0.25)
    assert correct.shape == [1] and int(correct) == 1 and int(total) == 4
    assert float(paddle.metric.accuracy(x, y, k=2)) == pytest.approx(0.5)


def test_accuracy_rejects_a_1d_label():
    with pytest.raises(ValueError, match="'label' must have shape \\[N, 1\\]"):
        paddle.metric.accuracy(paddle.to_tensor(SCORES), paddle.to_tensor(LABELS[:, 0]))


def test_accuracy_in_a_static_program_with_unknown_batch():
    with static_mode():
        main, _ = new_programs()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [None, 3])
            y = paddle.static.data("y", [None, 1], "int64")
            acc = paddle.static.accuracy(x, y, k=2)
        exe = paddle.static.Executor()
        (got,) = exe.run(main, feed={"x": SCORES, "y": LABELS}, fetch_list=[acc])
        assert float(got) == pytest.approx(0.5)
        (got,) = exe.run(main, feed={"x": SCORES[:2], "y": LABELS[:2]}, fetch_list=[acc])
        assert float(got) == pytest.approx(1.0)
