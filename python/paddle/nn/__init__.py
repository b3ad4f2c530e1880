"""paddle.nn: layers, losses, containers, initializers and gradient clipping."""
from . import functional, initializer  # noqa: F401
from .layer import loss  # noqa: F401  (Paddle's paddle.nn.loss: the loss layers)
from .clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue
from .layer.activation import GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, Silu, Softmax, Tanh
from .layer.activation import (CELU, ELU, GLU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh,
                               LogSigmoid, Maxout, Mish, PReLU, ReLU6, RReLU, SELU, Softmax2D,
                               Softplus, Softshrink, Softsign, Swish, Tanhshrink, ThresholdedReLU)
from .layer.common import Dropout, Flatten, Identity, Linear
from .decode import BeamSearchDecoder, dynamic_decode
from .layer.ctc import CTCLoss
from .layer.conv import (Conv1D, Conv1DTranspose, Conv2D, Conv2DTranspose, Conv3D,  # noqa: F401
                         Conv3DTranspose)
from .layer.common import Upsample, UpsamplingBilinear2D, UpsamplingNearest2D
from .layer.embedding import Embedding
from .layer.layout import (ChannelShuffle, Fold, Pad1D, Pad2D, Pad3D, PixelShuffle,
                           PixelUnshuffle, Unflatten, Unfold, ZeroPad1D, ZeroPad2D, ZeroPad3D)
from .layer.container import LayerDict, LayerList, ParameterList, Sequential
from .layer.layers import Layer
from .layer.loss import CrossEntropyLoss, L1Loss, MSELoss, NLLLoss
from .layer.loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss,  # noqa: F401
                         GaussianNLLLoss, HingeEmbeddingLoss, KLDivLoss, MarginRankingLoss,
                         MultiLabelSoftMarginLoss, PoissonNLLLoss, SmoothL1Loss, SoftMarginLoss,
                         TripletMarginLoss, TripletMarginWithDistanceLoss)
from .layer.norm import BatchNorm, BatchNorm1D, BatchNorm2D, BatchNorm3D, LayerNorm
from .layer.norm import (GroupNorm, InstanceNorm1D, InstanceNorm2D, InstanceNorm3D,
                         LocalResponseNorm, SpectralNorm, SyncBatchNorm)
from .layer.transformer import (MultiHeadAttention, Transformer, TransformerDecoder,  # noqa: F401
                                TransformerDecoderLayer, TransformerEncoder,
                                TransformerEncoderLayer)
from .layer.pooling import (AdaptiveAvgPool1D, AdaptiveAvgPool2D, AdaptiveAvgPool3D,  # noqa: F401
                            AdaptiveMaxPool1D, AdaptiveMaxPool2D, AdaptiveMaxPool3D, AvgPool1D,
                            AvgPool2D, AvgPool3D, LPPool1D, LPPool2D, MaxPool1D, MaxPool2D,
                            MaxPool3D, MaxUnPool1D, MaxUnPool2D, MaxUnPool3D)
from .layer.rnn import (GRU, LSTM, RNN, BiRNN, GRUCell, LSTMCell, RNNCellBase,  # noqa: F401
                        SimpleRNN, SimpleRNNCell)
from .param_attr import ParamAttr  # noqa: F401
from .parameter import EagerParamBase  # noqa: F401

__all__ = ["ClipGradByGlobalNorm", "ClipGradByNorm", "ClipGradByValue", "CrossEntropyLoss",
           "Dropout", "Flatten", "GELU", "Identity", "L1Loss", "Layer", "LayerDict",
           "LayerList", "LeakyReLU", "Linear", "LogSoftmax", "MSELoss", "NLLLoss",
           "ParameterList", "ReLU", "Sequential", "Sigmoid", "Silu", "Softmax", "Tanh"]
__all__ += ["Embedding"]
__all__ += ["BeamSearchDecoder", "CTCLoss", "dynamic_decode"]
__all__ += ["Conv1D", "Conv1DTranspose", "Conv2D", "Conv2DTranspose", "Conv3D", "Conv3DTranspose"]
__all__ += ["ChannelShuffle", "Fold", "Pad1D", "Pad2D", "Pad3D", "PixelShuffle", "PixelUnshuffle",
            "Unflatten", "Unfold", "ZeroPad1D", "ZeroPad2D", "ZeroPad3D"]
__all__ += ["Upsample", "UpsamplingBilinear2D", "UpsamplingNearest2D"]
__all__ += ["CELU", "ELU", "GLU", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "LogSigmoid",
            "Maxout", "Mish", "PReLU", "ReLU6", "RReLU", "SELU", "Softmax2D", "Softplus", "Softshrink",
            "Softsign", "Swish", "Tanhshrink", "ThresholdedReLU"]
__all__ += ["BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "LayerNorm"]
__all__ += ["GroupNorm", "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D",
            "LocalResponseNorm", "SpectralNorm", "SyncBatchNorm"]
__all__ += ["AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "AdaptiveAvgPool3D", "AdaptiveMaxPool1D",
            "AdaptiveMaxPool2D", "AdaptiveMaxPool3D", "AvgPool1D", "AvgPool2D", "AvgPool3D",
            "LPPool1D", "LPPool2D", "MaxPool1D", "MaxPool2D", "MaxPool3D", "MaxUnPool1D",
            "MaxUnPool2D", "MaxUnPool3D"]
__all__ += ["BCELoss", "BCEWithLogitsLoss", "CosineEmbeddingLoss", "GaussianNLLLoss",
            "HingeEmbeddingLoss", "KLDivLoss", "MarginRankingLoss", "MultiLabelSoftMarginLoss",
            "PoissonNLLLoss", "SmoothL1Loss", "SoftMarginLoss", "TripletMarginLoss",
            "TripletMarginWithDistanceLoss"]
__all__ += ["BiRNN", "GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "RNNCellBase", "SimpleRNN",
            "SimpleRNNCell"]
__all__ += ["MultiHeadAttention", "Transformer", "TransformerDecoder", "TransformerDecoderLayer",
            "TransformerEncoder", "TransformerEncoderLayer"]
