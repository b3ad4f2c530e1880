"""multi_precision: a bfloat16 parameter is updated from a float32 master weight, which
state_dict() saves ("master_weights") and set_state_dict() restores."""
import numpy as np
import pytest

import paddle
from paddle.utils import unique_name


def _run(opt_class, steps, state=None, start=None):
    with unique_name.guard():
        paddle.seed(4)
        model = paddle.nn.Linear(3, 2)
        model.to(dtype="bfloat16")
        if start is not None:
            model.weight.set_value(start.weight)
            model.bias.set_value(start.bias)
        kwargs = dict(learning_rate=0.05, parameters=model.parameters())
        opt = opt_class(**kwargs)
        opt._multi_precision = True  # as paddle.amp.decorate(level="O2") sets it
        if state is not None:
            opt.set_state_dict(state)
        x = paddle.ones([4, 3], dtype="bfloat16")
        for _ in range(steps):
            loss = model(x).astype("float32").pow(2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
        return model, opt


@pytest.mark.parametrize("opt_class", [paddle.optimizer.SGD, paddle.optimizer.Momentum,
                                       paddle.optimizer.Adam, paddle.optimizer.RMSProp,
                                       paddle.optimizer.Lamb])
def test_master_weights_resume(opt_class):
    straight, _ = _run(opt_class, 6)
    first, opt = _run(opt_class, 3)
    state = {k: (v if k == "master_weights" else v.numpy()) for k, v in opt.state_dict().items()}
    assert state["master_weights"][first.weight.name].dtype == paddle.float32
    resumed, _ = _run(opt_class, 3, state=state, start=first)
    np.testing.assert_array_equal(resumed.weight.astype("float32").numpy(),
                                  straight.weight.astype("float32").numpy())


def test_small_updates_accumulate_in_the_master_weight():
    # 1e-4 steps vanish when rounded to bfloat16 one by one; the master keeps them.
    with unique_name.guard():
        param = paddle.create_parameter([1], "bfloat16",
                                        default_initializer=paddle.nn.initializer.Constant(1.0))
        opt = paddle.optimizer.SGD(1e-4, parameters=[param], multi_precision=True)
        for _ in range(100):
            param.grad = None
            (param.astype("float32") * 1.0).sum().backward()
            opt.step()
        master = opt.state_dict()["master_weights"][param.name]
    np.testing.assert_allclose(master.numpy(), [0.99], rtol=1e-5)
    assert float(param.astype("float32")) < 1.0
