"""paddle.callbacks: hooks that paddle.Model.fit / evaluate / predict call around epochs and
batches (Callback), and the built-in ones: the progress logger, checkpoints, early stopping,
learning-rate stepping, plateau reduction and VisualDL logging. config_callbacks() assembles
the list a run uses, adding the default logger, checkpointer and scheduler stepper."""
import importlib
import numbers
import os
import time
import warnings

import numpy as np

from ..optimizer import lr as lr_module
from .progressbar import ProgressBar

__all__ = ["Callback", "ProgBarLogger", "ModelCheckpoint", "VisualDL", "LRScheduler",
           "EarlyStopping", "ReduceLROnPlateau", "WandbCallback"]

_MODES = ("train", "eval", "predict")


def _local_rank():
    """This process's rank on its node (0 when not launched by paddle.distributed)."""
    return int(os.environ.get("PADDLE_RANK_IN_NODE", "0"))


def config_callbacks(callbacks=None, model=None, batch_size=None, epochs=None, steps=None,
                     log_freq=2, verbose=2, save_freq=1, save_dir=None, metrics=None,
                     mode="train"):
    """The CallbackList of one fit/evaluate/predict run: the user's callbacks plus a
    ProgBarLogger (when verbose), a ModelCheckpoint and an LRScheduler stepper unless the user
    gave their own."""
    given = callbacks or []
    given = list(given) if isinstance(given, (list, tuple)) else [given]
    for callback in given:
        if not isinstance(callback, Callback):
            raise TypeError(f"'callbacks' must be paddle.callbacks.Callback instances, but "
                            f"received {type(callback).__name__}")
    if verbose and not any(isinstance(c, ProgBarLogger) for c in given):
        given = [ProgBarLogger(log_freq, verbose=verbose)] + given
    if not any(isinstance(c, ModelCheckpoint) for c in given):
        given = given + [ModelCheckpoint(save_freq, save_dir)]
    for callback in given:
        if isinstance(callback, EarlyStopping):
            callback.save_dir = save_dir
    if not any(isinstance(c, LRScheduler) for c in given):
        given = given + [LRScheduler()]
    callback_list = CallbackList(given)
    callback_list.set_model(model)
    callback_list.set_params({
        "batch_size": batch_size, "epochs": epochs, "steps": steps, "verbose": verbose,
        "metrics": (metrics or []) if mode != "test" else [],
    })
    return callback_list


class CallbackList:
    """Calls each event on every callback in order."""

    def __init__(self, callbacks=None):
        self.callbacks = list(callbacks or [])
        self.params = {}
        self.model = None

    def append(self, callback):
        self.callbacks.append(callback)

    def __iter__(self):
        return iter(self.callbacks)

    def set_params(self, params):
        self.params = params
        for callback in self.callbacks:
            callback.set_params(params)

    def set_model(self, model):
        self.model = model
        for callback in self.callbacks:
            callback.set_model(model)

    def _call(self, name, *args):
        for callback in self.callbacks:
            getattr(callback, name)(*args)

    @staticmethod
    def _check_mode(mode):
        if mode not in _MODES:
            raise ValueError(f"CallbackList: mode must be one of {_MODES}, but received "
                             f"{mode!r}")

    def on_begin(self, mode, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_begin", logs)

    def on_end(self, mode, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_end", logs)

    def on_epoch_begin(self, epoch=None, logs=None):
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch=None, logs=None):
        self._call("on_epoch_end", epoch, logs)

    def on_batch_begin(self, mode, step=None, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_begin", step, logs)

    def on_batch_end(self, mode, step=None, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_end", step, logs)


class Callback:
    """Base class of callbacks: override the events needed. self.model is the paddle.Model
    being run and self.params holds batch_size, epochs, steps, verbose and metrics (the names
    logged). `logs` carries 'loss', the metric values, 'batch_size' and, for evaluate/predict
    begin, 'steps' and 'metrics'."""

    def __init__(self):
        self.model = None
        self.params = {}

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_train_begin(self, logs=None):
        """Called once at the start of fit()."""

    def on_train_end(self, logs=None):
        """Called once at the end of fit()."""

    def on_eval_begin(self, logs=None):
        """Called at the start of evaluate() (also inside fit())."""

    def on_eval_end(self, logs=None):
        """Called at the end of evaluate() with the final loss and metrics."""

    def on_predict_begin(self, logs=None):
        """Called at the start of predict()."""

    def on_predict_end(self, logs=None):
        """Called at the end of predict()."""

    def on_epoch_begin(self, epoch, logs=None):
        """Called at the start of every training epoch (epoch counts from 0)."""

    def on_epoch_end(self, epoch, logs=None):
        """Called at the end of every training epoch with its last logs."""

    def on_train_batch_begin(self, step, logs=None):
        """Called before each training batch."""

    def on_train_batch_end(self, step, logs=None):
        """Called after each training batch with its loss and metrics."""

    def on_eval_batch_begin(self, step, logs=None):
        """Called before each evaluation batch."""

    def on_eval_batch_end(self, step, logs=None):
        """Called after each evaluation batch."""

    def on_predict_batch_begin(self, step, logs=None):
        """Called before each prediction batch."""

    def on_predict_batch_end(self, step, logs=None):
        """Called after each prediction batch."""


def _new_timer():
    return {"data_time": 0.0, "batch_time": 0.0, "count": 0, "samples": 0}


class ProgBarLogger(Callback):
    """Prints progress: the epoch, then every `log_freq` steps the step count, the current
    batch's loss and the running metrics, the ETA and the time per step. verbose 0 is
    silent, 1 draws a progress bar, 2 prints a line per log, 3 adds reader/batch costs and
    samples per second."""

    def __init__(self, log_freq=1, verbose=2):
        super().__init__()
        self.epochs = None
        self.steps = None
        self.progbar = None
        self.verbose = verbose
        self.log_freq = log_freq

    def _is_print(self):
        return self.verbose and _local_rank() == 0

    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        self.train_metrics = self.params["metrics"]
        self._train_timer = _new_timer()
        if self._is_print():
            print("The loss value printed in the log is the current step, and the metric is "
                  "the average value of previous steps.")

    def on_epoch_begin(self, epoch=None, logs=None):
        self.steps = self.params["steps"]
        self.epoch = epoch
        self.train_step = 0
        if self.epochs and self._is_print():
            print(f"Epoch {epoch + 1}/{self.epochs}")
        self.train_progbar = ProgressBar(num=self.steps, verbose=self.verbose)
        self._train_timer["batch_start_time"] = time.time()

    def _updates(self, logs, mode):
        logs = logs or {}
        values = [(key, logs[key]) for key in getattr(self, f"{mode}_metrics") if key in logs]
        timer = getattr(self, f"_{mode}_timer", None)
        if self.verbose == 3 and timer is not None:
            count = timer["count"] or 1.0
            samples = timer["samples"] or 1.0
            elapsed = timer["data_time"] + timer["batch_time"]
            values.append(("avg_reader_cost", f"{timer['data_time'] / count:.5f} sec"))
            values.append(("avg_batch_cost", f"{timer['batch_time'] / count:.5f} sec"))
            values.append(("ips", f"{samples / elapsed if elapsed else 0.0:.5f} samples/sec"))
            timer.update(_new_timer())
        getattr(self, f"{mode}_progbar").update(getattr(self, f"{mode}_step"), values)

    def _batch_begin(self, mode):
        timer = getattr(self, f"_{mode}_timer")
        timer["batch_data_end_time"] = time.time()
        timer["data_time"] += timer["batch_data_end_time"] - timer["batch_start_time"]

    def _batch_end(self, mode, logs, steps):
        logs = logs or {}
        step = getattr(self, f"{mode}_step") + 1
        setattr(self, f"{mode}_step", step)
        timer = getattr(self, f"_{mode}_timer")
        timer["batch_time"] += time.time() - timer["batch_data_end_time"]
        timer["count"] += 1
        timer["samples"] += logs.get("batch_size", 1)
        if self._is_print() and step % self.log_freq == 0 and (steps is None or step < steps):
            self._updates(logs, mode)
        timer["batch_start_time"] = time.time()
        return logs

    def on_train_batch_begin(self, step, logs=None):
        self._batch_begin("train")

    def on_train_batch_end(self, step, logs=None):
        self._batch_end("train", logs, self.steps)

    def on_epoch_end(self, epoch, logs=None):
        if self._is_print() and self.steps is not None:
            self._updates(logs, "train")

    def on_eval_begin(self, logs=None):
        logs = logs or {}
        self.eval_steps = logs.get("steps")
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0
        self._eval_timer = _new_timer()
        self.eval_progbar = ProgressBar(num=self.eval_steps, verbose=self.verbose)
        if self._is_print():
            print("Eval begin...")
        self._eval_timer["batch_start_time"] = time.time()

    def on_eval_batch_begin(self, step, logs=None):
        self._batch_begin("eval")

    def on_eval_batch_end(self, step, logs=None):
        logs = self._batch_end("eval", logs, self.eval_steps)
        self.evaled_samples += logs.get("batch_size", 1)

    def on_eval_end(self, logs=None):
        if self._is_print() and self.eval_steps is not None:
            self._updates(logs, "eval")
            print(f"Eval samples: {self.evaled_samples}")

    def on_predict_begin(self, logs=None):
        logs = logs or {}
        self.test_steps = logs.get("steps")
        self.test_metrics = logs.get("metrics", [])
        self.test_step = 0
        self.tested_samples = 0
        self._test_timer = _new_timer()
        self.test_progbar = ProgressBar(num=self.test_steps, verbose=self.verbose)
        if self._is_print():
            print("Predict begin...")
        self._test_timer["batch_start_time"] = time.time()

    def on_predict_batch_begin(self, step, logs=None):
        self._batch_begin("test")

    def on_predict_batch_end(self, step, logs=None):
        logs = self._batch_end("test", logs, self.test_steps)
        self.tested_samples += logs.get("batch_size", 1)

    def on_predict_end(self, logs=None):
        if self._is_print():
            if self.test_step % self.log_freq != 0 or self.verbose == 1:
                self._updates(logs, "test")
            print(f"Predict samples: {self.tested_samples}")


class ModelCheckpoint(Callback):
    """Saves the model to save_dir/<epoch> every `save_freq` epochs and to save_dir/final at
    the end of training (model.save: .pdparams and .pdopt)."""

    def __init__(self, save_freq=1, save_dir=None):
        super().__init__()
        self.save_freq = save_freq
        self.save_dir = save_dir

    def on_epoch_begin(self, epoch=None, logs=None):
        self.epoch = epoch

    def _is_save(self):
        return self.model is not None and self.save_dir and _local_rank() == 0

    def on_epoch_end(self, epoch, logs=None):
        if self._is_save() and self.epoch % self.save_freq == 0:
            path = f"{self.save_dir}/{epoch}"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)

    def on_train_end(self, logs=None):
        if self._is_save():
            path = f"{self.save_dir}/final"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)


def _scheduler_of(model):
    optimizer = getattr(model, "_optimizer", None)
    scheduler = getattr(optimizer, "_learning_rate", None)
    return scheduler if isinstance(scheduler, lr_module.LRScheduler) else None


class LRScheduler(Callback):
    """Steps the optimizer's learning-rate scheduler after every training batch (by_step) or
    every epoch (by_epoch)."""

    def __init__(self, by_step=True, by_epoch=False):
        super().__init__()
        if by_step and by_epoch:
            raise ValueError("LRScheduler(): by_step option is mutually exclusive with by_epoch")
        self.by_step = by_step
        self.by_epoch = by_epoch

    def on_epoch_end(self, epoch, logs=None):
        scheduler = _scheduler_of(self.model)
        if self.by_epoch and scheduler is not None:
            scheduler.step()

    def on_train_batch_end(self, step, logs=None):
        scheduler = _scheduler_of(self.model)
        if self.by_step and scheduler is not None:
            scheduler.step()


def _monitored_value(logs, monitor):
    """The number logged under `monitor` (the first of a list), or None."""
    value = logs[monitor]
    if isinstance(value, (list, tuple)):
        value = value[0]
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.item()
    return value if isinstance(value, (numbers.Number, np.number)) else None


class EarlyStopping(Callback):
    """Stops fit() when the evaluated `monitor` (loss or a metric name) has not improved by
    min_delta for `patience` evaluations; mode 'auto' maximizes names containing 'acc' and
    minimizes the rest. With save_best_model, the best model goes to save_dir/best_model."""

    def __init__(self, monitor="loss", mode="auto", patience=0, verbose=1, min_delta=0,
                 baseline=None, save_best_model=True):
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.min_delta = abs(min_delta)
        self.wait_epoch = 0
        self.best_weights = None
        self.stopped_epoch = 0
        self.save_best_model = save_best_model
        self.save_dir = None  # fit() passes its save_dir through config_callbacks
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"EarlyStopping mode {mode} is unknown, fallback to auto mode.")
            mode = "auto"
        if mode == "auto":
            mode = "max" if "acc" in self.monitor else "min"
        self.monitor_op = np.greater if mode == "max" else np.less
        if self.monitor_op is np.less:
            self.min_delta *= -1

    def on_train_begin(self, logs=None):
        self.wait_epoch = 0
        if self.baseline is not None:
            self.best_value = self.baseline
        else:
            self.best_value = np.inf if self.monitor_op is np.less else -np.inf
            self.best_weights = None

    def on_eval_end(self, logs=None):
        if logs is None or self.monitor not in logs:
            warnings.warn("Monitor of EarlyStopping should be loss or metric name.")
            return
        current = _monitored_value(logs, self.monitor)
        if current is None:
            return
        best_path = os.path.join(self.save_dir, "best_model") if self.save_dir else None
        if self.monitor_op(current - self.min_delta, self.best_value):
            self.best_value = current
            self.wait_epoch = 0
            if self.save_best_model and best_path is not None:
                self.model.save(best_path)
        else:
            self.wait_epoch += 1
        if self.wait_epoch >= self.patience:
            self.model.stop_training = True
            if self.verbose > 0:
                print(f"Epoch {self.stopped_epoch + 1}: Early stopping.")
                if self.save_best_model and best_path is not None:
                    print(f"Best checkpoint has been saved at {os.path.abspath(best_path)}")
        self.stopped_epoch += 1


class ReduceLROnPlateau(Callback):
    """Multiplies the optimizer's (float) learning rate by `factor` when the evaluated
    `monitor` has not improved by min_delta for `patience` evaluations, then waits `cooldown`
    evaluations; never below min_lr."""

    def __init__(self, monitor="loss", factor=0.1, patience=10, verbose=1, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0):
        super().__init__()
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0, but "
                             f"received {factor}")
        self.monitor = monitor
        self.factor = factor
        self.min_lr = min_lr
        self.min_delta = min_delta
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.mode = mode
        self.epoch = 0
        self._reset()

    def _reset(self):
        if self.mode not in ("auto", "min", "max"):
            warnings.warn(f"Learning rate reduction mode {self.mode} is unknown, fallback to "
                          f"auto mode.")
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda current, best: np.less(current, best - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda current, best: np.greater(current, best + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_eval_end(self, logs=None):
        if logs is None or self.monitor not in logs:
            warnings.warn("Monitor of ReduceLROnPlateau should be loss or metric name.")
            return
        optimizer = getattr(self.model, "_optimizer", None)
        lr = getattr(optimizer, "_learning_rate", None)
        if not isinstance(lr, float):
            warnings.warn(f"Expected learning_rate be float, but got {type(lr)}.")
            return
        current = _monitored_value(logs, self.monitor)
        if current is None:
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = optimizer.get_lr()
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    optimizer._learning_rate = new_lr
                    if self.verbose > 0 and _local_rank() == 0:
                        print(f"\nEpoch {self.epoch + 1}: ReduceLROnPlateau reducing learning "
                              f"rate to {new_lr}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0
        self.epoch += 1


def _import_logger_package(name, callback):
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise ImportError(f"The {callback} callback needs the {name} package, which is not "
                          f"installed; install it with `pip install {name}`") from error


class VisualDL(Callback):
    """Writes the training loss and metrics per step, and the evaluation results per epoch,
    as VisualDL scalars under log_dir (tags 'train/<name>' and 'eval/<name>'). Needs the
    visualdl package."""

    def __init__(self, log_dir):
        super().__init__()
        self._visualdl = _import_logger_package("visualdl", "VisualDL")
        self.log_dir = log_dir
        self.epochs = None
        self.steps = None
        self.epoch = 0

    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        self.train_metrics = self.params["metrics"]
        self._is_fit = True
        self.train_step = 0

    def on_epoch_begin(self, epoch=None, logs=None):
        self.steps = self.params["steps"]
        self.epoch = epoch

    def _updates(self, logs, mode):
        if _local_rank() != 0:
            return
        if not hasattr(self, "writer"):
            self.writer = self._visualdl.LogWriter(self.log_dir)
        step = self.train_step if mode == "train" else self.epoch
        for key in getattr(self, f"{mode}_metrics"):
            if key in (logs or {}):
                value = _monitored_value(logs, key)
                if value is not None:
                    self.writer.add_scalar(tag=f"{mode}/{key}", step=step, value=value)

    def on_train_batch_end(self, step, logs=None):
        self.train_step += 1
        self._updates(logs, "train")

    def on_eval_begin(self, logs=None):
        logs = logs or {}
        self.eval_steps = logs.get("steps")
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0

    def on_train_end(self, logs=None):
        if hasattr(self, "writer"):
            self.writer.close()
            del self.writer

    def on_eval_end(self, logs=None):
        self._updates(logs, "eval")
        if not hasattr(self, "_is_fit") and hasattr(self, "writer"):
            self.writer.close()
            del self.writer


class WandbCallback(Callback):
    """Logs the training loss and metrics per step ('train/<name>' against 'train/step') and
    the evaluation results per epoch ('eval/<name>' against 'epoch') to a Weights & Biases
    run, started with wandb.init(project, entity, name, dir, mode, job_type, **kwargs) unless
    one is already in progress. Needs the wandb package."""

    def __init__(self, project=None, entity=None, name=None, dir=None, mode=None,
                 job_type=None, **kwargs):
        super().__init__()
        self.wandb = _import_logger_package("wandb", "WandbCallback")
        self.wandb_args = {"project": project, "name": name, "entity": entity, "dir": dir,
                           "mode": mode, "job_type": job_type, **kwargs}
        self._run = None
        self.run  # starts (or joins) the run now, as PaddlePaddle does

    @property
    def run(self):
        if _local_rank() == 0 and self._run is None:
            if self.wandb.run is not None:
                warnings.warn("There is a wandb run already in progress and newly created "
                              "instances of `WandbCallback` will reuse this run. If this is "
                              "not desired, call `wandb.finish()` before instantiating "
                              "`WandbCallback`.")
                self._run = self.wandb.run
            else:
                self._run = self.wandb.init(**self.wandb_args)
        return self._run

    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        self.train_metrics = self.params["metrics"]
        self._is_fit = True
        self.train_step = 0
        if _local_rank() == 0:
            self.run.define_metric("train/step")
            self.run.define_metric("train/*", step_metric="train/step")
            self.run.define_metric("epoch")
            self.run.define_metric("eval/*", step_metric="epoch")

    def on_epoch_begin(self, epoch=None, logs=None):
        self.steps = self.params["steps"]
        self.epoch = epoch

    def _updates(self, logs, mode):
        if _local_rank() != 0:
            return
        if mode == "train":
            values = {"train/step": self.train_step}
        else:
            values = {"epoch": self.epoch}
        for key in getattr(self, f"{mode}_metrics"):
            if key in (logs or {}):
                value = _monitored_value(logs, key)
                if value is not None:
                    values[f"{mode}/{key}"] = value
        self.run.log(values)

    def on_train_batch_end(self, step, logs=None):
        self.train_step += 1
        self._updates(logs, "train")

    def on_eval_begin(self, logs=None):
        logs = logs or {}
        self.eval_steps = logs.get("steps")
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0
        if not hasattr(self, "epoch"):
            self.epoch = 0

    def on_train_end(self, logs=None):
        if _local_rank() == 0:
            self.run.finish()

    def on_eval_end(self, logs=None):
        self._updates(logs, "eval")
        if not hasattr(self, "_is_fit") and _local_rank() == 0:
            self.run.finish()
            self._run = None
