"""paddle.Model: training, evaluation, prediction and saving of a network behind one object.

Model(network, inputs, labels) picks an adapter by the mode it is created in: in dygraph the
network runs eagerly batch by batch; under paddle.enable_static() the network is traced once
per mode ('train', 'eval', 'test') into its own program (a clone of the main program holding
the network's parameters), with the loss, the metrics' compute() and, for training, the
backward and optimizer ops, and every batch is one Executor run of that program. fit /
evaluate / predict loop over a DataLoader (or build one from a Dataset) and report to the
callbacks of paddle.callbacks."""
import contextlib
import inspect
import os
import warnings

import numpy as np

import paddle
from ..base.framework import in_dynamic_mode
from ..base.libpaddle import Tensor
from ..metric import Metric
from ..optimizer import Optimizer
from ..static import InputSpec
from .callbacks import EarlyStopping, config_callbacks
from .model_summary import summary

__all__ = ["Model"]


def _to_list(value):
    if value is None:
        return value
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def _to_numpy(value):
    if isinstance(value, Tensor):
        if value.dtype == paddle.bfloat16:  # numpy has no bfloat16: .numpy() gives its bits
            value = value.astype("float32")
        return value.numpy()
    return np.asarray(value)


def _flatten(data):
    """A batch as a flat list: loaders yield [inputs..., labels...] or nested lists of them."""
    if isinstance(data, (list, tuple)):
        flat = []
        for item in data:
            flat.extend(_flatten(item))
        return flat
    if isinstance(data, dict):
        return _flatten(list(data.values()))
    return [data]


def _input_info(inputs):
    """([shape, ...], [dtype, ...]) of InputSpecs or tensors, or None."""
    if isinstance(inputs, (InputSpec, Tensor, np.ndarray)):
        inputs = [inputs]
    elif isinstance(inputs, dict):
        inputs = list(inputs.values())
    elif not isinstance(inputs, (list, tuple)):
        return None
    return [list(x.shape) for x in inputs], [x.dtype for x in inputs]


def _forward_argument_names(network):
    names = inspect.getfullargspec(network.forward).args
    return names[1:] if names and names[0] == "self" else names


def _require_prepared(model, api):
    if not model._prepared:
        raise RuntimeError(f"Model.{api}(): the model is not ready, please call "
                           f"`model.prepare()` first")


class DynamicGraphAdapter:
    """Runs the network eagerly."""

    def __init__(self, model):
        self.model = model
        self._input_info = None

    def prepare(self):
        pass

    def _forward(self, inputs):
        inputs = _to_list(inputs)
        self._input_info = _input_info(inputs)
        model = self.model
        with paddle.amp.auto_cast(enable=model._amp_level != "O0", level=model._amp_level,
                                  **model._amp_cast):
            return model.network(*[paddle.to_tensor(x) for x in inputs])

    def _update_metrics(self, outputs, labels):
        results = []
        for metric in self.model._metrics:
            computed = metric.compute(*(_to_list(outputs) + labels))
            results.append(metric.update(*[_to_numpy(m) for m in _to_list(computed)]))
        return results

    def train_batch(self, inputs, labels=None, update=True):
        model = self.model
        model.network.train()
        model.mode = "train"
        labels = [paddle.to_tensor(x) for x in _to_list(labels if labels is not None else [])]
        outputs = self._forward(inputs)
        losses = _to_list(model._loss(*(_to_list(outputs) + labels)))
        final_loss = paddle.add_n(losses) if len(losses) > 1 else losses[0]
        if model._scaler is not None:  # mixed precision: the loss is scaled for backward
            scaled = model._scaler.scale(final_loss)
            scaled.backward()
            if update:
                model._scaler.minimize(model._optimizer, scaled)
                model.network.clear_gradients()
            return self._train_results(outputs, labels, losses)
        final_loss.backward()
        if update:
            model._optimizer.minimize(final_loss)
            model.network.clear_gradients()
        return self._train_results(outputs, labels, losses)

    def _train_results(self, outputs, labels, losses):
        metrics = self._update_metrics(outputs, labels)
        losses = [_to_numpy(loss) for loss in losses]
        return (losses, metrics) if metrics else losses

    def eval_batch(self, inputs, labels=None):
        model = self.model
        model.network.eval()
        model.mode = "eval"
        labels = [paddle.to_tensor(x) for x in _to_list(labels if labels is not None else [])]
        outputs = self._forward(inputs)
        losses = _to_list(model._loss(*(_to_list(outputs) + labels))) if model._loss else []
        metrics = self._update_metrics(outputs, labels)
        losses = [_to_numpy(loss) for loss in losses]
        if model._loss and metrics:
            return losses, metrics
        return losses if model._loss else metrics

    def predict_batch(self, inputs):
        self.model.network.eval()
        self.model.mode = "test"
        return [_to_numpy(out) for out in _to_list(self._forward(inputs))]

    def parameters(self, *args, **kwargs):
        return self.model.network.parameters(*args, **kwargs)

    def save(self, path):
        paddle.save(self.model.network.state_dict(), path + ".pdparams")
        optimizer = self.model._optimizer
        if optimizer is not None:
            state = optimizer.state_dict()
            if state:
                paddle.save(state, path + ".pdopt")

    def load(self, param_state_pairs, optim_state):
        for param, state in param_state_pairs:
            param.set_value(_to_numpy(state))
        if self.model._optimizer and optim_state:
            self.model._optimizer.set_state_dict(optim_state)


@contextlib.contextmanager
def _parameters_bound_to(network, program):
    """Lets `network` trace into `program`: its parameters and buffers are swapped for the
    program's variables of the same names while the block runs (a clone of the main program
    holds copies of them; ops may only use variables of their own program)."""
    block = program.global_block()
    swapped = []
    for layer in network.sublayers(include_self=True):
        for registry in (layer._parameters, layer._buffers):
            for key, value in list(registry.items()):
                if value is None or not block.has_var(value.name):
                    continue
                swapped.append((registry, key, value))
                registry[key] = block.var(value.name)
    try:
        yield
    finally:
        for registry, key, value in swapped:
            registry[key] = value


class StaticGraphAdapter:
    """Builds one program per mode from the network and runs batches with an Executor."""

    _MODES = ("train", "eval", "test")

    def __init__(self, model):
        self.model = model
        self._startup_prog = paddle.static.default_startup_program()
        self._orig_prog = paddle.static.default_main_program()
        self._input_vars = {}
        self._label_vars = {}
        self._endpoints = {}
        self._progs = {}
        self._executor = None

    def prepare(self):
        self._progs.clear()
        for mode in self._MODES:
            self._make_program(mode)
        self._initialize()

    def _make_program(self, mode):
        model = self.model
        program = self._orig_prog.clone()
        losses, metrics = [], []
        was_training = model.network.training
        if mode == "train":
            model.network.train()
        else:
            model.network.eval()
        try:
            with paddle.static.program_guard(program, self._startup_prog), \
                    _parameters_bound_to(model.network, program):
                inputs = [spec._create_feed_layer() for spec in model._inputs]
                labels = [spec._create_feed_layer() for spec in (model._labels or [])]
                outputs = _to_list(model.network(*inputs))
                if mode != "test" and model._loss:
                    losses = _to_list(model._loss(*(outputs + labels)))
                if mode != "test":
                    metrics = [_to_list(metric.compute(*(outputs + labels)))
                               for metric in model._metrics]
                if mode == "train" and model._optimizer and losses:
                    loss = paddle.add_n(losses) if len(losses) > 1 else losses[0]
                    bound = [program.global_block().var(p.name)
                             for p in model.network.parameters()
                             if program.global_block().has_var(p.name)]
                    # positionally: a static AMP optimizer names it parameter_list
                    model._optimizer.minimize(loss, None, bound)
        finally:
            if was_training:
                model.network.train()
            else:
                model.network.eval()
        if mode != "train":
            program = program.clone(for_test=True)
            if model._amp_level != "O0":
                paddle.static.amp.decorator.rewrite_program(
                    program, model._static_amp_lists(), model._amp_level,
                    model._amp_cast["dtype"])
        self._input_vars[mode] = inputs
        self._label_vars[mode] = labels
        self._progs[mode] = program
        self._endpoints[mode] = {"output": outputs, "loss": losses, "metric": metrics}

    def _initialize(self):
        """Runs the startup program for the variables it has not set yet; the values already
        there (weights loaded or trained before a second prepare()) are kept."""
        if self._executor is None:
            self._executor = paddle.static.Executor()
        scope = paddle.static.global_scope()
        names = [var.name for var in self._startup_prog.list_vars() if var.persistable]
        if all(_is_initialized(scope, name) for name in names):
            return
        kept = {name: _scope_value(name) for name in names if _is_initialized(scope, name)}
        self._executor.run(self._startup_prog)
        for name, value in kept.items():
            self._set_value(name, value)

    def _set_value(self, name, value):
        tensor = paddle.static.global_scope().find_var(name).get_tensor()
        tensor.set(np.ascontiguousarray(value), self._executor.place)

    def _feed_lr(self, program):
        """A float learning rate changed since the program was built (ReduceLROnPlateau sets
        it) goes into the program's learning-rate variable."""
        optimizer = self.model._optimizer
        name = getattr(optimizer, "_static_lr_names", {}).get(id(program.desc))
        if name is None or not isinstance(optimizer._learning_rate, float):
            return
        self._set_value(name, np.array([optimizer._learning_rate], dtype="float32"))

    def _run(self, inputs, labels=None):
        mode = self.model.mode
        program = self._progs.get(mode)
        if program is None:
            raise RuntimeError("Model is not ready, please call `model.prepare()` first")
        inputs = _to_list(inputs)
        if len(inputs) != len(self._input_vars[mode]):
            raise ValueError(f"Model: the batch has {len(inputs)} inputs, but forward() takes "
                             f"{len(self._input_vars[mode])}")
        feed = {var.name: _to_numpy(x) for var, x in zip(self._input_vars[mode], inputs)
                if x is not None}
        for var, label in zip(self._label_vars[mode], _to_list(labels) or []):
            feed[var.name] = _to_numpy(label)
        endpoints = self._endpoints[mode]
        if mode == "test":
            fetch_list = endpoints["output"]
        else:
            fetch_list = endpoints["loss"] + [v for group in endpoints["metric"] for v in group]
        if mode == "train":
            self._feed_lr(program)
        results = self._executor.run(program, feed=feed, fetch_list=fetch_list)
        results = [np.asarray(r) for r in results]
        if mode == "test":
            return results
        num_losses = len(endpoints["loss"])
        metric_values = results[num_losses:]
        metrics = []
        for metric, group in zip(self.model._metrics, endpoints["metric"]):
            state, metric_values = metric_values[:len(group)], metric_values[len(group):]
            metrics.append(metric.update(*state))
        losses = results[:num_losses]
        if num_losses and metrics:
            return losses, metrics
        return losses if num_losses else metrics

    def train_batch(self, inputs, labels=None, update=True):
        if not update:
            raise NotImplementedError("Model.train_batch(): update=False (gradient "
                                      "accumulation) is not supported in static graph mode")
        self.model.mode = "train"
        return self._run(inputs, labels)

    def eval_batch(self, inputs, labels=None):
        self.model.mode = "eval"
        return self._run(inputs, labels)

    def predict_batch(self, inputs):
        self.model.mode = "test"
        return self._run(inputs, None)

    def parameters(self, *args, **kwargs):
        return self.model.network.parameters(*args, **kwargs)

    def _optimizer_vars(self):
        program = self._progs.get("train")
        if program is None or self.model._optimizer is None:
            return []
        network_vars = {v.name for v in self.model.network.state_dict().values()}
        return [var for var in program.list_vars()
                if var.persistable and var.name not in network_vars
                and var.name not in ("feed", "fetch")]

    def save(self, path):
        if os.path.basename(path) == "":
            raise ValueError(f"Model.save(): 'path' must be of the form 'dirname/filename', "
                             f"but received {path!r}")
        directory = os.path.dirname(path)
        if directory:
            os.makedirs(directory, exist_ok=True)
        params = {key: _scope_value(var.name)
                  for key, var in self.model.network.state_dict().items()}
        paddle.save(params, path + ".pdparams")
        optimizer_state = {var.name: _scope_value(var.name) for var in self._optimizer_vars()
                           if _is_initialized(paddle.static.global_scope(), var.name)}
        if optimizer_state:
            paddle.save(optimizer_state, path + ".pdopt")

    def load(self, param_state_pairs, optim_state):
        self._initialize()  # the variables exist (and keep their values) from here on
        for param, state in param_state_pairs:
            self._set_value(param.name, _to_numpy(state))
        if not self.model._optimizer or not optim_state:
            return
        for var in self._optimizer_vars():
            if var.name in optim_state:
                self._set_value(var.name, _to_numpy(optim_state[var.name]))
            elif not var.name.startswith("learning_rate"):
                raise ValueError(f"Model.load(): variable [{var.name}] is not in the "
                                 f"optimizer state file")


def _is_initialized(scope, name):
    var = scope.find_var(name)
    return var is not None and var.is_initialized()


def _scope_value(name):
    return np.array(paddle.static.global_scope().find_var(name).get_tensor())


class Model:
    """A network with its training setup. `inputs` (InputSpecs, needed in static mode and for
    saving an inference model) and `labels` (InputSpecs) describe the data; prepare() gives the
    optimizer, loss and metrics; fit / evaluate / predict run over datasets."""

    def __init__(self, network, inputs=None, labels=None):
        if not isinstance(network, paddle.nn.Layer):
            raise TypeError(f"Model(): 'network' must be a paddle.nn.Layer, but received "
                            f"{type(network).__name__}")
        self.mode = "train"
        self.network = network
        self._loss = None
        self._optimizer = None
        self._amp_level, self._amp_cast, self._scaler = "O0", {}, None
        self._metrics = []
        self._prepared = False
        self._input_info = None
        self._is_shape_inferred = False
        self._test_dataloader = None
        self.stop_training = False
        if not in_dynamic_mode():
            if not isinstance(inputs, (list, tuple, dict, InputSpec)):
                raise TypeError("Model(): 'inputs' must be an InputSpec or a list, tuple or "
                                "dict of them in static graph mode, and couldn't be None")
        self._inputs = self._verify_spec(inputs, is_input=True)
        self._labels = self._verify_spec(labels)
        if in_dynamic_mode() and inputs:
            self._input_info = _input_info(inputs)
        self._adapter = (DynamicGraphAdapter(self) if in_dynamic_mode()
                         else StaticGraphAdapter(self))

    # ---- setup ----------------------------------------------------------------------------
    def prepare(self, optimizer=None, loss=None, metrics=None, amp_configs=None):
        """Sets the optimizer (needed by fit), the loss (a Layer or a callable of
        (*outputs, *labels)) and the metrics (paddle.metric.Metric instances)."""
        if optimizer is not None and not isinstance(optimizer, Optimizer):
            raise TypeError(f"Model.prepare(): 'optimizer' must be a paddle.optimizer."
                            f"Optimizer, but received {type(optimizer).__name__}")
        if loss is not None and not isinstance(loss, paddle.nn.Layer) and not callable(loss):
            raise TypeError("Model.prepare(): 'loss' must be sub classes of `paddle.nn.Layer` "
                            f"or any callable function, but received {type(loss).__name__}")
        metrics = _to_list(metrics) or []
        for metric in metrics:
            if not isinstance(metric, Metric):
                raise TypeError(f"Model.prepare(): 'metrics' must be paddle.metric.Metric "
                                f"instances, but received {type(metric).__name__}")
        self._amp_level, self._amp_cast, amp_scaler = self._parse_amp_configs(amp_configs)
        self._optimizer = optimizer
        self._loss = loss
        self._metrics = metrics
        self._scaler = None
        if self._amp_level != "O0" and not in_dynamic_mode():
            # Static graph: the train program is rewritten and loss-scaled by the decorated
            # optimizer's minimize(), the eval and test programs by _make_program.
            if optimizer is not None:
                self._optimizer = paddle.static.amp.decorate(
                    optimizer, self._static_amp_lists(), level=self._amp_level,
                    dtype=self._amp_cast["dtype"], **amp_scaler)
        elif self._amp_level != "O0":
            if self._amp_level == "O2" and optimizer is not None:
                self.network, self._optimizer = paddle.amp.decorate(
                    models=self.network, optimizers=optimizer, level="O2",
                    dtype=self._amp_cast["dtype"])
            self._scaler = paddle.amp.GradScaler(**amp_scaler)
        self._adapter.prepare()
        self._prepared = True

    def _parse_amp_configs(self, amp_configs):
        """(level, auto_cast keyword arguments, GradScaler keyword arguments) of Paddle's
        amp_configs: None, a level string, or a dict of a level and the auto_cast / GradScaler
        settings. The extra key 'dtype' picks the low precision type; by default float16 on a
        GPU and bfloat16 on the CPU, where float16 is not supported (is_float16_supported)."""
        if not amp_configs:
            return "O0", {}, {}
        if isinstance(amp_configs, str):
            amp_configs = {"level": amp_configs}
        if not isinstance(amp_configs, dict):
            raise TypeError("Model.prepare(): 'amp_configs' must be None, a level string or a "
                            f"dict, but received {type(amp_configs).__name__}")
        level = amp_configs.get("level", "O1")
        if level not in ("O0", "O1", "O2"):
            raise ValueError("Model.prepare(): the level of amp_configs must be 'O0', 'O1' or "
                             f"'O2', but received {level!r}")
        cast_keys = ("custom_white_list", "custom_black_list", "dtype")
        scaler_keys = ("init_loss_scaling", "incr_ratio", "decr_ratio", "incr_every_n_steps",
                       "decr_every_n_nan_or_inf", "use_dynamic_loss_scaling")
        unknown = set(amp_configs) - {"level"} - set(cast_keys) - set(scaler_keys)
        if unknown:
            raise ValueError("Model.prepare(): amp_configs keys must be 'level', "
                             f"{', '.join(cast_keys + scaler_keys)}; unknown: {sorted(unknown)}")
        cast = {k: amp_configs[k] for k in cast_keys if k in amp_configs}
        if "dtype" not in cast:
            on_gpu = paddle.amp.is_float16_supported()
            cast["dtype"] = "float16" if on_gpu else "bfloat16"
        scaler = {k: amp_configs[k] for k in scaler_keys if k in amp_configs}
        return level, cast, scaler

    def _static_amp_lists(self):
        return paddle.static.amp.AutoMixedPrecisionLists(
            self._amp_cast.get("custom_white_list"), self._amp_cast.get("custom_black_list"),
            dtype=self._amp_cast["dtype"])

    def _verify_spec(self, specs, shapes=None, dtypes=None, is_input=False):
        if specs is None:
            if not is_input:
                return None
            names = _forward_argument_names(self.network)
            if shapes is not None and dtypes is not None and in_dynamic_mode():
                return [InputSpec(shape=shapes[i], dtype=dtypes[i], name=name)
                        for i, name in enumerate(names[:len(shapes)])]
            return [InputSpec(name=name, shape=[None]) for name in names]
        if isinstance(specs, dict):
            # Inputs are matched to forward()'s arguments by name; labels keep their order.
            if is_input:
                missing = [n for n in _forward_argument_names(self.network) if n not in specs]
                if missing:
                    raise ValueError(f"Model(): 'inputs' has no InputSpec for the forward() "
                                     f"arguments {missing}")
                specs = [specs[name] for name in _forward_argument_names(self.network)]
            else:
                specs = list(specs.values())
        specs = _to_list(specs)
        argument = "inputs" if is_input else "labels"
        for i, spec in enumerate(specs):
            if not isinstance(spec, InputSpec):
                raise TypeError(f"Model(): '{argument}' must be paddle.static.InputSpec "
                                f"instances, but item {i} is {type(spec).__name__}")
            if spec.name is None:
                raise ValueError(f"Requires Input[{i}].name != None, but receive `None` with "
                                 f"{spec}.")
        return specs

    def _update_inputs(self):
        self._input_info = self._adapter._input_info
        if self._input_info is not None and len(self._input_info) == 2:
            self._inputs = self._verify_spec(None, self._input_info[0], self._input_info[1],
                                             True)
            self._is_shape_inferred = True

    # ---- one batch ------------------------------------------------------------------------
    def train_batch(self, inputs, labels=None, update=True):
        """One training step on a batch; returns the losses (and the metrics' update results)
        as NumPy. update=False only accumulates gradients."""
        if self._optimizer is None or self._loss is None:
            raise RuntimeError("Model.train_batch(): the model is not ready for training, "
                               "please call `model.prepare()` with an optimizer and a loss "
                               "first")
        result = self._adapter.train_batch(inputs, labels, update)
        if in_dynamic_mode() and self._input_info is None:
            self._update_inputs()
        return result

    def eval_batch(self, inputs, labels=None):
        """The losses and metrics on one batch, without training."""
        _require_prepared(self, "eval_batch")
        with paddle.no_grad():
            result = self._adapter.eval_batch(inputs, labels)
        if in_dynamic_mode() and self._input_info is None:
            self._update_inputs()
        return result

    def predict_batch(self, inputs):
        """The network's outputs on one batch as NumPy arrays."""
        with paddle.no_grad():
            result = self._adapter.predict_batch(inputs)
        if in_dynamic_mode() and self._input_info is None:
            self._update_inputs()
        return result

    # ---- saving ---------------------------------------------------------------------------
    def save(self, path, training=True):
        """training=True: path.pdparams (parameters) and path.pdopt (optimizer state).
        training=False: an inference model, path.pdmodel and path.pdiparams."""
        if int(os.environ.get("PADDLE_RANK_IN_NODE", "0")) != 0:
            return
        if training:
            self._adapter.save(path)
        else:
            self._save_inference_model(path)

    def _save_inference_model(self, path):
        if in_dynamic_mode():
            if self._input_info is None:
                raise RuntimeError("Saving inference model needs 'inputs' or running before "
                                   "saving. Please specify 'inputs' in Model initialization "
                                   "or input training data and perform a training for shape "
                                   "derivation.")
            if self._is_shape_inferred:
                warnings.warn(f"'inputs' was not specified when Model initialization, so the "
                              f"input shape to be saved will be the shape derived from the "
                              f"user's actual inputs. The input shape to be saved is "
                              f"{self._input_info[0]}. For saving correct input shapes, "
                              f"please provide 'inputs' for Model initialization.")
            paddle.jit.save(self.network, path, input_spec=self._inputs)
            return
        if os.path.basename(path) == "":
            raise ValueError("The input path MUST be format of dirname/file_prefix, but "
                             "received file_prefix is empty string.")
        program = self._adapter._progs.get("test")
        if program is None:
            raise RuntimeError("Model is not ready, please call `model.prepare()` first")
        directory = os.path.dirname(path)
        if directory:
            os.makedirs(directory, exist_ok=True)
        paddle.static.save_inference_model(path, self._adapter._input_vars["test"],
                                           self._adapter._endpoints["test"]["output"],
                                           self._adapter._executor, program=program)

    def load(self, path, skip_mismatch=False, reset_optimizer=False):
        """Loads path.pdparams (and path.pdopt unless reset_optimizer). A missing or
        differently shaped parameter is an error, or with skip_mismatch a warning (and the
        optimizer state is then not loaded)."""
        root, ext = os.path.splitext(path)
        if ext not in ("", ".pdparams", ".pdopt", ".pdmodel"):
            raise ValueError(f"Model.load(): unknown postfix {ext} of 'path' {path!r}")
        if ext:
            path = root
        if not os.path.exists(path + ".pdparams"):
            raise ValueError(f"Model.load(): failed to load parameters, {path}.pdparams does "
                             f"not exist")
        # Static mode reads NumPy: tensors made there would be program variables.
        as_numpy = not in_dynamic_mode()
        param_state = paddle.load(path + ".pdparams", return_numpy=as_numpy)
        matched = []
        for key, param in self.network.state_dict().items():
            state = param_state.get(key)
            if state is None:
                problem = f"{key} is not found in the providing file."
            elif list(state.shape) != list(param.shape):
                problem = (f"{key} receives a shape {list(state.shape)}, but the expected "
                           f"shape is {list(param.shape)}.")
            else:
                matched.append((param, state))
                continue
            if not skip_mismatch:
                raise ValueError(problem)
            warnings.warn(f"Skip loading for {key}. {problem}")
            reset_optimizer = True
        optim_state = None
        if not reset_optimizer and os.path.exists(path + ".pdopt"):
            optim_state = paddle.load(path + ".pdopt", return_numpy=as_numpy)
        self._adapter.load(matched, optim_state)

    def parameters(self, *args, **kwargs):
        """The network's parameters."""
        return self._adapter.parameters(*args, **kwargs)

    # ---- loops ----------------------------------------------------------------------------
    def _loader(self, data, batch_size, shuffle=False, drop_last=False, num_workers=0):
        """A DataLoader for a Dataset; anything else (a DataLoader, a list of batches, a
        generator) is iterated as it is."""
        io = getattr(paddle, "io", None)
        if io is None or not isinstance(data, io.Dataset):
            return data
        if not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(f"Model: 'batch_size' must be a positive integer, but received "
                             f"{batch_size}")
        sampler_class = getattr(io, "DistributedBatchSampler", io.BatchSampler)
        sampler = sampler_class(data, batch_size=batch_size, shuffle=shuffle,
                                drop_last=drop_last)
        return io.DataLoader(data, batch_sampler=sampler, num_workers=num_workers,
                             return_list=True)

    def fit(self, train_data=None, eval_data=None, batch_size=1, epochs=1, eval_freq=1,
            log_freq=10, save_dir=None, save_freq=1, verbose=2, drop_last=False, shuffle=True,
            num_workers=0, callbacks=None, accumulate_grad_batches=1, num_iters=None):
        """Trains for `epochs` over train_data (a Dataset or a DataLoader), evaluating on
        eval_data every eval_freq epochs, saving to save_dir every save_freq epochs."""
        if train_data is None:
            raise ValueError("Model.fit(): train_data must be given!")
        if self._optimizer is None or self._loss is None:
            raise RuntimeError("Model.fit(): the model is not ready for training, please call "
                               "`model.prepare()` with an optimizer and a loss first")
        if isinstance(batch_size, (tuple, list)):
            if len(batch_size) != 2 or not all(isinstance(x, int) for x in batch_size):
                raise ValueError(f"Model.fit(): a list 'batch_size' must be [train_batch_size, "
                                 f"eval_batch_size], but received {batch_size}")
            train_batch_size, eval_batch_size = batch_size
        else:
            train_batch_size = eval_batch_size = batch_size
        if not isinstance(accumulate_grad_batches, int) or accumulate_grad_batches < 1:
            raise ValueError(f"Model.fit(): 'accumulate_grad_batches' must be a positive "
                             f"integer, but received {accumulate_grad_batches}")
        train_loader = self._loader(train_data, train_batch_size, shuffle, drop_last,
                                    num_workers)
        eval_loader = (self._loader(eval_data, eval_batch_size, num_workers=num_workers)
                       if eval_data is not None else None)
        self._test_dataloader = eval_loader
        self._accumulate = accumulate_grad_batches
        steps = self._len_data_loader(train_loader)
        self.num_iters = num_iters
        if num_iters is not None:
            if not isinstance(num_iters, int) or num_iters <= 0:
                raise ValueError(f"Model.fit(): 'num_iters' must be a positive integer, but "
                                 f"received {num_iters}")
            if isinstance(steps, int):
                epochs = num_iters // steps + 1
                steps = min(num_iters, steps)
        callback_list = config_callbacks(callbacks, model=self, epochs=epochs, steps=steps,
                                         log_freq=log_freq, save_freq=save_freq,
                                         save_dir=save_dir, verbose=verbose,
                                         metrics=self._metrics_name())
        if eval_loader is None and any(isinstance(c, EarlyStopping) for c in callback_list):
            warnings.warn("EarlyStopping needs validation data.")
        self.stop_training = False
        logs = {}
        callback_list.on_begin("train")
        for epoch in range(epochs):
            callback_list.on_epoch_begin(epoch)
            logs = self._run_one_epoch(train_loader, callback_list, "train")
            callback_list.on_epoch_end(epoch, logs)
            if eval_loader is not None and epoch % eval_freq == 0:
                callback_list.on_begin("eval", {"steps": self._len_data_loader(eval_loader),
                                                "metrics": self._metrics_name()})
                eval_logs = self._run_one_epoch(eval_loader, callback_list, "eval")
                callback_list.on_end("eval", eval_logs)
            if self.stop_training:
                break
        callback_list.on_end("train", logs)
        self._test_dataloader = None

    def evaluate(self, eval_data, batch_size=1, log_freq=10, verbose=2, num_workers=0,
                 callbacks=None, num_iters=None):
        """The loss and metrics over eval_data, as {name: value}."""
        _require_prepared(self, "evaluate")
        eval_loader = self._loader(eval_data, batch_size, num_workers=num_workers)
        self._test_dataloader = eval_loader
        callback_list = config_callbacks(callbacks, model=self, log_freq=log_freq,
                                         verbose=verbose, metrics=self._metrics_name())
        eval_steps = self._len_data_loader(eval_loader)
        self.num_iters = num_iters
        if num_iters is not None:
            if not isinstance(num_iters, int) or num_iters <= 0:
                raise ValueError(f"Model.evaluate(): 'num_iters' must be a positive integer, "
                                 f"but received {num_iters}")
            if isinstance(eval_steps, int):
                eval_steps = self.num_iters = min(num_iters, eval_steps)
        callback_list.on_begin("eval", {"steps": eval_steps, "metrics": self._metrics_name()})
        logs = self._run_one_epoch(eval_loader, callback_list, "eval")
        callback_list.on_end("eval", logs)
        self._test_dataloader = None
        return {name: logs[name] for name in self._metrics_name()}

    def predict(self, test_data, batch_size=1, num_workers=0, stack_outputs=False, verbose=1,
                callbacks=None):
        """The network's outputs over test_data: one list per output, of per-batch arrays,
        or (stack_outputs) of one array stacked over the batches."""
        if not in_dynamic_mode():
            _require_prepared(self, "predict")
        test_loader = self._loader(test_data, batch_size, num_workers=num_workers)
        self._test_dataloader = test_loader
        callback_list = config_callbacks(callbacks, model=self, verbose=verbose)
        callback_list.on_begin("predict", {"steps": self._len_data_loader(test_loader)})
        logs, outputs = self._run_one_epoch(test_loader, callback_list, "predict")
        outputs = list(zip(*outputs))
        if stack_outputs:
            outputs = [np.vstack(out) for out in outputs]
        self._test_dataloader = None
        callback_list.on_end("predict", logs)
        return outputs

    def _run_one_epoch(self, data_loader, callbacks, mode):
        logs = {}
        outputs = []
        steps = self._len_data_loader(data_loader)
        num_inputs = len(self._inputs)
        for step, data in enumerate(data_loader):
            data = _flatten(data)
            batch_size = data[0].shape[0] if len(data[0].shape) else 1
            callbacks.on_batch_begin(mode, step, logs)
            if mode != "predict":
                batch = [data[:num_inputs], data[num_inputs:]]
                if mode == "train":
                    batch.append((step + 1) % self._accumulate == 0 or step + 1 == steps)
                result = getattr(self, mode + "_batch")(*batch)
                if self._metrics and self._loss:
                    values = [[float(loss) for loss in result[0]]]
                elif self._loss:
                    values = [[float(loss) for loss in result]]
                else:
                    values = []
                for metric in self._metrics:
                    values.extend(_to_list(metric.accumulate()))
                for name, value in zip(self._metrics_name(), values):
                    logs[name] = value
            else:
                outputs.append(self.predict_batch(data[:num_inputs]))
            logs["step"] = step
            logs["batch_size"] = batch_size
            callbacks.on_batch_end(mode, step, logs)
            if getattr(self, "num_iters", None) is not None:
                self.num_iters -= 1
                if self.num_iters <= 0:
                    self.stop_training = True
                    del self.num_iters
                    break
        for metric in self._metrics:
            metric.reset()
        if mode == "predict":
            return logs, outputs
        return logs

    def summary(self, input_size=None, dtype=None):
        """paddle.summary of the network, for input_size or the Model's inputs."""
        if input_size is None and self._inputs is None:
            raise ValueError("Model.summary(): 'input_size' or the Model's 'inputs' must be "
                             "set")
        return summary(self.network, input_size if input_size is not None else self._inputs,
                       dtypes=dtype)

    def _metrics_name(self):
        names = ["loss"] if self._loss else []
        for metric in self._metrics:
            names.extend(_to_list(metric.name()))
        return names

    @staticmethod
    def _len_data_loader(data_loader):
        try:
            return len(data_loader)
        except TypeError:
            return None
