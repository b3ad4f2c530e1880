"""The tensor API: creation, math, manipulation, logic, search, statistics and random ops."""
from . import creation, linalg, logic, manipulation, math, random, search, stat  # noqa: F401
from . import tensor_methods  # noqa: F401  (adds the operators and methods to paddle.Tensor)
from ..base import generated_api as _generated_api

# Paddle's paddle.tensor also holds every tensor function (paddle.tensor.triu, ...): here they
# live in the modules above and in the functions generated from the op declarations.
for _module in (creation, linalg, logic, manipulation, math, random, search, stat):
    globals().update({_name: getattr(_module, _name) for _name in _module.__all__})
globals().update({_name: getattr(_generated_api, _name)
                  for _name in _generated_api.EXPORTS["paddle"]})
