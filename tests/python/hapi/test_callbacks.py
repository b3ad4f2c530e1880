"""paddle.callbacks in paddle.Model.fit / evaluate / predict: the progress output, checkpoints,
early stopping, learning-rate stepping and plateau reduction, VisualDL logging and the
callback protocol itself."""
import io
import os
import re
import sys
import types

import numpy as np
import pytest

import paddle
from paddle.hapi.progressbar import ProgressBar
from tiny_task import batches, prepared_model

NUMBER = r"\d\.\d{4}(e[+-]\d\d)?"  # how ProgressBar prints a float


class Recorder(paddle.callbacks.Callback):
    """Records the events it receives."""

    def __init__(self):
        super().__init__()
        self.events = []

    def __getattribute__(self, name):
        if name.startswith("on_"):
            return lambda *args: self.events.append((name,) + args[:1] if args and
                                                    isinstance(args[0], int) else (name,))
        return super().__getattribute__(name)


def test_event_order_of_fit():
    model = prepared_model()
    recorder = Recorder()
    model.fit(batches(num=32), batches(1, num=16), epochs=2, verbose=0, callbacks=recorder)
    events = [e for e in recorder.events]
    assert events[0] == ("on_train_begin",)
    assert events[-1] == ("on_train_end",)
    epoch0 = events[1:events.index(("on_epoch_end", 0)) + 1]
    assert epoch0 == [("on_epoch_begin", 0),
                      ("on_train_batch_begin", 0), ("on_train_batch_end", 0),
                      ("on_train_batch_begin", 1), ("on_train_batch_end", 1),
                      ("on_epoch_end", 0)]
    assert events.count(("on_eval_begin",)) == 2
    assert events.count(("on_eval_batch_end", 0)) == 2
    assert recorder.params["epochs"] == 2 and recorder.params["steps"] == 2
    assert recorder.params["metrics"] == ["loss", "acc"]
    assert recorder.model is model


def test_eval_freq():
    model = prepared_model()
    recorder = Recorder()
    model.fit(batches(num=16), batches(1, num=16), epochs=5, eval_freq=2, verbose=0,
              callbacks=recorder)
    epochs_then_evals = [e[0] if e[0] == "on_eval_begin" else e for e in recorder.events
                         if e[0] in ("on_epoch_begin", "on_eval_begin")]
    assert epochs_then_evals == [("on_epoch_begin", 0), "on_eval_begin", ("on_epoch_begin", 1),
                                 ("on_epoch_begin", 2), "on_eval_begin", ("on_epoch_begin", 3),
                                 ("on_epoch_begin", 4), "on_eval_begin"]


def test_progbar_logger_plain_lines(capsys):
    model = prepared_model()
    model.fit(batches(), batches(1), epochs=2, log_freq=2, verbose=2)
    out = capsys.readouterr().out
    assert "\r" not in out and "\b" not in out
    lines = out.splitlines()
    assert lines[0] == ("The loss value printed in the log is the current step, and the metric "
                        "is the average value of previous steps.")
    assert lines[1] == "Epoch 1/2"
    step = rf" - loss: {NUMBER} - acc: {NUMBER} - \d+(us|ms|s)/step"
    assert re.fullmatch(r"step 2/4" + step, lines[2])
    assert re.fullmatch(r"step 4/4" + step, lines[3])
    assert lines[4] == "Eval begin..."
    assert re.fullmatch(r"step 4/4" + step, lines[6])
    assert lines[7] == "Eval samples: 64"
    assert lines[8] == "Epoch 2/2"


def test_progbar_logger_bar_without_a_terminal(capsys):
    model = prepared_model()
    model.fit(batches(), epochs=1, log_freq=1, verbose=1)
    out = capsys.readouterr().out
    assert "\r" not in out
    bars = [line for line in out.splitlines() if line.startswith("step")]
    assert re.fullmatch(rf"step 1/4 \[=+>\.+\] - loss: {NUMBER} - acc: {NUMBER} - ETA: \d+s"
                        r" - \d+(us|ms|s)/step", bars[0])
    assert re.fullmatch(rf"step 4/4 \[=+\] - loss: {NUMBER} - acc: {NUMBER}"
                        r" - \d+(us|ms|s)/step", bars[-1])


def test_progbar_logger_verbose_3_adds_costs(capsys):
    model = prepared_model()
    model.fit(batches(), epochs=1, log_freq=2, verbose=3)
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("step")]
    assert re.fullmatch(rf"step 2/4 - loss: {NUMBER} - acc: {NUMBER} - avg_reader_cost: "
                        r"\d\.\d{5} sec - avg_batch_cost: \d\.\d{5} sec - ips: \d+\.\d{5} "
                        r"samples/sec - \d+(us|ms|s)/step", lines[0])


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_redraws_on_a_terminal():
    out = Terminal()
    bar = ProgressBar(num=4, width=8, verbose=1, file=out)
    bar.update(1, [("loss", 0.5)])
    bar.update(4, [("loss", [0.25]), ("acc", 1e-5)])
    text = out.getvalue()
    first, second = text.split("\r")[1:]
    assert first.startswith("step 1/4 [=>......] - loss: 0.5000 - ETA: ")
    assert second.startswith("step 4/4 [========] - loss: 0.2500 - acc: 1.0000e-05 - ")
    assert second.endswith("/step\n")


def test_progress_bar_bytes_match_paddle(monkeypatch):
    # PaddlePaddle 3.3.1's ProgressBar wrote exactly this for these updates and clock.
    clock = iter([0.0, 100.0, 100.0, 0.0, 5000.0])
    monkeypatch.setattr("paddle.hapi.progressbar.time.time", lambda: next(clock))
    out = Terminal()
    bar = ProgressBar(num=12, width=10, verbose=1, file=out)
    bar.update(3, [("loss", 0.5), ("acc", [0.25, 0.75])])
    bar.update(12, [("loss", 0.25)])
    unknown = ProgressBar(num=None, verbose=1, file=out)
    unknown.update(2, [("loss", np.float32(1.5))])
    first = "step  3/12 [=>........] - loss: 0.5000 - acc: 0.2500 0.7500 - ETA: 5:00 - 33s/step"
    assert out.getvalue() == (
        "\r" + first + "\b" * len(first) + "\rstep 12/12 [==========] - loss: 0.2500 - 8s/step"
        + " " * 34 + "\n\rstep   2 - loss: 1.5000 - 2500s/step\n")


def test_progress_bar_verbose_2_and_unknown_length():
    out = io.StringIO()
    ProgressBar(num=None, verbose=2, file=out).update(7, [("loss", np.float32(2.0))])
    assert re.fullmatch(r"step   7 - loss: 2\.0000 - \d+(us|ms|s)/step\n", out.getvalue())
    with pytest.raises(TypeError, match="num"):
        ProgressBar(num=0)


def test_predict_and_evaluate_logging(capsys):
    model = prepared_model()
    model.evaluate(batches(), log_freq=10, verbose=2)
    model.predict(batches(), verbose=1)
    out = capsys.readouterr().out
    assert "Eval begin..." in out and "Eval samples: 64" in out
    assert "Predict begin..." in out and "Predict samples: 64" in out
    assert re.search(r"step 4/4 \[=+\] - \d+(us|ms|s)/step", out)


def test_verbose_0_prints_nothing(capsys):
    model = prepared_model()
    model.fit(batches(), batches(1), epochs=1, verbose=0)
    assert capsys.readouterr().out == ""


def test_model_checkpoint_files(tmp_path):
    model = prepared_model(0.01, optimizer="Adam")  # Adam has state: .pdopt files too
    model.fit(batches(), epochs=3, save_dir=str(tmp_path), save_freq=2, verbose=0)
    assert sorted(os.listdir(tmp_path)) == ["0.pdopt", "0.pdparams", "2.pdopt", "2.pdparams",
                                            "final.pdopt", "final.pdparams"]
    saved = paddle.load(str(tmp_path / "final.pdparams"))
    for key, value in model.network.state_dict().items():
        np.testing.assert_array_equal(saved[key].numpy(), value.numpy())


class EpochCounter(paddle.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.epochs = 0

    def on_epoch_end(self, epoch, logs=None):
        self.epochs += 1


def test_early_stopping_stops_at_the_patience(tmp_path, capsys):
    # A zero learning rate: the evaluated loss never improves after the first epoch.
    model = prepared_model(learning_rate=0.0)
    counter = EpochCounter()
    stopper = paddle.callbacks.EarlyStopping(monitor="loss", patience=2, verbose=1)
    model.fit(batches(), batches(1), epochs=10, save_dir=str(tmp_path), verbose=0,
              callbacks=[stopper, counter])
    assert counter.epochs == 3
    assert model.stop_training
    out = capsys.readouterr().out
    assert "Epoch 3: Early stopping." in out
    assert f"Best checkpoint has been saved at {tmp_path / 'best_model'}" in out
    assert os.path.exists(tmp_path / "best_model.pdparams")


def test_early_stopping_modes_and_baseline():
    stopper = paddle.callbacks.EarlyStopping(monitor="acc", patience=1, baseline=0.9,
                                             save_best_model=False, verbose=0)
    stopper.set_model(types.SimpleNamespace(stop_training=False))
    stopper.on_train_begin()
    stopper.on_eval_end({"acc": 0.95})
    assert not stopper.model.stop_training and stopper.best_value == 0.95
    stopper.on_eval_end({"acc": [0.94]})
    assert stopper.model.stop_training
    with pytest.warns(UserWarning, match="unknown"):
        assert paddle.callbacks.EarlyStopping(mode="median").monitor_op is np.less
    with pytest.warns(UserWarning, match="Monitor"):
        stopper.on_eval_end({"loss": 1.0})


def test_lr_scheduler_steps_by_step_and_by_epoch():
    model = prepared_model()
    scheduler = paddle.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
    model._optimizer = paddle.optimizer.SGD(scheduler, parameters=model.parameters())
    model.fit(batches(), epochs=2, verbose=0)
    assert scheduler.last_epoch == 8  # the default callback steps after every batch

    scheduler = paddle.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
    model._optimizer = paddle.optimizer.SGD(scheduler, parameters=model.parameters())
    model.fit(batches(), epochs=3, verbose=0,
              callbacks=paddle.callbacks.LRScheduler(by_step=False, by_epoch=True))
    assert scheduler.last_epoch == 3
    assert model._optimizer.get_lr() == pytest.approx(0.1 * 0.5 ** 3)
    with pytest.raises(ValueError, match="mutually exclusive"):
        paddle.callbacks.LRScheduler(by_step=True, by_epoch=True)


def test_reduce_lr_on_plateau_in_fit(capsys):
    model = prepared_model(learning_rate=1e-12)
    reducer = paddle.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1)
    model.fit(batches(), batches(1), epochs=3, verbose=0, callbacks=reducer)
    # Epoch 1 sets the best loss; epochs 2 and 3 do not improve it and each halves the rate.
    assert model._optimizer.get_lr() == pytest.approx(1e-12 * 0.25)
    assert "Epoch 3: ReduceLROnPlateau reducing learning rate to" in capsys.readouterr().out


def test_reduce_lr_on_plateau_cooldown_and_min_lr():
    optimizer = types.SimpleNamespace(_learning_rate=1.0)
    optimizer.get_lr = lambda: optimizer._learning_rate
    reducer = paddle.callbacks.ReduceLROnPlateau(monitor="acc", factor=0.1, patience=1,
                                                 cooldown=2, min_lr=0.05, verbose=0)
    reducer.set_model(types.SimpleNamespace(_optimizer=optimizer))
    reducer.on_train_begin()
    rates = []
    for acc in [0.5, 0.4, 0.4, 0.4, 0.4, 0.6]:
        reducer.on_eval_end({"acc": [acc]})
        rates.append(optimizer._learning_rate)
    assert rates == pytest.approx([1.0, 0.1, 0.1, 0.05, 0.05, 0.05])
    with pytest.raises(ValueError, match="factor"):
        paddle.callbacks.ReduceLROnPlateau(factor=1.0)


def test_reduce_lr_on_plateau_warns_for_a_scheduler():
    model = prepared_model()
    model._optimizer = paddle.optimizer.SGD(paddle.optimizer.lr.StepDecay(0.1, 1),
                                            parameters=model.parameters())
    reducer = paddle.callbacks.ReduceLROnPlateau()
    reducer.set_model(model)
    with pytest.warns(UserWarning, match="Expected learning_rate be float"):
        reducer.on_eval_end({"loss": [1.0]})


def test_visualdl_needs_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "visualdl", None)
    with pytest.raises(ImportError, match="pip install visualdl"):
        paddle.callbacks.VisualDL(log_dir="logs")


def test_visualdl_writes_scalars(monkeypatch, tmp_path):
    written = []

    class LogWriter:
        def __init__(self, logdir):
            self.logdir = logdir

        def add_scalar(self, tag, step, value):
            written.append((self.logdir, tag, step, round(float(value), 6)))

        def close(self):
            written.append("closed")

    monkeypatch.setitem(sys.modules, "visualdl", types.SimpleNamespace(LogWriter=LogWriter))
    model = prepared_model()
    model.fit(batches(num=32), batches(1, num=16), epochs=2, verbose=0,
              callbacks=paddle.callbacks.VisualDL(log_dir=str(tmp_path)))
    tags = [(tag, step) for (_, tag, step, _) in written[:-1]]
    assert tags[:4] == [("train/loss", 1), ("train/acc", 1), ("train/loss", 2),
                        ("train/acc", 2)]
    assert ("eval/loss", 0) in tags and ("eval/acc", 1) in tags
    assert written[-1] == "closed" and written[0][0] == str(tmp_path)


def test_wandb_needs_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "wandb", None)
    with pytest.raises(ImportError, match="pip install wandb"):
        paddle.callbacks.WandbCallback(project="p")


def test_wandb_logs_train_steps_and_eval_epochs(monkeypatch):
    logged = []

    class Run:
        def define_metric(self, name, step_metric=None):
            logged.append(("define", name, step_metric))

        def log(self, values):
            logged.append(("log", {k: round(float(v), 6) if "/" in k and k not in
                                   ("train/step",) else v for k, v in values.items()}))

        def finish(self):
            logged.append("finish")

    wandb = types.SimpleNamespace(run=None, init=lambda **kwargs: logged.append(kwargs) or Run())
    monkeypatch.setitem(sys.modules, "wandb", wandb)
    model = prepared_model()
    callback = paddle.callbacks.WandbCallback(project="tiny", mode="offline", tags=["t"])
    assert logged[0] == {"project": "tiny", "name": None, "entity": None, "dir": None,
                         "mode": "offline", "job_type": None, "tags": ["t"]}
    model.fit(batches(num=32), batches(1, num=16), epochs=2, verbose=0, callbacks=callback)
    logs = [entry[1] for entry in logged if isinstance(entry, tuple) and entry[0] == "log"]
    assert [sorted(entry) for entry in logs[:2]] == [["train/acc", "train/loss", "train/step"]] * 2
    assert [entry["train/step"] for entry in logs if "train/step" in entry] == [1, 2, 3, 4]
    assert [entry["epoch"] for entry in logs if "epoch" in entry] == [0, 1]
    assert ("define", "eval/*", "epoch") in logged and logged[-1] == "finish"


def test_wrong_callback_type():
    model = prepared_model()
    with pytest.raises(TypeError, match="callbacks"):
        model.fit(batches(), epochs=1, verbose=0, callbacks=[lambda: None])
    with pytest.raises(ValueError, match="mode"):
        paddle.hapi.callbacks.CallbackList([]).on_begin("test")
