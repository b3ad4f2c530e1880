"""paddle.flops: counts the floating-point operations of one forward pass of a network, layer
by layer, with PaddlePaddle's counting rules (multiply-adds of conv and linear layers, two per
element for batch norm in eval mode, ...), and prints its table."""
import numpy as np

import paddle
from .. import nn
from ..autograd import no_grad

__all__ = ["flops"]


def _count_conv(layer, inputs, output):
    kernel_ops = int(np.prod(layer.weight.shape[2:]))
    bias_ops = 1 if layer.bias is not None else 0
    in_channels = inputs[0].shape[1]
    return abs(int(int(np.prod(output.shape)) *
                   (in_channels / layer._groups * kernel_ops + bias_ops)))


def _count_input_elements(layer, inputs, output):
    return int(np.prod(inputs[0].shape))


def _count_batch_norm(layer, inputs, output):
    # flops() puts the network in eval mode: normalize and scale, two operations an element.
    return 2 * int(np.prod(inputs[0].shape))


def _count_linear(layer, inputs, output):
    return abs(int(layer.weight.shape[0] * int(np.prod(output.shape))))


def _count_avg_pool(layer, inputs, output):
    return int(np.prod(output.shape))


def _count_adaptive_avg_pool(layer, inputs, output):
    kernel = np.array(inputs[0].shape[2:]) // np.array(output.shape[2:])
    return abs(int((int(np.prod(kernel)) + 1) * int(np.prod(output.shape))))


def _count_zero(layer, inputs, output):
    return 0


_COUNTERS = {
    nn.Conv1D: _count_conv, nn.Conv2D: _count_conv, nn.Conv3D: _count_conv,
    nn.Conv1DTranspose: _count_conv, nn.Conv2DTranspose: _count_conv,
    nn.Conv3DTranspose: _count_conv,
    nn.BatchNorm2D: _count_batch_norm, nn.BatchNorm: _count_batch_norm,
    nn.ReLU: _count_zero, nn.ReLU6: _count_zero, nn.Dropout: _count_zero,
    nn.LeakyReLU: _count_input_elements,
    nn.Linear: _count_linear,
    nn.AvgPool1D: _count_avg_pool, nn.AvgPool2D: _count_avg_pool, nn.AvgPool3D: _count_avg_pool,
    nn.AdaptiveAvgPool1D: _count_adaptive_avg_pool,
    nn.AdaptiveAvgPool2D: _count_adaptive_avg_pool,
    nn.AdaptiveAvgPool3D: _count_adaptive_avg_pool,
}


class Table:
    """A text table drawn with +, - and |, cells centred (the layout PaddlePaddle prints)."""

    def __init__(self, heads):
        self.heads = list(heads)
        self.widths = [len(head) for head in heads]
        self.rows = []

    def add_row(self, row):
        if len(row) != len(self.heads):
            raise ValueError(f"Table.add_row(): a row needs {len(self.heads)} cells, but "
                             f"received {len(row)}")
        self.widths = [max(width, len(str(cell))) for width, cell in zip(self.widths, row)]
        self.rows.append(list(row))

    def _shelf(self):
        return "".join("+" + "-" * (width + 2) for width in self.widths) + "+"

    def _row(self, row):
        return "".join("|" + str(cell).center(width + 2)
                       for cell, width in zip(row, self.widths)) + "|"

    def text(self):
        lines = [self._shelf(), self._row(self.heads), self._shelf()]
        lines += [self._row(row) for row in self.rows]
        lines.append(self._shelf())
        return "\n".join(lines)

    def print_table(self):
        print(self.text())


def flops(net, input_size, custom_ops=None, print_detail=False):
    """The FLOPs of net(paddle.randn(input_size)) counted over its leaf layers; custom_ops maps
    a layer class to a function(layer, inputs, output) returning its count (the built-in rules
    cover conv, linear, batch norm, pooling and activations; other layers count as zero).
    print_detail prints the per-layer table. For a static Program (input_size is then
    unused) the ops of the program are counted."""
    from ..static import Program
    if isinstance(net, nn.Layer):
        if not isinstance(input_size, (list, tuple)):
            raise TypeError(f"flops(): 'input_size' must be a list or tuple shape, but received "
                            f"{type(input_size).__name__}")
        return dynamic_flops(net, paddle.randn(list(input_size)), custom_ops, print_detail)
    if isinstance(net, Program):
        from .static_flops import static_flops
        return static_flops(net, print_detail=print_detail)
    raise TypeError(f"flops(): 'net' must be a paddle.nn.Layer, but received "
                    f"{type(net).__name__}")


def _legacy_counter(function):
    """Adapts a PaddlePaddle-style custom counter, which adds to layer.total_ops, to the
    returned-count form used here."""
    def count(layer, inputs, output):
        layer.total_ops = 0
        result = function(layer, inputs, output)
        added = layer.__dict__.pop("total_ops", 0)
        return int(result) if result is not None else int(added)
    return count


@no_grad()
def dynamic_flops(model, inputs, custom_ops=None, print_detail=False):
    custom_ops = custom_ops or {}
    records = {}
    handles = []
    seen_types = set()

    def attach(layer):
        if len(list(layer.children())) > 0:
            return
        layer_type = type(layer)
        counter = None
        if layer_type in custom_ops:
            counter = _legacy_counter(custom_ops[layer_type])
            message = f"Customize Function has been applied to {layer_type}"
        elif layer_type in _COUNTERS:
            counter = _COUNTERS[layer_type]
            message = f"{layer_type}'s flops has been counted"
        else:
            message = (f"Cannot find suitable count function for {layer_type}. Treat it as "
                       f"zero FLOPs.")
        if layer_type not in seen_types:
            print(message)
            seen_types.add(layer_type)

        def record(layer, layer_inputs, output):
            first_output = output[0] if isinstance(output, (list, tuple)) else output
            entry = records.setdefault(id(layer), {"ops": 0})
            if counter is not None:
                entry["ops"] += counter(layer, layer_inputs, first_output)
            entry["params"] = sum(int(np.prod(p.shape)) for p in layer.parameters())
            entry["input_shape"] = list(layer_inputs[0].shape)
            entry["output_shape"] = list(first_output.shape)

        handles.append(layer.register_forward_post_hook(record))

    was_training = model.training
    model.eval()
    model.apply(attach)
    try:
        model(inputs)
    finally:
        if was_training:
            model.train()
        for handle in handles:
            handle.remove()

    table = Table(["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"])
    total_ops = 0
    total_params = 0
    for _, layer in model.named_sublayers():
        entry = records.get(id(layer))
        if entry is None or len(list(layer.children())) > 0:
            continue
        total_ops += entry["ops"]
        total_params += entry["params"]
        table.add_row([layer.full_name(), entry["input_shape"], entry["output_shape"],
                       entry["params"], entry["ops"]])
    if print_detail:
        table.print_table()
    print(f"Total Flops: {total_ops}     Total Params: {total_params}")
    return total_ops
