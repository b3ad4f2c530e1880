"""The BuildStrategy passes that CompiledProgram applies to a copy of the program.

- fuse_all_optimizer_ops: the momentum ops (and the adam ops) of the optimizer step become one
  `merged_momentum` (`merged_adam`) op over all their parameters, as Paddle's fusion does; each
  group holds the ops with equal hyperparameters and parameter dtype, and is merged where no op
  between its first and last member reads what a member writes or writes what a member reads
  (so moving every update to the last member's place changes no value).
- fuse_elewise_add_act_ops: act(x + y) and x + act(y), act one of relu, tanh, sigmoid, become
  one fused_elemwise_add_activation, and the two grad ops of the pair one
  fused_elemwise_add_activation_grad where they chain through a gradient nothing else reads
  (as Paddle's fuse_elewise_add_act_pass). The intermediate result (x + y, or act(y)) is still
  written where an op left unfused reads it.
- fuse_bn_act_ops: a training batch_norm over channel-last input followed by relu becomes one
  fused_batch_norm_act, and their grad ops (relu_grad, then batch_norm_grad, chained through a
  gradient nothing else reads) one fused_batch_norm_act_grad, as Paddle's fuse_bn_act_pass
  (which runs on cuDNN only; here the CPU kernels run it). batch_norm's pre-activation output
  is no longer written, so a pair whose output another op reads stays unfused.
- debug_graphviz_path: the program graph as Graphviz files, `<path>_original_graph.dot` before
  the passes and `<path>_fused_graph.dot` after them (Paddle writes its graph_viz_pass files
  with these suffixes).
"""
import os

from ..base.framework import convert_dtype

__all__ = ["apply_build_passes", "write_graphviz"]


def apply_build_passes(program, strategy):
    """A copy of `program` rewritten by the passes `strategy` enables."""
    compiled = program.clone()
    path = strategy.debug_graphviz_path
    if path:
        write_graphviz(compiled, path + "_original_graph.dot")
    if strategy.fuse_bn_act_ops:
        _fuse_bn_act(compiled.global_block())
    if strategy.fuse_elewise_add_act_ops:
        _fuse_elewise_add_act(compiled.global_block())
    if strategy.fuse_all_optimizer_ops:
        _fuse_optimizer_ops(compiled.global_block())
    if path:
        write_graphviz(compiled, path + "_fused_graph.dot")
    return compiled


# ------------------------------------------------------------------------------- graphviz


def _quote(text):
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_graphviz(program, path):
    """Writes the program as a Graphviz digraph: ops are boxes, variables ellipses (parameters
    and other persistable variables filled), an edge per op input and output; each block is a
    cluster."""
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    lines = ["digraph G {", "  rankdir=TB;"]
    for block in program.blocks:
        prefix = f"b{block.idx}_"
        lines.append(f"  subgraph cluster_block{block.idx} {{")
        lines.append(f"    label={_quote(f'block {block.idx}')};")
        declared = set()

        def var_node(name):
            node = _quote(prefix + "var_" + name)
            if name not in declared:
                declared.add(name)
                var = block._find_var_recursive(name)
                style = ",style=filled,fillcolor=lightgrey" \
                    if var is not None and var.persistable else ""
                lines.append(f"    {node} [label={_quote(name)},shape=ellipse{style}];")
            return node

        for index, op in enumerate(block.ops):
            op_node = _quote(f"{prefix}op_{index}")
            lines.append(f"    {op_node} [label={_quote(op.type)},shape=box,style=bold];")
            for slot in op.input_names:
                for name in op.input(slot):
                    lines.append(f"    {var_node(name)} -> {op_node} [label={_quote(slot)}];")
            for slot in op.output_names:
                for name in op.output(slot):
                    lines.append(f"    {op_node} -> {var_node(name)} [label={_quote(slot)}];")
        lines.append("  }")
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


# ---------------------------------------------------------------- fuse_all_optimizer_ops

# For each fusible optimizer: the merged op type, the per-parameter input and output slots
# (Paddle's merged op's slot names equal the single op's), and the attributes every member
# must share (per-parameter attributes become lists, see _merged_attrs).
_MERGED = {
    "momentum": ("merged_momentum",
                 ["Param", "Grad", "Velocity", "LearningRate", "MasterParam"],
                 ["ParamOut", "VelocityOut", "MasterParamOut"],
                 ["mu", "use_nesterov", "multi_precision", "rescale_grad"]),
    "adam": ("merged_adam",
             ["Param", "Grad", "LearningRate", "Moment1", "Moment2", "Beta1Pow", "Beta2Pow",
              "MasterParam"],
             ["ParamOut", "Moment1Out", "Moment2Out", "Beta1PowOut", "Beta2PowOut",
              "MasterParamOut"],
             ["beta1", "beta2", "epsilon", "multi_precision", "use_global_beta_pow"]),
}

# Inputs of the single op that the merged op has no slot for: an op using one stays unfused.
_UNMERGEABLE_INPUTS = {"momentum": (), "adam": ("Moment2Max", "SkipUpdate", "Beta1Tensor",
                                                "Beta2Tensor", "EpsilonTensor")}


def _attr(op, name):
    return op.attr(name) if op.has_attr(name) else None


def _fusible(op):
    if op.type not in _MERGED:
        return False
    if any(op.input(slot) for slot in _UNMERGEABLE_INPUTS[op.type] if slot in op.input_names):
        return False
    if op.type == "adam" and _attr(op, "amsgrad"):
        return False
    grad = op.input("Grad")[0]
    var = op.block._find_var_recursive(grad)
    return var is not None and not var.is_selected_rows()


def _group_key(op):
    _, _, _, shared = _MERGED[op.type]
    param = op.block._find_var_recursive(op.input("Param")[0])
    has_master = bool(op.input("MasterParam")) if "MasterParam" in op.input_names else False
    return (op.type, param.dtype, has_master) + tuple(repr(_attr(op, a)) for a in shared)


def _names_read(op):
    return {n for slot in op.input_names for n in op.input(slot)}


def _names_written(op):
    return {n for slot in op.output_names for n in op.output(slot)}


def _movable(ops, members):
    """Whether the members (indices into ops, ascending) can all run at the last one's place:
    no op in between reads what an earlier member writes, or writes what an earlier member
    reads or writes (later members run after it either way)."""
    chosen = set(members)
    read, written = set(), set()
    for i in range(members[0], members[-1]):
        if i in chosen:
            read |= _names_read(ops[i])
            written |= _names_written(ops[i])
        elif _names_read(ops[i]) & written or _names_written(ops[i]) & (read | written):
            return False
    return True


def _merged_attrs(op_type, members):
    first = members[0]
    _, _, _, shared = _MERGED[op_type]
    attrs = {name: _attr(first, name) for name in shared if _attr(first, name) is not None}
    if op_type == "momentum":
        attrs["regularization_method"] = [_attr(op, "regularization_method") or ""
                                          for op in members]
        attrs["regularization_coeff"] = [float(_attr(op, "regularization_coeff") or 0.0)
                                         for op in members]
    if first.has_attr("op_role"):
        attrs["op_role"] = first.attr("op_role")
    return attrs


def _fuse_optimizer_ops(block):
    groups = {}
    for index, op in enumerate(block.ops):
        if _fusible(op):
            groups.setdefault(_group_key(op), []).append(index)
    merges = []
    for members in groups.values():
        if len(members) > 1 and _movable(block.ops, members):
            merges.append(members)
    # Replace from the back so the indices of earlier groups stay valid.
    for members in sorted(merges, key=lambda m: m[-1], reverse=True):
        ops = [block.ops[i] for i in members]
        op_type = ops[0].type
        merged_type, inputs, outputs, _ = _MERGED[op_type]
        slots_in = {slot: [n for op in ops if slot in op.input_names for n in op.input(slot)]
                    for slot in inputs}
        slots_out = {slot: [n for op in ops if slot in op.output_names for n in op.output(slot)]
                     for slot in outputs}
        attrs = _merged_attrs(op_type, ops)
        last = members[-1]
        block._insert_op(last + 1, merged_type, inputs=slots_in, outputs=slots_out, attrs=attrs)
        for i in reversed(members):
            block._remove_op(i)


# -------------------------------------------------------------- fuse_elewise_add_act_ops

# The activations fused with an elementwise_add (Paddle fuses relu, tanh and scale; sigmoid
# here too, which the fused op computes; scale's backward is no separate op in this
# framework's programs, so it stays unfused).
_FUSED_ACTIVATIONS = ("relu", "tanh", "sigmoid")


def _single(op, slot, output=False):
    names = (op.output if output else op.input)(slot) \
        if slot in (op.output_names if output else op.input_names) else []
    return names[0] if len(names) == 1 else None


def _readers(ops, name):
    return [i for i, op in enumerate(ops) if name in _names_read(op)]


def _untouched_between(ops, begin, end, written=(), read=()):
    """Whether no op strictly between begin and end writes a name of `written` or reads one of
    `read`."""
    written, read = set(written), set(read)
    return all(not (_names_written(ops[i]) & written) and not (_names_read(ops[i]) & read)
               for i in range(begin + 1, end))


def _broadcasts_like_paddle(block, x_name, y_name, axis):
    """Whether the fused op (y aligned against x at `axis`) computes what elementwise_add did:
    x has y's rank or more, the dtype has a kernel, and no dim of x is broadcast."""
    x, y = block._find_var_recursive(x_name), block._find_var_recursive(y_name)
    if x is None or y is None or x.dtype != y.dtype:
        return False
    if convert_dtype(x.dtype).name not in ("float32", "float64"):
        return False
    x_shape, y_shape = list(x.shape), list(y.shape)
    if len(y_shape) > len(x_shape):
        return False
    start = len(x_shape) - len(y_shape) if axis == -1 else axis
    if start < 0 or start + len(y_shape) > len(x_shape):
        return False
    return all(y_dim in (1, x_dim) for y_dim, x_dim in zip(y_shape, x_shape[start:]))


def _forward_matches(block):
    """(add index, act index, activation input-side) for each add/activation pair to fuse:
    `inner` pairs are act(x + y) (the add's result read by the activation), `outer` pairs are
    x + act(y) (the activation's result as the add's Y)."""
    ops = block.ops
    matches = []
    for i, add in enumerate(ops):
        if add.type != "elementwise_add":
            continue
        x, y, out = _single(add, "X"), _single(add, "Y"), _single(add, "Out", output=True)
        axis = _attr(add, "axis")
        axis = -1 if axis is None else axis
        if None in (x, y, out) or not _broadcasts_like_paddle(block, x, y, axis):
            continue
        for j in _readers(ops, out):  # act(x + y)
            act = ops[j]
            if j > i and act.type in _FUSED_ACTIVATIONS and _single(act, "X") == out:
                matches.append(("inner", i, j))
                break
        else:
            producers = [k for k in range(i) if y in _names_written(ops[k])]
            if producers and ops[producers[-1]].type in _FUSED_ACTIVATIONS:  # x + act(y)
                k = producers[-1]
                if _single(ops[k], "Out", output=True) == y and _single(ops[k], "X"):
                    matches.append(("outer", k, i))
    return matches


def _fuse_elewise_add_act(block):
    ops = block.ops
    plans = []
    for kind, first, second in _forward_matches(block):
        add, act = (ops[first], ops[second]) if kind == "inner" else (ops[second], ops[first])
        x, y = _single(add, "X"), _single(add, "Y")
        if kind == "inner":
            inputs_x, inputs_y = x, y
            intermediate, out = _single(add, "Out", True), _single(act, "Out", True)
            functors = [act.type, "elementwise_add"]
        else:
            inputs_x, inputs_y = x, _single(act, "X")
            intermediate, out = y, _single(add, "Out", True)
            functors = ["elementwise_add", act.type]
        if None in (out, intermediate) or not _untouched_between(
                ops, first, second, written={inputs_x, inputs_y, intermediate, out},
                read={out, intermediate}):
            continue
        plans.append(dict(kind=kind, first=first, second=second, x=inputs_x, y=inputs_y,
                          intermediate=intermediate, out=out, functors=functors,
                          axis=_attr(add, "axis") if _attr(add, "axis") is not None else -1,
                          act=act.type, add=add))
    used = set()
    rewrites = []  # (ops to remove, the op to insert after, type, inputs, outputs, attrs)
    for plan in plans:
        if {plan["first"], plan["second"]} & used:
            continue
        used |= {plan["first"], plan["second"]}
        grad = _backward_match(block, plan)
        if grad is not None and not {grad[0], grad[1]} & used:
            used |= {grad[0], grad[1]}
            rewrites.append(grad[2])
        else:
            plan.pop("grad_indices", None)
        rewrites.append(_forward_rewrite(block, plan))
    return _apply_rewrites(block, ops, rewrites)


def _fused_attrs(plan, save_intermediate_out, role_op):
    attrs = {"functor_list": plan["functors"], "axis": plan["axis"], "scale": 0.0,
             "save_intermediate_out": save_intermediate_out}
    if role_op.has_attr("op_role"):
        attrs["op_role"] = role_op.attr("op_role")
    return attrs


def _forward_rewrite(block, plan):
    """The fused forward op. Its intermediate result stays in its variable while any op reads
    it after the rewrite (the unfused backward's grad ops read it)."""
    ops = block.ops
    pair = {plan["first"], plan["second"]}
    readers = [i for i in _readers(ops, plan["intermediate"]) if i not in pair]
    save = bool(readers) and not _only_grad_readers(ops, readers, plan)
    outputs = {"Out": [plan["out"]], "IntermediateOut": [plan["intermediate"]] if save else []}
    return ([plan["first"], plan["second"]], plan["second"], "fused_elemwise_add_activation",
            {"X": [plan["x"]], "Y": [plan["y"]]}, outputs,
            _fused_attrs(plan, save, plan["add"]))


def _only_grad_readers(ops, readers, plan):
    """Whether the intermediate's readers are just the two grad ops the backward fusion
    removes."""
    return all(i in plan.get("grad_indices", ()) for i in readers)


def _backward_match(block, plan):
    """The grad ops of the pair (the activation's and the add's, chained through one gradient
    read by nothing else), as (index, index, rewrite) into a fused_elemwise_add_activation_grad,
    or None."""
    ops = block.ops
    act_grad_type = plan["act"] + "_grad"
    out_grad = plan["out"] + "@GRAD"
    if plan["kind"] == "inner":
        # act_grad(Out@GRAD=d out) -> d intermediate -> elementwise_add_grad -> dx, dy
        first = [i for i, op in enumerate(ops) if op.type == act_grad_type and
                 _single(op, "Out@GRAD") == out_grad and _single(op, "Out") == plan["out"]]
        if len(first) != 1:
            return None
        link = _single(ops[first[0]], "X@GRAD", True)
        second = [i for i in _readers(ops, link) if ops[i].type == "elementwise_add_grad"]
        if link is None or _readers(ops, link) != second or len(second) != 1:
            return None
        add_grad, act_grad = ops[second[0]], ops[first[0]]
        x_grad = add_grad.output("X@GRAD") if "X@GRAD" in add_grad.output_names else []
        y_grad = add_grad.output("Y@GRAD") if "Y@GRAD" in add_grad.output_names else []
        first, second = first[0], second[0]
        if _single(add_grad, "X") != plan["x"] or _single(add_grad, "Y") != plan["y"]:
            return None
    else:
        # elementwise_add_grad(Out@GRAD=d out) -> dx, d intermediate -> act_grad -> dy
        first = [i for i, op in enumerate(ops) if op.type == "elementwise_add_grad" and
                 _single(op, "Out@GRAD") == out_grad and _single(op, "Y") == plan["intermediate"]]
        if len(first) != 1:
            return None
        add_grad = ops[first[0]]
        link = _single(add_grad, "Y@GRAD", True)
        second = [i for i in _readers(ops, link) if ops[i].type == act_grad_type]
        if link is None or _readers(ops, link) != second or len(second) != 1:
            return None
        act_grad = ops[second[0]]
        x_grad = add_grad.output("X@GRAD") if "X@GRAD" in add_grad.output_names else []
        y_grad = act_grad.output("X@GRAD") if "X@GRAD" in act_grad.output_names else []
        first, second = first[0], second[0]
    # Every gradient is now produced at the second grad op's place.
    if not _untouched_between(ops, first, second,
                              written={plan["x"], plan["y"], plan["out"], out_grad},
                              read=set(x_grad) | set(y_grad)):
        return None
    plan["grad_indices"] = (first, second)
    outputs = {"X@GRAD": x_grad, "Y@GRAD": y_grad}
    inputs = {"X": [plan["x"]], "Y": [plan["y"]], "Out": [plan["out"]], "Out@GRAD": [out_grad]}
    return (first, second, ([first, second], second, "fused_elemwise_add_activation_grad",
                            inputs, outputs, _fused_attrs(plan, False, act_grad)))


# ------------------------------------------------------------------------ fuse_bn_act_ops

def _fusible_batch_norm(block, op):
    """A training batch_norm over channel-last float32/float64 x with scale and bias: what
    fused_batch_norm_act computes (Paddle's fused op has no layout attribute; its channels are
    last)."""
    if op.type != "batch_norm" or _attr(op, "data_layout") not in ("NHWC", "NLC", "NDHWC", "NC"):
        return False
    if _attr(op, "is_test") or _attr(op, "use_global_stats") or _attr(op, "trainable_statistics"):
        return False
    slots = ("X", "Scale", "Bias", "Mean", "Variance")
    if any(_single(op, slot) is None for slot in slots) or _single(op, "Y", True) is None:
        return False
    x = block._find_var_recursive(_single(op, "X"))
    return x is not None and convert_dtype(x.dtype).name in ("float32", "float64")


def _bn_act_backward(ops, bn_index, relu_index):
    """(relu_grad index, batch_norm_grad index) of the pair, chained through the gradient of
    batch_norm's output and read by nothing else; None when the backward is not that pair."""
    bn, relu = ops[bn_index], ops[relu_index]
    out = _single(relu, "Out", True)
    relu_grads = [i for i, op in enumerate(ops) if op.type == "relu_grad" and
                  _single(op, "Out") == out and _single(op, "Out@GRAD") == out + "@GRAD"]
    if len(relu_grads) != 1:
        return None
    link = _single(ops[relu_grads[0]], "X@GRAD", True)
    if link is None:
        return None
    bn_grads = _readers(ops, link)
    if len(bn_grads) != 1 or ops[bn_grads[0]].type != "batch_norm_grad":
        return None
    bn_grad = ops[bn_grads[0]]
    if _single(bn_grad, "Y@GRAD") != link or _single(bn_grad, "X") != _single(bn, "X"):
        return None
    return relu_grads[0], bn_grads[0]


def _fuse_bn_act(block):
    """batch_norm + relu, and relu_grad + batch_norm_grad, into fused_batch_norm_act(_grad)."""
    ops = block.ops
    rewrites = []  # (ops to remove, the op to insert after, type, inputs, outputs, attrs)
    for i, bn in enumerate(ops):
        if not _fusible_batch_norm(block, bn):
            continue
        y = _single(bn, "Y", True)
        readers = _readers(ops, y)
        relus = [j for j in readers if ops[j].type == "relu" and j > i]
        if len(relus) != 1 or _single(ops[relus[0]], "Out", True) is None:
            continue
        j = relus[0]
        out = _single(ops[j], "Out", True)
        backward = _bn_act_backward(ops, i, j)
        grad_ops = set(backward or ())
        # batch_norm's own output disappears: only the pair and its grad ops may read it.
        if any(k != j and k not in grad_ops for k in readers):
            continue
        if not _untouched_between(ops, i, j, written={y, out}, read={out}):
            continue
        inputs = {slot: [_single(bn, slot)] for slot in ("X", "Scale", "Bias", "Mean", "Variance")}
        outputs = {slot: bn.output(slot) for slot in
                   ("MeanOut", "VarianceOut", "SavedMean", "SavedVariance", "ReserveSpace")}
        outputs["Y"] = [out]
        attrs = {"momentum": _attr(bn, "momentum"), "epsilon": _attr(bn, "epsilon"),
                 "act_type": "relu"}
        if bn.has_attr("op_role"):
            attrs["op_role"] = bn.attr("op_role")
        if backward is not None:
            relu_grad, bn_grad_index = backward
            bn_grad = ops[bn_grad_index]
            grads = {slot: bn_grad.output(slot) if slot in bn_grad.output_names else []
                     for slot in ("X@GRAD", "Scale@GRAD", "Bias@GRAD")}
            written = {out, out + "@GRAD"} | {n for slot in inputs.values() for n in slot}
            if not _untouched_between(ops, relu_grad, bn_grad_index, written=written,
                                      read={n for names in grads.values() for n in names}):
                continue
            grad_inputs = dict(inputs)
            del grad_inputs["Mean"], grad_inputs["Variance"]
            grad_inputs.update({"Y": [out], "Y@GRAD": [out + "@GRAD"],
                                "SavedMean": outputs["SavedMean"],
                                "SavedVariance": outputs["SavedVariance"],
                                "ReserveSpace": outputs["ReserveSpace"]})
            grad_attrs = dict(attrs)
            if bn_grad.has_attr("op_role"):
                grad_attrs["op_role"] = bn_grad.attr("op_role")
            rewrites.append(([relu_grad, bn_grad_index], bn_grad_index,
                             "fused_batch_norm_act_grad", grad_inputs, grads, grad_attrs))
        rewrites.append(([i, j], j, "fused_batch_norm_act", inputs, outputs, attrs))
    return _apply_rewrites(block, ops, rewrites)


def _apply_rewrites(block, ops, rewrites):
    """Applies (indices to remove, index of the anchor, op_type, inputs, outputs, attrs) rewrites:
    each new op goes right after its anchor, then the removed ops go. Ops are found by identity
    when applied, so one rewrite's removals do not shift another's. Returns whether any was
    applied."""
    rewrites = [([ops[i] for i in remove], ops[position], *rest)
                for remove, position, *rest in rewrites]
    for remove, anchor, op_type, inputs, outputs, attrs in rewrites:
        block._insert_op(block.ops.index(anchor) + 1, op_type, inputs=inputs, outputs=outputs,
                         attrs=attrs)
        for index in sorted((block.ops.index(op) for op in remove), reverse=True):
            block._remove_op(index)
    return bool(rewrites)
