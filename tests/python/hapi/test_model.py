"""paddle.Model in dygraph and static graph mode: fit / evaluate / predict on a tiny task,
the batch methods, training checkpoints and inference models, and its argument checks."""
import os

import numpy as np
import pytest

import paddle
from paddle.utils import unique_name
from static_testing import static_mode
from tiny_task import PointsDataset, batches, input_specs, network, prepared_model, samples


def test_fit_learns_the_task_in_dygraph():
    paddle.seed(1)
    model = prepared_model(learning_rate=0.05, optimizer="Adam")
    before = model.evaluate(batches(1), verbose=0)
    model.fit(batches(), epochs=15, verbose=0)
    after = model.evaluate(batches(1), verbose=0)
    assert set(after) == {"loss", "acc"}
    assert after["loss"][0] < before["loss"][0]
    assert after["acc"] >= 0.9


def test_datasets_and_data_loaders():
    model = prepared_model(learning_rate=0.05, optimizer="Adam")
    seen = []

    class BatchSizes(paddle.callbacks.Callback):
        def on_train_batch_end(self, step, logs=None):
            seen.append(logs["batch_size"])

        def on_eval_batch_end(self, step, logs=None):
            seen.append(-logs["batch_size"])

    model.fit(PointsDataset(num=40), PointsDataset(1, num=20), batch_size=[16, 8], epochs=2,
              drop_last=True, verbose=0, callbacks=BatchSizes())
    assert seen == [16, 16, -8, -8, -4] * 2
    loader = paddle.io.DataLoader(PointsDataset(1, num=20), batch_size=5)
    by_loader = model.evaluate(loader, verbose=0)
    by_dataset = model.evaluate(PointsDataset(1, num=20), batch_size=5, verbose=0)
    assert by_loader == by_dataset
    outputs = model.predict(PointsDataset(2, num=10), batch_size=4, verbose=0)
    assert [out.shape for out in outputs[0]] == [(4, 2), (4, 2), (2, 2)]


def test_shuffle_changes_the_batches():
    order = []

    class Record(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.linear = paddle.nn.Linear(2, 2)

        def forward(self, x):
            order.append(x.numpy().copy())
            return self.linear(x)

    model = paddle.Model(Record(), *input_specs())
    model.prepare(paddle.optimizer.SGD(0.0, parameters=model.parameters()),
                  paddle.nn.CrossEntropyLoss())
    dataset = PointsDataset(num=8)
    model.fit(dataset, batch_size=8, epochs=1, shuffle=False, verbose=0)
    model.fit(dataset, batch_size=8, epochs=1, shuffle=True, verbose=0)
    np.testing.assert_array_equal(order[0], dataset.x)
    assert not np.array_equal(order[1], dataset.x)
    np.testing.assert_array_equal(np.sort(order[1], axis=0), np.sort(dataset.x, axis=0))


def test_batch_methods_return_numpy():
    model = prepared_model()
    x, y = samples(num=8)
    losses, metrics = model.train_batch([x], [y])
    assert len(losses) == 1 and losses[0].shape == () and isinstance(metrics[0], float)
    losses, metrics = model.eval_batch(x, y)
    assert losses[0].dtype == np.float32
    (out,) = model.predict_batch(x)
    assert out.shape == (8, 2)
    model.prepare(None, paddle.nn.CrossEntropyLoss())
    assert len(model.eval_batch(x, y)) == 1
    model.prepare(None, None, paddle.metric.Accuracy())
    assert isinstance(model.eval_batch(x, y)[0], float)


def test_evaluate_matches_eval_batches():
    model = prepared_model()
    losses = []
    for x, y in batches(2):
        (loss,), _ = model.eval_batch(x, y)
        losses.append(loss)
    model.prepare(model._optimizer, model._loss, paddle.metric.Accuracy())
    result = model.evaluate(batches(2), verbose=0)
    # The logged loss is the last batch's; accuracy is over all batches.
    assert result["loss"][0] == pytest.approx(float(losses[-1]))
    x, y = samples(2)
    predicted = np.concatenate(model.predict(batches(2), stack_outputs=True, verbose=0))
    assert result["acc"] == pytest.approx(np.mean(predicted.argmax(1) == y[:, 0]))


def test_predict_output_layouts():
    model = prepared_model()
    per_batch = model.predict(batches(), verbose=0)
    assert len(per_batch) == 1 and len(per_batch[0]) == 4
    assert per_batch[0][0].shape == (16, 2)
    stacked = model.predict(batches(), stack_outputs=True, verbose=0)
    np.testing.assert_array_equal(stacked[0], np.vstack(per_batch[0]))


def test_gradient_accumulation_sums_batch_gradients():
    paddle.seed(3)
    model = prepared_model(learning_rate=0.1)
    start = {k: v.numpy() for k, v in model.network.state_dict().items()}
    data = batches(num=32)
    model.fit(data, epochs=1, verbose=0, shuffle=False, accumulate_grad_batches=2)

    reference = network()
    reference.set_state_dict({k: paddle.to_tensor(v) for k, v in start.items()})
    loss_fn = paddle.nn.CrossEntropyLoss()
    for x, y in data:
        loss_fn(reference(paddle.to_tensor(x)), paddle.to_tensor(y)).backward()
    with paddle.no_grad():
        for param in reference.parameters():
            param.set_value(param.numpy() - 0.1 * param.grad.numpy())
    for key, value in reference.state_dict().items():
        np.testing.assert_allclose(model.network.state_dict()[key].numpy(), value.numpy(),
                                   rtol=1e-5, atol=1e-6)


def test_num_iters_stops_training():
    model = prepared_model()
    counted = []

    class Count(paddle.callbacks.Callback):
        def on_train_batch_end(self, step, logs=None):
            counted.append(step)

    model.fit(batches(), epochs=5, num_iters=6, verbose=0, callbacks=Count())
    assert counted == [0, 1, 2, 3, 0, 1]
    result = model.evaluate(batches(), num_iters=2, verbose=0)
    assert set(result) == {"loss", "acc"}


def test_save_and_load_training_checkpoint(tmp_path):
    # Optimizer states are keyed by parameter and accumulator names, which come from the
    # name counters: each model is built and first stepped under fresh counters.
    path = str(tmp_path / "ckpt" / "model")
    with unique_name.guard():
        model = prepared_model(0.01, optimizer="Adam")
        model.fit(batches(), epochs=1, verbose=0)
        model.save(path)
    assert os.path.exists(path + ".pdparams") and os.path.exists(path + ".pdopt")

    x, y = samples(5, 16)
    with unique_name.guard():
        restored = prepared_model(0.01, optimizer="Adam")
        restored.load(path + ".pdparams")
        for key, value in model.network.state_dict().items():
            np.testing.assert_array_equal(restored.network.state_dict()[key].numpy(),
                                          value.numpy())
        # The optimizer state came back: one more identical step gives identical weights.
        restored.train_batch(x, y)
    model.train_batch(x, y)
    for key, value in model.network.state_dict().items():
        np.testing.assert_allclose(restored.network.state_dict()[key].numpy(), value.numpy(),
                                   rtol=1e-6)


def test_load_mismatch(tmp_path):
    model = prepared_model()
    path = str(tmp_path / "model")
    model.save(path)
    wider = paddle.Model(paddle.nn.Sequential(paddle.nn.Linear(2, 4), paddle.nn.Tanh(),
                                              paddle.nn.Linear(4, 2)))
    with pytest.raises(ValueError, match=r"0.weight receives a shape \[2, 8\], but the "
                                         r"expected shape is \[2, 4\]"):
        wider.load(path)
    with pytest.warns(UserWarning) as caught:
        wider.load(path, skip_mismatch=True)
    skipped = sorted(str(w.message).split(".")[0] + "." + str(w.message).split(".")[1]
                     for w in caught)
    assert skipped == ["Skip loading for 0.bias", "Skip loading for 0.weight",
                       "Skip loading for 2.weight"]
    with pytest.raises(ValueError, match="does not exist"):
        model.load(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="postfix"):
        model.load(path + ".txt")


def test_save_inference_model_in_dygraph(tmp_path):
    model = prepared_model()
    path = str(tmp_path / "infer" / "model")
    model.save(path, training=False)
    assert os.path.exists(path + ".pdmodel") and os.path.exists(path + ".pdiparams")
    x, _ = samples(4, 6)
    loaded = paddle.jit.load(path)
    np.testing.assert_allclose(loaded(paddle.to_tensor(x)).numpy(),
                               model.predict_batch(x)[0], rtol=1e-5, atol=1e-6)


def test_inference_model_needs_input_shapes(tmp_path):
    model = paddle.Model(network())
    with pytest.raises(RuntimeError, match="Saving inference model needs 'inputs'"):
        model.save(str(tmp_path / "m"), training=False)
    model.predict_batch(samples(num=3)[0])  # shapes are inferred from a run
    with pytest.warns(UserWarning, match="input shape to be saved"):
        model.save(str(tmp_path / "m"), training=False)
    assert os.path.exists(tmp_path / "m.pdmodel")


def test_summary_of_the_model(capsys):
    model = prepared_model()
    info = model.summary()
    assert int(info["total_params"]) == 2 * 8 + 8 + 8 * 2 + 2
    assert "Linear-" in capsys.readouterr().out


def _train_static(checkpoint, data, eval_data, tmp_path):
    """Trains the tiny network in static mode from `checkpoint`; returns the fit's per-epoch
    evaluation, the predictions and the path of the saved inference model."""
    with static_mode():
        paddle.seed(0)
        model = paddle.Model(network(), *input_specs())
        model.prepare(paddle.optimizer.SGD(0.5, parameters=model.parameters()),
                      paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
        model.load(checkpoint)
        model.fit(data, epochs=2, verbose=0, shuffle=False)
        result = model.evaluate(eval_data, verbose=0)
        predicted = model.predict(eval_data, stack_outputs=True, verbose=0)[0]
        model.save(str(tmp_path / "static_ckpt"))
        model.save(str(tmp_path / "static_infer"), training=False)
    return result, predicted


def test_static_mode_trains_like_dygraph(tmp_path):
    data, eval_data = batches(), batches(1)
    model = prepared_model()
    model.save(str(tmp_path / "start"))
    model.fit(data, epochs=2, verbose=0, shuffle=False)
    dygraph_result = model.evaluate(eval_data, verbose=0)
    dygraph_predicted = model.predict(eval_data, stack_outputs=True, verbose=0)[0]

    static_result, static_predicted = _train_static(str(tmp_path / "start"), data, eval_data,
                                                    tmp_path)
    assert static_result["acc"] == pytest.approx(dygraph_result["acc"])
    assert static_result["loss"][0] == pytest.approx(dygraph_result["loss"][0], rel=1e-5)
    np.testing.assert_allclose(static_predicted, dygraph_predicted, rtol=1e-5, atol=1e-6)

    # A static checkpoint loads in dygraph, and the static inference model predicts the same.
    reloaded = prepared_model()
    reloaded.load(str(tmp_path / "static_ckpt"))
    np.testing.assert_allclose(reloaded.predict_batch(eval_data[0][0])[0],
                               static_predicted[:16], rtol=1e-5, atol=1e-6)
    with static_mode():
        exe = paddle.static.Executor(paddle.CPUPlace())
        program, feed_names, fetch_targets = paddle.static.load_inference_model(
            str(tmp_path / "static_infer"), exe)
        (out,) = exe.run(program, feed={feed_names[0]: eval_data[0][0]},
                         fetch_list=fetch_targets)
    np.testing.assert_allclose(out, static_predicted[:16], rtol=1e-5, atol=1e-6)


def test_static_mode_callbacks_and_plateau(tmp_path):
    with static_mode():
        model = paddle.Model(network(), *input_specs())
        model.prepare(paddle.optimizer.SGD(1e-12, parameters=model.parameters()),
                      paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
        reducer = paddle.callbacks.ReduceLROnPlateau(patience=1, factor=0.5, verbose=0)
        model.fit(batches(), batches(1), epochs=3, verbose=0, save_dir=str(tmp_path),
                  callbacks=reducer)
        assert model._optimizer.get_lr() == pytest.approx(0.25e-12)
        program = model._adapter._progs["train"]
        lr_name = model._optimizer._static_lr_names[id(program.desc)]
        lr_value = paddle.static.global_scope().find_var(lr_name).get_tensor().numpy()
        # The reduced rate reached the program at the next training run.
        assert float(lr_value[0]) == pytest.approx(0.5e-12)
        with pytest.raises(NotImplementedError, match="update=False"):
            model.train_batch(*samples(num=4), update=False)
    assert sorted(os.listdir(tmp_path))[:2] == ["0.pdopt", "0.pdparams"]


def test_static_load_before_prepare_keeps_the_weights(tmp_path):
    model = prepared_model()
    model.save(str(tmp_path / "dygraph"))
    x, _ = samples(7, 5)
    expected = model.predict_batch(x)[0]
    with static_mode():
        static_model = paddle.Model(network(), *input_specs())
        static_model.load(str(tmp_path / "dygraph"))
        static_model.prepare(paddle.optimizer.Adam(0.1, parameters=static_model.parameters()),
                             paddle.nn.CrossEntropyLoss())
        np.testing.assert_allclose(static_model.predict_batch(x)[0], expected, rtol=1e-6)
        static_model.prepare(paddle.optimizer.Adam(0.1, parameters=static_model.parameters()),
                             paddle.nn.CrossEntropyLoss())  # a second prepare keeps them too
        np.testing.assert_allclose(static_model.predict_batch(x)[0], expected, rtol=1e-6)


def test_static_eval_program_runs_batch_norm_and_dropout_in_eval_mode(tmp_path):
    from hapi_cases import _small_cnn

    rng = np.random.RandomState(0)
    images = rng.rand(6, 3, 8, 8).astype("float32")
    labels = rng.randint(0, 4, (6, 1)).astype("int64")
    specs = (paddle.static.InputSpec([None, 3, 8, 8], "float32", "image"),
             paddle.static.InputSpec([None, 1], "int64", "label"))
    model = paddle.Model(_small_cnn(paddle), *specs)
    model.prepare(paddle.optimizer.SGD(0.1, parameters=model.parameters()),
                  paddle.nn.CrossEntropyLoss())
    model.train_batch(images, labels)  # moves the batch-norm statistics
    model.save(str(tmp_path / "cnn"))
    expected = model.predict_batch(images)[0]
    with static_mode():
        static_model = paddle.Model(_small_cnn(paddle), *specs)
        static_model.prepare(paddle.optimizer.SGD(0.1, parameters=static_model.parameters()),
                             paddle.nn.CrossEntropyLoss())
        static_model.load(str(tmp_path / "cnn"))
        first = static_model.predict_batch(images)[0]
        (loss,) = static_model.eval_batch(images, labels)
        second = static_model.predict_batch(images)[0]
    np.testing.assert_allclose(first, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(first, second)
    assert np.isfinite(loss).all()


def test_static_mode_with_datasets():
    with static_mode():
        model = paddle.Model(network(), *input_specs())
        model.prepare(paddle.optimizer.Adam(0.05, parameters=model.parameters()),
                      paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
        model.fit(PointsDataset(), PointsDataset(1), batch_size=16, epochs=15, verbose=0)
        result = model.evaluate(PointsDataset(1), batch_size=32, verbose=0)
        outputs = model.predict(PointsDataset(2, num=10), batch_size=4, stack_outputs=True,
                                verbose=0)
    assert result["acc"] >= 0.9
    assert outputs[0].shape == (10, 2)


def test_static_mode_steps_an_lr_scheduler():
    with static_mode():
        model = paddle.Model(network(), *input_specs())
        scheduler = paddle.optimizer.lr.StepDecay(0.5, step_size=2, gamma=0.5)
        model.prepare(paddle.optimizer.SGD(scheduler, parameters=model.parameters()),
                      paddle.nn.CrossEntropyLoss())
        model.fit(batches(), epochs=1, verbose=0)
        program = model._adapter._progs["train"]
        lr_name = model._optimizer._static_lr_names[id(program.desc)]
        last_used = paddle.static.global_scope().find_var(lr_name).get_tensor().numpy()
    # Four batches: the last ran at step 3 (0.5 * 0.5 ** (3 // 2)), then the scheduler stepped.
    assert scheduler.last_epoch == 4
    assert float(last_used[0]) == pytest.approx(0.25)


def test_static_mode_needs_inputs_and_prepare():
    with static_mode():
        with pytest.raises(TypeError, match="'inputs'"):
            paddle.Model(network())
        model = paddle.Model(network(), *input_specs())
        with pytest.raises(RuntimeError, match="prepare"):
            model.predict(batches(), verbose=0)
        with pytest.raises(RuntimeError, match="prepare"):
            model.save("unused", training=False)


@pytest.mark.parametrize("call, error, words", [
    (lambda m: m.fit(batches(), verbose=0), RuntimeError, "prepare"),
    (lambda m: m.evaluate(batches(), verbose=0), RuntimeError, "prepare"),
    (lambda m: m.eval_batch(*samples(num=2)), RuntimeError, "prepare"),
    (lambda m: m.train_batch(*samples(num=2)), RuntimeError, "prepare"),
    (lambda m: m.fit(None), ValueError, "train_data"),
    (lambda m: m.prepare(metrics=[paddle.nn.CrossEntropyLoss()]), TypeError, "'metrics'"),
    (lambda m: m.prepare(optimizer="sgd"), TypeError, "'optimizer'"),
    (lambda m: m.prepare(loss=3), TypeError, "'loss'"),
    (lambda m: m.prepare(amp_configs="O4"), ValueError, "amp_configs"),
    (lambda m: m.summary(input_size=None) if m._inputs is None else m.fit(None),
     ValueError, "train_data"),
])
def test_bad_calls(call, error, words):
    model = paddle.Model(network(), *input_specs())
    with pytest.raises(error, match=words):
        call(model)


def test_inputs_given_as_a_dict():
    class TwoInputs(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.linear = paddle.nn.Linear(3, 2)

        def forward(self, first, second):
            return self.linear(first) * second

    specs = {"second": paddle.static.InputSpec([None, 2], "float32", "s"),
             "first": paddle.static.InputSpec([None, 3], "float32", "f")}
    labels = {"y": paddle.static.InputSpec([None, 2], name="y")}
    model = paddle.Model(TwoInputs(), specs, labels)
    assert [spec.name for spec in model._inputs] == ["f", "s"]
    assert [spec.name for spec in model._labels] == ["y"]
    with pytest.raises(ValueError, match="second"):
        paddle.Model(TwoInputs(), {"first": specs["first"]})


def test_bad_constructor_arguments():
    with pytest.raises(TypeError, match="'network'"):
        paddle.Model("net")
    with pytest.raises(TypeError, match="'inputs'"):
        paddle.Model(network(), inputs=[[None, 2]])
    with pytest.raises(ValueError, match="name"):
        paddle.Model(network(), inputs=paddle.static.InputSpec([None, 2]))
    model = prepared_model()
    with pytest.raises(ValueError, match="batch_size"):
        model.fit(batches(), batch_size=[1, 2, 3], verbose=0)
    with pytest.raises(ValueError, match="accumulate_grad_batches"):
        model.fit(batches(), accumulate_grad_batches=0, verbose=0)
    with pytest.raises(ValueError, match="num_iters"):
        model.fit(batches(), num_iters=0, verbose=0)
