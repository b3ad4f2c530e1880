"""paddle.Model.prepare(amp_configs=...): the forward runs under auto_cast, the loss is scaled by
a GradScaler, O2 decorates the network, and training reaches the float32 result."""
import numpy as np
import pytest

import paddle
from static_testing import static_mode
from tiny_task import PointsDataset, input_specs, network


def fit(amp_configs, epochs=20):
    paddle.seed(0)
    model = paddle.Model(network(), *input_specs())
    model.prepare(paddle.optimizer.Adam(0.05, parameters=model.parameters()),
                  paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy(), amp_configs=amp_configs)
    model.fit(PointsDataset(), epochs=epochs, batch_size=16, shuffle=False, verbose=0)
    return model


@pytest.mark.parametrize("amp_configs", ["O1", {"level": "O2", "init_loss_scaling": 1024.0},
                                         {"custom_black_list": ["tanh"]}])
def test_mixed_precision_training_reaches_the_float32_result(amp_configs):
    reference = fit(None).evaluate(PointsDataset(), batch_size=64, verbose=0)
    model = fit(amp_configs)
    result = model.evaluate(PointsDataset(), batch_size=64, verbose=0)
    assert isinstance(result["loss"][0], (float, np.floating))  # not bfloat16's bits
    np.testing.assert_allclose(result["loss"][0], reference["loss"][0], rtol=0.1, atol=0.02)
    assert result["acc"] >= reference["acc"] - 0.05
    steps = 20 * 4
    state = model._scaler.state_dict()
    assert state["incr_count"] == steps and state["decr_count"] == 0  # every step went through it
    expected_scale = amp_configs.get("init_loss_scaling", 65536.0) if isinstance(
        amp_configs, dict) else 65536.0
    assert state["scale"][0] == expected_scale
    prediction = model.predict(PointsDataset(num=4), batch_size=4, stack_outputs=True,
                               verbose=0)[0]
    assert prediction.dtype == np.float32 and prediction.shape == (4, 2)


def test_o2_decorates_the_network_and_keeps_float32_master_weights():
    model = fit({"level": "O2"}, epochs=1)
    assert model.network[0].weight.dtype == paddle.bfloat16  # the CPU's low precision type
    assert model._optimizer._multi_precision


def test_dtype_key_picks_the_low_precision_type():
    paddle.seed(0)
    model = paddle.Model(network(), *input_specs())
    model.prepare(paddle.optimizer.SGD(0.1, parameters=model.parameters()),
                  paddle.nn.CrossEntropyLoss(), amp_configs={"level": "O1", "dtype": "float16"})
    x = np.zeros((2, 2), "float32")
    with paddle.amp.auto_cast(level="O1", dtype="float16"):
        expected = model.network(paddle.to_tensor(x)).dtype
    assert model._adapter._forward([x]).dtype == expected == paddle.float16


@pytest.mark.parametrize("amp_configs, error, match", [
    ("O3", ValueError, "'O0', 'O1' or 'O2'"),
    ({"level": "O1", "use_pure_fp16": True}, ValueError, "use_pure_fp16"),
    (3, TypeError, "amp_configs"),
])
def test_bad_amp_configs_raise(amp_configs, error, match):
    model = paddle.Model(network(), *input_specs())
    with pytest.raises(error, match=match):
        model.prepare(paddle.optimizer.SGD(0.1, parameters=model.parameters()),
                      paddle.nn.CrossEntropyLoss(), amp_configs=amp_configs)


def test_static_mode_decorates_the_optimizer_with_static_amp():
    # Training in static mode with amp_configs is tested in static/test_static_amp.py.
    with static_mode():
        model = paddle.Model(network(), *input_specs())
        model.prepare(paddle.optimizer.SGD(0.1), paddle.nn.CrossEntropyLoss(),
                      amp_configs={"level": "O1", "init_loss_scaling": 128.0})
        assert isinstance(model._optimizer, paddle.static.amp.OptimizerWithMixedPrecision)
        assert model._optimizer._init_loss_scaling == 128.0
        assert model._scaler is None
