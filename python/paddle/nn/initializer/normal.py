"""Normal and truncated normal initializers."""
from ... import _C_ops
from ...base.framework import convert_dtype
from .initializer import Initializer, _gaussian, _random_dtype

__all__ = ["Normal", "TruncatedNormal"]


class Normal(Initializer):
    """Samples from N(mean, std^2)."""

    def __init__(self, mean=0.0, std=1.0, name=None):
        if std < 0:
            raise ValueError(f"Normal(): 'std' must be non-negative, received {std}")
        self._mean = mean
        self._std = std

    def _value(self, param):
        return _gaussian(param, self._mean, self._std)


class TruncatedNormal(Initializer):
    """Samples from N(mean, std^2) restricted to [a, b] (absolute bounds), by inverting the
    normal CDF at uniform draws as Paddle's truncated_gaussian_random does (its values)."""

    def __init__(self, mean=0.0, std=1.0, a=-2.0, b=2.0, name=None):
        if std <= 0:
            raise ValueError(f"TruncatedNormal(): 'std' must be positive, received {std}")
        if a >= b:
            raise ValueError(f"TruncatedNormal(): 'a' ({a}) must be less than 'b' ({b})")
        self._mean, self._std, self._a, self._b = mean, std, a, b

    def _value(self, param):
        dtype = convert_dtype(param.dtype)
        out = _C_ops.truncated_gaussian_random(list(param.shape), float(self._mean),
                                               float(self._std), 0, float(self._a),
                                               float(self._b), _random_dtype(dtype), param.place)
        return out if out.dtype == dtype else _C_ops.cast(out, dtype)
