"""Names the layer that a bad input failed in. An op's error names the op and the shapes it was
given ("conv2d: the channels of 'input' ..."); in a model of a hundred convolutions that does
not say which one. Layer.__call__ passes a ValueError, TypeError or IndexError raised under it
through `name_failing_layer` on its way out, which appends the layer's path in the outermost
layer, its configuration and its input shapes to the message:

    conv2d: the channels of 'input' (3, ...) must equal the filter's dim 1 (1) times 'groups' (1)
      [in layer features.0 of LeNet: Conv2D(1, 6, kernel_size=[3, 3], padding=1), given input
      of shape [2, 3, 28, 28]]

This costs nothing until an error is raised."""
from ...base import libpaddle

_TRAIL = "_paddle_layer_trail"


def _name_in(parent, child):
    """The structured name of `child` under `parent` ("layer1.0.conv1"), or its class name
    when it is not one of parent's sublayers (a layer called without being registered)."""
    for name, layer in parent._sub_layers.items():
        if layer is child:
            return name
    for name, layer in parent.named_sublayers():
        if layer is child:
            return name
    return f"<{type(child).__name__}>"


def _shapes(inputs):
    return [list(x.shape) for x in inputs if isinstance(x, libpaddle.Tensor)]


def name_failing_layer(error, layer, inputs):
    """Records `layer` (the latest one the error has passed through) on `error` and rewrites
    its message to name the innermost layer by its path from `layer`. Errors whose first
    argument is not a message are left alone."""
    if not error.args or not isinstance(error.args[0], str):
        return
    trail = getattr(error, _TRAIL, None)
    if trail is None:
        trail = {"message": error.args[0], "layers": [], "input_shapes": _shapes(inputs)}
        setattr(error, _TRAIL, trail)
    elif error.args[0] != trail["rewritten"]:
        return  # someone changed the message in between: keep theirs
    layers = trail["layers"]
    layers.append(layer)
    innermost = layers[0]
    described = f"{type(innermost).__name__}({innermost.extra_repr()})"
    shapes = trail["input_shapes"]
    given = (f", given input of shape {shapes[0]}" if len(shapes) == 1 else
             f", given inputs of shapes {shapes}" if shapes else "")
    if len(layers) == 1:
        where = f"in layer {described}{given}"
    else:
        path = ".".join(_name_in(parent, child)
                        for parent, child in zip(reversed(layers[1:]), reversed(layers[:-1])))
        where = f"in layer {path} of {type(layer).__name__}: {described}{given}"
    trail["rewritten"] = f"{trail['message']}\n  [{where}]"
    error.args = (trail["rewritten"],) + error.args[1:]
