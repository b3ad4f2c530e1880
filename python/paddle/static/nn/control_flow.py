"""paddle.static.nn.cond and paddle.static.nn.while_loop: data-dependent control flow in a
static program, written as Paddle writes it.

Each branch of cond and the body of while_loop is built into a sub-block of the program, run by
a `conditional_block` or `while` op (paddle/framework/control_flow_instructions.cc). The op's
`Input`/`X` slot lists the variables of enclosing blocks the sub-block reads and `Out` those it
writes; results leave the sub-block through `assign` ops writing variables of the enclosing
block. cond merges its branches' results with `select_input`. append_backward builds the
gradients of both (paddle/framework/control_flow_backward.h).

In dygraph mode both run the Python callables directly.
"""
from ... import _C_ops
from ...base import libpaddle
from ...base.framework import convert_dtype
from ...tensor.creation import assign
from ..program import Variable, default_main_program

__all__ = ["cond", "while_loop"]

# framework.proto VarType.Type of the variable holding a control-flow op's child scopes.
STEP_SCOPES = 11

_BUILTIN_RESULTS = (bool, int, float)


# ---- nested structures (Paddle's nest utilities: lists, tuples, namedtuples, dicts) -----------

def _is_sequence(x):
    return isinstance(x, (list, tuple, dict))


def _flatten(structure):
    if isinstance(structure, dict):
        return [leaf for key in sorted(structure) for leaf in _flatten(structure[key])]
    if isinstance(structure, (list, tuple)):
        return [leaf for item in structure for leaf in _flatten(item)]
    return [structure]


def _sequence_like(instance, items):
    if isinstance(instance, dict):
        by_key = dict(zip(sorted(instance), items))
        return type(instance)((key, by_key[key]) for key in instance)
    if isinstance(instance, tuple) and hasattr(instance, "_fields"):
        return type(instance)(*items)
    return type(instance)(items)


def _pack_sequence_as(structure, flat):
    """`flat`'s leaves in the nested structure of `structure`."""
    leaves = iter(flat)

    def pack(s):
        if not _is_sequence(s):
            return next(leaves)
        children = [s[key] for key in sorted(s)] if isinstance(s, dict) else list(s)
        return _sequence_like(s, [pack(child) for child in children])

    return pack(structure)


def _map_structure(fn, *structures):
    return _pack_sequence_as(structures[0], [fn(*leaves) for leaves in
                                             zip(*[_flatten(s) for s in structures])])


def _assert_same_structure(first, second):
    """ValueError unless `first` and `second` nest the same way (lists and tuples match)."""
    if _is_sequence(first) != _is_sequence(second):
        raise ValueError(f"The two structures don't have the same nested structure.\n\n"
                         f"First structure: {first}\n\nSecond structure: {second}")
    if not _is_sequence(first):
        return
    if isinstance(first, dict) != isinstance(second, dict):
        raise ValueError(f"The two structures don't have the same sequence type. First "
                         f"structure has type {type(first).__name__}, while second structure "
                         f"has type {type(second).__name__}.")
    if len(first) != len(second):
        raise ValueError(f"The two structures don't have the same sequence length. Input "
                         f"structure has length {len(first)}, while shallow structure has "
                         f"length {len(second)}.")
    if isinstance(first, dict):
        if sorted(first) != sorted(second):
            raise ValueError(f"The two dictionaries don't have the same set of keys. First "
                             f"structure has keys {sorted(first)}, while second structure has "
                             f"keys {sorted(second)}.")
        pairs = [(first[key], second[key]) for key in sorted(first)]
    else:
        pairs = zip(first, second)
    for a, b in pairs:
        _assert_same_structure(a, b)


# ---- building sub-blocks ----------------------------------------------------------------------

def _check_condition(value, arg, api):
    """`value` must be a bool Variable of one element (where its shape is known)."""
    if not isinstance(value, Variable):
        raise TypeError(f"The type of '{arg}' in {api} must be Variable, but received "
                        f"{type(value).__name__}.")
    if convert_dtype(value.dtype) != libpaddle.DataType.BOOL:
        raise TypeError(f"The data type of '{arg}' in {api} must be bool, but received "
                        f"{convert_dtype(value.dtype).name.lower()}.")
    if all(d >= 0 for d in value.shape) and value.size != 1:
        raise TypeError(f"The shape of '{arg}' in {api} must have one element (shape [] or "
                        f"[1]), but given shape as {list(value.shape)}.")


def _synced(block):
    """`block` with the ops and variables C++ added to it wrapped too (the casts that type
    promotion inserts), so that appended ops land after them."""
    block._sync_with_cpp()
    return block


def _block_inputs_outputs(block, parent):
    """The variables of the enclosing blocks that the ops of `block` read before writing them,
    and those they write, in first-use order."""
    inputs, outputs = [], []
    written = set()
    for op in (block.desc.op(i) for i in range(block.desc.op_size())):
        for name in op.input_arg_names():
            if name not in written and name not in inputs:
                inputs.append(name)
        for name in op.output_arg_names():
            if name not in written:
                written.add(name)
                outputs.append(name)
    outer = lambda names: [n for n in names if parent.desc.find_var_recursive(n) is not None]
    return outer(inputs), outer(outputs)


def _copy_to_parent(value, parent):
    """A branch result as a new variable of the enclosing block, written by an `assign` op of
    the branch's block; results that are not Variables pass as they are."""
    if not isinstance(value, Variable):
        return value
    out = parent.create_var(dtype=value.dtype, shape=value.shape, type=value.type,
                            stop_gradient=value.stop_gradient)
    _synced(default_main_program().current_block())
    assign(value, out)
    return out


def _build_conditional_block(condition, fn):
    """Builds `fn` into a sub-block run by a conditional_block op when `condition` holds;
    returns fn's results, copied to variables of the enclosing block."""
    program = default_main_program()
    parent = program.current_block()
    block = program._create_block()
    try:
        result = fn()
        if result is not None:
            result = _map_structure(lambda v: _copy_to_parent(v, parent), result)
    finally:
        program._rollback()
    inputs, outputs = _block_inputs_outputs(block, parent)
    step_scopes = parent.create_var(type=STEP_SCOPES)
    _synced(parent).append_op("conditional_block",
                              inputs={"Cond": [condition], "Input": inputs},
                              outputs={"Out": outputs, "Scope": [step_scopes]},
                              attrs={"sub_block": block, "is_scalar_condition": True})
    return result


def _select_input_shape(first, second):
    if len(first) != len(second):
        return list(second)
    return [a if a == b else -1 for a, b in zip(first, second)]


def select_input(inputs, mask):
    """The input `mask` (an int32 Variable of one element) selects, as a new variable."""
    if not isinstance(inputs, (list, tuple)) or not all(isinstance(v, Variable) for v in inputs):
        raise TypeError(f"select_input(): 'inputs' must be a list of Variables, but received "
                        f"{inputs!r}")
    if not isinstance(mask, Variable) or convert_dtype(mask.dtype) != libpaddle.DataType.INT32:
        raise TypeError("select_input(): 'mask' must be an int32 Variable")
    block = _synced(default_main_program().current_block())
    out = block.create_var(dtype=inputs[1].dtype,
                           shape=_select_input_shape(inputs[0].shape, inputs[1].shape),
                           type=inputs[1].type,
                           stop_gradient=all(v.stop_gradient for v in inputs))
    block.append_op("select_input", inputs={"X": list(inputs), "Mask": [mask]},
                    outputs={"Out": [out]})
    return out


def _to_variable(value):
    dtype = "bool" if isinstance(value, bool) else "float64" if isinstance(value, float) \
        else "int64"
    return _C_ops.full([], value, convert_dtype(dtype), libpaddle._default_place())


def _merge(false_value, true_value, mask):
    """One result of cond: the branch's Variable that `mask` selects at run time."""
    if false_value is None and true_value is None:
        return None
    if isinstance(false_value, Variable) and isinstance(true_value, Variable):
        return select_input([false_value, true_value], mask)
    same_builtin = isinstance(false_value, _BUILTIN_RESULTS) and \
        type(false_value) is type(true_value)
    if same_builtin and false_value == true_value:
        return false_value
    mixed = all(isinstance(v, (Variable,) + _BUILTIN_RESULTS) for v in (false_value, true_value))
    if not mixed:
        raise TypeError(f"Unsupported return type of true_fn and false_fn in cond: false_var "
                        f"returned by false_fn is '{false_value!r}' and true_var of true_fn "
                        f"is '{true_value!r}'")
    as_variable = lambda v: v if isinstance(v, Variable) else _to_variable(v)
    return select_input([as_variable(false_value), as_variable(true_value)], mask)


def _as_sequence(structure):
    """The top level of a branch result: a dict counts as one result."""
    if isinstance(structure, (list, tuple)):
        return list(structure)
    return [structure]


def _check_callable(fn, arg):
    if fn is not None and not callable(fn):
        raise TypeError(f"The {arg} in cond must be callable, but received "
                        f"{type(fn).__name__}")


def cond(pred, true_fn=None, false_fn=None, name=None, return_names=None):
    """Returns ``true_fn()`` if ``pred`` (a bool tensor of one element) is true, else
    ``false_fn()``. Both must return the same nested structure of tensors (or both None);
    tensors at the same place may differ in shape. In a static program both branches are
    built, and at run time only the selected one runs."""
    _check_callable(true_fn, "true_fn")
    _check_callable(false_fn, "false_fn")
    if not libpaddle._in_static_mode():
        if not isinstance(pred, libpaddle.Tensor) or pred.size != 1:
            raise TypeError("The pred in cond must be a Tensor with one element")
        fn = true_fn if bool(pred.item()) else false_fn
        return fn() if fn is not None else None
    _check_condition(pred, "pred", "cond")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"The type of 'name' in cond must be str or None, but received "
                        f"{type(name).__name__}.")

    true_output = false_output = None
    if true_fn is not None:
        true_output = _build_conditional_block(pred, true_fn)
    if false_fn is not None:
        false_output = _build_conditional_block(_C_ops.logical_not(pred), false_fn)
    if true_output is None and false_output is None:
        return None
    if true_output is None:
        raise ValueError("Incompatible return values of true_fn and false_fn in cond: "
                         "true_fn returns None while false_fn returns non-None")
    if false_output is None:
        raise ValueError("Incompatible return values of true_fn and false_fn in cond: "
                         "true_fn returns non-None while false_fn returns None")

    true_results, false_results = _as_sequence(true_output), _as_sequence(false_output)
    if len(true_results) != len(false_results):
        raise ValueError(f"true fn returns {len(true_results)} vars, but false fn returns "
                         f"{len(false_results)} vars, which is not equals")
    names = _as_sequence(return_names) if return_names is not None else \
        ["no name"] * len(true_results)
    for true_result, false_result, result_name in zip(true_results, false_results, names):
        try:
            _assert_same_structure(true_result, false_result)
        except ValueError as e:
            raise ValueError(f"Incompatible return values of `{result_name}` in true_fn and "
                             f"false_fn in cond: {e}") from None

    mask = _C_ops.cast(pred, libpaddle.DataType.INT32)
    merged = [_merge(f, t, mask) for f, t in zip(_flatten(false_output), _flatten(true_output))]
    return _pack_sequence_as(false_output, merged)


def _assign_loop_results(results, loop_vars):
    """Writes the body's results into the loop variables, inside the loop's block. A result
    that is another loop variable is copied first, so a body returning its variables permuted
    reads none of them after it was overwritten."""
    loop_leaves = _flatten(loop_vars)
    result_leaves = _flatten(results)
    loop_ids = {id(v) for v in loop_leaves if isinstance(v, Variable)}
    _synced(default_main_program().current_block())
    sources = [assign(r) if isinstance(r, Variable) and id(r) in loop_ids and r is not v else r
               for r, v in zip(result_leaves, loop_leaves)]
    for result, var in zip(sources, loop_leaves):
        if isinstance(var, Variable) and result is not var:
            assign(result, var)


def while_loop(cond, body, loop_vars, is_test=False, name=None):
    """Repeats ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` (a bool tensor of one
    element) is true, and returns the loop variables. ``body`` returns the same nested structure
    as ``loop_vars``."""
    if not callable(cond):
        raise TypeError("cond in while_loop should be callable")
    if not callable(body):
        raise TypeError("body in while_loop should be callable")
    if not isinstance(loop_vars, (list, tuple)):
        raise TypeError(f"The type of 'loop_vars' in static.nn.while_loop must be list or "
                        f"tuple, but received {type(loop_vars).__name__}.")
    if len(loop_vars) == 0:
        raise ValueError("loop_vars in while_loop should not be empty")

    if not libpaddle._in_static_mode():
        return _while_loop_dygraph(cond, body, loop_vars)

    pre_cond = cond(*loop_vars)
    _check_condition(pre_cond, "var of cond returned", "static.nn.while_loop")
    program = default_main_program()
    parent = program.current_block()
    block = program._create_block()
    try:
        results = body(*loop_vars)
        if not isinstance(results, (list, tuple)):
            results = [results]
        try:
            _assert_same_structure(results, loop_vars)
        except ValueError as e:
            raise ValueError(f"body in while_loop should return the same arity (length and "
                             f"structure) as loop_vars: {e}") from None
        now_cond = cond(*results)
        _assign_loop_results(results, loop_vars)
        assign(now_cond, pre_cond)
    finally:
        program._rollback()

    inputs, outputs = _block_inputs_outputs(block, parent)
    # Paddle's X: what the body reads and every loop variable; the condition has its own slot.
    inputs = [n for n in inputs + [o for o in outputs if o not in inputs] if n != pre_cond.name]
    step_scopes = parent.create_var(type=STEP_SCOPES)
    _synced(parent).append_op("while",
                              inputs={"X": inputs, "Condition": [pre_cond]},
                              outputs={"Out": outputs, "StepScopes": [step_scopes]},
                              attrs={"sub_block": block, "is_test": bool(is_test)})
    return loop_vars


def _while_loop_dygraph(cond, body, loop_vars):
    # Paddle assigns each step's results into the loop variables' tensors; rebinding them
    # instead keeps autograd's record of every step.
    pre_cond = cond(*loop_vars)
    if not isinstance(pre_cond, libpaddle.Tensor) or pre_cond.size != 1:
        raise TypeError("the variable returned by cond in while_loop should be a bool Tensor "
                        "with one element")
    go = bool(pre_cond.item())
    while go:
        results = body(*loop_vars)
        if not isinstance(results, (list, tuple)):
            results = [results]
        if len(results) != len(loop_vars):
            raise ValueError("body in while_loop should return the same arity (length and "
                             "structure) and types as loop_vars")
        go = bool(cond(*results).item())
        loop_vars = _sequence_like(loop_vars, results)
    return loop_vars
