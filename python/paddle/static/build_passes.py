"""The BuildStrategy passes that CompiledProgram applies to a copy of the program.

- fuse_all_optimizer_ops: the momentum ops (and the adam ops) of the optimizer step become one
  `merged_momentum` (`merged_adam`) op over all their parameters, as Paddle's fusion does; each
  group holds the ops with equal hyperparameters and parameter dtype, and is merged where no op
  between its first and last member reads what a member writes or writes what a member reads
  (so moving every update to the last member's place changes no value).
- debug_graphviz_path: the program graph as Graphviz files, `<path>_original_graph.dot` before
  the passes and `<path>_fused_graph.dot` after them (Paddle writes its graph_viz_pass files
  with these suffixes).
"""
import os

__all__ = ["apply_build_passes", "write_graphviz"]


def apply_build_passes(program, strategy):
    """A copy of `program` rewritten by the passes `strategy` enables."""
    compiled = program.clone()
    path = strategy.debug_graphviz_path
    if path:
        write_graphviz(compiled, path + "_original_graph.dot")
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
    """Whether the members (indices into ops, ascending) can all run at the last one's place."""
    read = set().union(*(_names_read(ops[i]) for i in members))
    written = set().union(*(_names_written(ops[i]) for i in members))
    chosen = set(members)
    for i in range(members[0], members[-1]):
        if i in chosen:
            continue
        if _names_read(ops[i]) & written or _names_written(ops[i]) & (read | written):
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
