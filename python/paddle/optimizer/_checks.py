"""Argument checks shared by the optimizers: a bad hyperparameter raises ValueError naming it."""
import numbers

from ..base import libpaddle


def _is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def check_learning_rate(learning_rate):
    """A float learning rate must be >= 0 (a scheduler or tensor is not checked)."""
    if learning_rate is None:
        raise ValueError("learning_rate is not set")
    if _is_number(learning_rate) and not learning_rate >= 0:
        raise ValueError(f"Invalid learning rate: {learning_rate}, expect learning_rate >= 0.")


def check_non_negative(name, value):
    if value is None:
        raise ValueError(f"{name} is not set")
    if isinstance(value, libpaddle.Tensor):
        return
    if not _is_number(value) or not value >= 0:
        raise ValueError(f"Invalid value of {name}: {value}, expect {name} >= 0.")


def check_unit_interval(name, value, closed=False):
    """0 <= value < 1 (or <= 1 with closed=True), as the betas and decay rates must be."""
    if value is None:
        raise ValueError(f"{name} is not set")
    if isinstance(value, libpaddle.Tensor):
        return
    upper_ok = value <= 1 if closed else value < 1
    if not _is_number(value) or not (0 <= value and upper_ok):
        bound = "]" if closed else ")"
        raise ValueError(f"Invalid value of {name}: {value}, expect {name} in [0, 1{bound}.")


def state_dtype(param):
    """The dtype of a parameter's moments: float32 for a 16-bit parameter, else its own."""
    if param.dtype in (libpaddle.DataType.FLOAT16, libpaddle.DataType.BFLOAT16):
        return libpaddle.DataType.FLOAT32
    return param.dtype
