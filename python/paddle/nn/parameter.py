"""Parameters: EagerParamBase (the tensors a Layer trains) and paddle.create_parameter.

A parameter is a paddle.Tensor subclass, so every op and method accepts it; on top of the
tensor it carries what the optimizer and the savers need: a stable name ("linear_0.w_0", the key
of its optimizer state), `trainable`, the learning-rate multiplier, its own regularizer and
whether gradient clipping applies to it.
"""
import copy
import numbers

from .. import _C_ops
from ..autograd import no_grad
from ..base import libpaddle
from ..base.framework import convert_dtype, is_floating
from ..base.parameter_attributes import ParameterAttributes
from ..tensor.to_string import tensor_repr
from ..utils import unique_name
from .initializer import Constant, XavierUniform
from .initializer.initializer import global_initializer
from .param_attr import ParamAttr

__all__ = ["EagerParamBase", "create_parameter"]

Tensor = libpaddle.Tensor


class EagerParamBase(ParameterAttributes, Tensor):
    """EagerParamBase(shape, dtype, **attrs) makes a zero-filled parameter on the current
    device; layers create theirs with create_parameter, which also initializes them."""

    def __init__(self, shape, dtype, **kwargs):
        Tensor.__init__(self)
        self._share_data_from(_C_ops.full(list(shape), 0.0, convert_dtype(dtype),
                                          libpaddle._default_place()))
        self._init_attributes(**kwargs)

    @classmethod
    def _from_tensor(cls, tensor, **kwargs):
        """A parameter sharing `tensor`'s memory (no copy)."""
        param = cls.__new__(cls)
        Tensor.__init__(param)
        param._share_data_from(tensor)
        param._init_attributes(**kwargs)
        return param

    def _init_attributes(self, name=None, trainable=True, optimize_attr=None, regularizer=None,
                         do_model_average=None, need_clip=True, is_distributed=False, **_):
        self.name = name if name else unique_name.generate("_eager_param_base")
        self.persistable = True
        self._init_parameter_attributes(trainable, optimize_attr, regularizer, do_model_average,
                                        need_clip, is_distributed)

    def __repr__(self):
        return "Parameter containing:\n" + tensor_repr(self)

    __str__ = __repr__

    def __deepcopy__(self, memo):
        with no_grad():
            data = _C_ops.scale(self.detach(), 1.0, 0.0, True)
        new = EagerParamBase._from_tensor(
            data, name=self.name + "_deepcopy", trainable=self.trainable,
            optimize_attr=copy.deepcopy(self.optimize_attr, memo),
            regularizer=copy.deepcopy(self.regularizer, memo),
            do_model_average=self.do_model_average, need_clip=self.need_clip,
            is_distributed=self.is_distributed)
        memo[id(self)] = new
        return new


def _make_parameter(owner, shape, attr=None, dtype=None, is_bias=False,
                    default_initializer=None):
    """The parameter for `attr` (see ParamAttr._to_attr), named "<owner>.w_N" / "<owner>.b_N"
    unless attr names it, or None when attr is False. Initializer precedence, as in Paddle:
    the attr's, then the global one (set_global_initializer), then `default_initializer`, then
    zeros for a bias and XavierUniform for a weight."""
    attr = ParamAttr._to_attr(attr)
    if not attr:
        return None
    attr = copy.copy(attr)  # naming it must not change the caller's ParamAttr
    shape = _check_shape(shape)
    dtype = convert_dtype(dtype if dtype is not None else "float32")

    initializer = attr.initializer
    if initializer is None:
        initializer = global_initializer(is_bias) or default_initializer
    if initializer is None:
        if not is_floating(dtype):
            raise TypeError("Can not create parameter with default initializer when dtype is "
                            "not ['float16', 'float32', 'float64', 'bfloat16'] type. Set "
                            "default_initializer to fit the parameter dtype!")
        initializer = Constant(0.0) if is_bias else XavierUniform()

    name = attr.name or unique_name.generate(f"{owner}.{'b' if is_bias else 'w'}")
    if unique_name.dygraph_parameter_name_checker(name):
        raise ValueError(f"parameter name [{name}] have be been used. In dygraph mode, the name "
                         f"of parameter can't be same. Please check the parameter attr value "
                         f"passed to self.create_parameter or constructor of dygraph Layers")

    if libpaddle._in_static_mode():
        from ..static.tensor import _static_parameter
        return _static_parameter(name, shape, dtype, initializer, trainable=attr.trainable,
                                 optimize_attr={"learning_rate": attr.learning_rate},
                                 regularizer=attr.regularizer,
                                 do_model_average=attr.do_model_average,
                                 need_clip=attr.need_clip)
    param = EagerParamBase(shape, dtype, name=name, trainable=attr.trainable,
                           optimize_attr={"learning_rate": attr.learning_rate},
                           regularizer=attr.regularizer, do_model_average=attr.do_model_average,
                           need_clip=attr.need_clip)
    initializer(param)
    return param


def _check_shape(shape):
    if isinstance(shape, Tensor):
        shape = shape.numpy().tolist()
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"create_parameter(): 'shape' must be a list or tuple of ints, but "
                        f"received {type(shape).__name__}")
    for i, size in enumerate(shape):
        if not isinstance(size, numbers.Integral) or size <= 0:
            raise ValueError(f"Expected every dim's size to be larger than 0, but the size of "
                             f"the {i}-th dim is {size}")
    return [int(s) for s in shape]


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False,
                     default_initializer=None):
    """paddle.create_parameter: a standalone trainable parameter."""
    if attr is None:
        attr = ParamAttr(name=name)
    return _make_parameter(unique_name.generate("create_parameter"), shape, attr, dtype,
                           is_bias, default_initializer)
