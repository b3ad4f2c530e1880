from ..base import libpaddle


def seed(seed):
    """Seeds the generator behind every random op, so runs repeat exactly."""
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed(): expected a non-negative int, received {seed!r}")
    libpaddle._seed(seed)
    return seed


class GeneratorState:
    """A snapshot of the CPU generator (its seed and engine state), as get_rng_state returns."""

    def __init__(self, state):
        self._state = state

    def current_seed(self):
        return int(self._state.split(b" ", 1)[0])

    def __repr__(self):
        return f"GeneratorState(current_seed={self.current_seed()})"


def get_rng_state(device=None):
    """The states of the generators of `device` (the CPU's: a list of one GeneratorState)."""
    return [GeneratorState(libpaddle._rng_state())]


def set_rng_state(state_list, device=None):
    """Restores generator states taken by get_rng_state, so the draws after it repeat."""
    if not isinstance(state_list, (list, tuple)):
        raise TypeError(f"set_rng_state(): argument 'state_list' must be a list of "
                        f"GeneratorState from get_rng_state(), received {state_list!r}")
    if len(state_list) != 1:
        raise ValueError(f"set_rng_state(): the CPU state list must hold 1 GeneratorState, "
                         f"received {len(state_list)}: {state_list!r}")
    state = state_list[0]
    if not isinstance(state, GeneratorState):
        raise TypeError(f"set_rng_state(): argument 'state_list' must hold GeneratorState "
                        f"from get_rng_state(), received {state!r}")
    if not libpaddle._set_rng_state(state._state):
        raise ValueError(f"set_rng_state(): {state!r} does not hold a generator state")
