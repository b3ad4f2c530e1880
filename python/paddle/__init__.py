"""paddle: a PaddlePaddle-compatible deep learning framework."""
__version__ = "0.1.0"

from .base import libpaddle as _libpaddle  # noqa: E402
from .base.framework import (get_default_dtype, in_dynamic_mode,  # noqa: E402,F401
                             set_default_dtype)

Tensor = _libpaddle.Tensor
dtype = _libpaddle.DataType
CPUPlace = _libpaddle.CPUPlace
CUDAPlace = _libpaddle.CUDAPlace
CUDAPinnedPlace = _libpaddle.CUDAPinnedPlace
Place = _libpaddle.Place

bool = dtype.BOOL  # noqa: A001
int8 = dtype.INT8
uint8 = dtype.UINT8
int16 = dtype.INT16
int32 = dtype.INT32
int64 = dtype.INT64
float16 = dtype.FLOAT16
bfloat16 = dtype.BFLOAT16
float32 = dtype.FLOAT32
float64 = dtype.FLOAT64
complex64 = dtype.COMPLEX64
complex128 = dtype.COMPLEX128

from . import tensor  # noqa: E402,F401  (also installs the Tensor methods)
from .tensor.creation import *  # noqa: E402,F401,F403
from .tensor.linalg import *  # noqa: E402,F401,F403
from .tensor.logic import *  # noqa: E402,F401,F403
from .tensor.manipulation import *  # noqa: E402,F401,F403
from .tensor.math import *  # noqa: E402,F401,F403
from .tensor.random import *  # noqa: E402,F401,F403
from .tensor.search import *  # noqa: E402,F401,F403
from .tensor.stat import *  # noqa: E402,F401,F403
from .base.generated_api import *  # noqa: E402,F401,F403

from . import autograd, device, framework, linalg  # noqa: E402,F401
from .autograd import enable_grad, grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: E402,F401
from .device import get_device, is_compiled_with_cuda, set_device  # noqa: E402,F401
from .framework import get_flags, get_rng_state, seed, set_flags, set_rng_state  # noqa: E402,F401
from . import metric, nn, optimizer, regularizer, utils  # noqa: E402,F401
from . import io  # noqa: E402,F401
from .framework.io import load, save  # noqa: E402,F401
from .nn.param_attr import ParamAttr  # noqa: E402,F401
from .nn.parameter import create_parameter  # noqa: E402,F401


from . import static  # noqa: E402,F401
from . import amp  # noqa: E402,F401
from . import onnx  # noqa: E402,F401  (imports the onnx package only when exporting)
from . import inference  # noqa: E402,F401
from . import vision  # noqa: E402,F401
from . import jit  # noqa: E402,F401
from . import callbacks, hapi  # noqa: E402,F401
from .hapi import Model, flops, summary  # noqa: E402,F401
from . import text  # noqa: E402,F401
from . import fft, signal  # noqa: E402,F401
from . import distributed  # noqa: E402,F401
from .distributed import DataParallel  # noqa: E402,F401


def enable_static():
    """Static-graph mode: API calls append ops to the current program (paddle.static)."""
    _libpaddle._set_static_mode(True)


def disable_static(place=None):
    """Dygraph mode (the default): API calls run at once. `place` selects the device."""
    _libpaddle._set_static_mode(False)
    if place is not None:
        _libpaddle._set_default_place(device._resolve_place(place))


def is_tensor(x):
    return isinstance(x, Tensor)


def __getattr__(name):
    # paddle.sysconfig is imported on first use rather than with the package, so that
    # `python -m paddle.sysconfig` runs it as a fresh module.
    if name == "sysconfig":
        import importlib
        return importlib.import_module("paddle.sysconfig")
    raise AttributeError(f"module 'paddle' has no attribute '{name}'")
