"""Persistable variables of a static program: create_global_var and create_parameter. Their
initial values come from ops appended to the startup program."""
from ..base.framework import convert_dtype
from ..utils import unique_name
from .program import default_main_program, default_startup_program, program_guard

__all__ = ["create_global_var", "create_parameter"]


def _startup_init(var, make_value):
    """Appends to the startup program the ops computing `make_value(startup_var)` and makes
    the last of them write `var` directly, as Paddle's initializer ops do."""
    startup = default_startup_program()
    block = startup.global_block()
    target = block.create_var(name=var.name, shape=var.shape, dtype=var.dtype,
                              persistable=True, stop_gradient=var.stop_gradient)
    with program_guard(startup):
        value = make_value(target)
    last = block.ops[-1]
    if value.name not in last.output_arg_names:
        raise RuntimeError(f"the initializer of '{var.name}' did not end with the op computing "
                           f"its value")
    last.desc.rename_output(value.name, target.name)
    block._remove_var(value.name)
    return target


def create_global_var(shape, value, dtype, persistable=False, force_cpu=False, name=None):
    """A variable of the main program's global block filled with `value` by the startup
    program."""
    from .. import _C_ops
    dtype = convert_dtype(dtype)
    shape = [int(d) for d in shape]
    name = name or unique_name.generate("global_var")
    main = default_main_program().global_block()
    var = main.create_var(name=name, shape=shape, dtype=dtype, persistable=persistable,
                          stop_gradient=True)
    _startup_init(var, lambda target: _C_ops.full(shape, value, dtype, target.place))
    return var


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False,
                     default_initializer=None):
    from ..nn.parameter import create_parameter as create
    return create(shape, dtype, name=name, attr=attr, is_bias=is_bias,
                  default_initializer=default_initializer)


def _static_parameter(name, shape, dtype, initializer, **attrs):
    """A Parameter of the main program, initialised by `initializer` in the startup program."""
    main = default_main_program().global_block()
    param = main.create_parameter(name, shape, dtype, **attrs)
    _startup_init(param, initializer._value)
    return param
