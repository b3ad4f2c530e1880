"""paddle.static's program classes: Program, Block, Operator, Variable, Parameter.

Each wraps a C++ description (ProgramDesc, BlockDesc, OpDesc, VarDesc; paddle/framework) that
serialises to Paddle's .pdmodel format. A static Variable is a paddle.Tensor subclass, so the
same API functions (paddle.add, nn.Linear, ...) accept it: in static mode their op calls append
ops to the current block (see enable_static) instead of running.
"""
import contextlib

from ..base import libpaddle
from ..base.framework import convert_dtype
from ..base.parameter_attributes import ParameterAttributes
from ..utils import unique_name

__all__ = ["Program", "Block", "Operator", "Variable", "Parameter", "program_guard",
           "default_main_program", "default_startup_program", "name_scope"]

Tensor = libpaddle.Tensor

# framework.proto VarType.Type numbers of the variable kinds a program declares.
DENSE_TENSOR = 7
SELECTED_ROWS = 8
FEED_MINIBATCH = 9
FETCH_LIST = 10
DENSE_TENSOR_ARRAY = 13
_KIND_NAMES = {DENSE_TENSOR: "DENSE_TENSOR", SELECTED_ROWS: "SELECTED_ROWS",
               FEED_MINIBATCH: "FEED_MINIBATCH", FETCH_LIST: "FETCH_LIST",
               DENSE_TENSOR_ARRAY: "DENSE_TENSOR_ARRAY"}

# Paddle's op_role attribute values.
OP_ROLE_FORWARD = 0
OP_ROLE_BACKWARD = 1
OP_ROLE_OPTIMIZE = 2
OP_ROLE_LOSS = 256


_TMP_KEY_PREFIX = "@tmp@"


def _unique_tmp_name(key):
    """The name of an op's new output, "<op type>_<n>.tmp_0" as in Paddle. Temporaries count
    under their own keys, so they do not advance the counters that name layers."""
    return unique_name.generate(_TMP_KEY_PREFIX + key)[len(_TMP_KEY_PREFIX):] + ".tmp_0"


class Variable(Tensor):
    """A variable of a static program: a name with a dtype and a shape (-1 where unknown until
    the program runs). It holds no data; run the program with an Executor and fetch it."""

    def __init__(self, block, desc):
        Tensor.__init__(self)
        self.block = block
        self.desc = desc

    __hash__ = object.__hash__

    # ---- description -----------------------------------------------------------------------
    @property
    def name(self):
        return self.desc.name()

    @name.setter
    def name(self, new_name):
        """Renames the variable in its block and in the ops that use it (Paddle's setter)."""
        if not isinstance(new_name, str) or not new_name:
            raise TypeError(f"Variable.name must be a non-empty str, but received {new_name!r}")
        old = self.name
        if new_name == old:
            return
        self.block.desc._rename_var(old, new_name)
        self.block.vars[new_name] = self.block.vars.pop(old, self)

    @property
    def shape(self):
        return list(self.desc.shape()) if self.desc.has_tensor_desc() else []

    @property
    def dtype(self):
        return self.desc.dtype()

    @property
    def ndim(self):
        return len(self.shape)

    def dim(self):
        return self.ndim

    @property
    def size(self):
        n = 1
        for d in self.shape:
            if d < 0:
                return -1
            n *= d
        return n

    @property
    def type(self):
        return self.desc.type()

    def is_selected_rows(self):
        """Whether the program declares the variable a SelectedRows (a sparse gradient)."""
        return self.type == SELECTED_ROWS

    def is_dense(self):
        return self.type == DENSE_TENSOR

    @property
    def lod_level(self):
        return 0

    @property
    def place(self):
        return libpaddle._default_place()

    @property
    def persistable(self):
        return self.desc.persistable()

    @persistable.setter
    def persistable(self, value):
        self.desc.set_persistable(bool(value))

    @property
    def stop_gradient(self):
        return self.desc.stop_gradient()

    @stop_gradient.setter
    def stop_gradient(self, value):
        self.desc.set_stop_gradient(bool(value))

    @property
    def is_parameter(self):
        return self.desc.is_parameter()

    @property
    def grad(self):
        return None

    @property
    def is_leaf(self):
        return True

    def numpy(self):
        raise RuntimeError(f"static Variable '{self.name}' holds no data while the program is "
                           f"being built; run the program with paddle.static.Executor and fetch "
                           f"it")

    def item(self):
        return self.numpy()

    def tolist(self):
        return self.numpy()

    def __array__(self, dtype=None, copy=None):
        return self.numpy()

    def __bool__(self):
        raise TypeError(f"the truth value of static Variable '{self.name}' is unknown while the "
                        f"program is being built; use paddle.static.nn.cond for data-dependent "
                        f"branches")

    def __len__(self):
        shape = self.shape
        if not shape:
            raise TypeError("len() of a 0-d Variable")
        return shape[0]

    def __index__(self):
        raise TypeError(f"the integer value of static Variable '{self.name}' is unknown while "
                        f"the program is being built; use paddle.static.nn.while_loop for "
                        f"loops it bounds")

    def __iter__(self):
        # The rows of a known first dim (a Python loop over them unrolls into the program).
        shape = self.shape
        if not shape or shape[0] < 0:
            raise TypeError(f"iterating over static Variable '{self.name}' of shape {shape}: "
                            f"the number of its rows is unknown while the program is being "
                            f"built; use paddle.static.nn.while_loop")
        return (self[i] for i in range(shape[0]))

    def backward(self, *args, **kwargs):
        raise RuntimeError("Variable.backward() is for dygraph; in static mode use "
                           "paddle.static.append_backward or optimizer.minimize(loss)")

    def to_string(self, throw_on_error=True, with_details=False):
        return _var_string(self)

    def __repr__(self):
        return _var_string(self)

    __str__ = __repr__


class Parameter(ParameterAttributes, Variable):
    """A trainable persistable variable, initialised by the startup program."""

    def __init__(self, block, desc, **attributes):
        Variable.__init__(self, block, desc)
        desc.set_persistable(True)
        desc.set_is_parameter(True)
        self._init_parameter_attributes(**attributes)

    def _copy_attributes_to(self, other):
        other.optimize_attr = dict(self.optimize_attr)
        other.regularizer = self.regularizer
        other.do_model_average = self.do_model_average
        other.need_clip = self.need_clip
        other.is_distributed = self.is_distributed


def _var_string(var):
    kind = _KIND_NAMES.get(var.type, str(var.type))
    prefix = "persist " if var.persistable else ""
    if isinstance(var, Parameter):
        prefix += "trainable param" if var.trainable else "param"
    else:
        prefix += "var"
    if var.desc.has_tensor_desc():
        dtype = var.dtype.name
        shape = ", ".join(str(d) for d in var.shape)
        return (f"{prefix} {var.name} : {kind}.shape({shape}).dtype({dtype})"
                f".stop_gradient({var.stop_gradient})")
    return f"{prefix} {var.name} : {kind}"


class Operator:
    """One op of a block (a view of its OpDesc)."""

    def __init__(self, block, desc):
        self.block = block
        self.desc = desc

    @property
    def type(self):
        return self.desc.type()

    def input(self, slot):
        return self.desc.input(slot)

    def output(self, slot):
        return self.desc.output(slot)

    @property
    def input_names(self):
        return self.desc.input_names()

    @property
    def output_names(self):
        return self.desc.output_names()

    @property
    def input_arg_names(self):
        return self.desc.input_arg_names()

    @property
    def output_arg_names(self):
        return self.desc.output_arg_names()

    def has_attr(self, name):
        return self.desc.has_attr(name)

    def attr(self, name):
        return self.desc.attr(name)

    def _set_attr(self, name, value):
        self.desc.set_attr(name, value)

    @property
    def attr_names(self):
        return self.desc.attr_names()

    def all_attrs(self):
        return {name: self.desc.attr(name) for name in self.attr_names}

    def __repr__(self):
        outs = ", ".join(f"{s}={self.output(s)}" for s in self.output_names)
        ins = ", ".join(f"{s}={self.input(s)}" for s in self.input_names)
        attrs = ", ".join(f"{k} = {v!r}" for k, v in self.all_attrs().items()
                          if not k.startswith("op_"))
        return f"{{{outs}}} = {self.type}(inputs={{{ins}}}, {attrs})"

    __str__ = __repr__


class Block:
    """The variables and ordered ops of one block of a Program."""

    def __init__(self, program, idx):
        self.program = program
        self.desc = program.desc.block(idx)
        self.vars = {}
        self.ops = []
        self._sync_with_cpp()

    @property
    def idx(self):
        return self.desc.id

    @property
    def parent_idx(self):
        return self.desc.parent

    @property
    def forward_block_idx(self):
        return self.desc.get_forward_block_idx()

    def _sync_with_cpp(self):
        """Wraps variables and ops that C++ added to the description (backward, parsing)."""
        for desc in self.desc.all_vars():
            name = desc.name()
            if name not in self.vars:
                cls = Parameter if desc.is_parameter() else Variable
                self.vars[name] = (Parameter(self, desc, trainable=not desc.stop_gradient())
                                   if cls is Parameter else Variable(self, desc))
        known = {id(op.desc): op for op in self.ops}
        self.ops = [known.get(id(d), None) or Operator(self, d)
                    for d in (self.desc.op(i) for i in range(self.desc.op_size()))]

    def var(self, name):
        if name not in self.vars:
            raise ValueError(f"var {name} not in this block")
        return self.vars[name]

    def has_var(self, name):
        return name in self.vars

    def _var_recursive(self, name):
        block = self
        while True:
            if name in block.vars:
                return block.vars[name]
            if block.parent_idx < 0:
                raise ValueError(f"var {name} is not in block {self.idx} or its ancestors")
            block = self.program.block(block.parent_idx)

    def _find_var_recursive(self, name):
        try:
            return self._var_recursive(name)
        except ValueError:
            return None

    def create_var(self, name=None, shape=None, dtype=None, persistable=False,
                   stop_gradient=True, type=DENSE_TENSOR, need_check_feed=False, **_):
        name = name or unique_name.generate("_generated_var")
        if name in self.vars:
            return self.vars[name]
        desc = self.desc.var(name)
        desc.set_type(type)
        if desc.has_tensor_desc():
            desc.set_dtype(convert_dtype(dtype if dtype is not None else "float32"))
            desc.set_shape([-1 if d is None else int(d) for d in (shape or [])])
        desc.set_persistable(persistable)
        desc.set_stop_gradient(stop_gradient)
        desc.set_need_check_feed(need_check_feed)
        var = Variable(self, desc)
        self.vars[name] = var
        return var

    def create_parameter(self, name, shape, dtype, **attrs):
        desc = self.desc.var(name)
        desc.set_dtype(convert_dtype(dtype))
        desc.set_shape([int(d) for d in shape])
        param = Parameter(self, desc, **attrs)
        self.vars[name] = param
        return param

    def append_op(self, type, inputs=None, outputs=None, attrs=None):
        """Appends an op given by its Paddle type, slots ({slot: [Variable or name]}) and
        attributes. Ops with a schema are better appended by calling their API in static
        mode, which also infers the outputs' shapes."""
        return self._insert_op(len(self.ops), type, inputs, outputs, attrs)

    def _insert_op(self, index, type, inputs=None, outputs=None, attrs=None):
        desc = self.desc._insert_op(index)
        desc.set_type(type)
        for slot, args in (inputs or {}).items():
            desc.set_input(slot, _names(args))
        for slot, args in (outputs or {}).items():
            desc.set_output(slot, _names(args))
        for name, value in (attrs or {}).items():
            if isinstance(value, Block):
                desc.set_block_attr(name, value.idx)
            elif value is not None:
                desc.set_attr(name, value)
        if not desc.has_attr("op_role"):
            desc.set_attr("op_role", libpaddle._op_role())
        op = Operator(self, desc)
        self.ops.insert(index, op)
        return op

    def _prepend_op(self, *args, **kwargs):
        return self._insert_op(0, *args, **kwargs)

    def _remove_op(self, index, end=None):
        end = index + 1 if end is None else end
        self.desc._remove_op(index, end)
        del self.ops[index:end]

    def _remove_var(self, name):
        self.desc._remove_var(name)
        self.vars.pop(name, None)

    def _register_appended_op(self, op_desc, outputs):
        """Called by the op API in static mode after it appended `op_desc`: wraps the op and
        its new outputs (one list per output slot, None for an absent one). Ops C++ appended
        before it (the casts of type promotion) are wrapped too, in program order."""
        for i in range(len(self.ops), self.desc.op_size()):
            self.ops.append(Operator(self, self.desc.op(i)))
        wrapped = []
        for slot in outputs:
            wrapped.append([None if d is None else self._wrap_desc(d) for d in slot])
        return wrapped

    def _wrap_desc(self, desc):
        name = desc.name()
        block = self
        while block is not None:
            var = block.vars.get(name)
            if var is not None:
                return var
            block = self.program.block(block.parent_idx) if block.parent_idx >= 0 else None
        var = Variable(self, desc)
        self.vars[name] = var
        return var

    def all_parameters(self):
        return [v for v in self.vars.values() if isinstance(v, Parameter)]

    def iter_parameters(self):
        return iter(self.all_parameters())

    def to_string(self, throw_on_error=True, with_details=False):
        lines = [f"{{ // block_idx:{self.idx}  parent_idx:{self.parent_idx}  "
                 f"forward_idx:{self.forward_block_idx}  backward_idx:-1"]
        lines += [f"    {v}" for _, v in sorted(self.vars.items())]
        lines.append("")
        lines += [f"    {op}" for op in self.ops]
        lines.append("}")
        return "\n".join(lines)

    __repr__ = __str__ = to_string


def _names(args):
    if not isinstance(args, (list, tuple)):
        args = [args]
    return [a if isinstance(a, str) else a.name for a in args]


class Program:
    """A static-graph program: blocks of variables and ops, run by an Executor."""

    def __init__(self):
        self.desc = libpaddle.ProgramDesc()
        self.blocks = [Block(self, 0)]
        self.current_block_idx = 0
        self.random_seed = 0
        self.lr_scheduler = None
        self._lr_var_name = None

    @classmethod
    def _from_desc(cls, desc):
        program = cls.__new__(cls)
        program.desc = desc
        program.blocks = [Block(program, i) for i in range(desc.num_blocks())]
        program.current_block_idx = 0
        program.random_seed = 0
        program.lr_scheduler = None
        program._lr_var_name = None
        return program

    @staticmethod
    def parse_from_string(binary_str):
        return Program._from_desc(libpaddle._parse_program(binary_str, "bytes"))

    def global_block(self):
        return self.blocks[0]

    def block(self, index):
        return self.blocks[index]

    def current_block(self):
        return self.blocks[self.current_block_idx]

    @property
    def num_blocks(self):
        return len(self.blocks)

    def _create_block(self, parent_idx=None):
        parent = self.current_block() if parent_idx is None else self.block(parent_idx)
        self.desc.append_block(parent.desc)
        block = Block(self, len(self.blocks))
        self.blocks.append(block)
        self.current_block_idx = block.idx
        return block

    def _rollback(self):
        self.current_block_idx = self.current_block().parent_idx

    def _sync_with_cpp(self):
        for i in range(len(self.blocks), self.desc.num_blocks()):
            self.blocks.append(Block(self, i))
        for block in self.blocks:
            block._sync_with_cpp()

    @property
    def _version(self):
        return self.desc.revision()

    def list_vars(self):
        for block in self.blocks:
            yield from block.vars.values()

    def all_parameters(self):
        return [p for block in self.blocks for p in block.all_parameters()]

    def clone(self, for_test=False):
        """A copy of the program. With for_test, ops of the backward and optimizer parts are
        dropped and every op with an `is_test` attribute runs in inference mode."""
        program = Program._from_desc(libpaddle.ProgramDesc(self.desc))
        program.random_seed = self.random_seed
        program.lr_scheduler = self.lr_scheduler
        program._lr_var_name = self._lr_var_name
        for block in program.blocks:
            for name, var in block.vars.items():
                source = self.block(block.idx).vars.get(name)
                if isinstance(var, Parameter) and isinstance(source, Parameter):
                    source._copy_attributes_to(var)
        if for_test:
            for block in program.blocks:
                for i in reversed(range(len(block.ops))):
                    op = block.ops[i]
                    role = op.attr("op_role") if op.has_attr("op_role") else 0
                    if role & (OP_ROLE_BACKWARD | OP_ROLE_OPTIMIZE):
                        block._remove_op(i)
                    elif op.has_attr("is_test"):
                        op._set_attr("is_test", True)
        return program

    def to_string(self, throw_on_error=True, with_details=False):
        return "\n".join(b.to_string() for b in self.blocks)

    __repr__ = __str__ = to_string

    def state_dict(self, mode="all", scope=None):
        from .executor import global_scope
        scope = scope or global_scope()
        state = {}
        for var in self.list_vars():
            if not var.persistable or var.type != DENSE_TENSOR:
                continue
            if mode == "param" and not isinstance(var, Parameter):
                continue
            if mode == "opt" and isinstance(var, Parameter):
                continue
            found = scope.find_var(var.name)
            if found is not None and found.is_initialized():
                state[var.name] = found.get_tensor()
        return state


_main_program = Program()
_startup_program = Program()


def default_main_program():
    return _main_program


def default_startup_program():
    return _startup_program


@contextlib.contextmanager
def program_guard(main_program, startup_program=None):
    """Makes `main_program` (and `startup_program`) the defaults inside the block."""
    global _main_program, _startup_program
    if not isinstance(main_program, Program):
        raise TypeError(f"program_guard(): 'main_program' must be a Program, but received "
                        f"{type(main_program).__name__}")
    if startup_program is not None and not isinstance(startup_program, Program):
        raise TypeError(f"program_guard(): 'startup_program' must be a Program, but received "
                        f"{type(startup_program).__name__}")
    saved = _main_program, _startup_program
    _main_program = main_program
    if startup_program is not None:
        _startup_program = startup_program
    try:
        yield
    finally:
        _main_program, _startup_program = saved


_name_scopes = []


@contextlib.contextmanager
def name_scope(prefix=None):
    _name_scopes.append(prefix or "")
    try:
        yield
    finally:
        _name_scopes.pop()


@contextlib.contextmanager
def _op_role_guard(role):
    saved = libpaddle._op_role()
    libpaddle._set_op_role(role)
    try:
        yield
    finally:
        libpaddle._set_op_role(saved)
