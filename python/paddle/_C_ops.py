"""One function per op of the schema (paddle/ops/yaml), taking inputs then attributes.

In-place variants end with an underscore (``add_``, ``adam_``) and exist for ops that declare
``inplace``: every declared pair writes its output into its input, which is returned. An output
whose optional input was not given (``adam_``'s ``master_param_out`` without ``master_param``)
is None.
"""
from .base import libpaddle as _libpaddle

_ops = _libpaddle._C_ops
globals().update({name: getattr(_ops, name) for name in dir(_ops) if not name.startswith("__")})
__all__ = [name for name in dir(_ops) if not name.startswith("__")]
