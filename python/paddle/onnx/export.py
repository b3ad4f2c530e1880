"""paddle.onnx.export: traces a dygraph Layer into a static Program and converts the
program's ops to ONNX nodes.

The `onnx` package builds and checks the model; it is imported only here, when a model is
exported, and is not a dependency of paddle.
"""
import contextlib

from .. import static
from ..base import libpaddle
from ..nn.layer.layers import Layer
from ..utils import unique_name
from .converter import MIN_OPSET, convert_program

__all__ = ["export"]


def _import_onnx():
    try:
        import onnx
    except ImportError as error:
        raise ImportError("paddle.onnx.export needs the 'onnx' package, which paddle does not "
                          "install: run `pip install onnx`") from error
    return onnx


def export(layer, path, input_spec=None, opset_version=9, **configs):
    """Writes `layer` (in inference mode) as the ONNX model `path + '.onnx'`.

    input_spec lists the inputs of `layer.forward`: paddle.static.InputSpec objects (or
    Tensors, whose shape and dtype are taken). A dimension of None or -1 stays symbolic in the
    model. Every op the forward runs must have an ONNX mapping at `opset_version`; otherwise
    a NotImplementedError names all the op types that have none.
    """
    onnx = _import_onnx()
    if not isinstance(layer, Layer):
        raise TypeError(f"paddle.onnx.export(): 'layer' must be a paddle.nn.Layer, but received "
                        f"{type(layer).__name__}")
    if not isinstance(path, str) or not path:
        raise TypeError(f"paddle.onnx.export(): 'path' must be a non-empty str, but received "
                        f"{path!r}")
    if libpaddle._in_static_mode():
        raise RuntimeError("paddle.onnx.export(): exports a dygraph Layer; call "
                           "paddle.disable_static() first")
    if configs:
        raise TypeError(f"paddle.onnx.export(): unsupported configs {sorted(configs)}")
    max_opset = onnx.defs.onnx_opset_version()
    if (not isinstance(opset_version, int) or isinstance(opset_version, bool)
            or not MIN_OPSET <= opset_version <= max_opset):
        raise ValueError(f"paddle.onnx.export(): 'opset_version' must be an int in "
                         f"[{MIN_OPSET}, {max_opset}] (the installed onnx package's newest), but "
                         f"received {opset_version!r}")
    specs = _input_specs(input_spec)
    program, feeds, fetches, values = _trace(layer, specs)
    model = convert_program(onnx, program, feeds, fetches, values, opset_version,
                            graph_name=type(layer).__name__)
    onnx.checker.check_model(model)
    onnx.save(model, path + ".onnx")


def _input_specs(input_spec):
    if input_spec is None:
        raise ValueError("paddle.onnx.export(): 'input_spec' is required: a list of "
                         "paddle.static.InputSpec describing the inputs of layer.forward")
    if not isinstance(input_spec, (list, tuple)):
        raise TypeError(f"paddle.onnx.export(): 'input_spec' must be a list of InputSpec, but "
                        f"received {type(input_spec).__name__}")
    specs = []
    for i, spec in enumerate(input_spec):
        if isinstance(spec, libpaddle.Tensor):
            spec = static.InputSpec.from_tensor(spec)
        elif not isinstance(spec, static.InputSpec):
            raise TypeError(f"paddle.onnx.export(): input_spec[{i}] must be an InputSpec or a "
                            f"Tensor, but received {type(spec).__name__}")
        specs.append(spec)
    names = [spec.name or f"x{i}" for i, spec in enumerate(specs)]
    if len(set(names)) != len(names):
        raise ValueError(f"paddle.onnx.export(): the inputs' names must differ, but received "
                         f"{names}")
    return list(zip(names, specs))


def _trace(layer, specs):
    """Runs layer.forward on static placeholders. Returns the program, the feed and fetch
    variables' names and {name: ndarray} of the parameters and buffers it reads."""
    program, startup = static.Program(), static.Program()
    values = {}
    with _inference_mode(layer), _static_mode(), unique_name.guard(), static.program_guard(
            program, startup), _static_parameters(layer, program.global_block(), values):
        feeds = [static.data(name, list(spec.shape), spec.dtype) for name, spec in specs]
        outputs = layer(*feeds)
    fetches = []
    for out in _flatten(outputs):
        if not isinstance(out, static.Variable):
            raise TypeError(f"paddle.onnx.export(): {type(layer).__name__}.forward must return "
                            f"Tensors, but one output is {type(out).__name__}")
        fetches.append(out.name)
    if not fetches:
        raise ValueError(f"paddle.onnx.export(): {type(layer).__name__}.forward returned no "
                         f"Tensor")
    return program, [name for name, _ in specs], fetches, values


def _flatten(outputs):
    if isinstance(outputs, (list, tuple)):
        for item in outputs:
            yield from _flatten(item)
    elif isinstance(outputs, dict):
        for item in outputs.values():
            yield from _flatten(item)
    else:
        yield outputs


@contextlib.contextmanager
def _static_mode():
    libpaddle._set_static_mode(True)
    try:
        yield
    finally:
        libpaddle._set_static_mode(False)


@contextlib.contextmanager
def _inference_mode(layer):
    sublayers = layer.sublayers(include_self=True)
    saved = [sub.training for sub in sublayers]
    layer.eval()
    try:
        yield
    finally:
        for sub, training in zip(sublayers, saved):
            sub.training = training


@contextlib.contextmanager
def _static_parameters(layer, block, values):
    """Replaces each parameter and buffer of `layer` by a persistable variable of `block` with
    the same name while the forward is traced, and records its value for the initializers.
    A tensor shared by several layers becomes one variable."""
    replaced = []
    by_id = {}
    try:
        for sub in layer.sublayers(include_self=True):
            for registry in (sub._parameters, sub._buffers):
                for key, tensor in list(registry.items()):
                    if tensor is None:
                        continue
                    var = by_id.get(id(tensor))
                    if var is None:
                        name = tensor.name or "param"
                        while name in values:
                            name = unique_name.generate(name)
                        values[name] = tensor.numpy()
                        var = block.create_var(name=name, shape=tensor.shape, dtype=tensor.dtype,
                                               persistable=True)
                        by_id[id(tensor)] = var
                    replaced.append((registry, key, tensor))
                    registry[key] = var
        yield
    finally:
        for registry, key, tensor in reversed(replaced):
            registry[key] = tensor
