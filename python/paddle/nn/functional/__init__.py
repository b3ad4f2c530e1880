"""paddle.nn.functional: the stateless forms of the layers in paddle.nn. The functions of single
ops (relu, gelu, one_hot, ...) are generated from the op declarations (paddle.base.generated_api);
the modules here hold the hand-written ones."""
from ...base import generated_api as _generated_api
from .activation import leaky_relu, log_softmax, softmax
from .common import dropout, linear
from .conv import (conv1d, conv1d_transpose, conv2d, conv2d_transpose, conv3d,  # noqa: F401
                   conv3d_transpose)
from .input import embedding
from .loss import cross_entropy, l1_loss, mse_loss, nll_loss
from .norm import batch_norm, layer_norm, normalize
from .pooling import (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d,  # noqa: F401
                      adaptive_max_pool1d, adaptive_max_pool2d, adaptive_max_pool3d, avg_pool1d,
                      avg_pool2d, avg_pool3d, lp_pool1d, lp_pool2d, max_pool1d, max_pool2d,
                      max_pool3d, max_unpool1d, max_unpool2d, max_unpool3d)

__all__ = ["cross_entropy", "dropout", "l1_loss", "leaky_relu", "linear", "log_softmax",
           "mse_loss", "nll_loss", "softmax"]
__all__ += ["embedding"]
__all__ += ["conv1d", "conv1d_transpose", "conv2d", "conv2d_transpose", "conv3d",
            "conv3d_transpose"]
__all__ += ["batch_norm", "layer_norm", "normalize"]
__all__ += ["adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
            "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d", "avg_pool1d",
            "avg_pool2d", "avg_pool3d", "lp_pool1d", "lp_pool2d", "max_pool1d", "max_pool2d",
            "max_pool3d", "max_unpool1d", "max_unpool2d", "max_unpool3d"]
__all__ += _generated_api.EXPORTS["paddle.nn.functional"]
globals().update({name: getattr(_generated_api, name)
                  for name in _generated_api.EXPORTS["paddle.nn.functional"]})
