"""Converts the ops of a static Program to an ONNX graph.

Each mapped Paddle op type (its legacy name, slots and attributes, as a .pdmodel stores them)
has a function that appends the equivalent ONNX nodes. The ONNX operators whose signature
changed between opsets (attributes that became inputs: Slice at 10, Split/Squeeze/Unsqueeze/
ReduceSum at 13, ReduceMean at 18) are emitted in the form of the requested opset.
"""
import math

import numpy as np

from ..base.framework import to_numpy_dtype

MIN_OPSET = 9

# Paddle's VarType.Type numbers, as the dtype attributes of cast and fill_constant hold them.
_VAR_TYPE_TO_NUMPY = {0: np.bool_, 1: np.int16, 2: np.int32, 3: np.int64, 4: np.float16,
                      5: np.float32, 6: np.float64, 20: np.uint8, 21: np.int8}

# Ops of the program that the ONNX graph does not contain: feeding and fetching are the graph's
# inputs and outputs.
_SKIPPED = {"feed", "fetch"}


class _Graph:
    """The ONNX nodes and initializers being built, with the static shapes and dtypes of the
    program's variables."""

    def __init__(self, onnx, block, opset):
        self.onnx = onnx
        self.block = block
        self.opset = opset
        self.nodes = []
        self.initializers = []
        self._count = 0

    # ---- the program's variables -----------------------------------------------------------
    def shape(self, name):
        return list(self.block._var_recursive(name).shape)

    def rank(self, name):
        return len(self.shape(name))

    def np_dtype(self, name):
        return np.dtype(to_numpy_dtype(self.block._var_recursive(name).dtype))

    # ---- building --------------------------------------------------------------------------
    def fresh(self, hint):
        self._count += 1
        return f"{hint}@onnx_{self._count}"

    def node(self, op_type, inputs, outputs=None, **attrs):
        """Appends an ONNX node; returns its output name (or the list of several)."""
        if outputs is None:
            outputs = [self.fresh(op_type)]
        elif isinstance(outputs, str):
            outputs = [outputs]
        attrs = {k: v for k, v in attrs.items() if v is not None}
        self.nodes.append(self.onnx.helper.make_node(op_type, list(inputs), list(outputs),
                                                     **attrs))
        return outputs[0] if len(outputs) == 1 else outputs

    def const(self, value, dtype=None, hint="const"):
        array = np.asarray(value, dtype=dtype)
        name = self.fresh(hint)
        self.initializers.append(self.onnx.numpy_helper.from_array(array, name))
        return name

    def int64s(self, values):
        return self.const(np.asarray(values, dtype=np.int64), hint="ints")

    # ---- operators whose form depends on the opset -----------------------------------------
    def unsqueeze(self, x, axes, output=None):
        if self.opset >= 13:
            return self.node("Unsqueeze", [x, self.int64s(axes)], output)
        return self.node("Unsqueeze", [x], output, axes=list(axes))

    def squeeze(self, x, axes, output=None):
        if self.opset >= 13:
            return self.node("Squeeze", [x, self.int64s(axes)], output)
        return self.node("Squeeze", [x], output, axes=list(axes))

    def reduce_mean(self, x, axes):
        if self.opset >= 18:
            return self.node("ReduceMean", [x, self.int64s(axes)], keepdims=1)
        return self.node("ReduceMean", [x], axes=list(axes), keepdims=1)

    def slice(self, x, axes, starts, ends, output=None):
        if self.opset >= 10:
            return self.node("Slice", [x, self.int64s(starts), self.int64s(ends),
                                       self.int64s(axes)], output)
        return self.node("Slice", [x], output, axes=list(axes), starts=list(starts),
                         ends=list(ends))

    def split(self, x, axis, sizes, outputs):
        """Splits x along axis into `outputs`: sizes given, or equal parts for None."""
        if sizes is None:
            if self.opset >= 18:
                return self.node("Split", [x], outputs, axis=axis, num_outputs=len(outputs))
            return self.node("Split", [x], outputs, axis=axis)
        if self.opset >= 13:
            return self.node("Split", [x, self.int64s(sizes)], outputs, axis=axis)
        return self.node("Split", [x], outputs, axis=axis, split=list(sizes))


def _first(op, slot):
    """The one variable of `slot`, or None when the op leaves the slot empty."""
    if slot not in op.input_names and slot not in op.output_names:
        return None
    names = op.input(slot) if slot in op.input_names else op.output(slot)
    return names[0] if names else None


def _attr(op, name, default=None):
    return op.attr(name) if op.has_attr(name) else default


def _reject_tensor_inputs(op, *slots):
    """Attributes that a Paddle op may take from a tensor instead: the exporter maps only the
    attribute form."""
    for slot in slots:
        if slot in op.input_names and op.input(slot):
            raise NotImplementedError(f"paddle.onnx.export: op '{op.type}' with input "
                                      f"'{slot}' (an attribute computed at run time) has no "
                                      f"ONNX mapping; only the attribute form is exported")


def _norm_axis(axis, rank):
    return axis + rank if axis < 0 else axis


# ---- math ------------------------------------------------------------------------------------
def _matmul_v2(g, op):
    x, y = _first(op, "X"), _first(op, "Y")
    x = _transposed_last_two(g, x) if _attr(op, "trans_x", False) else x
    y = _transposed_last_two(g, y) if _attr(op, "trans_y", False) else y
    g.node("MatMul", [x, y], _first(op, "Out"))


def _transposed_last_two(g, name):
    rank = g.rank(name)
    if rank < 2:
        return name
    perm = list(range(rank - 2)) + [rank - 1, rank - 2]
    return g.node("Transpose", [name], perm=perm)


def _reshape_to_static(g, x, shape, op, output):
    """Reshape to a shape known when the program was built, up to one unknown dimension."""
    if sum(1 for d in shape if d < 0) > 1:
        raise NotImplementedError(f"paddle.onnx.export: op '{op.type}' has an output of shape "
                                  f"{shape} with more than one unknown dimension, which the "
                                  f"exporter cannot express as one Reshape")
    return g.node("Reshape", [x, g.int64s(shape)], output)


def _mul(g, op):
    """The fc op `mul`: x and y flattened to matrices at x_num_col_dims/y_num_col_dims."""
    x, y, out = _first(op, "X"), _first(op, "Y"), _first(op, "Out")
    x_cols, y_cols = _attr(op, "x_num_col_dims", 1), _attr(op, "y_num_col_dims", 1)
    x2 = x if g.rank(x) == 2 and x_cols == 1 else g.node("Flatten", [x], axis=x_cols)
    y2 = y if g.rank(y) == 2 and y_cols == 1 else g.node("Flatten", [y], axis=y_cols)
    if g.rank(out) == 2:
        g.node("MatMul", [x2, y2], out)
    else:
        _reshape_to_static(g, g.node("MatMul", [x2, y2]), g.shape(out), op, out)


def _elementwise(onnx_type):
    def convert(g, op):
        x, y = _first(op, "X"), _first(op, "Y")
        rank_x, rank_y = g.rank(x), g.rank(y)
        axis = _attr(op, "axis", -1)
        # Paddle aligns y with x's dimensions from `axis`; NumPy broadcasting aligns trailing
        # dimensions, so y gets trailing 1s where the two differ.
        if axis != -1 and rank_y < rank_x and axis != rank_x - rank_y:
            trailing = rank_x - _norm_axis(axis, rank_x) - rank_y
            y = g.node("Reshape", [y, g.int64s([0] * rank_y + [1] * trailing)])
        g.node(onnx_type, [x, y], _first(op, "Out"))
    return convert


def _unary(onnx_type):
    def convert(g, op):
        g.node(onnx_type, [_first(op, "X")], _first(op, "Out"))
    return convert


def _gelu(g, op):
    x, out = _first(op, "X"), _first(op, "Out")
    approximate = bool(_attr(op, "approximate", False))
    if g.opset >= 20:
        g.node("Gelu", [x], out, approximate="tanh" if approximate else "none")
        return
    dtype = g.np_dtype(x)
    if approximate:
        # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        cube = g.node("Mul", [g.node("Mul", [x, x]), x])
        inner = g.node("Add", [x, g.node("Mul", [cube, g.const(0.044715, dtype)])])
        core = g.node("Tanh", [g.node("Mul", [inner, g.const(math.sqrt(2 / math.pi), dtype)])])
    else:
        # 0.5 x (1 + erf(x / sqrt(2)))
        core = g.node("Erf", [g.node("Div", [x, g.const(math.sqrt(2.0), dtype)])])
    half_x = g.node("Mul", [x, g.const(0.5, dtype)])
    g.node("Mul", [half_x, g.node("Add", [core, g.const(1.0, dtype)])], out)


def _softmax(g, op):
    x, out = _first(op, "X"), _first(op, "Out")
    rank = g.rank(x)
    axis = _norm_axis(_attr(op, "axis", -1), rank)
    if g.opset >= 13 or axis == rank - 1:
        # Before opset 13 Softmax flattens x to a matrix at `axis`, which is the softmax over
        # `axis` only when it is the last dimension.
        g.node("Softmax", [x], out, axis=axis)
        return
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    moved = g.node("Softmax", [g.node("Transpose", [x], perm=perm)], axis=rank - 1)
    g.node("Transpose", [moved], out, perm=perm)


def _scale(g, op):
    _reject_tensor_inputs(op, "ScaleTensor")
    x, out = _first(op, "X"), _first(op, "Out")
    dtype = g.np_dtype(x)
    scale, bias = _attr(op, "scale", 1.0), _attr(op, "bias", 0.0)
    if bias == 0.0:
        g.node("Mul", [x, g.const(scale, dtype)], out)
    elif _attr(op, "bias_after_scale", True):
        g.node("Add", [g.node("Mul", [x, g.const(scale, dtype)]), g.const(bias, dtype)], out)
    else:
        g.node("Mul", [g.node("Add", [x, g.const(bias, dtype)]), g.const(scale, dtype)], out)


def _dropout(g, op):
    x, out = _first(op, "X"), _first(op, "Out")
    if _attr(op, "dropout_implementation", "downgrade_in_infer") == "downgrade_in_infer":
        # Inference scales by the keep probability instead of scaling in training.
        keep = 1.0 - _attr(op, "dropout_prob", 0.5)
        g.node("Mul", [x, g.const(keep, g.np_dtype(x))], out)
    else:
        g.node("Identity", [x], out)


def _reduce(onnx_type, axes_input_opset):
    def convert(g, op):
        x, out = _first(op, "X"), _first(op, "Out")
        out_dtype = _VAR_TYPE_TO_NUMPY.get(_attr(op, "out_dtype", -1))
        if out_dtype is not None and np.dtype(out_dtype) != g.np_dtype(x):
            x = g.node("Cast", [x], to=g.onnx.helper.np_dtype_to_tensor_dtype(
                np.dtype(out_dtype)))
        rank = g.rank(x)
        axes = [] if _attr(op, "reduce_all", False) else list(_attr(op, "dim", []))
        # No axes reduces all of them, in both ONNX forms.
        axes = sorted(_norm_axis(a, rank) for a in axes)
        keepdims = 1 if _attr(op, "keep_dim", False) else 0
        if not axes:
            g.node(onnx_type, [x], out, keepdims=keepdims)
        elif g.opset >= axes_input_opset:
            g.node(onnx_type, [x, g.int64s(axes)], out, keepdims=keepdims)
        else:
            g.node(onnx_type, [x], out, axes=axes, keepdims=keepdims)
    return convert


def _lookup_table_v2(g, op):
    ids, weight, out = _first(op, "Ids"), _first(op, "W"), _first(op, "Out")
    padding_idx = _attr(op, "padding_idx", -1)
    if padding_idx < 0:
        g.node("Gather", [weight, ids], out, axis=0)
        return
    # Paddle's embedding gives zeros, not the weight's row, for the padding index.
    rows = g.node("Gather", [weight, ids], axis=0)
    is_padding = g.node("Equal", [ids, g.const(padding_idx, g.np_dtype(ids))])
    keep = g.node("Cast", [g.node("Not", [is_padding])],
                  to=g.onnx.helper.np_dtype_to_tensor_dtype(g.np_dtype(weight)))
    g.node("Mul", [rows, g.unsqueeze(keep, [g.rank(ids)])], out)


# ---- convolution, pooling, normalization -----------------------------------------------------
def _check_nchw(op):
    layout = _attr(op, "data_format", _attr(op, "data_layout", "NCHW"))
    if layout not in ("NCHW", "AnyLayout"):
        raise NotImplementedError(f"paddle.onnx.export: op '{op.type}' with data_format "
                                  f"'{layout}' has no ONNX mapping; ONNX convolution and "
                                  f"pooling are channels first (NCHW)")


def _onnx_pads(op, spatial):
    """Paddle's paddings ([h, w] or [top, bottom, left, right]) and padding_algorithm as
    ONNX's pads ([top, left, bottom, right]) or auto_pad."""
    algorithm = _attr(op, "padding_algorithm", "EXPLICIT")
    if algorithm == "SAME":
        return None, "SAME_UPPER"
    if algorithm == "VALID":
        return [0] * (2 * spatial), None
    paddings = list(_attr(op, "paddings", [0] * spatial))
    if len(paddings) == spatial:
        return paddings + paddings, None
    if len(paddings) == 2 * spatial:
        return paddings[0::2] + paddings[1::2], None
    raise ValueError(f"paddle.onnx.export: op '{op.type}' has paddings {paddings}; expected "
                     f"{spatial} or {2 * spatial} values")


def _conv2d(g, op):
    _check_nchw(op)
    x, w, out = _first(op, "Input"), _first(op, "Filter"), _first(op, "Output")
    pads, auto_pad = _onnx_pads(op, 2)
    inputs = [x, w]
    if _first(op, "Bias"):
        inputs.append(_first(op, "Bias"))
    g.node("Conv", inputs, out, kernel_shape=g.shape(w)[2:], pads=pads, auto_pad=auto_pad,
           strides=list(_attr(op, "strides", [1, 1])),
           dilations=list(_attr(op, "dilations", [1, 1])), group=_attr(op, "groups", 1))


def _pool2d(g, op):
    _check_nchw(op)
    x, out = _first(op, "X"), _first(op, "Out")
    kind = _attr(op, "pooling_type", "max")
    if kind not in ("max", "avg"):
        raise NotImplementedError(f"paddle.onnx.export: op 'pool2d' with pooling_type "
                                  f"'{kind}' has no ONNX mapping")
    onnx_kind = "Max" if kind == "max" else "Average"
    ksize = list(_attr(op, "ksize"))
    strides = list(_attr(op, "strides", [1, 1]))
    pads, auto_pad = _onnx_pads(op, 2)
    if _attr(op, "global_pooling", False) or (_attr(op, "adaptive", False) and ksize == [1, 1]):
        g.node(f"Global{onnx_kind}Pool", [x], out)
        return
    if _attr(op, "adaptive", False):
        # Adaptive pooling is plain pooling when each output cell covers an equal window.
        in_hw = g.shape(x)[2:]
        if any(d < 0 or d % k for d, k in zip(in_hw, ksize)):
            raise NotImplementedError(f"paddle.onnx.export: op 'pool2d' (adaptive) to output "
                                      f"size {ksize} from input size {in_hw} has no ONNX "
                                      f"mapping; it needs known input sizes divisible by the "
                                      f"output size")
        strides = [d // k for d, k in zip(in_hw, ksize)]
        ksize, pads, auto_pad = strides, [0, 0, 0, 0], None
    attrs = {"kernel_shape": ksize, "strides": strides, "pads": pads, "auto_pad": auto_pad}
    if _attr(op, "ceil_mode", False):
        if g.opset < 10:
            raise NotImplementedError(f"paddle.onnx.export: op 'pool2d' with ceil_mode=True "
                                      f"needs opset_version >= 10, received {g.opset}")
        attrs["ceil_mode"] = 1
    if kind == "avg":
        attrs["count_include_pad"] = 0 if _attr(op, "exclusive", True) else 1
    g.node(f"{onnx_kind}Pool", [x], out, **attrs)


def _batch_norm(g, op):
    _check_nchw(op)
    inputs = [_first(op, s) for s in ("X", "Scale", "Bias", "Mean", "Variance")]
    g.node("BatchNormalization", inputs, _first(op, "Y"), epsilon=_attr(op, "epsilon", 1e-5))


def _layer_norm(g, op):
    x, y = _first(op, "X"), _first(op, "Y")
    scale, bias = _first(op, "Scale"), _first(op, "Bias")
    rank = g.rank(x)
    axis = _norm_axis(_attr(op, "begin_norm_axis", 1), rank)
    epsilon = _attr(op, "epsilon", 1e-5)
    dtype = g.np_dtype(x)
    normalized = g.shape(x)[axis:]
    # Paddle keeps scale and bias flat; ONNX broadcasts them against the normalized dimensions.
    if len(normalized) > 1 and (scale or bias or g.opset >= 17):
        if any(d < 0 for d in normalized):
            raise NotImplementedError(f"paddle.onnx.export: op 'layer_norm' over dimensions "
                                      f"{normalized} of unknown size has no ONNX mapping")
        scale = scale and g.node("Reshape", [scale, g.int64s(normalized)])
        bias = bias and g.node("Reshape", [bias, g.int64s(normalized)])
    if g.opset >= 17:
        if scale is None:
            scale = g.const(np.ones(normalized, dtype))
        inputs = [x, scale] + ([bias] if bias else [])
        g.node("LayerNormalization", inputs, y, axis=axis, epsilon=epsilon)
        return
    axes = list(range(axis, rank))
    centered = g.node("Sub", [x, g.reduce_mean(x, axes)])
    variance = g.reduce_mean(g.node("Mul", [centered, centered]), axes)
    std = g.node("Sqrt", [g.node("Add", [variance, g.const(epsilon, dtype)])])
    result = g.node("Div", [centered, std])
    if scale:
        result = g.node("Mul", [result, scale])
    if bias:
        result = g.node("Add", [result, bias])
    g.node("Identity", [result], y)


# ---- shape manipulation ----------------------------------------------------------------------
def _reshape(g, op):
    _reject_tensor_inputs(op, "ShapeTensor")
    x, out = _first(op, "X"), _first(op, "Out")
    shape_input = _first(op, "Shape")
    if shape_input:
        shape = g.node("Cast", [shape_input], to=g.onnx.TensorProto.INT64)
    else:
        shape = g.int64s(list(_attr(op, "shape")))
    g.node("Reshape", [x, shape], out)


def _transpose(g, op):
    g.node("Transpose", [_first(op, "X")], _first(op, "Out"), perm=list(_attr(op, "axis")))


def _flatten(g, op):
    x, out = _first(op, "X"), _first(op, "Out")
    rank = g.rank(x)
    start = _norm_axis(_attr(op, "start_axis", 1), rank)
    stop = _norm_axis(_attr(op, "stop_axis", -1), rank)
    if stop == rank - 1 and start > 0:
        g.node("Flatten", [x], out, axis=start)
    elif rank == 0:
        g.node("Reshape", [x, g.int64s([1])], out)
    else:
        # 0 keeps a leading dimension as it is, whatever its size.
        tail = g.shape(x)[stop + 1:]
        if any(d < 0 for d in tail):
            _reshape_to_static(g, x, g.shape(out), op, out)
        else:
            g.node("Reshape", [x, g.int64s([0] * start + [-1] + tail)], out)


def _concat(g, op):
    _reject_tensor_inputs(op, "AxisTensor")
    inputs = op.input("X")
    axis = _norm_axis(_attr(op, "axis", 0), g.rank(inputs[0]))
    g.node("Concat", inputs, _first(op, "Out"), axis=axis)


def _split(g, op):
    _reject_tensor_inputs(op, "AxisTensor", "SectionsTensorList")
    x, outputs = _first(op, "X"), op.output("Out")
    axis = _norm_axis(_attr(op, "axis", 0), g.rank(x))
    sections = list(_attr(op, "sections", []))
    # Paddle's split is equal parts when `num` is set or, in this framework's programs, when
    # `sections` holds one count; otherwise `sections` are the sizes, one of them maybe -1.
    if _attr(op, "num", 0) or len(sections) <= 1:
        g.split(x, axis, None, outputs)
        return
    if -1 in sections:
        size = g.shape(x)[axis]
        if size < 0:
            raise NotImplementedError(f"paddle.onnx.export: op 'split' with sections "
                                      f"{sections} along a dimension of unknown size has no "
                                      f"ONNX mapping")
        sections[sections.index(-1)] = size - sum(s for s in sections if s != -1)
    g.split(x, axis, sections, outputs)


def _slice(g, op):
    _reject_tensor_inputs(op, "StartsTensor", "EndsTensor", "StartsTensorList",
                          "EndsTensorList")
    x, out = _first(op, "Input"), _first(op, "Out")
    decrease = list(_attr(op, "decrease_axis", []))
    sliced = g.slice(x, list(_attr(op, "axes")), list(_attr(op, "starts")),
                     list(_attr(op, "ends")), None if decrease else out)
    if decrease:
        rank = g.rank(x)
        g.squeeze(sliced, sorted(_norm_axis(a, rank) for a in decrease), out)


def _unsqueeze(g, op):
    _reject_tensor_inputs(op, "AxesTensor", "AxesTensorList")
    x, out = _first(op, "X"), _first(op, "Out")
    # Paddle inserts the axes one after another, each relative to the rank so far; ONNX's
    # axes index the output.
    dims = [False] * g.rank(x)
    for axis in _attr(op, "axes"):
        position = axis + len(dims) + 1 if axis < 0 else axis
        dims.insert(position, True)
    g.unsqueeze(x, [i for i, new in enumerate(dims) if new], out)


def _squeeze(g, op):
    x, out = _first(op, "X"), _first(op, "Out")
    shape = g.shape(x)
    axes = [_norm_axis(a, len(shape)) for a in _attr(op, "axes", [])]
    if not axes:
        axes = [i for i, d in enumerate(shape) if d == 1]
    # Paddle leaves an axis whose size is not 1 in place, where ONNX would fail.
    axes = sorted(set(a for a in axes if shape[a] in (1, -1)))
    if axes:
        g.squeeze(x, axes, out)
    else:
        g.node("Identity", [x], out)


def _cast(g, op):
    dtype = _VAR_TYPE_TO_NUMPY.get(_attr(op, "out_dtype"))
    if dtype is None:
        raise NotImplementedError(f"paddle.onnx.export: op 'cast' to dtype "
                                  f"{_attr(op, 'out_dtype')} has no ONNX mapping")
    g.node("Cast", [_first(op, "X")], _first(op, "Out"),
           to=g.onnx.helper.np_dtype_to_tensor_dtype(np.dtype(dtype)))


def _fill_constant(g, op):
    _reject_tensor_inputs(op, "ShapeTensor", "ShapeTensorList", "ValueTensor")
    dtype = _VAR_TYPE_TO_NUMPY.get(_attr(op, "dtype"))
    if dtype is None:
        raise NotImplementedError(f"paddle.onnx.export: op 'fill_constant' of dtype "
                                  f"{_attr(op, 'dtype')} has no ONNX mapping")
    text = _attr(op, "str_value", "")
    value = float(text) if text else _attr(op, "value", 0.0)
    array = np.full(list(_attr(op, "shape", [])), value, dtype=dtype)
    g.node("Identity", [g.const(array)], _first(op, "Out"))


def _assign_value(g, op):
    out = _first(op, "Out")
    values = next((list(_attr(op, slot)) for slot in ("values", "fp32_values", "int32_values",
                                                      "int64_values", "bool_values")
                   if op.has_attr(slot) and _attr(op, slot)), [])
    array = np.asarray(values, dtype=g.np_dtype(out)).reshape(list(_attr(op, "shape", [])))
    g.node("Identity", [g.const(array)], out)


def _assign(g, op):
    g.node("Identity", [_first(op, "X")], _first(op, "Out"))


CONVERTERS = {
    "matmul_v2": _matmul_v2,
    "mul": _mul,
    "elementwise_add": _elementwise("Add"),
    "elementwise_sub": _elementwise("Sub"),
    "elementwise_mul": _elementwise("Mul"),
    "elementwise_div": _elementwise("Div"),
    "relu": _unary("Relu"),
    "sigmoid": _unary("Sigmoid"),
    "tanh": _unary("Tanh"),
    "gelu": _gelu,
    "reduce_mean": _reduce("ReduceMean", 18),
    "reduce_sum": _reduce("ReduceSum", 13),
    "lookup_table_v2": _lookup_table_v2,
    "softmax": _softmax,
    "scale": _scale,
    "dropout": _dropout,
    "conv2d": _conv2d,
    "depthwise_conv2d": _conv2d,
    "pool2d": _pool2d,
    "batch_norm": _batch_norm,
    "layer_norm": _layer_norm,
    "reshape": _reshape,
    "reshape2": _reshape,
    "transpose": _transpose,
    "transpose2": _transpose,
    "flatten_contiguous_range": _flatten,
    "concat": _concat,
    "split": _split,
    "slice": _slice,
    "unsqueeze": _unsqueeze,
    "unsqueeze2": _unsqueeze,
    "squeeze": _squeeze,
    "squeeze2": _squeeze,
    "cast": _cast,
    "fill_constant": _fill_constant,
    "full": _fill_constant,
    "assign_value": _assign_value,
    "assign": _assign,
}


def _unsupported_op_types(program):
    """{op type: count} of the ops without an ONNX mapping, in all blocks."""
    missing = {}
    for block in program.blocks:
        for op in block.ops:
            if op.type not in CONVERTERS and op.type not in _SKIPPED:
                missing[op.type] = missing.get(op.type, 0) + 1
    return missing


def _value_info(onnx, name, var):
    shape = [None if d < 0 else d for d in var.shape]
    elem = onnx.helper.np_dtype_to_tensor_dtype(np.dtype(to_numpy_dtype(var.dtype)))
    return onnx.helper.make_tensor_value_info(name, elem, shape)


def convert_program(onnx, program, feeds, fetches, values, opset, graph_name):
    """The ONNX ModelProto of `program`: inputs `feeds`, outputs `fetches`, and `values`
    ({name: ndarray}) as initializers."""
    missing = _unsupported_op_types(program)
    if missing:
        listed = ", ".join(f"'{t}' ({n} op{'s' if n > 1 else ''})"
                           for t, n in sorted(missing.items()))
        raise NotImplementedError(f"paddle.onnx.export: no ONNX mapping for op type(s) "
                                  f"{listed}; mapped op types: {', '.join(sorted(CONVERTERS))}")
    block = program.global_block()
    g = _Graph(onnx, block, opset)
    for op in block.ops:
        if op.type not in _SKIPPED:
            CONVERTERS[op.type](g, op)
    initializers = [onnx.numpy_helper.from_array(values[name], name)
                    for name in sorted(values)] + g.initializers
    _check_defined(g.nodes, feeds, fetches, initializers)
    graph = onnx.helper.make_graph(
        g.nodes, graph_name, [_value_info(onnx, n, block.var(n)) for n in feeds],
        [_value_info(onnx, n, block._var_recursive(n)) for n in fetches], initializers)
    opset_ids = [onnx.helper.make_opsetid("", opset)]
    model = onnx.helper.make_model(graph, opset_imports=opset_ids,
                                   producer_name="paddle.onnx.export")
    model.ir_version = onnx.helper.find_min_ir_version_for(opset_ids)
    return model


def _check_defined(nodes, feeds, fetches, initializers):
    """Every value a node reads or the graph returns must be computed: an op output that the
    mapping does not produce (layer_norm's Mean, say) is an error here, not a broken model."""
    defined = set(feeds) | {t.name for t in initializers}
    for node in nodes:
        for name in node.input:
            if name and name not in defined:
                raise NotImplementedError(f"paddle.onnx.export: ONNX node '{node.op_type}' "
                                          f"reads '{name}', an op output that the exporter "
                                          f"does not compute")
        defined.update(node.output)
    for name in fetches:
        if name not in defined:
            raise NotImplementedError(f"paddle.onnx.export: the output '{name}' is an op "
                                      f"output that the exporter does not compute")
