"""The printed form of a tensor, as PaddlePaddle prints it."""
import numpy as np


def tensor_repr(t):
    if not t._is_initialized():
        return (f"Tensor(Not initialized, shape={t.shape}, dtype={t.dtype.name}, "
                f"place={t.place}, stop_gradient={t.stop_gradient})")
    prefix = "Tensor("
    # A SelectedRows (sparse gradient) prints its value, after its rows.
    rows = f", rows={t.rows()}" if t.is_selected_rows() else ""
    header = (f"{prefix}shape={t.shape}, dtype={t.dtype.name}, place={t.place}, "
              f"stop_gradient={t.stop_gradient}{rows},\n")
    data = t.numpy()
    if t.dtype.name == "bfloat16":
        data = np.asarray(data.astype(np.uint32) << 16).view(np.float32)
    indent = " " * len(prefix)
    body = np.array2string(data, separator=", ", prefix=indent, precision=8,
                           threshold=1000, edgeitems=3)
    return f"{header}{indent}{body})"
