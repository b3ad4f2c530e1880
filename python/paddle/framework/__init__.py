"""paddle.framework: dtypes, the random seed, flags and the default dtype."""
from ..base.framework import get_default_dtype, in_dynamic_mode, set_default_dtype  # noqa: F401
from .flags import get_flags, set_flags  # noqa: F401
from .io import load, save  # noqa: F401
from .random import get_rng_state, seed, set_rng_state  # noqa: F401
