"""The op database of the harness: one OpInfo per op (or group of ops sharing an API)."""
import math

import numpy as np

import paddle
from harness import DTYPE, FLOAT_DTYPES, INTEGER_DTYPES, ErrorSample, OpInfo, Sample, to_numpy
from paddle.utils import unique_name
from static_testing import static_mode

vec_erf = np.vectorize(math.erf, otypes=[np.float64])


def uniform(rng, shape, low=-1.0, high=1.0):
    return np.asarray(rng.uniform(low, high, size=shape))


def away_from_zero(rng, shape, low=0.2, high=1.5):
    """Values whose magnitude stays clear of kinks at 0 (abs, relu, sign...)."""
    return np.asarray(rng.uniform(low, high, size=shape) * rng.choice([-1.0, 1.0], size=shape))


def np_dtype(dtype):
    """The NumPy dtype of a reference result in `dtype` (NumPy has no bfloat16: its results are
    compared in float32 with bfloat16's tolerance)."""
    return np.float32 if dtype == "bfloat16" else np.dtype(dtype)


def integral(*values):
    """A sample array of integers, the same values in every dtype (see harness.sample_values)."""
    return np.array(values, dtype=np.float64)


def binary_samples(low=-1.0, high=1.0, positive_y=False):
    def samples(rng):
        y = (lambda s: uniform(rng, s, 0.5, 2.0)) if positive_y else (lambda s: uniform(rng, s, low, high))
        return [
            Sample([uniform(rng, (3, 4), low, high), y((3, 4))]),
            Sample([uniform(rng, (2, 3, 4), low, high), y((4,))]),   # broadcast y
            Sample([uniform(rng, (3, 1), low, high), y((1, 4))]),    # broadcast both
            Sample([uniform(rng, (), low, high), y((2, 3))]),        # 0-d x
        ]
    return samples


def broadcast_error(api):
    return lambda: [ErrorSample([np.zeros((2, 3)), np.zeros((4,))], {}, ValueError, "[2, 3]")]


def _tensor_errors(api_name):
    return lambda: [ErrorSample([[1.0, 2.0], np.zeros((2,))], {}, TypeError, "must be")]


LINEAR = "linear in its inputs: the gradient is constant"

BINARY = [
    OpInfo("add", paddle.add, np.add, binary_samples(),
           second_order=True, no_second_order_reason=LINEAR, errors=broadcast_error("add")),
    OpInfo("subtract", paddle.subtract, np.subtract, binary_samples(),
           second_order=True, no_second_order_reason=LINEAR, errors=broadcast_error("subtract")),
    OpInfo("multiply", paddle.multiply, np.multiply, binary_samples(),
           second_order=True,
           errors=broadcast_error("multiply")),
    # True division: integer operands give a floating result, as in Paddle.
    OpInfo("divide", paddle.divide, np.divide, binary_samples(positive_y=True),
           second_order=True, errors=lambda: [
               ErrorSample([np.zeros((2, 3)), np.zeros((4,))], {}, ValueError, "divide")]),
    OpInfo("elementwise_pow", paddle.pow, np.power, binary_samples(0.5, 2.0),
           covers=["elementwise_pow"], only_dtypes=FLOAT_DTYPES, second_order=True),
    OpInfo("maximum", paddle.maximum, np.maximum, binary_samples(),
           errors=broadcast_error("maximum")),
    OpInfo("minimum", paddle.minimum, np.minimum, binary_samples()),
    OpInfo("floor_divide", paddle.floor_divide, np.floor_divide, binary_samples(0.5, 4.0, positive_y=True),
           nonfinite_reason="Paddle computes floor(x / y): inf // y is inf and x // -inf is -0.0, where "
                            "NumPy's divmod gives nan and -1",
           only_dtypes=FLOAT_DTYPES, grad=False),
    OpInfo("remainder", paddle.remainder, np.mod, lambda rng: [
        Sample([np.array([5.3, -5.3, 7.2, -7.2]), np.array([2.0, 2.0, -3.0, -3.0])])]),
]


def np_truncating_divide(x, y):
    """C++ integer division, which rounds toward zero."""
    return (np.sign(x) * np.sign(y) * (np.abs(x) // np.abs(y))).astype(x.dtype)


INTEGER_ARITHMETIC = [
    OpInfo("integer_floor_divide", paddle.floor_divide, np.floor_divide, lambda rng: [
        Sample([integral(7, -7, 7, -7, 0, 6), integral(2, 2, -2, -2, 3, 3)])],
        covers=["floor_divide"], only_dtypes=INTEGER_DTYPES, grad=False,
        errors=lambda: [ErrorSample([np.array([1, 2], dtype=np.int64), np.array([1, 0], dtype=np.int64)],
                                    {}, ValueError, "division by zero")]),
    OpInfo("integer_remainder", paddle.remainder, np.mod, lambda rng: [
        Sample([integral(7, -7, 7, -7, 0, 6), integral(3, 3, -3, -3, 3, 3)])],
        covers=["remainder"], only_dtypes=INTEGER_DTYPES, grad=False,
        no_grad_reason="integer remainders have no gradient"),
    # The kernel's own integer division (paddle.divide casts integers to float first).
    OpInfo("integer_divide", paddle._C_ops.divide, np_truncating_divide, lambda rng: [
        Sample([integral(7, -7, 7, -7, 0, 9), integral(2, 2, -2, -2, 3, 4)]),
        Sample([integral(5, 12, -12), integral(3)])],  # broadcast y
        covers=["divide"], only_dtypes=INTEGER_DTYPES, grad=False,
        no_grad_reason="integer quotients have no gradient"),
    OpInfo("integer_elementwise_pow", paddle.pow, np.power, lambda rng: [
        Sample([integral(2, 3, -2, 5, 0, 1, -1), integral(3, 2, 3, 0, 4, 7, 5)]),
        Sample([integral(2, -3), integral(0, 1, 2)[:, None]])],  # broadcast both
        covers=["elementwise_pow"], only_dtypes=INTEGER_DTYPES, grad=False,
        no_grad_reason="integer powers have no gradient"),
]


def compare(name, api, ref):
    return OpInfo(name, api, ref, lambda rng: [
        Sample([np.array([1.0, 2.0, 3.0, 4.0]), np.array([2.0, 2.0, 2.0, 2.0])]),
        Sample([uniform(rng, (2, 3)).round(1), uniform(rng, (3,)).round(1)])],
        grad=False, errors=broadcast_error(name))


def logical(name, api, ref):
    return OpInfo(name, api, ref, lambda rng: [
        Sample([integral(1, 1, 0, 0), integral(1, 0, 1, 0)]),
        Sample([uniform(rng, (2, 3)), uniform(rng, (3,))])],
        grad=False)


COMPARE = [
    compare("equal", paddle.equal, np.equal),
    compare("not_equal", paddle.not_equal, np.not_equal),
    compare("less_than", paddle.less_than, np.less),
    compare("less_equal", paddle.less_equal, np.less_equal),
    compare("greater_than", paddle.greater_than, np.greater),
    compare("greater_equal", paddle.greater_equal, np.greater_equal),
    logical("logical_and", paddle.logical_and, np.logical_and),
    logical("logical_or", paddle.logical_or, np.logical_or),
    logical("logical_xor", paddle.logical_xor, np.logical_xor),
    OpInfo("logical_not", paddle.logical_not, np.logical_not, lambda rng: [
        Sample([integral(1, 0, 1)]), Sample([np.array([0.0, 1.5, -2.0])])],
        grad=False),
]


def unary(name, api, ref, make=uniform, second_order=True, grad=True, **kwargs):
    return OpInfo(name, api, ref, lambda rng: [
        Sample([make(rng, (3, 4))]), Sample([make(rng, ())]), Sample([make(rng, (2, 0))])],
        grad=grad, second_order=second_order,
        errors=lambda: [ErrorSample([[1.0, 2.0]], {}, TypeError, "must be a Tensor")], **kwargs)


def as_dtype_of(x, value):
    """A Scalar attribute as a kernel in x's dtype sees it: integer kernels convert it to x's
    type first (truncating toward zero, and modulo 2^8 for uint8), as Paddle's do."""
    if value is None or x.dtype.kind not in "iu":
        return value
    return np.array(int(value)).astype(x.dtype)[()]


def np_scale(x, scale=1.0, bias=0.0, bias_after_scale=True):
    scale, bias = as_dtype_of(x, scale), as_dtype_of(x, bias)
    return scale * x + bias if bias_after_scale else scale * (x + bias)


def np_clip(x, min=None, max=None):
    return np.clip(x, as_dtype_of(x, min), as_dtype_of(x, max))


def positive(rng, shape):
    return np.asarray(rng.uniform(0.3, 2.0, size=shape))


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def gelu(x, approximate=False):
    if approximate:
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1 + vec_erf(x / math.sqrt(2)))


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


UNARY = [
    unary("exp", paddle.exp, np.exp),
    unary("log", paddle.log, np.log, make=positive),
    unary("sqrt", paddle.sqrt, np.sqrt, make=positive),
    unary("rsqrt", paddle.rsqrt, lambda x: 1 / np.sqrt(x), make=positive),
    unary("abs", paddle.abs, np.abs, make=away_from_zero),
    unary("sin", paddle.sin, np.sin),
    unary("cos", paddle.cos, np.cos),
    unary("tanh", paddle.tanh, np.tanh),
    unary("sigmoid", paddle.sigmoid, sigmoid),
    unary("relu", lambda x: paddle._C_ops.relu(x), lambda x: np.maximum(x, 0), make=away_from_zero,
          no_second_order_reason="relu is linear on each side of 0, where the samples stay"),
    unary("silu", lambda x: paddle._C_ops.silu(x), lambda x: x * sigmoid(x)),
    unary("erf", paddle.erf, vec_erf),
    unary("square", paddle.square, np.square),
    unary("reciprocal", paddle.reciprocal, np.reciprocal, make=away_from_zero),
    unary("sign", paddle.sign, np.sign, make=away_from_zero, second_order=False),
    unary("floor", paddle.floor, np.floor, second_order=False),
    unary("ceil", paddle.ceil, np.ceil, second_order=False),
    unary("round", paddle.round, np.round, second_order=False),
    OpInfo("gelu", lambda x, approximate=False: paddle._C_ops.gelu(x, approximate),
           gelu, lambda rng: [Sample([uniform(rng, (3, 4), -2, 2)]),
                              Sample([uniform(rng, (5,), -2, 2)], {"approximate": True})],
           second_order=True),
    OpInfo("pow", paddle.pow, np.power, lambda rng: [
        Sample([positive(rng, (3, 4)), 2.5]), Sample([uniform(rng, (4,)), 3]),
        Sample([positive(rng, (2, 2)), -1.5])], second_order=True),
    OpInfo("scale", paddle.scale, np_scale, lambda rng: [
        Sample([uniform(rng, (3, 4))], {"scale": 2.5, "bias": -1.0}),
        Sample([uniform(rng, (3,))], {"scale": -0.5, "bias": 2.0, "bias_after_scale": False}),
        Sample([uniform(rng, (2, 3))], {"scale": -3.0, "bias": 4.0})],
        second_order=True, no_second_order_reason=LINEAR),
    OpInfo("clip", paddle.clip, np_clip, lambda rng: [
        Sample([np.array([-2.0, -0.7, -0.2, 0.3, 0.8, 2.0])], {"min": -0.5, "max": 0.5}),
        Sample([uniform(rng, (3, 4))], {"min": 0.15}),
        Sample([uniform(rng, (3, 4))], {"max": 0.35}),
        Sample([integral(-5, -3, 0, 3, 7)], {"min": -2.5, "max": 4.5})],
        errors=lambda: [ErrorSample([np.zeros(3)], {"min": 1.0, "max": -1.0}, ValueError, "min")]),
    OpInfo("cast", lambda x, dtype: paddle.cast(x, dtype), lambda x, dtype: x.astype(dtype), lambda rng: [
        Sample([uniform(rng, (3, 4), -5, 5)], {"dtype": "float64"}),
        # float32 rounding swamps central differences; the float64 sample checks the gradient.
        Sample([uniform(rng, (3, 4), -5, 5)], {"dtype": "float32"}, grad_args=[]),
        Sample([np.array([-2.7, -0.5, 0.0, 0.5, 2.7])], {"dtype": "int32"}, grad_args=[]),
        Sample([np.array([-2.0, 0.0, 0.5])], {"dtype": "bool"}, grad_args=[])],
        errors=lambda: [ErrorSample([np.zeros(3)], {"dtype": "complex256"}, TypeError, "complex256")]),
    OpInfo("softmax", lambda x, axis=-1: paddle._C_ops.softmax(x, axis), softmax, lambda rng: [
        Sample([uniform(rng, (3, 5), -3, 3)]), Sample([uniform(rng, (2, 3, 4))], {"axis": 1})],
        second_order=True,
        errors=lambda: [ErrorSample([np.zeros((2, 3))], {"axis": 2}, IndexError, "axis")]),
    OpInfo("log_softmax", lambda x, axis=-1: paddle._C_ops.log_softmax(x, axis),
           lambda x, axis=-1: np.log(softmax(x, axis)), lambda rng: [
               Sample([uniform(rng, (3, 5), -3, 3)]), Sample([uniform(rng, (2, 3, 4))], {"axis": 0})],
           second_order=True),
    OpInfo("where", paddle.where, np.where, lambda rng: [
        Sample([rng.uniform(size=(3, 4)) > 0.5, uniform(rng, (3, 4)), uniform(rng, (3, 4))]),
        Sample([rng.uniform(size=(3, 1)) > 0.5, uniform(rng, (1, 4)), uniform(rng, (3, 4))])],
        errors=lambda: [ErrorSample([np.zeros((2,)), np.zeros(2), np.zeros(2)], {}, ValueError, "condition")]),
]


def reduce_samples(rng):
    return [
        Sample([uniform(rng, (3, 4))]),
        Sample([uniform(rng, (3, 4))], {"axis": 1}),
        Sample([uniform(rng, (2, 3, 4))], {"axis": [0, 2], "keepdim": True}),
        Sample([uniform(rng, (2, 3, 4))], {"axis": -1}),
        Sample([uniform(rng, ())]),
    ]


def np_reduce(fn):
    def ref(x, axis=None, keepdim=False):
        axis = tuple(axis) if isinstance(axis, list) else axis
        return fn(x, axis=axis, keepdims=keepdim)
    return ref


def reduce_error(api):
    return lambda: [ErrorSample([np.zeros((2, 3))], {"axis": 5}, IndexError, "axis")]


def distinct(rng, shape):
    """Values without ties, so max/min/arg* have one answer and smooth gradients: the integers
    from 0, which stay distinct in every dtype (unsigned included)."""
    n = int(np.prod(shape)) if shape else 1
    return rng.permutation(n).astype(np.float64).reshape(shape)


def distinct_reduce_samples(rng):
    return [Sample(s.args[:0] + [distinct(rng, np.asarray(s.args[0]).shape)], s.kwargs)
            for s in reduce_samples(rng)]


def argreduce(fn):
    def ref(x, axis=None, keepdim=False, dtype="int64"):
        if axis is None:
            out = fn(x.reshape(-1))
            return np.array(out).reshape([1] * x.ndim if keepdim else [])
        return fn(x, axis=axis, keepdims=keepdim)
    return ref


REDUCE = [
    OpInfo("sum", paddle.sum, np_reduce(np.sum), reduce_samples,
           second_order=True, no_second_order_reason=LINEAR,
           errors=reduce_error("sum")),
    OpInfo("sum_int32_to_int64", lambda x: paddle.sum(x), lambda x: np.sum(x, dtype=np.int64),
           lambda rng: [Sample([integral([1, 2], [3, 4])])],
           covers=["sum"], only_dtypes=("int32",), grad=False,
           no_grad_reason="integer sums have no gradient"),
    OpInfo("mean", paddle.mean, np_reduce(np.mean), reduce_samples,
           second_order=True, no_second_order_reason=LINEAR, errors=reduce_error("mean")),
    OpInfo("max", paddle.max, np_reduce(np.max), distinct_reduce_samples,
           errors=reduce_error("max")),
    OpInfo("min", paddle.min, np_reduce(np.min), distinct_reduce_samples),
    OpInfo("prod", paddle.prod, np_reduce(np.prod), lambda rng: [
        Sample([away_from_zero(rng, (3, 4))]), Sample([away_from_zero(rng, (3, 4))], {"axis": 0}),
        Sample([away_from_zero(rng, (2, 3, 2))], {"axis": [1, 2], "keepdim": True})],
        only_dtypes=FLOAT_DTYPES),
    # Small factors: the product of the float samples' integers would overflow int32.
    OpInfo("integer_prod", paddle.prod, np_reduce(np.prod), lambda rng: [
        Sample([integral([1, -2, 3], [2, 1, -1], [-1, 3, 2])]),
        Sample([integral([1, -2, 3], [0, 1, -1])], {"axis": 0}),
        Sample([integral([[2, -1], [3, 1]], [[1, 2], [-2, 2]])], {"axis": [1, 2], "keepdim": True})],
        covers=["prod"], only_dtypes=INTEGER_DTYPES, grad=False,
        no_grad_reason="integer products have no gradient"),
    OpInfo("argmax", paddle.argmax, argreduce(np.argmax), lambda rng: [
        Sample([distinct(rng, (3, 4))]), Sample([distinct(rng, (3, 4))], {"axis": 1}),
        Sample([distinct(rng, (2, 3, 4))], {"axis": 0, "keepdim": True})],
        grad=False,
        errors=lambda: [ErrorSample([np.zeros((2, 3))], {"axis": 3}, IndexError, "axis")]),
    OpInfo("argmin", paddle.argmin, argreduce(np.argmin), lambda rng: [
        Sample([distinct(rng, (3, 4))]), Sample([distinct(rng, (3, 4))], {"axis": -1})],
        grad=False),
]


def np_matmul(x, y, transpose_x=False, transpose_y=False):
    if transpose_x and x.ndim >= 2:
        x = np.swapaxes(x, -1, -2)
    if transpose_y and y.ndim >= 2:
        y = np.swapaxes(y, -1, -2)
    return np.matmul(x, y)


LINALG = [
    OpInfo("matmul", paddle.matmul, np_matmul, lambda rng: [
        Sample([uniform(rng, (3, 4)), uniform(rng, (4, 5))]),
        Sample([uniform(rng, (4, 3)), uniform(rng, (4, 5))], {"transpose_x": True}),
        Sample([uniform(rng, (3, 4)), uniform(rng, (5, 4))], {"transpose_y": True}),
        Sample([uniform(rng, (4, 3)), uniform(rng, (5, 4))], {"transpose_x": True, "transpose_y": True}),
        Sample([uniform(rng, (2, 3, 4)), uniform(rng, (4, 2))]),          # batched x, shared y
        Sample([uniform(rng, (2, 1, 3, 4)), uniform(rng, (3, 4, 2))]),    # broadcast batches
        Sample([uniform(rng, (4,)), uniform(rng, (4, 3))]),               # vector @ matrix
        Sample([uniform(rng, (2, 3, 4)), uniform(rng, (4,))]),            # batch @ vector
        Sample([uniform(rng, (4,)), uniform(rng, (4,))]),                 # dot
    ], second_order=True,
        errors=lambda: [ErrorSample([np.zeros((2, 3)), np.zeros((4, 5))], {}, ValueError, "matmul")]),
    OpInfo("fc", paddle._C_ops.fc, lambda x, w, b, k=1, act="", pad=False: np_fc(x, w, b, k, act),
           lambda rng: [
               Sample([uniform(rng, (3, 4)), uniform(rng, (4, 5)), uniform(rng, (5,)), 1, "", False]),
               Sample([uniform(rng, (2, 3, 4)), uniform(rng, (4, 2)), uniform(rng, (1, 2)), 2,
                       "relu", False]),
               Sample([uniform(rng, (2, 3, 2)), uniform(rng, (6, 3)), None, 1, "relu", False])],
           grad=False, no_grad_reason="an inference-only op without a backward, as in Paddle",
           errors=lambda: [
               ErrorSample([np.zeros((2, 3)), np.zeros((4, 5)), None, 1, "", False], {},
                           ValueError, "height of 'w'"),
               ErrorSample([np.zeros((2, 4)), np.zeros((4, 5)), np.zeros((4,)), 1, "", False], {},
                           ValueError, "'bias'"),
               ErrorSample([np.zeros((2, 4)), np.zeros((4, 5)), None, 2, "", False], {},
                           ValueError, "in_num_col_dims"),
               ErrorSample([np.zeros((2, 4)), np.zeros((4, 5)), None, 1, "tanh", False], {},
                           ValueError, "activation_type")]),
    OpInfo("fused_elemwise_activation", paddle._C_ops.fused_elemwise_activation,
           lambda *a: np_fused_elemwise_activation(*a), lambda rng: [
               Sample([uniform(rng, (2, 3, 4)), uniform(rng, (2, 3, 4)),
                       ["relu", "elementwise_add"], -1, 0.0, False]),
               Sample([uniform(rng, (2, 3, 4)), uniform(rng, (3,)), ["sigmoid", "elementwise_mul"],
                       1, 0.0, True]),
               Sample([uniform(rng, (2, 3)), uniform(rng, (2, 3)), ["elementwise_add", "tanh"], -1,
                       0.0, True]),
               Sample([uniform(rng, (4, 2)), uniform(rng, (1, 2)), ["scale", "elementwise_add"],
                       -1, 0.5, False])],
           grad=False, no_grad_reason="an inference-only op without a backward here",
           errors=lambda: [
               ErrorSample([np.zeros((2, 3)), np.zeros((2, 3)), ["gelu", "elementwise_add"], -1,
                            0.0, False], {}, ValueError, "functor_list"),
               ErrorSample([np.zeros((2, 3)), np.zeros((3,)), ["relu", "elementwise_add"], 2,
                            0.0, False], {}, ValueError, "'axis'"),
               ErrorSample([np.zeros((2, 3)), np.zeros((4,)), ["relu", "elementwise_add"], 1,
                            0.0, False], {}, ValueError, "broadcast")]),
]


_UNARY = {"relu": lambda v, s: np.maximum(v, 0), "tanh": lambda v, s: np.tanh(v),
          "sigmoid": lambda v, s: 1 / (1 + np.exp(-v)), "scale": lambda v, s: v * s}
_BINARY = {"elementwise_add": np.add, "elementwise_mul": np.multiply}


def np_fused_elemwise_activation(x, y, functor_list, axis=-1, scale=0.0, save=False):
    """unary(x binary y) for [unary, binary]; x binary unary(y) for [binary, unary]."""
    if axis != -1 and y.ndim < x.ndim:
        y = y.reshape((1,) * axis + y.shape + (1,) * (x.ndim - axis - y.ndim))
    first, second = functor_list
    if first in _UNARY:
        inner = _BINARY[second](x, y)
        out = _UNARY[first](inner, scale)
    else:
        inner = _UNARY[second](y, scale)
        out = _BINARY[first](x, inner)
    return out, (inner if save else np.zeros((0,), x.dtype))


def np_fc(x, w, b, in_num_col_dims, activation_type):
    """fc: x as a matrix split at in_num_col_dims, times w, plus the bias row, then relu."""
    rows = x.reshape(int(np.prod(x.shape[:in_num_col_dims])), -1)
    out = rows @ w + (0 if b is None else b.reshape(1, -1))
    if activation_type == "relu":
        out = np.maximum(out, 0)
    return out.reshape(x.shape[:in_num_col_dims] + (w.shape[1],))


def np_slice(x, axes, starts, ends):
    index = [slice(None)] * x.ndim
    for a, s, e in zip(axes, starts, ends):
        index[a] = slice(s, e)
    return x[tuple(index)]


def np_strided_slice(x, axes, starts, ends, strides):
    index = [slice(None)] * x.ndim
    for a, s, e, st in zip(axes, starts, ends, strides):
        index[a] = slice(s, e, st)
    return x[tuple(index)]


def np_set_value(x, values, starts, ends, steps, axes):
    out = x.copy()
    index = [slice(None)] * x.ndim
    for a, s, e, st in zip(axes, starts, ends, steps):
        index[a] = slice(s, e, st)
    out[tuple(index)] = values
    return out


def np_index_add(x, index, axis, value):
    out = x.copy()
    moved = np.moveaxis(out, axis, 0)
    np.add.at(moved, index, np.moveaxis(value, axis, 0))
    return out


def np_gather_nd(x, index):
    depth = index.shape[-1]
    flat = index.reshape(-1, depth)
    parts = [x[tuple(i)] for i in flat]
    return np.array(parts).reshape(index.shape[:-1] + x.shape[depth:])


def np_scatter_nd_add(x, index, updates):
    out = x.copy()
    depth = index.shape[-1]
    flat = index.reshape(-1, depth)
    upd = updates.reshape((flat.shape[0],) + x.shape[depth:])
    for i, u in zip(flat, upd):
        out[tuple(i)] += u
    return out


def np_masked_scatter(x, mask, value):
    out = x.copy()
    mask = np.broadcast_to(mask, x.shape)
    out[mask] = value.reshape(-1)[:mask.sum()]
    return out


def np_unique(x, return_index=False, return_inverse=False, return_counts=False, axis=None,
              dtype="int64"):
    out, index, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                            return_counts=True, axis=axis, equal_nan=False)
    outs = [out.reshape(-1) if x.ndim == 0 else out]
    outs += [v.reshape(-1).astype(dtype) for v, wanted in
             ((index, return_index), (inverse, return_inverse), (counts, return_counts)) if wanted]
    return outs[0] if len(outs) == 1 else tuple(outs)


def np_unique_consecutive(x, return_inverse=False, return_counts=False, axis=None,
                          dtype="int64"):
    slices = x.reshape(-1) if axis is None else np.moveaxis(x, axis, 0)
    firsts, inverse, counts = [], [], []
    for i in range(len(slices)):
        if i == 0 or not np.all(slices[i] == slices[i - 1]):
            firsts.append(i)
            counts.append(0)
        inverse.append(len(firsts) - 1)
        counts[-1] += 1
    out = slices[firsts] if axis is None else np.moveaxis(slices[firsts], 0, axis)
    outs = [out] + [np.array(v, dtype=dtype) for v, wanted in
                    ((inverse, return_inverse), (counts, return_counts)) if wanted]
    return outs[0] if len(outs) == 1 else tuple(outs)


def unique_samples(rng):
    def repeats(shape):  # small integers, so that values and slices repeat
        return rng.integers(0, 3, size=shape).astype(np.float64)
    rows = repeats((5, 3))
    rows[3] = rows[0]
    return [
        Sample([repeats((4, 5))], {"return_index": True, "return_inverse": True,
                                   "return_counts": True}),
        Sample([repeats((7,))]),
        Sample([rows], {"return_index": True, "return_inverse": True, "return_counts": True,
                        "axis": 0}),
        Sample([repeats((2, 6, 2))], {"return_inverse": True, "axis": -2, "dtype": "int32"}),
        Sample([np.array(2.0)], {"return_counts": True}),
        Sample([np.zeros((0,))], {"return_index": True, "return_counts": True}),
        # Empty slices all equal each other; no slices at all give no groups.
        Sample([np.zeros((4, 0))], {"return_inverse": True, "return_counts": True, "axis": 0}),
        Sample([np.zeros((0, 3))], {"return_inverse": True, "return_counts": True, "axis": 1})]


def unique_consecutive_samples(rng):
    runs = np.repeat(rng.integers(0, 3, size=6), rng.integers(1, 4, size=6)).astype(np.float64)
    rows = np.repeat(rng.integers(0, 2, size=(4, 3)), 2, axis=0).astype(np.float64)
    return [
        Sample([runs], {"return_inverse": True, "return_counts": True}),
        Sample([runs.reshape(1, -1)]),
        Sample([rows], {"return_inverse": True, "return_counts": True, "axis": 0}),
        Sample([rows.T.copy()], {"return_counts": True, "axis": 1, "dtype": "int32"}),
        Sample([np.array(1.0)], {"return_inverse": True}),
        Sample([np.zeros((4, 0))], {"return_inverse": True, "return_counts": True, "axis": 0}),
        Sample([np.zeros((0, 3))], {"return_counts": True, "axis": 1})]


def unique_errors():
    return [ErrorSample([np.zeros((2, 3))], {"axis": 2}, ValueError, "axis"),
            ErrorSample([np.zeros((2, 3))], {"dtype": "float32"}, ValueError, "dtype"),
            ErrorSample([np.zeros((2, 3))], {"axis": [0, 1]}, TypeError, "axis")]


def np_bincount(x, weights=None, minlength=0):
    out = np.bincount(x.astype(np.int64),
                      weights=None if weights is None else weights.astype(np.float64),
                      minlength=minlength)
    return out.astype(np.int64 if weights is None else np.float64)


def np_histogram(input, bins=100, min=0.0, max=0.0, weight=None, density=False):
    values = input.astype(np.float64).reshape(-1)
    low, high = min, max
    if low == 0 and high == 0 and values.size:
        low, high = values.min(), values.max()
    if low == high:
        low, high = low - 1, high + 1
    counts, _ = np.histogram(values, bins=bins, range=(low, high), density=density,
                             weights=None if weight is None else weight.astype(np.float64).reshape(-1))
    return counts.astype(np.int64 if weight is None and not density else np.float32)


def set_value_api(x, values, starts, ends, steps, axes):
    return paddle._C_ops.set_value_with_tensor(x, values, starts, ends, steps, axes)


def index_int(*values):
    return np.array(values, dtype=np.int64)


MANIPULATION = [
    OpInfo("reshape", paddle.reshape, lambda x, shape: x.reshape([d if d != 0 else x.shape[i] for i, d in enumerate(shape)]),
           lambda rng: [Sample([uniform(rng, (3, 4))], {"shape": [2, 6]}),
                        Sample([uniform(rng, (3, 4))], {"shape": [-1]}),
                        Sample([uniform(rng, (2, 3, 4))], {"shape": [0, -1]}),
                        Sample([uniform(rng, (1,))], {"shape": []})],
           second_order=True, no_second_order_reason=LINEAR,
           errors=lambda: [ErrorSample([np.zeros((3, 4))], {"shape": [5, -1]}, ValueError, "reshape"),
                           ErrorSample([np.zeros((3, 4))], {"shape": [-1, -1]}, ValueError, "-1")]),
    OpInfo("transpose", paddle.transpose, lambda x, perm: np.transpose(x, perm), lambda rng: [
        Sample([uniform(rng, (3, 4))], {"perm": [1, 0]}),
        Sample([uniform(rng, (2, 3, 4))], {"perm": [2, 0, 1]}),
        Sample([uniform(rng, (2, 3, 4, 5))], {"perm": [0, 2, 1, 3]})],
        errors=lambda: [ErrorSample([np.zeros((3, 4))], {"perm": [0, 0]}, ValueError, "perm"),
                        ErrorSample([np.zeros((3, 4))], {"perm": [0]}, ValueError, "perm")]),
    OpInfo("concat", lambda *xs, axis=0: paddle.concat(list(xs), axis),
           lambda *xs, axis=0: np.concatenate(xs, axis), lambda rng: [
               Sample([uniform(rng, (2, 3)), uniform(rng, (4, 3))]),
               Sample([uniform(rng, (2, 3)), uniform(rng, (2, 1)), uniform(rng, (2, 2))], {"axis": 1}),
               Sample([uniform(rng, (2, 3))], {"axis": -1})],
           errors=lambda: [ErrorSample([np.zeros((2, 3)), np.zeros((2, 4))], {"axis": 0}, ValueError, "concat")]),
    OpInfo("split", paddle.split, lambda x, num_or_sections, axis=0: np.split(
        x, num_or_sections if isinstance(num_or_sections, int) else np.cumsum(num_or_sections)[:-1], axis), lambda rng: [
        Sample([uniform(rng, (6, 2))], {"num_or_sections": 3}),
        Sample([uniform(rng, (2, 7))], {"num_or_sections": [2, 4, 1], "axis": 1})],
        errors=lambda: [ErrorSample([np.zeros((5, 2))], {"num_or_sections": 2}, ValueError, "split")]),
    OpInfo("stack", lambda *xs, axis=0: paddle.stack(list(xs), axis),
           lambda *xs, axis=0: np.stack(xs, axis), lambda rng: [
               Sample([uniform(rng, (2, 3)), uniform(rng, (2, 3))]),
               Sample([uniform(rng, (2, 3)), uniform(rng, (2, 3)), uniform(rng, (2, 3))], {"axis": -1})],
           errors=lambda: [ErrorSample([np.zeros((2, 3)), np.zeros((3, 2))], {}, ValueError, "stack")]),
    OpInfo("squeeze", paddle.squeeze, lambda x, axis=None: np.squeeze(
        x, tuple(a for a in ([axis] if isinstance(axis, int) else axis or []) if x.shape[a] == 1) or None
        if axis is not None else None), lambda rng: [
        Sample([uniform(rng, (1, 3, 1, 4))]), Sample([uniform(rng, (1, 3, 1, 4))], {"axis": [2]}),
        Sample([uniform(rng, (2, 3))], {"axis": 0})]),
    OpInfo("unsqueeze", paddle.unsqueeze, lambda x, axis: np.expand_dims(x, axis), lambda rng: [
        Sample([uniform(rng, (3, 4))], {"axis": 0}), Sample([uniform(rng, (3, 4))], {"axis": [0, 3]}),
        Sample([uniform(rng, ())], {"axis": -1})],
        errors=lambda: [ErrorSample([np.zeros((3, 4))], {"axis": 5}, IndexError, "axis")]),
    OpInfo("shape", paddle.shape, lambda x: np.array(x.shape, np.int64), lambda rng: [
        Sample([uniform(rng, (2, 3, 4))]), Sample([uniform(rng, ())]),
        Sample([uniform(rng, (0, 5))])],
        grad=False, no_grad_reason="sizes have no gradient; Paddle's shape op has none"),
    OpInfo("flatten", paddle.flatten, lambda x, start_axis=0, stop_axis=-1: x.reshape(
        x.shape[:start_axis] + (-1,) + x.shape[(stop_axis % x.ndim) + 1:]), lambda rng: [
        Sample([uniform(rng, (2, 3, 4))]), Sample([uniform(rng, (2, 3, 4, 5))], {"start_axis": 1, "stop_axis": 2})],
        errors=lambda: [ErrorSample([np.zeros((2, 3, 4))], {"start_axis": 2, "stop_axis": 1}, ValueError, "start_axis")]),
    OpInfo("expand", paddle.expand, lambda x, shape: np.broadcast_to(
        x, [s if s != -1 else x.shape[i - (len(shape) - x.ndim)] for i, s in enumerate(shape)]), lambda rng: [
        Sample([uniform(rng, (3, 1))], {"shape": [3, 4]}), Sample([uniform(rng, (4,))], {"shape": [2, 3, 4]}),
        Sample([uniform(rng, (1, 4))], {"shape": [3, -1]})],
        second_order=True, no_second_order_reason=LINEAR,
        errors=lambda: [ErrorSample([np.zeros((3, 2))], {"shape": [3, 4]}, ValueError, "expand")]),
    OpInfo("slice", paddle.slice, np_slice, lambda rng: [
        Sample([uniform(rng, (4, 5))], {"axes": [0], "starts": [1], "ends": [3]}),
        Sample([uniform(rng, (4, 5, 3))], {"axes": [1, 2], "starts": [-3, 0], "ends": [100, 2]})],
        errors=lambda: [ErrorSample([np.zeros((3, 4))], {"axes": [0, 1], "starts": [0], "ends": [1]},
                                    ValueError, "axes")]),
    OpInfo("strided_slice", paddle.strided_slice, np_strided_slice, lambda rng: [
        Sample([uniform(rng, (6, 5))], {"axes": [0], "starts": [0], "ends": [6], "strides": [2]}),
        Sample([uniform(rng, (6, 5))], {"axes": [0, 1], "starts": [5, -1], "ends": [0, -6], "strides": [-2, -1]})],
        errors=lambda: [ErrorSample([np.zeros((3, 4))], {"axes": [0], "starts": [0], "ends": [1], "strides": [0]},
                                    ValueError, "step")]),
    OpInfo("set_value_with_tensor", set_value_api, np_set_value, lambda rng: [
        Sample([uniform(rng, (4, 5)), uniform(rng, (2, 5))],
               {"starts": [1], "ends": [3], "steps": [1], "axes": [0]}),
        Sample([uniform(rng, (4, 6)), uniform(rng, (3,))],
               {"starts": [0, 0], "ends": [4, 6], "steps": [2, 2], "axes": [0, 1]})],
        errors=lambda: [ErrorSample([np.zeros((4, 5)), np.zeros((3, 5))],
                                    {"starts": [0], "ends": [2], "steps": [1], "axes": [0]}, ValueError, "shape")]),
    OpInfo("gather", paddle.gather, lambda x, index, axis=0: np.take(x, index, axis), lambda rng: [
        Sample([uniform(rng, (5, 3)), index_int(0, 4, 2, 2)]),
        Sample([uniform(rng, (2, 5, 3)), index_int(1, 3)], {"axis": 1}),
        Sample([uniform(rng, (4, 3)), np.array(2, dtype=np.int64)])],
        errors=lambda: [ErrorSample([np.zeros((3, 2)), index_int(0, 3)], {}, IndexError, "index"),
                        ErrorSample([np.zeros((3, 2)), np.zeros(2)], {}, ValueError, "index")]),
    OpInfo("index_select", paddle.index_select, lambda x, index, axis=0: np.take(x, index, axis), lambda rng: [
        Sample([uniform(rng, (5, 3)), index_int(4, 0, 0)]),
        Sample([uniform(rng, (2, 5)), index_int(1, 3)], {"axis": 1})],
        errors=lambda: [ErrorSample([np.zeros((3, 2)), index_int(-4)], {}, IndexError, "index")]),
    OpInfo("index_add", paddle.index_add, np_index_add, lambda rng: [
        Sample([uniform(rng, (5, 3)), index_int(0, 2, 2), 0, uniform(rng, (3, 3))]),
        Sample([uniform(rng, (2, 4)), index_int(3, 1), 1, uniform(rng, (2, 2))])],
        errors=lambda: [ErrorSample([np.zeros((3, 2)), index_int(5), 0, np.zeros((1, 2))], {}, IndexError, "index")]),
    OpInfo("gather_nd", paddle.gather_nd, np_gather_nd, lambda rng: [
        Sample([uniform(rng, (3, 4)), np.array([[0, 1], [2, 3], [1, 1]], dtype=np.int64)]),
        Sample([uniform(rng, (3, 4, 2)), np.array([[2], [0]], dtype=np.int64)])],
        errors=lambda: [ErrorSample([np.zeros((3, 4)), np.array([[3, 0]], dtype=np.int64)], {}, IndexError, "index")]),
    OpInfo("scatter_nd_add", paddle.scatter_nd_add, np_scatter_nd_add, lambda rng: [
        Sample([uniform(rng, (3, 4)), np.array([[0, 1], [2, 3], [0, 1]], dtype=np.int64), uniform(rng, (3,))]),
        Sample([uniform(rng, (3, 2)), np.array([[1], [1]], dtype=np.int64), uniform(rng, (2, 2))])]),
    OpInfo("masked_select", paddle.masked_select, lambda x, mask: np.broadcast_to(x, np.broadcast_shapes(x.shape, mask.shape))[
        np.broadcast_to(mask, np.broadcast_shapes(x.shape, mask.shape))], lambda rng: [
        Sample([uniform(rng, (3, 4)), rng.uniform(size=(3, 4)) > 0.4]),
        Sample([uniform(rng, (3, 4)), rng.uniform(size=(4,)) > 0.4])],
        errors=lambda: [ErrorSample([np.zeros((3,)), np.zeros(3)], {}, ValueError, "mask")]),
    OpInfo("masked_scatter", paddle.masked_scatter, np_masked_scatter, lambda rng: [
        Sample([uniform(rng, (3, 4)), rng.uniform(size=(3, 4)) > 0.5, uniform(rng, (12,))]),
        Sample([uniform(rng, (3, 4)), rng.uniform(size=(4,)) > 0.5, uniform(rng, (3, 4))])],
        grad=False,
        errors=lambda: [ErrorSample([np.zeros((2, 2)), np.ones((2, 2), dtype=bool), np.zeros(3)], {},
                                    ValueError, "value")]),
    OpInfo("unique", paddle.unique, np_unique, unique_samples, grad=False,
           errors=unique_errors),
    OpInfo("unique_consecutive", paddle.unique_consecutive, np_unique_consecutive,
           unique_consecutive_samples, grad=False, errors=unique_errors),
    OpInfo("bincount", paddle.bincount, np_bincount, lambda rng: [
        Sample([integral(1, 2, 1, 4, 5)]),
        Sample([integral(0, 3, 3, 7)], {"minlength": 10}),
        Sample([integral(2, 0, 2)], {"weights": np.array([0.5, 1.5, 2.0])}),
        Sample([np.zeros((0,))], {"minlength": 2})],
        grad=False,
        errors=lambda: [ErrorSample([index_int(1, -1)], {}, ValueError, "non-negative"),
                        ErrorSample([np.zeros((2, 2), dtype=np.int64)], {}, ValueError, "1-D"),
                        ErrorSample([np.array([1.0])], {}, TypeError, "'x'"),
                        ErrorSample([index_int(1, 2)], {"minlength": -1}, ValueError, "minlength"),
                        ErrorSample([index_int(1, 2), np.ones(3)], {}, ValueError, "weights")]),
    OpInfo("histogram", paddle.histogram, np_histogram, lambda rng: [
        Sample([integral(1, 2, 1, 4)], {"bins": 4, "min": 0, "max": 4}),
        Sample([integral(1, 2, 1, 4, 0, 3).reshape(2, 3)], {"bins": 3}),
        Sample([integral(1, 2, 1, 4)], {"bins": 4, "min": 0, "max": 4,
                                        "weight": np.array([1.0, 2.0, 3.0, 4.0])}),
        Sample([integral(1, 2, 1, 4)], {"bins": 2, "min": 0, "max": 4, "density": True}),
        Sample([integral(3, 3, 3)], {"bins": 4}),                # one value: widened by 1
        Sample([integral(1, 2, 5)], {"bins": 2, "min": 0, "max": 2})],  # 5 is left out
        grad=False,
        errors=lambda: [ErrorSample([integral(1, 2)], {"bins": 0}, ValueError, "bins"),
                        ErrorSample([integral(1, 2)], {"bins": 2, "min": 3, "max": 1}, ValueError, "max")]),
    OpInfo("nonzero", paddle.nonzero, lambda x: np.stack(np.nonzero(x), -1).astype(np.int64), lambda rng: [
        Sample([np.array([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]])]), Sample([integral(1, 0, 1)])],
        grad=False),
]


def random_check(kind):
    def check(result, sample):
        values = to_numpy(result).astype(np.float64)
        assert list(result.shape) == list(sample.kwargs["shape"])
        if kind == "uniform":
            lo, hi = sample.kwargs.get("min", 0.0), sample.kwargs.get("max", 1.0)
            assert values.min() >= lo and values.max() <= hi
            assert abs(values.mean() - (lo + hi) / 2) < 0.05 * (hi - lo)
        else:
            mean, std = sample.kwargs.get("mean", 0.0), sample.kwargs.get("std", 1.0)
            assert abs(values.mean() - mean) < 0.05 * std + 1e-3
            assert abs(values.std() - std) < 0.05 * std + 1e-3
    return check


# The creation ops take their kernel's dtype from an argument: DTYPE, the dtype under test.
CREATION = [
    OpInfo("full", lambda shape, fill_value, dtype=None: paddle.full(shape, fill_value, dtype),
           lambda shape, fill_value, dtype=None: np.full(shape, fill_value, dtype=np_dtype(dtype)), lambda rng: [
               Sample([[2, 3], 1.5], {"dtype": DTYPE}), Sample([[4], 7], {"dtype": DTYPE}),
               Sample([[], True], {"dtype": DTYPE}), Sample([[2, 0], 1.0], {"dtype": DTYPE})],
           grad=False,
           errors=lambda: [ErrorSample([[2, -3], 1.0], {}, ValueError, "shape")]),
    OpInfo("full_like", paddle.full_like,
           lambda x, fill_value, dtype=None: np.full(x.shape, fill_value, dtype=np_dtype(dtype) if dtype else x.dtype),
           lambda rng: [Sample([uniform(rng, (2, 3)), 2.5]),
                        Sample([np.arange(3), 4], {"dtype": DTYPE})],  # int64 x
           grad=False),
    OpInfo("arange", paddle.arange,
           lambda start=0, end=None, step=1, dtype=None: np.arange(start, end, step, dtype=dtype and np_dtype(dtype)),
           lambda rng: [Sample([0, 10, 3]),  # the default dtype: int64
                        Sample([0, 10, 3], {"dtype": DTYPE}), Sample([5, 0, -1], {"dtype": DTYPE}),
                        Sample([3, 3, 1], {"dtype": DTYPE}), Sample([-3, 4, 2], {"dtype": DTYPE})],
           grad=False,
           errors=lambda: [ErrorSample([0, 10, 0], {}, ValueError, "step")]),
    OpInfo("arange_fractional_steps", paddle.arange,
           lambda start, end, step, dtype: np.arange(start, end, step, dtype=np_dtype(dtype)),
           lambda rng: [Sample([1.0, 2.0, 0.25], {"dtype": DTYPE}), Sample([0, 1, 0.3], {"dtype": DTYPE}),
                        Sample([2.5, -1.0, -0.75], {"dtype": DTYPE})],
           covers=["arange"], only_dtypes=FLOAT_DTYPES, grad=False),
    OpInfo("linspace", paddle.linspace,
           lambda start, stop, num, dtype=None: np.linspace(start, stop, num, dtype=np_dtype(dtype)),
           lambda rng: [Sample([0.0, 1.0, 5], {"dtype": DTYPE}), Sample([-2, 2, 1], {"dtype": DTYPE}),
                        Sample([0, 10, 6], {"dtype": DTYPE}), Sample([10, -5, 4], {"dtype": DTYPE})],
           grad=False,
           errors=lambda: [ErrorSample([0.0, 1.0, -2], {}, ValueError, "num")]),
    OpInfo("eye", paddle.eye,
           lambda num_rows, num_columns=None, dtype=None: np.eye(num_rows, num_columns, dtype=np_dtype(dtype)),
           lambda rng: [Sample([3], {"dtype": DTYPE}), Sample([2, 4], {"dtype": DTYPE}),
                        Sample([3, 2], {"dtype": DTYPE})],
           grad=False),
    OpInfo("uniform", paddle.uniform, None, lambda rng: [
        Sample([], {"shape": [200, 50], "min": -2.0, "max": 3.0, "dtype": DTYPE}),
        Sample([], {"shape": [1000], "dtype": DTYPE})],
        grad=False, check=random_check("uniform"),
        errors=lambda: [ErrorSample([], {"shape": [3], "dtype": "int32"}, TypeError, "dtype")]),
    OpInfo("gaussian", paddle.gaussian, None, lambda rng: [
        Sample([], {"shape": [200, 50], "mean": 1.0, "std": 2.0, "dtype": DTYPE}),
        Sample([], {"shape": [5000], "dtype": DTYPE})],
        grad=False, check=random_check("gaussian")),
]


# ---------------------------------------------------------------- gradient kernels
def program_op(op_type, inputs, outputs, attrs):
    """Runs one op as a PaddlePaddle program holds it. `inputs` maps Paddle's slot names to
    tensors, `outputs` maps each output slot to the input slot whose shape and dtype it takes (or
    to a (shape, slot) pair: its own shape, the slot's dtype); returns the outputs in that order. The kernels of gradient ops, which have no Python API, are
    reached this way in every dtype they register (autograd differentiates floats only), as in a
    Paddle training program. In static mode the op goes into the program being built."""
    if not paddle.in_dynamic_mode():
        block = paddle.static.default_main_program().global_block()

        def meta(like):
            shape, like = like if isinstance(like, tuple) else (inputs[like].shape, like)
            return {"shape": shape, "dtype": inputs[like].dtype}
        results = {slot: block.create_var(name=unique_name.generate(slot), **meta(like))
                   for slot, like in outputs.items()}
        block.append_op(op_type, inputs={slot: [v] for slot, v in inputs.items()},
                        outputs={slot: [v] for slot, v in results.items()}, attrs=attrs)
        return [results[slot] for slot in outputs]
    place = next(iter(inputs.values())).place
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            data = {slot: paddle.static.data(f"input_{k}", t.shape, t.dtype)
                    for k, (slot, t) in enumerate(inputs.items())}
            fetch = program_op(op_type, data, outputs, attrs)
        feed = {data[slot].name: t for slot, t in inputs.items()}
        return paddle.static.Executor(place).run(main, feed=feed, fetch_list=fetch, return_numpy=False)


# ---------------------------------------------------------------- losses
def ce_grad_op(label, softmax, loss_grad, soft_label=False, ignore_index=-100, axis=-1):
    return program_op("softmax_with_cross_entropy_grad",
                      {"Label": label, "Softmax": softmax, "Loss@GRAD": loss_grad}, {"Logits@GRAD": "Softmax"},
                      {"soft_label": soft_label, "ignore_index": ignore_index, "axis": axis})[0]


def np_ce_grad(label, softmax, loss_grad, soft_label=False, ignore_index=-100, axis=-1):
    """The gradient of the loss with respect to the logits: (softmax * sum(label) - label) *
    loss_grad for soft labels (whose weights need not sum to 1), (softmax - one_hot(label)) *
    loss_grad for class indices, and 0 where the label is ignore_index."""
    if soft_label:
        return (softmax * label.sum(axis=axis, keepdims=True) - label) * loss_grad
    axis = axis % softmax.ndim
    classes = np.arange(softmax.shape[axis]).reshape([-1 if d == axis else 1 for d in range(softmax.ndim)])
    return (softmax - (classes == label)) * np.where(label == ignore_index, 0.0, loss_grad)


def np_cross_entropy(logits, label, soft_label=False, ignore_index=-100, axis=-1):
    logp = np.log(softmax(logits, axis))
    if soft_label:
        loss = -(label * logp).sum(axis=axis, keepdims=True)
    else:
        safe = np.where(label == ignore_index, 0, label)
        loss = -np.take_along_axis(logp, safe, axis=axis)
        loss = np.where(label == ignore_index, 0.0, loss)
    return [softmax(logits, axis), loss]


def ce_api(logits, label, soft_label=False, ignore_index=-100, axis=-1):
    return list(paddle._C_ops.cross_entropy_with_softmax(logits, label, soft_label, True, True,
                                                          ignore_index, axis))


LOSS = [
    OpInfo("cross_entropy_with_softmax", ce_api, np_cross_entropy, lambda rng: [
        Sample([uniform(rng, (4, 5), -2, 2), np.array([[0], [4], [2], [2]], dtype=np.int64)]),
        Sample([uniform(rng, (4, 3), -2, 2), np.array([[1], [-100], [0], [2]], dtype=np.int64)]),
        Sample([uniform(rng, (3, 4), -2, 2), softmax(uniform(rng, (3, 4)))], {"soft_label": True},
               grad_args=[0]),
        Sample([uniform(rng, (2, 3, 2), -2, 2), np.array([[[0, 1]], [[2, 2]]], dtype=np.int64)], {"axis": 1})],
        grad_outputs=[1],
        errors=lambda: [ErrorSample([np.zeros((2, 3)), np.array([[0], [3]], dtype=np.int64)], {}, IndexError, "3"),
                        ErrorSample([np.zeros((2, 3)), np.array([[0, 1]], dtype=np.int64)], {}, ValueError, "label")]),
    OpInfo("cross_entropy_with_softmax_grad", ce_grad_op, np_ce_grad, lambda rng: [
        Sample([np.array([[0], [4], [2], [2]], dtype=np.int64), softmax(uniform(rng, (4, 5), -2, 2)),
                uniform(rng, (4, 1))]),
        Sample([np.array([[1], [-100], [0], [2]], dtype=np.int64), softmax(uniform(rng, (4, 3), -2, 2)),
                uniform(rng, (4, 1))]),
        Sample([softmax(uniform(rng, (3, 4))), softmax(uniform(rng, (3, 4), -2, 2)), uniform(rng, (3, 1))],
               {"soft_label": True}),
        Sample([uniform(rng, (3, 4), 0.0, 1.0), softmax(uniform(rng, (3, 4), -2, 2)), uniform(rng, (3, 1))],
               {"soft_label": True}),  # weights that do not sum to 1
        Sample([np.array([[[0, 1]], [[2, 2]]], dtype=np.int64), softmax(uniform(rng, (2, 3, 2), -2, 2), 1),
                uniform(rng, (2, 1, 2))], {"axis": 1})],
        grad=False),
]

OP_DB = BINARY + INTEGER_ARITHMETIC + COMPARE + UNARY + REDUCE + LINALG + MANIPULATION + CREATION + LOSS


# ---------------------------------------------------------------- optimizer updates
def _lr(learning_rate):
    return np.asarray(learning_rate).reshape(-1)[0]


def np_sgd(param, learning_rate, grad):
    return [param - _lr(learning_rate) * grad]


def np_momentum(param, grad, velocity, learning_rate, mu=0.9, use_nesterov=False,
                regularization_method="", regularization_coeff=0.0, rescale_grad=1.0):
    lr = _lr(learning_rate)
    g = grad * rescale_grad
    if regularization_method == "l2_decay":
        g = g + regularization_coeff * param
    v = mu * velocity + g
    p = param - (lr * (g + mu * v) if use_nesterov else lr * v)
    return [p, v]


def np_adamw(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow, moment2_max=None,
             beta1=0.9, beta2=0.999, epsilon=1e-8, lr_ratio=1.0, coeff=0.01, with_decay=False,
             amsgrad=False):
    lr = _lr(learning_rate) * lr_ratio
    b1p, b2p = _lr(beta1_pow), _lr(beta2_pow)
    p = param * (1 - lr * coeff) if with_decay else param
    m1 = beta1 * moment1 + (1 - beta1) * grad
    m2 = beta2 * moment2 + (1 - beta2) * grad * grad
    v = np.maximum(m2, moment2_max) if amsgrad else m2
    lr_t = lr * np.sqrt(1 - b2p) / (1 - b1p)
    p = p - lr_t * (m1 / (np.sqrt(v) + epsilon * np.sqrt(1 - b2p)))
    return [p, m1, m2] + ([v] if amsgrad else []) + [beta1_pow * beta1, beta2_pow * beta2]


def np_adam(*args, **kwargs):
    return np_adamw(*args, **kwargs)


def _present(outputs):
    """The outputs of an update op without the absent (None) optional ones."""
    return [o for o in outputs if o is not None]


def sgd_api(param, learning_rate, grad):
    return _present(paddle._C_ops.sgd(param, learning_rate, grad, None))


def momentum_api(param, grad, velocity, learning_rate, mu=0.9, **kwargs):
    return _present(paddle._C_ops.momentum(param, grad, velocity, learning_rate, None, mu, **kwargs))


def _adam_call(op, param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow,
               moment2_max=None, **kwargs):
    # The in-place variant, as the optimizers call it: it returns the updated inputs.
    return _present(op(param, grad, learning_rate, moment1, moment2, moment2_max, beta1_pow,
                       beta2_pow, None, None, **kwargs))


def adam_api(*args, **kwargs):
    return _adam_call(paddle._C_ops.adam_, *args, **kwargs)


def adamw_api(*args, **kwargs):
    return _adam_call(paddle._C_ops.adamw_, *args, **kwargs)


def _param_grad_lr(rng, shape):
    return [uniform(rng, shape), uniform(rng, shape), np.array([rng.uniform(0.05, 0.2)])]


def _adam_sample(rng, shape, kwargs=None, max_state=False):
    args = [uniform(rng, shape), uniform(rng, shape), np.array([0.05]), uniform(rng, shape),
            uniform(rng, shape, 0.0, 1.0), np.array([0.9 ** 3]), np.array([0.999 ** 3])]
    kwargs = dict(kwargs or {})
    if max_state:
        kwargs["moment2_max"] = uniform(rng, shape, 0.0, 1.0)
    return Sample(args, kwargs)


def _adam_errors(api):
    def errors():
        ok = [np.zeros((2, 3)), np.zeros((2, 3)), np.array([0.1]), np.zeros((2, 3)), np.zeros((2, 3)),
              np.array([0.9]), np.array([0.999])]
        bad_moment = list(ok)
        bad_moment[3] = np.zeros((3, 2))
        bad_lr = list(ok)
        bad_lr[2] = np.array([0.1, 0.2])
        return [ErrorSample(bad_moment, {}, ValueError, "moment1"),
                ErrorSample(bad_lr, {}, ValueError, "learning_rate"),
                ErrorSample(ok, {"amsgrad": True}, ValueError, "moment2_max")]
    return errors


OPTIMIZER = [
    OpInfo("sgd", sgd_api, np_sgd, lambda rng: [
        Sample(_param_grad_lr(rng, (3, 4))[0:1] + [np.array([0.1]), uniform(rng, (3, 4))]),
        Sample([uniform(rng, ()), np.array(0.5), uniform(rng, ())]),
        Sample([uniform(rng, (2, 0)), np.array([0.1]), uniform(rng, (2, 0))])],
        grad=False,
        errors=lambda: [ErrorSample([np.zeros((2, 3)), np.array([0.1]), np.zeros((3,))], {},
                                    ValueError, "grad")]),
    OpInfo("momentum", momentum_api, np_momentum, lambda rng: [
        Sample([uniform(rng, (3, 4)), uniform(rng, (3, 4)), uniform(rng, (3, 4)), np.array([0.1])]),
        Sample([uniform(rng, (5,)), uniform(rng, (5,)), uniform(rng, (5,)), np.array([0.05])],
               {"mu": 0.8, "use_nesterov": True, "regularization_method": "l2_decay",
                "regularization_coeff": 0.01, "rescale_grad": 0.5}),
        Sample([uniform(rng, ()), uniform(rng, ()), uniform(rng, ()), np.array([0.2])],
               {"regularization_coeff": 0.5})],  # ignored without "l2_decay"
        grad=False,
        errors=lambda: [
            ErrorSample([np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((3,)), np.array([0.1])], {},
                        ValueError, "velocity"),
            ErrorSample([np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 3)), np.array([0.1])],
                        {"regularization_method": "l1_decay"}, ValueError, "regularization_method")]),
    OpInfo("adam", adam_api, np_adam, lambda rng: [
        _adam_sample(rng, (3, 4)),
        _adam_sample(rng, (6,), {"beta1": 0.8, "beta2": 0.99, "epsilon": 1e-6}),
        _adam_sample(rng, (2, 3), {"amsgrad": True}, max_state=True),
        _adam_sample(rng, ()),
        _adam_sample(rng, (2, 0))],
        grad=False, errors=_adam_errors("adam")),
    OpInfo("adamw", adamw_api, np_adamw, lambda rng: [
        _adam_sample(rng, (3, 4), {"coeff": 0.1, "with_decay": True}),
        _adam_sample(rng, (6,), {"lr_ratio": 0.5, "coeff": 0.2, "with_decay": True, "beta1": 0.85}),
        _adam_sample(rng, (6,), {"coeff": 0.2}),  # with_decay=False: plain Adam
        _adam_sample(rng, (2, 3), {"amsgrad": True, "with_decay": True}, max_state=True)],
        grad=False,
        errors=_adam_errors("adamw")),
]

OP_DB = OP_DB + OPTIMIZER


# ---------------------------------------------------------------- class tests, all/any, tril/triu, logsumexp
def logic_special_values(rng):
    """Finite values mixed with NaN and the infinities."""
    values = uniform(rng, (3, 4), -3.0, 3.0)
    values.reshape(-1)[[1, 4, 6, 9]] = [np.nan, np.inf, -np.inf, 0.0]
    return values


def logic_class_test(name, api, ref):
    return OpInfo(name, api, ref, lambda rng: [
        Sample([logic_special_values(rng)]), Sample([uniform(rng, ())]), Sample([uniform(rng, (2, 0))])],
        only_dtypes=FLOAT_DTYPES, grad=False,
        errors=lambda: [ErrorSample([[1.0, 2.0]], {}, TypeError, "must be a Tensor")])


def logic_np_axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def logic_np_all(x, axis=None, keepdim=False):
    return np.asarray(np.all(x != 0, axis=logic_np_axis(axis), keepdims=keepdim))


def logic_np_any(x, axis=None, keepdim=False):
    return np.asarray(np.any(x != 0, axis=logic_np_axis(axis), keepdims=keepdim))


def logic_sparse_values(rng, shape, zero_fraction=0.3):
    """Values with exact zeros (about `zero_fraction` of them), and whole rows without any."""
    values = uniform(rng, shape, 0.5, 2.0) * rng.choice([-1.0, 1.0], size=shape)
    return np.where(rng.uniform(size=shape) < zero_fraction, 0.0, values)


def logic_bool_reduce_samples(rng):
    return [
        Sample([logic_sparse_values(rng, (3, 4))]),
        Sample([logic_sparse_values(rng, (3, 4))], {"axis": 1}),
        Sample([logic_sparse_values(rng, (2, 3, 4), 0.1)], {"axis": [0, 2], "keepdim": True}),
        Sample([logic_sparse_values(rng, (4, 3), 0.05)], {"axis": -1}),
        Sample([logic_sparse_values(rng, ())]),
        Sample([logic_sparse_values(rng, (2, 0))], {"axis": 1}),
        Sample([logic_sparse_values(rng, (2, 0))]),
        # Large enough for the threaded paths: one long run, and many outputs with strided input.
        Sample([logic_sparse_values(rng, (50000,), 0.0)]),
        Sample([logic_sparse_values(rng, (3, 20000), 0.2)], {"axis": 0}),
    ]


def logic_np_logsumexp(x, axis=None, keepdim=False):
    axis = logic_np_axis(axis)
    m = np.max(x, axis=axis, keepdims=True)
    out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    if keepdim:
        return out
    return out.reshape(()) if axis is None else np.squeeze(out, axis=axis)


def logic_logsumexp_samples(rng):
    return [
        Sample([uniform(rng, (3, 4), -3, 3)]),
        Sample([uniform(rng, (3, 4), -3, 3)], {"axis": 1}),
        Sample([uniform(rng, (2, 3, 4))], {"axis": [0, 2], "keepdim": True}),
        Sample([uniform(rng, (2, 3, 4))], {"axis": -1}),
        Sample([uniform(rng, (2, 3))], {"axis": [0, 1]}),
        Sample([uniform(rng, ())]),
        Sample([uniform(rng, (4, 3), 500.0, 700.0)], {"axis": 0}),  # exp overflows without the shift
        # Threaded paths (no gradient check: central differences over every element are slow).
        Sample([uniform(rng, (60000,), -5, 5)], grad_args=[]),
        Sample([uniform(rng, (2, 40000), -5, 5)], {"axis": 0}, grad_args=[]),
    ]


def logic_triangular_samples(rng):
    return [
        Sample([uniform(rng, (4, 5))]),
        Sample([uniform(rng, (3, 4))], {"diagonal": 1}),
        Sample([uniform(rng, (2, 3, 4))], {"diagonal": -1}),
        Sample([uniform(rng, (4, 3))], {"diagonal": 10}),
        Sample([uniform(rng, (2, 2, 3))], {"diagonal": -10}),
        Sample([uniform(rng, (2, 0, 3))]),
    ]


def logic_triangular_errors(api_name):
    return lambda: [ErrorSample([np.zeros((3,))], {}, ValueError, api_name),
                    ErrorSample([np.zeros((2, 3))], {"diagonal": 1.5}, TypeError, "diagonal")]


LOGIC_OPS = [
    logic_class_test("isnan", paddle.isnan, np.isnan),
    logic_class_test("isinf", paddle.isinf, np.isinf),
    logic_class_test("isfinite", paddle.isfinite, np.isfinite),
    # Integers and bool are never NaN or infinite.
    OpInfo("logic_class_tests_integer", lambda x: (paddle.isnan(x), paddle.isinf(x), paddle.isfinite(x)),
           lambda x: (np.isnan(x), np.isinf(x), np.isfinite(x)),
           lambda rng: [Sample([uniform(rng, (3, 4), -5, 5)]), Sample([uniform(rng, ())])],
           covers=["isnan", "isinf", "isfinite"], only_dtypes=("bool",) + INTEGER_DTYPES, grad=False),
    OpInfo("all", paddle.all, logic_np_all, logic_bool_reduce_samples,
           grad=False,
           errors=lambda: [ErrorSample([np.zeros((2, 3))], {"axis": 5}, IndexError, "axis"),
                           ErrorSample([np.zeros((2, 3))], {"axis": [1, 1]}, ValueError, "axis")]),
    OpInfo("any", paddle.any, logic_np_any, logic_bool_reduce_samples,
           grad=False,
           errors=lambda: [ErrorSample([np.zeros((2, 3))], {"axis": -3}, IndexError, "axis")]),
    OpInfo("tril", paddle.tril, lambda x, diagonal=0: np.tril(x, diagonal), logic_triangular_samples,
           second_order=True, no_second_order_reason=LINEAR,
           errors=logic_triangular_errors("tril")),
    OpInfo("triu", paddle.triu, lambda x, diagonal=0: np.triu(x, diagonal), logic_triangular_samples,
           second_order=True, no_second_order_reason=LINEAR,
           errors=logic_triangular_errors("triu")),
    OpInfo("logsumexp", paddle.logsumexp, logic_np_logsumexp, logic_logsumexp_samples,
           second_order=True,
           errors=lambda: [ErrorSample([np.zeros((2, 3))], {"axis": 5}, IndexError, "axis")]),
]

OP_DB += LOGIC_OPS


# ---------------------------------------------------------------- along-axis, sorting and scans
def search_np_put_along_axis(arr, indices, values, axis, reduce="assign", include_self=True):
    """Reference put_along_axis for same-shaped indices and values (duplicates: the last
    assignment wins, add and mul accumulate)."""
    out = np.array(arr, copy=True)
    values = np.broadcast_to(values, indices.shape)
    axis = axis % arr.ndim
    if not include_self and reduce != "assign":
        for pos in np.ndindex(*indices.shape):
            dst = pos[:axis] + (indices[pos] % arr.shape[axis],) + pos[axis + 1:]
            out[dst] = 0 if reduce == "add" else 1
    for pos in np.ndindex(*indices.shape):
        dst = pos[:axis] + (indices[pos] % arr.shape[axis],) + pos[axis + 1:]
        if reduce == "assign":
            out[dst] = values[pos]
        elif reduce == "add":
            out[dst] = out[dst] + values[pos]
        else:
            out[dst] = out[dst] * values[pos]
    return out


def search_np_topk(x, k, axis=None, largest=True, sorted=True):
    axis = -1 if axis is None else axis
    order = np.argsort(-x if largest else x, axis=axis, kind="stable")
    index = np.take(order, np.arange(k), axis=axis)
    return np.take_along_axis(x, index, axis), index.astype(np.int64)


def search_np_sort(x, axis=-1, descending=False, stable=False):
    index = np.argsort(-x if descending else x, axis=axis, kind="stable")
    return np.take_along_axis(x, index, axis), index.astype(np.int64)


def search_np_cumsum(x, axis=None, dtype=None):
    if axis is None:
        return np.cumsum(x.reshape(-1))
    return np.cumsum(x, axis=axis)


def search_np_cumprod(x, dim=None, dtype=None):
    if dim is None:
        return np.cumprod(x.reshape(-1))
    return np.cumprod(x, axis=dim)


def search_distinct_lines(rng, shape, axis, size):
    """Indices of `shape` holding distinct positions in [0, size) along each line of `axis`."""
    lines = np.moveaxis(np.zeros(shape, dtype=np.int64), axis, -1)
    flat = lines.reshape(-1, lines.shape[-1])
    for row in flat:
        row[:] = rng.permutation(size)[:row.size]
    return np.moveaxis(flat.reshape(lines.shape), -1, axis)


def search_take_samples(rng):
    return [
        Sample([uniform(rng, (3, 4)), np.array([[0, 3, 3], [1, 1, 2], [2, 0, -1]], dtype=np.int64), 1]),
        Sample([uniform(rng, (4, 3)), np.array([[0, 1, 2], [3, 3, 0]], dtype=np.int32), 0]),
        # indices broadcast against arr outside the axis, and arr against indices
        Sample([uniform(rng, (2, 5, 3)), np.array([[[4], [0]]], dtype=np.int64), -2]),
        Sample([uniform(rng, (1, 4)), np.array([[0, 3], [2, 2], [1, 0]], dtype=np.int64), 1]),
    ]


def search_put_samples(rng):
    return [
        Sample([uniform(rng, (3, 5)), search_distinct_lines(rng, (3, 2), 1, 5), uniform(rng, (3, 2)), 1]),
        Sample([uniform(rng, (4, 3)), search_distinct_lines(rng, (2, 3), 0, 4), uniform(rng, (2, 3)), 0]),
        # broadcast indices along the other dim; a scalar value
        Sample([uniform(rng, (3, 4)), np.array([[1, 3]], dtype=np.int64), 2.5, 1], grad_args=[0]),
        Sample([uniform(rng, (3, 4)), np.array([[0, 0, 2]], dtype=np.int64), uniform(rng, (3, 3)), 1],
               {"reduce": "add"}),
        Sample([uniform(rng, (3, 4)), np.array([[0, 0, 2]], dtype=np.int64), uniform(rng, (3, 3)), 1],
               {"reduce": "add", "include_self": False}),
        Sample([away_from_zero(rng, (3, 4)), np.array([[0, 0, 2]], dtype=np.int64),
                away_from_zero(rng, (3, 3)), 1], {"reduce": "mul"}),
        Sample([away_from_zero(rng, (2, 4)), np.array([[1, 1], [3, 0]], dtype=np.int64),
                away_from_zero(rng, (2, 2)), -1], {"reduce": "multiply", "include_self": False}),
    ]


def search_sort_samples(rng):
    return [
        Sample([distinct(rng, (3, 5))]),
        Sample([distinct(rng, (4, 3))], {"axis": 0, "descending": True}),
        Sample([distinct(rng, (2, 3, 4))], {"axis": 1, "stable": True}),
        Sample([distinct(rng, ())]),
        Sample([distinct(rng, (2, 0))]),
    ]


# References with Paddle's broadcasting of put_along_axis indices and 0-d scans and sorts.
def search_np_put_along_axis_broadcast(arr, indices, values, axis, reduce="assign", include_self=True):
    axis = axis % arr.ndim
    if all(i <= a for i, a in zip(indices.shape, arr.shape)):
        shape = list(arr.shape)
        shape[axis] = indices.shape[axis]
        indices = np.broadcast_to(indices, shape)
    return search_np_put_along_axis(arr, indices, values, axis, reduce, include_self)


def search_keep_0d(ref):
    def wrapped(x, *args, **kwargs):
        if np.ndim(x) == 0:
            result = ref(np.reshape(x, (1,)), *args, **kwargs)
            if isinstance(result, tuple):
                return tuple(np.reshape(r, ()) for r in result)
            return np.reshape(result, ())
        return ref(x, *args, **kwargs)
    return wrapped


def search_cumprod_grad_op(x, out, out_grad, dim):
    return program_op("cumprod_grad", {"X": x, "Out": out, "Out@GRAD": out_grad}, {"X@GRAD": "X"}, {"dim": dim})[0]


def search_np_cumprod_grad(x, out, out_grad, dim):
    """d/dx_i of sum_j out_grad_j * x_0 * ... * x_j along dim: products that leave x_i out,
    exact where x holds zeros."""
    xs, gs = np.moveaxis(x, dim, -1), np.moveaxis(out_grad, dim, -1)
    grad = np.zeros_like(xs)
    for i in range(xs.shape[-1]):
        for j in range(i, xs.shape[-1]):
            grad[..., i] += gs[..., j] * np.delete(xs[..., :j + 1], i, axis=-1).prod(axis=-1)
    return np.moveaxis(grad, -1, dim)


def search_cumprod_grad_sample(rng, x, dim):
    """x (integers, so that out = cumprod(x) is exact in every dtype), out and an upstream
    gradient."""
    return Sample([x, np.cumprod(x, axis=dim), np.round(uniform(rng, x.shape, -3, 3)), dim])


SEARCH_OPS = [
    OpInfo("take_along_axis", paddle.take_along_axis, lambda arr, indices, axis: np.take_along_axis(
        arr, np.where(indices < 0, indices + arr.shape[axis], indices), axis), search_take_samples,
        second_order=True, no_second_order_reason=LINEAR,
        errors=lambda: [
            ErrorSample([np.zeros((2, 3)), np.array([[3]], dtype=np.int64), 1], {}, IndexError, "indices"),
            ErrorSample([np.zeros((2, 3)), np.array([[-4]], dtype=np.int64), 1], {}, IndexError, "-4"),
            ErrorSample([np.zeros((2, 3)), np.array([0], dtype=np.int64), 1], {}, ValueError, "dimensions"),
            ErrorSample([np.zeros((2, 3)), np.array([[0]], dtype=np.int64), 2], {}, IndexError, "axis")]),
    OpInfo("put_along_axis", paddle.put_along_axis, search_np_put_along_axis_broadcast, search_put_samples,
           second_order=True,
           no_second_order_reason="the samples of the second-order check (the first two) assign, which is linear",
           errors=lambda: [
               ErrorSample([np.zeros((2, 3)), np.array([[3]], dtype=np.int64), np.ones((1, 1)), 1], {},
                           IndexError, "indices"),
               ErrorSample([np.zeros((2, 3)), np.array([[0]], dtype=np.int64), np.ones((1, 1)), 1],
                           {"reduce": "max"}, ValueError, "reduce")]),
    OpInfo("topk", paddle.topk, search_np_topk, lambda rng: [
        Sample([distinct(rng, (3, 5)), 2]),
        Sample([distinct(rng, (4, 3)), 3], {"axis": 0, "largest": False}),
        Sample([distinct(rng, (2, 4, 3)), 1], {"axis": 1}),
        Sample([distinct(rng, (6,)), 6]),
        Sample([np.array([1.0, 3.0, 3.0, 2.0, 3.0]), 2], grad_args=[]),   # ties: lowest index first
        Sample([np.array([1.0, 3.0, 3.0, 2.0, 3.0]), 3], {"largest": False}, grad_args=[])],
        second_order=True, no_second_order_reason="it selects elements of x: linear in x away from ties",
        errors=lambda: [ErrorSample([np.zeros((2, 3)), 4], {}, ValueError, "k"),
                        ErrorSample([np.zeros((2, 3)), 1], {"axis": 2}, IndexError, "axis")]),
    OpInfo("argsort", lambda x, **kw: (paddle.sort(x, **kw), paddle.argsort(x, **kw)), search_keep_0d(search_np_sort),
           lambda rng: search_sort_samples(rng) + [
               Sample([np.array([2.0, 1.0, 2.0, 0.5, 1.0])], {"descending": True, "stable": True}, grad_args=[]),
               Sample([np.array([2.0, 1.0, 2.0, 0.5, 1.0])], {"stable": True}, grad_args=[])],
           second_order=True, no_second_order_reason="sorting permutes x: linear in x away from ties",
           errors=lambda: [ErrorSample([np.zeros((2, 3))], {"axis": 2}, IndexError, "axis")]),
    OpInfo("cumsum", paddle.cumsum, search_keep_0d(search_np_cumsum), lambda rng: [
        Sample([uniform(rng, (3, 4))]),
        Sample([uniform(rng, (3, 4))], {"axis": 1}),
        Sample([uniform(rng, (2, 3, 4))], {"axis": -3}),
        Sample([uniform(rng, ())], {"axis": 0}),
        Sample([uniform(rng, (2, 0))], {"axis": 0})],
        second_order=True, no_second_order_reason=LINEAR, atol=1e-4,
        errors=lambda: [ErrorSample([np.zeros((2, 3))], {"axis": 2}, IndexError, "axis")]),
    OpInfo("cumsum_options", lambda x, axis, exclusive, reverse: paddle._C_ops.cumsum(
        x, axis, False, exclusive, reverse), lambda x, axis, exclusive, reverse: np.flip(np.cumsum(np.flip(
            x, axis) if reverse else x, axis) - ((np.flip(x, axis) if reverse else x) if exclusive else 0),
            axis) if reverse else np.cumsum(x, axis) - (x if exclusive else 0), lambda rng: [
        Sample([uniform(rng, (3, 4)), 1, True, False]),
        Sample([uniform(rng, (3, 4)), 0, False, True]),
        Sample([uniform(rng, (3, 4)), -1, True, True])],
        covers=["cumsum"], second_order=True, no_second_order_reason=LINEAR),
    OpInfo("cumprod", paddle.cumprod, search_keep_0d(search_np_cumprod), lambda rng: [
        Sample([away_from_zero(rng, (3, 4), 0.5, 1.5)], {"dim": 1}),
        Sample([away_from_zero(rng, (2, 3, 2), 0.5, 1.5)], {"dim": 0}),
        Sample([away_from_zero(rng, (2, 3), 0.5, 1.5)]),
        Sample([np.array([[2.0, 0.0, 3.0, 0.0, 0.5], [0.0, 1.5, -2.0, 1.0, 0.7]])], {"dim": -1}),  # zeros
        Sample([uniform(rng, ())], {"dim": 0})],
        covers=["cumprod"],
        errors=lambda: [ErrorSample([np.zeros((2, 3))], {"dim": 2}, IndexError, "dim")]),
    OpInfo("cumprod_grad", search_cumprod_grad_op, search_np_cumprod_grad, lambda rng: [
        search_cumprod_grad_sample(rng, integral([2, 0, 3, 0, 1], [0, 1, -2, 1, 3]), 1),  # zeros
        search_cumprod_grad_sample(rng, np.round(uniform(rng, (3, 4), -2, 2)), 0),
        search_cumprod_grad_sample(rng, np.round(uniform(rng, (2, 3, 2), -2, 2)), -1)],
        grad=False),
]

OP_DB += SEARCH_OPS


def emb_np_embedding(x, weight, padding_idx=None, **kwargs):
    out = weight[x]
    if padding_idx is not None:
        out = np.where((x == padding_idx % weight.shape[0])[..., None], 0.0, out).astype(weight.dtype)
    return out


def emb_ids(*values, dtype=np.int64):
    return np.array(values, dtype=dtype)


EMBEDDING_OPS = [
    OpInfo("embedding", paddle.nn.functional.embedding, emb_np_embedding, lambda rng: [
        Sample([emb_ids(0, 3, 3, 1), uniform(rng, (5, 3))]),
        Sample([emb_ids([1, 4, 0], [2, 2, 4], dtype=np.int32), uniform(rng, (5, 2))]),
        Sample([emb_ids([0, 2], [2, 1]), uniform(rng, (4, 3))], {"padding_idx": 2}),
        Sample([emb_ids(0, 3, 1, 3), uniform(rng, (4, 2))], {"padding_idx": -1}),
        Sample([np.array(2, dtype=np.int64), uniform(rng, (3, 4))]),
        Sample([np.zeros((0, 2), dtype=np.int64), uniform(rng, (3, 4))])],
        second_order=True, no_second_order_reason="the result is rows of the weight: linear in it",
        errors=lambda: [
            ErrorSample([emb_ids(0, 5), np.zeros((4, 3))], {}, IndexError, "5"),
            ErrorSample([emb_ids(-1), np.zeros((4, 3))], {}, IndexError, "[0, 4)"),
            ErrorSample([np.array([0.0]), np.zeros((4, 3))], {}, ValueError, "'x'"),
            ErrorSample([emb_ids(0), np.zeros((4,))], {}, ValueError, "weight"),
            ErrorSample([emb_ids(0), np.zeros((4, 3))], {"padding_idx": 4}, ValueError, "padding_idx"),
            ErrorSample([emb_ids(0), np.zeros((4, 3))], {"sparse": True, "scale_grad_by_freq": True},
                        AttributeError, "scale_grad_by_freq")]),
    OpInfo("embedding_op", lambda x, weight, padding_idx: paddle._C_ops.embedding(x, weight, padding_idx, False),
           lambda x, weight, padding_idx: emb_np_embedding(x, weight, padding_idx if padding_idx >= 0 else None),
           lambda rng: [
               Sample([emb_ids([3, 1], [1, 0]), uniform(rng, (4, 3)), 1]),
               Sample([emb_ids(3, 1, 0), uniform(rng, (4, 3)), -1])],
           covers=["embedding"],
           errors=lambda: [ErrorSample([emb_ids(0), np.zeros((4, 3)), 7], {}, ValueError, "padding_idx")]),
    OpInfo("one_hot", paddle.nn.functional.one_hot,
           lambda x, num_classes: np.eye(num_classes, dtype=np.float32)[x], lambda rng: [
               Sample([integral(0, 2, 1, 2), 3]),
               Sample([integral([1, 0], [3, 3]), 4]),
               Sample([np.array(1.0), 2]),
               Sample([np.zeros((0,)), 3])],
           grad=False,
           errors=lambda: [
               ErrorSample([emb_ids(0, 3), 3], {}, IndexError, "num_classes"),
               ErrorSample([emb_ids(-1), 3], {}, IndexError, "-1"),
               ErrorSample([emb_ids(0), 0], {}, ValueError, "num_classes"),
               ErrorSample([np.array([1.0]), 3], {}, ValueError, "'x'")]),
]

OP_DB += EMBEDDING_OPS


# ---------------------------------------------------------------- normalization
def norm_np_layer_norm(x, scale=None, bias=None, epsilon=1e-5, begin_norm_axis=1):
    rows = int(np.prod(x.shape[:begin_norm_axis]))
    flat = x.reshape(rows, int(np.prod(x.shape[begin_norm_axis:])))
    mean = flat.mean(axis=1)
    variance = ((flat - mean[:, None]) ** 2).mean(axis=1)
    out = (flat - mean[:, None]) / np.sqrt(variance[:, None] + epsilon)
    if scale is not None:
        out = out * scale.reshape(-1)
    if bias is not None:
        out = out + bias.reshape(-1)
    return [out.reshape(x.shape), mean, variance]


def norm_layer_norm_op(x, scale=None, bias=None, epsilon=1e-5, begin_norm_axis=1):
    return list(paddle._C_ops.layer_norm(x, scale, bias, epsilon, begin_norm_axis))


def norm_np_functional(x, normalized_shape, weight=None, bias=None, epsilon=1e-5):
    ndim = 1 if isinstance(normalized_shape, int) else len(normalized_shape)
    return norm_np_layer_norm(x, weight, bias, epsilon, x.ndim - ndim)[0]


def norm_np_normalize(x, p=2, axis=1, epsilon=1e-12):
    norm = np.sum(np.abs(x) ** p, axis=axis, keepdims=True) ** (1.0 / p)
    return x / np.maximum(norm, epsilon)


NORM_OPS = [
    OpInfo("layer_norm", norm_layer_norm_op, norm_np_layer_norm, lambda rng: [
        Sample([uniform(rng, (2, 3, 4), -2, 2), uniform(rng, (12,), 0.5, 1.5), uniform(rng, (12,))]),
        Sample([uniform(rng, (2, 3, 4), -2, 2), None, None], {"begin_norm_axis": 2}),
        Sample([uniform(rng, (3, 5), -2, 2), uniform(rng, (5,), 0.5, 1.5), None], {"epsilon": 1e-3}),
        Sample([uniform(rng, (2, 2, 3), -2, 2), None, uniform(rng, (6,))]),
        Sample([uniform(rng, (0, 4)), uniform(rng, (4,)), uniform(rng, (4,))])],
        second_order=True, grad_outputs=[0],
        errors=lambda: [
            ErrorSample([np.zeros((2, 3)), np.ones(4), None], {}, ValueError, "scale"),
            ErrorSample([np.zeros((2, 3)), None, np.ones((3, 1))], {}, ValueError, "bias"),
            ErrorSample([np.zeros((2, 3)), None, None], {"begin_norm_axis": 2}, ValueError,
                        "begin_norm_axis"),
            ErrorSample([np.zeros((2, 3)), None, None], {"begin_norm_axis": 0}, ValueError,
                        "begin_norm_axis"),
            ErrorSample([np.zeros((2, 3), dtype=np.int64), None, None], {}, ValueError, "floating-point")]),
    OpInfo("layer_norm_functional", paddle.nn.functional.layer_norm, norm_np_functional, lambda rng: [
        Sample([uniform(rng, (2, 3, 4), -2, 2), [3, 4], uniform(rng, (3, 4), 0.5, 1.5), uniform(rng, (3, 4))]),
        Sample([uniform(rng, (3, 5), -2, 2), 5], {"epsilon": 1e-3})],
        covers=["layer_norm"], second_order=True,
        errors=lambda: [
            ErrorSample([np.zeros((2, 3)), [4]], {}, ValueError, "normalized_shape"),
            ErrorSample([np.zeros((2, 3)), "3"], {}, ValueError, "normalized_shape")]),
    OpInfo("normalize", paddle.nn.functional.normalize, norm_np_normalize, lambda rng: [
        Sample([away_from_zero(rng, (3, 4))]),
        Sample([away_from_zero(rng, (2, 3, 4))], {"p": 3, "axis": -1}),
        Sample([away_from_zero(rng, (4,))], {"p": 1, "axis": 0}),
        Sample([np.zeros((2, 3))], grad_args=[])],  # the norm is clamped to epsilon
        # F.normalize also calls pow, which has no 16-bit float kernels.
        covers=["divide"], only_dtypes=("float32", "float64"), second_order=True,
        errors=lambda: [ErrorSample([np.zeros(3)], {"axis": 1}, ValueError, "Axis")]),
]

OP_DB += NORM_OPS


# ---------------------------------------------------------------- batch normalization
def bn_np(x, mean, variance, scale=None, bias=None, is_test=False, momentum=0.9, epsilon=1e-5,
          data_format="NCHW", use_global_stats=False, trainable_statistics=False):
    """Paddle's batch_norm: the biased batch variance normalizes and updates the running one; a
    batch with at most one element per channel passes through and updates nothing."""
    axis = 1 if data_format[1] == "C" else x.ndim - 1
    axes = tuple(i for i in range(x.ndim) if i != axis)
    shape = [-1 if i == axis else 1 for i in range(x.ndim)]
    count = x.size // max(x.shape[axis], 1)
    empty = np.zeros((0,), dtype=np.uint8)
    if (is_test and not trainable_statistics) or use_global_stats:
        mu, var, new_mean, new_var = mean, variance, mean, variance
    elif count <= 1:
        zeros = np.zeros_like(mean)
        return [x, mean, variance, zeros, zeros, empty]
    else:
        mu, var = x.mean(axis=axes), x.var(axis=axes)
        new_mean = momentum * mean + (1 - momentum) * mu
        new_var = momentum * variance + (1 - momentum) * var
    inv_std = 1 / np.sqrt(var + epsilon)
    out = (x - mu.reshape(shape)) * inv_std.reshape(shape)
    if scale is not None:
        out = out * scale.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return [out, new_mean, new_var, mu, inv_std, empty]


def bn_op(x, mean, variance, scale=None, bias=None, is_test=False, momentum=0.9, epsilon=1e-5,
          data_format="NCHW", use_global_stats=False, trainable_statistics=False):
    return list(paddle._C_ops.batch_norm(x, mean, variance, scale, bias, is_test, momentum, epsilon,
                                         data_format, use_global_stats, trainable_statistics))


def bn_np_functional(x, running_mean, running_var, weight=None, bias=None, training=False,
                     momentum=0.9, epsilon=1e-5, data_format="NCHW", use_global_stats=None):
    if use_global_stats is None:
        use_global_stats, trainable_statistics = not training, False
    else:
        trainable_statistics = not use_global_stats
    return bn_np(x, running_mean, running_var, weight, bias, not training, momentum, epsilon,
                 data_format, use_global_stats, trainable_statistics)[0]


def bn_sample(rng, shape, channels, *, affine=True, **attrs):
    """x, running mean and variance, and (with affine) scale and bias; gradients only for x,
    scale and bias (the running statistics are not differentiable)."""
    args = [uniform(rng, shape, -2, 2), uniform(rng, (channels,)), uniform(rng, (channels,), 0.5, 2)]
    args += [uniform(rng, (channels,), 0.5, 1.5), uniform(rng, (channels,))] if affine else [None, None]
    return Sample(args, attrs, grad_args=[0, 3, 4] if affine else [0])


def bn_grad_op(x, scale, saved_mean, saved_variance, out_grad, data_format="NCHW", use_global_stats=False):
    return program_op("batch_norm_grad",
                      {"X": x, "Scale": scale, "SavedMean": saved_mean, "SavedVariance": saved_variance,
                       "Y@GRAD": out_grad},
                      {"X@GRAD": "X", "Scale@GRAD": "Scale", "Bias@GRAD": "Scale"},
                      {"data_layout": data_format, "use_global_stats": use_global_stats})


def bn_np_grad(x, scale, saved_mean, saved_variance, out_grad, data_format="NCHW", use_global_stats=False):
    """[x_grad, scale_grad, bias_grad] from the statistics the forward saved (the batch mean and
    1 / std, or the running ones with use_global_stats, which are then constants)."""
    axis = 1 if data_format[1] == "C" else x.ndim - 1
    axes = tuple(i for i in range(x.ndim) if i != axis)
    shape = [-1 if i == axis else 1 for i in range(x.ndim)]
    count = x.size // x.shape[axis]
    xhat = (x - saved_mean.reshape(shape)) * saved_variance.reshape(shape)
    bias_grad, scale_grad = out_grad.sum(axis=axes), (out_grad * xhat).sum(axis=axes)
    gain = (saved_variance * scale).reshape(shape)
    if use_global_stats:
        return [out_grad * gain, scale_grad, bias_grad]
    if count <= 1:  # the forward passed x through
        return [out_grad, np.zeros_like(scale_grad), np.zeros_like(bias_grad)]
    mean_grad, mean_grad_xhat = (bias_grad / count).reshape(shape), (scale_grad / count).reshape(shape)
    return [gain * (out_grad - mean_grad - xhat * mean_grad_xhat), scale_grad, bias_grad]


def bn_grad_sample(rng, shape, channels, **attrs):
    """x, scale, the saved mean and 1 / std, and the output's gradient."""
    return Sample([uniform(rng, shape, -2, 2), uniform(rng, (channels,), 0.5, 1.5), uniform(rng, (channels,)),
                   uniform(rng, (channels,), 0.5, 2), uniform(rng, shape)], attrs)


BATCH_NORM_OPS = [
    OpInfo("batch_norm", bn_op, bn_np, lambda rng: [
        bn_sample(rng, (2, 3, 2, 2), 3),                                    # training, NCHW
        bn_sample(rng, (2, 3, 4), 3, is_test=True),                         # running statistics
        bn_sample(rng, (2, 2, 3, 4), 4, affine=False, data_format="NHWC", momentum=0.5),
        bn_sample(rng, (5, 3), 3, data_format="NC", use_global_stats=True, epsilon=1e-3),
        bn_sample(rng, (2, 4, 3), 3, data_format="NLC", is_test=True, trainable_statistics=True),
        bn_sample(rng, (2, 2, 1, 2, 3), 3, data_format="NDHWC"),
        bn_sample(rng, (1, 3), 3),                                          # one element per channel
        bn_sample(rng, (0, 3, 2), 3)],
        grad_outputs=[0],
        errors=lambda: [
            ErrorSample([np.zeros(3), np.zeros(3), np.ones(3)], {}, ValueError, "batch_norm: argument 'x'"),
            ErrorSample([np.zeros((2, 3)), np.zeros(4), np.ones(3)], {}, ValueError,
                        "batch_norm: argument 'mean'"),
            ErrorSample([np.zeros((2, 3)), np.zeros(3), np.ones((3, 1))], {}, ValueError,
                        "batch_norm: argument 'variance'"),
            ErrorSample([np.zeros((2, 3, 4)), np.zeros(3), np.ones(3), np.ones(4), None], {}, ValueError,
                        "batch_norm: argument 'scale'"),
            ErrorSample([np.zeros((2, 3, 4)), np.zeros(4), np.ones(4), None, np.ones(3)],
                        {"data_format": "NHWC"}, ValueError, "batch_norm: argument 'bias'"),
            ErrorSample([np.zeros((2, 3), dtype=np.int64), np.zeros(3), np.ones(3)], {}, ValueError,
                        "floating-point"),
            ErrorSample([np.zeros((2, 3)), np.zeros(3), np.ones(3)], {"data_format": "CHWN"}, ValueError,
                        "data_format")]),
    OpInfo("batch_norm_functional", paddle.nn.functional.batch_norm, bn_np_functional, lambda rng: [
        bn_sample(rng, (3, 2, 4), 2, training=True),
        bn_sample(rng, (2, 3, 2, 2), 2, data_format="NHWC", training=True, momentum=0.8),
        bn_sample(rng, (4, 3), 3),
        bn_sample(rng, (4, 2, 3), 2, use_global_stats=False),  # batch statistics in eval
        bn_sample(rng, (2, 3, 2), 3, training=True, use_global_stats=True, epsilon=1e-3)],
        covers=["batch_norm"],
        errors=lambda: [
            ErrorSample([np.zeros((2, 3)), np.zeros(3), np.ones(3)], {"data_format": "NWC"}, ValueError,
                        "data_format"),
            ErrorSample([np.zeros((2, 3)), [0.0] * 3, np.ones(3)], {}, TypeError, "running_mean")]),
    OpInfo("batch_norm_grad", bn_grad_op, bn_np_grad, lambda rng: [
        bn_grad_sample(rng, (2, 3, 2, 2), 3),
        bn_grad_sample(rng, (2, 3, 4), 3, use_global_stats=True),
        bn_grad_sample(rng, (2, 2, 3, 4), 4, data_format="NHWC"),
        bn_grad_sample(rng, (5, 3), 3, data_format="NC"),
        bn_grad_sample(rng, (2, 4, 3), 3, data_format="NLC", use_global_stats=True),
        bn_grad_sample(rng, (2, 2, 1, 2, 3), 3, data_format="NDHWC"),
        bn_grad_sample(rng, (1, 3), 3)],  # one element per channel
        grad=False),
]

OP_DB += BATCH_NORM_OPS


# ---------------------------------------------------------------- static-graph helpers
def helper_np_add_n(*inputs):
    total = inputs[0].copy()
    for x in inputs[1:]:
        total = total + x
    return total


def helper_np_increment(x, value=1.0):
    return x + np.asarray(value).astype(x.dtype)  # the step is converted to x's dtype first


HELPER_OPS = [
    OpInfo("add_n", lambda *xs: paddle.add_n(list(xs)), helper_np_add_n, lambda rng: [
        Sample([uniform(rng, (3, 4)), uniform(rng, (3, 4)), uniform(rng, (3, 4))]),
        Sample([uniform(rng, (2, 3))]),
        Sample([uniform(rng, ()), uniform(rng, ())]),
        Sample([uniform(rng, (2, 0)), uniform(rng, (2, 0))])],
        errors=lambda: [
            ErrorSample([], {}, ValueError, "add_n: argument 'inputs'"),
            ErrorSample([np.zeros((2, 3)), np.zeros((3,))], {}, ValueError, "inputs[1] has shape [3]"),
            ErrorSample([np.zeros(2), np.zeros(2, dtype=np.int64)], {}, TypeError, "inputs[1] has dtype int64")]),
    OpInfo("add_n_of_a_tensor", paddle.add_n, lambda x: x, lambda rng: [Sample([uniform(rng, (3,))])],
           covers=["add_n"]),
    OpInfo("assign", paddle.assign, lambda x: x, lambda rng: [
        Sample([uniform(rng, (3, 4))]), Sample([uniform(rng, ())]), Sample([uniform(rng, (2, 0))])],
        errors=lambda: [ErrorSample(["abc"], {}, TypeError, "assign(): argument 'x'")]),
    OpInfo("assign_value", lambda shape, dtype, values: paddle._C_ops.assign_value(shape, dtype, values),
           lambda shape, dtype, values: np.array(values, dtype=np_dtype(dtype)).reshape(shape), lambda rng: [
               Sample([[2, 3], DTYPE, [0.5, 1.0, 2.25, 3.0, 4.0, 1e-3]]),
               Sample([[3], "int64", [1, -2, 2 ** 40]]),
               Sample([[3], "bool", [0, 1, 0.5]]),
               Sample([[], "float64", [0.1]]),
               Sample([[2], "float16", [1.5, -65504.0]]),
               Sample([[0, 2], "int32", []])],
           grad=False,
           errors=lambda: [
               ErrorSample([[2, 2], "float32", [1.0]], {}, ValueError, "assign_value: argument 'values'"),
               ErrorSample([[-1], "float32", []], {}, ValueError, "shape"),
               ErrorSample([[1], "float32", ["a"]], {}, TypeError, "values")]),
    OpInfo("increment", paddle.increment, helper_np_increment, lambda rng: [
        Sample([uniform(rng, (1,))]), Sample([uniform(rng, ())], {"value": 2.5}),
        Sample([uniform(rng, (1, 1))], {"value": -3.0})],
        grad=False,
        errors=lambda: [
            ErrorSample([np.zeros(2)], {}, ValueError, "increment: argument 'x' must hold exactly one element"),
            ErrorSample([[1.0]], {}, TypeError, "must be a Tensor")]),
]

OP_DB += HELPER_OPS


# ---------------------------------------------------------------- Paddle's legacy mul
def legacy_mul(x, y, x_num_col_dims=1, y_num_col_dims=1):
    return paddle._C_ops.mul(x, y, x_num_col_dims, y_num_col_dims)


def np_legacy_mul(x, y, x_num_col_dims=1, y_num_col_dims=1):
    xs, ys = x.shape, y.shape
    x2 = x.reshape(int(np.prod(xs[:x_num_col_dims])), int(np.prod(xs[x_num_col_dims:])))
    y2 = y.reshape(int(np.prod(ys[:y_num_col_dims])), int(np.prod(ys[y_num_col_dims:])))
    return (x2 @ y2).reshape(xs[:x_num_col_dims] + ys[y_num_col_dims:])


LEGACY_MUL_OPS = [
    OpInfo("mul", legacy_mul, np_legacy_mul, lambda rng: [
        Sample([uniform(rng, (3, 4)), uniform(rng, (4, 5))]),
        Sample([uniform(rng, (2, 3, 4)), uniform(rng, (4, 5))], {"x_num_col_dims": 2}),      # fc, 3-D input
        Sample([uniform(rng, (2, 3, 4)), uniform(rng, (12, 5))]),                           # x flattened
        Sample([uniform(rng, (2, 3, 4)), uniform(rng, (4, 3, 5))], {"y_num_col_dims": 2}),  # y flattened
        Sample([uniform(rng, (2, 3)), uniform(rng, (3, 2, 2))]),                            # y's trailing dims
        Sample([uniform(rng, (2, 3, 2)), uniform(rng, (12, 3))], {"x_num_col_dims": 0}),    # x as one row
        Sample([uniform(rng, (0, 4)), uniform(rng, (4, 3))]),                               # no rows
        Sample([uniform(rng, (3, 0)), uniform(rng, (0, 2))]),                               # empty sum: zeros
    ], second_order=True,
        errors=lambda: [
            ErrorSample([np.zeros((2, 3, 4)), np.zeros((4, 5))], {}, ValueError, "mul: argument 'y'"),
            ErrorSample([np.zeros((2, 3, 4)), np.zeros((4, 5))], {"x_num_col_dims": 3}, ValueError,
                        "mul: argument 'x_num_col_dims'"),
            ErrorSample([np.zeros((2, 3)), np.zeros((3, 5))], {"x_num_col_dims": -1}, ValueError,
                        "mul: argument 'x_num_col_dims'"),
            ErrorSample([np.zeros((2, 3)), np.zeros((3, 5))], {"y_num_col_dims": 2}, ValueError,
                        "mul: argument 'y_num_col_dims'"),
            ErrorSample([np.zeros((2, 3)), np.zeros((3,))], {}, ValueError, "mul: argument 'y_num_col_dims'"),
            ErrorSample([np.zeros((2, 3), "float32"), np.zeros((3, 5))], {}, TypeError,
                        "mul: argument 'y' has dtype float64"),
            ErrorSample([[1.0, 2.0], np.zeros((2, 5))], {}, TypeError, "must be a Tensor")]),
]

OP_DB += LEGACY_MUL_OPS


# ---------------------------------------------------------------- dropout
# A random op: forward values are checked by dropout_check (every element dropped to 0 or kept
# and scaled, the kept fraction near 1 - p, mask and out consistent). The gradient samples are
# deterministic: is_test, p == 1, or a fixed seed (fix_seed), which draws the same mask on every
# call; samples drawn from the global generator have grad_args=[]. test_dropout.py checks the
# training gradient against out_grad * mask / (1 - p) with the mask the op returns.
def dropout_op(x, p=0.5, is_test=False, mode="upscale_in_train", seed=0, fix_seed=False):
    return list(paddle._C_ops.dropout(x, None, p, is_test, mode, seed, fix_seed))


def dropout_check(result, sample):
    """Checks dropout's outputs, both [out, mask] or either one alone (the static harness
    passes one output at a time)."""
    from harness import to_numpy
    x = np.asarray(sample.args[0], dtype=np.float64)
    kw = sample.kwargs
    p = kw.get("p", 0.5)
    is_test = kw.get("is_test", not kw.get("training", True))
    upscale = kw.get("mode", "upscale_in_train") == "upscale_in_train"
    scale = 1.0 / (1.0 - p) if upscale and p < 1 else 1.0
    outputs = result if isinstance(result, (list, tuple)) else [result]
    values = {}
    for t in outputs:
        v = to_numpy(t)
        assert v.shape == x.shape, f"dropout: shape {v.shape}, x has {x.shape}"
        values["mask" if t.dtype == paddle.uint8 else "out"] = (v.astype(np.float64), t.dtype)
    rtol = 1e-2 if any(d in (paddle.float16, paddle.bfloat16) for _, d in values.values()) else 1e-6
    if "mask" in values:
        mask = values["mask"][0]
        assert set(np.unique(mask)) <= {0.0, 1.0}, "dropout: mask values other than 0 and 1"
        if is_test:
            assert mask.all(), "dropout: is_test drops nothing"
        elif p == 1:
            assert not mask.any(), "dropout: p == 1 drops everything"
        elif mask.size >= 1000:
            assert abs(mask.mean() - (1 - p)) < 0.05, f"dropout: kept {mask.mean()}, 1 - p = {1 - p}"
    if "out" in values:
        out = values["out"][0]
        if is_test:
            expected = x if upscale else x * (1 - p)
            np.testing.assert_allclose(out, expected, rtol=rtol, atol=1e-6, err_msg="dropout is_test")
            return
        kept = values["mask"][0] != 0 if "mask" in values else out != 0
        np.testing.assert_allclose(out, np.where(kept, x * scale, 0.0), rtol=rtol, atol=1e-6,
                                   err_msg="dropout: out is not x * mask * scale")
        if p == 1:
            assert not out.any(), "dropout: p == 1 gives zeros"
        elif out.size >= 1000:
            assert abs(kept.mean() - (1 - p)) < 0.05, f"dropout: kept {kept.mean()}, 1 - p = {1 - p}"


def dropout_samples(rng):
    return [
        Sample([uniform(rng, (40, 50))], {"p": 0.3}, grad_args=[]),
        Sample([uniform(rng, (40, 50))], {"p": 0.6, "mode": "downgrade_in_infer"}, grad_args=[]),
        Sample([uniform(rng, (4, 5))], {"p": 0.4, "seed": 17, "fix_seed": True}),
        Sample([uniform(rng, (3, 4))], {"p": 0.3, "mode": "downgrade_in_infer", "seed": 5, "fix_seed": True}),
        Sample([uniform(rng, (3, 4))], {"p": 0.3, "is_test": True}),
        Sample([uniform(rng, (2, 3, 2))], {"p": 0.25, "is_test": True, "mode": "downgrade_in_infer"}),
        Sample([uniform(rng, (2, 3))], {"p": 1.0}),
        Sample([uniform(rng, (2, 3))], {"p": 0.0, "seed": 2, "fix_seed": True}),
        Sample([uniform(rng, ())], {"p": 0.5, "seed": 3, "fix_seed": True}),
        Sample([uniform(rng, (0, 3))], {"p": 0.5}),
    ]


def dropout_functional_samples(rng):
    return [
        Sample([uniform(rng, (40, 50))], {"p": 0.3}, grad_args=[]),
        Sample([uniform(rng, (40, 50))], {"p": 0.4, "mode": "downscale_in_infer"}, grad_args=[]),
        Sample([uniform(rng, (3, 4))], {"p": 0.3, "training": False}),
        Sample([uniform(rng, (3, 4))], {"p": 0.4, "training": False, "mode": "downscale_in_infer"}),
        Sample([uniform(rng, (2, 3))], {"p": 1.0}),
    ]


DROPOUT_OPS = [
    OpInfo("dropout", dropout_op, None, dropout_samples,
           check=dropout_check, grad_outputs=[0],
           errors=lambda: [
               ErrorSample([np.zeros((2, 3))], {"p": 1.5}, ValueError, "dropout: argument 'p'"),
               ErrorSample([np.zeros((2, 3))], {"mode": "downscale_in_infer"}, ValueError,
                           "dropout: argument 'mode'"),
               ErrorSample([np.zeros((2, 3), dtype=np.int64)], {}, TypeError, "floating-point"),
               ErrorSample([[1.0, 2.0]], {}, TypeError, "must be")]),
    OpInfo("dropout_functional", paddle.nn.functional.dropout, None, dropout_functional_samples,
           covers=["dropout"], check=dropout_check,
           errors=lambda: [
               ErrorSample([np.zeros((2, 3))], {"p": 1.5}, ValueError, "'p'"),
               ErrorSample([np.zeros((2, 3))], {"mode": "downgrade_in_infer"}, ValueError, "'mode'")]),
]

OP_DB += DROPOUT_OPS


# ---------------------------------------------------------------- pixel_shuffle
def ps_np_pixel_shuffle(x, upscale_factor, data_format="NCHW"):
    """Channel i * r + j of each group of r * r goes to pixel (i, j) of each r x r block."""
    r = upscale_factor
    nchw = x if data_format == "NCHW" else x.transpose(0, 3, 1, 2)
    n, c, h, w = nchw.shape
    out = np.zeros((n, c // (r * r), h * r, w * r), x.dtype)
    for i in range(r):
        for j in range(r):
            out[:, :, i::r, j::r] = nchw[:, i * r + j::r * r]
    return out if data_format == "NCHW" else out.transpose(0, 2, 3, 1)


def ps_np_pixel_shuffle_grad(out_grad, upscale_factor, data_format="NCHW"):
    """The inverse of ps_np_pixel_shuffle."""
    r = upscale_factor
    nchw = out_grad if data_format == "NCHW" else out_grad.transpose(0, 3, 1, 2)
    n, c, h, w = nchw.shape
    x_grad = np.zeros((n, c * r * r, h // r, w // r), out_grad.dtype)
    for i in range(r):
        for j in range(r):
            x_grad[:, i * r + j::r * r] = nchw[:, :, i::r, j::r]
    return x_grad if data_format == "NCHW" else x_grad.transpose(0, 2, 3, 1)


def ps_pixel_shuffle_grad(out_grad, upscale_factor, data_format="NCHW"):
    """The pixel_shuffle_grad kernel, run as a Paddle training program holds it."""
    shape = list(out_grad.shape)
    c, h, w = (1, 2, 3) if data_format == "NCHW" else (3, 1, 2)
    r = upscale_factor
    shape[c] = shape[c] * r * r if shape[c] >= 0 else -1
    shape[h] = shape[h] // r if shape[h] >= 0 else -1
    shape[w] = shape[w] // r if shape[w] >= 0 else -1
    return program_op("pixel_shuffle_grad", {"Out@GRAD": out_grad}, {"X@GRAD": (shape, "Out@GRAD")},
                      {"upscale_factor": upscale_factor, "data_format": data_format})[0]


PIXEL_SHUFFLE_OPS = [
    OpInfo("pixel_shuffle", paddle.nn.functional.pixel_shuffle, ps_np_pixel_shuffle, lambda rng: [
        Sample([uniform(rng, (2, 8, 3, 2)), 2]),
        Sample([uniform(rng, (1, 9, 2, 2)), 3]),
        Sample([uniform(rng, (2, 3, 2, 8)), 2], {"data_format": "NHWC"}),
        Sample([uniform(rng, (1, 4, 2, 3)), 1])],
        second_order=True, no_second_order_reason=LINEAR,
        errors=lambda: [
            ErrorSample([np.zeros((8, 3, 2)), 2], {}, ValueError, "must be a 4-D tensor"),
            ErrorSample([np.zeros((1, 6, 2, 2)), 2], {}, ValueError, "divisible by upscale_factor^2 = 4"),
            ErrorSample([np.zeros((1, 4, 2, 2)), 0], {}, ValueError, "'upscale_factor' must be positive"),
            ErrorSample([np.zeros((1, 4, 2, 2)), 2], {"data_format": "NCWH"}, ValueError, "'NCWH'"),
            ErrorSample([[1.0], 2], {}, TypeError, "must be a Tensor")]),
    OpInfo("pixel_shuffle_grad", ps_pixel_shuffle_grad, ps_np_pixel_shuffle_grad, lambda rng: [
        Sample([uniform(rng, (2, 2, 6, 4)), 2]),
        Sample([uniform(rng, (1, 6, 6, 2)), 3, "NHWC"])],
        grad=False, no_grad_reason="its gradient, pixel_shuffle, is checked as the second-order "
                                   "gradient of the pixel_shuffle entry"),
]

OP_DB += PIXEL_SHUFFLE_OPS

# The entries of the later op families, one module each.
from op_db_act import ACT_OPS  # noqa: E402
from op_db_conv import CONV_OPS  # noqa: E402
from op_db_detection import DETECTION_OPS  # noqa: E402
from op_db_layout import LAYOUT_OPS  # noqa: E402
from op_db_norm import NORMALIZATION_OPS  # noqa: E402
from op_db_pool import POOL_OPS  # noqa: E402
from op_db_resample import RESAMPLE_OPS  # noqa: E402
from op_db_roi import ROI_OPS  # noqa: E402

OP_DB += (ACT_OPS + CONV_OPS + DETECTION_OPS + LAYOUT_OPS + NORMALIZATION_OPS + POOL_OPS
          + RESAMPLE_OPS + ROI_OPS)
from op_db_losses import LOSSES_OPS; OP_DB += LOSSES_OPS  # noqa: E402,E702
from op_db_sparse import SPARSE_OPS; OP_DB += SPARSE_OPS  # noqa: E402,E702
from op_db_ctc import CTC_OPS; OP_DB += CTC_OPS  # noqa: E402,E702
from op_db_rnn import RNN_OPS; OP_DB += RNN_OPS  # noqa: E402,E702
from op_db_attn import ATTENTION_OPS; OP_DB += ATTENTION_OPS  # noqa: E402,E702
from op_db_rng import RNG_OPS; OP_DB += RNG_OPS  # noqa: E402,E702
from op_db_linalg import LINALG_OPS; OP_DB += LINALG_OPS  # noqa: E402,E702
from op_db_complex import COMPLEX_OPS; OP_DB += COMPLEX_OPS  # noqa: E402,E702
from op_db_seq import SEQ_OPS; OP_DB += SEQ_OPS  # noqa: E402,E702
from op_db_fft import FFT_OPS; OP_DB += FFT_OPS  # noqa: E402,E702
from op_db_dist import DIST_OPS; OP_DB += DIST_OPS  # noqa: E402,E702
from op_db_optim import OPTIM_OPS; OP_DB += OPTIM_OPS  # noqa: E402,E702
from op_db_compiled import COMPILED_OPS; OP_DB += COMPILED_OPS  # noqa: E402,E702
from op_db_tier1 import TIER1_OPS; OP_DB += TIER1_OPS  # noqa: E402,E702
from op_db_eig import EIG_OPS; OP_DB += EIG_OPS  # noqa: E402,E702
from op_db_mem import MEM_OPS; OP_DB += MEM_OPS  # noqa: E402,E702
