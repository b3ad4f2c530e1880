"""paddle.static's model and checkpoint files, in PaddlePaddle's formats (files move both ways
between this framework and PaddlePaddle's old-IR static graph).

* save_inference_model / load_inference_model: `<prefix>.pdmodel`, the program pruned to what
  computes the fetch targets from the feed targets, with `feed` ops reading the `feed` list and
  `fetch` ops writing the `fetch` list (a serialized framework.proto ProgramDesc), and
  `<prefix>.pdiparams`, the tensor records of its persistable variables in byte-wise name order
  with no header, names or count: the reader takes the names from the .pdmodel.
* save / load: `<prefix>.pdparams` (a pickled {name: ndarray} of the Parameters), `.pdopt` (the
  other persistable variables: optimizer accumulators, the learning rate) and `.pdmodel` (the
  whole program).

Writes are atomic: the files of one save are written in full, then renamed over those of an
earlier save, so a failed save (an uninitialized variable, a full disk) leaves them intact.
Loads check every value before any reaches the scope, and their errors name the file and the
variable.
"""
import contextlib
import errno
import os
import pickle
import shutil
import tempfile
import warnings

import numpy as np

from ..base import libpaddle
from ..base.framework import convert_dtype, to_numpy_dtype
from ..framework.io import _atomic_write, _check_protocol, _pack_loaded_dict, _unpack_saved_dict
from .executor import Executor, global_scope
from .program import (FEED_MINIBATCH, FETCH_LIST, Parameter, Program, Variable,
                      default_main_program)

__all__ = ["save_inference_model", "load_inference_model", "serialize_program",
           "deserialize_program", "serialize_persistables", "deserialize_persistables",
           "normalize_program", "save_to_file", "load_from_file", "save", "load",
           "load_program_state", "set_program_state"]

# framework.proto VarType.Type kinds that hold no saved value.
_READER = 15
_RAW = 17
_NOT_SAVED_KINDS = (FEED_MINIBATCH, FETCH_LIST, _READER, _RAW)


# ---- arguments --------------------------------------------------------------------------------

def _as_var_list(api, arg, value, program):
    """`value` (a Variable or a list of them) as a list of names of `program`'s global block.

    Checked by name, not by owner: a Variable of the program a test program was cloned from
    names the same variable of the clone, and Paddle accepts that."""
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    names = []
    for i, var in enumerate(items):
        if not isinstance(var, Variable):
            raise ValueError(f"{api}(): '{arg}' should be a Variable or a list of Variable, but "
                             f"{arg}[{i}] is {type(var).__name__}")
        if not program.global_block().has_var(var.name):
            raise ValueError(f"{api}(): {arg}[{i}] '{var.name}' is not a variable of the "
                             f"program's global block")
        names.append(var.name)
    return names


def _check_fetch_vars(api, fetch_vars, program):
    names = _as_var_list(api, "fetch_vars", fetch_vars, program)
    if not names:
        raise ValueError(f"{api}(): 'fetch_vars' is empty; an inference model needs at least one "
                         f"output")
    return names


def _check_kwargs(api, kwargs, supported):
    for key in kwargs:
        if key not in supported:
            raise ValueError(f"function '{api}' doesn't support argument '{key}',\n only "
                             f"{list(supported)} are supported.")


def _valid_program(program, api):
    if program is None:
        return default_main_program()
    program = getattr(program, "_program", program)  # a CompiledProgram
    if not isinstance(program, Program):
        raise TypeError(f"{api}(): 'program' must be a paddle.static.Program, but received "
                        f"{type(program).__name__}")
    return program


def _check_executor(api, executor):
    if not isinstance(executor, Executor):
        raise TypeError(f"{api}(): 'executor' must be a paddle.static.Executor, but received "
                        f"{type(executor).__name__}")


def _normalize_path_prefix(path_prefix, api):
    if isinstance(path_prefix, os.PathLike):
        path_prefix = os.fspath(path_prefix)
    if not isinstance(path_prefix, str):
        raise ValueError(f"{api}(): 'path_prefix' should be a string, but received "
                         f"{type(path_prefix).__name__}")
    if path_prefix.endswith("/"):
        raise ValueError(f"{api}(): 'path_prefix' should not be a directory, but received "
                         f"'{path_prefix}'")
    return os.path.abspath(os.path.normpath(path_prefix))


# ---- pruning and normalizing ------------------------------------------------------------------

def _sub_block_names(program, op):
    """Every variable read or written by the ops of the sub-block that a control-flow op
    (conditional_block, while) runs, nested sub-blocks included. Sub-blocks are kept whole, so
    whatever they use of the global block is kept too."""
    names = set()
    pending = [op]
    while pending:
        current = pending.pop()
        if not current.has_attr("sub_block"):
            continue
        for inner in program.block(current.attr("sub_block")).ops:
            names.update(inner.input_arg_names)
            names.update(inner.output_arg_names)
            pending.append(inner)
    return names


def _prune(program, feed_names, fetch_names):
    """Keeps the ops of the global block that compute `fetch_names` from `feed_names` and the
    variables they use, as Paddle's Program._prune_with_input does: the target of a fetch name is
    the last op writing it; walking back from the targets, an op is kept when it writes a
    variable a kept op reads, and fed variables need no producer. `program` is a test clone,
    so no optimizer op (which would make every parameter look computed) is left."""
    block = program.global_block()
    ops = block.ops
    feeds = set(feed_names)

    # A fed name that ops also update (not a pure input) still needs its last writer.
    generatable = set()
    for op in ops:
        runnable = all(name in generatable or name in feeds or not block.has_var(name)
                       or block.var(name).persistable for name in op.input_arg_names)
        if runnable:
            generatable.update(op.output_arg_names)
    targets = set()
    for name in fetch_names:
        if name in feeds and name not in generatable:
            continue
        writers = [i for i, op in enumerate(ops) if name in op.output_arg_names]
        if writers:
            targets.add(writers[-1])

    needed = set()
    keep = [False] * len(ops)
    for i in reversed(range(len(ops))):
        op = ops[i]
        if i in targets or needed.intersection(op.output_arg_names):
            reads = set(op.input_arg_names) | _sub_block_names(program, op)
            needed.update(reads - feeds)
            keep[i] = True
    for i in reversed(range(len(ops))):
        if not keep[i]:
            block._remove_op(i)

    used = set()
    for op in block.ops:
        used.update(op.input_arg_names)
        used.update(op.output_arg_names)
        used.update(_sub_block_names(program, op))
    for name in list(block.vars):
        if name not in used:
            block._remove_var(name)


def _prepend_feed_ops(program, feed_names, holder="feed"):
    if not feed_names:
        return
    block = program.global_block()
    feed_var = block.create_var(name=holder, type=FEED_MINIBATCH, persistable=True)
    for i, name in enumerate(feed_names):
        if not block.has_var(name):
            raise ValueError(f"The feeded_var_names[{i}]: '{name}' doesn't exist in pruned "
                             f"inference program. Please check whether '{name}' is a valid "
                             f"feed_var name, or remove it from feeded_var_names if '{name}' is "
                             f"not involved in the target_vars calculation.")
        # Prepending one by one leaves the feed ops in reverse column order, as in Paddle's
        # files.
        block._prepend_op(type="feed", inputs={"X": [feed_var]}, outputs={"Out": [name]},
                          attrs={"col": i})


def _append_fetch_ops(program, fetch_names, holder="fetch"):
    block = program.global_block()
    fetch_var = block.create_var(name=holder, type=FETCH_LIST, persistable=True)
    for i, name in enumerate(fetch_names):
        block.append_op(type="fetch", inputs={"X": [name]}, outputs={"Out": [fetch_var]},
                        attrs={"col": i})


def normalize_program(program, feed_vars, fetch_vars, **kwargs):
    """A copy of `program` for inference: backward and optimizer ops dropped, `is_test` set,
    pruned to the ops computing `fetch_vars` from `feed_vars` (unless skip_prune_program=True),
    with feed ops in front and fetch ops at the end."""
    _check_kwargs("normalize_program", kwargs, ("skip_prune_program",))
    if not isinstance(program, Program):
        raise TypeError(f"program type must be `paddle.static.Program`, but received "
                        f"`{type(program).__name__}`")
    feed_names = _as_var_list("normalize_program", "feed_vars", feed_vars, program)
    fetch_names = _check_fetch_vars("normalize_program", fetch_vars, program)
    if not program.global_block().ops:
        raise ValueError("program must not be empty. at least one operator is required!")
    for op in program.global_block().ops:
        if op.type == "auc":
            warnings.warn("Be sure that you have set auc states to 0 before saving inference "
                          "model.")
            break

    copy = program.clone(for_test=True)
    block = copy.global_block()
    for i in reversed(range(len(block.ops))):
        op = block.ops[i]
        if op.type in ("feed", "fetch"):
            block._remove_op(i)
        elif op.has_attr("op_device"):
            op._set_attr("op_device", "")  # the model runs where the loader puts it
    if not kwargs.get("skip_prune_program", False):
        _prune(copy, feed_names, fetch_names)
    _prepend_feed_ops(copy, feed_names)
    _append_fetch_ops(copy, fetch_names)
    return copy


def _remove_training_info(program, clip_extra):
    """What Paddle strips from a saved inference program: the variables' is_parameter and
    stop_gradient flags and, with clip_extra, the ops' build-time call stacks."""
    for block in program.blocks:
        for var in block.vars.values():
            var.desc.set_is_parameter(False)
            var.desc.set_stop_gradient(False)
        if clip_extra:
            for op in block.ops:
                if op.has_attr("op_callstack"):
                    op.desc.remove_attr("op_callstack")


# ---- persistable values -----------------------------------------------------------------------

def _saved_var_names(program):
    """The persistable variables whose values a parameters file holds, sorted byte-wise as
    Paddle writes and reads them."""
    names = {var.name for var in program.list_vars()
             if var.persistable and var.type not in _NOT_SAVED_KINDS}
    return sorted(names, key=lambda n: n.encode("utf-8"))


def _scope_tensors(names, api):
    """The values of `names` in the global scope; raises before anything is written when one is
    missing."""
    scope = global_scope()
    tensors = []
    for name in names:
        found = scope.find_var(name)
        if found is None or not found.is_initialized():
            raise ValueError(f"{api}(): persistable variable '{name}' has no value in the scope; "
                             f"run the startup program (exe.run(startup_program)) or load the "
                             f"parameters before saving")
        tensors.append(found.get_tensor())
    return tensors


def _shape_matches(declared, actual):
    return len(declared) == len(actual) and all(d < 0 or d == a
                                                for d, a in zip(declared, actual))


def _check_loaded(var, tensor, source):
    """Raises unless `tensor` (read from `source`) has `var`'s declared dtype and shape."""
    if not var.desc.has_tensor_desc():
        return
    declared, actual = list(var.shape), list(tensor.shape)
    if var.dtype != tensor.dtype:
        raise ValueError(f"{source}: variable '{var.name}' has dtype {tensor.dtype.name} and "
                         f"shape {actual} in the file, but the model declares dtype "
                         f"{var.dtype.name} and shape {declared}; the parameters file does not "
                         f"match the model")
    if not _shape_matches(declared, actual):
        raise ValueError(f"{source}: variable '{var.name}' has shape {actual} in the file, but "
                         f"the model declares shape {declared}; the parameters file does not "
                         f"match the model")


def _store(values, place):
    """Puts {name: tensor} into the global scope on `place`, after every value was checked."""
    scope = global_scope()
    for name, tensor in values.items():
        if not (place.is_cpu_place() and tensor.place.is_cpu_place()):
            tensor = tensor._copy_to(place)
        libpaddle._set_scope_tensor(scope.var(name), tensor)


def _load_records_into_scope(program, names, read, source, place):
    """Reads the records of `names` with read(names) -> [tensor], checks each against its
    declaration in `program`, and stores them."""
    tensors = read(names)
    block_vars = {var.name: var for var in program.list_vars()}
    for name, tensor in zip(names, tensors):
        _check_loaded(block_vars[name], tensor, source)
    _store(dict(zip(names, tensors)), place)


# ---- inference models -------------------------------------------------------------------------

def serialize_program(feed_vars, fetch_vars, **kwargs):
    """The normalized inference program of `program` (default: the main program) as .pdmodel
    bytes. legacy_format is accepted and changes nothing: the legacy ProgramDesc is the only
    format written here."""
    _check_kwargs("serialize_program", kwargs, ("program", "legacy_format"))
    program = _valid_program(kwargs.get("program"), "serialize_program")
    return normalize_program(program, feed_vars, fetch_vars).desc.serialize_to_string()


def serialize_persistables(feed_vars, fetch_vars, executor, **kwargs):
    """The persistable variables of the normalized inference program as .pdiparams bytes (None,
    with a warning, when it has none)."""
    _check_kwargs("serialize_persistables", kwargs, ("program",))
    _check_executor("serialize_persistables", executor)
    program = _valid_program(kwargs.get("program"), "serialize_persistables")
    program = normalize_program(program, feed_vars, fetch_vars)
    names = _saved_var_names(program)
    if not names:
        warnings.warn("no variable in your model, please ensure there are any variables in "
                      "your model to save")
        return None
    return b"".join(libpaddle._serialize_tensor(t)
                    for t in _scope_tensors(names, "serialize_persistables"))


def deserialize_program(data):
    """The Program of .pdmodel bytes."""
    if not isinstance(data, bytes):
        raise TypeError(f"deserialize_program(): 'data' must be bytes, but received "
                        f"{type(data).__name__}")
    return Program.parse_from_string(data)


def deserialize_persistables(program, data, executor):
    """Loads .pdiparams bytes into the global scope: one record per persistable variable of
    `program`, in name order."""
    if not isinstance(program, Program):
        raise TypeError(f"program type must be `paddle.static.Program`, but received "
                        f"`{type(program).__name__}`")
    _check_executor("deserialize_persistables", executor)
    names = _saved_var_names(program)
    if data is None:
        if any(isinstance(var, Parameter) for var in program.list_vars()):
            raise ValueError("deserialize_persistables(): 'data' is None but the program has "
                             "parameters")
        return
    if not isinstance(data, bytes):
        raise TypeError(f"deserialize_persistables(): 'data' must be bytes, but received "
                        f"{type(data).__name__}")
    _load_records_into_scope(program, names,
                             lambda ns: libpaddle._deserialize_combine(data, ns, "serialized persistables"),
                             "serialized persistables", executor.place)


def save_to_file(path, content):
    """Writes `content` (bytes) to `path`, atomically."""
    if not isinstance(content, bytes):
        raise ValueError("'content' type should be bytes.")
    _atomic_write(path, lambda f: f.write(content))


def load_from_file(path):
    with open(path, "rb") as f:
        return f.read()


@contextlib.contextmanager
def _replaced_together(*paths):
    """Yields a staging path for each of `paths` (files in one directory) to write; once all are
    written they are renamed onto `paths`. A failure before that renames none, so the files of
    an earlier save stay as a consistent set."""
    staging = tempfile.mkdtemp(dir=os.path.dirname(paths[0]), prefix=".saving.")
    try:
        staged = [os.path.join(staging, os.path.basename(path)) for path in paths]
        yield staged
        for tmp, path in zip(staged, paths):
            os.replace(tmp, path)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def save_inference_model(path_prefix, feed_vars, fetch_vars, executor, **kwargs):
    """Writes `path_prefix`.pdmodel (the program pruned to compute `fetch_vars` from
    `feed_vars`, with feed and fetch ops) and `path_prefix`.pdiparams (its persistable
    variables' values from the global scope). Keyword arguments: program (default: the main
    program), clip_extra (default True: drop the ops' build call stacks), skip_prune_program,
    legacy_format (the only format written here, so it changes nothing)."""
    _check_kwargs("save_inference_model", kwargs,
                  ("program", "clip_extra", "legacy_format", "skip_prune_program"))
    path_prefix = _normalize_path_prefix(path_prefix, "save_inference_model")
    _check_executor("save_inference_model", executor)
    model_path = path_prefix + ".pdmodel"
    params_path = path_prefix + ".pdiparams"
    for path in (model_path, params_path):
        if os.path.isdir(path):
            raise ValueError(f"'{path}' is an existing directory.")
    program = _valid_program(kwargs.get("program"), "save_inference_model")
    program = normalize_program(program, feed_vars, fetch_vars,
                                skip_prune_program=kwargs.get("skip_prune_program", False))
    names = _saved_var_names(program)
    tensors = _scope_tensors(names, "save_inference_model")
    _remove_training_info(program, kwargs.get("clip_extra", True))
    program_bytes = program.desc.serialize_to_string()

    os.makedirs(os.path.dirname(path_prefix), exist_ok=True)
    if not names:
        warnings.warn("no variable in your model, please ensure there are any variables in "
                      "your model to save")
        _atomic_write(model_path, lambda f: f.write(program_bytes))
        return
    with _replaced_together(model_path, params_path) as (staged_model, staged_params):
        libpaddle._save_combine(staged_params, names, tensors)
        _atomic_write(staged_model, lambda f: f.write(program_bytes))


def _inference_model_paths(path_prefix, kwargs):
    """(model path, params path or None for one file per variable), as Paddle resolves them:
    `path_prefix`.pdmodel/.pdiparams, or with model_filename/params_filename the files of that
    name (with or without the suffix) in the directory `path_prefix`."""
    path_prefix = _normalize_path_prefix(path_prefix, "load_inference_model")
    directory = os.path.dirname(path_prefix)
    if not os.path.isdir(directory):
        raise ValueError(f"There is no directory named {directory}")
    if not kwargs:
        return path_prefix + ".pdmodel", path_prefix + ".pdiparams"

    def named(filename, suffix, default):
        if filename is None:
            return default
        path = os.path.join(path_prefix, filename + suffix)
        return path if os.path.exists(path) else os.path.join(path_prefix, filename)

    model_path = named(kwargs.get("model_filename"), ".pdmodel",
                       os.path.join(path_prefix, "__model__"))
    params_path = named(kwargs.get("params_filename"), ".pdiparams", None)
    return model_path, params_path


def _read_model_file(path):
    if not os.path.isfile(path):
        if os.path.isdir(path):
            raise ValueError(f"load_inference_model(): the model file '{path}' is a directory")
        raise FileNotFoundError(errno.ENOENT, f"load_inference_model(): the model file '{path}' "
                                f"does not exist", path)
    with open(path, "rb") as f:
        return f.read()


def _load_separate_files(directory):
    """A reader of one `save`-op file per variable, named after it, in `directory` (the layout
    of models saved without params_filename)."""
    def read(names):
        tensors = []
        for name in names:
            path = os.path.join(directory, name)
            if not os.path.isfile(path):
                raise FileNotFoundError(errno.ENOENT, f"load_inference_model(): the parameter "
                                        f"file '{path}' of variable '{name}' does not exist",
                                        path)
            tensors.append(libpaddle._load_tensor(path))
        return tensors
    return read


def _load_combined_file(path):
    def read(names):
        if not os.path.isfile(path):
            raise FileNotFoundError(errno.ENOENT, f"load_inference_model(): the parameters file "
                                    f"'{path}' does not exist", path)
        return libpaddle._load_combine(path, names)
    return read


def _feed_fetch_targets(program, source):
    """The feed target names and fetch target Variables, each in column order."""
    block = program.global_block()
    feeds, fetches = {}, {}
    for op in block.ops:
        if op.type not in ("feed", "fetch"):
            continue
        targets, args = (feeds, op.output("Out")) if op.type == "feed" else \
            (fetches, op.input("X"))
        if len(args) != 1 or not op.has_attr("col"):
            raise ValueError(f"{source}: a {op.type} op without one variable and a 'col' "
                             f"attribute; the model is corrupt")
        col = op.attr("col")
        if col in targets:
            raise ValueError(f"{source}: two {op.type} ops use column {col}; the model is "
                             f"corrupt")
        targets[col] = args[0]
    feed_names = [feeds[c] for c in sorted(feeds)]
    fetch_targets = []
    for col in sorted(fetches):
        var = block._find_var_recursive(fetches[col])
        if var is None:
            raise ValueError(f"{source}: the fetch target '{fetches[col]}' is not a variable of "
                             f"the program; the model is corrupt")
        fetch_targets.append(var)
    return feed_names, fetch_targets


def load_inference_model(path_prefix, executor, **kwargs):
    """Loads a model written by save_inference_model (here or by PaddlePaddle): returns
    [program, feed_target_names, fetch_targets] and puts the parameters in the global scope.
    With path_prefix=None, model_filename and params_filename are the bytes themselves."""
    _check_kwargs("load_inference_model", kwargs, ("model_filename", "params_filename"))
    _check_executor("load_inference_model", executor)
    if path_prefix is None:
        if kwargs.get("params_filename") is None:
            raise ValueError("params_filename cannot be None when path_prefix is None.")
        program = deserialize_program(kwargs.get("model_filename"))
        feed_names, fetch_targets = _feed_fetch_targets(program, "the program bytes")
        deserialize_persistables(program, kwargs["params_filename"], executor)
        return [program, feed_names, fetch_targets]

    model_path, params_path = _inference_model_paths(path_prefix, kwargs)
    program = Program._from_desc(libpaddle._parse_program(_read_model_file(model_path),
                                                          model_path))
    feed_names, fetch_targets = _feed_fetch_targets(program, model_path)
    names = _saved_var_names(program)
    if names:
        if params_path is None:
            read, params_source = _load_separate_files(path_prefix), path_prefix
        else:
            read, params_source = _load_combined_file(params_path), params_path
        _load_records_into_scope(program, names, read, params_source, executor.place)
    return [program, feed_names, fetch_targets]


# ---- checkpoints: save / load -----------------------------------------------------------------

def _is_persistable(var):
    return var.persistable and var.type not in (FEED_MINIBATCH, FETCH_LIST, _READER)


def _is_optimizer_var(var):
    """Paddle's rule for what .pdopt holds: persistable, neither a Parameter nor a data input."""
    return (_is_persistable(var) and not isinstance(var, Parameter)
            and not var.desc.need_check_feed())


def _scope_arrays(vars_, api):
    tensors = _scope_tensors([v.name for v in vars_], api)
    return {v.name: np.array(t.numpy(), copy=True) for v, t in zip(vars_, tensors)}


def _model_prefix(model_path):
    for suffix in (".pdparams", ".pdopt", ".pdmodel"):
        if model_path.endswith(suffix):
            return model_path[:-len(suffix)]
    return model_path


def save(program, model_path, protocol=4, **configs):
    """Saves `program`'s Parameters to `model_path`.pdparams, its other persistable variables
    (optimizer state, learning rate) to .pdopt and the program to .pdmodel."""
    _check_kwargs("save", configs, ("pickle_protocol",))
    if "pickle_protocol" in configs:
        protocol = configs["pickle_protocol"]
        warnings.warn("'pickle_protocol' is a deprecated argument. Please use 'protocol' "
                      "instead.")
    _check_protocol(protocol)
    program = _valid_program(program, "save")
    if isinstance(model_path, os.PathLike):
        model_path = os.fspath(model_path)
    if not isinstance(model_path, str) or os.path.basename(model_path) == "":
        raise ValueError(f"The input model_path MUST be format of dirname/filename "
                         f"[dirname\\filename in Windows system], but received model_path is "
                         f"{model_path!r}.")
    variables = list(program.list_vars())
    params = _scope_arrays([v for v in variables if isinstance(v, Parameter)], "save")
    opt = _scope_arrays([v for v in variables if _is_optimizer_var(v)], "save")
    program_bytes = program.desc.serialize_to_string()

    model_path = os.path.abspath(model_path)
    os.makedirs(os.path.dirname(model_path), exist_ok=True)
    params = _unpack_saved_dict(params, protocol)
    with _replaced_together(model_path + ".pdparams", model_path + ".pdopt",
                            model_path + ".pdmodel") as (params_path, opt_path, program_path):
        _atomic_write(params_path, lambda f: pickle.dump(params, f, protocol=protocol))
        _atomic_write(opt_path, lambda f: pickle.dump(opt, f, protocol=protocol))
        _atomic_write(program_path, lambda f: f.write(program_bytes))


def _read_pickled_state(path):
    if not os.path.isfile(path):
        raise FileNotFoundError(errno.ENOENT, f"the checkpoint file '{path}' does not exist",
                                path)
    with open(path, "rb") as f:
        try:
            state = pickle.load(f, encoding="latin1")
        except Exception as error:
            # Corrupt or truncated pickles raise almost anything (EOFError, UnpicklingError,
            # ValueError, KeyError, MemoryError for a bogus length, ...).
            raise ValueError(f"cannot parse the checkpoint file '{path}' "
                             f"({type(error).__name__}: {error}); it is truncated or corrupt, "
                             f"or was not written by paddle.static.save") from error
    if not isinstance(state, dict):
        raise ValueError(f"the checkpoint file '{path}' holds a {type(state).__name__}, not the "
                         f"dict of arrays that paddle.static.save writes")
    return _pack_loaded_dict(state)


def _array_for(var, value, source):
    """`value` as an array of `var`'s dtype and declared shape; raises naming `source`."""
    array = np.asarray(value)
    expected = to_numpy_dtype(var.dtype)
    if array.dtype != expected:
        raise ValueError(f"{source}: variable '{var.name}' has dtype {array.dtype} in the file, "
                         f"but the program declares {np.dtype(expected)}")
    declared = list(var.shape)
    if not _shape_matches(declared, list(array.shape)):
        # Paddle 3 declares the learning rate 0-d where 2.x (and this framework) use [1].
        if not (array.size == 1 and len(declared) <= 1 and all(d in (1, -1) for d in declared)):
            raise ValueError(f"{source}: variable '{var.name}' has shape {list(array.shape)} "
                             f"in the file, but the program declares {declared}")
        array = array.reshape(declared)
    return array


def _place_for(name, executor):
    found = global_scope().find_var(name)
    if found is not None and found.is_initialized():
        return found.get_tensor().place
    return executor.place if executor is not None else libpaddle._default_place()


def _set_arrays(arrays, executor):
    """Stores {Variable: array} in the global scope, each where its old value was."""
    scope = global_scope()
    for var, array in arrays.items():
        tensor = libpaddle._tensor_from_numpy(np.ascontiguousarray(array),
                                              _place_for(var.name, executor),
                                              convert_dtype(var.dtype))
        libpaddle._set_scope_tensor(scope.var(var.name), tensor)


def load(program, model_path, executor=None, var_list=None):
    """Loads the Parameters and optimizer variables of `program` saved by save (here or by
    PaddlePaddle) into the global scope. Every variable must be in the files with its declared
    dtype and shape; nothing is stored unless all are. `var_list` is for the files of Paddle's
    older save_vars / save_params, which are not read here; with the files of save it changes
    nothing, as in Paddle."""
    if executor is not None:
        _check_executor("load", executor)
    program = _valid_program(program, "load")
    prefix = _model_prefix(os.fspath(model_path))
    variables = list(program.list_vars())
    arrays = {}
    for suffix, selected in ((".pdparams", [v for v in variables if isinstance(v, Parameter)]),
                             (".pdopt", [v for v in variables if _is_optimizer_var(v)])):
        if not selected:
            continue
        path = prefix + suffix
        state = _read_pickled_state(path)
        for var in selected:
            if var.name not in state:
                raise ValueError(f"Cannot find [{var.name}] in model file [{path}]")
            arrays[var] = _array_for(var, state[var.name], f"'{path}'")
    _set_arrays(arrays, executor)


def load_program_state(model_path, var_list=None):
    """{name: ndarray} of the .pdparams and (when present) .pdopt files of a save. As in
    load, `var_list` matters only for files of save_vars / save_params, not read here."""
    prefix = _model_prefix(os.fspath(model_path))
    state = _read_pickled_state(prefix + ".pdparams")
    if os.path.exists(prefix + ".pdopt"):
        state.update(_read_pickled_state(prefix + ".pdopt"))
    return state


def set_program_state(program, state_dict):
    """Sets the persistable variables of `program` that `state_dict` names (values whose shape
    and dtype must equal those in the scope, so run the startup program first); warns about
    entries the program does not have."""
    program = _valid_program(program, "set_program_state")
    state_dict = _pack_loaded_dict(dict(state_dict))
    scope = global_scope()
    arrays = {}
    for var in program.list_vars():
        if not _is_persistable(var):
            continue
        found = scope.find_var(var.name)
        if found is None or not found.is_initialized():
            raise RuntimeError(f"Variable [ {var.name} ] Not found, Please make sure run "
                               f"startup program")
        if var.name not in state_dict:
            continue
        current = found.get_tensor()
        new = np.asarray(state_dict[var.name])
        if tuple(current.shape) != new.shape:
            raise ValueError(f"Parameter's shape does not match, the Program requires a "
                             f"parameter with the shape of ({tuple(current.shape)}), while the "
                             f"loaded parameter (namely [ {var.name} ]) has a shape of "
                             f"({new.shape}).")
        if to_numpy_dtype(current.dtype) != new.dtype:
            raise ValueError(f"Parameter's data type does not match, the Program requires a "
                             f"parameter with a dtype of ({to_numpy_dtype(current.dtype)}), "
                             f"while the loaded parameter (namely [ {var.name} ]) has a dtype "
                             f"of ({new.dtype}).")
        arrays[var] = new
    _set_arrays(arrays, None)
    unused = [k for k in state_dict if k not in {v.name for v in arrays}]
    if unused:
        warnings.warn(f"This list is not set, Because of Parameter not found in program. "
                      f"There are: {' '.join(unused)}")
