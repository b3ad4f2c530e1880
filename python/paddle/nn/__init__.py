"""paddle.nn: layers, losses, containers, initializers and gradient clipping."""
from . import functional, initializer  # noqa: F401
from .clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue
from .layer.activation import GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, Silu, Softmax, Tanh
from .layer.common import Dropout, Flatten, Identity, Linear
from .layer.conv import (Conv1D, Conv1DTranspose, Conv2D, Conv2DTranspose, Conv3D,  # noqa: F401
                         Conv3DTranspose)
from .layer.embedding import Embedding
from .layer.container import LayerDict, LayerList, ParameterList, Sequential
from .layer.layers import Layer
from .layer.loss import CrossEntropyLoss, L1Loss, MSELoss, NLLLoss
from .layer.norm import BatchNorm, BatchNorm1D, BatchNorm2D, BatchNorm3D, LayerNorm
from .layer.pooling import (AdaptiveAvgPool1D, AdaptiveAvgPool2D, AdaptiveAvgPool3D,  # noqa: F401
                            AdaptiveMaxPool1D, AdaptiveMaxPool2D, AdaptiveMaxPool3D, AvgPool1D,
                            AvgPool2D, AvgPool3D, LPPool1D, LPPool2D, MaxPool1D, MaxPool2D,
                            MaxPool3D, MaxUnPool1D, MaxUnPool2D, MaxUnPool3D)
from .param_attr import ParamAttr  # noqa: F401
from .parameter import EagerParamBase  # noqa: F401

__all__ = ["ClipGradByGlobalNorm", "ClipGradByNorm", "ClipGradByValue", "CrossEntropyLoss",
           "Dropout", "Flatten", "GELU", "Identity", "L1Loss", "Layer", "LayerDict",
           "LayerList", "LeakyReLU", "Linear", "LogSoftmax", "MSELoss", "NLLLoss",
           "ParameterList", "ReLU", "Sequential", "Sigmoid", "Silu", "Softmax", "Tanh"]
__all__ += ["Embedding"]
__all__ += ["Conv1D", "Conv1DTranspose", "Conv2D", "Conv2DTranspose", "Conv3D", "Conv3DTranspose"]
__all__ += ["BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "LayerNorm"]
__all__ += ["AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "AdaptiveAvgPool3D", "AdaptiveMaxPool1D",
            "AdaptiveMaxPool2D", "AdaptiveMaxPool3D", "AvgPool1D", "AvgPool2D", "AvgPool3D",
            "LPPool1D", "LPPool2D", "MaxPool1D", "MaxPool2D", "MaxPool3D", "MaxUnPool1D",
            "MaxUnPool2D", "MaxUnPool3D"]
