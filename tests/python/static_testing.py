"""Helpers shared by the static-graph tests."""
import contextlib

import paddle
from paddle.utils import unique_name


@contextlib.contextmanager
def static_mode():
    """Static mode with fresh default programs, a fresh global scope and fresh name counters, back
    to dygraph after: nothing one test appends to the default programs reaches the next."""
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()), \
                paddle.static.scope_guard(paddle.static.Scope()), unique_name.guard():
            yield
    finally:
        paddle.disable_static()


@contextlib.contextmanager
def flags(**values):
    """Sets FLAGS_<name> values for the block."""
    names = [f"FLAGS_{k}" for k in values]
    saved = paddle.get_flags(names)
    paddle.set_flags({f"FLAGS_{k}": v for k, v in values.items()})
    try:
        yield
    finally:
        paddle.set_flags(saved)


def new_programs():
    """A (main, startup) pair of empty programs."""
    return paddle.static.Program(), paddle.static.Program()


def scope_value(name):
    """The value of variable `name` in the global scope, as a NumPy array."""
    return paddle.static.global_scope().find_var(name).get_tensor().numpy()
