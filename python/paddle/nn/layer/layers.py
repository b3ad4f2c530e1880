"""paddle.nn.Layer: the base class of every model part.

A Layer owns three ordered registries filled by plain attribute assignment: parameters
(EagerParamBase), sublayers (Layer) and buffers (other tensors). Structured names come from the
attribute path ("fc1.weight", "0.bias"); they key state_dict. Parameters keep their own unique
names ("linear_0.w_0") that key optimizer state.
"""
import collections
import re
import warnings
import weakref

import numpy as np

from ... import _C_ops
from ...autograd import no_grad
from ...base import libpaddle
from ...base.framework import convert_dtype, is_floating
from ...device import _resolve_place
from ...tensor.creation import to_tensor
from ...utils import unique_name
from ...static.program import Parameter as StaticParameter
from ..parameter import EagerParamBase, _make_parameter
from ._error_context import name_failing_layer

__all__ = ["Layer"]

Tensor = libpaddle.Tensor

_first_cap_re = re.compile("(.)([A-Z][a-z]+)")
_all_cap_re = re.compile("([a-z])([A-Z])")


def _convert_camel_to_snake(name):
    """'LayerNorm' -> 'layer_norm': the prefix of a layer's full name."""
    return _all_cap_re.sub(r"\1_\2", _first_cap_re.sub(r"\1_\2", name)).lower()


def _addindent(string, indent):
    lines = string.split("\n")
    if len(lines) == 1:
        return string
    return lines[0] + "\n" + "\n".join(" " * indent + line for line in lines[1:])


class HookRemoveHelper:
    """Returned by register_*_hook; `remove()` unregisters the hook."""

    next_hook_id = 0

    def __init__(self, hooks):
        self._hooks_ref = weakref.ref(hooks)
        self._hook_id = HookRemoveHelper.next_hook_id
        HookRemoveHelper.next_hook_id += 1

    def remove(self):
        hooks = self._hooks_ref()
        if hooks is not None and self._hook_id in hooks:
            del hooks[self._hook_id]


class Layer:
    """Base class of layers: subclasses create parameters and sublayers in __init__ and
    compute in forward(); calling the layer runs the hooks around forward."""

    def __init__(self, name_scope=None, dtype="float32"):
        self.training = True
        if name_scope is None:
            name_scope = _convert_camel_to_snake(self.__class__.__name__)
        self._full_name = unique_name.generate(name_scope)
        self._dtype = dtype
        self._parameters = collections.OrderedDict()
        self._buffers = collections.OrderedDict()
        self._non_persistable_buffer_names_set = set()
        self._sub_layers = collections.OrderedDict()
        self._forward_pre_hooks = collections.OrderedDict()
        self._forward_post_hooks = collections.OrderedDict()
        self._state_dict_hooks = collections.OrderedDict()

    # ---- modes -------------------------------------------------------------------------------
    def train(self):
        """Training mode for this layer and all sublayers (Dropout active, ...)."""
        for layer in self.sublayers(include_self=True):
            layer.training = True
        return self

    def eval(self):
        """Evaluation mode for this layer and all sublayers."""
        for layer in self.sublayers(include_self=True):
            layer.training = False
        return self

    def full_name(self):
        """The unique name of this layer, e.g. 'linear_0'."""
        return self._full_name

    # ---- calling -----------------------------------------------------------------------------
    def forward(self, *inputs, **kwargs):
        raise NotImplementedError(f"{type(self).__name__}.forward() is not implemented")

    def __call__(self, *inputs, **kwargs):
        for hook in list(self._forward_pre_hooks.values()):
            result = hook(self, inputs)
            if result is not None:
                inputs = result if isinstance(result, tuple) else (result,)
        try:
            outputs = self.forward(*inputs, **kwargs)
        except (ValueError, TypeError, IndexError) as error:
            name_failing_layer(error, self, inputs)
            raise
        for hook in list(self._forward_post_hooks.values()):
            result = hook(self, inputs, outputs)
            if result is not None:
                outputs = result
        return outputs

    def register_forward_pre_hook(self, hook):
        """hook(layer, inputs) runs before forward; a non-None result replaces the inputs."""
        handle = HookRemoveHelper(self._forward_pre_hooks)
        self._forward_pre_hooks[handle._hook_id] = hook
        return handle

    def register_forward_post_hook(self, hook):
        """hook(layer, inputs, outputs) runs after forward; a non-None result replaces the
        outputs."""
        handle = HookRemoveHelper(self._forward_post_hooks)
        self._forward_post_hooks[handle._hook_id] = hook
        return handle

    def register_state_dict_hook(self, hook):
        """hook(state_dict) runs at the end of state_dict(); a non-None result replaces it."""
        handle = HookRemoveHelper(self._state_dict_hooks)
        self._state_dict_hooks[handle._hook_id] = hook
        return handle

    def apply(self, fn):
        """Calls fn(layer) on every sublayer and then on self (e.g. custom initialization)."""
        for layer in self.children():
            layer.apply(fn)
        fn(self)
        return self

    # ---- creation ----------------------------------------------------------------------------
    def create_parameter(self, shape, attr=None, dtype=None, is_bias=False,
                         default_initializer=None):
        """A new parameter named after this layer ("<full_name>.w_N"); None when attr is False.
        Assign it to an attribute to register it."""
        if isinstance(attr, str) and attr == "":
            attr = None
        return _make_parameter(self._full_name, shape, attr,
                               self._dtype if dtype is None else dtype, is_bias,
                               default_initializer)

    def add_parameter(self, name, parameter):
        """Registers `parameter` (or None) under `name`; returns it."""
        if "_parameters" not in self.__dict__:
            raise RuntimeError("super().__init__() should be called firstly.")
        if not isinstance(name, str):
            raise TypeError(f"The name of parameter should be a string, but received "
                            f"{type(name).__name__}.")
        if "." in name:
            raise KeyError("The name of parameter can not contain `.`, because when you access "
                           "the newly added parameter in the form of `self.**.**`, it will "
                           "cause AttributeError.")
        if name == "":
            raise KeyError("The name of parameter can not be empty.")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"The parameter '{name}' already exists.")
        if parameter is not None and not isinstance(parameter, (EagerParamBase, StaticParameter)):
            raise TypeError(f"The parameter to be added should be a Parameter, but received "
                            f"{type(parameter).__name__}.")
        self._parameters[name] = parameter
        return parameter

    def add_sublayer(self, name, sublayer):
        """Registers `sublayer` (or None) under `name`; returns it."""
        if not (sublayer is None or isinstance(sublayer, Layer)):
            raise TypeError(f"The sublayer to be added should be a Layer, but received "
                            f"{type(sublayer).__name__}.")
        self._sub_layers[str(name)] = sublayer
        return sublayer

    def register_buffer(self, name, tensor, persistable=True):
        """Registers a tensor that is state but not a parameter (e.g. running statistics).
        Persistable buffers are part of state_dict."""
        if "_buffers" not in self.__dict__:
            raise ValueError("super().__init__() should be called first")
        if not isinstance(name, str):
            raise TypeError(f"The name of buffer should be a string, but received "
                            f"{type(name).__name__}.")
        if "." in name:
            raise KeyError("The name of buffer can not contain `.`, because when you access the "
                           "newly added buffer in the form of `self.**.**`, it will cause "
                           "AttributeError.")
        if name == "":
            raise KeyError("The name of buffer can not be empty.")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists.")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"The registered buffer should be a Paddle.Tensor, but received "
                            f"{type(tensor).__name__}.")
        if isinstance(tensor, Tensor) and not tensor.name:
            tensor.name = unique_name.generate("_buffers_" + name)
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names_set.discard(name)
        else:
            self._non_persistable_buffer_names_set.add(name)

    # ---- traversal ---------------------------------------------------------------------------
    def named_sublayers(self, prefix="", include_self=False, layers_set=None):
        """(structured name, layer) for every sublayer, depth first, each layer once."""
        if layers_set is None:
            layers_set = set()
        if include_self and id(self) not in layers_set:
            layers_set.add(id(self))
            yield prefix, self
        for key, layer in self._sub_layers.items():
            if layer is None:
                continue
            layer_prefix = prefix + ("." if prefix else "") + key
            yield from layer.named_sublayers(layer_prefix, True, layers_set)

    def sublayers(self, include_self=False):
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_children(self):
        """(name, layer) for the direct sublayers."""
        seen = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and id(layer) not in seen:
                seen.add(id(layer))
                yield name, layer

    def children(self):
        for _, layer in self.named_children():
            yield layer

    def named_parameters(self, prefix="", include_sublayers=True, remove_duplicate=True):
        """(structured name, parameter) pairs; a parameter shared by two layers appears once
        unless remove_duplicate is False."""
        seen = set()
        layers = (self.named_sublayers(prefix=prefix, include_self=True) if include_sublayers
                  else [(prefix, self)])
        for layer_prefix, layer in layers:
            for key, param in layer._parameters.items():
                if param is None or (remove_duplicate and id(param) in seen):
                    continue
                seen.add(id(param))
                yield layer_prefix + ("." if layer_prefix else "") + key, param

    def parameters(self, include_sublayers=True):
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_buffers(self, prefix="", include_sublayers=True):
        seen = set()
        layers = (self.named_sublayers(prefix=prefix, include_self=True) if include_sublayers
                  else [(prefix, self)])
        for layer_prefix, layer in layers:
            for key, buffer in layer._buffers.items():
                if buffer is None or id(buffer) in seen:
                    continue
                seen.add(id(buffer))
                yield layer_prefix + ("." if layer_prefix else "") + key, buffer

    def buffers(self, include_sublayers=True):
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    def clear_gradients(self, set_to_zero=True):
        """Clears the gradients of all trainable parameters (zeroes them by default)."""
        for p in self.parameters():
            if p.trainable:
                p.clear_gradient(set_to_zero)

    # ---- state -------------------------------------------------------------------------------
    def state_dict(self, destination=None, include_sublayers=True, structured_name_prefix="",
                   use_hook=True, keep_vars=True):
        """An OrderedDict of structured name -> tensor for the parameters and persistable
        buffers. The values are the layer's own tensors, not copies."""
        return self._state_dict_impl(destination, include_sublayers, structured_name_prefix,
                                     False, use_hook)

    def to_static_state_dict(self, destination=None, include_sublayers=True,
                             structured_name_prefix="", use_hook=True):
        """Like state_dict, with the non-persistable buffers too."""
        return self._state_dict_impl(destination, include_sublayers, structured_name_prefix,
                                     True, use_hook)

    def _state_dict_impl(self, destination, include_sublayers, prefix, include_non_persistable,
                         use_hook):
        if destination is None:
            destination = collections.OrderedDict()
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param
        for name, buffer in self._buffers.items():
            if buffer is not None and (include_non_persistable or
                                       name not in self._non_persistable_buffer_names_set):
                destination[prefix + name] = buffer
        if include_sublayers:
            for layer_name, layer in self._sub_layers.items():
                if layer is not None:
                    layer._state_dict_impl(destination, include_sublayers,
                                           prefix + layer_name + ".", include_non_persistable,
                                           use_hook)
        if use_hook:
            for hook in self._state_dict_hooks.values():
                result = hook(destination)
                if result is not None:
                    destination = result
        return destination

    def set_state_dict(self, state_dict, use_structured_name=True):
        """Copies the values of `state_dict` (tensors or NumPy arrays) into this layer's
        parameters and buffers in place. Keys are structured names, or parameter names when
        use_structured_name is False. Missing keys and shape mismatches are skipped with a
        warning, as in Paddle; returns (missing_keys, unexpected_keys)."""
        missing_keys, matched, unexpected_keys = [], set(), []
        pairs = []
        for key, target in self._state_dict_impl(None, True, "", False, False).items():
            key_name = key if use_structured_name else target.name
            value = state_dict.get(key_name)
            if value is None:
                missing_keys.append(key_name)
                warnings.warn(f"Skip loading for {key}. {key_name} is not found in the "
                              f"provided dict.")
                continue
            shape = list(value.shape)
            if shape != list(target.shape):
                missing_keys.append(key_name)
                warnings.warn(f"Skip loading for {key}. {key_name} receives a shape {shape}, "
                              f"but the expected shape is {list(target.shape)}.")
                continue
            matched.add(key_name)
            pairs.append((target, value))
        for key in state_dict:
            if key not in matched:
                unexpected_keys.append(key)
        with no_grad():
            for target, value in pairs:
                target._set_value(_as_tensor_like(value, target))
        return missing_keys, unexpected_keys

    set_dict = set_state_dict
    load_dict = set_state_dict

    # ---- dtype and device --------------------------------------------------------------------
    def to(self, device=None, dtype=None, blocking=None):
        """Moves and/or casts every parameter and buffer in place (the Parameter objects
        stay the same, so an optimizer built earlier keeps working)."""
        self._transform(device, dtype, floating_only=False)
        return self

    def astype(self, dtype=None):
        """Casts the floating-point parameters and buffers to `dtype`."""
        self._transform(None, dtype, floating_only=True)
        return self

    def float(self, excluded_layers=None):
        return self._cast_floating("float32", excluded_layers)

    def float16(self, excluded_layers=None):
        return self._cast_floating("float16", excluded_layers)

    def bfloat16(self, excluded_layers=None):
        return self._cast_floating("bfloat16", excluded_layers)

    def double(self, excluded_layers=None):
        return self._cast_floating("float64", excluded_layers)

    def _cast_floating(self, dtype, excluded_layers):
        excluded = _excluded_layer_check(excluded_layers)
        for layer in self.sublayers(include_self=True):
            if isinstance(layer, excluded):
                continue
            layer._transform(None, dtype, floating_only=True, include_sublayers=False)
        return self

    def _transform(self, device, dtype, floating_only, include_sublayers=True):
        place = None if device is None else _resolve_place(device)
        dtype = None if dtype is None else convert_dtype(dtype)
        layers = self.sublayers(include_self=True) if include_sublayers else [self]
        with no_grad():
            for layer in layers:
                for registry in (layer._parameters, layer._buffers):
                    for tensor in registry.values():
                        if tensor is not None:
                            _transform_tensor(tensor, place, dtype, floating_only)
                if dtype is not None:
                    layer._dtype = dtype.name.lower()

    # ---- attribute protocol ------------------------------------------------------------------
    def __getattr__(self, name):
        # Only reached when normal lookup fails: look in the registries.
        for registry in ("_parameters", "_sub_layers", "_buffers"):
            entries = self.__dict__.get(registry)
            if entries is not None and name in entries:
                return entries[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        def remove_from(*dicts):
            for d in dicts:
                if name in d:
                    del d[name]

        if isinstance(getattr(type(self), name, None), property):
            object.__setattr__(self, name, value)
            return
        params = self.__dict__.get("_parameters")
        if isinstance(value, (EagerParamBase, StaticParameter)):
            if params is None:
                raise ValueError("super().__init__() should be called first")
            remove_from(self.__dict__, self._buffers, self._sub_layers)
            params[name] = value
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(f"assignment to parameter '{name}' should be of type Parameter "
                                f"or None, but got '{type(value).__name__}'")
            params[name] = None
            return
        layers = self.__dict__.get("_sub_layers")
        if isinstance(value, Layer):
            if layers is None:
                raise ValueError("super().__init__() should be called first")
            remove_from(self.__dict__, self._parameters, self._buffers)
            layers[name] = value
            return
        if layers is not None and name in layers:
            if value is not None:
                raise TypeError(f"assignment to sublayer '{name}' should be of type Layer or "
                                f"None, but got '{type(value).__name__}'")
            layers[name] = None
            return
        buffers = self.__dict__.get("_buffers")
        if isinstance(value, Tensor):
            if buffers is None:
                raise ValueError("super().__init__() should be called first")
            remove_from(self.__dict__, self._parameters, self._sub_layers)
            # A tensor assigned as an attribute is state but not saved: only register_buffer
            # makes a persistable buffer.
            if name not in buffers:
                self._non_persistable_buffer_names_set.add(name)
            if not value.name:
                value.name = unique_name.generate("_buffers_" + name)
            buffers[name] = value
            return
        if buffers is not None and name in buffers:
            if value is not None:
                raise TypeError(f"assignment to buffer '{name}' should be of type Tensor or "
                                f"None, but got '{type(value).__name__}'")
            buffers[name] = None
            return
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        for registry in ("_parameters", "_sub_layers", "_buffers"):
            entries = self.__dict__.get(registry)
            if entries is not None and name in entries:
                del entries[name]
                if registry == "_buffers":
                    self._non_persistable_buffer_names_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._sub_layers)
                      | set(self._buffers))

    # ---- printing ----------------------------------------------------------------------------
    def extra_repr(self):
        """Extra information shown inside this layer's repr (override in subclasses)."""
        return ""

    def __repr__(self):
        extra_lines = self.extra_repr().split("\n")
        sublayer_lines = [f"({name}): {_addindent(repr(layer), 2)}"
                          for name, layer in self._sub_layers.items() if layer is not None]
        text = self.__class__.__name__ + "("
        if len(extra_lines) > 1:
            text += "\n  " + "\n  ".join(extra_lines) + "\n"
        elif extra_lines[0]:
            text += extra_lines[0]
        if sublayer_lines:
            text += "\n  " + "\n  ".join(sublayer_lines) + "\n"
        return text + ")"


def _excluded_layer_check(excluded_layers):
    if excluded_layers is None:
        return ()
    if isinstance(excluded_layers, type):
        return (excluded_layers,)
    if isinstance(excluded_layers, (list, tuple)):
        return tuple(excluded_layers)
    raise TypeError(f"excluded_layers should be a Layer type or a list of Layer types, but "
                    f"received {type(excluded_layers).__name__}")


def _transform_tensor(tensor, place, dtype, floating_only):
    """Casts/moves `tensor` in place: the same Python object afterwards refers to the new data.
    Its gradient no longer matches and is dropped."""
    new = tensor
    if dtype is not None and new.dtype != dtype and (not floating_only or
                                                     is_floating(new.dtype)):
        new = _C_ops.cast(new, dtype)
    if place is not None and new.place != place:
        new = new._copy_to(place)
    if new is not tensor:
        stop_gradient = tensor.stop_gradient
        tensor._clear_grad(False)
        tensor._share_data_from(new)
        tensor.stop_gradient = stop_gradient


def _as_tensor_like(value, target):
    """`value` (a Tensor or array-like) as a tensor with target's dtype and place."""
    dtype = convert_dtype(target.dtype)
    if isinstance(value, Tensor):
        out = value if value.dtype == dtype else _C_ops.cast(value, dtype)
        return out if out.place == target.place else out._copy_to(target.place)
    array = np.asarray(value)
    if dtype == libpaddle.DataType.BFLOAT16 and array.dtype == np.uint16:
        # NumPy has no bfloat16: Paddle stores bfloat16 tensors as their uint16 bit patterns.
        return libpaddle._tensor_from_numpy(np.ascontiguousarray(array), target.place, dtype)
    return to_tensor(array, dtype=dtype, place=target.place)
