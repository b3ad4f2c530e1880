"""Converting a traced function's Python `if`, `while` and `for` into cond and while_loop.

The function's source is rewritten (ast) before tracing. Each `if` becomes two branch functions
taking and returning the variables either branch assigns, and a call to `_ifelse`, which at trace
time runs the chosen branch when the condition is a Python value and builds
paddle.static.nn.cond when it is a tensor. Each `while` becomes a condition function, a body
function and `_while`, which loops in Python or builds paddle.static.nn.while_loop. Each `for`
over `range(...)` or over an iterable becomes a body function and `_for`, which loops in Python
over Python values and builds a while_loop over a counter when a range bound is a tensor or the
iterable is one (its rows, along the first dim).

Only the simple forms are converted: branches and loop bodies without return, break, continue,
yield, del, global or nonlocal, loops without an else, and `for` with one name as its target.
Anything else keeps its Python form, so a tensor condition there is reported (file, line,
reason) when traced. Of the functions the converted one calls, only the forwards of user-defined
sublayers are converted (api.py).
"""
import ast
import inspect
import textwrap
import types
import weakref

from .. import _C_ops
from ..base import libpaddle
from ..static.nn import control_flow
from ..static.program import Variable
from ..tensor import manipulation as _manipulation

__all__ = ["convert_function"]


class _Undefined:
    """The value of a variable that a branch or loop assigns but that has no value before it."""

    def __repr__(self):
        return "<undefined>"


UNDEFINED = _Undefined()

_PREFIX = "__jit_"
_UNCONVERTIBLE = (ast.Return, ast.Break, ast.Continue, ast.Yield, ast.YieldFrom, ast.Delete,
                  ast.Global, ast.Nonlocal)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _walk_scope(statements):
    """The nodes of `statements`, not descending into nested functions and classes (their
    names still count as assigned)."""
    pending = list(statements)
    while pending:
        node = pending.pop()
        yield node
        if isinstance(node, _SCOPES):
            continue
        pending.extend(ast.iter_child_nodes(node))


def _convertible(statements):
    return not any(isinstance(node, _UNCONVERTIBLE) for node in _walk_scope(statements))


def _assigned_names(statements):
    names = set()
    for node in _walk_scope(statements):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return sorted(n for n in names if not n.startswith(_PREFIX))


def _args(names):
    return ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in names], vararg=None,
                         kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])


def _names_tuple(names, ctx):
    return ast.Tuple(elts=[ast.Name(id=n, ctx=ctx()) for n in names], ctx=ctx())


def _function(name, names, body, returned):
    return ast.FunctionDef(name=name, args=_args(names), decorator_list=[], returns=None,
                           type_params=[],
                           body=list(body) + [ast.Return(value=returned)])


class _Transformer(ast.NodeTransformer):
    def __init__(self, function_name, filename, first_line):
        self.function_name = function_name
        self.filename = filename
        self.line_offset = first_line - 1  # the parsed source starts at line 1
        self.count = 0
        self.converted = 0

    def _call(self, helper, node, names, *args):
        """`(names) = helper(*args, values of names, names, where)` at `node`, `where` being
        (function name, file, line) for error reports."""
        values = ast.Call(func=ast.Name(id=_PREFIX + "values", ctx=ast.Load()),
                          args=[ast.Call(func=ast.Name(id="locals", ctx=ast.Load()), args=[],
                                         keywords=[]),
                                ast.Constant(value=tuple(names))], keywords=[])
        call = ast.Call(func=ast.Name(id=_PREFIX + helper, ctx=ast.Load()),
                        args=list(args) + [values, ast.Constant(value=tuple(names)),
                                           ast.Constant(value=(self.function_name,
                                                               self.filename,
                                                               node.lineno + self.line_offset))],
                        keywords=[])
        return ast.Assign(targets=[_names_tuple(names, ast.Store)], value=call,
                          lineno=node.lineno)

    def visit_FunctionDef(self, node):
        # Nested functions keep their Python form; only the converted function's own body
        # (visited through visit_Module) is rewritten.
        return node

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef

    def visit_If(self, node):
        self.generic_visit(node)
        if not (_convertible(node.body) and _convertible(node.orelse)):
            return node
        names = _assigned_names(node.body + node.orelse)
        self.count += 1
        self.converted += 1
        true_name = f"{_PREFIX}true_{self.count}"
        false_name = f"{_PREFIX}false_{self.count}"
        returned = _names_tuple(names, ast.Load)
        statements = [
            _function(true_name, names, node.body, returned),
            _function(false_name, names, node.orelse or [ast.Pass()], returned),
            self._call("ifelse", node, names, node.test,
                       ast.Name(id=true_name, ctx=ast.Load()),
                       ast.Name(id=false_name, ctx=ast.Load())),
        ]
        return [ast.copy_location(s, node) for s in statements]

    def visit_While(self, node):
        self.generic_visit(node)
        if node.orelse or not _convertible(node.body):
            return node
        names = _assigned_names(node.body)
        self.count += 1
        self.converted += 1
        cond_name = f"{_PREFIX}cond_{self.count}"
        body_name = f"{_PREFIX}body_{self.count}"
        cond_function = ast.FunctionDef(name=cond_name, args=_args(names), decorator_list=[],
                                        returns=None, type_params=[],
                                        body=[ast.Return(value=node.test)])
        statements = [
            cond_function,
            _function(body_name, names, node.body, _names_tuple(names, ast.Load)),
            self._call("while", node, names, ast.Name(id=cond_name, ctx=ast.Load()),
                       ast.Name(id=body_name, ctx=ast.Load())),
        ]
        return [ast.copy_location(s, node) for s in statements]

    def visit_For(self, node):
        self.generic_visit(node)
        if node.orelse or not _convertible(node.body) or not isinstance(node.target, ast.Name):
            return node
        target = node.target.id
        names = sorted(set(_assigned_names(node.body)) | {target})
        self.count += 1
        self.converted += 1
        body_name = f"{_PREFIX}body_{self.count}"
        iterable = node.iter
        is_range = (isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and
                    iterable.func.id == "range" and not iterable.keywords and
                    1 <= len(iterable.args) <= 3 and
                    not any(isinstance(a, ast.Starred) for a in iterable.args))
        # range's bounds are passed unevaluated by range() itself: a tensor bound would fail
        # there before _for could build the loop.
        source = ast.Tuple(elts=list(iterable.args) if is_range else [iterable], ctx=ast.Load())
        statements = [
            _function(body_name, names, node.body, _names_tuple(names, ast.Load)),
            self._call("for", node, names, ast.Constant(value=is_range), source,
                       ast.Constant(value=names.index(target)),
                       ast.Name(id=body_name, ctx=ast.Load())),
        ]
        return [ast.copy_location(s, node) for s in statements]


# ---- runtime helpers the rewritten code calls -------------------------------------------------

def _values(local_values, names):
    return tuple(local_values.get(name, UNDEFINED) for name in names)


def _error(where, reason):
    from .api import ToStaticError
    function_name, filename, lineno = where
    try:
        with open(filename) as f:
            source = f.read().splitlines()[lineno - 1].strip()
    except (OSError, IndexError):
        source = ""
    return ToStaticError(function_name, filename, lineno, source, reason)


def _ifelse(pred, true_fn, false_fn, values, names, where):
    if not isinstance(pred, Variable):
        return true_fn(*values) if pred else false_fn(*values)
    if pred.size not in (1, -1):
        raise _error(where, f"an if on a tensor of shape {pred.shape}: the "
                     f"condition must have one element (use paddle.all or paddle.any)")
    if pred.dtype != libpaddle.DataType.BOOL:
        pred = pred.astype("bool")

    def branch(fn):
        def run():
            return tuple(None if v is UNDEFINED else v for v in fn(*values))
        return run

    try:
        results = control_flow.cond(pred, branch(true_fn), branch(false_fn),
                                    return_names=list(names))
    except (TypeError, ValueError) as error:
        raise _error(where, f"an if on a tensor whose branches give {list(names)} "
                     f"values of different kinds (a variable assigned in one branch only, or "
                     f"different Python values): {error}") from error
    if not names:
        return ()
    return tuple(UNDEFINED if r is None else r for r in results)


def _while(cond_fn, body_fn, values, names, where):
    values = list(values)
    pred = cond_fn(*values)
    while not isinstance(pred, Variable):
        if not pred:
            return tuple(values)
        values = list(body_fn(*values))
        pred = cond_fn(*values)
    # The loop carries the variables that have a value before it; the others are the body's
    # temporaries.
    carried = [i for i, v in enumerate(values) if v is not UNDEFINED]
    for i in carried:
        if not isinstance(values[i], (Variable, bool, int, float)):
            raise _error(where, f"a while on a tensor whose variable '{names[i]}' "
                         f"is a {type(values[i]).__name__}; loop variables must be tensors or "
                         f"numbers")

    def full(carried_values):
        merged = list(values)
        for i, value in zip(carried, carried_values):
            merged[i] = value
        return merged

    def loop_cond(*carried_values):
        return cond_fn(*full(carried_values))

    def loop_body(*carried_values):
        results = body_fn(*full(carried_values))
        return [results[i] for i in carried]

    loop_vars = [values[i] if isinstance(values[i], Variable) else
                 control_flow._to_variable(values[i]) for i in carried]
    try:
        results = control_flow.while_loop(loop_cond, loop_body, loop_vars)
    except (TypeError, ValueError) as error:
        raise _error(where, f"a while on a tensor that cannot become "
                     f"paddle.static.nn.while_loop: {error}") from error
    return tuple(full(results))


def _for(is_range, source, target, body_fn, values, names, where):
    """The loop `for names[target] in source: values = body_fn(*values)`; `source` holds range's
    arguments when `is_range`, else the one iterable."""
    values = list(values)
    if is_range:
        bounds = list(source)
        if not any(isinstance(b, Variable) for b in bounds):
            for item in range(*bounds):
                values[target] = item
                values = list(body_fn(*values))
            return tuple(values)
        start, stop, step = [0] + bounds + [1] if len(bounds) == 1 else (bounds + [1])[:3]
        if isinstance(step, Variable):
            raise _error(where, "a for over range() with a tensor step: the step must be a "
                         "Python int, its sign decides how the loop ends")
        if step == 0:
            raise _error(where, "a for over range() with step 0")
        index = start if isinstance(start, Variable) else control_flow._to_variable(start)
        index = index.astype("int64")

        def item_at(i):
            return i
    else:
        iterable, = source
        if not isinstance(iterable, Variable):
            for item in iterable:
                values[target] = item
                values = list(body_fn(*values))
            return tuple(values)
        if not iterable.shape:
            raise _error(where, "a for over a 0-d tensor: it has no rows to iterate")
        # The rows of the tensor, along its first dim.
        start, step = 0, 1
        stop = iterable.shape[0] if iterable.shape[0] >= 0 else \
            _manipulation.reshape(_manipulation.slice(_C_ops.shape(iterable), [0], [0], [1]), [])
        index = control_flow._to_variable(0).astype("int64")

        def item_at(i):
            return _manipulation.squeeze(
                _manipulation.gather(iterable, _manipulation.reshape(i, [1]), 0), [0])

    counter = f"{_PREFIX}index"

    def cond_fn(*loop_values):
        i = loop_values[-1]
        return i < stop if step > 0 else i > stop

    def body_fn_with_index(*loop_values):
        *loop_values, i = loop_values
        loop_values[target] = item_at(i)
        return tuple(body_fn(*loop_values)) + (i + step,)

    results = _while(cond_fn, body_fn_with_index, values + [index], list(names) + [counter],
                     where)
    return tuple(results[:-1])


_HELPERS = {_PREFIX + "values": _values, _PREFIX + "ifelse": _ifelse,
            _PREFIX + "while": _while, _PREFIX + "for": _for}

_converted = weakref.WeakKeyDictionary()


def convert_function(function):
    """`function` with its simple `if`/`while`/`for` statements rewritten (the same function when it
    has none, or when its source is not available)."""
    if getattr(function, "_paddle_not_to_static", False):
        return function
    found = _converted.get(function)
    if found is not None:
        return found
    converted = _convert(function) or function
    _converted[function] = converted
    return converted


def _convert(function):
    if not isinstance(function, types.FunctionType):
        return None
    try:
        lines, start = inspect.getsourcelines(function)
        filename = inspect.getsourcefile(function)
    except (OSError, TypeError):
        return None
    try:
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except SyntaxError:
        return None
    definition = tree.body[0] if tree.body else None
    if not isinstance(definition, ast.FunctionDef):
        return None
    code = function.__code__
    if "__class__" in code.co_freevars:
        return None  # zero-argument super() needs the class cell the rewrite cannot keep
    definition.decorator_list = []
    transformer = _Transformer(function.__qualname__, filename, start)
    definition.body = [transformer.visit(s) if not isinstance(s, _SCOPES) else s
                       for s in definition.body]
    definition.body = _flatten_statements(definition.body)
    if not transformer.converted:
        return None
    free = list(code.co_freevars)
    factory = ast.FunctionDef(name=_PREFIX + "factory", args=_args(list(_HELPERS) + free),
                              decorator_list=[], returns=None, type_params=[],
                              body=[definition, ast.Return(value=ast.Name(id=definition.name,
                                                                          ctx=ast.Load()))])
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    ast.increment_lineno(module, start - 1)
    module_code = compile(module, filename, "exec")
    factory_code = next(c for c in module_code.co_consts if isinstance(c, types.CodeType))
    make = types.FunctionType(factory_code, function.__globals__)
    cells = [cell.cell_contents for cell in (function.__closure__ or ())]
    converted = make(*_HELPERS.values(), *cells)
    converted.__defaults__ = function.__defaults__
    converted.__kwdefaults__ = function.__kwdefaults__
    converted.__wrapped__ = function
    return converted


def _flatten_statements(statements):
    out = []
    for s in statements:
        if isinstance(s, list):
            out.extend(s)
        else:
            out.append(s)
    return out
