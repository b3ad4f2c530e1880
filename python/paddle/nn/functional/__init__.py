"""paddle.nn.functional: the stateless forms of the layers in paddle.nn."""
from .activation import (gelu, leaky_relu, log_softmax, relu, relu_, sigmoid, silu, softmax,
                         tanh)
from .common import dropout, linear
from .input import embedding, one_hot
from .loss import cross_entropy, l1_loss, mse_loss, nll_loss
from .norm import batch_norm, layer_norm, normalize

__all__ = ["cross_entropy", "dropout", "gelu", "l1_loss", "leaky_relu", "linear",
           "log_softmax", "mse_loss", "nll_loss", "relu", "relu_", "sigmoid", "silu", "softmax",
           "tanh"]
__all__ += ["embedding", "one_hot"]
__all__ += ["batch_norm", "layer_norm", "normalize"]
