"""paddle.summary: runs a network once on made-up inputs and prints PaddlePaddle's table of
layers (input and output shapes, parameter counts) and memory estimates."""
import numbers
import warnings
from collections import OrderedDict

import numpy as np

import paddle
from .. import nn
from ..autograd import no_grad
from ..base.framework import in_dynamic_mode
from ..base.libpaddle import Tensor
from ..static import InputSpec

__all__ = ["summary"]


def summary(net, input_size=None, dtypes=None, input=None):
    """Prints the layer table of `net` for inputs of `input_size` (a shape, an InputSpec or a
    list of them; the batch dimension may be None or -1) of `dtypes` (float32 by default), or
    for the tensors given as `input`. Returns {'total_params', 'trainable_params'}."""
    if not isinstance(net, nn.Layer):
        raise TypeError(f"summary(): 'net' must be a paddle.nn.Layer, but received "
                        f"{type(net).__name__}")
    if input_size is None and input is None:
        raise ValueError("summary(): input_size and input cannot be None at the same time")
    if input_size is None:
        input_size = _shapes_of(input)
    input_size = _normalize_input_size(input_size)

    if in_dynamic_mode():
        was_training = net.training
    else:
        warnings.warn("Your model was created in static graph mode, this may not get correct "
                      "summary information!")
        was_training = False
    if was_training:
        net.eval()
    text, params_info = summary_string(net, input_size, dtypes, input)
    print(text)
    if was_training:
        net.train()
    return params_info


def _shapes_of(input):
    if isinstance(input, Tensor):
        return tuple(input.shape)
    if isinstance(input, (list, tuple)):
        return [tuple(x.shape) for x in input]
    if isinstance(input, dict):
        return [tuple(x.shape) for x in input.values()]
    raise ValueError("summary(): 'input' must be a Tensor or a list, tuple or dict of "
                     f"Tensors to determine input_size, but received {type(input).__name__}")


def _is_flat_shape(shape):
    return isinstance(shape, (list, tuple)) and all(
        not isinstance(item, (list, tuple)) for item in shape)


def _normalize_input_size(input_size):
    if isinstance(input_size, InputSpec):
        input_size = tuple(input_size.shape)
    elif isinstance(input_size, list):
        items = []
        for item in input_size:
            if isinstance(item, int):
                item = (item,)
            if isinstance(item, InputSpec):
                item = tuple(item.shape)
            if not isinstance(item, (tuple, list)):
                raise TypeError(f"summary(): each item of a list 'input_size' must be a tuple "
                                f"or InputSpec, but received {type(item).__name__}")
            items.append(item)
        input_size = items
    elif isinstance(input_size, int):
        input_size = (input_size,)
    return _check_input(input_size)


def _check_input(input_size):
    if _is_flat_shape(input_size):
        return _check_shape(input_size)
    return [_check_input(item) for item in input_size]


def _check_shape(shape):
    unknown = 0
    checked = []
    for item in shape:
        if item is None or item == -1:
            unknown += 1
            if unknown > 1:
                raise ValueError("summary(): in 'input_size' only the batch dimension can be "
                                 f"None or -1, but received {list(shape)}")
            item = 1
        elif isinstance(item, numbers.Number) and item <= 0:
            raise ValueError(f"summary(): the dimensions of 'input_size' must be greater than "
                             f"zero, but received {item}")
        checked.append(item)
    return tuple(checked)


def _all_numbers(items):
    return all(isinstance(item, numbers.Number) for item in items)


def _nest_dtypes(input_size, dtype):
    if isinstance(input_size, (list, tuple)) and _all_numbers(input_size):
        return [dtype]
    return [_nest_dtypes(item, dtype) for item in input_size]


def _shape_of(value):
    if isinstance(value, Tensor) or hasattr(value, "shape") and not isinstance(value, np.ndarray):
        return list(value.shape)
    if isinstance(value, (list, tuple)):
        return [_shape_of(item) for item in value]
    return None


def _output_shape(output):
    if isinstance(output, (list, tuple)):
        return [_output_shape(item) for item in output]
    if hasattr(output, "shape"):
        return list(output.shape)
    return []


def _numel_of_shapes(shape):
    """The element count of an output: one shape's product, or the sum over nested shapes."""
    if _is_flat_shape(shape):
        return int(np.prod(shape)) if shape else 1
    return sum(_numel_of_shapes(item) for item in shape)


def _input_megabytes(input_size):
    if isinstance(input_size, (list, tuple)) and _all_numbers(input_size):
        return abs(np.prod(input_size) * 4.0 / (1024 ** 2.0))
    return sum(_input_megabytes(item) for item in input_size)


@no_grad()
def summary_string(model, input_size=None, dtypes=None, input=None):
    """(the table text, {'total_params', 'trainable_params'}) without printing."""
    if not isinstance(dtypes, (list, tuple)):
        dtypes = _nest_dtypes(input_size, dtypes or "float32")
    has_sublayers = len(model.sublayers()) > 0
    rows = OrderedDict()

    def record(layer, inputs, output):
        class_name = type(layer).__name__
        try:
            index = int(layer._full_name.split("_")[-1])
        except ValueError:
            index = len(rows)
        row = OrderedDict()
        rows[f"{class_name}-{index + 1}"] = row
        row["input_shape"] = _shape_of(inputs)
        row["output_shape"] = _output_shape(output)
        params = layer._parameters if in_dynamic_mode() else layer.state_dict()
        row["nb_params"] = np.int64(0)
        row["trainable_params"] = 0
        any_trainable = False
        for name, value in params.items():
            if value is None:
                continue
            count = np.prod(value.shape, dtype=np.int64)
            row["nb_params"] += count
            parameter = getattr(layer, name, value)
            if getattr(parameter, "trainable", True) and not parameter.stop_gradient:
                row["trainable_params"] += count
                row["trainable"] = any_trainable = True
            elif not any_trainable:
                row["trainable"] = False

    hooks = []

    def attach(layer):
        if isinstance(layer, (nn.Sequential, nn.LayerList)):
            return
        if layer is model and has_sublayers:
            return
        hooks.append(layer.register_forward_post_hook(record))

    if isinstance(input_size, tuple):
        input_size = [input_size]

    def build_input(size, dtype):
        if isinstance(size, (list, tuple)) and _all_numbers(size):
            dtype = dtype[0] if isinstance(dtype, (list, tuple)) else dtype
            return paddle.cast(paddle.rand(list(size)), dtype)
        return [build_input(item, item_dtype) for item, item_dtype in zip(size, dtype)]

    model.apply(attach)
    try:
        if input is not None:
            model(input)
        else:
            model(*build_input(input_size, dtypes))
    finally:
        for hook in hooks:
            hook.remove()
    return _format_table(rows, input_size)


def _format_table(rows, input_size):
    widths = {"layer": 15, "input": 20, "output": 20, "params": 15}
    for name, row in rows.items():
        widths["layer"] = max(widths["layer"], len(name))
        widths["input"] = max(widths["input"], len(str(row["input_shape"])))
        widths["output"] = max(widths["output"], len(str(row["output_shape"])))
        widths["params"] = max(widths["params"], len(str(row["nb_params"])))
    table_width = max(75, sum(widths.values()) + 5)

    def line(layer, input_shape, output_shape, params):
        return (f"{layer:^{widths['layer']}} {input_shape:^{widths['input']}} "
                f"{output_shape:^{widths['output']}} {params:^{widths['params']}}\n")

    text = "-" * table_width + "\n"
    text += line("Layer (type)", "Input Shape", "Output Shape", "Param #")
    text += "=" * table_width + "\n"
    total_params = np.int64(0)
    trainable_params = np.int64(0)
    total_output = 0
    for name, row in rows.items():
        text += line(name, str(row["input_shape"]), str(row["output_shape"]),
                     f"{row['nb_params']:,}")
        total_params += row["nb_params"]
        total_output += _numel_of_shapes(row["output_shape"])
        if row.get("trainable"):
            trainable_params += row["trainable_params"]
    input_mb = _input_megabytes(input_size)
    output_mb = abs(2.0 * total_output * 4.0 / (1024 ** 2.0))  # x2 for the gradients
    params_mb = abs(total_params * 4.0 / (1024 ** 2.0))
    text += "=" * table_width + "\n"
    text += f"Total params: {total_params:,}\n"
    text += f"Trainable params: {trainable_params:,}\n"
    text += f"Non-trainable params: {total_params - trainable_params:,}\n"
    text += "-" * table_width + "\n"
    text += f"Input size (MB): {input_mb:0.2f}\n"
    text += f"Forward/backward pass size (MB): {output_mb:0.2f}\n"
    text += f"Params size (MB): {params_mb:0.2f}\n"
    text += f"Estimated Total Size (MB): {params_mb + output_mb + input_mb:0.2f}\n"
    text += "-" * table_width + "\n"
    return text, {"total_params": total_params, "trainable_params": trainable_params}
