"""paddle.jit.to_static, save and load.

to_static traces: the function runs once in static mode over paddle.static.data placeholders
built from the input_spec (or from the first call's tensors), with the Layer's parameters and
buffers swapped for persistable variables of the same names, so that every op appends to a new
Program. Calls then run that Program with the Executor in a private scope that shares the
parameters' memory: the program always computes with the layer's current weights.

Before tracing, the function's simple `if`/`while` statements are rewritten to take the
tensor case through paddle.static.nn.cond / while_loop (dy2static.py). Other Python control
flow on a tensor cannot be traced (a static Variable has no value while the program is built):
it is reported with the file, line and reason (ToStaticError); with full_graph=False the call
falls back to the dygraph forward with a warning, as Paddle's SOT fallback does.

Gradients do not flow through the Executor, so a call that would record them (grad enabled and
an input or parameter with stop_gradient=False) runs the dygraph forward instead: training with
a to_static layer gives dygraph's gradients, and the traced program serves inference
(under paddle.no_grad(), or when nothing requires grad).
"""
import inspect
import os
import traceback
import types
import warnings
import weakref

from ..base import libpaddle
from ..nn.layer.layers import Layer
from ..static import io as static_io
from ..static.compiler import BuildStrategy, CompiledProgram
from ..static.executor import Executor, scope_guard
from ..static.input import InputSpec, data
from ..static.program import Program, Variable, program_guard
from ..utils import unique_name
from .dy2static import convert_function

__all__ = ["to_static", "not_to_static", "enable_to_static", "save", "load", "StaticFunction",
           "ToStaticError"]

Tensor = libpaddle.Tensor

_to_static_enabled = True


def enable_to_static(enable_to_static_bool):
    """Globally turns converting on or off; when off, decorated functions run in dygraph."""
    global _to_static_enabled
    if not isinstance(enable_to_static_bool, bool):
        raise TypeError(f"enable_to_static(): 'enable_to_static_bool' must be a bool, but "
                        f"received {type(enable_to_static_bool).__name__}")
    _to_static_enabled = enable_to_static_bool


def not_to_static(function=None):
    """Marks a function (or a sublayer's forward) to keep its Python `if`/`while` while
    tracing: they are not converted to cond/while_loop."""
    if function is None:
        return not_to_static
    function._paddle_not_to_static = True
    return function


class ToStaticError(TypeError):
    """A construct of the traced Python code that has no static form: `filename` and `lineno`
    say where, `reason` what it is and what to use instead."""

    def __init__(self, function_name, filename, lineno, source, reason):
        self.filename = filename
        self.lineno = lineno
        self.reason = reason
        super().__init__(f"to_static({function_name}): cannot convert {filename}:{lineno}: "
                         f"{reason}\n    {source}")


# ---- nested structures ------------------------------------------------------------------------

def _flatten(value):
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in _flatten(item)]
    if isinstance(value, dict):
        return [leaf for key in sorted(value) for leaf in _flatten(value[key])]
    return [value]


def _pack(template, leaves):
    """`template`'s structure with its leaves replaced, in _flatten's order, from `leaves`."""
    if isinstance(template, (list, tuple)):
        items = [_pack(item, leaves) for item in template]
        return type(template)(items) if isinstance(template, list) else tuple(items)
    if isinstance(template, dict):
        return {key: _pack(template[key], leaves) for key in sorted(template)}
    return next(leaves)


# ---- the traced program -----------------------------------------------------------------------

class ConcreteProgram:
    """One traced program: `main_program`, its input variables (`inputs`, the flattened
    tensor arguments), `outputs` (the flattened results) and the eager tensors its persistable
    variables take their values from (`parameters`: {name: tensor})."""

    def __init__(self, main_program, startup_program, inputs, outputs, output_template,
                 parameters):
        self.main_program = main_program
        self.startup_program = startup_program
        self.inputs = inputs
        self.outputs = outputs
        self.output_template = output_template
        self.parameters = parameters
        self.scope = libpaddle.Scope()

    def bind_parameters(self):
        """Points the scope's persistable variables at the eager tensors' current memory (a
        layer may have been given new tensors since the trace, e.g. by set_state_dict)."""
        for name, tensor in self.parameters.items():
            libpaddle._set_scope_tensor(self.scope.var(name), tensor)


_executor = None


def _shared_executor():
    global _executor
    if _executor is None:
        _executor = Executor()
    return _executor


def _user_frame(exc):
    """(file, line, source, untraceable call) of the frame of traced code that asked a static
    Variable for a value, or None when `exc` is not that."""
    frames = traceback.extract_tb(exc.__traceback__)
    program_file = os.path.abspath(inspect.getsourcefile(Variable))
    for i, frame in enumerate(frames):
        if os.path.abspath(frame.filename) == program_file and \
                frame.name in ("__bool__", "__index__", "__iter__", "numpy", "item", "tolist",
                               "__array__") and i > 0:
            caller = frames[i - 1]
            return caller.filename, caller.lineno, (caller.line or "").strip(), frame.name
    return None


def _reason(source, call):
    words = source.split()
    first = words[0] if words else ""
    if first in ("if", "elif") or " if " in f" {source} ":
        return "a Python if on a tensor: use paddle.static.nn.cond"
    if first == "while":
        return "a Python while on a tensor: use paddle.static.nn.while_loop"
    if first == "for":
        return "a Python for over a tensor's value: use paddle.static.nn.while_loop"
    if first == "assert":
        return "a Python assert on a tensor: its value is unknown while the program is built"
    if call == "__bool__":
        return ("the truth value of a tensor (bool(), and/or/not): use paddle.logical_and/"
                "logical_or/logical_not or paddle.static.nn.cond")
    return (f"reading a tensor's value ({call}()) while the program is built: the value exists "
            f"only when the program runs")


def _check_input_spec(api, input_spec):
    if input_spec is None:
        return None
    if not isinstance(input_spec, (list, tuple)):
        raise TypeError(f"{api}(): 'input_spec' must be a list or tuple of InputSpec, but "
                        f"received {type(input_spec).__name__}")
    for i, spec in enumerate(_flatten(list(input_spec))):
        if spec is not None and not isinstance(spec, (InputSpec, Tensor)):
            raise TypeError(f"{api}(): 'input_spec' items must be InputSpec or Tensor, but "
                            f"input_spec[{i}] is {type(spec).__name__}")
    return list(input_spec)


def _check_build_strategy(build_strategy):
    if build_strategy is not None and not isinstance(build_strategy, BuildStrategy):
        raise TypeError(f"to_static(): 'build_strategy' must be a paddle.static.BuildStrategy "
                        f"or None, but received {type(build_strategy).__name__}")
    return build_strategy


def _check_backend(backend):
    # CINN is Paddle's compiler; without it the program runs with the Executor, as Paddle
    # does with backend=None.
    if backend not in (None, "CINN"):
        raise ValueError(f"to_static(): 'backend' must be None or 'CINN', but received "
                         f"{backend!r}")
    return backend


def _as_spec(value, name):
    if isinstance(value, (list, tuple)):
        return type(value)(_as_spec(item, f"{name}_{i}") for i, item in enumerate(value))
    if isinstance(value, InputSpec):
        return InputSpec(value.shape, value.dtype, value.name or name, value.stop_gradient)
    if isinstance(value, Tensor):
        return InputSpec(value.shape, value.dtype, name, value.stop_gradient)
    return value


class StaticFunction:
    """A function or Layer method converted by to_static. Calling it runs the traced program
    (one per input signature and train/eval mode); see the module docstring for when it runs
    the dygraph function instead."""

    def __init__(self, function, input_spec=None, build_strategy=None, backend=None,
                 full_graph=False, instance=None, **kwargs):
        if isinstance(function, StaticFunction):
            function = function._function
        self._function = function
        self._instance = instance
        self._input_spec = _check_input_spec("to_static", input_spec)
        self._build_strategy = _check_build_strategy(build_strategy)
        self._backend = _check_backend(backend)
        self._full_graph = bool(full_graph)
        self._property = bool(kwargs.get("property", False))
        self._programs = {}
        self._last_program = None
        self._names = None
        self._bound = weakref.WeakKeyDictionary()
        self.__name__ = getattr(function, "__name__", type(function).__name__)
        self.__doc__ = getattr(function, "__doc__", None)
        self.__wrapped__ = function

    # ---- binding to a layer ----------------------------------------------------------------
    def __get__(self, instance, owner):
        if instance is None:
            return self
        bound = self._bound.get(instance)
        if bound is None:
            bound = StaticFunction(self._function, self._input_spec, self._build_strategy,
                                   self._backend, self._full_graph, instance=instance,
                                   property=self._property)
            self._bound[instance] = bound
        return bound

    @property
    def dygraph_function(self):
        return self._function

    def _call_dygraph(self, args, kwargs):
        if self._instance is not None:
            return self._function(self._instance, *args, **kwargs)
        return self._function(*args, **kwargs)

    @property
    def _layer(self):
        return self._instance if isinstance(self._instance, Layer) else None

    def rollback(self):
        """The dygraph function (on a layer: restores its class's forward)."""
        layer = self._layer
        if layer is not None and layer.__dict__.get("forward") is self:
            del layer.__dict__["forward"]
            return layer.forward
        return self._function

    # ---- signatures --------------------------------------------------------------------------
    def _parameter_names(self):
        if self._names is None:
            try:
                names = list(inspect.signature(self._function).parameters)
            except (TypeError, ValueError):
                names = []
            self._names = names[1:] if self._instance is not None else names
        return self._names

    def _specs_for(self, args):
        """The InputSpec (or constant) of each positional argument: input_spec where given,
        checked against the call's tensors, else the tensors' own shapes."""
        names = self._parameter_names()
        specs = []
        for i, arg in enumerate(args):
            name = names[i] if i < len(names) else f"arg_{i}"
            declared = self._input_spec[i] if self._input_spec and i < len(self._input_spec) \
                else None
            if isinstance(declared, (InputSpec, Tensor)) and isinstance(arg, Tensor):
                spec = _as_spec(declared, name)
                _check_against_spec(self.__name__, i, name, spec, arg)
                specs.append(spec)
            else:
                specs.append(_as_spec(arg, name))
        return specs

    def _key(self, specs, kwargs):
        layer = self._layer
        modes = tuple(sub.training for sub in layer.sublayers(include_self=True)) \
            if layer is not None else ()
        return _signature(specs), tuple(sorted((k, repr(v)) for k, v in kwargs.items())), modes

    # ---- calling -----------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if not _to_static_enabled or libpaddle._in_static_mode():
            # Inside another trace the function simply appends its ops there.
            return self._call_dygraph(args, kwargs)
        if self._needs_grad(args, kwargs):
            return self._call_dygraph(args, kwargs)
        if any(isinstance(v, Tensor) for v in _flatten(list(kwargs.values()))):
            raise TypeError(f"to_static({self.__name__}): pass tensors positionally; keyword "
                            f"tensor arguments {sorted(kwargs)} are not traced")
        specs = self._specs_for(args)
        concrete = self._concrete_program(specs, kwargs)
        if concrete is None:
            return self._call_dygraph(args, kwargs)
        return self._run(concrete, args)

    def _needs_grad(self, args, kwargs):
        if not libpaddle.is_grad_enabled():
            return False
        tensors = [v for v in _flatten(list(args) + list(kwargs.values()))
                   if isinstance(v, Tensor)]
        layer = self._layer
        if layer is not None:
            tensors += layer.parameters()
        return any(not t.stop_gradient for t in tensors)

    def _concrete_program(self, specs, kwargs):
        """The traced program for these specs, traced now if new; None when the function must
        run in dygraph (an untraceable construct with full_graph=False)."""
        key = self._key(specs, kwargs)
        if key in self._programs:
            return self._programs[key]
        try:
            concrete = self._trace(specs, kwargs)
        except ToStaticError as error:
            if self._full_graph:
                raise
            warnings.warn(f"{error}\nto_static({self.__name__}) runs the dygraph function "
                          f"instead (full_graph=False)", stacklevel=3)
            concrete = None
        self._programs[key] = concrete
        if concrete is not None:
            self._last_program = concrete
        return concrete

    def _run(self, concrete, args):
        feed = {var.name: value for var, value in zip(concrete.inputs, _tensor_leaves(args))}
        concrete.bind_parameters()
        program = concrete.main_program
        if self._build_strategy is not None:
            program = CompiledProgram(program, self._build_strategy)
        with scope_guard(concrete.scope):
            results = _shared_executor().run(program, feed=feed,
                                             fetch_list=[v.name for v in concrete.outputs],
                                             return_numpy=False)
        return _pack(concrete.output_template, iter(results))

    # ---- tracing -----------------------------------------------------------------------------
    def get_concrete_program(self, *args, **kwargs):
        """The ConcreteProgram for InputSpecs (or tensors) `args`, traced if new."""
        names = self._parameter_names()
        specs = [_as_spec(arg, names[i] if i < len(names) else f"arg_{i}")
                 for i, arg in enumerate(args)]
        concrete = self._concrete_program(specs, kwargs)
        if concrete is None:
            raise ValueError(f"to_static({self.__name__}): the function could not be traced "
                             f"into a program (see the warning)")
        return concrete

    @property
    def concrete_program(self):
        """The last traced program; traced from input_spec when nothing was traced yet."""
        if self._last_program is None:
            if self._input_spec is None:
                raise ValueError(f"to_static({self.__name__}): no program traced yet; call the "
                                 f"function or give 'input_spec'")
            return self.get_concrete_program(*self._input_spec)
        return self._last_program

    @property
    def main_program(self):
        return self.concrete_program.main_program

    def _trace(self, specs, kwargs):
        main, startup = Program(), Program()
        layer = self._layer
        swapped = []
        converted_sublayers = []
        parameters = {}
        was_static = libpaddle._in_static_mode()
        libpaddle._set_static_mode(True)
        try:
            with program_guard(main, startup), unique_name.guard():
                if layer is not None:
                    swapped = _swap_in_variables(layer, main.global_block(), parameters)
                    converted_sublayers = _convert_sublayer_forwards(layer)
                inputs = []

                def placeholder(spec):
                    if not isinstance(spec, InputSpec):
                        return spec
                    name = spec.name or f"input_{len(inputs)}"
                    var = data(name, list(spec.shape), spec.dtype)
                    inputs.append(var)
                    return var

                call_args = [_map_specs(spec, placeholder) for spec in specs]
                function = convert_function(self._function)
                if self._instance is not None:
                    call_args.insert(0, self._instance)
                try:
                    result = function(*call_args, **kwargs)
                except Exception as error:
                    where = _user_frame(error)
                    if where is None:
                        _add_note(error, f"while to_static traced {self.__name__} with inputs "
                                         f"{specs}")
                        raise
                    raise ToStaticError(self.__name__, where[0], where[1], where[2],
                                        _reason(where[2], where[3])) from error
        finally:
            libpaddle._set_static_mode(was_static)
            for registry, key, original in swapped:
                registry[key] = original
            for sublayer in converted_sublayers:
                del sublayer.__dict__["forward"]
        outputs = _flatten(result)
        for i, out in enumerate(outputs):
            if not isinstance(out, Variable):
                raise ToStaticError(self.__name__, inspect.getsourcefile(self._function),
                                    inspect.getsourcelines(self._function)[1],
                                    f"return ... ({type(out).__name__})",
                                    f"output {i} is a {type(out).__name__}, not a tensor "
                                    f"computed by the program")
        return ConcreteProgram(main, startup, inputs, outputs, result, parameters)


def _signature(spec):
    if isinstance(spec, (list, tuple)):
        return tuple(_signature(item) for item in spec)
    if isinstance(spec, InputSpec):
        return ("spec", spec.shape, spec.dtype, spec.name)
    return ("const", repr(spec))


def _tensor_leaves(args):
    return [leaf for leaf in _flatten(list(args)) if isinstance(leaf, Tensor)]


def _map_specs(spec, fn):
    if isinstance(spec, (list, tuple)):
        return type(spec)(_map_specs(s, fn) for s in spec)
    return fn(spec)


def _add_note(error, note):
    if hasattr(error, "add_note"):
        error.add_note(note)


def _check_against_spec(function_name, index, name, spec, tensor):
    shape = list(tensor.shape)
    if len(shape) != len(spec.shape):
        raise ValueError(f"to_static({function_name}): input_spec[{index}] of argument '{name}' "
                         f"has rank {len(spec.shape)} (shape {list(spec.shape)}), but the "
                         f"argument is a tensor of rank {len(shape)} (shape {shape})")
    if any(d >= 0 and d != a for d, a in zip(spec.shape, shape)):
        raise ValueError(f"to_static({function_name}): input_spec[{index}] of argument '{name}' "
                         f"has shape {list(spec.shape)}, but the argument has shape {shape}")
    if tensor.dtype != spec.dtype:
        raise TypeError(f"to_static({function_name}): input_spec[{index}] of argument '{name}' "
                        f"has dtype {spec.dtype.name}, but the argument has dtype "
                        f"{tensor.dtype.name}")


def _convert_sublayer_forwards(layer):
    """Gives the sublayers of user-defined classes their forward with `if`/`while` converted
    for the trace (Paddle's layers hold no tensor-conditioned Python); returns those
    sublayers, whose instance attribute `forward` the caller deletes afterwards."""
    converted = []
    for sub in layer.sublayers():
        cls = type(sub)
        if "forward" in sub.__dict__ or cls.__module__.split(".")[0] == "paddle":
            continue
        forward = getattr(cls, "forward", None)
        function = convert_function(forward) if isinstance(forward, types.FunctionType) \
            else forward
        if function is not forward:
            object.__setattr__(sub, "forward", types.MethodType(function, sub))
            converted.append(sub)
    return converted


def _swap_in_variables(layer, block, parameters):
    """Replaces the parameters and buffers of `layer` and its sublayers by persistable
    variables of `block` named after them; returns (registry, key, original) to restore.
    `parameters` receives {name: eager tensor}."""
    swapped = []
    made = {}
    for sub in layer.sublayers(include_self=True):
        for registry_name in ("_parameters", "_buffers"):
            registry = getattr(sub, registry_name)
            for key, tensor in list(registry.items()):
                if tensor is None or not isinstance(tensor, Tensor):
                    continue
                var = made.get(id(tensor))
                if var is None:
                    name = tensor.name or unique_name.generate(f"{registry_name[1:]}_{key}")
                    if registry_name == "_parameters":
                        var = block.create_parameter(name, tensor.shape, tensor.dtype,
                                                     trainable=not tensor.stop_gradient)
                    else:
                        var = block.create_var(name=name, shape=tensor.shape,
                                               dtype=tensor.dtype, persistable=True)
                    made[id(tensor)] = var
                    parameters[name] = tensor
                swapped.append((registry, key, tensor))
                registry[key] = var
    return swapped


# ---- to_static --------------------------------------------------------------------------------

def to_static(function=None, input_spec=None, build_strategy=None, backend=None,
              full_graph=False, **kwargs):
    """Converts a function, a Layer method or a Layer (its forward) to run as a static
    program. As a decorator with or without arguments. build_strategy (its enable_inplace)
    applies when the program runs; backend may be None or 'CINN', and both run the program
    with the Executor. full_graph=True makes untraceable Python an error instead of a
    fallback to dygraph."""
    _check_input_spec("to_static", input_spec)
    _check_build_strategy(build_strategy)
    _check_backend(backend)

    def convert(target):
        if isinstance(target, Layer):
            forward = target.forward
            if isinstance(forward, StaticFunction):
                forward = forward._function
            else:
                forward = type(target).forward
            static = StaticFunction(forward, input_spec, build_strategy, backend, full_graph,
                                    instance=target, **kwargs)
            object.__setattr__(target, "forward", static)
            return target
        if isinstance(target, StaticFunction):
            return target
        if inspect.ismethod(target):
            return StaticFunction(target.__func__, input_spec, build_strategy, backend,
                                  full_graph, instance=target.__self__, **kwargs)
        if not callable(target):
            raise TypeError(f"to_static(): 'function' must be a function, a Layer or a Layer's "
                            f"method, but received {type(target).__name__}")
        return StaticFunction(target, input_spec, build_strategy, backend, full_graph,
                              **kwargs)

    if function is None:
        return convert
    return convert(function)


# ---- save / load ------------------------------------------------------------------------------

_SAVE_CONFIGS = ("output_spec", "with_hook", "combine_params", "clip_extra", "skip_forward",
                 "input_names_after_prune", "skip_prune_program")


def _static_function_of(layer):
    if isinstance(layer, StaticFunction):
        return layer
    if isinstance(layer, Layer):
        forward = layer.forward
        if isinstance(forward, StaticFunction):
            return forward
        return StaticFunction(type(layer).forward, instance=layer)
    raise TypeError(f"jit.save(): 'layer' must be a Layer or a function converted by "
                    f"to_static, but received {type(layer).__name__}")


def save(layer, path, input_spec=None, **configs):
    """Writes `path`.pdmodel (the traced forward pruned to its outputs, with feed and fetch
    ops) and `path`.pdiparams (the parameters and persistable buffers, Paddle's combined
    format), readable by paddle.static.load_inference_model and paddle.jit.load.

    input_spec (InputSpecs or Tensors for the forward's positional arguments) defaults to the
    one given to to_static, then to the program of the last call. configs: output_spec (the
    outputs to keep: a list of output indices' tensors or of ints), clip_extra,
    skip_prune_program; Paddle's other configs are accepted and change nothing here."""
    for key in configs:
        if key not in _SAVE_CONFIGS:
            raise ValueError(f"jit.save(): unknown config '{key}'; supported: "
                             f"{list(_SAVE_CONFIGS)}")
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path) or \
            os.fspath(path).endswith(("/", os.sep)):
        raise ValueError(f"jit.save(): 'path' must be a file path prefix like 'dir/model', but "
                         f"received {path!r}")
    static = _static_function_of(layer)
    input_spec = _check_input_spec("jit.save", input_spec)
    if input_spec is not None:
        concrete = static.get_concrete_program(*input_spec)
    elif static._input_spec is not None:
        concrete = static.get_concrete_program(*static._input_spec)
    elif static._last_program is not None:
        concrete = static._last_program
    else:
        raise ValueError("jit.save(): 'input_spec' is required when the layer was neither "
                         "converted with an input_spec nor called after to_static")
    outputs = _select_outputs(concrete.outputs, configs.get("output_spec"))
    concrete.bind_parameters()
    with scope_guard(concrete.scope):
        static_io.save_inference_model(
            os.fspath(path), concrete.inputs, outputs, _shared_executor(),
            program=concrete.main_program, clip_extra=configs.get("clip_extra", True),
            skip_prune_program=configs.get("skip_prune_program", False))


def _select_outputs(outputs, output_spec):
    if output_spec is None:
        return outputs
    if not isinstance(output_spec, (list, tuple)):
        raise TypeError(f"jit.save(): 'output_spec' must be a list, but received "
                        f"{type(output_spec).__name__}")
    selected = []
    for i, item in enumerate(output_spec):
        if isinstance(item, int) and not isinstance(item, bool):
            if not 0 <= item < len(outputs):
                raise IndexError(f"jit.save(): output_spec[{i}] = {item} is out of range for "
                                 f"{len(outputs)} outputs")
            selected.append(outputs[item])
        elif isinstance(item, Variable) and any(item.name == o.name for o in outputs):
            selected.append(item)
        else:
            raise ValueError(f"jit.save(): output_spec[{i}] must be an output index or an "
                             f"output variable of the traced program, but received {item!r}")
    return selected


def load(path, **configs):
    """The model written by jit.save (or save_inference_model) at `path` as a TranslatedLayer."""
    from .translated_layer import TranslatedLayer
    for key in configs:
        if key not in ("model_filename", "params_filename"):
            raise ValueError(f"jit.load(): unknown config '{key}'; supported: "
                             f"['model_filename', 'params_filename']")
    return TranslatedLayer._construct(os.fspath(path), configs)
