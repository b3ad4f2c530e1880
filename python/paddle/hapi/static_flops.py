"""paddle.flops of a static Program: the FLOPs of its conv2d, pool2d, mul/matmul, batch_norm and
elementwise ops read from the variables' static shapes (per sample: the batch dimension is
left out), with PaddlePaddle's counting rules and table."""
import numpy as np

from .dynamic_flops import Table

__all__ = ["static_flops"]


def _find_var(program, name):
    for block in program.blocks:
        if block.has_var(name):
            return block.var(name)
    return None


def _shape(program, op, slot, output=False):
    names = op.output(slot) if output else (op.input(slot) if slot in op.input_names else [])
    return list(_find_var(program, names[0]).shape) if names else None


def _per_sample(shape):
    return int(np.prod(shape[1:]))


def _count(program, op):
    """(flops, the parameter it uses or '') of one op; 0 for ops that are not counted."""
    kind = op.type
    if kind in ("conv2d", "depthwise_conv2d"):
        filter_shape = _shape(program, op, "Filter")
        has_bias = "Bias" in op.input_names and len(op.input("Bias")) > 0
        ops = _per_sample(_shape(program, op, "Output", output=True)) * (
            int(np.prod(filter_shape[1:])) + (1 if has_bias else 0))
        return abs(ops), op.input("Filter")[0]
    if kind == "pool2d":
        input_shape = _shape(program, op, "X")
        output_shape = _shape(program, op, "Out", output=True)
        kernel = np.array(input_shape[2:]) // np.array(output_shape[2:])
        return abs((int(np.prod(kernel)) + 1) * _per_sample(output_shape)), ""
    if kind in ("mul", "matmul"):
        rows = _shape(program, op, "Y")[0]
        return abs(rows * _per_sample(_shape(program, op, "Out", output=True))), op.input("Y")[0]
    if kind == "batch_norm":
        return abs(2 * _per_sample(_shape(program, op, "Y", output=True))), ""
    if kind.startswith("element"):
        return abs(_per_sample(_shape(program, op, "X"))), ""
    return 0, ""


def static_flops(program, print_detail=False):
    """The counted FLOPs of every op of `program`; print_detail prints them per op."""
    table = Table(["OP Type", "Param name", "Flops"])
    total = 0
    for block in program.blocks:
        for op in block.ops:
            ops, param_name = _count(program, op)
            total += ops
            if ops != 0:
                table.add_row([op.type, param_name, ops])
    if print_detail:
        table.print_table()
    return total
