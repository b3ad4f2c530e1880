"""paddle.nn.functional: the stateless forms of the layers in paddle.nn. The functions of single
ops (relu, gelu, one_hot, ...) are generated from the op declarations (paddle.base.generated_api);
the modules here hold the hand-written ones."""
from ...base import generated_api as _generated_api
from .activation import gelu, glu, log_softmax, mish, prelu, rrelu, softmax, softmax_
from .common import dropout, linear
from .input import embedding
from .loss import cross_entropy, l1_loss, mse_loss, nll_loss
from .norm import batch_norm, layer_norm, normalize

__all__ = ["cross_entropy", "dropout", "l1_loss", "linear", "log_softmax", "mse_loss", "nll_loss",
           "softmax"]
__all__ += ["gelu", "glu", "mish", "prelu", "rrelu", "softmax_"]
__all__ += ["embedding"]
__all__ += ["batch_norm", "layer_norm", "normalize"]
__all__ += _generated_api.EXPORTS["paddle.nn.functional"]
globals().update({name: getattr(_generated_api, name)
                  for name in _generated_api.EXPORTS["paddle.nn.functional"]})
